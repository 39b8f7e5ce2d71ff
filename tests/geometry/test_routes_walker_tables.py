"""The cheaper movement queries of issue 13 (fourth pass) give exactly the old answers.

``Walker.disc_corners`` keeps each base's corner rows side by side in one table (two
concatenations per call instead of seven); ``with_discs`` asks ``clear_of`` once for the static
and the bases' corners; ``Discs.passing`` keeps each disc's box; ``Routes.discs`` computes
the newly seen bases' edges together and hands each base's inradius on (``clear_of``);
``blocked``/``blocked_boxed`` remember what they derive from the rings alone (the runs of
edges and their boxes, whether edges end at their successors); ``Discs.hides`` and the
one-point ``Graph.links`` repeat the point instead of broadcasting it; ``reachable``'s grid
offsets are remembered per move and spacing (``Walker.grid``). Each is checked here against
the code it replaced, kept below as a frozen copy (f842457): the same booleans and the same
floats, bit for bit, on every shipped board (and random wall panels from
``test_routes_fast``), with bases scattered and
crowded round a start, and hypothesis-drawn moves and starts.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry.polygon import orient

from solo_ops.geometry import routes as R
from tests.support.budget import examples
from tests.support.route_boards import BOARD_LIST, CHECKED_IDS, CHECKED_LIST, R32
from tests.support.wall_segments import (
    blocked_dense_ref,
    disc_blockers,
    grazing_segments,
    same_graph,
    with_discs_ref,
)


# -- the code replaced (f842457), frozen ----------------------------------------------------------
def disc_corners_ref(walker: R.walker.Walker, discs: R.discs.Discs,
                     memo: dict[Any, tuple[np.ndarray, ...]]) -> tuple[np.ndarray, ...]:
    """``Walker.disc_corners`` as it was (each disc's seven arrays kept apart)."""
    keys = list(zip(discs.centres[:, 0].tolist(), discs.centres[:, 1].tolist(),
                    discs.radii.tolist(), strict=True))
    miss = [k for k, key in enumerate(keys) if key not in memo]
    if miss:
        V = discs.verts[miss]
        n = V.shape[1]
        v = V.reshape(-1, 2)
        prv_all = np.roll(V, 1, axis=1).reshape(-1, 2)
        nxt_all = np.roll(V, -1, axis=1).reshape(-1, 2)
        convex, nudged = R.rings.Rings(v, prv_all, nxt_all).corners()
        free_all = walker.graph.in_box(nudged, 0.0) & ~walker.inside(nudged)
        up_all, un_all = R.common.unit_vectors(prv_all - v), R.common.unit_vectors(nxt_all - v)
        for j, k in enumerate(miss):
            rows = slice(j * n, (j + 1) * n)
            c = convex[rows]
            memo[keys[k]] = (nudged[rows][c], v[rows][c], prv_all[rows][c],
                             nxt_all[rows][c], up_all[rows][c], un_all[rows][c],
                             free_all[rows][c])
    parts = [memo[key] for key in keys]
    return tuple(np.concatenate([p[i] for p in parts]) for i in range(7))


def blocked_boxed_ref(P: np.ndarray, Q: np.ndarray, rings: R.rings.Rings, out: np.ndarray
                      ) -> np.ndarray:
    """``blocked_boxed`` as it was (the runs and their boxes made on every call)."""
    E = len(rings)
    ring_starts = np.flatnonzero(np.concatenate(([True], rings.ring[1:] != rings.ring[:-1])))
    offset = np.arange(E) - np.repeat(ring_starts, np.diff(ring_starts, append=E))
    cs = np.flatnonzero(offset % R.rings.RUN == 0)  # run starts (every ring starts one)
    cl = np.diff(cs, append=E)
    rlo = np.minimum.reduceat(rings.lo, cs, axis=0) - 1e-9
    rhi = np.maximum.reduceat(rings.hi, cs, axis=0) + 1e-9
    lo, hi = np.minimum(P, Q), np.maximum(P, Q)
    m = lo[:, None, 0] <= rhi[None, :, 0]
    m &= hi[:, None, 0] >= rlo[None, :, 0]
    m &= lo[:, None, 1] <= rhi[None, :, 1]
    m &= hi[:, None, 1] >= rlo[None, :, 1]
    si, ri = np.nonzero(m)
    if len(si) == 0:
        return out
    lens = cl[ri] + 1  # the run's edges' starts and its last edge's end
    ends = np.cumsum(lens)
    first = ends - lens
    last = ends - 1
    vi = np.arange(int(ends[-1])) - np.repeat(first - cs[ri], lens)
    vi[last] = rings.succ[cs[ri] + cl[ri] - 1]
    sk = np.repeat(si, lens)
    d = Q - P
    ld = np.hypot(d[:, 0], d[:, 1])
    ux = rings.v[:, 0].take(vi)
    ux -= P[:, 0].take(sk)
    uy = rings.v[:, 1].take(vi)
    uy -= P[:, 1].take(sk)
    dx, dy = d[:, 0].take(sk), d[:, 1].take(sk)
    o1 = dx * uy
    o1 -= dy * ux
    tl = (R.TOL * ld).take(sk)
    s1 = (o1 > tl).view(np.int8) - (o1 < -tl).view(np.int8)
    straddle = s1[:-1] * s1[1:] == -1  # an edge's start and end on either side
    straddle[last[:-1]] = False  # a run's last entry starts no edge
    k = np.flatnonzero(straddle)
    if len(k):
        e = vi[k]
        fx, fy = rings.f[e, 0], rings.f[e, 1]
        o3 = fy * ux[k] - fx * uy[k]  # cross(f, P - u)
        o4 = o3 + (fx * dy[k] - fy * dx[k])  # cross(f, Q - u), as blocked rounds it
        tf = R.TOL * rings.lf[e]
        hit = ((o3 > tf) & (o4 < -tf)) | ((o3 < -tf) & (o4 > tf))
        out[sk[k[hit]]] = True
    on = s1 == 0
    on[last] = False
    k = np.flatnonzero(on)
    if len(k):
        k = k[np.abs(o1[k]) < tl[k]]
        ldk = ld[sk[k]]
        along = (ux[k] * dx[k] + uy[k] * dy[k]) / np.where(ldk > 0, ldk, 1.0)
        k = k[(along > R.END) & (along < ldk - R.END) & ~out[sk[k]]]
        if len(k):
            e, sj = vi[k], sk[k]
            enters = R.rings.wedge_enters(d[sj], rings.v[e], rings.prv[e], rings.nxt[e])
            out[sj[enters]] = True
    return out


def passing_ref(discs: R.discs.Discs, P: np.ndarray, Q: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray]:
    """``Discs.passing`` as it was (the discs' boxes summed in the test each time)."""
    lo, hi = np.minimum(P, Q), np.maximum(P, Q)
    c, grow = discs.centres, discs.radii + 1e-5
    si, ki = np.nonzero((lo[:, None, 0] <= c[None, :, 0] + grow[None, :])
                        & (hi[:, None, 0] >= c[None, :, 0] - grow[None, :])
                        & (lo[:, None, 1] <= c[None, :, 1] + grow[None, :])
                        & (hi[:, None, 1] >= c[None, :, 1] - grow[None, :]))
    if len(si) == 0:
        return si, ki
    d = Q - P
    ld2 = np.maximum((d * d).sum(axis=1), 1e-300)
    dk = d[si]
    rel = c[ki] - P[si]
    t = np.clip((rel * dk).sum(axis=1) / ld2[si], 0.0, 1.0)
    gap = np.hypot(rel[:, 0] - dk[:, 0] * t, rel[:, 1] - dk[:, 1] * t)
    keep = gap < discs.radii[ki] + 1e-6
    return si[keep], ki[keep]


def hides_ref(discs: R.discs.Discs, x: np.ndarray, T: np.ndarray) -> np.ndarray:
    """``Discs.hides`` as it was (the point broadcast, the boxes as above)."""
    out = np.zeros(len(T), dtype=bool)
    if len(discs) == 0 or len(T) == 0:
        return out
    si, ki = passing_ref(discs, np.broadcast_to(x, T.shape), T)
    if len(si):
        out[si[~R.rings.sees_rows(x, T[si], discs.verts[ki])]] = True
    return out


def links_one_ref(g: R.graph.Graph, x: np.ndarray, nodes: np.ndarray | None,
                  costed: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``Graph.links`` of one point as it was (its soft cost from a broadcast copy; none with
    ``costed`` False, as ``Routes.reachable`` asks since issue 39: it adds them itself)."""
    if nodes is None:
        real, up, un, pos = g.real, g.up, g.un, g.pos
        nj = np.arange(len(pos))
    else:
        real, up, un = g.real[nodes], g.up[nodes], g.un[nodes]
        pos, nj = g.pos[nodes], nodes
    keep = np.flatnonzero(R.rings.tangent_u(x, real, up, un))
    s4 = None if g.s4 is None else g.s4[nj[keep]]
    ok = keep[g.sees(x, pos[keep], s4)]
    nj = nj[ok]
    w = np.hypot(pos[ok, 0] - x[0], pos[ok, 1] - x[1])
    if g.soft and costed:
        w = w + g.soft.cost(np.broadcast_to(x, (len(ok), 2)).copy(), pos[ok])
    return np.zeros(len(nj), dtype=int), nj, w


def discs_ref(blockers: Any, radius: float, memo: dict[Any, Any]) -> R.discs.Discs:
    """``Routes.discs`` as it was (each missed base's edges computed alone)."""
    arr = np.asarray([tuple(b)[:3] for b in blockers], dtype=float).reshape(-1, 3)
    if len(arr) == 0:
        return R.discs.Discs.of([], radius)
    grown = arr[:, 2] + radius
    keys = list(zip(arr[:, 0].tolist(), arr[:, 1].tolist(), grown.tolist(), strict=True))
    miss = [k for k, key in enumerate(keys) if key not in memo]
    if miss:
        geoms = shapely.buffer(shapely.points(arr[miss, :2]), grown[miss],
                               quad_segs=R.DISC_SEGMENTS)
        for k, geom in zip(miss, geoms, strict=True):
            poly = orient(geom, 1.0)
            verts = np.asarray(poly.exterior.coords)[:-1, :2]
            memo[keys[k]] = (poly, verts, R.common.unit_vectors(np.roll(verts, -1, axis=0) - verts))
    found = [memo[key] for key in keys]
    return R.discs.Discs([f[0] for f in found], np.stack([f[1] for f in found]), arr[:, :2],
                         grown, edges=np.stack([f[2] for f in found]))


def ref_clear(discs: R.discs.Discs, X: np.ndarray, tol: float) -> np.ndarray:
    """``Discs.clear_of`` by its definition: ``depth(X) <= tol``."""
    return discs.depth(X) <= tol


def grid_ref(s: tuple[float, float], move: Any, spacing: Any) -> np.ndarray:
    """The grid points of ``Routes._reachable`` as they were built on every call."""
    offs = np.arange(-move, move + 1e-9, spacing) if move > 0 else np.zeros(0)
    dx, dy = np.meshgrid(offs, offs, indexing="ij")
    dx, dy = dx.ravel(), dy.ravel()
    keep = ~((dx == 0) & (dy == 0)) & (np.hypot(dx, dy) <= move)
    return np.stack([s[0] + dx[keep], s[1] + dy[keep]], axis=1)


# -- helpers ---------------------------------------------------------------------------------------
def same_arrays(a: tuple[np.ndarray, ...], b: tuple[np.ndarray, ...]) -> None:
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        assert x.dtype == y.dtype and x.shape == y.shape
        assert np.ascontiguousarray(x).tobytes() == np.ascontiguousarray(y).tobytes()


def crowded(routes: R.Routes, rng: np.random.Generator, count: int
            ) -> tuple[tuple[float, float], list[tuple[float, float, float]]]:
    """A start and ``count`` bases packed within 7" of it (touching, overlapping, by walls)."""
    starts = routes.free_points(None, R32, 0.5)
    s = starts[rng.integers(len(starts))]
    near = starts[np.hypot(*(starts - s).T) <= 7.0]
    picks = near[rng.choice(len(near), min(count, len(near)), replace=False)]
    return ((float(s[0]), float(s[1])),
            [(float(x), float(y), R32 + (0.5 if j % 4 == 0 else 0.0))
             for j, (x, y) in enumerate(picks) if (x, y) != (s[0], s[1])])


# -- the tests ------------------------------------------------------------------------------------
@pytest.mark.parametrize("board", CHECKED_LIST, ids=CHECKED_IDS)
def test_disc_corners_are_the_old_rows(board: Any, monkeypatch: Any) -> None:
    routes = R.Routes(board)
    rng = np.random.default_rng(31)
    walker = routes.walker(R32)
    memo: dict[Any, tuple[np.ndarray, ...]] = {}
    for k in range(4):
        blockers = disc_blockers(routes, rng, 9)
        if k == 3:  # a crowd, and one base moved by a hair (a new key next to an old one)
            blockers = crowded(routes, rng, 30)[1]
            blockers[0] = (blockers[0][0] + 1e-9, *blockers[0][1:])
        discs = routes.discs(blockers, R32)
        for _ in range(2):  # the second time from the remembered rows
            same_arrays(walker.disc_corners(discs), disc_corners_ref(walker, discs, memo))
        same_arrays(walker.disc_corners(discs.subset([2, 0])),
                    disc_corners_ref(walker, discs.subset([2, 0]), memo))
    monkeypatch.setattr(R.common, "MEMO_LIMIT", 4)  # the rows forgotten and redone
    discs = routes.discs(disc_blockers(routes, rng, 6), R32)
    same_arrays(walker.disc_corners(discs), disc_corners_ref(walker, discs, {}))


@pytest.mark.parametrize("board", CHECKED_LIST, ids=CHECKED_IDS)
def test_blocked_with_remembered_runs_as_before(board: Any, monkeypatch: Any) -> None:
    # the same rings asked again and again (the runs and the ends' check remembered on them),
    # with the run length changed between calls (remembered per length)
    routes = R.Routes(board)
    rng = np.random.default_rng(37)
    walker = routes.walker(R32)
    centre, blockers = crowded(routes, rng, 10)
    taken = walker.with_discs(routes.discs(blockers, R32), centre, 6.0).rings
    for rings in (routes.graph.rings, walker.graph.rings, taken):
        if len(rings) == 0:
            continue
        P, Q = grazing_segments(rings, rng, 40)
        for run in (12, 12, 1, 5, 12, 1000, 1000):
            monkeypatch.setattr(R.rings, "RUN", run)
            want = blocked_boxed_ref(P, Q, rings, np.zeros(len(P), dtype=bool))
            got = R.rings.blocked_boxed(P, Q, rings, np.zeros(len(P), dtype=bool))
            assert got.tobytes() == want.tobytes()
            assert rings.runs is not None and rings.runs[0] == run
            monkeypatch.setattr(R.rings, "DENSE", 0)
            assert R.rings.blocked(P, Q, rings).tobytes() == want.tobytes()
            monkeypatch.setattr(R.rings, "DENSE", 10**9)
            assert R.rings.blocked(P, Q, rings).tobytes() == want.tobytes()
        assert want.any() and not want.all()
        monkeypatch.undo()


def test_blocked_remembers_whether_edges_end_at_successors(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    # the numpy code's memo (the compiled loops, when on, work the ends out per segment)
    monkeypatch.setattr(R.jit, "ENABLED", False)
    sq = np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]])
    nxt = np.roll(sq, -1, axis=0)
    nxt[3] = [0.0, 1.0]
    odd = R.rings.Rings(sq, np.roll(sq, 1, axis=0), nxt)
    built = R.rings.Rings.of([R.Polygon(sq), R.Polygon(sq + 2.0)])
    rng = np.random.default_rng(2)
    P, Q = rng.uniform(-4, 4, (300, 2)), rng.uniform(-4, 4, (300, 2))
    for rings, ends in ((odd, False), (built, True)):
        for _ in range(2):
            got = R.rings.blocked(P, Q, rings)
            assert rings.ends_at_successors is ends
            assert got.tobytes() == blocked_dense_ref(P, Q, rings).tobytes()


@pytest.mark.parametrize("board", CHECKED_LIST, ids=CHECKED_IDS)
def test_grown_bases_as_before(board: Any) -> None:
    # several bases missed at once (their edges computed together), some remembered, mixed
    # base sizes, one moved by a hair; the polygons, vertices and edges as computed alone
    routes = R.Routes(board)
    rng = np.random.default_rng(36)
    memo: dict[Any, Any] = {}
    blockers = disc_blockers(routes, rng, 10)
    for k in range(5):
        if k == 2:
            blockers = blockers[:4] + disc_blockers(routes, rng, 3)
        if k == 3:
            blockers[1] = (blockers[1][0] + 1e-9, *blockers[1][1:])
        if k == 4:
            blockers = [*blockers, (blockers[0][0], blockers[0][1], 1.0)]
        for radius in (R32, 0.63):
            got, want = routes.discs(blockers, radius), discs_ref(blockers, radius, memo)
            assert got.edges is not None and want.edges is not None
            for name in ("verts", "centres", "radii", "edges"):
                assert getattr(got, name).tobytes() == getattr(want, name).tobytes(), name
            assert all(a.equals_exact(b, 0.0) for a, b in zip(got.polys, want.polys,
                                                              strict=True))
            # the inradii handed over (and down to subsets) are the ones clear_of computed
            k = np.arange(len(want))
            assert got.inner is not None and want.inner is None
            assert got.inner.tobytes() == want.pair_depth(want.centres, k, k).tobytes()
            sub, ref = got.subset(k % 3 != 1), want.subset(k % 3 != 1)
            j = np.arange(len(ref))
            assert sub.inner is not None
            assert sub.inner.tobytes() == ref.pair_depth(ref.centres, j, j).tobytes()
            X = np.concatenate([want.centres, want.verts.reshape(-1, 2)[::3],
                                rng.uniform(0, 30, (200, 2))])
            for tol in (0.0, R.EPS):
                assert got.clear_of(X, tol).tobytes() == ref_clear(want, X, tol).tobytes()


@pytest.mark.parametrize("board", CHECKED_LIST, ids=CHECKED_IDS)
def test_with_discs_with_one_clear_of_builds_the_same_graph(board: Any) -> None:
    routes = R.Routes(board)
    rng = np.random.default_rng(32)
    walker = routes.walker(R32)
    for k, count in enumerate((0, 1, 8, 25, 40)):
        centre, blockers = crowded(routes, rng, count)
        discs = routes.discs(blockers, R32)
        move = (6.0, 3.0, 12.0, 6.0, 9.0)[k]
        near = [(centre[0] + 2.0, centre[1], 1.0)]
        for args in ((centre, move, None), (centre, move, R.walker.on_the_way(centre, move, near)),
                     (None, math.inf, None)):
            same_graph(walker.with_discs(discs, *args), with_discs_ref(walker, discs, *args))


@pytest.mark.parametrize("board", CHECKED_LIST, ids=CHECKED_IDS)
def test_hides_and_passing_as_before(board: Any) -> None:
    routes = R.Routes(board)
    rng = np.random.default_rng(33)
    centre, blockers = crowded(routes, rng, 20)
    discs = routes.discs(blockers, R32)
    V = discs.verts.reshape(-1, 2)
    P = np.concatenate([V, rng.uniform(0, 30, (60, 2)), np.round(V[::7] * 2) / 2])
    Q = np.concatenate([V[::-1], rng.uniform(0, 30, (60, 2)), V[::7] + 1e-12])
    got, want = discs.passing(P, Q), passing_ref(discs, P, Q)
    same_arrays(got, want)
    assert len(got[0]) > 0
    for x in (np.asarray(centre), V[3], V[5] + np.array([1e-12, 0.0]), P[-1]):
        T = np.concatenate([Q, V, V + 1e-12])
        hid = discs.hides(x, T)
        assert hid.tobytes() == hides_ref(discs, x, T).tobytes()
        assert hid.any() and not hid.all()


@pytest.mark.parametrize("board", CHECKED_LIST, ids=CHECKED_IDS)
def test_links_of_one_point_as_before(board: Any) -> None:
    # every radius's walking graph with bases (razor wire's surcharge where the board has it)
    # and the measuring graph (its side table)
    routes = R.Routes(board)
    rng = np.random.default_rng(34)
    for radius in (R32, 0.63):
        walker = routes.walker(radius)
        centre, blockers = crowded(routes, rng, 12)
        g = walker.with_discs(routes.discs(blockers, walker.radius), centre, 6.0)
        for x in (np.asarray(centre), *routes.free_points(None, radius, 1.0)[::9][:12]):
            for nodes in (None, g.active):
                same_arrays(g.links(x[None, :], nodes), links_one_ref(g, x, nodes))
    g = routes.graph
    for x in rng.uniform(0, 22, (10, 2)):
        same_arrays(g.links(x[None, :]), links_one_ref(g, x, None))


@settings(max_examples=examples(150), deadline=None)
@given(st.sampled_from([0, 0.0, 1, 2.0, 3, 3.0, 5.5, 6, 6.0, 1.9291682264050913, 7.25, 12.0,
                        18]),
       st.sampled_from([0.5, 1.0, 0.25, 0.3, 1]),
       st.floats(0.0, 30.0), st.floats(0.0, 22.0), st.booleans())
def test_grid_points_as_before(move: Any, spacing: Any, x: float, y: float, grid: bool) -> None:
    if grid:  # starts on the 0.25" grid (offsets meet the start's coordinates exactly)
        x, y = round(x * 4) / 4, round(y * 4) / 4
    walker = WALKER
    for _ in range(2):  # the second time from the remembered offsets
        dx, dy = walker.grid(move, spacing)
        C = np.stack([x + dx, y + dy], axis=1)
        want = grid_ref((x, y), move, spacing)
        assert C.shape == want.shape and C.tobytes() == want.tobytes()


WALKER = R.Routes(BOARD_LIST[0]).walker(R32)


def grid_offsets_ref(self: R.walker.Walker, move: Any, spacing: Any) -> tuple[np.ndarray, ...]:
    """The offsets as ``grid_ref`` builds them (for ``Walker.grid``: start at the origin)."""
    C = grid_ref((0.0, 0.0), move, spacing)
    return C[:, 0], C[:, 1]


def old_routes(monkeypatch: Any) -> None:
    """Every fast path of this pass replaced by its frozen copy (or its reference)."""
    plain_links = R.graph.Graph.links

    def links(self: R.graph.Graph, X: np.ndarray, nodes: np.ndarray | None = None,
              bound: np.ndarray | None = None, base: np.ndarray | None = None,
              batch: bool = False, costed: bool = True
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if (len(X) == 1 and bound is None and not batch and len(self.pos)
                and (nodes is None or len(nodes))):
            return links_one_ref(self, X[0], nodes, costed)
        return plain_links(self, X, nodes, bound, base, batch, costed)

    monkeypatch.setattr(R.walker.Walker, "with_discs", with_discs_ref)
    monkeypatch.setattr(R.walker.Walker, "grid", grid_offsets_ref)
    monkeypatch.setattr(R.discs.Discs, "hides", hides_ref)
    monkeypatch.setattr(R.discs.Discs, "passing", passing_ref)
    monkeypatch.setattr(R.graph.Graph, "links", links)


@pytest.mark.parametrize("board", CHECKED_LIST, ids=CHECKED_IDS)
def test_reachable_and_walk_among_crowds_as_before(board: Any, monkeypatch: Any) -> None:
    # end to end: points, costs and walks (and walk's paths) float for float, from a fresh
    # Routes with this pass's fast paths and from one with their frozen copies
    rng = np.random.default_rng(35)
    cases = []
    probe = R.Routes(board)
    for count, move, near in ((0, 6.0, False), (10, 3, False), (30, 6.0, False),
                              (20, 6.0, True), (12, 1.9291682264050913, False)):
        centre, blockers = crowded(probe, rng, count)
        cases.append((centre, move, blockers,
                      [(centre[0] + 1.5, centre[1] + 1.0, 1.2)] if near else None))

    def answers() -> list[Any]:
        routes = R.Routes(board)
        out: list[Any] = []
        for centre, move, blockers, near in cases:
            got = routes.reachable(centre, R32, move, blockers=blockers, near=near)
            out.append((got.points.tobytes(), got.cost.tobytes(),
                        [(w.points, w.length, w.cost) for w in got.walks]))
            for p in got.points[1:][::5]:
                w = routes.walk(centre, p, R32, blockers=blockers)
                out.append(None if w is None else (w.points, w.length, w.cost))
        return out

    new = answers()
    old_routes(monkeypatch)
    assert answers() == new
    assert sum(len(a[2]) for a in new if isinstance(a, tuple) and len(a) == 3
               and isinstance(a[2], list)) > len(cases)
