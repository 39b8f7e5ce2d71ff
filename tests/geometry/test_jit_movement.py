"""The compiled wall tests (``solo_ops.geometry.jit.movement``) answer exactly what the numpy
code answers (issue 13, fifth pass).

``routes.blocked`` (is a straight segment clear of the walls: every walk, route, reach and
straight distance asks it) and ``routes.blocked_rows`` (each segment against its own ring: the
bases on the table) run one numba kernel each when :data:`solo_ops.geometry.jit.ENABLED`. Both
are compared here with the numpy code -- the dense sign table, the boxed form for many pairs,
the rows form -- boolean for boolean, on every shipped board's walls and on rings whose edges
do not end at their successor, for random segments and for the hard ones: through wall
corners exactly, along wall faces, from and to corners, 1e-12 and 1e-9 off them.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("numba")

from solo_ops.geometry import routes as R
from solo_ops.geometry.jit import movement as jm
from tests.support.budget import examples
from tests.support.distance_boards import BOARD_LIST, CHECKED_IDS, CHECKED_K, IDS
from tests.support.jit_switch import compiled


def both(P: np.ndarray, Q: np.ndarray, rings: R.rings.Rings) -> tuple[np.ndarray, np.ndarray]:
    """(``blocked`` with the kernel, without it)."""
    with compiled(True):
        got = R.rings.blocked(P, Q, rings)
    with compiled(False):
        want = R.rings.blocked(P, Q, rings)
    return got, want


def hard_segments(rings: R.rings.Rings, rng: np.random.Generator, n: int) -> tuple[np.ndarray,
                                                                             np.ndarray]:
    """Segments through wall corners exactly (the corner plus and minus multiples of a
    quarter-inch step: exact in binary for round coordinates), along wall faces and beyond
    their ends, from a corner to a corner, and the same 1e-12 / 1e-9 off."""
    P, Q = [], []
    E = len(rings)
    for _ in range(n):
        e = int(rng.integers(0, E))
        v, w, f = rings.v[e], rings.nxt[e], rings.f[e]
        step = np.array([rng.integers(-4, 5), rng.integers(-4, 5)], dtype=float) * 0.25
        if not step.any():
            step = np.array([0.25, 0.0])
        s, t = int(rng.integers(1, 9)), int(rng.integers(1, 9))
        P += [v + s * step, v - 0.5 * f, v, v + 0.25 * f]
        Q += [v - t * step, w + 0.75 * f, rings.v[int(rng.integers(0, E))], w]
    P_, Q_ = np.array(P), np.array(Q)
    out_p, out_q = [P_], [Q_]
    for eps in (1e-12, -1e-12, 1e-9):
        out_p.append(P_ + eps)
        out_q.append(Q_ - eps)
    return np.concatenate(out_p), np.concatenate(out_q)


@pytest.mark.parametrize("k", CHECKED_K, ids=CHECKED_IDS)
def test_blocked_equals_numpy_on_every_board(k: int) -> None:
    routes = R.Routes(BOARD_LIST[k])
    rings = routes.graph.rings
    if len(rings) == 0:
        pytest.skip("no walls")
    b = routes.board
    rng = np.random.default_rng(11 + k)
    rand = rng.uniform(0, 1, (400, 2)) * [b.width, b.depth]
    P, Q = hard_segments(rings, rng, 150)
    blocked_somewhere = clear_somewhere = 0
    for A, B in ((rand[:200], rand[200:]), (P, Q)):
        got, want = both(A, B, rings)
        assert got.tobytes() == want.tobytes()
        blocked_somewhere += int(want.sum())
        clear_somewhere += int((~want).sum())
        for i in range(0, len(A), 37):  # one segment at a time: the dense path
            g1, w1 = both(A[i:i + 1], B[i:i + 1], rings)
            assert g1.tobytes() == w1.tobytes()
    assert blocked_somewhere > 20 and clear_somewhere > 20


def test_the_boxed_path_and_the_dense_path_are_both_compared() -> None:
    """Enough segments for ``blocked`` to take its boxed form (more pairs than
    ``DENSE``), and few enough for the dense one, on the busiest shipped board."""
    routes = R.Routes(BOARD_LIST[3])
    rings = routes.graph.rings
    rng = np.random.default_rng(5)
    b = routes.board
    many = rng.uniform(0, 1, (2 * R.rings.DENSE // max(1, len(rings)) + 50, 2, 2)) \
        * [b.width, b.depth]
    assert len(many) * len(rings) > R.rings.DENSE
    got, want = both(many[:, 0], many[:, 1], rings)
    assert got.tobytes() == want.tobytes() and want.any() and not want.all()


def test_rings_whose_edges_do_not_end_at_their_successor() -> None:
    """The numpy code works out those ends apart; the kernel always does."""
    sq = np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]])
    nxt = np.roll(sq, -1, axis=0)
    nxt[3] = [0.0, 1.0]
    odd = R.rings.Rings(sq, np.roll(sq, 1, axis=0), nxt)
    rng = np.random.default_rng(3)
    P, Q = rng.uniform(-1, 3, (500, 2)), rng.uniform(-1, 3, (500, 2))
    P2, Q2 = hard_segments(odd, rng, 60)
    for A, B in ((P, Q), (P2, Q2)):
        got, want = both(A, B, odd)
        assert got.tobytes() == want.tobytes() and want.any()


def disc_rows(rng: np.random.Generator, n: int, sides: int) -> np.ndarray:
    """(n, sides, 2) regular polygons (bases) of random centres and radii, counter-clockwise."""
    ang = np.linspace(0, 2 * np.pi, sides, endpoint=False)
    c = rng.uniform(0, 20, (n, 1, 2))
    r = rng.choice([0.5, 0.63, 1.0, 1.25], (n, 1, 1))
    return c + r * np.stack([np.cos(ang), np.sin(ang)], axis=1)[None, :, :]


def test_blocked_rows_equals_numpy() -> None:
    rng = np.random.default_rng(8)
    blocked = 0
    for sides in (4, 8, 16, 32):
        V = disc_rows(rng, 300, sides)
        centre = V.mean(axis=1)
        # random segments, through a vertex exactly, along an edge, grazing a vertex
        P = [rng.uniform(0, 20, (300, 2)), 2 * V[:, 0] - centre, V[:, 0] - (V[:, 1] - V[:, 0]),
             V[:, 0] + np.array([1e-12, 0.0])]
        Q = [rng.uniform(0, 20, (300, 2)), centre, V[:, 1] + 0.5 * (V[:, 1] - V[:, 0]),
             V[:, 0] + np.array([3.0, 1e-12])]
        for A, B in zip(P, Q, strict=True):
            with compiled(True):
                got = R.rings.blocked_rows(A, B, V)
            with compiled(False):
                want = R.rings.blocked_rows(A, B, V)
            assert got.tobytes() == want.tobytes(), sides
            blocked += int(want.sum())
    assert blocked > 100


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_enters_equals_wedge_enters(data: Any) -> None:
    """One line through one obstacle vertex, against ``routes.wedge_enters``."""
    coord = st.sampled_from([0.0, 1.0, -1.0, 0.5, 2.0, 1e-12, -1e-12, 3.0, 0.25])
    pts = [np.array([data.draw(coord), data.draw(coord)]) for _ in range(4)]
    d, v, prv, nxt = pts
    want = R.rings.wedge_enters(d[None, :], v[None, :], prv[None, :], nxt[None, :])[0]
    assert jm.enters(d[0], d[1], v[0], v[1], prv[0], prv[1], nxt[0], nxt[1]) == want


@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_hypothesis_segments_on_a_board(data: Any) -> None:
    k = data.draw(st.integers(0, len(BOARD_LIST) - 1), label="board")
    routes = R.Routes(BOARD_LIST[k])
    rings = routes.graph.rings
    b = routes.board
    pts = routes.graph.pos if len(routes.graph.pos) else np.zeros((1, 2))

    def point() -> list[float]:
        if data.draw(st.booleans()):
            p = pts[data.draw(st.integers(0, len(pts) - 1))]
            return [float(p[0]), float(p[1])]
        return [data.draw(st.floats(0, b.width)), data.draw(st.floats(0, b.depth))]

    P = np.array([point() for _ in range(8)])
    Q = np.array([point() for _ in range(8)])
    got, want = both(P, Q, rings)
    assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize("k", CHECKED_K, ids=CHECKED_IDS)
def test_tangents_and_sight_lines_equal_numpy(k: int) -> None:
    """``tangent_grid`` (which corners a route may bend at) and ``sees`` (which points a
    point sees, with the side table and without), from random points, wall corners, graph
    corners and points 1e-12 off them, to the graph's corners and to random points."""
    routes = R.Routes(BOARD_LIST[k])
    g = routes.graph
    if len(g.pos) == 0:
        pytest.skip("no corners")
    b = routes.board
    rng = np.random.default_rng(90 + k)
    X = np.concatenate([rng.uniform(0, 1, (60, 2)) * [b.width, b.depth], g.pos, g.real,
                        g.rings.v[:40], g.pos + 1e-12, g.real - 1e-12])
    for A in (X, X[:3]):
        with compiled(True):
            got = R.rings.tangent_grid(A, g.real, g.up, g.un)
        with compiled(False):
            want = R.rings.tangent_grid(A, g.real, g.up, g.un)
        assert got.tobytes() == want.tobytes() and want.any() and not want.all()
    s4 = R.graph.side_table(g.pos, g.rings)
    seen = hidden = 0
    for x in X[::3]:
        for T, table in ((g.pos, s4), (g.pos, None), (X, None)):
            with compiled(True):
                got = R.rings.sees(x, T, g.rings, table)
            with compiled(False):
                want = R.rings.sees(x, T, g.rings, table)
            assert got.tobytes() == want.tobytes(), (k, tuple(x))
            seen += int(want.sum())
            hidden += int((~want).sum())
    assert seen > 50 and hidden > 50


def _table_discs(rng: np.random.Generator, n: int) -> R.discs.Discs:
    """Other models' bases on a 30" x 22" table, grown by a 32 mm base's radius."""
    blockers = [(float(x), float(y), float(r)) for x, y, r in
                zip(rng.uniform(1, 29, n), rng.uniform(1, 21, n),
                    rng.choice([0.5, 0.63, 1.0, 1.26], n), strict=True)]
    return R.discs.Discs.of(blockers, 0.63)


def test_bases_block_as_numpy_says() -> None:
    """``Discs.blocks`` (a segment into any base) and ``pair_depth`` (how deep a point is in
    a base), compiled and numpy, for random segments and points and the hard cases: through a
    base's vertex exactly, along its edge, from its centre, 1e-12 off a vertex."""
    rng = np.random.default_rng(21)
    total = blocked = 0
    for n in (1, 4, 12):
        discs = _table_discs(rng, n)
        v = discs.verts.reshape(-1, 2)
        nxt = np.roll(discs.verts, -1, axis=1).reshape(-1, 2)
        P = [rng.uniform(0, 1, (300, 2)) * [30, 22], 2 * v - discs.centres.repeat(32, axis=0),
             v - (nxt - v), v + 1e-12, discs.centres]
        Q = [rng.uniform(0, 1, (300, 2)) * [30, 22], discs.centres.repeat(32, axis=0),
             nxt + 0.5 * (nxt - v), v + np.array([5.0, 1e-12]),
             discs.centres + np.array([7.0, 0.5])]
        for A, B in zip(P, Q, strict=True):
            with compiled(True):
                got = discs.blocks(A, B)
            with compiled(False):
                want = discs.blocks(A, B)
            assert got.tobytes() == want.tobytes(), n
            total += len(want)
            blocked += int(want.sum())
        X = np.concatenate([rng.uniform(0, 1, (400, 2)) * [30, 22], v, v + 1e-12, v - 1e-9,
                            discs.centres])
        # points exactly on a disc's circle + pad, just inside and just outside it
        ring = discs.centres[:, None, :] + (discs.radii + 1e-6)[:, None, None] * np.array(
            [[1.0, 0.0], [0.0, -1.0], [0.6, 0.8]])[None]
        X = np.concatenate([X, ring.reshape(-1, 2), ring.reshape(-1, 2) * (1 + 1e-15)])
        with compiled(True):
            got_near = discs.near(X)
        with compiled(False):
            xi, ki = discs.near(X)
        assert got_near[0].tobytes() == xi.tobytes() and got_near[1].tobytes() == ki.tobytes()
        with compiled(True):
            got_depth = discs.pair_depth(X, xi, ki)
            got_clear = discs.clear_of(X)
            got_eps = discs.clear_of(X, R.EPS)
        with compiled(False):
            want_depth = discs.pair_depth(X, xi, ki)
            want_clear = discs.clear_of(X)
            want_eps = discs.clear_of(X, R.EPS)
        assert np.array_equal(got_depth, want_depth) and got_clear.tobytes() == want_clear.tobytes()
        assert got_eps.tobytes() == want_eps.tobytes()
        assert want_clear.any() and not want_clear.all()
        assert (want_depth > 0).any() and (want_depth <= 0).any()
    assert 0.05 * total < blocked < 0.95 * total


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_dijkstra_settles_nodes_as_heapq_does(data: Any) -> None:
    """Distances and predecessors, compiled and Python (heapq), on random graphs with equal
    weights (ties: the same heap order decides), several sources and a limit."""
    n = data.draw(st.integers(1, 14))
    m = data.draw(st.integers(0, 30))
    weight = st.sampled_from([1.0, 2.0, 0.5, 0.1 + 0.2, 0.3, 1e-13, 3.0])
    src = np.array([data.draw(st.integers(0, n - 1)) for _ in range(m)], dtype=int)
    dst = np.array([data.draw(st.integers(0, n - 1)) for _ in range(m)], dtype=int)
    w = np.array([data.draw(weight) for _ in range(m)], dtype=float)
    init = np.array([data.draw(st.sampled_from([np.inf, np.inf, 0.0, 0.5, 1.0]))
                     for _ in range(n)])
    limit = data.draw(st.sampled_from([np.inf, 1.0, 2.5]))
    with compiled(True):
        got = R.paths.dijkstra(n, init, src, dst, w, limit=limit)
    with compiled(False):
        want = R.paths.dijkstra(n, init, src, dst, w, limit=limit)
    assert got[0].tobytes() == want[0].tobytes() and got[1].tobytes() == want[1].tobytes()
    assert got[1].dtype == want[1].dtype


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_floyd_equals_numpy(data: Any) -> None:
    """All-pairs distances and next nodes, compiled and numpy, on random graphs with repeated
    edges, equal weights and sums that tie (0.1 + 0.2 against 0.3: the 1e-12 margin decides)
    and nodes no edge reaches."""
    n = data.draw(st.integers(1, 12))
    m = data.draw(st.integers(0, 30))
    weight = st.sampled_from([1.0, 2.0, 0.5, 0.1, 0.2, 0.3, 0.1 + 0.2, 1e-13, 3.0, 0.0])
    i = np.array([data.draw(st.integers(0, n - 1)) for _ in range(m)], dtype=int)
    j = np.array([data.draw(st.integers(0, n - 1)) for _ in range(m)], dtype=int)
    w = np.array([data.draw(weight) for _ in range(m)], dtype=float)
    with compiled(True):
        got = R.paths.floyd(n, i, j, w)
    with compiled(False):
        want = R.paths.floyd(n, i, j, w)
    assert got[0].tobytes() == want[0].tobytes() and got[1].tobytes() == want[1].tobytes()
    assert got[1].dtype == want[1].dtype


def test_floyd_hand_graph() -> None:
    """A path 0-1-2 (1 and 2 inches) and a direct 0-2 of 3.5: 0 to 2 goes by 1 (3 inches, next
    node 1); the isolated node 3 stays at inf with its own index as next; both ways agree."""
    i, j, w = np.array([0, 1, 0]), np.array([1, 2, 2]), np.array([1.0, 2.0, 3.5])
    for on in (True, False):
        with compiled(on):
            D, nxt = R.paths.floyd(4, i, j, w)
        assert D[0, 2] == D[2, 0] == 3.0 and nxt[0, 2] == 1 and nxt[2, 0] == 1
        assert D[0, 1] == 1.0 and nxt[0, 1] == 1
        assert np.isinf(D[3, :3]).all() and D[3, 3] == 0.0 and list(nxt[3]) == [0, 1, 2, 3]


@pytest.mark.parametrize("k", CHECKED_K, ids=CHECKED_IDS)
def test_floyd_on_shipped_boards(k: int) -> None:
    """The measuring graph's corner distances of each board checked (every test board with
    the full budget), compiled and numpy."""
    g = R.Routes(BOARD_LIST[k]).graph
    with compiled(True):
        got = R.paths.floyd(len(g.pos), g.pi, g.pj, g.pw)
    with compiled(False):
        want = R.paths.floyd(len(g.pos), g.pi, g.pj, g.pw)
    assert got[0].tobytes() == want[0].tobytes() and got[1].tobytes() == want[1].tobytes()


@pytest.mark.parametrize("k", [2, 3, 5, 10], ids=[IDS[i] for i in (2, 3, 5, 10)])
def test_reachable_with_bases_equals_numpy(k: int) -> None:
    """Whole ``reachable`` answers (points, costs and every walk) with other bases on the
    table, compiled and numpy, on separate Routes objects."""
    board = BOARD_LIST[k]
    rng = np.random.default_rng(40 + k)
    fast, slow = R.Routes(board), R.Routes(board)
    radius = 32 / 25.4 / 2
    starts = [p for p in rng.uniform(0, 1, (60, 2)) * [board.width, board.depth]
              if slow.fits(p, radius)][:6]
    assert starts
    for start in starts:
        others = [(float(x), float(y), radius) for x, y in
                  rng.uniform(0, 1, (5, 2)) * [board.width, board.depth]
                  if np.hypot(x - start[0], y - start[1]) > 2 * radius + 0.1]
        with compiled(True):
            got = fast.reachable(start, radius, 6.0, blockers=others, spacing=0.5)
        with compiled(False):
            want = slow.reachable(start, radius, 6.0, blockers=others, spacing=0.5)
        assert got.points.tobytes() == want.points.tobytes()
        assert got.cost.tobytes() == want.cost.tobytes()
        assert [w.points for w in got.walks] == [w.points for w in want.walks]


@pytest.mark.parametrize("k", CHECKED_K, ids=CHECKED_IDS)
def test_best_links_equal_numpy(k: int) -> None:
    """``routes.graph.best_links`` (each end point's cheapest clear link through a corner), compiled
    and numpy, with every end point open to links (straight walks all blocked, no cost to
    beat) so that many links per point are tried cheapest first, with bases on the table
    beside the corners that hide some of them; soft terrain's surcharges in the costs."""
    board = BOARD_LIST[k]
    routes = R.Routes(board)
    radius = 32 / 25.4 / 2
    rng = np.random.default_rng(70 + k)
    starts = [p for p in rng.uniform(0, 1, (80, 2)) * [board.width, board.depth]
              if routes.fits(p, radius)][:4]
    tried = found = 0
    for start in starts:
        s = (float(start[0]), float(start[1]))
        walker = routes.walker(radius)
        corners = walker.graph.pos
        near = corners[np.hypot(*(corners - start).T) < 6.0]
        # bases a little off the nearby corners, where they hide links
        others = [(float(x) + 0.9, float(y) - 0.4, radius) for x, y in near[:6]
                  if np.hypot(x + 0.9 - s[0], y - 0.4 - s[1]) > 2 * radius + 0.1]
        _, g, _ = routes.walk_graph(radius, others, s, 6.0)
        n = len(g.pos)
        active = np.arange(n) if g.active is None else g.active
        S = np.array([s])
        _, sj, sw = g.links(S, active)
        init = np.full(n, np.inf)
        np.minimum.at(init, sj, sw)
        dist, _ = R.paths.dijkstra(n, init, g.pi, g.pj, g.pw, limit=6.0)
        live = (dist <= 6.0 + 1e-9).nonzero()[0]
        C = s + rng.uniform(-6, 6, (300, 2))
        clear = np.zeros(len(C), dtype=bool)
        cost = np.full(len(C), np.inf)
        with compiled(True):
            got = R.graph.best_links(g, C, S[0], clear, cost, live, dist, 6.0)
        with compiled(False):
            want = R.graph.best_links(g, C, S[0], clear, cost, live, dist, 6.0)
        for a, b in zip(got, want, strict=True):
            assert a.tobytes() == b.astype(a.dtype).tobytes()
        tried += len(C)
        found += len(want[0])
    if starts and len(routes.walker(radius).graph.pos):
        assert 0 < found < tried  # some points reached through a corner, some not


@pytest.mark.parametrize("k", CHECKED_K, ids=CHECKED_IDS)
def test_crossings_equal_numpy(k: int) -> None:
    """``routes.crossings`` (where segments properly cross edges, and how far along: the
    surcharge of soft terrain and where a walk enters it), compiled and numpy, against each
    board's walls and soft footprints, for random segments and the hard ones (through
    corners, along faces, 1e-12 off), with and without an ``active`` mask."""
    board = BOARD_LIST[k]
    routes = R.Routes(board)
    walker = routes.walker(32 / 25.4 / 2)
    rng = np.random.default_rng(90 + k)
    sets = [(walker.graph.rings.v, walker.graph.rings.nxt)]
    soft = walker.graph.soft
    if soft:
        sets.append((soft.ev, soft.en))
    total = 0
    for e0, e1 in sets:
        rings = R.rings.Rings(e0, np.roll(e0, 1, axis=0), e1)
        if len(e0) == 0:
            continue
        P, Q = hard_segments(rings, rng, 60)
        P = np.concatenate([P, rng.uniform(0, 1, (400, 2)) * [board.width, board.depth]])
        Q = np.concatenate([Q, rng.uniform(0, 1, (400, 2)) * [board.width, board.depth]])
        for active in (None, rng.random(len(P)) < 0.5):
            with compiled(True):
                got = R.rings.crossings(P, Q, e0, e1, active)
            with compiled(False):
                want = R.rings.crossings(P, Q, e0, e1, active)
            for a, b in zip(got, want, strict=True):
                assert a.tobytes() == b.astype(a.dtype).tobytes()
            total += len(want[0])
    if len(walker.graph.rings.v):
        assert total > 0


@pytest.mark.parametrize("k", CHECKED_K, ids=CHECKED_IDS)
def test_corner_touches_equal_numpy(k: int) -> None:
    """``routes.rings.touches`` (the corners a segment passes through, where a leg onto soft
    terrain through its corner is cut), compiled and numpy, against each board's walls and
    soft footprints, for the hard segments (through corners, along faces, 1e-12 off) and
    random ones, with and without an ``active`` mask, at the walls' and the outlines'
    tolerances."""
    board = BOARD_LIST[k]
    walker = R.Routes(board).walker(32 / 25.4 / 2)
    rng = np.random.default_rng(190 + k)
    sets = [(walker.graph.rings.v, walker.graph.rings.nxt)]
    if walker.graph.soft:
        sets.append((walker.graph.soft.ev, walker.graph.soft.en))
    total = 0
    for e0, e1 in sets:
        if len(e0) == 0:
            continue
        P, Q = hard_segments(R.rings.Rings(e0, np.roll(e0, 1, axis=0), e1), rng, 60)
        P = np.concatenate([P, rng.uniform(0, 1, (200, 2)) * [board.width, board.depth]])
        Q = np.concatenate([Q, rng.uniform(0, 1, (200, 2)) * [board.width, board.depth]])
        for active, near in ((None, R.common.TOL), (rng.random(len(P)) < 0.5, 1e-7)):
            with compiled(True):
                got = R.rings.touches(P, Q, e0, active, near)
            with compiled(False):
                want = R.rings.touches(P, Q, e0, active, near)
            for a, b in zip(got, want, strict=True):
                assert a.tobytes() == b.astype(a.dtype).tobytes()
            total += len(want[0])
    if len(walker.graph.rings.v):
        assert total > 0


@pytest.mark.parametrize("k", CHECKED_K, ids=CHECKED_IDS)
def test_walking_graph_with_bases_equals_numpy(k: int) -> None:
    """``Walker.with_discs`` (the walking graph with other bases added: their corners, the
    pairs they cut, the pairs their corners make -- ``Graph.pairs_new``), compiled and numpy:
    the same corners and the same pairs with the same costs, in the same order, for bases
    placed beside the walls' corners and at random, whole and within a move's circle."""
    board = BOARD_LIST[k]
    routes = R.Routes(board)
    radius = 32 / 25.4 / 2
    walker = routes.walker(radius)
    rng = np.random.default_rng(110 + k)
    corners = walker.graph.pos
    pairs = 0
    for trial in range(4):
        beside = corners[rng.permutation(len(corners))[:4]] + rng.uniform(-1.2, 1.2, (4, 2)) \
            if len(corners) else np.zeros((0, 2))
        spread = rng.uniform(0, 1, (4, 2)) * [board.width, board.depth]
        others = [(float(x), float(y), radius) for x, y in np.concatenate([beside, spread])]
        discs = routes.discs(others, walker.radius)
        centre = tuple(spread[0]) if trial % 2 else None
        reach = 6.0 if trial % 2 else math.inf
        with compiled(True):
            got = walker.with_discs(discs, centre, reach)
        with compiled(False):
            want = walker.with_discs(discs, centre, reach)
        assert got.pos.tobytes() == want.pos.tobytes()
        for name in ("pi", "pj", "pw"):
            assert getattr(got, name).tobytes() == getattr(want, name).tobytes(), name
        pairs += len(want.pi)
    assert pairs > 0


@pytest.mark.parametrize("k", CHECKED_K, ids=CHECKED_IDS)
def test_disc_corners_equal_numpy(k: int) -> None:
    """``Walker.disc_corners`` (the other bases' polygon corners: nudged, real, neighbours,
    unit directions, whether each is free) compiled and numpy, from separate walkers (nothing
    remembered is shared): the same rows bit for bit, for bases beside the walls' corners, at
    random, of several sizes and half off the table."""
    board = BOARD_LIST[k]
    rng = np.random.default_rng(140 + k)
    radius = 32 / 25.4 / 2
    corners = R.Routes(board).walker(radius).graph.pos
    near = (corners[rng.permutation(len(corners))[:6]] + rng.uniform(-1.5, 1.5, (6, 2))
            if len(corners) else np.zeros((0, 2)))
    spread = rng.uniform(-0.5, 1.05, (10, 2)) * [board.width, board.depth]
    centres = np.concatenate([near, spread, [[0.0, 0.0], [board.width, 3.0]]])
    others = [(float(x), float(y), float(r)) for (x, y), r in
              zip(centres, rng.choice([0.5, radius, 1.0, 1.5], len(centres)), strict=True)]
    out = []
    for on in (True, False):
        walker = R.Routes(board).walker(radius)
        discs = R.Routes(board).discs(others, walker.radius)
        with compiled(on):
            out.append(walker.disc_corners(discs))
            again = walker.disc_corners(discs)  # remembered
        assert all(a.tobytes() == b.tobytes() for a, b in zip(out[-1], again, strict=True))
    for got, want in zip(*out, strict=True):
        assert got.dtype == want.dtype and got.shape == want.shape
        assert got.tobytes() == want.tobytes()
    free = out[1][-1]
    assert len(free) > 0 and free.any()
