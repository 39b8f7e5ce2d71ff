"""The walking graph per base radius: :class:`Walker` (the static obstacles grown by the
radius, with other bases added per call), what a base cannot walk through
(:func:`walk_obstacle_features`), and the searches on it: :func:`shortest_route` (A* to a goal),
:func:`_path_hits` (the bases a route goes into) and :func:`on_the_way` (the corners a
``reachable(..., near=)`` walk can pass).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from solo_ops.geometry import jit, shapes
from solo_ops.geometry.board import Board
from solo_ops.geometry.routes import common
from solo_ops.geometry.routes.common import DISC_SEGMENTS, EPS, NUDGE, Point2, jm, unit_vectors
from solo_ops.geometry.routes.costs import _Soft
from solo_ops.geometry.routes.discs import Discs
from solo_ops.geometry.routes.graph import Graph, _build_graph
from solo_ops.geometry.routes.paths import _astar
from solo_ops.geometry.routes.results import Reach
from solo_ops.geometry.routes.rings import Rings, corners_of


# -- walking obstacles ------------------------------------------------------------------------
def walk_obstacle_features(board: Board) -> BaseGeometry:
    """What a base cannot walk through, before growing by its radius: movement blockers (walls,
    closed doors and hatches, pitfalls), hazardous areas, and solid footprints (heavy or
    blocking polygons that are not accessible, vantage or walls)."""
    parts = [shapes.movement_blockers(board)]
    # hazardous ground, except under raised vantage (a gantry bridges it: a base on it is not
    # touching the hazardous area, 002 Bheta-Decima)
    decks = [f.shape for f in board.features if "vantage" in f.effective_traits and f.height
             and not f.is_line]
    deck = shapely.union_all(decks) if decks else None
    parts += [f.shape if deck is None else f.shape.difference(deck)
              for f in board.features if "hazardous" in f.effective_traits]
    parts += [shapes.feature_area(f) for f in board.features
              if (f.effective_traits & {"heavy", "blocking"})
              and not (f.effective_traits & {"accessible", "vantage", "wall"}) and not f.is_line]
    parts = [p for p in parts if not p.is_empty]
    if not parts:
        return shapely.GeometryCollection()
    return shapely.union_all(parts)


class Walker:
    """The walking graph for one base radius (static obstacles only; bases come per call)."""

    def __init__(self, board: Board, radius: float, soft: _Soft) -> None:
        self.radius = radius
        static = walk_obstacle_features(board)
        self.grown = static.buffer(radius, DISC_SEGMENTS) if not static.is_empty else static
        self.eroded = self.grown.buffer(-EPS) if not self.grown.is_empty else self.grown
        if not self.grown.is_empty:
            shapely.prepare(self.grown)
            shapely.prepare(self.eroded)
        self.box = (radius, radius, board.width - radius, board.depth - radius)
        self.graph = _build_graph(shapes.polygons_of(self.grown), self.inside, self.box, soft)
        self._taken: dict[bytes, Rings] = {}
        rings = self.graph.rings
        self._edge_box = (np.minimum(rings.v, rings.nxt), np.maximum(rings.v, rings.nxt))
        self._corners: dict[tuple[float, float, float], tuple[np.ndarray, np.ndarray]] = {}
        # Routes.reachable's answers for this radius, by their exact inputs
        self.reaches: dict[tuple[Any, ...], Reach] = {}
        # the offsets of reachable's grid points, by the move and the spacing
        self._grids: dict[tuple[Any, ...], tuple[np.ndarray, np.ndarray]] = {}

    def grid(self, move: float, spacing: float) -> tuple[np.ndarray, np.ndarray]:
        """The offsets (dx, dy) from the start of :meth:`Routes.reachable`'s grid points: every
        ``spacing`` step within ``move`` but the start itself, remembered by the exact move and
        spacing (a move's points are then ``start + offset``, the same sums as before)."""
        key = (type(move), move, type(spacing), spacing)
        got = self._grids.get(key)
        if got is None:
            offs = np.arange(-move, move + 1e-9, spacing) if move > 0 else np.zeros(0)
            dx, dy = np.meshgrid(offs, offs, indexing="ij")
            dx, dy = dx.ravel(), dy.ravel()
            keep = ~((dx == 0) & (dy == 0)) & (np.hypot(dx, dy) <= move)
            if len(self._grids) >= common.MEMO_LIMIT // 64:
                self._grids.clear()
            got = self._grids[key] = (dx[keep], dy[keep])
        return got

    def inside(self, X: np.ndarray) -> np.ndarray:
        """Points strictly inside the grown static obstacles."""
        if self.grown.is_empty or len(X) == 0:
            return np.zeros(len(X), dtype=bool)
        return shapely.contains_xy(self.grown, X[:, 0], X[:, 1])

    def blocked_at(self, X: np.ndarray) -> np.ndarray:
        """Points more than :data:`EPS` inside the grown static obstacles."""
        if self.eroded.is_empty or len(X) == 0:
            return np.zeros(len(X), dtype=bool)
        return shapely.contains_xy(self.eroded, X[:, 0], X[:, 1])

    def _take(self, mask: np.ndarray) -> Rings:
        """``graph.rings.take(mask)``, remembered per set of rings taken (moves near the same
        walls take the same ones)."""
        rings = self.graph.rings
        # the rings taken, marked (ring numbers run 0, 1, ... along the vertices): the sorted
        # ring numbers np.unique would give, without its sort
        seen = np.zeros(int(rings.ring[-1]) + 1 if len(rings.ring) else 0, dtype=bool)
        seen[rings.ring[mask]] = True
        key = np.flatnonzero(seen).tobytes()
        got = self._taken.get(key)
        if got is None:
            if len(self._taken) >= common.MEMO_LIMIT // 16:
                self._taken.clear()
            keep = seen[rings.ring]
            got = self._taken[key] = Rings(rings.v[keep], rings.prv[keep], rings.nxt[keep])
        return got

    def disc_corners(self, discs: Discs) -> tuple[np.ndarray, ...]:
        """The graph corners of the disc polygons, disc by disc in order (what
        ``discs.rings().corners()`` selects, row for row: every quantity is computed per
        vertex from the vertex and its neighbours): (nudged, real, prv, nxt, unit directions
        to prv and nxt, whether the nudged corner is in the box and outside the static
        obstacles). In the box within ``common.EPS``, as a walk's own ends are: a base whose
        grown disc touches the edge of the box has a corner on it, nudged a hair outside, and
        the way between that base and the table's edge is exactly the walker's width (the
        oracle of the tests walks it). Each disc's rows are remembered by its exact centre and
        grown radius."""
        memo = self._corners
        keys = list(zip(discs.centres[:, 0].tolist(), discs.centres[:, 1].tolist(),
                        discs.radii.tolist(), strict=True))
        miss = [k for k, key in enumerate(keys) if key not in memo]
        if miss:
            if len(memo) + len(miss) > common.MEMO_LIMIT:
                memo.clear()
                miss = list(range(len(keys)))
            # every missed disc at once: each quantity is computed per vertex row from the
            # vertex and its neighbours (and per corner from its own row), so stacking the
            # discs' rows changes no value
            V = discs.verts[miss]  # (m, n, 2)
            n = V.shape[1]
            # each disc's rows side by side in one (c, 12) array (copies of the same floats),
            # so that a set of discs is joined by two concatenations instead of seven
            if jit.ENABLED:  # the same arithmetic, vertex by vertex
                table, convex = jm.disc_corner_table(np.ascontiguousarray(V, dtype=float),
                                                     NUDGE)
                nudged = table[:, 0:2]
            else:
                v = V.reshape(-1, 2)
                prv_all = np.roll(V, 1, axis=1).reshape(-1, 2)
                nxt_all = np.roll(V, -1, axis=1).reshape(-1, 2)
                convex, nudged = corners_of(v, prv_all, nxt_all)  # no rings built
                up_all, un_all = unit_vectors(prv_all - v), unit_vectors(nxt_all - v)
                table = np.concatenate([nudged, v, prv_all, nxt_all, up_all, un_all], axis=1)
            free_all = self.graph.in_box(nudged, common.EPS) & ~self.inside(nudged)
            for j, k in enumerate(miss):
                rows = slice(j * n, (j + 1) * n)
                c = convex[rows]
                memo[keys[k]] = (table[rows][c], free_all[rows][c])
        parts = [memo[key] for key in keys]
        table = np.concatenate([p[0] for p in parts])
        free = np.concatenate([p[1] for p in parts])
        return (*(table[:, i:i + 2] for i in range(0, 12, 2)), free)

    def with_discs(self, discs: Discs, centre: Point2 | None = None,
                   reach: float = math.inf,
                   within: Callable[[np.ndarray], np.ndarray] | None = None) -> Graph:
        """The graph with other bases added, limited to the circle ``centre``/``reach`` (and
        to the corners where ``within`` says True, when given: node numbers keep their order)."""
        g = self.graph
        nodes = np.arange(len(g.pos))
        rings = g.rings
        pair = np.ones(len(g.pi), dtype=bool)
        if centre is not None and math.isfinite(reach):
            c = np.asarray(centre, float)
            near = np.hypot(*(g.pos - c).T) <= reach + 1e-9
            nodes = nodes[near]
            if within is not None:
                near &= within(g.pos)
            pair = near[g.pi] & near[g.pj]
            lo, hi = c - reach - 1e-6, c + reach + 1e-6
            emin, emax = self._edge_box
            ekeep = np.all((emax >= lo) & (emin <= hi), axis=1)
            rings = self._take(ekeep)
            if len(discs):
                dk = np.hypot(*(discs.centres - c).T) <= reach + discs.radii + 1e-6
                discs = discs.subset(dk)
        if len(discs) == 0:
            pi, pj, pw = g.pi[pair], g.pj[pair], g.pw[pair]
            sub = Graph(rings, g.box, g.pos, g.real, g.prv, g.nxt, pi, pj, pw, g.soft,
                        pb=g.back[pair] if g.soft else None, units=(g.up, g.un))
            sub.active = nodes
            return sub
        # bases: drop corners inside them, add theirs, drop pairs they cut
        dpos, dreal, dprv, dnxt, dup, dun, free = self.disc_corners(discs)
        dkeep = free.copy()  # changed below: never a remembered row of disc_corners
        if centre is not None and math.isfinite(reach):
            dkeep &= np.hypot(*(dpos - np.asarray(centre, float)).T) <= reach + 1e-9
            if within is not None:
                idx = dkeep.nonzero()[0]
                dkeep[idx] = within(dpos[idx])
        # one clear_of for the static corners and the bases' corners still kept (each point's
        # answer is its own, so leaving the others out changes none)
        ns = len(nodes)
        clear = discs.clear_of(np.concatenate([g.pos[nodes], dpos[dkeep]]))
        nodes = nodes[clear[:ns]]
        dkeep[dkeep] = clear[ns:]
        n0 = len(g.pos)
        pos = np.concatenate([g.pos, dpos[dkeep]])
        real = np.concatenate([g.real, dreal[dkeep]])
        prv = np.concatenate([g.prv, dprv[dkeep]])
        nxt = np.concatenate([g.nxt, dnxt[dkeep]])
        up = np.concatenate([g.up, dup[dkeep]])
        un = np.concatenate([g.un, dun[dkeep]])
        alive = np.zeros(len(pos), dtype=bool)
        alive[nodes] = True
        alive[n0:] = True
        pair &= alive[g.pi] & alive[g.pj]
        pi, pj, pw, pb = g.pi[pair], g.pj[pair], g.pw[pair], g.back[pair]
        # static pairs cut by a base: only those whose box meets a disc's box need the exact
        # test (discs.blocks itself tests only the segments passing within a disc's circle
        # + 1e-6, all of which are among these: the boxes are grown by 1e-5)
        a, b = g.pos[pi], g.pos[pj]
        lo, hi = np.minimum(a, b), np.maximum(a, b)
        grow = discs.radii + 1e-5
        dlo = discs.centres - grow[:, None]
        dhi = discs.centres + grow[:, None]
        near = ((lo[:, None, 0] <= dhi[None, :, 0]) & (hi[:, None, 0] >= dlo[None, :, 0])
                & (lo[:, None, 1] <= dhi[None, :, 1])
                & (hi[:, None, 1] >= dlo[None, :, 1])).any(axis=1)
        if near.any():
            cut = discs.blocks(a[near], b[near])
            drop = near.nonzero()[0][cut]
            keep = np.ones(len(pi), dtype=bool)
            keep[drop] = False
            pi, pj, pw, pb = pi[keep], pj[keep], pw[keep], pb[keep]
        sub = Graph(rings, g.box, pos, real, prv, nxt, pi, pj, pw, g.soft, discs=discs,
                    units=(up, un))
        sub.add_pairs_new(nodes, np.arange(n0, len(pos)), pb)
        return sub


def shortest_route(g: Graph, s: Point2, t: Point2) -> tuple[float, list[int]] | None:
    """The cheapest route from ``s`` to ``t`` in the walking graph ``g``: (cost, the corners
    used, empty when it is the straight segment), or None."""
    S, T = np.array([s]), np.array([t])
    best = math.inf
    direct: tuple[float, list[int]] | None = None
    if not g.blocked(S, T)[0]:
        best = float(g.weight(S, T)[0])
        direct = (best, [])
        if not g.soft:
            return direct
    if len(g.pos) == 0:
        return direct
    active = np.arange(len(g.pos)) if g.active is None else g.active
    _, sj, sw = g.links(S, active)
    if len(sj) == 0:
        return direct
    _, tj, tw = g.links(T, active)
    if len(tj) == 0:
        return direct
    if g.soft:  # the last leg is walked from the corner to the goal (climbs and drops differ)
        tw = g.weight(g.pos[tj], np.repeat(T, len(tj), axis=0))
    src: dict[int, float] = {}
    for k, w in zip(sj.tolist(), sw.tolist(), strict=True):
        src[k] = min(w, src.get(k, math.inf))
    goal: dict[int, float] = {}
    for k, w in zip(tj.tolist(), tw.tolist(), strict=True):
        goal[k] = min(w, goal.get(k, math.inf))
    h = np.hypot(g.pos[:, 0] - t[0], g.pos[:, 1] - t[1]).tolist()
    found = _astar(g.adjacency(), src, goal, h, best)
    return direct if found is None else found


def _path_hits(g: Graph, s: Point2, t: Point2, chain: list[int], discs: Discs,
               check: np.ndarray) -> np.ndarray:
    """(len(discs),) which of the discs selected by ``check`` the route ``s``, corners
    ``chain`` of ``g``, ``t`` goes into (a segment cuts it or a corner is inside it)."""
    out = np.zeros(len(discs), dtype=bool)
    idx = check.nonzero()[0]
    if len(idx) == 0:
        return out
    sub = discs.subset(idx)
    corners = g.pos[chain] if chain else np.zeros((0, 2))
    pts = np.concatenate([[s], corners, [t]])
    cut = sub.cutting(pts[:-1], pts[1:])
    out[idx[cut[:, 1]]] = True
    if len(corners):
        xi, ki = sub.near(corners)
        if len(xi):
            deep = sub.pair_depth(corners, xi, ki) > 0
            out[idx[ki[deep]]] = True
    return out


def on_the_way(s: Point2, move: float, discs: Any) -> Callable[[np.ndarray], np.ndarray]:
    """For ``reachable(..., near=discs)``: the corners a walk from ``s`` costing at most
    ``move`` to a point of a disc can pass, ``|p - s| + |p - c| <= move + r`` for one disc
    ``(c, r)`` (an ellipse), with 1e-6 to spare.

    Leaving the other corners out of the graph changes no answer there: a corner on such a
    walk has ``dist >= |p - s|`` (links and pairs cost at least their length) and
    ``|p - C| <= (rest of the walk)``, so it lies in the ellipse; a relaxation through a corner
    outside it is more than 1e-6 dearer than what the point gets, so it neither sets nor
    blocks (Dijkstra's 1e-12 tie rule) any distance or predecessor that a point in the discs
    uses, and node numbers keep their order (ties still go to the lower corner)."""
    D = np.asarray([tuple(d)[:3] for d in discs], dtype=float).reshape(-1, 3)
    sx, sy = s

    def within(P: np.ndarray) -> np.ndarray:
        out = np.zeros(len(P), dtype=bool)
        if len(P) == 0:
            return out
        to_s = np.hypot(P[:, 0] - sx, P[:, 1] - sy)
        for x, y, r in D:
            out |= to_s + np.hypot(P[:, 0] - x, P[:, 1] - y) <= move + r + 1e-6
        return out

    return within
