"""The cheaper walking graphs of issue 39 give exactly the old answers.

``_Soft.cost`` works out the surcharge only of the segments whose box meets a footprint's
(:meth:`near_footprints`), the others costing 0.0; ``Graph.weight_both`` finds a pair's cost
both ways with one surcharge call. Each is checked against the computation it replaced, float
for float, on every shipped board with surcharged terrain: segments between the walking
graph's corners (which lie on the footprints' outlines), random points and points on the
footprints' edges, asked all at once and one by one.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from solo_ops.geometry import routes as R
from tests.support.route_boards import BOARD_LIST, IDS, R32

SOFT_BOARDS = [b for b in BOARD_LIST if R.Routes(b).walker(R32).graph.soft]


def segments(routes: R.Routes, rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """``n`` segments between the walker's corners, random points and points on the
    surcharged footprints' edges (the grazing and touching cases live there)."""
    g = routes.walker(R32).graph
    soft = g.soft
    b = routes.board
    rand = np.stack([rng.uniform(0, b.width, n), rng.uniform(0, b.depth, n)], axis=1)
    t = rng.uniform(0, 1, n)[:, None]
    e = rng.integers(0, len(soft.ev), n)
    on_edge = soft.ev[e] + (soft.en[e] - soft.ev[e]) * t
    pool = np.concatenate([g.pos, g.real, rand, on_edge, soft.ev])
    P = pool[rng.integers(0, len(pool), n)]
    Q = pool[rng.integers(0, len(pool), n)]
    return P, Q


@pytest.mark.parametrize("board", SOFT_BOARDS, ids=[b.name for b in SOFT_BOARDS])
def test_soft_cost_of_near_segments_alone_is_the_whole_answer(board: Any) -> None:
    routes = R.Routes(board)
    soft = routes.walker(R32).graph.soft
    rng = np.random.default_rng(39)
    P, Q = segments(routes, rng, 3000)
    want = soft.cost_near(P, Q)
    got = soft.cost(P, Q)
    assert got.tobytes() == want.tobytes()
    assert (want > 0).any() and (want == 0).any()
    # each segment's answer is its own: asked one by one, and in small batches
    for k in range(0, 300):
        assert soft.cost(P[k:k + 1], Q[k:k + 1]).tobytes() == want[k:k + 1].tobytes()
    far = ~soft.near_footprints(P, Q)
    assert far.any() and (want[far] == 0.0).all()


@pytest.mark.parametrize("board", SOFT_BOARDS, ids=[b.name for b in SOFT_BOARDS])
def test_weight_both_ways_is_weight_each_way(board: Any) -> None:
    routes = R.Routes(board)
    g = routes.walker(R32).graph
    rng = np.random.default_rng(7)
    P, Q = segments(routes, rng, 2000)
    w, wb = g.weight_both(P, Q)
    assert w.tobytes() == g.weight(P, Q).tobytes()
    assert wb.tobytes() == g.weight(Q, P).tobytes()


def test_weight_both_without_surcharges() -> None:
    board = next(b for b in BOARD_LIST if not R.Routes(b).walker(R32).graph.soft)
    routes = R.Routes(board)
    g = routes.walker(R32).graph
    rng = np.random.default_rng(3)
    P, Q = rng.uniform(0, 20, (50, 2)), rng.uniform(0, 20, (50, 2))
    w, wb = g.weight_both(P, Q)
    assert w.tobytes() == g.weight(P, Q).tobytes()
    assert wb.tobytes() == g.weight(Q, P).tobytes()


@pytest.mark.parametrize("board", BOARD_LIST, ids=IDS)
def test_pairs_new_is_its_index_and_the_costs(board: Any) -> None:
    routes = R.Routes(board)
    walker = routes.walker(R32)
    rng = np.random.default_rng(5)
    g0 = walker.graph
    c = g0.pos[rng.integers(0, len(g0.pos))] if len(g0.pos) else np.array([10.0, 10.0])
    bases = [(float(c[0] + rng.uniform(-4, 4)), float(c[1] + rng.uniform(-4, 4)), 0.5)
             for _ in range(8)]
    discs = routes.discs(bases, walker.radius)
    sub = walker.with_discs(discs, (float(c[0]), float(c[1])), 6.0)
    if sub.discs is None:
        return
    n0 = len(g0.pos)
    nodes = sub.active[sub.active < n0]
    new = np.arange(n0, len(sub.pos))
    ai, bj, w = sub.pairs_new(nodes, new)
    ai2, bj2 = sub.pairs_new_index(nodes, new)
    assert np.array_equal(ai, ai2) and np.array_equal(bj, bj2)
    assert w.tobytes() == sub.weight(sub.pos[ai], sub.pos[bj]).tobytes()
