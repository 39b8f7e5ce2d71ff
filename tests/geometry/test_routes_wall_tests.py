"""The cheaper movement queries of issue 13 item 5 give exactly the old answers.

``blocked`` tests few segment-edge pairs with one sign table (edges' ends read from their
successor vertex, the edge tests only where the vertices straddle the segment's line); the
bases' polygons are tested the same way (``blocked_rows``), near a segment only when their
boxes meet; ``with_discs`` remembers each base's corners per walker and picks the static pairs
to test against the bases by boxes; ``reachable`` remembers its answers by their exact inputs.
Each is checked here against the computation it replaced, kept below as a reference: the same
booleans and the same floats, bit for bit. Inputs: every shipped board (and random wall
panels from ``test_routes_fast``) with random and grazing segments (through vertices, along
edges, from corners), and hypothesis-drawn rings and segments.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solo_ops.geometry import routes as R
from tests.support.budget import examples
from tests.support.route_boards import BOARD_LIST, CHECKED_IDS, CHECKED_LIST, IDS, R32
from tests.support.wall_segments import (
    blocked_dense_ref,
    blocked_own,
    blocks_ref,
    disc_blockers,
    grazing_segments,
    passing_ref,
    same_graph,
    sees_own,
    tangent_grid_ref,
    with_discs_ref,
)


def hides_ref(discs: R.discs.Discs, x: np.ndarray, T: np.ndarray) -> np.ndarray:
    """``Discs.hides`` as it was: ``sees_own`` on every passing (point, disc)."""
    out = np.zeros(len(T), dtype=bool)
    if len(discs) == 0 or len(T) == 0:
        return out
    si, ki = passing_ref(discs, np.broadcast_to(x, T.shape), T)
    if len(si):
        V = discs.verts[ki]
        seen = sees_own(x, T[si], V, np.roll(V, 1, axis=1), np.roll(V, -1, axis=1))
        out[si[~seen]] = True
    return out
















# -- the tests ------------------------------------------------------------------------------------
@pytest.mark.parametrize("board", CHECKED_LIST, ids=CHECKED_IDS)
def test_blocked_equals_the_dense_reference(board: Any, monkeypatch: Any) -> None:
    routes = R.Routes(board)
    rng = np.random.default_rng(12)
    for rings in (routes.graph.rings, routes.walker(R32).graph.rings):
        if len(rings) == 0:
            continue
        P, Q = grazing_segments(rings, rng, 60)
        for lo in range(0, len(P), 90):  # few pairs at once: the sign-table branch
            p, q = P[lo:lo + 90], Q[lo:lo + 90]
            assert np.array_equal(R.rings.blocked(p, q, rings), blocked_dense_ref(p, q, rings))
        # many at once (ring boxes first, then the pairs flattened) and in small chunks
        want = blocked_dense_ref(P, Q, rings)
        assert np.array_equal(R.rings.blocked(P, Q, rings), want)
        monkeypatch.setattr(R.rings, "DENSE", 0)  # every size by the boxes of runs of edges
        for run in (1, 5, 12, 1000):  # single edges ... whole rings
            monkeypatch.setattr(R.rings, "RUN", run)
            for sat in (0, 10**9):  # the runs' boxes by line always, never
                monkeypatch.setattr(R.rings, "SAT_PAIRS", sat)
                assert np.array_equal(R.rings.blocked(P, Q, rings), want)
        monkeypatch.setattr(R.rings, "CHUNK", 7 * len(rings))
        assert np.array_equal(R.rings.blocked(P, Q, rings), want)
        monkeypatch.undo()


def test_blocked_reads_edge_ends_only_from_matching_successors(monkeypatch: Any) -> None:
    # rings as built always end each edge at the next vertex of its run; rows that do not
    # (an edge ending off its ring's first vertex) have their ends computed instead
    sq = np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]])
    nxt = np.roll(sq, -1, axis=0)
    nxt[3] = [0.0, 1.0]
    rings = R.rings.Rings(sq, np.roll(sq, 1, axis=0), nxt)
    assert not np.array_equal(rings.nxt, rings.v[rings.succ])
    built = R.rings.Rings.of([R.Polygon(sq), R.Polygon(sq + 2.0), R.Polygon(sq[::-1] - 3.0)])
    assert np.array_equal(built.nxt, built.v[built.succ])
    rng = np.random.default_rng(1)
    P, Q = rng.uniform(-4, 4, (200, 2)), rng.uniform(-4, 4, (200, 2))
    for dense in (20_000, 0):
        monkeypatch.setattr(R.rings, "DENSE", dense)
        for r in (rings, built):
            got = R.rings.blocked(P, Q, r)
            assert np.array_equal(got, blocked_dense_ref(P, Q, r))
            assert got.any() and not got.all()


@settings(max_examples=examples(150), deadline=None)
@given(st.integers(3, 9), st.integers(0, 2**32 - 1), st.booleans())
def test_blocked_on_random_polygons(n: int, seed: int, grid: bool) -> None:
    rng = np.random.default_rng(seed)
    ang = np.sort(rng.uniform(0, 2 * np.pi, n))
    rad = rng.uniform(0.5, 3.0, n)
    c = np.stack([np.cos(ang), np.sin(ang)], axis=1) * rad[:, None] + rng.uniform(3, 7, 2)
    if grid:
        c = np.round(c * 2) / 2
    polys = [R.Polygon(c)] if R.Polygon(c).is_valid else []
    rings = R.rings.Rings.of(polys)
    if len(rings) == 0:
        return
    P, Q = grazing_segments(rings, rng, 8)
    want = blocked_dense_ref(P, Q, rings)
    assert np.array_equal(R.rings.blocked(P, Q, rings), want)
    saved = R.rings.DENSE, R.rings.SAT_PAIRS
    try:
        R.rings.DENSE = 0  # the ring-box branch
        for R.rings.SAT_PAIRS in (0, 10**9):  # with the runs' boxes by line, without
            assert np.array_equal(R.rings.blocked(P, Q, rings), want)
    finally:
        R.rings.DENSE, R.rings.SAT_PAIRS = saved


@pytest.mark.parametrize("board", CHECKED_LIST, ids=CHECKED_IDS)
def test_base_polygons_block_as_before(board: Any, monkeypatch: Any) -> None:
    routes = R.Routes(board)
    rng = np.random.default_rng(7)
    discs = routes.discs(disc_blockers(routes, rng, 8), R32)
    V = discs.verts.reshape(-1, 2)
    ring = R.rings.Rings(V, np.roll(discs.verts, 1, axis=1).reshape(-1, 2),
                         np.roll(discs.verts, -1, axis=1).reshape(-1, 2))
    P, Q = grazing_segments(ring, rng, 80)
    tangent = discs.centres[0] + discs.radii[0] * np.array([[1.0, -3.0], [1.0, 3.0]])
    P, Q = np.concatenate([P, tangent[:1]]), np.concatenate([Q, tangent[1:]])
    si, ki = discs.passing(P, Q)
    rsi, rki = passing_ref(discs, P, Q)
    assert si.tobytes() == rsi.tobytes() and ki.tobytes() == rki.tobytes()
    V3 = discs.verts[rki]
    own = blocked_own(P[rsi], Q[rsi], V3, np.roll(V3, 1, axis=1), np.roll(V3, -1, axis=1))
    assert np.array_equal(R.rings.blocked_rows(P[rsi], Q[rsi], V3), own)
    want = blocks_ref(discs, P, Q)
    for gaps in (0, 10**9):  # the pairs by their boxes, then by the gaps or not
        monkeypatch.setattr(R.discs, "GAP_PAIRS", gaps)
        assert np.array_equal(discs.blocks(P, Q), want)
    assert want.any()
    # sight lines from one point: from a vertex, from beside one, from afar
    for x in (P[0], V[3], V[5] + np.array([1e-12, 0.0]), P[-1], Q[7]):
        T = np.concatenate([Q, V, V + 1e-12])
        got = discs.hides(x, T)
        assert np.array_equal(got, hides_ref(discs, x, T))
        si, ki = passing_ref(discs, np.broadcast_to(x, T.shape), T)
        V3 = discs.verts[ki]
        own = sees_own(x, T[si], V3, np.roll(V3, 1, axis=1), np.roll(V3, -1, axis=1))
        assert np.array_equal(R.rings.sees_rows(x, T[si], V3), own)
        assert got.any() and not got.all()


@pytest.mark.parametrize("board", CHECKED_LIST, ids=CHECKED_IDS)
def test_with_discs_builds_the_same_graph(board: Any) -> None:
    routes = R.Routes(board)
    rng = np.random.default_rng(8)
    walker = routes.walker(R32)
    starts = routes.free_points(None, R32, 0.5)
    for k in range(4):
        discs = routes.discs(disc_blockers(routes, rng, 7), R32)
        s = starts[rng.integers(len(starts))]
        centre = (float(s[0]), float(s[1]))
        move = (6.0, 3.0, 12.0, 9.0)[k]
        near = [(centre[0] + 2.0, centre[1], 1.0)]
        for args in ((centre, move, None), (centre, move, R.walker.on_the_way(centre, move, near)),
                     (None, math.inf, None)):
            for _ in range(2):  # the second time from the remembered corners
                same_graph(walker.with_discs(discs, *args), with_discs_ref(walker, discs, *args))
        used = discs.subset(np.arange(len(discs)) % 2 == 0)
        same_graph(walker.with_discs(used), with_discs_ref(walker, used))


@pytest.mark.parametrize("board", CHECKED_LIST, ids=CHECKED_IDS)
def test_with_discs_builds_the_same_graph_among_crowded_bases(board: Any, monkeypatch: Any
                                                               ) -> None:
    # 10 to 40 bases packed round the start (touching, overlapping, against walls): the
    # base-corner pairs (pairs_new) and the tangent grid as they were
    routes = R.Routes(board)
    rng = np.random.default_rng(13)
    walker = routes.walker(R32)
    starts = routes.free_points(None, R32, 0.5)
    for k, count in enumerate((10, 25, 40)):
        s = starts[rng.integers(len(starts))]
        centre = (float(s[0]), float(s[1]))
        near = starts[np.hypot(*(starts - s).T) <= 7.0]
        picks = near[rng.choice(len(near), min(count, len(near)), replace=False)]
        blockers = [(float(x), float(y), R32 + (0.5 if j % 4 == 0 else 0.0))
                    for j, (x, y) in enumerate(picks)]
        discs = routes.discs(blockers, R32)
        move = (6.0, 3.0, 9.0)[k]
        for args in ((centre, move, None), (None, math.inf, None)):
            same_graph(walker.with_discs(discs, *args), with_discs_ref(walker, discs, *args))
        monkeypatch.setattr(R.rings, "GRID_BLOCK", 700)  # the tangent grids by blocks of rows
        monkeypatch.setattr(R.common, "MEMO_LIMIT", 8)  # the bases' corners forgotten and redone
        same_graph(walker.with_discs(discs, centre, move), with_discs_ref(walker, discs,
                                                                          centre, move))
        monkeypatch.undo()


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 30), st.integers(1, 40), st.integers(0, 2**32 - 1), st.booleans())
def test_tangent_grid_equals_the_plain_expression(n: int, m: int, seed: int, grid: bool
                                                  ) -> None:
    # random corners and points, on the 0.5" grid too (collinear and coincident cases), and
    # points exactly along a corner's edges (the tolerance's boundary)
    rng = np.random.default_rng(seed)
    v = rng.uniform(0, 10, (m, 2))
    prv, nxt = v + rng.normal(size=(m, 2)), v + rng.normal(size=(m, 2))
    X = rng.uniform(0, 10, (n, 2))
    if grid:
        v, prv, nxt, X = (np.round(a * 2) / 2 for a in (v, prv, nxt, X))
    X = np.concatenate([X, v[:3], v[:2] + 2 * (prv[:2] - v[:2]), v[:2] - 3 * (nxt[:2] - v[:2])])
    up, un = R.common.unit_vectors(prv - v), R.common.unit_vectors(nxt - v)
    want = tangent_grid_ref(X, v, up, un)
    assert np.array_equal(R.rings.tangent_grid(X, v, up, un), want)
    block = R.rings.GRID_BLOCK
    try:  # in blocks of rows (one row, or a few and a shorter last block)
        for R.rings.GRID_BLOCK in (1, 3 * m + 1):
            assert np.array_equal(R.rings.tangent_grid(X, v, up, un), want)
    finally:
        R.rings.GRID_BLOCK = block
    xi, vi = np.nonzero(np.ones_like(want))
    assert np.array_equal(R.rings.tangent_u(X[xi], v[vi], up[vi], un[vi]), want.ravel())


@pytest.mark.parametrize("board", BOARD_LIST[-4:], ids=IDS[-4:])
def test_remembered_reaches_are_fresh_copies_of_the_computed_ones(board: Any) -> None:
    rng = np.random.default_rng(6)
    warm = R.Routes(board)
    blockers = disc_blockers(warm, rng, 5)
    start = tuple(map(float, warm.free_points(None, R32, 0.5)[7]))
    asks = [dict(blockers=blockers), dict(blockers=blockers[:3], spacing=1.0),
            dict(blockers=blockers, near=[(start[0] + 3.0, start[1], 1.5)])]
    for kw in asks + asks:
        got = warm.reachable(start, R32, 6.0, **kw)
        want = R.Routes(board).reachable(start, R32, 6.0, **kw)
        assert got.points.tobytes() == want.points.tobytes()
        assert got.cost.tobytes() == want.cost.tobytes()
        assert [got.path(i) for i in range(len(got.points))] == want.walks
        got.points[:] = -1.0  # a caller's change does not reach the next answer
        got.cost[:] = -1.0
    # an int move and the same float one are asked apart (kept as given)
    assert len(warm.walker(R32).reaches) == len(asks)
    warm.reachable(start, R32, 6, blockers=blockers)
    assert len(warm.walker(R32).reaches) == len(asks) + 1


def test_remembered_reaches_are_bounded(monkeypatch: Any) -> None:
    monkeypatch.setattr(R.query, "REACH_LIMIT", 2)
    routes = R.Routes(BOARD_LIST[-1])
    starts = routes.free_points(None, R32, 1.0)[:5]
    want = [R.Routes(BOARD_LIST[-1]).reachable(s, R32, 3.0).cost for s in starts]
    for _ in range(2):
        for s, w in zip(starts, want, strict=True):
            assert routes.reachable(s, R32, 3.0).cost.tobytes() == w.tobytes()
            assert len(routes.walker(R32).reaches) <= 2


@settings(max_examples=examples(150), deadline=None)
@given(st.integers(4, 12), st.integers(0, 2**32 - 1), st.booleans())
def test_own_ring_kernels_on_random_star_polygons(n: int, seed: int, grid: bool) -> None:
    # star-shaped rings (reflex vertices too), counter-clockwise, each row its own ring;
    # sight lines and segments through vertices, from vertices and beside them
    rng = np.random.default_rng(seed)
    ang = np.sort(rng.uniform(0, 2 * np.pi, (6, n)), axis=1)
    rad = rng.uniform(0.3, 2.0, (6, n))
    V = np.stack([np.cos(ang) * rad, np.sin(ang) * rad], axis=2) + 5.0
    if grid:
        V = np.round(V * 2) / 2
    x = V[0, 0] + np.array([0.0, -3.0]) if seed % 2 else rng.uniform(0, 10, 2)
    through = x + (V - x) * rng.uniform(1.0, 2.5, (6, n, 1))  # beyond each vertex, seen from x
    T = np.concatenate([through[:, 0], V[:, 1], rng.uniform(0, 10, (6, 2)), V[:, 0] + 1e-12])
    rows = np.tile(V, (4, 1, 1))
    prv, nxt = np.roll(rows, 1, axis=1), np.roll(rows, -1, axis=1)
    assert np.array_equal(R.rings.sees_rows(x, T, rows), sees_own(x, T, rows, prv, nxt))
    P = np.concatenate([np.broadcast_to(x, (12, 2)), V[:, 2], through[:, 1]])
    Q = np.concatenate([through[:, 0], through[:, 1], V[:, 3] + 1e-12, V[:, 0]])
    rows = np.concatenate([V, V, V, V])
    prv, nxt = np.roll(rows, 1, axis=1), np.roll(rows, -1, axis=1)
    assert np.array_equal(R.rings.blocked_rows(P, Q, rows),
                          blocked_own(P, Q, rows, prv, nxt))
