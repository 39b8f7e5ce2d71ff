"""The cheaper walking graphs of issue 39 give exactly the old answers.

``_Soft.cost`` works out the surcharge only of the segments whose box meets a footprint's
(:meth:`near_footprints`), the others costing 0.0, and asks shapely about every first piece
and every end at once (``cost_near``); ``Graph.weight_both`` finds a pair's cost both ways
with one surcharge call; ``graph.start_costs`` finds the start's links and straight walks
with one. Each is checked against the computation it replaced (a frozen copy below), float for
float, on every shipped board with surcharged terrain: segments between the walking graph's
corners (which lie on the footprints' outlines), random points and points on the footprints'
edges, asked all at once and one by one.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import shapely

from solo_ops.geometry import routes as R
from solo_ops.geometry.routes.graph import start_costs
from tests.support.jit_switch import compiled
from tests.support.route_boards import BOARD_LIST, CHECKED_IDS, CHECKED_LIST, R32

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


def cost_ref(soft: Any, P: np.ndarray, Q: np.ndarray) -> np.ndarray:
    """``_Soft.cost`` as it was before issue 39 (every segment, a shapely call per footprint
    and per end), frozen."""
    total = np.zeros(len(P))
    if len(P) == 0 or len(soft.ev) == 0:
        return total
    lo, hi = np.minimum(P, Q), np.maximum(P, Q)
    x0, y0, x1, y1 = soft.box
    tol = R.TOL
    active = ((hi[:, 0] >= x0 - tol) & (lo[:, 0] <= x1 + tol)
              & (hi[:, 1] >= y0 - tol) & (lo[:, 1] <= y1 + tol))
    si, ei, t = R.rings.crossings(P, Q, soft.ev, soft.en, active)
    n = len(soft.polys)
    amounts, leaving = np.asarray(soft.amounts, float), np.asarray(soft.exits, float)
    vs, vv, vt = R.rings.touches(P, Q, soft.ev, active, R.costs.TOUCHING)
    touched = np.unique(vs * n + soft.owner[vv]) if len(vs) else np.zeros(0, np.int64)
    if len(touched):
        ck = si * n + soft.owner[ei]
        sel = np.isin(ck, touched)
        soft.by_pieces(P, Q, touched, np.concatenate([ck[sel], vs * n + soft.owner[vv]]),
                       np.concatenate([t[sel], vt]), total)
        si, ei, t = si[~sel], ei[~sel], t[~sel]
    p_band, q_band = soft.in_band(P, active), soft.in_band(Q, active)
    if len(si):
        keys, k, first = R.costs.crossing_groups(si * n + soft.owner[ei], t)
        seg, pid = np.divmod(keys, n)
        mid = P[seg] + (Q[seg] - P[seg]) * (first / 2.0)[:, None]
        cores = soft.cores()
        out = np.zeros(len(keys), dtype=int)
        extra = np.zeros(len(keys))
        for j in np.unique(pid).tolist():
            sel = pid == j
            inside = shapely.contains_xy(cores[j], mid[sel, 0], mid[sel, 1])
            out[sel] = (k[sel] + np.where(inside, 0, 1)) // 2
            if p_band[seg[sel]].any() or q_band[seg[sel]].any():
                last_inside = inside == (k[sel] % 2 == 0)
                extra[sel] = (soft.on_edge(j, P[seg[sel]]) & inside) * amounts[j] \
                    + (soft.on_edge(j, Q[seg[sel]]) & last_inside) * leaving[j]
        np.add.at(total, seg, out * amounts[pid] + (k - out) * leaving[pid] + extra)
        crossed = np.concatenate([keys, touched])
    else:
        crossed = touched
    if p_band.any() or q_band.any():
        soft.end_changes(P, Q, p_band | q_band, crossed, total)
    return total


@pytest.mark.parametrize("board", SOFT_BOARDS, ids=[b.name for b in SOFT_BOARDS])
def test_soft_cost_as_before(board: Any) -> None:
    routes = R.Routes(board)
    rng = np.random.default_rng(40)
    for radius in (R32, 1.0):
        soft = routes.walker(radius).graph.soft
        P, Q = segments(routes, rng, 3000)
        # ends on the outlines and corners exactly (the band and the piece-by-piece cases)
        on = soft.ev[rng.integers(0, len(soft.ev), 300)]
        P = np.concatenate([P, on, soft.ev])
        Q = np.concatenate([Q, on[::-1] + 0.5, soft.en + (soft.en - soft.ev)])
        want = cost_ref(soft, P, Q)
        assert soft.cost_near(P, Q).tobytes() == want.tobytes()
        assert soft.cost(P, Q).tobytes() == want.tobytes()


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


@pytest.mark.parametrize("board", CHECKED_LIST, ids=CHECKED_IDS)
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


@pytest.mark.parametrize("board", CHECKED_LIST, ids=CHECKED_IDS)
def test_start_costs_are_the_links_and_straight_walks(board: Any) -> None:
    routes = R.Routes(board)
    walker = routes.walker(R32)
    rng = np.random.default_rng(11)
    g0 = walker.graph
    for _ in range(6):
        s = g0.pos[rng.integers(0, len(g0.pos))] + rng.uniform(-1, 1, 2)
        start = (float(s[0]), float(s[1]))
        bases = [(float(s[0] + rng.uniform(-5, 5)), float(s[1] + rng.uniform(-5, 5)), 0.5)
                 for _ in range(6)]
        _, g, _ = routes.walk_graph(R32, bases, start, 6.0)
        S = np.array([start])
        dx, dy = walker.grid(6.0, 0.5)
        C = np.stack([start[0] + dx, start[1] + dy], axis=1)
        sj, sw, clear, cost = start_costs(g, S, C)
        active = np.arange(len(g.pos)) if g.active is None else g.active
        _, wj, ww = g.links(S, active)
        assert np.array_equal(sj, wj) and sw.tobytes() == ww.tobytes()
        want_clear = ~g.blocked(np.repeat(S, len(C), axis=0), C)
        want = np.full(len(C), np.inf)
        want[want_clear] = g.weight(np.repeat(S, int(want_clear.sum()), axis=0), C[want_clear])
        assert np.array_equal(clear, want_clear) and cost.tobytes() == want.tobytes()


@pytest.mark.parametrize("board", SOFT_BOARDS, ids=[b.name for b in SOFT_BOARDS])
def test_soft_cost_with_the_compiled_outline_test_as_before(board: Any) -> None:
    # the compiled prefilter (segments within 1e-6 of an outline) keeps every segment that
    # costs something: the answers are the frozen copy's, compiled or not; and it keeps no
    # more than the footprints' boxes do
    pytest.importorskip("numba")
    routes = R.Routes(board)
    rng = np.random.default_rng(41)
    soft = routes.walker(R32).graph.soft
    P, Q = segments(routes, rng, 3000)
    on = soft.ev[rng.integers(0, len(soft.ev), 300)]
    # along edges, from corners, a hair off the outlines, and wholly inside footprints
    t = rng.uniform(0, 1, (300, 1))
    e = rng.integers(0, len(soft.ev), 300)
    along = soft.ev[e] + (soft.en[e] - soft.ev[e]) * t
    P = np.concatenate([P, on, soft.ev, along, along + 1e-7, along - 2e-6])
    Q = np.concatenate([Q, on[::-1] + 0.5, soft.en + (soft.en - soft.ev), along[::-1],
                        along + 1e-7 + 0.3, along - 2e-6 + 0.01])
    want = cost_ref(soft, P, Q)
    with compiled(True):
        got = soft.cost(P, Q)
        close = soft.near_outlines(P, Q)
    with compiled(False):
        plain = soft.cost(P, Q)
    assert got.tobytes() == want.tobytes() and plain.tobytes() == want.tobytes()
    assert not (close & ~soft.near_footprints(P, Q)).any()
    assert (want[~close] == 0.0).all() and (~close).any() and (want[close] == 0).any()
