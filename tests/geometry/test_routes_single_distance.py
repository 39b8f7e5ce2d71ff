"""Single distances around walls answer exactly what f842457 answered (issue 13, fourth pass).

``PairQuery`` lost a few numpy calls per query (methods instead of their Python wrappers:
``nonzero``, ``searchsorted``, ``np.logical_or.reduce`` for ``any(axis=1)``,
``np.count_nonzero`` for the direct test's ``any``). Every array is the same, so every answer
must be the same float and the same route. The reference below is f842457's ``PairQuery`` and
``Routes.distance``, copied as they were (with the helpers they call), run on a separate
:class:`Routes` object, so nothing one remembers can make the other agree. Pairs are asked cold,
again (both points remembered) and reversed, on every shipped board, the tests' random boards and
``bench/bench_distance.py``'s corridor and random boards, at random points, on the 0.5" and 1"
grids, on wall corners and nudged graph corners and 1e-12 around them, on wall faces and 1e-12
either side of them, inside walls, and at hypothesis points.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solo_ops.geometry import routes as R
from tests.support.budget import examples
from tests.support.distance_boards import BOARD_LIST, CHECKED_IDS, CHECKED_K, special_points

P2 = tuple[float, float]




_PAIRS: dict[int, tuple[R.Routes, R.Routes, FrozenPairQuery]] = {}


def pair_for(k: int) -> tuple[R.Routes, R.Routes, FrozenPairQuery]:
    """(Routes under test, a separate Routes for the reference, its frozen pair query)."""
    if k not in _PAIRS:
        board = BOARD_LIST[k]
        ref = R.Routes(board)
        _PAIRS[k] = (R.Routes(board), ref,
                     FrozenPairQuery(ref.graph, ref.corner_distances, ref.corner_next))
    return _PAIRS[k]


# -- the reference: f842457's helpers, PairQuery and Routes.distance, as they were ---------------
def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]


def _unit(a: np.ndarray) -> np.ndarray:
    n = np.hypot(a[..., 0], a[..., 1])
    return a / np.where(n > 0, n, 1.0)[..., None]


def _wedge_enters(d: np.ndarray, v: np.ndarray, prv: np.ndarray, nxt: np.ndarray
                  ) -> np.ndarray:
    """Whether a line with direction ``d`` through obstacle vertex ``v`` (neighbours ``prv``,
    ``nxt``, inside on the left) goes into the obstacle there, in either direction."""
    d = _unit(d)
    e1 = _unit(nxt - v)
    e2 = _unit(prv - v)
    convex = _cross(v - prv, nxt - v) >= 0
    tol = 1e-12
    enters = np.zeros(len(d), dtype=bool)
    for sign in (1.0, -1.0):
        dd = d * sign
        inside_convex = (_cross(e1, dd) > tol) & (_cross(dd, e2) > tol)
        inside_reflex = ~((_cross(e2, dd) >= -tol) & (_cross(dd, e1) >= -tol))
        enters |= np.where(convex, inside_convex, inside_reflex)
    return enters


def _side_table(T: np.ndarray, rings: R.rings.Rings) -> np.ndarray:
    """(len(T), E) whether each point lies strictly inside the half-plane of each edge (the
    ``s4`` of ``rings.sees``)."""
    if len(T) == 0 or len(rings) == 0:
        return np.zeros((len(T), len(rings)), dtype=bool)
    f, u = rings.f, rings.v
    c = f[:, 0] * u[:, 1] - f[:, 1] * u[:, 0]
    o4 = T[:, 1:2] * f[None, :, 0] - T[:, 0:1] * f[None, :, 1] - c[None, :]
    return o4 > R.TOL * rings.lf[None, :]


class FrozenPairQuery:
    """The measuring graph precomputed for fast single queries between two points.

    Every per-query quantity that is bilinear in the query point is split into a static table
    and a cheap per-query term: ``cross(T - x, U - x) = cross(T, U) - cross(T, x) - cross(x, U)``
    for corners T and obstacle vertices U, so one query is a few dense array operations."""

    def __init__(self, g: R.graph.Graph, D: np.ndarray, nxt: np.ndarray) -> None:
        self.g, self.D, self.nxt = g, D, nxt
        r = g.rings
        T, U = g.pos, r.v
        self.n, self.e = len(T), len(r)
        self.C = T[:, 0:1] * U[None, :, 1] - T[:, 1:2] * U[None, :, 0]  # cross(T, U)
        self.s4 = _side_table(T, r)
        tp, tn = _unit(g.prv - g.real), _unit(g.nxt - g.real)
        # tangent sides cross(V - x, e) = cross(V, e) - (x_x e_y - x_y e_x), both neighbours
        e = np.concatenate([tp, tn])
        V = np.concatenate([g.real, g.real])
        self.tan_m = np.stack([-e[:, 1], e[:, 0]])  # (2, 2N): x @ tan_m = -(x_x e_y - x_y e_x)
        self.tan_c = V[:, 0] * e[:, 1] - V[:, 1] * e[:, 0]
        front_m = np.stack([r.f[:, 1], -r.f[:, 0]])  # x @ front_m + front_c = -cross(f,x-u)
        front_c = r.f[:, 0] * U[:, 1] - r.f[:, 1] * U[:, 0]
        xu_m = np.stack([U[:, 1], -U[:, 0]])  # x @ xu_m = cross(x, U)
        tx_m = np.stack([-T[:, 1], T[:, 0]])  # x @ tx_m = cross(T, x)
        # one matrix product gives every per-query term: [tangent sides | front | xu | tx]
        self.M = np.concatenate([self.tan_m, front_m, xu_m, tx_m], axis=1)
        self.c = np.concatenate([self.tan_c, front_c, np.zeros(self.e + self.n)])
        n, ne = self.n, self.e
        self.cuts = (2 * n, 2 * n + ne, 2 * n + 2 * ne)
        self.front_tol = R.TOL * r.lf
        self.neg_front_tol = -self.front_tol
        # per point: its row of ``X @ M + c`` and, once needed, the corners it sees with their
        # distances. A row does not depend on the other point of the product (one element is
        # one point's dot product), so a remembered row is the float the query would compute.
        self.points: dict[P2, list[Any]] = {}

    def point_rows(self, a: P2, b: P2
                   ) -> tuple[list[Any], list[Any], np.ndarray | None]:
        """The remembered records ``[row, seen, inside, front, behind]`` of both points (the
        last four None until first needed: ``seen`` by :meth:`seen`, ``inside`` by
        :meth:`Routes.distance`, ``front``/``behind`` -- the edges the point faces / is
        strictly behind -- by :meth:`query` as the start / the end of a pair), computing the
        rows as the query always has: one ``(2, 2)`` product for the pair. Bounded: emptied
        when :data:`R.pairs.POINT_LIMIT` points are kept. The product is returned too when both
        records are new."""
        memo = self.points
        ra, rb = memo.get(a), memo.get(b)
        if ra is not None and rb is not None:
            return ra, rb, None
        Y = np.array([a, b]) @ self.M + self.c
        if len(memo) >= R.pairs.POINT_LIMIT:
            memo.clear()
        both = ra is None and rb is None
        if ra is None:
            ra = [Y[0], None, None, None, None]
            memo[a] = ra
        if rb is None:
            rb = [Y[1], None, None, None, None]
            memo[b] = rb
        return ra, rb, Y if both else None

    def seen(self, recs: list[list[Any]], pts: list[P2], Y: np.ndarray | None = None
             ) -> None:
        """Fill ``seen`` of the records (points ``pts``): the tangent corners each point sees
        (ascending) and their straight distances, the rows of all of them tested at once with
        the arithmetic of the dense query, row by row (``Y``: their rows stacked, if at hand).
        """
        n, (k1, k2, k3) = self.n, self.cuts
        r = self.g.rings
        if Y is None:
            Y = np.stack([rec[0] for rec in recs]) if len(recs) > 1 else recs[0][0][None, :]
        kk, tt = np.nonzero(Y[:, :n] * Y[:, n:2 * n] >= -1e-12)
        dn = np.zeros(0)
        if len(kk):
            X = np.array(pts)
            o1 = self.C[tt]  # minus the rest in place: cross(T - x, U - x), the same floats
            o1 -= Y[kk, k3 + tt][:, None]
            o1 -= Y[kk, k2:k3]
            Xr, Tr = X[kk], self.g.pos[tt]
            dd = Tr - Xr
            dn = np.hypot(dd[:, 0], dd[:, 1])
            tl2 = (R.TOL * (dn + 10.0))[:, None]
            s1 = (o1 > tl2).view(np.int8) - (o1 < -tl2).view(np.int8)
            s2 = s1[:, r.succ]
            front = Y[:, k1:k2] > self.front_tol
            hit = (s1 * s2 == -1) & self.s4[tt] & front[kk]
            seen = ~hit.any(axis=1)
            if np.count_nonzero(s1) < s1.size:  # a vertex on a row's line
                on = s1 == 0
                on &= seen[:, None]
                if on.any():
                    seen &= ~self.touch_rows(Xr, Tr, on)
            kk, tt, dn = kk[seen], tt[seen], dn[seen]
        # [corners, distances as a column and as a row, their rows of D (when first needed)]
        if len(recs) == 1:
            recs[0][1] = [tt, dn[:, None], dn, None]
            return
        cut = int(np.searchsorted(kk, 1))
        recs[0][1] = [tt[:cut], dn[:cut, None], dn[:cut], None]
        recs[1][1] = [tt[cut:], dn[cut:, None], dn[cut:], None]

    def query(self, a: P2, b: P2,
              rows: tuple[list[Any], list[Any], np.ndarray | None] | None = None
              ) -> tuple[float, list[int]] | None:
        """The centre-to-centre shortest route: (length, corners used; empty when a sees b),
        or None when there is none. Both points must be on the board and outside walls.

        The per-point part (the point's row of the product, the corners it sees) is
        remembered per point; the answer is the dense computation's float and corners: the
        best pair is taken among the corners seen in the dense argmin's order (row-major over
        ascending corners, the first of equal totals). ``rows``: :meth:`point_rows` of the
        pair when the caller has it."""
        ra, rb, Y = self.point_rows(a, b) if rows is None else rows
        ya, yb = ra[0], rb[0]
        r = self.g.rings
        k1, k2, k3 = self.cuts
        # a to b directly: the edges facing a that b is beyond
        dab = math.dist(a, b)
        tl = R.TOL * (dab + 10.0)
        front = ra[3]
        if front is None:
            front = ra[3] = ya[k1:k2] > self.front_tol
        behind = rb[4]
        if behind is None:
            behind = rb[4] = yb[k1:k2] < self.neg_front_tol
        o1 = yb[k2:k3] - ya[k2:k3] - (b[0] * a[1] - b[1] * a[0])  # cross(b - a, U - a)
        s1 = (o1 > tl).view(np.int8) - (o1 < -tl).view(np.int8)
        hit = s1 * s1[r.succ] == -1
        hit &= front
        hit &= behind
        if not hit.any():
            if np.count_nonzero(s1) == len(s1) or not self.touch_enters(
                    np.array([a]), np.array([b]), (s1 == 0)[None, None, :]).any():
                return dab, []
        if self.n == 0:
            return None
        if ra[1] is None and rb[1] is None and ra is not rb:
            self.seen([ra, rb], [a, b], Y)
        elif ra[1] is None:
            self.seen([ra], [a])
        elif rb[1] is None:
            self.seen([rb], [b])
        sa, sb = ra[1], rb[1]
        ia, jb = sa[0], sb[0]
        if len(ia) == 0 or len(jb) == 0:
            return None
        Da = sa[3]
        if Da is None:
            Da = sa[3] = self.D[ia]
        tot = (sa[1] + Da[:, jb]) + sb[2]
        k = int(tot.argmin())
        ka, kb = divmod(k, len(jb))
        best = float(tot[ka, kb])
        if not math.isfinite(best):
            return None
        i, j = int(ia[ka]), int(jb[kb])
        chain = [i]
        nxt = self.nxt
        while chain[-1] != j:
            chain.append(int(nxt[chain[-1], j]))
        return best, chain

    def touch_rows(self, S: np.ndarray, T: np.ndarray, on: np.ndarray) -> np.ndarray:
        """(len(S),) :meth:`touch_enters` of segments ``S[k] -> T[k]`` (``on[k, v]``)."""
        r = self.g.rings
        out = np.zeros(len(S), dtype=bool)
        ki, vi = np.nonzero(on)
        d = T[ki] - S[ki]
        ld = np.hypot(d[:, 0], d[:, 1])
        along = ((r.v[vi] - S[ki]) * d).sum(axis=1) / np.where(ld > 0, ld, 1.0)
        inner = (along > R.END) & (along < ld - R.END)
        ki, vi, d = ki[inner], vi[inner], d[inner]
        enters = _wedge_enters(d, r.v[vi], r.prv[vi], r.nxt[vi])
        out[ki[enters]] = True
        return out

    def touch_enters(self, S: np.ndarray, T: np.ndarray, on: np.ndarray) -> np.ndarray:
        """(len(S), len(T)) for segments S[k] -> T[t] with a vertex on them (``on[k, t, v]``):
        whether they go into the obstacle at such a vertex (away from their ends)."""
        r = self.g.rings
        out = np.zeros(on.shape[:2], dtype=bool)
        ki, ti, vi = np.nonzero(on)
        d = T[ti] - S[ki]
        ld = np.hypot(d[:, 0], d[:, 1])
        along = ((r.v[vi] - S[ki]) * d).sum(axis=1) / np.where(ld > 0, ld, 1.0)
        inner = (along > R.END) & (along < ld - R.END)
        ki, ti, vi, d = ki[inner], ti[inner], vi[inner], d[inner]
        enters = _wedge_enters(d, r.v[vi], r.prv[vi], r.nxt[vi])
        out[ki[enters], ti[enters]] = True
        return out


def frozen_distance(self: R.Routes, pair: FrozenPairQuery, a: Any, b: Any, ra: float = 0.0,
                    rb: float = 0.0) -> R.Route:
    """The shortest route between two bases' edges around walls and closed doors."""
    pa = (float(a[0]), float(a[1]))
    pb = (float(b[0]), float(b[1]))
    if pa == pb:
        return R.Route(max(0.0, -ra - rb), (pa, pb))
    w, d = self.board.width + R.EPS, self.board.depth + R.EPS
    if not (-R.EPS <= pa[0] <= w and -R.EPS <= pa[1] <= d and -R.EPS <= pb[0] <= w
            and -R.EPS <= pb[1] <= d):
        return R.Route(None, ())
    if self.no_walls:
        return R.Route(max(0.0, math.dist(pa, pb) - ra - rb), (pa, pb))
    rows = pair.point_rows(pa, pb)
    rec_a, rec_b = rows[0], rows[1]
    if rec_a[2] is None or rec_b[2] is None:
        rec_a[2], rec_b[2] = shapely.contains_xy(self.walls_eroded, [pa[0], pb[0]],
                                                 [pa[1], pb[1]]).tolist()
    if rec_a[2] or rec_b[2]:
        return R.Route(None, ())
    found = pair.query(pa, pb, rows)
    if found is None:
        return R.Route(None, ())
    if not found[1]:
        return R.Route(max(0.0, found[0] - ra - rb), (pa, pb))
    real = self.graph.real
    pts = (pa, *((float(real[k, 0]), float(real[k, 1])) for k in found[1]), pb)
    length = 0.0
    for p, q in itertools.pairwise(pts):
        length += math.dist(p, q)
    return R.Route(max(0.0, length - ra - rb), pts)




def check_pairs(k: int, pairs: list[tuple[Any, Any, float, float]]) -> tuple[int, int]:
    """Ask each pair of the new Routes cold, again and reversed; compare route and float with
    the reference. Returns (pairs with a route, routes that bend) so tests see they were real."""
    new, ref, frozen = pair_for(k)
    found = bent = 0
    for a, b, ra, rb in pairs:
        want = frozen_distance(ref, frozen, a, b, ra, rb)
        want_back = frozen_distance(ref, frozen, b, a, rb, ra)
        for _ in range(2):
            got = new.distance(a, b, ra, rb)
            assert (got.distance, got.points) == (want.distance, want.points), (k, a, b, ra, rb)
            back = new.distance(b, a, rb, ra)
            assert (back.distance, back.points) == (want_back.distance, want_back.points)
        found += want.distance is not None
        bent += len(want.points) > 2
    return found, bent


# -- the tests ------------------------------------------------------------------------------------
@pytest.mark.parametrize("k", CHECKED_K, ids=CHECKED_IDS)
def test_distance_equals_the_frozen_distance(k: int) -> None:
    board = BOARD_LIST[k]
    routes = pair_for(k)[0]
    rng = np.random.default_rng(13 + k)
    rand = np.stack([rng.uniform(0, board.width, 200), rng.uniform(0, board.depth, 200)], axis=1)
    grid = np.stack([rng.integers(0, int(board.width) + 1, 60),
                     rng.integers(0, int(board.depth) + 1, 60)], axis=1).astype(float)
    special = special_points(routes)
    pick = special[rng.integers(0, len(special), 240)]
    pts = np.concatenate([rand, grid, pick])
    rng.shuffle(pts)
    radii = [0.0, R.EPS, 0.5, 32 / 25.4 / 2]
    pairs = [(tuple(pts[i]), tuple(pts[-1 - i]), radii[i % 4], radii[(i * 3) % 4])
             for i in range(len(pts) // 2)]
    # one point against many others (its remembered record reused with fresh partners)
    pairs += [(tuple(pts[0]), tuple(q), 0.0, 0.0) for q in pts[1:80]]
    found, bent = check_pairs(k, pairs)
    if routes.no_walls:
        assert found == len(pairs) and bent == 0
    else:
        assert found > len(pairs) // 4 and bent > 10


@pytest.mark.parametrize("k", CHECKED_K, ids=CHECKED_IDS)
def test_every_corner_against_every_corner(k: int) -> None:
    """Exactly at wall corners and at the graph's nudged corners (the touch tests' cases)."""
    routes = pair_for(k)[0]
    g = routes.graph
    pts = np.concatenate([g.real, g.pos, g.rings.v])
    if len(pts) == 0:
        pytest.skip("no walls")
    rng = np.random.default_rng(7)
    idx = rng.permutation(len(pts))[:40]
    pairs = [(tuple(pts[i]), tuple(pts[j]), 0.0, 0.0) for i in idx for j in idx[:12] if i != j]
    found, _ = check_pairs(k, pairs)
    assert found > 0


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_hypothesis_points_equal_the_frozen_distance(data: Any) -> None:
    k = data.draw(st.integers(0, len(BOARD_LIST) - 1), label="board")
    board = BOARD_LIST[k]
    special = special_points(pair_for(k)[0])

    def point() -> tuple[float, float]:
        if data.draw(st.booleans()):
            p = special[data.draw(st.integers(0, len(special) - 1))]
            return float(p[0]), float(p[1])
        return (data.draw(st.floats(0, board.width)), data.draw(st.floats(0, board.depth)))

    pairs = [(point(), point(), data.draw(st.sampled_from([0.0, 0.5, 1.25])),
              data.draw(st.sampled_from([0.0, 0.5, 1.25]))) for _ in range(6)]
    check_pairs(k, pairs)


def test_the_reference_is_not_the_code_under_test() -> None:
    """The frozen copy answers from its own records, not the Routes' own ``pair_query``. (A fresh
    pair of Routes: the shared ones of :func:`pair_for` have seen the hypothesis tests' points,
    and a full record table empties itself, so what it holds would depend on them.)"""
    board = BOARD_LIST[3]
    new, ref = R.Routes(board), R.Routes(board)
    frozen = FrozenPairQuery(ref.graph, ref.corner_distances, ref.corner_next)
    assert frozen is not ref.pair_query and type(frozen) is not type(new.pair_query)
    a, b = (1.0, 1.0), (float(BOARD_LIST[3].width) - 1.0, float(BOARD_LIST[3].depth) - 1.0)
    frozen_distance(ref, frozen, a, b)
    assert (a in frozen.points) and (a not in ref.pair_query.points)
