"""``Routes.reachable(..., near=discs)`` answers exactly what the full call answers there.

The charge planner asks only about the grid points around its target. These tests compare
the ``near=`` call with the full call filtered by the same discs (:func:`in_discs`), on every
shipped board and random wall boards, from random starts with random other bases: the same
points, the same costs bit for bit, the same order and the same walks; the start stays first.
The two calls run on separate :class:`Routes` objects, so that nothing one remembers can make
the other agree.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solo_ops.geometry import routes as R
from solo_ops.geometry.board import Board
from tests.support.budget import examples
from tests.support.route_boards import R32, random_board, shipped_boards

BOARD_LIST = shipped_boards() + [random_board(s) for s in (3, 11)]
IDS = [b.name for b in BOARD_LIST]
_ROUTES: dict[tuple[str, int], R.Routes] = {}


def routes_for(board: Board, which: int) -> R.Routes:
    """One of two separate Routes objects per board (kept across examples: compiling is slow)."""
    key = (board.name, which)
    if key not in _ROUTES:
        _ROUTES[key] = R.Routes(board)
    return _ROUTES[key]


def filtered(reach: R.Reach, discs: list[tuple[float, float, float]]) -> np.ndarray:
    """Indices of the full answer that a ``near=discs`` call keeps: the start, then its points
    within the discs, in order."""
    keep = R.in_discs(reach.points, discs)
    keep[0] = True
    return np.flatnonzero(keep)


def check_same(board: Board, data: Any) -> None:
    full_r, near_r = routes_for(board, 0), routes_for(board, 1)
    free = full_r.free_points(None, R32, 0.5)
    pick = data.draw(st.integers(0, len(free) - 1), label="start")
    start = (float(free[pick, 0]), float(free[pick, 1]))
    move = data.draw(st.sampled_from([3.0, 6.0, 8.0, 12.0]), label="move")
    spacing = data.draw(st.sampled_from([0.5, 1.0]), label="spacing")
    others = []
    for j in data.draw(st.lists(st.integers(0, len(free) - 1), max_size=5), label="bases"):
        x, y = float(free[j, 0]), float(free[j, 1])
        if math.dist((x, y), start) > 2.0:
            others.append((x, y, R32 + data.draw(st.sampled_from([0.0, 1.0]))))
    discs = []
    for _ in range(data.draw(st.integers(1, 3), label="n discs")):
        if others and data.draw(st.booleans()):  # around another base, as a charge asks
            x, y, r = others[data.draw(st.integers(0, len(others) - 1))]
            discs.append((x, y, r + R32 + 1.0 + 0.01))
        else:
            ang = data.draw(st.floats(0, 2 * math.pi))
            dist = data.draw(st.floats(0, move + 1.0))
            rad = data.draw(st.floats(0.2, 4.0))
            discs.append((start[0] + dist * math.cos(ang), start[1] + dist * math.sin(ang), rad))
    full = full_r.reachable(start, R32, move, blockers=others, spacing=spacing)
    near = near_r.reachable(start, R32, move, blockers=others, spacing=spacing, near=discs)
    idx = filtered(full, discs)
    assert near.points.tobytes() == full.points[idx].tobytes()
    assert near.cost.tobytes() == full.cost[idx].tobytes()
    for k, i in enumerate(idx):
        assert near.path(k) == full.path(int(i))


@pytest.mark.parametrize("board", BOARD_LIST, ids=IDS)
@settings(max_examples=examples(12), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_near_equals_full_call_filtered(board: Board, data: Any) -> None:
    check_same(board, data)


def test_near_keeps_the_start_and_the_disc_points_only() -> None:
    """Hand case on an empty 10" x 10" board: from (5, 5) with a 2" move on the 1" grid, a
    disc of radius 1 around (7, 5) holds the grid points (6, 5) and (7, 5) within the move;
    (8, 5) is 3" away and (7, 4), (7, 6) are sqrt(5) > 2 away."""
    from solo_ops.geometry.board import parse_board
    board = parse_board({"name": "empty", "width": 10, "depth": 10, "features": []}, "<t>")
    got = R.Routes(board).reachable((5, 5), 0.5, 2.0, spacing=1.0, near=[(7, 5, 1.0)])
    assert got.points.tolist() == [[5.0, 5.0], [6.0, 5.0], [7.0, 5.0]]
    assert got.cost.tolist() == [0.0, 1.0, 2.0]
    far = R.Routes(board).reachable((5, 5), 0.5, 2.0, spacing=1.0, near=[(9, 9, 0.5)])
    assert far.points.tolist() == [[5.0, 5.0]] and far.cost.tolist() == [0.0]
