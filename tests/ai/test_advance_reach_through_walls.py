"""The planner's reach for a Kill Team 2018 Advance walks on the terrain the effects in force
give it. 004 (Walls effects, 2): "Dimensional Destabilisation: Models can move through walls
when they Advance (but cannot end the move within the wall)." The table
(tests/support/pariah_table.py) has a wall at x 15, y 0-6, a closed door at y 6-8 beyond it."""

from __future__ import annotations

import math

import numpy as np

from solo_ops.ai.candidates import candidate_points
from solo_ops.ai.context import WorkingBoard
from tests.support.pariah_table import RADIUS, engine_until_players, start

WALL_X = 15.0


def test_the_planner_reaches_through_the_wall_when_it_advances() -> None:
    """The planner's reach for an enemy model at (16.5, 3), east of the wall: an Advance
    (up to 6" + 6") reaches (12.5, 3) for 4" straight through the wall; a normal move does
    not reach it within 6" at all (round the wall's end and the closed door); no end point of
    the Advance stands within the wall."""
    game, state = start({"walls": 2}, faces=[6, 1], a1=(3, 20), a2=(1, 20), e1=(16.5, 3))
    engine_until_players(game, state)
    op = state.operatives["e1"]
    ctx = game.context(state)
    board = WorkingBoard(state)

    def cost_to(kind: str | None, allowance: float) -> float:
        cand = candidate_points(ctx, op, (16.5, 3.0), allowance, board, kind=kind)
        pts = np.asarray(cand.points)
        near = np.hypot(pts[:, 0] - 12.5, pts[:, 1] - 3.0) < 0.3
        if kind == "advance":
            inside = (np.abs(pts[:, 0] - WALL_X) < RADIUS - 1e-6) & (pts[:, 1] < 6 + RADIUS)
            assert not inside.any()
        return float(np.min(np.asarray(cand.cost)[near])) if near.any() else math.inf

    assert abs(cost_to("advance", 12.0) - 4.0) < 0.35
    assert cost_to("normal", 6.0) == math.inf
