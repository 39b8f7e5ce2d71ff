"""The board for the table view: the players' view drawn as SVG, with what the page needs.

Built only from :func:`solo_ops.view.player.player_view` and player records
(:func:`~solo_ops.view.player.player_record`): the players' models, revealed enemies with their
ids, unknown counters as "?" counters with their ids, objectives, doors and hatches with their
ids, and the last enemy activation as numbered arrows from where each model started to where it
ended, labelled with the model's id. The drawing is the maps' renderer
(:mod:`solo_ops.view.render`); the few extra labels are added as SVG elements of the same kind.
:func:`geometry` tells the page how SVG pixels map to board inches, for tapping.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from solo_ops.game import markers
from solo_ops.view import render

if TYPE_CHECKING:
    from solo_ops.game.definition import Game
    from solo_ops.game.state import State


BADGE = "#4a5a6a"


def last_activation(records: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The most recent enemy activation in player records (its plan, never a secret one)."""
    for record in reversed(records):
        for event in reversed(record["events"]):
            if event.get("type") == "enemy_activation" and not event.get("secret"):
                return event
    return None


def scene_for(game: Game, state: State, view: dict[str, Any], records: list[dict[str, Any]]
              ) -> tuple[Any, list[str]]:
    """The render scene of the players' view and the extra SVG elements (labels, numbers)."""
    terrain = game.terrain(state)
    board = markers.board_now(game, state, terrain.board)  # carried / placed-down markers
    scene = render.board_scene(board, title=f"{view['scenario']} — turn {view['turn']}")
    scene.scale = render.SCALE
    extra: list[str] = []
    radius = {o.id: o.radius for o in state.operatives.values()}
    players = list(view["squads"])
    for index, ops in enumerate(view["squads"].values()):
        side = "player" if index == 0 else f"player{min(index, 2) + 1}"
        for o in ops:
            if o["at"] is None or o.get("carried_by"):
                continue  # (a friend carried is drawn as its carrier's "⇐" label)
            label = o["id"] + (" ⇐" + o["carrying"] if o.get("carrying") else "")
            label += " ⚑" + o["marker"] if o.get("marker") else ""  # a carried marker
            label += " (down)" if o["down"] else ""  # lying there: its base takes room
            render.add_disc(scene, tuple(o["at"]), radius[o["id"]], side=side, label=label,
                            downed=o["down"])
    for o in view["enemies"]:
        if o["at"] is None or o["down"]:
            continue
        render.add_disc(scene, tuple(o["at"]), radius[o["id"]], side="enemy", label=o["id"])
    for c in view["counters"]:
        render.add_counter(scene, tuple(c["at"]), label=c["id"])
    activation = last_activation(records)
    if activation is not None:
        plan = activation.get("plan") or {}
        number = 0
        for move in plan.get("moves", []):
            route = [tuple(p) for p in (move.get("route") or [])]
            if len(route) < 2:
                continue
            number += 1
            kind = "charge" if move.get("kind") == "charge" else "move"
            render.add_path(scene, route, kind=kind)
            extra.append(_badge(scene, route[0], number, str(move.get("model", "?"))))
        for shot in plan.get("shoot", []):
            a = state.operatives.get(shot.get("model"))
            b = state.operatives.get(shot.get("target"))
            if a and b and a.at and b.at and a.on_table and b.on_table:
                render.add_path(scene, [a.at, b.at], kind="shot")
    for f in board.portals():
        c = f.shape.centroid
        px, py = scene.px(c.x, c.y)
        state_word = "open" if f.open else "closed"
        extra.append(f'<text class="portal-label" x="{px:.1f}" y="{py - 6:.1f}" font-size="10" '
                     f'text-anchor="middle" fill="#5a3000" stroke="#ffffff" stroke-width="3" '
                     f'stroke-opacity="0.85" paint-order="stroke" font-weight="bold">'
                     f'{escape(f.id)} ({state_word})</text>')
    entries = [("player", f"{p}'s squad") for p in players[:1]]
    entries += [(f"player{min(i, 1) + 2}", f"{p}'s squad") for i, p in enumerate(players[1:])]
    entries += [("enemy", "revealed enemies"), ("counter", "hidden counter (unknown)")]
    if any(o["down"] and o["at"] is not None for ops in view["squads"].values() for o in ops):
        entries.append(("downed", "downed operative (base stays)"))
    if activation is not None:
        entries.append(("move", f"last enemy activation ({activation.get('unit', '?')})"))
    render.add_legend(scene, entries)
    return scene, extra


def _badge(scene: Any, at: tuple[float, float], number: int, model: str) -> str:
    """A numbered disc at the start of an enemy's move, with the model's id."""
    px, py = scene.px(float(at[0]), float(at[1]))
    return (f'<g class="activation-step"><circle cx="{px:.1f}" cy="{py - 14:.1f}" r="8" '
            f'fill="{BADGE}" stroke="#ffffff" stroke-width="1.5"/>'
            f'<text x="{px:.1f}" y="{py - 10.5:.1f}" font-size="10" text-anchor="middle" '
            f'fill="#ffffff" font-weight="bold">{number}</text>'
            f'<text x="{px + 11:.1f}" y="{py - 10.5:.1f}" font-size="10" fill="{BADGE}" '
            f'stroke="#ffffff" stroke-width="3" stroke-opacity="0.85" paint-order="stroke">'
            f'{escape(model)}</text></g>')


def board_svg(game: Game, state: State, view: dict[str, Any], records: list[dict[str, Any]]) -> str:
    """The players' view as an SVG document (see the module docstring)."""
    scene, extra = scene_for(game, state, view, records)
    text = render.svg_text(scene)
    cut = text.rstrip().rfind("</svg>")
    return text[:cut] + "".join(line + "\n" for line in extra) + "</svg>\n"


def board_png(game: Game, state: State, view: dict[str, Any], records: list[dict[str, Any]]
              ) -> bytes:
    """The players' view as a PNG picture (the map download; without the extra labels)."""
    scene, _ = scene_for(game, state, view, records)
    return render.png_bytes(scene)


def geometry(game: Game, state: State) -> dict[str, Any]:
    """How the SVG maps to the board: a point (px, py) in SVG pixels is the board point
    ``x = (px - origin[0]) / scale``, ``y = depth - (py - origin[1]) / scale`` inches."""
    board = game.terrain(state).board
    return {"width": board.width, "depth": board.depth, "scale": render.SCALE,
            "origin": [render.MARGIN_LEFT, render.MARGIN_TOP]}
