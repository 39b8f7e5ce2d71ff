"""The public object: :class:`Routes`, distances around walls and walking paths on one board.

It builds the measuring graph (:mod:`~solo_ops.geometry.routes.graph`, all pairs by
:func:`~solo_ops.geometry.routes.paths.floyd`, single queries by
:class:`~solo_ops.geometry.routes.pairs.PairQuery`), keeps a walker per base radius
(:mod:`~solo_ops.geometry.routes.walker`) and the bounded memos of its answers.
:meth:`Routes.reachable` looks its corner step,
:func:`~solo_ops.geometry.routes.graph.best_links`, up through this module's name at every call
(a test replaces it here). :data:`REACH_LIMIT` is read from this module, the memo bound from
:mod:`~solo_ops.geometry.routes.common`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Polygon, box

from solo_ops.geometry import jit, shapes
from solo_ops.geometry.board import Board
from solo_ops.geometry.routes import common
from solo_ops.geometry.routes.common import (
    EPS,
    Point2,
    _radii,
    _triples,
    as_points,
    jd,
    unit_vectors,
)
from solo_ops.geometry.routes.costs import _Soft
from solo_ops.geometry.routes.discs import (
    Discs,
    _inradii,
    buffered_discs,
    disc_coords,
    fast_discs,
    in_discs,
)
from solo_ops.geometry.routes.graph import (
    Graph,
    _build_graph,
    best_links,
    side_table,
    start_costs,
)
from solo_ops.geometry.routes.pairs import PairQuery
from solo_ops.geometry.routes.paths import dijkstra, floyd
from solo_ops.geometry.routes.results import Reach, Route, Walk
from solo_ops.geometry.routes.rings import blocked
from solo_ops.geometry.routes.walker import Walker, _path_hits, on_the_way, shortest_route

REACH_LIMIT = 64  # reachable answers remembered per walker (each holds its graph)
_DIRECT_RECOMPUTE = 128  # wall edges up to which straight distances skip their memo


# -- the public object -----------------------------------------------------------------------------
class Routes:
    """Distances around walls and walking paths on one board (one state of its doors).

    Building one compiles the measuring graph; walking graphs are compiled per base radius on
    first use. Points are model centres ``(x, y)`` in inches; radii are base radii.

    Beside the questions a game asks (distances, walks, reachable and free points), a Routes
    shows the parts it answers them with, each a unit of its own that the geometry's tests
    check against a plain reference and the benchmarks time: :attr:`walls` (the merged
    measuring blockers) and :attr:`walls_eroded` (the same shrunk by ``EPS``: a point inside
    them is inside a wall), :attr:`no_walls`, :attr:`graph` (the measuring graph),
    :attr:`corner_distances` and :attr:`corner_next` (its all-pairs shortest distances and
    successors), :attr:`pair_query` (single distances on it), :meth:`walker` (the walking graph
    of one base radius), :meth:`discs` (other models' bases grown for a walk), and the
    measuring steps :meth:`measurable`, :meth:`to_corners`, :meth:`via_corners` and
    :meth:`straight`; :meth:`remembered` says how full the memos are.
    """

    def __init__(self, board: Board) -> None:
        self.board = board
        self.frame = box(0.0, 0.0, board.width, board.depth)
        blockers = shapes.measuring_blockers(board)
        self.walls = blockers
        self.walls_eroded = blockers.buffer(-EPS) if not blockers.is_empty else blockers
        if not blockers.is_empty:
            shapely.prepare(blockers)
            shapely.prepare(self.walls_eroded)
        self.graph = _build_graph(shapes.polygons_of(blockers), self._inside_measure,
                                  (0.0, 0.0, board.width, board.depth), _Soft([], [], []))
        g = self.graph
        g.s4 = side_table(g.pos, g.rings)
        self.corner_distances, self.corner_next = floyd(len(g.pos), g.pi, g.pj, g.pw)
        self.pair_query = PairQuery(g, self.corner_distances, self.corner_next)
        self.no_walls = blockers.is_empty
        self._soft = _Soft.of(board)
        self._softs: dict[float, _Soft] = {}
        # the surcharge events of the walks advanced lately: one walk is advanced by many
        # movements in a row (placement.along, first_in_the_way), its events found once
        self._walk_events: dict[tuple[tuple[Point2, ...], float],
                                list[tuple[float, float]]] = {}
        self._walkers: dict[float, Walker] = {}
        self._disc_sets: dict[tuple[tuple[float, float, float], ...], Discs] = {}
        self._disc_memo: dict[tuple[float, float, float],
                              tuple[Polygon | None, np.ndarray, np.ndarray, float]] = {}
        self._node_memo: dict[tuple[bool, float, float], np.ndarray] = {}
        self._direct_memo: dict[tuple[float, float, float, float], float] = {}
        self._free_memo: dict[tuple[bytes | None, float, float], np.ndarray] = {}
        self._via_memo: dict[tuple[bool, float, float], tuple[np.ndarray, np.ndarray]] = {}
        self._fm_memo: dict[tuple[float, float], bool] = {}

    # -- measuring ---------------------------------------------------------------------------------
    def _inside_measure(self, X: np.ndarray) -> np.ndarray:
        if self.walls.is_empty or len(X) == 0:
            return np.zeros(len(X), dtype=bool)
        return shapely.contains_xy(self.walls, X[:, 0], X[:, 1])

    def measurable(self, X: np.ndarray) -> np.ndarray:
        """(len(X),) whether each point is on the board and not inside a wall: a point a
        distance can be measured from (each point's answer remembered: the box test and
        shapely's answer for one point do not depend on the others)."""
        memo = self._fm_memo
        keys = X.tolist()
        got = [memo.get((x, y)) for x, y in keys]
        if None not in got:
            return np.array(got, dtype=bool)
        miss = [k for k, v in enumerate(got) if v is None]
        Xm = X[miss]
        ok = self.graph.in_box(Xm)
        if not self.walls_eroded.is_empty and len(Xm):
            ok &= ~shapely.contains_xy(self.walls_eroded, Xm[:, 0], Xm[:, 1])
        if len(memo) + len(miss) > common.MEMO_LIMIT:
            memo.clear()
        for k, v in zip(miss, ok.tolist(), strict=True):
            got[k] = v
            memo[keys[k][0], keys[k][1]] = v
        return np.array(got, dtype=bool)

    def to_corners(self, X: np.ndarray, batch: bool | None = None) -> np.ndarray:
        """(len(X), N) straight distance from each point to each corner it sees (inf if not).

        Each point's row is remembered (models are measured from again and again), apart for
        a point asked alone and in a batch (``batch``, by default: more than one point), which
        :meth:`Graph.links` tests in two ways that can differ in the last bit at a grazing
        corner."""
        g = self.graph
        n = len(g.pos)
        out = np.full((len(X), n), np.inf)
        if len(X) == 0 or n == 0:
            return out
        batch = len(X) > 1 if batch is None else batch
        memo = self._node_memo
        keys = [(batch, x, y) for x, y in X.tolist()]
        miss = [k for k, key in enumerate(keys) if key not in memo]
        if miss:
            if len(memo) + len(miss) > common.MEMO_LIMIT:
                memo.clear()
                miss = list(range(len(keys)))
            rows = np.full((len(miss), n), np.inf)
            xi, nj, w = g.links(X[miss], batch=batch)
            rows[xi, nj] = w
            for k, row in zip(miss, rows, strict=True):
                memo[keys[k]] = row
        for k, key in enumerate(keys):
            out[k] = memo[key]
        return out

    def via_corners(self, A: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(len(A), N): the shortest distance from each point to each corner through the graph,
        and the first corner used (remembered per point as in :meth:`to_corners`)."""
        n = len(self.graph.pos)
        best = np.full((len(A), n), np.inf)
        first = np.full((len(A), n), -1, dtype=int)
        if len(A) == 0 or n == 0:
            return best, first
        batch = len(A) > 1
        memo = self._via_memo
        keys = [(batch, x, y) for x, y in A.tolist()]
        miss = [k for k, key in enumerate(keys) if key not in memo]
        if miss:
            if len(memo) + len(miss) > common.MEMO_LIMIT:
                memo.clear()
                miss = list(range(len(keys)))
            Da = self.to_corners(A[miss], batch)
            cols = np.arange(n)
            for k, row in zip(miss, Da, strict=True):
                b_row = np.full(n, np.inf)
                f_row = np.full(n, -1, dtype=int)
                idx = np.flatnonzero(np.isfinite(row))
                if len(idx):
                    tot = row[idx, None] + self.corner_distances[idx]
                    arg = tot.argmin(axis=0)
                    b_row = tot[arg, cols]
                    f_row = idx[arg]
                memo[keys[k]] = (b_row, f_row)
        for k, key in enumerate(keys):
            best[k], first[k] = memo[key]
        return best, first

    def straight(self, A: np.ndarray, B: np.ndarray) -> np.ndarray:
        """(len(A),) straight distances where A[k]->B[k] crosses no wall, else inf (each
        pair's answer remembered: :func:`blocked` answers each segment alone). With few wall
        edges the pairs are recomputed instead: a segment is tested against
        :data:`_DIRECT_RECOMPUTE` edges in less time than the memo's keys take to build, by the
        compiled loops and by the numpy code alike (the same floats either way; numpy: 0.30-0.34
        s of CPU against 0.51-0.55 s with the memo over nine missions on the co-op stronghold
        and two Crypt boards)."""
        if len(self.graph.rings) <= _DIRECT_RECOMPUTE:
            d = np.hypot(*(B - A).T)
            return np.where(blocked(A, B, self.graph.rings), np.inf, d)
        memo = self._direct_memo
        keys = list(zip(A[:, 0].tolist(), A[:, 1].tolist(), B[:, 0].tolist(), B[:, 1].tolist(),
                        strict=True))
        miss = [k for k, key in enumerate(keys) if key not in memo]
        if miss:
            if len(memo) + len(miss) > 4 * common.MEMO_LIMIT:
                memo.clear()
                miss = list(range(len(keys)))
            P, Q = A[miss], B[miss]
            d = np.hypot(*(Q - P).T)
            clear = ~blocked(P, Q, self.graph.rings)
            for k, v in zip(miss, np.where(clear, d, np.inf).tolist(), strict=True):
                memo[keys[k]] = v
        return np.array([memo[key] for key in keys], dtype=float)

    def distance(self, a: Any, b: Any, ra: float = 0.0, rb: float = 0.0) -> Route:
        """The shortest route between two bases' edges around walls and closed doors."""
        pa = (float(a[0]), float(a[1]))
        pb = (float(b[0]), float(b[1]))
        if pa == pb:
            return Route(max(0.0, -ra - rb), (pa, pb))
        w, d = self.board.width + EPS, self.board.depth + EPS
        if not (-EPS <= pa[0] <= w and -EPS <= pa[1] <= d and -EPS <= pb[0] <= w
                and -EPS <= pb[1] <= d):
            return Route(None, ())
        if self.no_walls:
            return Route(max(0.0, math.dist(pa, pb) - ra - rb), (pa, pb))
        pair = self.pair_query
        rows = pair.point_rows(pa, pb)
        rec_a, rec_b = rows[0], rows[1]
        if rec_a[2] is None or rec_b[2] is None:
            if jit.ENABLED:  # by arithmetic far from the walls' edges, else by shapely
                r = pair.g.rings
                ia, ib = jd.inside(pa[0], pa[1], pb[0], pb[1], r.v, r.nxt, 1e3 * EPS)
            if not jit.ENABLED or ia == jd.NEAR_EDGE or ib == jd.NEAR_EDGE:
                ia, ib = shapely.contains_xy(self.walls_eroded, [pa[0], pb[0]],
                                             [pa[1], pb[1]]).tolist()
            rec_a[2], rec_b[2] = bool(ia), bool(ib)
        if rec_a[2] or rec_b[2]:
            return Route(None, ())
        found = pair.query(pa, pb, rows)
        if found is None:
            return Route(None, ())
        if not found[1]:
            return Route(max(0.0, found[0] - ra - rb), (pa, pb))
        real = pair.real_xy  # the same floats as ``float(self.graph.real[k, 0])``
        pts = (pa, *((real[k][0], real[k][1]) for k in found[1]), pb)
        length = 0.0
        for p, q in itertools.pairwise(pts):
            length += math.dist(p, q)
        return Route(max(0.0, length - ra - rb), pts)

    def distance_matrix(self, A: Any, ra: Any, B: Any, rb: Any) -> np.ndarray:
        """(len(A), len(B)) distances between bases' edges around walls (inf: no route)."""
        A, B = as_points(A), as_points(B)
        ra, rb = _radii(ra, len(A)), _radii(rb, len(B))
        out = np.full((len(A), len(B)), np.inf)
        if len(A) == 0 or len(B) == 0:
            return out
        fa, fb = self.measurable(A), self.measurable(B)
        both = fa[:, None] & fb[None, :]
        ai, bj = np.nonzero(both)  # the live pairs in row-major order, as they always were
        cen = np.full((len(A), len(B)), np.inf)
        cen[ai, bj] = self.straight(A[ai], B[bj])
        need = ~np.isfinite(cen) & both
        if need.any() and len(self.graph.pos):
            rows = np.flatnonzero(need.any(axis=1))
            cols = np.flatnonzero(need.any(axis=0))
            best, _ = self.via_corners(A[rows])
            Db = self.to_corners(B[cols])
            via = (best[:, None, :] + Db[None, :, :]).min(axis=2)
            box = np.ix_(rows, cols)
            cen[box] = np.where(need[box], via, cen[box])
        same = np.all(A[:, None, :] == B[None, :, :], axis=2)
        cen = np.where(same, 0.0, cen)
        return np.maximum(0.0, cen - ra[:, None] - rb[None, :])

    def distances(self, a: Any, ra: float, B: Any, rb: Any) -> np.ndarray:
        """(len(B),) distances from one base to many (inf where there is no route)."""
        return self.distance_matrix(np.array([[float(a[0]), float(a[1])]]), ra, B, rb)[0]

    def remembered(self) -> dict[str, int]:
        """How many entries each of this board's memos holds, by name: what a long game keeps
        in memory (each memo is emptied when full: :data:`~.common.MEMO_LIMIT` entries)."""
        return {"measurable points": len(self._fm_memo), "corner rows": len(self._node_memo),
                "via rows": len(self._via_memo), "straight pairs": len(self._direct_memo),
                "grown bases": len(self._disc_memo), "sets of bases": len(self._disc_sets),
                "free points": len(self._free_memo), "walkers": len(self._walkers),
                "walk events": len(self._walk_events)}

    # -- walking -----------------------------------------------------------------------------------
    def walker(self, radius: float) -> Walker:
        """The walking graph of a base of ``radius`` (obstacles grown by it), built on first
        use and kept for the board's life."""
        key = round(float(radius), 9)
        w = self._walkers.get(key)
        if w is None:
            w = Walker(self.board, float(radius), self._soft_for(radius))
            self._walkers[key] = w
        return w

    def fits_many(self, points: Any, radius: float, *, blockers: Any = ()) -> np.ndarray:
        """(n,) whether a base of ``radius`` fits at each point: on the board, clear of terrain
        it cannot stand in and of the other bases ``blockers`` ``[(x, y, r), ...]``."""
        X = as_points(points)
        if len(X) == 0:
            return np.zeros(0, dtype=bool)
        tol = 1e-6
        w, d = self.board.width, self.board.depth
        ok = ((X[:, 0] >= radius - tol) & (X[:, 0] <= w - radius + tol)
              & (X[:, 1] >= radius - tol) & (X[:, 1] <= d - radius + tol))
        walker = self.walker(radius)
        ok &= ~walker.blocked_at(X)
        blockers = list(blockers)
        if blockers:
            ok &= self.discs(blockers, radius).clear_of(X, EPS)
        return ok

    def _fits_with(self, X: np.ndarray, radius: float, walker: Walker, discs: Discs
                   ) -> np.ndarray:
        """:meth:`fits_many` of points X with the walker and the grown bases already at hand
        (``self.discs(blockers, radius)``: the same discs, so the same answer)."""
        tol = 1e-6
        w, d = self.board.width, self.board.depth
        ok = ((X[:, 0] >= radius - tol) & (X[:, 0] <= w - radius + tol)
              & (X[:, 1] >= radius - tol) & (X[:, 1] <= d - radius + tol))
        ok &= ~walker.blocked_at(X)
        if len(discs):
            ok &= discs.clear_of(X, EPS)
        return ok

    def fits(self, point: Any, radius: float, *, blockers: Any = ()) -> bool:
        """Whether a base of ``radius`` fits at ``point`` (see :meth:`fits_many`)."""
        return bool(self.fits_many([point], radius, blockers=blockers)[0])

    def free_points(self, region: Polygon | None, radius: float, spacing: float = 1.0
                    ) -> np.ndarray:
        """(n, 2) grid points (cell centres of a ``spacing`` grid) inside ``region`` (the whole
        board when None) where a base of ``radius`` fits (remembered per region, radius and
        spacing: a fresh copy each time)."""
        key = (None if region is None else region.wkb, float(radius), float(spacing))
        got = self._free_memo.get(key)
        if got is None:
            if len(self._free_memo) >= common.MEMO_LIMIT // 64:
                self._free_memo.clear()
            got = self._free_memo[key] = self._free_points(region, radius, spacing)
        return got.copy()

    def _free_points(self, region: Polygon | None, radius: float, spacing: float
                     ) -> np.ndarray:
        area = self.frame if region is None else region
        if area.is_empty:
            return np.zeros((0, 2))
        minx, miny, maxx, maxy = area.bounds
        xs = np.arange(math.floor(minx / spacing) * spacing + spacing / 2, maxx, spacing)
        ys = np.arange(math.floor(miny / spacing) * spacing + spacing / 2, maxy, spacing)
        gx, gy = np.meshgrid(xs, ys, indexing="ij")
        gx, gy = gx.ravel(), gy.ravel()
        inside = shapely.contains_xy(area, gx, gy)
        pts = np.stack([gx[inside], gy[inside]], axis=1)
        if len(pts) == 0:
            return np.zeros((0, 2))
        return pts[self.fits_many(pts, radius)]

    def discs(self, blockers: Any, radius: float) -> Discs:
        """``Discs.of(blockers, radius)``, each grown base remembered by its exact centre and
        grown radius (models stand still most of a turn, so the same bases come back)."""
        arr = np.asarray([tuple(b)[:3] for b in blockers], dtype=float).reshape(-1, 3)
        if len(arr) == 0:
            return Discs.of([], radius)
        grown = arr[:, 2] + radius
        keys = list(zip(arr[:, 0].tolist(), arr[:, 1].tolist(), grown.tolist(), strict=True))
        # the same set of bases comes back (a model's reach asked for a move, then a dash;
        # the planner and the autopilot about the same model): the same object, with what it
        # has worked out about itself since (its rings, its boxes)
        whole = tuple(keys)
        known = self._disc_sets.get(whole)
        if known is not None:
            return known
        memo = self._disc_memo
        miss = [k for k, key in enumerate(keys) if key not in memo]
        if miss:
            if len(memo) + len(miss) > common.MEMO_LIMIT:
                memo.clear()
                miss = list(range(len(keys)))
            polys: list[Polygon | None]
            if fast_discs():  # GEOS's vertices from the table, no buffering: the polygons
                V = disc_coords(arr[miss, :2], grown[miss])  # are made when asked for
                polys = [None] * len(miss)
                verts = list(V)
            else:
                made, verts = buffered_discs(arr[miss, :2], grown[miss])
                polys = list(made)
            if len({v.shape for v in verts}) == 1:
                # the missed bases' edges at once: each row's unit edge is computed from its
                # own two vertices, so stacking the polygons changes no value
                V = np.stack(verts)
                E = unit_vectors(np.roll(V, -1, axis=1) - V)
                inner = _inradii(arr[miss, :2], V, E).tolist()
                for j, k in enumerate(miss):
                    memo[keys[k]] = (polys[j], V[j], E[j], inner[j])
            else:
                for k, poly, v in zip(miss, polys, verts, strict=True):
                    e = unit_vectors(np.roll(v, -1, axis=0) - v)
                    memo[keys[k]] = (poly, v, e,
                                     float(_inradii(arr[k:k + 1, :2], v[None], e[None])[0]))
        found = [memo[key] for key in keys]
        # each polygon's inradius (clear_of's depth of its centre) comes with it
        # (np.array of equal-shaped arrays stacks them as np.stack does, in one call)
        discs = Discs([f[0] for f in found], np.array([f[1] for f in found]), arr[:, :2],
                      grown, edges=np.array([f[2] for f in found]),
                      inner=np.array([f[3] for f in found]))
        if len(self._disc_sets) >= common.MEMO_LIMIT // 16:
            self._disc_sets.clear()
        self._disc_sets[whole] = discs
        return discs

    def walk_graph(self, radius: float, blockers: Any, centre: Point2 | None = None,
                   reach: float = math.inf,
                   within: Callable[[np.ndarray], np.ndarray] | None = None
                   ) -> tuple[Walker, Graph, Discs]:
        """The graph a walk of a base of ``radius`` searches: the walker's, with the bases of
        ``blockers`` near ``centre`` (within ``reach``, and ``within`` when given) added;
        returned with the walker and the grown bases."""
        walker = self.walker(radius)
        discs = self.discs(list(blockers), walker.radius)
        return walker, walker.with_discs(discs, centre, reach, within), discs

    def _free_walk(self, walker: Walker, g: Graph, discs: Discs, X: np.ndarray
                   ) -> np.ndarray:
        return g.in_box(X) & ~walker.blocked_at(X) & discs.clear_of(X, EPS)

    def _soft_for(self, radius: float) -> _Soft:
        """The surcharged footprints for a base of ``radius`` (razor wire's reach grows with
        the base), cached per radius."""
        if not self._soft:
            return self._soft
        key = round(float(radius), 9)
        soft = self._softs.get(key)
        if soft is None:
            soft = self._softs[key] = _Soft.of(self.board, float(radius))
        return soft

    def _make_walk(self, pts: list[Point2], radius: float = 0.0, touching: float | None = None
                   ) -> Walk:
        P, Q = np.array(pts[:-1], float), np.array(pts[1:], float)
        length = float(np.hypot(*(Q - P).T).sum()) if len(P) else 0.0
        soft = self._soft_for(radius)
        extra = 0.0
        if soft and len(P):
            extra = soft.path_cost(pts) if touching is None else soft.path_cost(pts, touching)
        if soft and length > 0:
            extra += soft.start_cost(pts[0])
        return Walk(tuple(pts), length, length + extra, radius)

    def walk_through(self, points: Any, radius: float = 0.0, *,
                     touching: float | None = None) -> Walk:
        """The walk along ``points`` as given (a recorded route): its length and its movement
        cost for a base of ``radius`` (climbs, drops and other surcharges added), the same sums
        as the walk that found it. ``touching``: how far a point may stray into a surcharged
        footprint and still be beside it (0.01" for points read back from the record)."""
        pts = [(float(p[0]), float(p[1])) for p in points]
        if len(pts) < 2:
            pts = pts * 2 if pts else [(0.0, 0.0), (0.0, 0.0)]
        return self._make_walk(pts, float(radius), touching)

    def walk_to(self, walk: Walk, end: Any) -> Walk:
        """The first part of ``walk``, from its start to ``end`` (a point on it, or within
        0.01" of it: a point rounded for the record), with its length and cost
        (:meth:`walk_through`); the whole walk and then ``end`` when it is on no leg."""
        e = (float(end[0]), float(end[1]))
        pts = list(walk.points)
        out = [pts[0]]
        for a, b in itertools.pairwise(pts):
            seg = (b[0] - a[0], b[1] - a[1])
            length2 = seg[0] ** 2 + seg[1] ** 2
            t = 0.0 if length2 == 0 else (
                (e[0] - a[0]) * seg[0] + (e[1] - a[1]) * seg[1]) / length2
            t = min(1.0, max(0.0, t))
            foot = (a[0] + seg[0] * t, a[1] + seg[1] * t)
            if math.dist(foot, e) <= 0.01 and t < 1.0:
                break  # the end is on this leg
            out.append(b)
        if math.dist(out[-1], e) > 1e-9:
            out.append(e)
        return self.walk_through(out, walk.radius)

    def walk(self, start: Any, goal: Any, radius: float, *, blockers: Any = ()) -> Walk | None:
        """The cheapest walking path for a base of ``radius`` from ``start`` to ``goal`` (model
        centres), around obstacles and the bases ``blockers``; None when there is none.

        The search first ignores the other bases (the cached corner graph of the static
        obstacles, A* towards the goal); bases only ever make routes dearer, so when that
        route goes into none of them it is the answer. Otherwise the bases it went into are
        added to the graph and the search is repeated until the route is clear of them all."""
        s = (float(start[0]), float(start[1]))
        t = (float(goal[0]), float(goal[1]))
        if s == t:
            return Walk((s, t), 0.0, 0.0, float(radius))
        walker = self.walker(radius)
        discs = self.discs(list(blockers), walker.radius)
        g = walker.graph
        X = np.array([s, t])
        if not self._free_walk(walker, g, discs, X).all():
            return None
        used = np.zeros(len(discs), dtype=bool)
        while True:
            found = shortest_route(g, s, t)
            if found is None:
                return None
            chain = found[1]
            if used.all():
                break
            hit = _path_hits(g, s, t, chain, discs, ~used)
            if not hit.any():
                break
            used |= hit
            g = walker.with_discs(discs.subset(used))
        route = [s, *((float(g.real[c, 0]), float(g.real[c, 1])) for c in chain), t]
        return self._make_walk(route, walker.radius)

    def advance(self, walk: Walk, move: float) -> tuple[Point2, float]:
        """The farthest point along ``walk`` that ``move`` inches of movement reach (costs
        count, see the module notes: each entry and exit where :meth:`_Soft.events` puts it,
        the same surcharges the walk's cost adds up), and the movement spent. A surcharge
        that the movement left cannot pay stops the walk :data:`STOP_SHORT` before the
        outline where it would be paid, on the side it has paid for (the floor short of a
        climb, the top short of a drop): a model on the outline is beside the footprint, and
        a point rounded to the record's 0.01" grid stays on its side."""
        return self.advance_many(walk, (move,))[0]

    def advance_many(self, walk: Walk, moves: Sequence[float]) -> list[tuple[Point2, float]]:
        """:meth:`advance` for each of ``moves`` along one ``walk``, with the walk's
        surcharges looked up once (the placement rule backs a move off a step at a time, and
        ``first_contact`` tries every step of a walk): each answer is :meth:`advance`'s, by
        the same arithmetic."""
        pts = walk.points
        soft = self._soft_for(walk.radius)
        events: list[tuple[float, float]] = []
        first = 0.0
        if soft and walk.length > 0:
            first = soft.start_cost(pts[0])
            key = (tuple((float(p[0]), float(p[1])) for p in pts), float(walk.radius))
            if key not in self._walk_events:
                if len(self._walk_events) >= WALK_EVENTS_KEPT:
                    self._walk_events.clear()
                self._walk_events[key] = soft.events(pts)
            events = self._walk_events[key]
        costed = bool(soft and walk.length > 0)
        return [_advance_one(pts, walk.length, float(move), move, costed, first, events)
                for move in moves]

    def reachable(self, start: Any, radius: float, move: float, *, blockers: Any = (),
                  spacing: float = 0.5, near: Any = None) -> Reach:
        """Where a base of ``radius`` can end a move of ``move`` inches from ``start``: grid
        points ``spacing`` apart within the move circle where the base fits and the cheapest
        walk costs at most ``move`` (the start itself first, at cost 0).

        ``near`` ``[(x, y, r), ...]`` asks only about the grid points within one of those
        discs (:func:`in_discs`): the answer is then exactly the full answer's start and its
        points in the discs -- the same points, costs and walks, in the same order. A point's
        cost never depends on the other points asked (the walking graph and its Dijkstra
        distances depend on the start, the move and the blockers only; the straight walk and
        the links to corners are decided point by point), so leaving the others out changes
        nothing but the time (a charge wants the ~1" around its target, not the whole 12"
        circle)."""
        blockers = _triples(blockers)
        key = (float(radius), float(start[0]), float(start[1]), type(move), move,
               tuple(blockers), type(spacing), spacing,
               None if near is None else tuple(_triples(near)))
        walker = self.walker(radius)
        memo = walker.reaches
        got = memo.get(key)
        if got is None:
            if len(memo) >= REACH_LIMIT:
                memo.clear()
            got = memo[key] = self._reachable(start, radius, move, blockers, spacing, near)
        # a fresh copy each time (the walks are immutable and built once)
        return Reach(got.points.copy(), got.cost.copy(), got.walk_of)

    def _reachable(self, start: Any, radius: float, move: float, blockers: list[Any],
                   spacing: float, near: Any) -> Reach:
        """:meth:`reachable` computed afresh."""
        s = (float(start[0]), float(start[1]))
        S = np.array([s])
        dx, dy = self.walker(radius).grid(move, spacing)
        C = np.stack([s[0] + dx, s[1] + dy], axis=1)
        within = None
        start_walk = Walk((s,), 0.0, 0.0)
        if near is not None:
            if len(C):
                C = C[in_discs(C, near)]
            if len(C) == 0:  # no grid point in the discs asked: the start alone, as below
                return Reach(np.array([s], float), np.zeros(1), lambda i: start_walk)
            within = on_the_way(s, move, near)
        walker, g, discs = self.walk_graph(radius, blockers, s, move, within)
        if len(C):
            same = walker.radius == float(radius)  # else the bases grow by another radius
            C = C[self._fits_with(C, radius, walker,
                                  discs if same else self.discs(list(blockers), radius))]
        if len(C) == 0 or not self._free_walk(walker, g, discs, S)[0]:
            return Reach(np.array([s], float), np.zeros(1), lambda i: start_walk)
        n = len(g.pos)
        sj, sw, clear, cost = start_costs(g, S, C)
        init = np.full(n, np.inf)
        np.minimum.at(init, sj, sw)
        dist, pred = dijkstra(n, init, g.pi, g.pj, g.pw, limit=move, back=g.back)
        via = np.full(len(C), -1, dtype=int)
        live = (dist <= move + 1e-9).nonzero()[0]
        if len(live):
            ci, nj, tot = best_links(g, C, S[0], clear, cost, live, dist, move)
            cost[ci] = tot
            via[ci] = nj
        soft = g.soft
        if soft:
            cost = cost + soft.start_cost(s)  # starting within reach of razor wire
        ok = cost <= move + 1e-9
        C, cost, via = C[ok], cost[ok], via[ok]
        points = np.concatenate([S, C])
        costs = np.concatenate([[0.0], cost])
        real = g.real

        @cache
        def walk_of(i: int) -> Walk:
            if i == 0:
                return start_walk
            end = (float(points[i, 0]), float(points[i, 1]))
            k = int(via[i - 1])
            chain = []
            while k >= 0:
                chain.append(k)
                k = int(pred[k])
            pts = [s, *((float(real[c, 0]), float(real[c, 1])) for c in reversed(chain)), end]
            return self._make_walk(pts, walker.radius)

        return Reach(points, costs, walk_of)


WALK_EVENTS_KEPT = 256
"""How many walks' surcharge events :meth:`Routes.advance` keeps (then it starts afresh)."""


STOP_SHORT = 0.05
"""Inches: how far before the outline a walk stops when it cannot pay to cross it
(:meth:`Routes.advance`): more than the 0.01" grid's rounding, so the stop stays on its side."""


def _advance_one(pts: Sequence[Point2], length: float, left: float, move: float,
                 costed: bool, first: float, events: list[tuple[float, float]]
                 ) -> tuple[Point2, float]:
    """:meth:`Routes.advance` of one ``move`` (``left``: it as a float) along the walk
    ``pts`` of ``length``, given its start surcharge ``first`` and surcharge ``events``
    (``costed``: the walk has surcharges to count)."""
    if costed:
        if first > left:
            return (pts[0], 0.0)  # it cannot pay to move within reach of razor wire
        left -= first
    gone = 0.0  # distance walked along the walk
    for at, amount in events:
        if at - gone > left:
            break
        left -= at - gone
        gone = at
        if amount > left:  # stop short of the outline, on the side paid for
            back = min(STOP_SHORT, gone)
            return (_point_along(pts, gone - back), move - left - back)
        left -= amount
    if length - gone >= left:
        return (_point_along(pts, gone + left), move)
    left -= length - gone
    return (pts[-1], move - left)


def _point_along(pts: Sequence[Point2], distance: float) -> Point2:
    """The point ``distance`` inches along the polyline ``pts`` (its end beyond it)."""
    gone = 0.0
    for a, b in itertools.pairwise(pts):
        d = math.dist(a, b)
        if d > 0 and gone + d >= distance:
            frac = (distance - gone) / d
            return (a[0] + (b[0] - a[0]) * frac, a[1] + (b[1] - a[1]) * frac)
        gone += d
    return (float(pts[-1][0]), float(pts[-1][1]))
