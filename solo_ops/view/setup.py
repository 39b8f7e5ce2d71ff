"""The set-up, told so a group can lay out the table with a tape measure: the page and the sheet.

Built from the player view only (:func:`solo_ops.view.player.player_view`): the revealed enemy
models with their weapons and where each stands, every hidden counter's place (never what it
holds: that is rolled when one of the players' operatives sees it), the roster's d6 table of
what a counter may become, the drop zones, the doors and hatches (open or closed), the objective
markers and the players' operatives.
Every place is measured from two table edges, the nearer of left and right and the nearer of
near and far (:func:`edge_words`: ``14" from the left edge, 6" from the near edge``); the near
edge is the bottom edge of every picture (sectors 1-3), where the players' drop zone usually is.

:func:`setup_doc` is the page's (``GET /api/setup``), :func:`sheet_png` the printable one-page
sheet for a table without phones (the set-up picture above, the same words below).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from shapely.geometry import Polygon

from solo_ops.view import board_view, drawing, measure
from solo_ops.view.cards import weapon_words
from solo_ops.view.labels import fit_to_width, wrap_words

if TYPE_CHECKING:
    from solo_ops.game.definition import Game
    from solo_ops.game.state import State
    from solo_ops.geometry.board import Board

EDGES_NOTE = ("Measured to each model's or counter's centre from the two nearest table edges; "
              "the near edge is the bottom edge of the picture (sectors 1-3), the far edge the "
              "top.")


def edge_words(at: Sequence[float], board: Board, units: str = "in") -> str:
    """Where a point is, from the nearer side edge and the nearer of the near and far edges:
    ``14.0" from the left edge, 6.0" from the near edge``."""
    x, y = float(at[0]), float(at[1])
    side = (x, "left") if x <= board.width - x else (board.width - x, "right")
    end = (y, "near") if y <= board.depth - y else (board.depth - y, "far")
    return (f"{measure.length(side[0], units)} from the {side[1]} edge, "
            f"{measure.length(end[0], units)} from the {end[1]} edge")


def _span(lo: float, hi: float, size: float, low: str, high: str, units: str) -> str:
    """One axis of a zone: the whole of it, or from one edge inwards, or between two marks."""
    tol = 1e-6
    if lo <= tol and hi >= size - tol:
        return f"the whole {'width' if low == 'left' else 'depth'}"
    if lo <= tol:
        return f"from the {low} edge to {measure.length(hi, units)} in"
    if hi >= size - tol:
        return f"from the {high} edge to {measure.length(size - lo, units)} in"
    return (f"from {measure.length(lo, units)} to {measure.length(hi, units)} from the {low} "
            "edge")


def zone_words(zone: Polygon, board: Board, units: str = "in") -> str:
    """A drop zone measured from the edges: a rectangle by its two spans (``the whole width,
    from the near edge to 3.5" in``), any other shape by its corners."""
    x0, y0, x1, y1 = zone.bounds
    if abs(zone.area - (x1 - x0) * (y1 - y0)) < 1e-6:
        return (f"{_span(x0, x1, board.width, 'left', 'right', units)}, "
                f"{_span(y0, y1, board.depth, 'near', 'far', units)}")
    corners = list(zone.exterior.coords)[:-1]
    return "corners: " + "; ".join(edge_words(c, board, units) for c in corners)


def _item(name: str, where: str | None = None, lines: list[str] | None = None
          ) -> dict[str, Any]:
    return {"name": name, "where": where, "lines": lines or []}


def setup_doc(game: Game, state: State, view: dict[str, Any]) -> dict[str, Any]:
    """The set-up for the page: a title and its sections (each ``key``, ``title``, ``note``
    and ``items``: a ``name``, where it goes and its lines), as the module docstring says."""
    units = game.settings.units
    board = game.terrain(state).board
    edition = view["edition"]
    ops = {o.id: o for o in state.operatives.values()}
    sections: list[dict[str, Any]] = []
    enemies = [o for o in view["enemies"] if o["at"] is not None and not o["down"]]
    sections.append({"key": "enemies", "title": "The enemy to put out", "note": EDGES_NOTE,
                     "items": [_item(f"{o['id']} — {o['name']} ({o['owner']})",
                                     edge_words(o["at"], board, units),
                                     [weapon_words(w, edition, units)
                                      for w in ops[o["id"]].profile.weapons])
                               for o in enemies]})
    sections.append({"key": "counters", "title": "Hidden counters",
                     "note": "Put a counter at each place. What a counter holds is rolled when "
                             "one of your operatives sees it: none, one to four models from the "
                             "roster's table below, or an ambush.",
                     "items": [_item(c["id"], edge_words(c["at"], board, units))
                               for c in view["counters"]]})
    roster = game.scenario.roster
    if roster is not None:
        faces: dict[str, list[int]] = {}
        for face, key in sorted(roster.table.items()):
            faces.setdefault(key, []).append(face)
        items = []
        for key, rolled in faces.items():
            profile = roster.profiles[key].for_edition(edition)
            numbers = (f"{rolled[0]}" if len(rolled) == 1 else f"{rolled[0]}-{rolled[-1]}"
                       if rolled == list(range(rolled[0], rolled[-1] + 1))
                       else ", ".join(map(str, rolled)))
            items.append(_item(f"{numbers}: {profile.name}",
                               f"wounds {profile.wounds}, "
                               + ("no save" if profile.save > 6 else f"save {profile.save}+"),
                               [weapon_words(w, edition, units) for w in profile.weapons]))
        sections.append({"key": "roster", "title": f"What a counter may become ({roster.name}, "
                                                   "the d6 roster table)",
                         "note": "Have these models ready beside the table.", "items": items})
    sections.append({"key": "zones", "title": "Drop zones", "note": None,
                     "items": [_item(f"{name} drop zone", zone_words(poly, board, units))
                               for name, poly in board.zones.items()]})
    portals = [_item(f.id, "open" if view["doors"].get(f.id, f.open) else "closed")
               for f in board.portals()]
    sections.append({"key": "portals", "title": "Doors and hatches", "note": None,
                     "items": portals})
    sections.append({"key": "objectives", "title": "Objective markers", "note": None,
                     "items": [_item(o.id + (" (portable)" if o.portable else ""),
                                     edge_words(o.at, board, units))
                               for o in board.objectives]})
    squads = [_item(f"{o['id']} — {o['name']} ({player})", edge_words(o["at"], board, units))
              for player, group in view["squads"].items() for o in group
              if o["at"] is not None and not o.get("carried_by")]
    sections.append({"key": "squads", "title": "Your operatives", "note": None,
                     "items": squads})
    return {"title": f"{game.scenario.name} — set-up", "board": board.name,
            "size": f"{measure.length(board.width, units)} x "
                    f"{measure.length(board.depth, units)}",
            "sections": [s for s in sections if s["items"]]}


PAGE = (1240, 1754)
"""The sheet's size in pixels: A4 at 150 dots to the inch."""
MARGIN = 50


def _lines(doc: dict[str, Any]) -> list[tuple[str, str]]:
    """The sheet's text as (style, text) lines: ``head``, ``note``, ``item``, ``sub``."""
    out: list[tuple[str, str]] = []
    for section in doc["sections"]:
        out.append(("head", section["title"]))
        if section.get("note"):
            out.append(("note", section["note"]))
        for item in section["items"]:
            out.append(("item", item["name"] + (f": {item['where']}" if item["where"] else "")))
            out.extend(("sub", line) for line in item["lines"])
    return out


def sheet_png(game: Game, state: State, view: dict[str, Any]) -> bytes:
    """The printable set-up sheet: one A4 page (PNG) with the title, the set-up picture and
    the set-up in words (:func:`setup_doc`) in as many columns and as small a type as it
    takes to fit."""
    from PIL import Image, ImageDraw

    doc = setup_doc(game, state, view)
    drawn = Image.open(io.BytesIO(drawing.png_bytes(board_view.board_scene(game, state, view,
                                                                            []))))
    width = PAGE[0] - 2 * MARGIN
    k = width / drawn.width
    picture = drawn.resize((width, round(drawn.height * k)), Image.Resampling.LANCZOS)
    page = Image.new("RGB", PAGE, "#ffffff")
    draw = ImageDraw.Draw(page)
    name = game.scenario.name  # a long name smaller, then cut; never the "— set-up" after it
    title, title_size = fit_to_width(name, 30, True, width, 18, tail=doc["title"][len(name):],
                                     step=1)
    draw.text((MARGIN, MARGIN - 10), title, font=drawing.font(title_size, True),
              fill="#222222")
    top = MARGIN + 40
    page.paste(picture, (MARGIN, top))
    top += picture.height + 20
    lines = _lines(doc)
    for size, columns in ((17, 2), (15, 2), (14, 3), (12, 3), (11, 3), (10, 4), (9, 4)):
        laid = _lay_out(lines, size, columns, width, PAGE[1] - MARGIN - top)
        if laid is not None:
            break
    else:  # more than a page holds: as much as fits, and where the rest is
        cut = len(lines)
        while laid is None and cut > 1:
            cut -= 1
            laid = _lay_out([*lines[:cut], ("note", "… the rest is on the page's set-up card")],
                            size, columns, width, PAGE[1] - MARGIN - top)
    for (x, y), style, text in laid or []:
        bold = style in ("head", "item")
        draw.text((MARGIN + x, top + y), text, font=drawing.font(size + (2 if style == "head"
                                                                          else 0), bold),
                  fill="#555555" if style in ("note", "sub") else "#222222")
    out = io.BytesIO()
    page.save(out, format="PNG", optimize=True, dpi=(150, 150))
    return out.getvalue()


def _lay_out(lines: list[tuple[str, str]], size: int, columns: int, width: int, height: int
             ) -> list[tuple[tuple[int, int], str, str]] | None:
    """Where each line goes in ``columns`` columns of type ``size`` (long lines wrapped), or
    None when they do not fit in ``height``."""
    gap = 24
    col = (width - gap * (columns - 1)) // columns
    step = round(size * 1.35)
    out: list[tuple[tuple[int, int], str, str]] = []
    c, y = 0, 0
    for style, text in lines:
        indent = 16 if style == "sub" else 0
        font = drawing.font(size + (2 if style == "head" else 0), style in ("head", "item"))
        wrapped = _wrap(text, font, col - indent)
        need = step * len(wrapped) + (round(size * 0.6) if style == "head" else 0)
        if y + need > height:
            c, y = c + 1, 0
            if c >= columns:
                return None
        if style == "head" and y:
            y += round(size * 0.6)
        for part in wrapped:
            out.append(((c * (col + gap) + indent, y), style, part))
            y += step
    return out


def _wrap(text: str, font: Any, width: int) -> list[str]:
    """``text`` broken at spaces into lines at most ``width`` pixels wide in ``font``."""
    return wrap_words(text, lambda line: font.getlength(line) <= width)
