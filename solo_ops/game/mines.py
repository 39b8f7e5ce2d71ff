"""Mines markers in play, for either side: the first time any operative comes within control
range of a ``mines`` marker (where a move ends, or on its way) it takes D3+3 damage (rolled and
logged) and the marker is spent (:func:`check_mines`, asked after every move and charge of
both sides).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from solo_ops.game.downed import apply_damage
from solo_ops.game.state import Operative, State
from solo_ops.rules import reach

if TYPE_CHECKING:
    from solo_ops.game.definition import Game


def check_mines(game: Game, state: State, op: Operative, route: Any = None
                ) -> list[dict[str, Any]]:
    """Mines: "The first time ANY Operative is within Control Range, inflict D3+3 damage":
    where ``op`` stands, or anywhere along the ``route`` its move just walked (a model that
    walks past a mine comes within its control range on the way)."""
    events: list[dict[str, Any]] = []
    if op.at is None:
        return events
    terrain = game.terrain(state)
    for marker in terrain.board.markers:
        if marker.kind != "mines" or marker.id in state.spent_markers:
            continue
        if _comes_within(terrain, op, marker.at, route):
            state.spent_markers.append(marker.id)
            roll = state.dice.d3(f"mines {marker.id}: D3+3 damage to {op.label}",  # type: ignore
                                 [("mines", 3)])
            events.append({"type": "mines", "marker": marker.id, "operative": op.id,
                           "damage": roll.value})
            events.extend(apply_damage(game, state, op, roll.value, f"mines {marker.id}"))
    return events


def _comes_within(terrain: Any, op: Operative, at: Any, route: Any) -> bool:
    """Whether ``op`` (where it stands, and at the points of ``route`` every
    :data:`~solo_ops.rules.reach.WALK_STEP` inches) comes within control range of the marker
    at ``at``; only the points that a straight line puts close enough are measured."""
    assert op.at is not None
    if reach.in_control_range(terrain, op.at, op.radius, at, 0.0):
        return True
    if route is None or len(route) < 2:
        return False
    points = reach.walk_samples(route)
    near = np.hypot(points[:, 0] - at[0], points[:, 1] - at[1]) <= (
        op.radius + reach.CONTROL_RANGE + reach.TOLERANCE + 1e-6)
    return any(reach.in_control_range(terrain, (float(x), float(y)), op.radius, at, 0.0)
               for x, y in points[near])
