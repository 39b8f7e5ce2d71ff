"""The fast paths of :mod:`solo_ops.geometry.routes` give exactly the old answers.

Each speed-up of issue 13 (remembered links per point, best-first corner tests in
``reachable``, other bases tested apart from the walls, tangent rows in the pair query) is
checked here against the plain computation it replaced, kept below as a reference: the same
floats, the same corners, the same walks -- not merely close ones. Boards: every shipped board
and random wall panels (with touching and axis-aligned panels, where grazing cases live).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from solo_ops.geometry import routes as R
from solo_ops.geometry.board import Board
from tests.support.route_boards import (
    BOARD_LIST,
    CHECKED_IDS,
    CHECKED_LIST,
    IDS,
    R32,
    shipped_boards,
)


def free_points(routes: R.Routes, rng: np.random.Generator, n: int, grid: bool = False
                ) -> np.ndarray:
    b = routes.board
    if grid:
        pts = np.stack([rng.integers(1, int(b.width * 2), n) / 2,
                        rng.integers(1, int(b.depth * 2), n) / 2], axis=1).astype(float)
    else:
        pts = np.stack([rng.uniform(0.05, b.width - 0.05, n),
                        rng.uniform(0.05, b.depth - 0.05, n)], axis=1)
    return pts[routes.measurable(pts)]


# -- the references: the computations the fast paths replaced -------------------------------------
def query_dense(pq: R.pairs.PairQuery, a: tuple[float, float], b: tuple[float, float]
                ) -> tuple[float, list[int]] | None:
    """``PairQuery.query`` as it was: every corner against every edge, (2, N, E) at once."""
    g, r = pq.g, pq.g.rings
    X = np.array([a, b])
    Y = X @ pq.M + pq.c
    n = pq.n
    k1, k2, k3 = pq.cuts
    front_v = Y[:, k1:k2]
    xu = Y[:, k2:k3]
    dab = math.dist(a, b)
    tl = R.TOL * (dab + 10.0)
    o1 = xu[1] - xu[0] - (b[0] * a[1] - b[1] * a[0])
    s1 = (o1 > tl).view(np.int8) - (o1 < -tl).view(np.int8)
    s2 = s1[r.succ]
    hit = (s1 * s2 == -1) & (front_v[0] > pq.front_tol) & (front_v[1] < -pq.front_tol)
    if not hit.any():
        on = s1 == 0
        if not on.any() or not pq.touch_enters(X[0:1], X[1:2], on[None, None, :]).any():
            return dab, []
    if n == 0:
        return None
    side = Y[:, :2 * n]
    tan = side[:, :n] * side[:, n:] >= -1e-12
    tx = Y[:, k3:]
    o1 = pq.C[None] - tx[:, :, None] - xu[:, None, :]
    dn = np.hypot(g.pos[None, :, 0] - X[:, 0:1], g.pos[None, :, 1] - X[:, 1:2])
    tl2 = (R.TOL * (dn + 10.0))[:, :, None]
    s1 = (o1 > tl2).view(np.int8) - (o1 < -tl2).view(np.int8)
    s2 = s1[:, :, r.succ]
    front = front_v > pq.front_tol
    hit = (s1 * s2 == -1) & pq.s4[None] & front[:, None, :]
    see = tan & ~hit.any(axis=2)
    on = s1 == 0
    if on.any():
        on &= see[:, :, None]
        if on.any():
            see &= ~pq.touch_enters(X, g.pos, on)
    wa = np.where(see[0], dn[0], np.inf)
    wb = np.where(see[1], dn[1], np.inf)
    tot = (wa[:, None] + pq.D) + wb[None, :]
    k = int(np.argmin(tot))
    i, j = divmod(k, n)
    best = float(tot[i, j])
    if not math.isfinite(best):
        return None
    chain = [i]
    while chain[-1] != j:
        chain.append(int(pq.nxt[chain[-1], j]))
    return best, chain


def best_links_all(g: R.graph.Graph, C: np.ndarray, s: np.ndarray, clear: np.ndarray,
                   cost: np.ndarray, live: np.ndarray, dist: np.ndarray, move: float
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``reachable``'s corner step as it was: every link of every point tested for walls
    (each link's cost walked from the corner to the point: issue #27)."""
    ci, nj, w = g.links(C, live, bound=np.full(len(C), move), base=dist)
    if len(ci) == 0:
        return ci, nj, w
    if g.soft:
        w = g.weight(g.pos[nj], C[ci])
    tot = dist[nj] + w
    order = np.lexsort((tot, ci))
    ci, nj, tot = ci[order], nj[order], tot[order]
    firsts = np.r_[True, ci[1:] != ci[:-1]]
    ci, nj, tot = ci[firsts], nj[firsts], tot[firsts]
    better = tot < cost[ci] - 1e-12
    return ci[better], nj[better], tot[better]


def blocked_joined(g: R.graph.Graph, P: np.ndarray, Q: np.ndarray) -> np.ndarray:
    """``Graph.blocked`` as it was: the walls' and the bases' rings joined."""
    rings = g.rings if g.discs is None or not len(g.discs) else \
        R.rings.Rings.join(g.rings, g.discs.rings())
    return R.rings.blocked(P, Q, rings)


def tangent_pairs(X: np.ndarray, v: np.ndarray, up: np.ndarray, un: np.ndarray) -> np.ndarray:
    xi, vj = np.meshgrid(np.arange(len(X)), np.arange(len(v)), indexing="ij")
    xi, vj = xi.ravel(), vj.ravel()
    return R.rings.tangent_u(X[xi], v[vj], up[vj], un[vj]).reshape(len(X), len(v))


# -- the tests ------------------------------------------------------------------------------------
@pytest.mark.parametrize("board", CHECKED_LIST, ids=CHECKED_IDS)
def test_pair_query_equals_the_dense_query(board: Board) -> None:
    routes = R.Routes(board)
    if routes.no_walls:
        pytest.skip("no measuring walls")
    rng = np.random.default_rng(11)
    pts = np.concatenate([free_points(routes, rng, 120), free_points(routes, rng, 120, True)])
    rng.shuffle(pts)
    half = len(pts) // 2
    for a, b in zip(pts[:half], pts[half:2 * half], strict=True):
        pa, pb = (float(a[0]), float(a[1])), (float(b[0]), float(b[1]))
        assert routes.pair_query.query(pa, pb) == query_dense(routes.pair_query, pa, pb)


@pytest.mark.parametrize("board", CHECKED_LIST, ids=CHECKED_IDS)
def test_reachable_equals_testing_every_link(board: Board, monkeypatch: Any) -> None:
    rng = np.random.default_rng(5)
    fast = R.Routes(board)
    slow = R.Routes(board)
    starts = fast.free_points(None, R32, 0.5)
    picks = starts[rng.choice(len(starts), 6, replace=False)]
    for k, start in enumerate(picks):
        others = [(float(x), float(y), R32 + (1.0 if j % 2 else 0.0))
                  for j, (x, y) in enumerate(starts[rng.choice(len(starts), 5, replace=False)])
                  if math.dist((x, y), start) > 2.5]
        move = (6.0, 3.0, 9.0)[k % 3]
        spacing = 0.5 if k % 2 else 1.0
        got = fast.reachable(start, R32, move, blockers=others, spacing=spacing)
        with monkeypatch.context() as m:
            m.setattr(R.query, "best_links", best_links_all)
            m.setattr(R.graph.Graph, "blocked", blocked_joined)
            want = slow.reachable(start, R32, move, blockers=others, spacing=spacing)
        assert got.points.tobytes() == want.points.tobytes()
        assert got.cost.tobytes() == want.cost.tobytes()
        for i in range(len(got.points)):
            assert got.path(i) == want.path(i)


@pytest.mark.parametrize("board", BOARD_LIST[-4:], ids=IDS[-4:])
def test_walls_and_bases_tested_apart_block_the_same(board: Board) -> None:
    routes = R.Routes(board)
    rng = np.random.default_rng(3)
    pts = routes.free_points(None, R32, 0.5)
    discs = routes.discs([(float(x), float(y), R32) for x, y in
                          pts[rng.choice(len(pts), 6, replace=False)]], R32)
    walker = routes.walker(R32)
    g = walker.with_discs(discs)
    P = pts[rng.choice(len(pts), 400)]
    Q = np.concatenate([pts[rng.choice(len(pts), 300)], g.pos[rng.choice(len(g.pos), 100)]])
    assert np.array_equal(g.blocked(P, Q), blocked_joined(g, P, Q))
    x = P[0]
    want = R.rings.sees(x, g.pos, R.rings.Rings.join(g.rings, discs.rings()))
    assert np.array_equal(g.sees(x, g.pos), want)


def test_remembered_bases_are_the_ones_drawn_afresh() -> None:
    routes = R.Routes(BOARD_LIST[-1])
    blockers = [(3.0, 4.0, R32), (10.5, 7.25, R32 + 1.0), (3.0, 4.0, R32)]
    for _ in range(2):
        got = routes.discs(blockers, R32)
        want = R.discs.Discs.of(blockers, R32)
        assert got.verts.tobytes() == want.verts.tobytes()
        assert np.array_equal(got.radii, want.radii)
        assert all(a.equals_exact(b, 0.0) for a, b in zip(got.polys, want.polys, strict=True))
        assert got.edges is not None and want.edges is not None
        assert got.edges.tobytes() == want.edges.tobytes()
        assert got.centres.tobytes() == want.centres.tobytes()


def test_a_remembered_set_of_bases_is_the_same_object_only_for_the_same_bases() -> None:
    """``Routes.discs`` hands the same object back for the very same bases (in the same
    order); any other set, order or size of base gets its own, drawn as afresh."""
    routes = R.Routes(BOARD_LIST[-1])
    one = [(3.0, 4.0, R32), (10.5, 7.25, R32)]
    first = routes.discs(one, 0.5)
    assert routes.discs(list(one), 0.5) is first
    for other, radius in ((one[::-1], 0.5), (one[:1], 0.5), (one, 0.25),
                          ([(3.0, 4.0, R32), (10.5, 7.25 + 1e-12, R32)], 0.5)):
        got = routes.discs(other, radius)
        assert got is not first
        want = R.discs.Discs.of(other, radius)
        assert got.verts.tobytes() == want.verts.tobytes()
        assert got.centres.tobytes() == want.centres.tobytes()
        assert got.radii.tobytes() == want.radii.tobytes()


@pytest.mark.parametrize("board", CHECKED_LIST, ids=CHECKED_IDS)
def test_remembered_links_give_the_same_distance_matrix(board: Board) -> None:
    rng = np.random.default_rng(9)
    probe = R.Routes(board)
    pts = free_points(probe, rng, 60, grid=True)
    A, B = pts[:12], pts[12:]
    for batch in ([A[:1], B], [A, B[:1]], [A, B], [A[3:4], B[5:6]], [A, B]):
        warm = R.Routes(board)
        for other in ([A, B], [A[:1], B[:1]], [B, A]):  # fill the memos first
            warm.distance_matrix(other[0], 0.5, other[1], 0.0)
        got = warm.distance_matrix(batch[0], 0.5, batch[1], 0.0)
        want = R.Routes(board).distance_matrix(batch[0], 0.5, batch[1], 0.0)
        assert got.tobytes() == want.tobytes()


def test_tangent_grid_is_the_pairwise_test() -> None:
    rng = np.random.default_rng(2)
    g = R.Routes(BOARD_LIST[-1]).walker(R32).graph
    X = np.concatenate([rng.uniform(0, 30, (50, 2)), g.real[:20]])
    assert np.array_equal(R.rings.tangent_grid(X, g.real, g.up, g.un),
                          tangent_pairs(X, g.real, g.up, g.un))


def test_full_memos_are_emptied_and_answers_stay_the_same(monkeypatch: Any) -> None:
    board = BOARD_LIST[-1]
    rng = np.random.default_rng(4)
    pts = free_points(R.Routes(board), rng, 40, grid=True)
    blockers = [(float(x), float(y), R32) for x, y in pts[:8]]
    want = [R.Routes(board).distance_matrix(pts[:9], 0.0, pts[9:], 0.0),
            R.Routes(board).reachable(pts[20], R32, 6.0, blockers=blockers).cost,
            R.Routes(board).free_points(None, R32, 1.0)]
    monkeypatch.setattr(R.common, "MEMO_LIMIT", 3)  # every memo overflows at once
    small = R.Routes(board)
    for _ in range(2):
        got = [small.distance_matrix(pts[:9], 0.0, pts[9:], 0.0),
               small.reachable(pts[20], R32, 6.0, blockers=blockers).cost,
               small.free_points(None, R32, 1.0)]
        for g, w in zip(got, want, strict=True):
            assert g.tobytes() == w.tobytes()
    # bounded: a full memo is emptied before a batch, which it then holds alone
    held = small.remembered()
    assert held["corner rows"] <= len(pts) and held["grown bases"] <= len(blockers)


def test_bases_from_the_table_are_geos_buffers_bit_for_bit() -> None:
    """The bases' polygons drawn from a table of cosines are GEOS's buffered points, turned
    counter-clockwise, bit for bit (on this GEOS: the check the engine makes once), for
    random and game-like centres and radii; and ``Routes.discs`` gives the same vertices,
    edges and polygons whichever way they are made."""
    assert R.discs.fast_discs()
    rng = np.random.default_rng(31)
    centres = np.concatenate([rng.uniform(-5, 65, (500, 2)),
                              np.round(rng.uniform(0, 30, (100, 2)) * 8) / 8])
    radii = np.concatenate([rng.uniform(0.3, 4.0, 500),
                            rng.choice([0.5, 0.63, 25 / 25.4, 1.0, 1.26, 2.0], 100)
                            + rng.choice([0.5, 0.63, 16 / 25.4], 100)])
    _, verts = R.discs.buffered_discs(centres, radii)
    assert R.discs.disc_coords(centres, radii).tobytes() == np.stack(verts).tobytes()
    board = shipped_boards()[0]
    blockers = [(float(x), float(y), float(r)) for (x, y), r in
                zip(centres[:40], rng.choice([0.5, 0.63], 40), strict=True)]
    fast = R.Routes(board).discs(blockers, R32)
    was = R.discs.FAST_DISCS
    R.discs.FAST_DISCS = False
    try:
        slow = R.Routes(board).discs(blockers, R32)
    finally:
        R.discs.FAST_DISCS = was
    assert fast.verts.tobytes() == slow.verts.tobytes()
    assert fast.edges is not None and slow.edges is not None
    assert fast.edges.tobytes() == slow.edges.tobytes()
    assert fast.inner is not None and slow.inner is not None
    assert fast.inner.tobytes() == slow.inner.tobytes()
    assert all(a.equals_exact(b, 0.0) for a, b in zip(fast.polys, slow.polys, strict=True))
