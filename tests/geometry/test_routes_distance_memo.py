"""``Routes.distance`` with remembered points answers exactly what it answered before (issue 13).

The single-pair query now keeps, per point, its row of the pair product, whether it is inside a
wall and the corners it sees, and takes the best corner pair among the corners seen only. The
reference below is the query and ``distance`` of 27b8595, copied as they were (every tangent
row of both points at once, the argmin over the full corner matrix, shapely asked every time).
Both run on separate :class:`Routes` objects, so nothing one remembers can make the other agree,
and every pair is asked cold, again (both points remembered) and reversed, each time compared
for the same float and the same route points -- on every shipped board and on random wall
boards, at random points, grid points, on corners, on wall faces, inside walls and with radii.
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
from solo_ops.geometry.board import Board
from tests.support.budget import FULL, examples
from tests.support.route_boards import random_board, shipped_boards
from tests.support.shipped_terrains import is_sampled

BOARD_LIST = [*shipped_boards(), *(random_board(s) for s in (0, 4, 9))]
IDS = [b.name for b in BOARD_LIST]
CHECKED_LIST = BOARD_LIST if FULL else [b for b in BOARD_LIST
                                        if is_sampled(b) or b.name == "random-0"]
"""The boards the per-board tests check (``slow``): all with the full budget, else those of
:func:`~tests.support.shipped_terrains.is_sampled` (every trait of the shipped boards) and the
first random board."""
CHECKED_IDS = [b.name for b in CHECKED_LIST]
_ROUTES: dict[tuple[str, int], R.Routes] = {}


def routes_for(board: Board, which: int) -> R.Routes:
    """One of two separate Routes objects per board (kept across examples: compiling is slow)."""
    key = (board.name, which)
    if key not in _ROUTES:
        _ROUTES[key] = R.Routes(board)
    return _ROUTES[key]


# -- the reference: 27b8595's query and distance -----------------------------------------------
def old_query(pq: R.pairs.PairQuery, a: tuple[float, float], b: tuple[float, float]
              ) -> tuple[float, list[int]] | None:
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
    kk, tt = np.nonzero(side[:, :n] * side[:, n:] >= -1e-12)
    if len(kk) == 0:
        return None
    tx = Y[:, k3:]
    o1 = pq.C[tt] - tx[kk, tt][:, None] - xu[kk]
    Xr, Tr = X[kk], g.pos[tt]
    dn = np.hypot(Tr[:, 0] - Xr[:, 0], Tr[:, 1] - Xr[:, 1])
    tl2 = (R.TOL * (dn + 10.0))[:, None]
    s1 = (o1 > tl2).view(np.int8) - (o1 < -tl2).view(np.int8)
    s2 = s1[:, r.succ]
    front = front_v > pq.front_tol
    hit = (s1 * s2 == -1) & pq.s4[tt] & front[kk]
    seen = ~hit.any(axis=1)
    on = s1 == 0
    if on.any():
        on &= seen[:, None]
        if on.any():
            seen &= ~pq.touch_rows(Xr, Tr, on)
    wab = np.full((2, n), np.inf)
    wab[kk[seen], tt[seen]] = dn[seen]
    wa, wb = wab[0], wab[1]
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


def old_distance(routes: R.Routes, a: Any, b: Any, ra: float = 0.0, rb: float = 0.0
                 ) -> R.Route:
    pa = (float(a[0]), float(a[1]))
    pb = (float(b[0]), float(b[1]))
    if pa == pb:
        return R.Route(max(0.0, -ra - rb), (pa, pb))
    w, d = routes.board.width + R.EPS, routes.board.depth + R.EPS
    if not (-R.EPS <= pa[0] <= w and -R.EPS <= pa[1] <= d and -R.EPS <= pb[0] <= w
            and -R.EPS <= pb[1] <= d):
        return R.Route(None, ())
    if routes.no_walls:
        return R.Route(max(0.0, math.dist(pa, pb) - ra - rb), (pa, pb))
    if shapely.contains_xy(routes.walls_eroded, [pa[0], pb[0]], [pa[1], pb[1]]).any():
        return R.Route(None, ())
    found = old_query(routes.pair_query, pa, pb)
    if found is None:
        return R.Route(None, ())
    if not found[1]:
        return R.Route(max(0.0, found[0] - ra - rb), (pa, pb))
    real = routes.graph.real
    pts = (pa, *((float(real[k, 0]), float(real[k, 1])) for k in found[1]), pb)
    length = 0.0
    for p, q in itertools.pairwise(pts):
        length += math.dist(p, q)
    return R.Route(max(0.0, length - ra - rb), pts)


# -- points worth asking about -----------------------------------------------------------------
def special_points(routes: R.Routes) -> np.ndarray:
    """Wall corners, nudged graph corners, points on wall faces (edge midpoints and thirds),
    points just inside and just outside faces, and points well inside walls."""
    g = routes.graph
    r = g.rings
    out = [g.real, g.pos, r.v]
    if len(r):
        for t in (0.5, 1 / 3):
            out.append(r.v + t * r.f)
        normal = np.stack([-r.f[:, 1], r.f[:, 0]], axis=1) / np.maximum(r.lf, 1e-300)[:, None]
        mid = r.v + 0.5 * r.f
        for eps in (1e-12, 1e-9, 1e-6, 1e-3):
            out += [mid + eps * normal, mid - eps * normal]  # inside (left) and outside
    for poly in R.shapes.polygons_of(routes.walls):
        p = poly.representative_point()
        out.append(np.array([[p.x, p.y]]))
    pts = np.concatenate(out) if out else np.zeros((0, 2))
    b = routes.board
    keep = (pts[:, 0] >= -1e-6) & (pts[:, 0] <= b.width + 1e-6) & (pts[:, 1] >= -1e-6) & \
        (pts[:, 1] <= b.depth + 1e-6)
    return pts[keep]


def check_pairs(board: Board, pairs: list[tuple[Any, Any, float, float]]) -> int:
    """Ask each pair of the new Routes cold, again and reversed; compare with the reference on
    a separate Routes. Returns how many answers were a route (so tests see they were real)."""
    new, ref = routes_for(board, 0), routes_for(board, 1)
    found = 0
    for a, b, ra, rb in pairs:
        want = old_distance(ref, a, b, ra, rb)
        want_back = old_distance(ref, b, a, rb, ra)
        for _ in range(2):
            got = new.distance(a, b, ra, rb)
            assert (got.distance, got.points) == (want.distance, want.points), (a, b, ra, rb)
            back = new.distance(b, a, rb, ra)
            assert (back.distance, back.points) == (want_back.distance, want_back.points)
        found += want.distance is not None
    return found


# -- the tests ------------------------------------------------------------------------------------
@pytest.mark.parametrize("board", CHECKED_LIST, ids=CHECKED_IDS)
def test_distance_equals_the_old_distance(board: Board) -> None:
    routes = routes_for(board, 0)
    rng = np.random.default_rng(12)
    b = board
    rand = np.stack([rng.uniform(0, b.width, 160), rng.uniform(0, b.depth, 160)], axis=1)
    grid = np.stack([rng.integers(0, int(b.width * 2) + 1, 80) / 2,
                     rng.integers(0, int(b.depth * 2) + 1, 80) / 2], axis=1).astype(float)
    special = special_points(routes)
    pick = special[rng.integers(0, len(special), 160)] if len(special) else rand
    pts = np.concatenate([rand, grid, pick])
    rng.shuffle(pts)
    radii = [0.0, R.EPS, 0.5, 32 / 25.4 / 2, 3.0]
    pairs = [(tuple(pts[k]), tuple(pts[-1 - k]), radii[k % 5], radii[(k * 3) % 5])
             for k in range(len(pts) // 2)]
    # a point against many others (the remembered point reused with fresh partners)
    pairs += [(tuple(pts[0]), tuple(q), 0.0, 0.0) for q in pts[1:60]]
    found = check_pairs(board, pairs)
    assert found > len(pairs) // 4


@pytest.mark.parametrize("board", CHECKED_LIST, ids=CHECKED_IDS)
def test_inside_walls_and_off_the_board_are_still_none(board: Board) -> None:
    routes = routes_for(board, 0)
    inside = [(p.x, p.y) for p in (poly.representative_point()
                                   for poly in R.shapes.polygons_of(routes.walls))]
    if not inside:
        pytest.skip("no measuring walls")
    free = (0.5, 0.5)
    pairs = [(p, free, 0.0, 0.0) for p in inside] + [(free, p, 0.3, 0.2) for p in inside]
    pairs += [((-1.0, 3.0), free, 0.0, 0.0), ((float("nan"), 1.0), free, 0.0, 0.0)]
    check_pairs(board, pairs)
    for p in inside:
        assert routes.distance(p, free).distance is None
        assert routes.distance(free, p).distance is None  # remembered as inside both ways


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_hypothesis_points_equal_the_old_distance(data: Any) -> None:
    board = data.draw(st.sampled_from(BOARD_LIST), label="board")
    routes = routes_for(board, 0)
    special = special_points(routes)

    def point() -> tuple[float, float]:
        if len(special) and data.draw(st.booleans()):
            p = special[data.draw(st.integers(0, len(special) - 1))]
            return float(p[0]), float(p[1])
        return (data.draw(st.floats(0, board.width)), data.draw(st.floats(0, board.depth)))

    pairs = [(point(), point(), data.draw(st.sampled_from([0.0, 0.5, 1.25])),
              data.draw(st.sampled_from([0.0, 0.5, 1.25]))) for _ in range(6)]
    check_pairs(board, pairs)


def test_remembered_points_are_bounded(monkeypatch: Any) -> None:
    monkeypatch.setattr(R.pairs, "POINT_LIMIT", 8)
    board = BOARD_LIST[2]
    routes, ref = R.Routes(board), R.Routes(board)
    rng = np.random.default_rng(5)
    pts = [(float(x), float(y)) for x, y in
           zip(rng.uniform(0, board.width, 40), rng.uniform(0, board.depth, 40), strict=True)]
    for a, b in zip(pts, reversed(pts), strict=True):
        got, want = routes.distance(a, b), old_distance(ref, a, b)
        assert (got.distance, got.points) == (want.distance, want.points)
        assert len(routes.pair_query.points) <= 8


def test_point_rows_do_not_depend_on_the_partner() -> None:
    """The remembered row is the float the pair product gives whatever the other point."""
    routes = routes_for(BOARD_LIST[2], 0)
    pq = routes.pair_query
    rng = np.random.default_rng(8)
    for _ in range(200):
        a, p, q = (tuple(map(float, v)) for v in rng.uniform(0, 22, (3, 2)))
        y1 = np.array([a, p]) @ pq.M + pq.c
        y2 = np.array([q, a]) @ pq.M + pq.c
        assert np.array_equal(y1[0], y2[1])


def test_points_that_see_no_corner_at_all() -> None:
    """Found by the fight-readiness test: a wall across the whole board (its corners are off
    the board) and one walled-off corner room; points either side of the long wall have no
    tangent corner at all (no route, before and after)."""
    from solo_ops.geometry.board import parse_board

    board = parse_board({"name": "sealed halves", "width": 30, "depth": 22, "features": [
        {"id": "w", "traits": ["wall"], "line": [[15, 0], [15, 22]]},
        {"id": "e", "traits": ["wall"], "line": [[25, 0], [25, 5]]},
        {"id": "f", "traits": ["wall"], "line": [[25, 5], [30, 5]]}]}, "<test>")
    pairs = [((14.4, 17.0), (15.6, 17.0), 0.492, 0.492), ((14.4, 11.0), (15.6, 11.0), 0.0, 0.0),
             ((20.0, 17.0), (14.4, 17.0), 0.0, 0.0), ((20.0, 17.0), (28.0, 2.0), 0.0, 0.0),
             ((20.0, 17.0), (27.0, 12.0), 0.0, 0.0)]
    assert check_pairs(board, pairs) == 1  # only the last pair has a route (straight)
    new = routes_for(board, 0)
    assert len(new.graph.pos) == 1


def old_distance_matrix(routes: R.Routes, A: Any, ra: Any, B: Any, rb: Any) -> np.ndarray:
    """27b8595's ``distance_matrix``: shapely asked for every point, pairs by meshgrid."""
    A, B = R.common.as_points(A), R.common.as_points(B)
    ra = np.broadcast_to(np.asarray(ra, float), (len(A),))
    rb = np.broadcast_to(np.asarray(rb, float), (len(B),))
    out = np.full((len(A), len(B)), np.inf)
    if len(A) == 0 or len(B) == 0:
        return out

    def free(X: np.ndarray) -> np.ndarray:
        ok = routes.graph.in_box(X)
        if not routes.walls_eroded.is_empty and len(X):
            ok &= ~shapely.contains_xy(routes.walls_eroded, X[:, 0], X[:, 1])
        return ok

    fa, fb = free(A), free(B)
    grid_a, grid_b = np.meshgrid(np.arange(len(A)), np.arange(len(B)), indexing="ij")
    ai, bj = grid_a.ravel(), grid_b.ravel()
    live = fa[ai] & fb[bj]
    direct = np.full(len(ai), np.inf)
    direct[live] = routes.straight(A[ai[live]], B[bj[live]])
    cen = direct.reshape(len(A), len(B))
    need = ~np.isfinite(cen) & fa[:, None] & fb[None, :]
    if need.any() and len(routes.graph.pos):
        rows = np.flatnonzero(need.any(axis=1))
        cols = np.flatnonzero(need.any(axis=0))
        best, _ = routes.via_corners(A[rows])
        Db = routes.to_corners(B[cols])
        via = (best[:, None, :] + Db[None, :, :]).min(axis=2)
        sub = cen[np.ix_(rows, cols)]
        cen[np.ix_(rows, cols)] = np.where(need[np.ix_(rows, cols)], via, sub)
    same = np.all(A[:, None, :] == B[None, :, :], axis=2)
    cen = np.where(same, 0.0, cen)
    return np.maximum(0.0, cen - ra[:, None] - rb[None, :])


@pytest.mark.parametrize("board", CHECKED_LIST, ids=CHECKED_IDS)
def test_distance_matrix_equals_the_old_matrix(board: Board) -> None:
    """Remembered free-point answers and the live pairs by ``nonzero``: the same matrices,
    asked in changing groups (points remembered from earlier calls mixed with new ones, points
    inside walls, off the board, repeated points, one row as ``distances`` asks)."""
    new, ref = R.Routes(board), R.Routes(board)
    rng = np.random.default_rng(21)
    special = special_points(new)
    rand = np.stack([rng.uniform(-0.5, board.width + 0.5, 60),
                     rng.uniform(-0.5, board.depth + 0.5, 60)], axis=1)
    pool = np.concatenate([rand, special[rng.integers(0, len(special), 30)]]) \
        if len(special) else rand
    for k in range(25):
        A = pool[rng.integers(0, len(pool), 1 + k % 4)]
        B = pool[rng.integers(0, len(pool), 1 + (k * 7) % 12)]
        ra, rb = (0.0, 0.5) if k % 2 else (np.full(len(A), 0.25), 1.0)
        got = new.distance_matrix(A, ra, B, rb)
        want = old_distance_matrix(ref, A, ra, B, rb)
        assert np.array_equal(got, want), k
        assert np.array_equal(new.distances(A[0], 0.3, B, 0.0),
                              old_distance_matrix(ref, A[:1], 0.3, B, 0.0)[0])
    assert np.isfinite(new.distance_matrix(pool, 0.0, pool, 0.0)).any()
