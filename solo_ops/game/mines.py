"""Mines markers in play, for either side: the first time any operative ends a move within
control range of a ``mines`` marker it takes D3+3 damage (rolled and logged) and the marker is
spent (:func:`check_mines`, asked after every move and charge of both sides).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from solo_ops.game.downed import apply_damage
from solo_ops.game.state import Operative, State
from solo_ops.rules import reach

if TYPE_CHECKING:
    from solo_ops.game.definition import Game


def check_mines(game: Game, state: State, op: Operative) -> list[dict[str, Any]]:
    """Mines: "The first time ANY Operative is within Control Range, inflict D3+3 damage"."""
    events: list[dict[str, Any]] = []
    if op.at is None:
        return events
    for marker in game.terrain(state).board.markers:
        if marker.kind != "mines" or marker.id in state.spent_markers:
            continue
        if reach.in_control_range(game.terrain(state), op.at, op.radius, marker.at, 0.0):
            state.spent_markers.append(marker.id)
            roll = state.dice.d3(f"mines {marker.id}: D3+3 damage to {op.label}",  # type: ignore
                                 [("mines", 3)])
            events.append({"type": "mines", "marker": marker.id, "operative": op.id,
                           "damage": roll.value})
            events.extend(apply_damage(game, state, op, roll.value, f"mines {marker.id}"))
    return events
