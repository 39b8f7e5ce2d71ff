"""The legend beside a board picture: which lines it has and how they are drawn.

Each line is an :data:`Entry` — a swatch (a :class:`~solo_ops.view.picture_style.Style`, or the
kind of symbol :func:`~solo_ops.view.shapes.marker_shapes` draws), its text and the swatch's
shape (``box``, ``line``, ``disc`` or ``marker``). :func:`board_legend` gives the board's own
lines (terrain by kind, drop zones, objectives, firing points, markers, sectors),
:func:`legend_swatch` a caller's line (:func:`solo_ops.view.render.add_legend`), and
:func:`legend_shapes` draws them all, as :mod:`solo_ops.view.render` places the legend.
"""

from __future__ import annotations

from solo_ops.geometry.board import Board
from solo_ops.view.picture_style import (
    FIRING_POINT_COLOUR,
    LEGEND_CHARS,
    LINE_WIDTH_IN,
    PATH_STYLES,
    PORTAL_STYLES,
    SCALE,
    SIDE_COLOURS,
    TERRAIN_STYLES,
    TEXT,
    ZONE_COLOURS,
    Style,
)
from solo_ops.view.shapes import Shape, abbrev, marker_shapes, terrain_style

Entry = tuple[Style | str, str, str]
"""One legend line: the swatch (a style, or a symbol's kind), the text, the swatch's shape."""


def board_legend(board: Board) -> list[Entry]:
    """The legend lines of what ``board`` shows: its terrain by kind (in the styles' order),
    drop zones, objectives and command nodes, firing points, markers, sector boundaries."""
    out: list[Entry] = []
    seen: set[str] = set()
    for f in board.features:
        text, style = terrain_style(f)
        if text in seen:
            continue
        seen.add(text)
        if f.is_line and "wall" in f.traits and not f.is_portal:
            style = Style(None, 1.0, style.fill, 1.0, LINE_WIDTH_IN * SCALE)
        shape = "line" if f.is_portal or f.is_line else "box"
        out.append((style, text, shape))
    order = [t for _, t, _ in TERRAIN_STYLES] + [v[0] for v in PORTAL_STYLES.values()]
    out.sort(key=lambda e: order.index(e[1]) if e[1] in order else len(order))
    for name, colour in ZONE_COLOURS.items():
        if name in board.zones:
            out.append((Style(colour, 0.12, colour, 0.8, 1.5, (6.0, 4.0)),
                        f"{name} drop zone", "box"))
    for name in board.zones:
        if name not in ZONE_COLOURS:
            out.append((Style("#888888", 0.12, "#888888", 0.8, 1.5, (6.0, 4.0)),
                        f"{name} drop zone", "box"))
    if board.objectives:
        out.append(("objective", "objective marker", "marker"))
    if any(o.command_node for o in board.objectives):
        out.append(("command_node", "command node", "marker"))
    if board.firing_points:
        out.append((Style(FIRING_POINT_COLOUR, 0.12, FIRING_POINT_COLOUR, 0.9, 1.2, (4.0, 3.0)),
                    "firing point and arc", "box"))
    for kind in sorted({m.kind for m in board.markers}):
        out.append(("marker", f"{abbrev(kind)}: {kind.replace('-', ' ')}", "marker"))
    out.append((Style(None, 1.0, "#555555", 0.9, 1.2, (8.0, 5.0)), "sector boundary", "line"))
    return out


def legend_swatch(kind: str, text: str) -> Entry:
    """A caller's legend line (:func:`~solo_ops.view.render.add_legend`): ``kind`` picks the
    swatch (a side, a symbol, a path kind, a terrain trait; anything else a plain box)."""
    if kind in SIDE_COLOURS:
        return (Style(SIDE_COLOURS[kind], 0.9, "#ffffff", 1.0, 1.5), text, "disc")
    if kind in ("counter", "downed"):
        return (kind, text, "marker")
    if kind in PATH_STYLES:
        colour, width, dash = PATH_STYLES[kind]
        return (Style(None, 1.0, colour, 1.0, width, dash), text, "line")
    if kind in ("objective", "command_node", "marker"):
        return (kind, text, "marker")
    for trait, _, style in TERRAIN_STYLES:
        if trait == kind:
            return (style, text, "box")
    return (Style("#cccccc", 1.0, "#888888", 1.0, 1.0), text, "box")


def legend_shapes(entries: list[Entry], lx: float, ly: float) -> list[Shape]:
    """The legend drawn with its top left at (``lx``, ``ly``) pixels: its title, then one line
    per entry, a swatch and its text (cut to :data:`~.picture_style.LEGEND_CHARS`)."""
    out: list[Shape] = [Shape("text", ((lx, ly + 12),), Style(TEXT), text="Legend", size=13,
                              bold=True, css="legend-title")]
    y = ly + 34.0
    for swatch, text, shape in entries:
        cx, cy = lx + 12.0, y - 4.0
        if isinstance(swatch, str):
            out.extend(marker_shapes(swatch, cx, cy, 7.0, "legend"))
        elif shape == "line":
            w = min(swatch.width, 6.0)
            st = Style(None, 1.0, swatch.stroke, swatch.stroke_opacity, w, swatch.dash)
            out.append(Shape("polyline", ((lx, cy), (lx + 24.0, cy)), st, css="legend"))
        elif shape == "disc":
            out.append(Shape("circle", ((cx, cy),), swatch, radius=7.0, css="legend"))
        else:
            pts = ((lx, cy - 7.0), (lx + 24.0, cy - 7.0), (lx + 24.0, cy + 7.0), (lx, cy + 7.0))
            out.append(Shape("polygon", pts, swatch, css="legend"))
        out.append(Shape("text", ((lx + 32.0, y),), Style(TEXT), text=_fit(text, LEGEND_CHARS),
                         size=11, css="legend-text"))
        y += 20.0
    return out


def _fit(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
