"""Distances around walls and walking paths: :class:`Routes`.

Two questions, one technique. *Measuring* (ranges, control range, "closest enemy") takes the
shortest route between two points around the walls and closed doors and hatches
(``shapes.measuring_blockers``); *walking* (moves, charges, hidden counters) takes the cheapest
path for a base of radius ``r`` around everything it cannot cross, grown by ``r``, plus the bases
of other models, staying ``r`` inside the board edge.

Both use a *reduced visibility graph*: a shortest path around polygons bends only at convex
obstacle corners, and only where it wraps around them (the path is tangent to the obstacle
there). The corners are collected once, nudged outward by :data:`NUDGE` so that tests are never
ambiguous, and joined by the tangent, unobstructed segments (vectorised segment-vs-edge tests in
numpy). For measuring, the all-pairs shortest distances among the corners are computed once per
board (a numpy Floyd-Warshall with a successor matrix), so a query only has to find which corners
each end sees and take ``min(|a-vi| + D[i, j] + |vj-b|)``. For walking, the corner graph of the
static obstacles is cached per base radius (with its adjacency lists and each corner's
neighbour directions). ``walk`` runs an A* search (straight-line lower bound) on it, ignoring
the other models' bases; bases only make routes dearer, so a route that enters none of them is
the answer, and otherwise the bases it entered are added as an overlay (their corners, the
static pairs they cut) and the search repeats until the route is clear of every base.
``reachable`` adds the bases near the move circle at once and runs a Dijkstra search from the
start restricted to that circle.

Movement costs (a reading of the 2024 rules, see ``docs/``): a walk's *cost* is its length plus
1" each time the centre of the base enters an ``accessible`` feature (crossing an open hatchway,
climbing through a window) and 2" each time the base's edge comes within 1" of an
``obstructing`` one (razor wire: its footprint grown by 1" plus the base's radius,
:data:`OBSTRUCTING_REACH`); a feature with both traits costs both. Entering means crossing the
footprint's edge from outside (thin ``line:`` features are strips ``shapes.WALL_THICKNESS``
wide); a walk that starts inside an accessible feature does not pay for leaving it, one that
starts within reach of razor wire pays its 2" at once (001 "Any move within 1" of this terrain
costs additional 2""). Paths minimise cost, so a walk may go round a feature when
that is cheaper. ``vantage`` features without ``accessible`` cost nothing extra. With no such
terrain, cost equals length and the results are those of ``tests/geometry_oracle.py``.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import InitVar, dataclass, field
from functools import cache
from typing import Any, cast

import numpy as np
import shapely
from shapely.geometry import Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.geometry.polygon import orient

from solo_ops.geometry import jit, shapes
from solo_ops.geometry.board import Board

# the compiled loops (numba), loaded when first used; the numpy code below is the reference
_jd = jit.kernels("distance")
_jm = jit.kernels("movement")

EPS = 1e-7  # inches: a point this deep inside an obstacle still counts as touching it
NUDGE = 1e-9  # inches: how far graph corners are moved off their obstacle
TOL = 1e-11  # inches: a point this close to a line counts as on it
END = 1e-8  # inches: touches this close to a segment's ends are the segment's own corner
ACCESSIBLE_COST = 1.0  # inches added for entering an accessible feature
OBSTRUCTING_COST = 2.0  # inches added for entering an obstructing feature
MIN_CLIMB = 2  # inches: the least a climb costs (001)
DROP_IGNORED = 2  # inches of a drop that cost nothing (001)
OBSTRUCTING_REACH = 1.0  # inches: a move whose base comes this close to it pays (001 razor wire)
DISC_SEGMENTS = 8  # shapely quad_segs used to draw bases and grown obstacles (as the oracle)
_CHUNK = 2_000_000  # segment-edge pairs examined at once (memory bound)
_MEMO_LIMIT = 4096  # entries of a per-Routes memo before it is emptied (a long game's bound)
_REACH_LIMIT = 64  # reachable answers remembered per walker (each holds its graph)
_RUN = 12  # edges per run that _blocked's boxes cover (many pairs)
_DENSE = 8_000  # segment-edge pairs up to which _blocked tests every pair (else by boxes)
_POINT_LIMIT = 512  # points whose measuring rows a Routes keeps for single distances (bound)
_DIRECT_RECOMPUTE = 128  # wall edges up to which compiled straight distances skip their memo
_GRID_BLOCK = 32_768  # elements of a _tangent_grid block (its temporaries fit the cache)
_ROUNDS = 2  # reachable: best-first rounds of corner tests before testing the rest at once

Point2 = tuple[float, float]


# -- results ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Route:
    """A measured distance between two bases' edges and the route, centre to centre.

    ``distance`` is ``None`` (and ``points`` empty) when walls and closed doors leave no route.
    """

    distance: float | None
    points: tuple[Point2, ...]


@dataclass(frozen=True)
class Walk:
    """A walking path for a base: its centre's points, geometric length and movement cost."""

    points: tuple[Point2, ...]
    length: float
    cost: float
    radius: float = field(default=0.0, compare=False)  # the walking base's (razor wire reach)


@dataclass(eq=False)
class Reach:
    """Where a base can end a move: candidate end points (the start first), the movement each
    costs, and the walk to each (built on demand by :meth:`path`)."""

    points: np.ndarray
    cost: np.ndarray
    walk_of: Callable[[int], Walk] = field(repr=False)

    def path(self, i: int) -> Walk:
        """The walk from the start to ``points[i]``."""
        return self.walk_of(int(i))

    @property
    def walks(self) -> list[Walk]:
        """Every candidate's walk (builds them all; prefer :meth:`path`)."""
        return [self.walk_of(i) for i in range(len(self.points))]


# -- vector helpers --------------------------------------------------------------------------------
def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]


def _radii(r: Any, n: int) -> np.ndarray:
    """``r`` (a radius, or one per point) as a read-only (n,) float array: the array itself
    when it already is one, else broadcast (a scalar filled: no broadcasting machinery)."""
    r = np.asarray(r, float)
    if r.shape == (n,):
        return r
    if r.ndim == 0:
        return np.full(n, r)
    return np.broadcast_to(r, (n,))


def _unit(a: np.ndarray) -> np.ndarray:
    n = np.hypot(a[..., 0], a[..., 1])
    return a / np.where(n > 0, n, 1.0)[..., None]


def _as_points(points: Any) -> np.ndarray:
    arr = np.asarray(points, dtype=float)
    if arr.size == 0:
        return np.zeros((0, 2))
    return np.atleast_2d(arr)[:, :2]


@dataclass
class _Rings:
    """Every vertex of a set of polygons with its neighbours, oriented so that the polygon's
    inside is on the left of each edge ``v -> nxt``; ``piece`` says which polygon."""

    v: np.ndarray
    prv: np.ndarray
    nxt: np.ndarray
    f: np.ndarray = field(init=False, repr=False)  # edge vectors v -> nxt
    lf: np.ndarray = field(init=False, repr=False)  # their lengths
    lo: np.ndarray = field(init=False, repr=False)  # edge boxes (grown by TOL)
    hi: np.ndarray = field(init=False, repr=False)

    succ: np.ndarray = field(init=False, repr=False)  # row of each vertex's successor
    ring: np.ndarray = field(init=False, repr=False)  # which ring each vertex is on
    # what _blocked and _blocked_boxed derive from the rings alone, on first use (rings are
    # never changed once built)
    _ends: bool | None = field(default=None, init=False, repr=False)
    _runs: tuple[Any, ...] | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        # rings are stored as consecutive runs of rows
        n = len(self.v)
        idx = np.arange(n)
        follows = np.zeros(n, dtype=bool)
        if n > 1:
            follows[:-1] = np.all(self.v[1:] == self.nxt[:-1], axis=1)
        ends = np.flatnonzero(~follows)
        starts = np.r_[0, ends[:-1] + 1] if n else np.zeros(0, dtype=int)
        self.ring = np.repeat(np.arange(len(ends)), np.diff(np.r_[-1, ends])) if n else idx
        self.succ = np.where(follows, idx + 1, 0)
        self.succ[ends] = starts
        self.f = self.nxt - self.v
        self.lf = np.hypot(self.f[:, 0], self.f[:, 1])
        self.lo = np.minimum(self.v, self.nxt) - TOL
        self.hi = np.maximum(self.v, self.nxt) + TOL

    @staticmethod
    def of(polys: Iterable[Polygon]) -> _Rings:
        vs, ps, ns = [], [], []
        for poly in polys:
            poly = orient(poly, 1.0)
            for ring in (poly.exterior, *poly.interiors):
                c = np.asarray(ring.coords, dtype=float)[:-1, :2]
                if len(c) == 0:
                    continue
                c = c[np.any(c != np.roll(c, 1, axis=0), axis=1)]
                if len(c) < 3:
                    continue
                vs.append(c)
                ps.append(np.roll(c, 1, axis=0))
                ns.append(np.roll(c, -1, axis=0))
        if not vs:
            z = np.zeros((0, 2))
            return _Rings(z, z, z)
        return _Rings(np.concatenate(vs), np.concatenate(ps), np.concatenate(ns))

    def __len__(self) -> int:
        return len(self.v)

    def take(self, mask: np.ndarray) -> _Rings:
        """The whole rings that have a vertex selected by ``mask``."""
        keep = np.isin(self.ring, np.unique(self.ring[mask]))
        return _Rings(self.v[keep], self.prv[keep], self.nxt[keep])

    @staticmethod
    def join(*parts: _Rings) -> _Rings:
        return _Rings(np.concatenate([p.v for p in parts]),
                      np.concatenate([p.prv for p in parts]),
                      np.concatenate([p.nxt for p in parts]))

    def corners(self) -> tuple[np.ndarray, np.ndarray]:
        """(mask of convex vertices, every vertex nudged outward along its bisector)."""
        din, dout = self.v - self.prv, self.nxt - self.v
        turn = _cross(_unit(din), _unit(dout))
        nin = _unit(np.stack([din[:, 1], -din[:, 0]], axis=1))
        nout = _unit(np.stack([dout[:, 1], -dout[:, 0]], axis=1))
        bis = nin + nout
        ok = np.hypot(bis[:, 0], bis[:, 1]) > 1e-9
        return (turn > 1e-12) & ok, self.v + NUDGE * _unit(bis)


def _bbox_pairs(lo_a: np.ndarray, hi_a: np.ndarray, lo_b: np.ndarray, hi_b: np.ndarray,
                start: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Index pairs (i, j) whose boxes overlap (a chunk of ``a`` starting at ``start``)."""
    m = ((lo_a[:, None, 0] <= hi_b[None, :, 0]) & (hi_a[:, None, 0] >= lo_b[None, :, 0])
         & (lo_a[:, None, 1] <= hi_b[None, :, 1]) & (hi_a[:, None, 1] >= lo_b[None, :, 1]))
    i, j = np.nonzero(m)
    return i + start, j


def _crossings(P: np.ndarray, Q: np.ndarray, e0: np.ndarray, e1: np.ndarray,
               active: np.ndarray | None = None
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Proper crossings of segments ``P->Q`` with edges ``e0->e1``: (segment, edge, t along the
    segment). Ends closer than :data:`TOL` to the other line do not count."""
    empty = (np.zeros(0, int), np.zeros(0, int), np.zeros(0))
    if len(P) == 0 or len(e0) == 0:
        return empty
    idx = np.arange(len(P)) if active is None else np.flatnonzero(active)
    if len(idx) == 0:
        return empty
    if jit.ENABLED:
        found: tuple[np.ndarray, np.ndarray, np.ndarray] = _jm.crossings(
            np.ascontiguousarray(P, dtype=float), np.ascontiguousarray(Q, dtype=float),
            np.ascontiguousarray(e0, dtype=float), np.ascontiguousarray(e1, dtype=float), idx,
            TOL)
        return found
    lo_e, hi_e = np.minimum(e0, e1) - TOL, np.maximum(e0, e1) + TOL
    step = max(1, _CHUNK // len(e0))
    out_s, out_e, out_t = [], [], []
    for s in range(0, len(idx), step):
        part = idx[s:s + step]
        p, q = P[part], Q[part]
        si, ei = _bbox_pairs(np.minimum(p, q), np.maximum(p, q), lo_e, hi_e)
        if len(si) == 0:
            continue
        si = part[si]
        a, b, u, w = P[si], Q[si], e0[ei], e1[ei]
        d, f = b - a, w - u
        ld = np.hypot(d[:, 0], d[:, 1])
        lf = np.hypot(f[:, 0], f[:, 1])
        o1, o2 = _cross(d, u - a), _cross(d, w - a)
        o3, o4 = _cross(f, a - u), _cross(f, b - u)
        tl, tf = TOL * ld, TOL * lf
        hit = (((o1 > tl) & (o2 < -tl)) | ((o1 < -tl) & (o2 > tl))) & \
              (((o3 > tf) & (o4 < -tf)) | ((o3 < -tf) & (o4 > tf)))
        if hit.any():
            out_s.append(si[hit])
            out_e.append(ei[hit])
            out_t.append(o3[hit] / (o3[hit] - o4[hit]))
    if not out_s:
        return empty
    return np.concatenate(out_s), np.concatenate(out_e), np.concatenate(out_t)


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


def _blocked(P: np.ndarray, Q: np.ndarray, rings: _Rings) -> np.ndarray:
    """(S,) True where segment ``P->Q`` goes into the inside of an obstacle. Grazing an edge or
    a corner is allowed; both ends are assumed to be outside the obstacles. A segment is blocked
    when it properly crosses an edge, or passes exactly through a vertex (within :data:`TOL`,
    away from its ends) into the obstacle."""
    S, E = len(P), len(rings)
    if jit.ENABLED and S and E:
        return _jm.blocked(np.ascontiguousarray(P, dtype=float),
                           np.ascontiguousarray(Q, dtype=float), rings.v, rings.prv, rings.nxt,
                           rings.f, rings.lf, TOL, END)
    out = np.zeros(S, dtype=bool)
    if S == 0 or E == 0:
        return out
    # rings as built end each edge at their successor vertex (the sign tables read the ends'
    # signs there); any other rows are tested with their ends computed, densely
    ring_ends = rings._ends
    if ring_ends is None:
        ring_ends = rings._ends = bool(np.array_equal(rings.nxt, rings.v[rings.succ]))
    dense = S * E <= _DENSE or not ring_ends
    step = max(1, _CHUNK // E)
    for s in range(0, S, step):
        part = slice(s, s + step)  # out[part] is a view: the kernels mark it in place
        if dense:
            _blocked_dense(P[part], Q[part], rings, out[part], ring_ends)
        else:
            _blocked_boxed(P[part], Q[part], rings, out[part])
    return out


def _blocked_dense(P: np.ndarray, Q: np.ndarray, rings: _Rings, out: np.ndarray,
                   ring_ends: bool = True) -> np.ndarray:
    """:func:`_blocked` for few segment-edge pairs: one (S, E) sign table, the rest sparse.

    The same arithmetic as the pair-by-pair form, element by element (so the same booleans):
    ``o1`` (which side of the segment's line each vertex is) for every pair; the side of an
    edge's end is its successor vertex's ``o1`` when ``nxt`` is that vertex (``ring_ends``,
    else computed as ``o1`` is); ``o3``/``o4`` (which side of the edge's line the segment's ends
    are) only for the pairs whose vertices straddle the line, and the touch test only for the
    pairs with a vertex within :data:`TOL` of it."""
    u, w = rings.v, rings.nxt
    d = Q - P
    ld = np.hypot(d[:, 0], d[:, 1])
    dx, dy = d[:, 0:1], d[:, 1:2]
    ux = u[None, :, 0] - P[:, 0:1]
    uy = u[None, :, 1] - P[:, 1:2]
    o1 = dx * uy - dy * ux
    tl = (TOL * ld)[:, None]
    s1 = (o1 > tl).view(np.int8) - (o1 < -tl).view(np.int8)
    if ring_ends:  # nxt[e] is v[succ[e]]: o2 is o1 of the successor
        s2 = s1[:, rings.succ]
    else:
        wx = w[None, :, 0] - P[:, 0:1]
        wy = w[None, :, 1] - P[:, 1:2]
        o2 = dx * wy - dy * wx
        s2 = (o2 > tl).view(np.int8) - (o2 < -tl).view(np.int8)
    si, ei = (s1 * s2 == -1).nonzero()
    if len(si):
        uxk, uyk = ux[si, ei], uy[si, ei]
        fx, fy = rings.f[ei, 0], rings.f[ei, 1]
        o3 = fy * uxk - fx * uyk  # cross(f, P - u)
        o4 = o3 + (fx * d[si, 1] - fy * d[si, 0])  # cross(f, Q - u), as _blocked rounds it
        tf = TOL * rings.lf[ei]
        hit = ((o3 > tf) & (o4 < -tf)) | ((o3 < -tf) & (o4 > tf))
        out[si[hit]] = True
    si, ei = (s1 == 0).nonzero()
    if len(si):
        ldk = ld[si]
        keep = np.abs(o1[si, ei]) < TOL * ldk
        si, ei, ldk = si[keep], ei[keep], ldk[keep]
        dxk, dyk = d[si, 0], d[si, 1]
        along = (ux[si, ei] * dxk + uy[si, ei] * dyk) / np.where(ldk > 0, ldk, 1.0)
        keep = (along > END) & (along < ldk - END) & ~out[si]
        si, ei = si[keep], ei[keep]
        if len(si):
            enters = _wedge_enters(d[si], u[ei], rings.prv[ei], w[ei])
            out[si[enters]] = True
    return out


def _blocked_own(P: np.ndarray, Q: np.ndarray, V: np.ndarray, prv: np.ndarray, nxt: np.ndarray
                 ) -> np.ndarray:
    """(S,) :func:`_blocked` of each segment ``P[k]->Q[k]`` against its own ring ``V[k]``
    (vertices (S, n, 2), with their neighbours): the same arithmetic, edge by edge."""
    d = Q - P
    ld = np.hypot(d[:, 0], d[:, 1])[:, None]
    dx, dy = d[:, 0:1], d[:, 1:2]
    ux = V[..., 0] - P[:, 0:1]
    uy = V[..., 1] - P[:, 1:2]
    wx = nxt[..., 0] - P[:, 0:1]
    wy = nxt[..., 1] - P[:, 1:2]
    o1 = dx * uy - dy * ux
    o2 = dx * wy - dy * wx
    tl = TOL * ld
    side = ((o1 > tl) & (o2 < -tl)) | ((o1 < -tl) & (o2 > tl))
    f = nxt - V
    fx, fy = f[..., 0], f[..., 1]
    o3 = fy * ux - fx * uy
    o4 = o3 + (fx * dy - fy * dx)
    tf = TOL * np.hypot(fx, fy)
    hit = side & (((o3 > tf) & (o4 < -tf)) | ((o3 < -tf) & (o4 > tf)))
    out = hit.any(axis=1)
    touch = np.abs(o1) < tl
    if touch.any():
        along = (ux * dx + uy * dy) / np.where(ld > 0, ld, 1.0)
        touch &= (along > END) & (along < ld - END) & ~out[:, None]
        si, ei = touch.nonzero()
        if len(si):
            enters = _wedge_enters(d[si], V[si, ei], prv[si, ei], nxt[si, ei])
            out[si[enters]] = True
    return out


def _blocked_boxed(P: np.ndarray, Q: np.ndarray, rings: _Rings, out: np.ndarray
                   ) -> np.ndarray:
    """:func:`_blocked_dense` on the (segment, run of edges) pairs whose boxes meet only.

    Each ring is cut into runs of up to :data:`_RUN` consecutive edges; a segment is tested
    against the runs whose box meets its own (a crossed edge's box does, and so does a vertex
    within :data:`TOL` of it: the boxes are grown by 1e-9 more). Each (segment, run) pair is
    flattened into the run's vertices plus the end of its last edge, so an edge's end sign is
    the next entry's, as in the sign table; the same arithmetic, element by element."""
    runs = rings._runs
    if runs is None or runs[0] != _RUN:  # the runs and their boxes depend on the rings alone
        E = len(rings)
        ring_starts = np.flatnonzero(np.concatenate(([True],
                                                     rings.ring[1:] != rings.ring[:-1])))
        offset = np.arange(E) - np.repeat(ring_starts, np.diff(ring_starts, append=E))
        cs = np.flatnonzero(offset % _RUN == 0)  # run starts (every ring starts one)
        cl = np.diff(cs, append=E)
        rlo = np.minimum.reduceat(rings.lo, cs, axis=0) - 1e-9
        rhi = np.maximum.reduceat(rings.hi, cs, axis=0) + 1e-9
        runs = rings._runs = (_RUN, cs, cl, rlo, rhi, rings.succ[cs + cl - 1])
    _, cs, cl, rlo, rhi, last_succ = runs
    lo, hi = np.minimum(P, Q), np.maximum(P, Q)
    m = lo[:, None, 0] <= rhi[None, :, 0]
    m &= hi[:, None, 0] >= rlo[None, :, 0]
    m &= lo[:, None, 1] <= rhi[None, :, 1]
    m &= hi[:, None, 1] >= rlo[None, :, 1]
    si, ri = m.nonzero()
    if len(si) == 0:
        return out
    lens = cl[ri] + 1  # the run's edges' starts and its last edge's end
    ends = np.cumsum(lens)
    first = ends - lens
    last = ends - 1
    vi = np.arange(int(ends[-1])) - np.repeat(first - cs[ri], lens)
    vi[last] = last_succ[ri]  # rings.succ[cs[ri] + cl[ri] - 1]
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
    tl = (TOL * ld).take(sk)
    s1 = (o1 > tl).view(np.int8) - (o1 < -tl).view(np.int8)
    straddle = s1[:-1] * s1[1:] == -1  # an edge's start and end on either side
    straddle[last[:-1]] = False  # a run's last entry starts no edge
    k = straddle.nonzero()[0]
    if len(k):
        e = vi[k]
        fx, fy = rings.f[e, 0], rings.f[e, 1]
        o3 = fy * ux[k] - fx * uy[k]  # cross(f, P - u)
        o4 = o3 + (fx * dy[k] - fy * dx[k])  # cross(f, Q - u), as _blocked rounds it
        tf = TOL * rings.lf[e]
        hit = ((o3 > tf) & (o4 < -tf)) | ((o3 < -tf) & (o4 > tf))
        out[sk[k[hit]]] = True
    on = s1 == 0
    on[last] = False
    k = on.nonzero()[0]
    if len(k):
        k = k[np.abs(o1[k]) < tl[k]]
        ldk = ld[sk[k]]
        along = (ux[k] * dx[k] + uy[k] * dy[k]) / np.where(ldk > 0, ldk, 1.0)
        k = k[(along > END) & (along < ldk - END) & ~out[sk[k]]]
        if len(k):
            e, sj = vi[k], sk[k]
            enters = _wedge_enters(d[sj], rings.v[e], rings.prv[e], rings.nxt[e])
            out[sj[enters]] = True
    return out


def _blocked_rows(P: np.ndarray, Q: np.ndarray, V: np.ndarray) -> np.ndarray:
    """(S,) :func:`_blocked_own` of each segment ``P[k]->Q[k]`` against its own closed ring
    ``V[k]`` (vertices (S, n, 2), inside on the left; ``prv``/``nxt`` the ring's neighbours),
    computed as :func:`_blocked_dense` does: a sign table of the vertices against each
    segment's line, the edge tests only where an edge's ends straddle it. The same arithmetic
    element by element, so the same booleans."""
    if jit.ENABLED and len(P):
        return _jm.blocked_rows(np.ascontiguousarray(P, dtype=float),
                                np.ascontiguousarray(Q, dtype=float),
                                np.ascontiguousarray(V, dtype=float), TOL, END)
    n = V.shape[1]
    d = Q - P
    ld = np.hypot(d[:, 0], d[:, 1])
    dx, dy = d[:, 0:1], d[:, 1:2]
    ux = V[..., 0] - P[:, 0:1]
    uy = V[..., 1] - P[:, 1:2]
    o1 = dx * uy - dy * ux
    tl = (TOL * ld)[:, None]
    s1 = (o1 > tl).view(np.int8) - (o1 < -tl).view(np.int8)
    s2 = np.empty_like(s1)  # the side of each edge's end: its successor vertex's
    s2[:, :-1] = s1[:, 1:]
    s2[:, -1] = s1[:, 0]
    out = np.zeros(len(P), dtype=bool)
    si, ei = (s1 * s2 == -1).nonzero()
    if len(si):
        u = V[si, ei]
        f = V[si, (ei + 1) % n] - u
        fx, fy = f[:, 0], f[:, 1]
        o3 = fy * ux[si, ei] - fx * uy[si, ei]
        o4 = o3 + (fx * d[si, 1] - fy * d[si, 0])
        tf = TOL * np.hypot(fx, fy)
        hit = ((o3 > tf) & (o4 < -tf)) | ((o3 < -tf) & (o4 > tf))
        out[si[hit]] = True
    si, ei = (s1 == 0).nonzero()
    if len(si):
        ldk = ld[si]
        keep = np.abs(o1[si, ei]) < TOL * ldk
        si, ei, ldk = si[keep], ei[keep], ldk[keep]
        along = (ux[si, ei] * d[si, 0] + uy[si, ei] * d[si, 1]) / np.where(ldk > 0, ldk, 1.0)
        keep = (along > END) & (along < ldk - END) & ~out[si]
        si, ei = si[keep], ei[keep]
        if len(si):
            enters = _wedge_enters(d[si], V[si, ei], V[si, (ei - 1) % n], V[si, (ei + 1) % n])
            out[si[enters]] = True
    return out


_NO_SIDES = np.zeros((0, 0), dtype=bool)  # the compiled _sees' stand-in for "no s4 given"


def _sees(x: np.ndarray, T: np.ndarray, rings: _Rings, s4: np.ndarray | None = None
          ) -> np.ndarray:
    """(len(T),) whether the point ``x`` sees each point of T (:func:`_blocked` negated).

    Only edges facing ``x`` are tested: a segment from outside an obstacle into it enters
    through an edge that faces its start. ``s4`` optionally holds the precomputed sides of T
    against every edge (``_side_table``)."""
    m = len(T)
    if m == 0 or len(rings) == 0:
        return np.ones(m, dtype=bool)
    if jit.ENABLED:
        return _jm.sees(float(x[0]), float(x[1]), np.ascontiguousarray(T, dtype=float),
                        rings.v, rings.prv, rings.nxt, rings.f, rings.lf, rings.succ,
                        _NO_SIDES if s4 is None else s4, s4 is not None, TOL, END)
    f, u = rings.f, rings.v
    o3 = f[:, 1] * (x[0] - u[:, 0]) - f[:, 0] * (x[1] - u[:, 1])  # -cross(f, x - u)
    front = (o3 > TOL * rings.lf).nonzero()[0]
    if len(front) == 0:
        return np.ones(m, dtype=bool)
    uf, wf = u[front] - x, rings.nxt[front] - x
    d = T - x
    ld = np.hypot(d[:, 0], d[:, 1])
    tl = (TOL * ld)[:, None]
    dx, dy = d[:, 0:1], d[:, 1:2]
    o1 = dx * uf[None, :, 1] - dy * uf[None, :, 0]
    o2 = dx * wf[None, :, 1] - dy * wf[None, :, 0]
    p1, n1 = o1 > tl, o1 < -tl
    p2, n2 = o2 > tl, o2 < -tl
    if s4 is None:
        ff = f[front]
        c = ff[:, 0] * u[front, 1] - ff[:, 1] * u[front, 0]
        o4 = T[:, 1:2] * ff[None, :, 0] - T[:, 0:1] * ff[None, :, 1] - c[None, :]
        beyond = o4 > TOL * rings.lf[front][None, :]
    else:
        beyond = s4[:, front]
    hit = ((p1 & n2) | (n1 & p2)) & beyond
    out = ~hit.any(axis=1)
    for on, rel, vert in ((~(p1 | n1), uf, front), (~(p2 | n2), wf, rings.succ[front])):
        if not on.any():
            continue
        # the segment passes exactly through a vertex: does it go into the obstacle there?
        along = (dx * rel[None, :, 0] + dy * rel[None, :, 1]) / np.where(ld > 0, ld, 1.0)[:, None]
        on &= (along > END) & (along < ld[:, None] - END) & out[:, None]
        ti, ei = on.nonzero()
        if len(ti):
            v = vert[ei]
            enters = _wedge_enters(d[ti], u[v], rings.prv[v], rings.nxt[v])
            out[ti[enters]] = False
    return out


def _sees_own(x: np.ndarray, T: np.ndarray, V: np.ndarray, prv: np.ndarray, nxt: np.ndarray
              ) -> np.ndarray:
    """(len(T),) :func:`_sees` of each point ``T[k]`` from ``x`` against its own ring ``V[k]``
    (vertices (m, n, 2), with their neighbours): the same arithmetic, the edges facing ``x``
    kept by a mask instead of by index."""
    fx, fy = nxt[..., 0] - V[..., 0], nxt[..., 1] - V[..., 1]
    lf = np.hypot(fx, fy)
    o3 = fy * (x[0] - V[..., 0]) - fx * (x[1] - V[..., 1])
    front = o3 > TOL * lf
    ux, uy = V[..., 0] - x[0], V[..., 1] - x[1]
    wx, wy = nxt[..., 0] - x[0], nxt[..., 1] - x[1]
    d = T - x
    ld = np.hypot(d[:, 0], d[:, 1])
    tl = (TOL * ld)[:, None]
    dx, dy = d[:, 0:1], d[:, 1:2]
    o1 = dx * uy - dy * ux
    o2 = dx * wy - dy * wx
    p1, n1 = o1 > tl, o1 < -tl
    p2, n2 = o2 > tl, o2 < -tl
    c = fx * V[..., 1] - fy * V[..., 0]
    o4 = T[:, 1:2] * fx - T[:, 0:1] * fy - c
    beyond = o4 > TOL * lf
    hit = ((p1 & n2) | (n1 & p2)) & beyond & front
    out = ~hit.any(axis=1)
    n = V.shape[1]
    for on, rx, ry, shift in ((~(p1 | n1), ux, uy, 0), (~(p2 | n2), wx, wy, 1)):
        on &= front
        if not on.any():
            continue
        along = (dx * rx + dy * ry) / np.where(ld > 0, ld, 1.0)[:, None]
        on &= (along > END) & (along < ld[:, None] - END) & out[:, None]
        ti, ei = on.nonzero()
        if len(ti):
            vi = (ei + shift) % n
            enters = _wedge_enters(d[ti], V[ti, vi], prv[ti, vi], nxt[ti, vi])
            out[ti[enters]] = False
    return out


def _sees_rows(x: np.ndarray, T: np.ndarray, V: np.ndarray) -> np.ndarray:
    """(len(T),) :func:`_sees_own` of each point ``T[k]`` from ``x`` against its own closed
    ring ``V[k]`` (``prv``/``nxt`` the ring's neighbours), computed as :func:`_blocked_rows`
    does: the sign table of the vertices against each sight line, the edge terms (facing
    ``x``, ``T[k]`` beyond it) only where an edge's ends straddle the line or a vertex is on
    it. The same arithmetic element by element, the vertex touches in the same order."""
    n = V.shape[1]
    d = T - x
    ld = np.hypot(d[:, 0], d[:, 1])
    ux = V[..., 0] - x[0]
    uy = V[..., 1] - x[1]
    o1 = d[:, 0:1] * uy - d[:, 1:2] * ux
    tl = (TOL * ld)[:, None]
    s1 = (o1 > tl).view(np.int8) - (o1 < -tl).view(np.int8)
    s2 = np.empty_like(s1)  # the side of each edge's end: its successor vertex's
    s2[:, :-1] = s1[:, 1:]
    s2[:, -1] = s1[:, 0]
    out = np.ones(len(T), dtype=bool)

    def edge_terms(ti: np.ndarray, ei: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        # (edge faces x, T[ti] strictly beyond the edge's line) for edge ei of ring ti
        a, b = V[ti, ei], V[ti, (ei + 1) % n]
        fx, fy = b[:, 0] - a[:, 0], b[:, 1] - a[:, 1]
        tf = TOL * np.hypot(fx, fy)
        front = fy * (x[0] - a[:, 0]) - fx * (x[1] - a[:, 1]) > tf
        c = fx * a[:, 1] - fy * a[:, 0]
        return front, T[ti, 1] * fx - T[ti, 0] * fy - c > tf

    ti, ei = (s1 * s2 == -1).nonzero()
    if len(ti):
        front, beyond = edge_terms(ti, ei)
        out[ti[front & beyond]] = False
    safe = np.where(ld > 0, ld, 1.0)
    for sk, shift in ((s1, 0), (s2, 1)):
        ti, ei = (sk == 0).nonzero()
        if len(ti) == 0:
            continue
        front, _ = edge_terms(ti, ei)
        ti, ei = ti[front], ei[front]
        vi = (ei + shift) % n
        along = (d[ti, 0] * ux[ti, vi] + d[ti, 1] * uy[ti, vi]) / safe[ti]
        keep = (along > END) & (along < ld[ti] - END) & out[ti]
        ti, vi = ti[keep], vi[keep]
        if len(ti):
            enters = _wedge_enters(d[ti], V[ti, vi], V[ti, (vi - 1) % n], V[ti, (vi + 1) % n])
            out[ti[enters]] = False
    return out


def _side_table(T: np.ndarray, rings: _Rings) -> np.ndarray:
    """(len(T), E) whether each point lies strictly inside the half-plane of each edge (the
    ``s4`` of :func:`_sees`)."""
    if len(T) == 0 or len(rings) == 0:
        return np.zeros((len(T), len(rings)), dtype=bool)
    f, u = rings.f, rings.v
    c = f[:, 0] * u[:, 1] - f[:, 1] * u[:, 0]
    o4 = T[:, 1:2] * f[None, :, 0] - T[:, 0:1] * f[None, :, 1] - c[None, :]
    return o4 > TOL * rings.lf[None, :]


def _tangent(X: np.ndarray, v: np.ndarray, prv: np.ndarray, nxt: np.ndarray) -> np.ndarray:
    """Whether the line from each point X to corner v leaves both of v's neighbours on one side
    (only such segments can be part of a shortest path bending at v). Permissive within a
    small tolerance: an extra candidate costs time, a missing one would cost correctness."""
    return _tangent_u(X, v, _unit(prv - v), _unit(nxt - v))


def _tangent_u(X: np.ndarray, v: np.ndarray, up: np.ndarray, un: np.ndarray) -> np.ndarray:
    """:func:`_tangent` with the unit directions from v to its neighbours given (graphs keep
    them per corner, so the many-pair tests do not recompute them)."""
    d = v - X
    s1 = d[..., 0] * up[..., 1] - d[..., 1] * up[..., 0]
    s2 = d[..., 0] * un[..., 1] - d[..., 1] * un[..., 0]
    tol = 1e-9 * (np.abs(d[..., 0]) + np.abs(d[..., 1]))
    return ((s1 >= -tol) & (s2 >= -tol)) | ((s1 <= tol) & (s2 <= tol))


def _tangent_grid(X: np.ndarray, v: np.ndarray, up: np.ndarray, un: np.ndarray) -> np.ndarray:
    """(len(X), len(v)): :func:`_tangent_u` of every point of X with every corner v (the same
    arithmetic, broadcast instead of gathered pair by pair), in blocks of rows of about
    :data:`_GRID_BLOCK` elements (the temporaries stay in the cache: ~3x faster than one
    block at a few hundred by a few hundred)."""
    if jit.ENABLED:
        return _jm.tangent_grid(np.ascontiguousarray(X, dtype=float),
                                np.ascontiguousarray(v, dtype=float),
                                np.ascontiguousarray(up, dtype=float),
                                np.ascontiguousarray(un, dtype=float))
    rows = max(1, _GRID_BLOCK // max(len(v), 1))
    if len(X) <= rows:
        return _tangent_block(X, v, up, un)
    out = np.empty((len(X), len(v)), dtype=bool)
    for s in range(0, len(X), rows):
        out[s:s + rows] = _tangent_block(X[s:s + rows], v, up, un)
    return out


def _tangent_block(X: np.ndarray, v: np.ndarray, up: np.ndarray, un: np.ndarray) -> np.ndarray:
    """:func:`_tangent_grid` of one block of rows."""
    dx = v[None, :, 0] - X[:, None, 0]
    dy = v[None, :, 1] - X[:, None, 1]
    # the same operations on the same operands as _tangent_u, in place (fewer temporaries)
    s1 = dx * up[None, :, 1]
    t = dy * up[None, :, 0]
    s1 -= t
    s2 = np.multiply(dx, un[None, :, 1])
    np.multiply(dy, un[None, :, 0], out=t)
    s2 -= t
    tol = np.abs(dx, out=dx)
    tol += np.abs(dy, out=dy)
    tol *= 1e-9
    neg = np.negative(tol, out=dy)
    out = s1 >= neg
    out &= s2 >= neg
    low = s1 <= tol
    low &= s2 <= tol
    out |= low
    return out


def _floyd(n: int, i: np.ndarray, j: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """All-pairs shortest distances and successors (``nxt[i, j]``: the node after i towards j)."""
    D = np.full((n, n), np.inf)
    np.fill_diagonal(D, 0.0)
    np.minimum.at(D, (i, j), w)
    np.minimum.at(D, (j, i), w)
    nxt = np.tile(np.arange(n), (n, 1))
    for k in range(n):
        alt = D[:, k:k + 1] + D[k:k + 1, :]
        better = alt < D - 1e-12
        if better.any():
            D = np.where(better, alt, D)
            nxt = np.where(better, nxt[:, k:k + 1], nxt)
    return D, nxt


def _dijkstra(n: int, init: np.ndarray, src: np.ndarray, dst: np.ndarray, w: np.ndarray,
              limit: float = math.inf) -> tuple[np.ndarray, np.ndarray]:
    """Shortest distances from several sources (``init``: their starting distance, inf for
    none) over undirected edges; ``pred`` is -1 where the node is reached straight from the
    start. Nodes farther than ``limit`` are not expanded."""
    ends = np.concatenate([src, dst])
    order = np.argsort(ends, kind="stable")
    a = ends[order]
    if jit.ENABLED:
        return _jm.dijkstra(n, np.ascontiguousarray(init, dtype=float),
                            np.searchsorted(a, np.arange(n + 1)),
                            np.concatenate([dst, src])[order].astype(np.int64),
                            np.concatenate([w, w])[order].astype(float), float(limit))
    b = np.concatenate([dst, src])[order].tolist()
    ww = np.concatenate([w, w])[order].tolist()
    starts = np.searchsorted(a, np.arange(n + 1)).tolist()
    dist = [math.inf] * n
    pred = [-1] * n
    heap = []
    for k in np.isfinite(init).nonzero()[0].tolist():
        dist[k] = float(init[k])
        heap.append((dist[k], k))
    heapq.heapify(heap)
    done = [False] * n
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        dk, k = pop(heap)
        if done[k] or dk > dist[k]:
            continue
        done[k] = True
        if dk > limit:
            continue
        lo, hi = starts[k], starts[k + 1]
        for m, wm in zip(b[lo:hi], ww[lo:hi], strict=True):  # the edges in order, as before
            nd = dk + wm
            if nd < dist[m] - 1e-12:
                dist[m] = nd
                pred[m] = k
                push(heap, (nd, m))
    return np.array(dist), np.array(pred, dtype=int)


def _astar(adj: tuple[list[int], list[int], list[float]], src: dict[int, float],
           goal: dict[int, float], h: list[float], bound: float = math.inf
           ) -> tuple[float, list[int]] | None:
    """The cheapest route from a start linked to nodes ``src`` (node: cost) to a goal linked
    from nodes ``goal`` (node: cost) over the undirected graph ``adj`` (see
    :meth:`_Graph.adjacency`), cheaper than ``bound`` by more than 1e-12: (cost, the nodes in
    order), or None. ``h`` is a consistent lower bound of each node's cost to the goal (the
    straight distance), so the search stops as soon as no open node can beat the best."""
    starts, nb, ww = adj
    dist: dict[int, float] = {}
    pred: dict[int, int] = {}
    heap: list[tuple[float, float, int]] = []
    for k, w in src.items():
        dist[k] = w
        pred[k] = -1
        heap.append((w + h[k], w, k))
    heapq.heapify(heap)
    best, best_k = bound, -1
    inf = math.inf
    while heap:
        f, dk, k = heapq.heappop(heap)
        if dk > dist[k]:
            continue
        if f >= best:
            break
        gw = goal.get(k)
        if gw is not None and dk + gw < best - 1e-12:
            best, best_k = dk + gw, k
        for e in range(starts[k], starts[k + 1]):
            m = nb[e]
            nd = dk + ww[e]
            if nd < dist.get(m, inf) - 1e-12:
                dist[m] = nd
                pred[m] = k
                heapq.heappush(heap, (nd + h[m], nd, m))
    if best_k < 0:
        return None
    chain = [best_k]
    while pred[chain[-1]] >= 0:
        chain.append(pred[chain[-1]])
    chain.reverse()
    return best, chain


# -- soft terrain: movement surcharges -------------------------------------------------------------
@dataclass
class _Soft:
    """Footprints that cost extra movement to enter (accessible, obstructing)."""

    polys: list[Polygon]
    amounts: list[float]
    rings: list[_Rings]
    exits: list[float] = field(default_factory=list)  # paid on leaving (dropping), per poly
    obstructing: list[bool] = field(default_factory=list)  # razor wire's reach, per poly
    ev: np.ndarray = field(init=False, repr=False)  # every footprint's edges, start
    en: np.ndarray = field(init=False, repr=False)  # and end
    owner: np.ndarray = field(init=False, repr=False)  # the footprint of each edge
    box: np.ndarray = field(init=False, repr=False)  # (4,) bounds of all footprints

    def __post_init__(self) -> None:
        self.exits = self.exits or [0.0] * len(self.polys)
        self.obstructing = self.obstructing or [False] * len(self.polys)
        parts = [r for r in self.rings if len(r)]
        if parts:
            self.ev = np.concatenate([r.v for r in self.rings])
            self.en = np.concatenate([r.nxt for r in self.rings])
            self.owner = np.repeat(np.arange(len(self.rings)), [len(r) for r in self.rings])
            self.box = np.r_[self.ev.min(axis=0), self.ev.max(axis=0)]
        else:
            self.ev = self.en = np.zeros((0, 2))
            self.owner = np.zeros(0, dtype=int)
            self.box = np.zeros(4)

    @staticmethod
    def of(board: Board, radius: float = 0.0) -> _Soft:
        """The surcharged footprints for a base of ``radius``: an accessible feature as drawn
        (its centre enters it), an obstructing one grown by :data:`OBSTRUCTING_REACH` plus the
        radius (001 Razor Wire: "Any move within 1" of this terrain costs additional 2"":
        the base's edge within 1" of it), and a ``vantage`` feature with a ``height`` climbed
        onto and dropped from (:func:`climb_cost`, :func:`drop_cost`) instead of its
        accessible 1"."""
        polys: list[Polygon] = []
        amounts: list[float] = []
        exits: list[float] = []
        obstructing: list[bool] = []
        for f in board.features:
            t = f.effective_traits
            height = float(f.height or 0.0) if ("vantage" in t and not f.is_line) else 0.0
            entry = climb_cost(height) if height > 0 else (
                ACCESSIBLE_COST if "accessible" in t else 0.0)
            for amount, leave, grow, wire in (
                    (entry, drop_cost(height), 0.0, False),
                    (OBSTRUCTING_COST if "obstructing" in t else 0.0, 0.0,
                     OBSTRUCTING_REACH + radius, True)):
                if amount <= 0 and leave <= 0:
                    continue
                area = shapes.feature_area(f)
                if grow > 0:
                    area = area.buffer(grow, DISC_SEGMENTS)
                for poly in shapes.polygons_of(area):
                    polys.append(poly)
                    amounts.append(amount)
                    exits.append(leave)
                    obstructing.append(wire)
        return _Soft(polys, amounts, [_Rings.of([p]) for p in polys], exits, obstructing)

    def start_cost(self, a: Point2) -> float:
        """The obstructing surcharge a move starting at ``a`` pays at once: it starts within
        reach of the razor wire, so the move is "within 1"" of it whatever its path."""
        if not self.polys:
            return 0.0
        return float(sum(amount for poly, amount, wire in zip(self.polys, self.amounts,
                                                              self.obstructing, strict=True)
                         if wire and poly.covers(shapely.Point(a))))

    def __bool__(self) -> bool:
        return bool(self.polys)

    def cost(self, P: np.ndarray, Q: np.ndarray) -> np.ndarray:
        """(S,) the surcharge for walking each segment ``P->Q``."""
        total = np.zeros(len(P))
        if len(P) == 0 or len(self.ev) == 0:
            return total
        # a segment that crosses no edge of a footprint pays nothing for it: test all the
        # footprints' edges at once, then count the crossings per (segment, footprint)
        lo, hi = np.minimum(P, Q), np.maximum(P, Q)
        x0, y0, x1, y1 = self.box
        active = ((hi[:, 0] >= x0 - TOL) & (lo[:, 0] <= x1 + TOL)
                  & (hi[:, 1] >= y0 - TOL) & (lo[:, 1] <= y1 + TOL))
        si, ei, _ = _crossings(P, Q, self.ev, self.en, active)
        if len(si) == 0:
            return total
        n = len(self.polys)
        keys, k = np.unique(si * n + self.owner[ei], return_counts=True)
        seg, pid = np.divmod(keys, n)
        amounts = np.asarray(self.amounts, dtype=float)
        leaving = np.asarray(self.exits, dtype=float)
        out = np.zeros(len(keys), dtype=int)
        for j in np.unique(pid).tolist():
            sel = pid == j
            inside = shapely.contains_xy(self.polys[j], P[seg[sel], 0], P[seg[sel], 1])
            out[sel] = (k[sel] + np.where(inside, 0, 1)) // 2
        np.add.at(total, seg, out * amounts[pid] + (k - out) * leaving[pid])
        return total

    def entries(self, a: Point2, b: Point2) -> list[tuple[float, float]]:
        """(fraction along ``a->b``, surcharge) for each entry into a feature, in order."""
        P, Q = np.array([a], float), np.array([b], float)
        out = []
        for poly, amount, leave, rings in zip(self.polys, self.amounts, self.exits, self.rings,
                                              strict=True):
            _, _, t = _crossings(P, Q, rings.v, rings.nxt)
            inside = bool(shapely.contains_xy(poly, a[0], a[1]))
            for k, tk in enumerate(np.sort(t)):
                if (k % 2 == 0) != inside:
                    if amount > 0:
                        out.append((float(tk), amount))
                elif leave > 0:
                    out.append((float(tk), leave))
        return sorted(out)


def climb_cost(height: float) -> float:
    """Climbing onto terrain ``height`` inches tall (001 "MINIMUM climb cost of 2". Measure
    vertical distance, rounding UP to nearest 1", and subtract from Move stat.")."""
    return float(max(MIN_CLIMB, math.ceil(height - 1e-9))) if height > 0 else 0.0


def drop_cost(height: float) -> float:
    """Dropping from terrain ``height`` inches tall (001 "When dropping, or jumping off,
    Ignore 2" vertical drop PER activation"): the vertical distance rounded up as for
    climbing, less the 2" ignored (every drop is read as the activation's first)."""
    return float(max(0, math.ceil(height - 1e-9) - DROP_IGNORED)) if height > 0 else 0.0


# -- a visibility graph -----------------------------------------------------------------------
@dataclass
class _Graph:
    """Obstacles (as rings), the free box, graph corners and the tangent visible pairs."""

    rings: _Rings  # hard obstacle vertices/edges
    box: tuple[float, float, float, float]
    pos: np.ndarray  # (N, 2) nudged corners
    real: np.ndarray  # (N, 2) the corners themselves
    prv: np.ndarray
    nxt: np.ndarray
    pi: np.ndarray  # visible pairs
    pj: np.ndarray
    pw: np.ndarray  # their cost
    soft: _Soft
    active: np.ndarray | None = None  # the corners in use (None: all)
    s4: np.ndarray | None = None  # _side_table of the corners (measuring graph only)
    discs: _Discs | None = None  # other bases, kept apart from ``rings`` (walking graphs)
    up: np.ndarray = field(init=False, repr=False)  # unit directions corner -> prv
    un: np.ndarray = field(init=False, repr=False)  # unit directions corner -> nxt
    units: InitVar[tuple[np.ndarray, np.ndarray] | None] = None  # (up, un) when known
    _adj: tuple[list[int], list[int], list[float]] | None = field(default=None, init=False,
                                                                   repr=False)

    def __post_init__(self, units: tuple[np.ndarray, np.ndarray] | None) -> None:
        # with_discs gives them (each row is its own corner's, computed once per walker)
        if units is None:
            self.up = _unit(self.prv - self.real)
            self.un = _unit(self.nxt - self.real)
        else:
            self.up, self.un = units

    def adjacency(self) -> tuple[list[int], list[int], list[float]]:
        """The visible pairs as adjacency lists (row starts, neighbours, costs), built once."""
        if self._adj is None:
            n = len(self.pos)
            a = np.concatenate([self.pi, self.pj])
            order = np.argsort(a, kind="stable")
            b = np.concatenate([self.pj, self.pi])[order].tolist()
            ww = np.concatenate([self.pw, self.pw])[order].tolist()
            starts = np.searchsorted(a[order], np.arange(n + 1)).tolist()
            self._adj = (starts, b, ww)
        return self._adj

    def blocked(self, P: np.ndarray, Q: np.ndarray) -> np.ndarray:
        """:func:`_blocked` against the obstacles and the bases: the same answer as against
        their joined rings (a segment is blocked by one edge or vertex at a time), but a base's
        edges are only tested by the segments that pass near it."""
        out = _blocked(P, Q, self.rings)
        discs = self.discs
        if discs is not None and len(discs) and len(P):
            live = (~out).nonzero()[0]
            if len(live):
                out[live[discs.blocks(P[live], Q[live])]] = True
        return out

    def sees(self, x: np.ndarray, T: np.ndarray, s4: np.ndarray | None = None) -> np.ndarray:
        """:func:`_sees` against the obstacles and the bases (see :meth:`blocked`)."""
        ok = _sees(x, T, self.rings, s4)
        discs = self.discs
        if discs is not None and len(discs) and len(T):
            live = ok.nonzero()[0]
            if len(live):
                ok[live[discs.hides(x, T[live])]] = False
        return ok

    def in_box(self, X: np.ndarray, tol: float = EPS) -> np.ndarray:
        x0, y0, x1, y1 = self.box
        return ((X[:, 0] >= x0 - tol) & (X[:, 0] <= x1 + tol)
                & (X[:, 1] >= y0 - tol) & (X[:, 1] <= y1 + tol))

    def weight(self, P: np.ndarray, Q: np.ndarray) -> np.ndarray:
        w = np.hypot(Q[:, 0] - P[:, 0], Q[:, 1] - P[:, 1])
        return w + self.soft.cost(P, Q) if self.soft else w

    def links(self, X: np.ndarray, nodes: np.ndarray | None = None,
              bound: np.ndarray | None = None, base: np.ndarray | None = None,
              batch: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Visible tangent links from points X to graph corners: (point, node, cost).
        ``nodes`` restricts the corners; with ``bound`` (per point) and ``base`` (per node),
        links with ``base[node] + |X - corner| > bound[point]`` are dropped. One point is
        tested by :meth:`sees`, several (or one with ``batch``) by :meth:`blocked`; each
        point's links are the same whatever other points come with it."""
        if len(X) == 0 or len(self.pos) == 0 or (nodes is not None and len(nodes) == 0):
            return np.zeros(0, int), np.zeros(0, int), np.zeros(0)
        if len(X) == 1 and bound is None and not batch:
            x = X[0]
            if nodes is None:
                real, up, un, pos = self.real, self.up, self.un, self.pos
                nj = np.arange(len(pos))
            else:
                real, up, un = self.real[nodes], self.up[nodes], self.un[nodes]
                pos, nj = self.pos[nodes], nodes
            keep = _tangent_u(x, real, up, un).nonzero()[0]
            s4 = None
            if self.s4 is not None:
                s4 = self.s4[nj[keep]]
            ok = keep[self.sees(x, pos[keep], s4)]
            nj = nj[ok]
            w = np.hypot(pos[ok, 0] - x[0], pos[ok, 1] - x[1])
            if self.soft:
                w = w + self.soft.cost(np.repeat(x[None, :], len(ok), axis=0), pos[ok])
            return np.zeros(len(nj), dtype=int), nj, w
        nodes = np.arange(len(self.pos)) if nodes is None else nodes
        xi, k = _tangent_grid(X, self.real[nodes], self.up[nodes], self.un[nodes]).nonzero()
        nj = nodes[k]
        if bound is not None and base is not None:
            d = np.hypot(*(X[xi] - self.pos[nj]).T)
            keep = base[nj] + d <= bound[xi] + 1e-9
            xi, nj = xi[keep], nj[keep]
        ok = ~self.blocked(X[xi], self.pos[nj])
        xi, nj = xi[ok], nj[ok]
        return xi, nj, self.weight(X[xi], self.pos[nj])

    def pairs_among(self, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray,
                                                                np.ndarray]:
        """Visible bitangent pairs between node sets a and b (i < j when the sets overlap)."""
        m = _tangent_grid(self.real[a], self.real[b], self.up[b], self.un[b])
        m &= a[:, None] != b[None, :]
        i, j = m.nonzero()
        ai, bj = a[i], b[j]
        keep = _tangent_u(self.real[bj], self.real[ai], self.up[ai], self.un[ai])
        ai, bj = ai[keep], bj[keep]
        ok = ~self.blocked(self.pos[ai], self.pos[bj])
        ai, bj = ai[ok], bj[ok]
        return ai, bj, self.weight(self.pos[ai], self.pos[bj])


    def pairs_new(self, nodes: np.ndarray, new: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``pairs_among(new, others)`` with ``others = [nodes, new]`` (``nodes`` below
        ``new[0]``, ``new`` ascending), keeping the pairs with a node of ``nodes`` or ``i < j``
        -- what :meth:`_Walker.with_discs` adds. The same pairs in the same order, found with
        less work: among ``new`` the reverse tangent test is the grid's transpose, and the
        pairs ``i > j`` are dropped before the wall and base tests (each segment's answer and
        cost are its own)."""
        a = new
        others = np.concatenate([nodes, new])
        ns = len(nodes)
        if jit.ENABLED:  # pair by pair, in the same order
            rings = self.rings
            p, q = _jm.pairs_new(a, others, ns, self.real, self.up, self.un, self.pos, rings.v,
                                 rings.prv, rings.nxt, rings.f, rings.lf,
                                 *_disc_arrays(self.discs), TOL, END)
            ai, bj = a[p], others[q]
            return ai, bj, self.weight(self.pos[ai], self.pos[bj])
        m = _tangent_grid(self.real[a], self.real[others], self.up[others], self.un[others])
        block = m[:, ns:]
        np.logical_and(block, block.T, out=block)  # both ways tangent (a square block)
        block &= np.triu(np.ones(block.shape, dtype=bool), 1)  # i < j (and i != j)
        i, j = m.nonzero()
        ai, bj = a[i], others[j]
        static = j < ns
        if static.any():
            k = static.nonzero()[0]
            keep = np.ones(len(ai), dtype=bool)
            keep[k] = _tangent_u(self.real[bj[k]], self.real[ai[k]], self.up[ai[k]],
                                 self.un[ai[k]])
            ai, bj = ai[keep], bj[keep]
        ok = ~self.blocked(self.pos[ai], self.pos[bj])
        ai, bj = ai[ok], bj[ok]
        return ai, bj, self.weight(self.pos[ai], self.pos[bj])


def _build_graph(polys: list[Polygon], inside: Callable[[np.ndarray], np.ndarray],
                 frame: tuple[float, float, float, float], soft: _Soft) -> _Graph:
    """The reduced visibility graph of ``polys`` (hard) and ``soft`` footprints within the box
    ``frame``; ``inside(X)`` says which points are inside a hard obstacle."""
    rings = _Rings.of(polys)
    parts = [rings, *soft.rings] if soft else [rings]
    corner_rings = _Rings.join(*parts) if len(parts) > 1 else rings
    convex, nudged = corner_rings.corners()
    pos, real = nudged[convex], corner_rings.v[convex]
    prv, nxt = corner_rings.prv[convex], corner_rings.nxt[convex]
    x0, y0, x1, y1 = frame
    keep = ((pos[:, 0] >= x0) & (pos[:, 0] <= x1) & (pos[:, 1] >= y0) & (pos[:, 1] <= y1)
            & ~inside(pos))
    pos, real, prv, nxt = pos[keep], real[keep], prv[keep], nxt[keep]
    # drop duplicates (soft corners on hard ones)
    _, first = np.unique(np.round(pos, 12), axis=0, return_index=True)
    first = np.sort(first)
    g = _Graph(rings, frame, pos[first], real[first], prv[first], nxt[first],
               np.zeros(0, int), np.zeros(0, int), np.zeros(0), soft)
    n = np.arange(len(g.pos))
    ai, bj, w = g.pairs_among(n, n)
    half = ai < bj
    g.pi, g.pj, g.pw = ai[half], bj[half], w[half]
    return g


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


def _inradii(C: np.ndarray, V: np.ndarray, E: np.ndarray) -> np.ndarray:
    """(k,) how deep each centre ``C[i]`` is inside its polygon ``V[i]`` (unit edges ``E[i]``):
    :meth:`_Discs.pair_depth` of the centres, row by row the same arithmetic."""
    rel = C[:, None, :] - V
    return (E[..., 0] * rel[..., 1] - E[..., 1] * rel[..., 0]).min(axis=1)


@dataclass
class _Discs:
    """Other models' bases grown by the walker's radius, as the oracle draws them."""

    polys: list[Polygon]
    verts: np.ndarray  # (k, 32, 2) counter-clockwise
    centres: np.ndarray
    radii: np.ndarray
    _ring: dict[int, _Rings] = field(default_factory=dict, repr=False)
    edges: np.ndarray | None = field(default=None, repr=False)  # (k, 32, 2) unit edge vectors
    _inner: np.ndarray | None = field(default=None, repr=False)  # each polygon's inradius
    _box: tuple[np.ndarray, ...] | None = field(default=None, repr=False)  # _passing's boxes

    def __post_init__(self) -> None:
        if self.edges is None:
            self.edges = _unit(np.roll(self.verts, -1, axis=1) - self.verts)

    @staticmethod
    def of(blockers: Sequence[Any], radius: float) -> _Discs:
        arr = np.asarray([tuple(b)[:3] for b in blockers], dtype=float).reshape(-1, 3)
        if len(arr) == 0:
            return _Discs([], np.zeros((0, 32, 2)), np.zeros((0, 2)), np.zeros(0))
        geoms = shapely.buffer(shapely.points(arr[:, :2]), arr[:, 2] + radius,
                               quad_segs=DISC_SEGMENTS)
        polys = [orient(p, 1.0) for p in geoms]
        verts = np.stack([np.asarray(p.exterior.coords)[:-1, :2] for p in polys])
        return _Discs(polys, verts, arr[:, :2], arr[:, 2] + radius)

    def __len__(self) -> int:
        return len(self.polys)

    def subset(self, keep: Any) -> _Discs:
        """The discs selected by ``keep`` (a mask or indices)."""
        idx = np.arange(len(self))[keep]
        assert self.edges is not None
        return _Discs([self.polys[k] for k in idx], self.verts[idx], self.centres[idx],
                      self.radii[idx], edges=self.edges[idx],
                      _inner=None if self._inner is None else self._inner[idx])

    def near(self, X: np.ndarray, pad: float = 1e-6) -> tuple[np.ndarray, np.ndarray]:
        """(point, disc) index pairs where the point is within a disc's circle (+ ``pad``);
        each polygon lies inside its circle, so every other point is outside it."""
        if len(self) == 0 or len(X) == 0:
            return np.zeros(0, int), np.zeros(0, int)
        if jit.ENABLED:
            found: tuple[np.ndarray, np.ndarray] = _jm.near(X, self.centres, self.radii, pad)
            return found
        dx = X[:, None, 0] - self.centres[None, :, 0]
        dy = X[:, None, 1] - self.centres[None, :, 1]
        xi, ki = (dx * dx + dy * dy < (self.radii[None, :] + pad) ** 2).nonzero()
        return xi, ki

    def pair_depth(self, X: np.ndarray, xi: np.ndarray, ki: np.ndarray) -> np.ndarray:
        """(m,) how deep point ``X[xi]`` is inside disc polygon ``ki`` (<= 0: outside)."""
        assert self.edges is not None
        if jit.ENABLED and len(xi):
            return _jm.pair_depth(np.ascontiguousarray(X, dtype=float), xi, ki, self.verts,
                                  self.edges)
        a = self.verts[ki]  # (m, 32, 2)
        e = self.edges[ki]  # each disc's own, the same per row as computed pair by pair
        rel = X[xi, None, :] - a
        return (e[..., 0] * rel[..., 1] - e[..., 1] * rel[..., 0]).min(axis=1)

    def depth(self, X: np.ndarray) -> np.ndarray:
        """(n,) how deep each point is inside the deepest disc polygon (<= 0: outside all;
        points outside every disc's circle get -inf)."""
        out = np.full(len(X), -np.inf)
        xi, ki = self.near(X)
        if len(xi):
            np.maximum.at(out, xi, self.pair_depth(X, xi, ki))
        return out

    def clear_of(self, X: np.ndarray, tol: float = 0.0) -> np.ndarray:
        """(n,) ``depth(X) <= tol`` (no disc polygon holds the point deeper than ``tol``).

        A point nearer a disc's centre than the polygon's inradius (its centre's depth) by
        more than ``tol`` + 1e-6 is deeper than ``tol`` whatever the edges' rounding (each
        edge line is at least inradius - distance away), so only the others need the edges."""
        out = np.ones(len(X), dtype=bool)
        if jit.ENABLED and len(self) and len(X):
            if self._inner is None:
                k = np.arange(len(self))
                self._inner = self.pair_depth(self.centres, k, k)
            assert self.edges is not None
            found: np.ndarray = _jm.clear_of(np.ascontiguousarray(X, dtype=float),
                                             np.ascontiguousarray(self.centres), self.radii,
                                             self._inner, self.verts, self.edges, float(tol))
            return found
        xi, ki = self.near(X)
        if len(xi) == 0:
            return out
        if self._inner is None:
            k = np.arange(len(self))
            self._inner = self.pair_depth(self.centres, k, k)
        rho = np.hypot(X[xi, 0] - self.centres[ki, 0], X[xi, 1] - self.centres[ki, 1])
        deep = rho < self._inner[ki] - (tol + 1e-6)
        out[xi[deep]] = False
        xi, ki = xi[~deep], ki[~deep]
        if len(xi):
            out[xi[self.pair_depth(X, xi, ki) > tol]] = False
        return out

    def rings(self) -> _Rings:
        """Every disc polygon as rings (counter-clockwise, inside on the left)."""
        return _Rings(self.verts.reshape(-1, 2), np.roll(self.verts, 1, axis=1).reshape(-1, 2),
                      np.roll(self.verts, -1, axis=1).reshape(-1, 2))

    def ring(self, k: int) -> _Rings:
        """Disc polygon ``k`` as rings (what ``subset([k]).rings()`` gives), built once."""
        r = self._ring.get(k)
        if r is None:
            v = self.verts[k]
            r = self._ring[k] = _Rings(v, np.roll(v, 1, axis=0), np.roll(v, -1, axis=0))
        return r

    def _boxes(self) -> tuple[np.ndarray, ...]:
        """Each disc's box grown by 1e-5 more than its radius (x1, x0, y1, y0), once: the same
        sums as computed in the test each time."""
        box = self._box
        if box is None:
            c = self.centres
            grow = self.radii + 1e-5
            box = self._box = (c[:, 0] + grow, c[:, 0] - grow, c[:, 1] + grow, c[:, 1] - grow)
        return box

    def _passing(self, P: np.ndarray, Q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(segment, disc) pairs where segment ``P->Q`` comes within a disc's circle (+1e-6);
        each polygon lies inside its circle, so no other segment can touch it."""
        # only the pairs whose boxes meet (each disc's grown by 1e-5 more) can be that close:
        # the gap is then computed for them alone, pair by pair as for all of them at once
        lo, hi = np.minimum(P, Q), np.maximum(P, Q)
        c = self.centres
        x1, x0, y1, y0 = self._boxes()
        m = lo[:, None, 0] <= x1
        m &= hi[:, None, 0] >= x0
        m &= lo[:, None, 1] <= y1
        m &= hi[:, None, 1] >= y0
        si, ki = m.nonzero()
        if len(si) == 0:
            return si, ki
        d = Q - P
        ld2 = np.maximum((d * d).sum(axis=1), 1e-300)
        dk = d[si]
        rel = c[ki] - P[si]
        t = np.clip((rel * dk).sum(axis=1) / ld2[si], 0.0, 1.0)
        gap = np.hypot(rel[:, 0] - dk[:, 0] * t, rel[:, 1] - dk[:, 1] * t)
        keep = gap < self.radii[ki] + 1e-6
        return si[keep], ki[keep]

    def blocks(self, P: np.ndarray, Q: np.ndarray) -> np.ndarray:
        """(S,) whether segment ``P->Q`` goes into any disc polygon (:func:`_blocked` against
        all of them, testing each disc's edges only with the segments passing near it)."""
        out = np.zeros(len(P), dtype=bool)
        if len(self) == 0 or len(P) == 0:
            return out
        if jit.ENABLED:
            x1, x0, y1, y0 = self._boxes()
            return _jm.passing_blocked(np.ascontiguousarray(P, dtype=float),
                                       np.ascontiguousarray(Q, dtype=float),
                                       np.ascontiguousarray(self.centres),
                                       self.radii, x1, x0, y1, y0, self.verts, TOL, END)
        si, ki = self._passing(P, Q)
        if len(si):
            out[si[_blocked_rows(P[si], Q[si], self.verts[ki])]] = True
        return out

    def hides(self, x: np.ndarray, T: np.ndarray) -> np.ndarray:
        """(len(T),) whether a disc polygon hides ``T`` from ``x`` (:func:`_sees` negated,
        disc by disc as :meth:`blocks`)."""
        out = np.zeros(len(T), dtype=bool)
        if len(self) == 0 or len(T) == 0:
            return out
        si, ki = self._passing(np.repeat(x[None, :], len(T), axis=0), T)
        if len(si):
            out[si[~_sees_rows(x, T[si], self.verts[ki])]] = True
        return out

    def cutting(self, P: np.ndarray, Q: np.ndarray) -> np.ndarray:
        """(m, 2) (segment, disc) pairs where segment ``P->Q`` goes into the disc polygon
        (:func:`_blocked` against that disc alone)."""
        if len(self) == 0 or len(P) == 0:
            return np.zeros((0, 2), dtype=int)
        d = Q - P
        ld2 = np.maximum((d * d).sum(axis=1), 1e-300)
        rel = self.centres[None, :, :] - P[:, None, :]  # (S, k, 2)
        t = np.clip((rel * d[:, None, :]).sum(axis=2) / ld2[:, None], 0.0, 1.0)
        gap = np.hypot(rel[..., 0] - d[:, None, 0] * t, rel[..., 1] - d[:, None, 1] * t)
        si, ki = (gap < self.radii[None, :] + 1e-6).nonzero()
        out: list[tuple[int, int]] = []
        for k in np.unique(ki).tolist():
            sel = si[ki == k]
            cut = _blocked(P[sel], Q[sel], self.subset([k]).rings())
            out.extend((int(x), k) for x in sel[cut])
        return np.array(out, dtype=int).reshape(-1, 2)


class _Walker:
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
        self._taken: dict[bytes, _Rings] = {}
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
            if len(self._grids) >= _MEMO_LIMIT // 64:
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

    def _take(self, mask: np.ndarray) -> _Rings:
        """``graph.rings.take(mask)``, remembered per set of rings taken (moves near the same
        walls take the same ones)."""
        rings = self.graph.rings
        which = np.unique(rings.ring[mask])
        key = which.tobytes()
        got = self._taken.get(key)
        if got is None:
            if len(self._taken) >= _MEMO_LIMIT // 16:
                self._taken.clear()
            keep = np.isin(rings.ring, which)
            got = self._taken[key] = _Rings(rings.v[keep], rings.prv[keep], rings.nxt[keep])
        return got

    def _disc_corners(self, discs: _Discs) -> tuple[np.ndarray, ...]:
        """The graph corners of the disc polygons, disc by disc in order (what
        ``discs.rings().corners()`` selects, row for row: every quantity is computed per
        vertex from the vertex and its neighbours): (nudged, real, prv, nxt, unit directions
        to prv and nxt, whether the nudged corner is in the box and outside the static
        obstacles). Each disc's rows are remembered by its exact centre and grown radius."""
        memo = self._corners
        keys = list(zip(discs.centres[:, 0].tolist(), discs.centres[:, 1].tolist(),
                        discs.radii.tolist(), strict=True))
        miss = [k for k, key in enumerate(keys) if key not in memo]
        if miss:
            if len(memo) + len(miss) > _MEMO_LIMIT:
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
                table, convex = _jm.disc_corner_table(np.ascontiguousarray(V, dtype=float),
                                                      NUDGE)
                nudged = table[:, 0:2]
            else:
                v = V.reshape(-1, 2)
                prv_all = np.roll(V, 1, axis=1).reshape(-1, 2)
                nxt_all = np.roll(V, -1, axis=1).reshape(-1, 2)
                convex, nudged = _Rings(v, prv_all, nxt_all).corners()
                up_all, un_all = _unit(prv_all - v), _unit(nxt_all - v)
                table = np.concatenate([nudged, v, prv_all, nxt_all, up_all, un_all], axis=1)
            free_all = self.graph.in_box(nudged, 0.0) & ~self.inside(nudged)
            for j, k in enumerate(miss):
                rows = slice(j * n, (j + 1) * n)
                c = convex[rows]
                memo[keys[k]] = (table[rows][c], free_all[rows][c])
        parts = [memo[key] for key in keys]
        table = np.concatenate([p[0] for p in parts])
        free = np.concatenate([p[1] for p in parts])
        return (*(table[:, i:i + 2] for i in range(0, 12, 2)), free)

    def with_discs(self, discs: _Discs, centre: Point2 | None = None,
                   reach: float = math.inf,
                   within: Callable[[np.ndarray], np.ndarray] | None = None) -> _Graph:
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
            sub = _Graph(rings, g.box, g.pos, g.real, g.prv, g.nxt, pi, pj, pw, g.soft,
                         units=(g.up, g.un))
            sub.active = nodes
            return sub
        # bases: drop corners inside them, add theirs, drop pairs they cut
        dpos, dreal, dprv, dnxt, dup, dun, free = self._disc_corners(discs)
        # one clear_of for the static and the bases' corners (each point's answer is its own)
        clear = discs.clear_of(np.concatenate([g.pos[nodes], dpos]))
        nodes = nodes[clear[:len(nodes)]]
        dkeep = free & clear[len(clear) - len(dpos):]
        if centre is not None and math.isfinite(reach):
            dkeep &= np.hypot(*(dpos - np.asarray(centre, float)).T) <= reach + 1e-9
            if within is not None:
                dkeep &= within(dpos)
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
        pi, pj, pw = g.pi[pair], g.pj[pair], g.pw[pair]
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
            pi, pj, pw = pi[keep], pj[keep], pw[keep]
        sub = _Graph(rings, g.box, pos, real, prv, nxt, pi, pj, pw, g.soft, discs=discs,
                     units=(up, un))
        new = np.arange(n0, len(pos))
        others = np.concatenate([nodes, new])
        ai, bj, w = sub.pairs_new(nodes, new)
        sub.pi = np.concatenate([pi, ai])
        sub.pj = np.concatenate([pj, bj])
        sub.pw = np.concatenate([pw, w])
        sub.active = others
        return sub


class _PairQuery:
    """The measuring graph precomputed for fast single queries between two points.

    Every per-query quantity that is bilinear in the query point is split into a static table
    and a cheap per-query term: ``cross(T - x, U - x) = cross(T, U) - cross(T, x) - cross(x, U)``
    for corners T and obstacle vertices U, so one query is a few dense array operations."""

    def __init__(self, g: _Graph, D: np.ndarray, nxt: np.ndarray) -> None:
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
        self.front_tol = TOL * r.lf
        self.neg_front_tol = -self.front_tol
        # per point: its row of ``X @ M + c`` and, once needed, the corners it sees with their
        # distances. A row does not depend on the other point of the product (one element is
        # one point's dot product), so a remembered row is the float the query would compute.
        self._points: dict[Point2, list[Any]] = {}
        # the corners as Python floats, for the route points (``float(real[k, 0])`` each time)
        self.real_xy: list[list[float]] = g.real.tolist()

    def _point_rows(self, a: Point2, b: Point2
                    ) -> tuple[list[Any], list[Any], np.ndarray | None]:
        """The remembered records ``[row, seen, inside, front, behind]`` of both points (the
        last four None until first needed: ``seen`` by :meth:`_seen`, ``inside`` by
        :meth:`Routes.distance`, ``front``/``behind`` -- the edges the point faces / is
        strictly behind -- by :meth:`query` as the start / the end of a pair), computing the
        rows as the query always has: one ``(2, 2)`` product for the pair. Bounded: emptied
        when :data:`_POINT_LIMIT` points are kept. The product is returned too when both
        records are new."""
        memo = self._points
        ra, rb = memo.get(a), memo.get(b)
        if ra is not None and rb is not None:
            return ra, rb, None
        Y = np.array([a, b]) @ self.M + self.c
        if len(memo) >= _POINT_LIMIT:
            memo.clear()
        both = ra is None and rb is None
        if ra is None:
            ra = [Y[0], None, None, None, None]
            memo[a] = ra
        if rb is None:
            rb = [Y[1], None, None, None, None]
            memo[b] = rb
        return ra, rb, Y if both else None

    def _seen(self, recs: list[list[Any]], pts: list[Point2], Y: np.ndarray | None = None
              ) -> None:
        """Fill ``seen`` of the records (points ``pts``): the tangent corners each point sees
        (ascending) and their straight distances, the rows of all of them tested at once with
        the arithmetic of the dense query, row by row (``Y``: their rows stacked, if at hand).
        """
        n, (k1, k2, k3) = self.n, self.cuts
        r = self.g.rings
        if Y is None:
            Y = np.stack([rec[0] for rec in recs]) if len(recs) > 1 else recs[0][0][None, :]
        if jit.ENABLED:
            tt, dn, cut, touch = _jd.seen(Y, np.array(pts), n, k1, k2, self.C, self.s4, r.succ,
                                          self.g.pos, self.front_tol, TOL)
            if not touch:  # else a vertex on a seen corner's line: the numpy code settles it
                if len(recs) == 1:
                    recs[0][1] = [tt, None, dn, None]
                else:
                    recs[0][1] = [tt[:cut], None, dn[:cut], None]
                    recs[1][1] = [tt[cut:], None, dn[cut:], None]
                return
        kk, tt = (Y[:, :n] * Y[:, n:2 * n] >= -1e-12).nonzero()
        dn = np.zeros(0)
        if len(kk):
            X = np.array(pts)
            o1 = self.C[tt]  # minus the rest in place: cross(T - x, U - x), the same floats
            o1 -= Y[kk, k3 + tt][:, None]
            o1 -= Y[kk, k2:k3]
            Xr, Tr = X[kk], self.g.pos[tt]
            dd = Tr - Xr
            dn = np.hypot(dd[:, 0], dd[:, 1])
            tl2 = (TOL * (dn + 10.0))[:, None]
            s1 = (o1 > tl2).view(np.int8) - (o1 < -tl2).view(np.int8)
            s2 = s1[:, r.succ]
            front = Y[:, k1:k2] > self.front_tol
            hit = (s1 * s2 == -1) & self.s4[tt] & front[kk]
            seen = ~np.logical_or.reduce(hit, axis=1)  # hit.any(axis=1) without its wrapper
            if np.count_nonzero(s1) < s1.size:  # a vertex on a row's line
                on = s1 == 0
                on &= seen[:, None]
                if on.any():
                    seen &= ~self._touch_rows(Xr, Tr, on)
            kk, tt, dn = kk[seen], tt[seen], dn[seen]
        # [corners, distances as a column and as a row, their rows of D (when first needed);
        # the compiled path leaves the column to be made when the numpy path needs it]
        if len(recs) == 1:
            recs[0][1] = [tt, dn[:, None], dn, None]
            return
        cut = int(kk.searchsorted(1))
        recs[0][1] = [tt[:cut], dn[:cut, None], dn[:cut], None]
        recs[1][1] = [tt[cut:], dn[cut:, None], dn[cut:], None]

    def query(self, a: Point2, b: Point2,
              rows: tuple[list[Any], list[Any], np.ndarray | None] | None = None
              ) -> tuple[float, list[int]] | None:
        """The centre-to-centre shortest route: (length, corners used; empty when a sees b),
        or None when there is none. Both points must be on the board and outside walls.

        The per-point part (the point's row of the product, the corners it sees) is
        remembered per point; the answer is the dense computation's float and corners: the
        best pair is taken among the corners seen in the dense argmin's order (row-major over
        ascending corners, the first of equal totals). ``rows``: :meth:`_point_rows` of the
        pair when the caller has it."""
        ra, rb, Y = self._point_rows(a, b) if rows is None else rows
        ya, yb = ra[0], rb[0]
        r = self.g.rings
        k1, k2, k3 = self.cuts
        # a to b directly: the edges facing a that b is beyond
        dab = math.dist(a, b)
        tl = TOL * (dab + 10.0)
        if jit.ENABLED:
            state = _jd.direct(ya, yb, k1, k2, k3, b[0] * a[1] - b[1] * a[0], tl, r.succ,
                               self.front_tol)
            if state == _jd.CLEAR or (state == _jd.ON_VERTEX
                                      and self._straight(ra, rb, a, b, tl)):
                return dab, []
        elif self._straight(ra, rb, a, b, tl):
            return dab, []
        if self.n == 0:
            return None
        if ra[1] is None and rb[1] is None and ra is not rb:
            self._seen([ra, rb], [a, b], Y)
        elif ra[1] is None:
            self._seen([ra], [a])
        elif rb[1] is None:
            self._seen([rb], [b])
        sa, sb = ra[1], rb[1]
        ia, jb = sa[0], sb[0]
        if len(ia) == 0 or len(jb) == 0:
            return None
        if jit.ENABLED:
            ka, kb, best = _jd.best_pair(ia, sa[2], jb, sb[2], self.D)
        else:
            Da = sa[3]
            if Da is None:
                Da = sa[3] = self.D[ia]
            col = sa[1]
            if col is None:
                col = sa[1] = sa[2][:, None]
            tot = (col + Da[:, jb]) + sb[2]
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

    def _straight(self, ra: list[Any], rb: list[Any], a: Point2, b: Point2, tl: float) -> bool:
        """Whether a sees b: no edge facing a (and b beyond it) is crossed, and the segment
        goes into no obstacle at a vertex it passes exactly through (numpy; ``ra``, ``rb``:
        the points' records, whose ``front``/``behind`` it fills)."""
        r = self.g.rings
        k1, k2, k3 = self.cuts
        ya, yb = ra[0], rb[0]
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
        if np.count_nonzero(hit):
            return False
        return np.count_nonzero(s1) == len(s1) or not self._touch_enters(
            np.array([a]), np.array([b]), (s1 == 0)[None, None, :]).any()

    def _touch_rows(self, S: np.ndarray, T: np.ndarray, on: np.ndarray) -> np.ndarray:
        """(len(S),) :meth:`_touch_enters` of segments ``S[k] -> T[k]`` (``on[k, v]``)."""
        r = self.g.rings
        out = np.zeros(len(S), dtype=bool)
        ki, vi = np.nonzero(on)
        d = T[ki] - S[ki]
        ld = np.hypot(d[:, 0], d[:, 1])
        along = ((r.v[vi] - S[ki]) * d).sum(axis=1) / np.where(ld > 0, ld, 1.0)
        inner = (along > END) & (along < ld - END)
        ki, vi, d = ki[inner], vi[inner], d[inner]
        enters = _wedge_enters(d, r.v[vi], r.prv[vi], r.nxt[vi])
        out[ki[enters]] = True
        return out

    def _touch_enters(self, S: np.ndarray, T: np.ndarray, on: np.ndarray) -> np.ndarray:
        """(len(S), len(T)) for segments S[k] -> T[t] with a vertex on them (``on[k, t, v]``):
        whether they go into the obstacle at such a vertex (away from their ends)."""
        r = self.g.rings
        out = np.zeros(on.shape[:2], dtype=bool)
        ki, ti, vi = np.nonzero(on)
        d = T[ti] - S[ki]
        ld = np.hypot(d[:, 0], d[:, 1])
        along = ((r.v[vi] - S[ki]) * d).sum(axis=1) / np.where(ld > 0, ld, 1.0)
        inner = (along > END) & (along < ld - END)
        ki, ti, vi, d = ki[inner], ti[inner], vi[inner], d[inner]
        enters = _wedge_enters(d, r.v[vi], r.prv[vi], r.nxt[vi])
        out[ki[enters], ti[enters]] = True
        return out


def _route(g: _Graph, s: Point2, t: Point2) -> tuple[float, list[int]] | None:
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
    src: dict[int, float] = {}
    for k, w in zip(sj.tolist(), sw.tolist(), strict=True):
        src[k] = min(w, src.get(k, math.inf))
    goal: dict[int, float] = {}
    for k, w in zip(tj.tolist(), tw.tolist(), strict=True):
        goal[k] = min(w, goal.get(k, math.inf))
    h = np.hypot(g.pos[:, 0] - t[0], g.pos[:, 1] - t[1]).tolist()
    found = _astar(g.adjacency(), src, goal, h, best)
    return direct if found is None else found


def _path_hits(g: _Graph, s: Point2, t: Point2, chain: list[int], discs: _Discs,
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


def _buffered_discs(centres: np.ndarray, radii: np.ndarray
                    ) -> tuple[list[Polygon], list[np.ndarray]]:
    """Bases as the oracle draws them: ``shapely.buffer`` of each centre (:data:`DISC_SEGMENTS`
    a quarter), counter-clockwise, and each polygon's vertices (the closing one left out)."""
    geoms = shapely.buffer(shapely.points(centres), radii, quad_segs=DISC_SEGMENTS)
    polys = [orient(geom, 1.0) for geom in geoms]
    return polys, [np.asarray(poly.exterior.coords)[:-1, :2] for poly in polys]


def _disc_table() -> tuple[np.ndarray, np.ndarray]:
    """Cosines and sines of the vertices of a buffered point turned counter-clockwise: GEOS
    puts vertex ``m`` at angle ``-2 pi m / n`` (the quarter points exact); turned, vertex ``k``
    is GEOS's ``-k mod n``."""
    n = 4 * DISC_SEGMENTS
    angles = [-2 * math.pi * m / n for m in range(n)]
    cos = np.array([math.cos(a) for a in angles])
    sin = np.array([math.sin(a) for a in angles])
    cos[n // 4] = cos[3 * n // 4] = 0.0
    sin[n // 2] = 0.0
    turn = (-np.arange(n)) % n
    return cos[turn], sin[turn]


_DISC_COS, _DISC_SIN = _disc_table()


def _disc_coords(centres: np.ndarray, radii: np.ndarray) -> np.ndarray:
    """(k, 4 * DISC_SEGMENTS, 2): the bases' vertices by :func:`_disc_table`."""
    out = np.empty((len(centres), len(_DISC_COS), 2))
    out[:, :, 0] = centres[:, 0:1] + radii[:, None] * _DISC_COS
    out[:, :, 1] = centres[:, 1:2] + radii[:, None] * _DISC_SIN
    return out


_FAST_DISCS: bool | None = None
"""Whether :func:`_disc_coords` gives :func:`_buffered_discs`'s vertices bit for bit: a fact
about the GEOS library in use, found once per process (not game state)."""


def _fast_discs() -> bool:
    """Whether the bases' vertices may come from the table (checked once, on bases like the
    game's; with a GEOS that builds them differently, they are buffered)."""
    global _FAST_DISCS
    if _FAST_DISCS is None:
        rng = np.random.default_rng(20261124)
        centres = np.concatenate([rng.uniform(0, 30, (200, 2)),
                                  np.round(rng.uniform(0, 30, (56, 2)) * 2) / 2])
        radii = np.concatenate([rng.uniform(0.2, 3.0, 200),
                                np.resize([0.5, 0.63, 16 / 25.4, 1.0, 1.26, 1.5, 2 * 0.63,
                                           0.63 + 16 / 25.4], 56)])
        _, verts = _buffered_discs(centres, radii)
        _FAST_DISCS = bool(np.array_equal(_disc_coords(centres, radii), np.stack(verts)))
    return _FAST_DISCS


def _disc_arrays(discs: _Discs | None) -> tuple[np.ndarray, ...]:
    """The bases as the compiled loops take them: centres, radii, the grown boxes (x1, x0, y1,
    y0) and the polygons' vertices; empty arrays for no bases."""
    if discs is None or len(discs) == 0:
        none = np.zeros(0)
        return np.zeros((0, 2)), none, none, none, none, none, np.zeros((0, 1, 2))
    return (np.ascontiguousarray(discs.centres), discs.radii, *discs._boxes(), discs.verts)


def _best_links(g: _Graph, C: np.ndarray, s: np.ndarray, clear: np.ndarray, cost: np.ndarray,
                live: np.ndarray, dist: np.ndarray, move: float
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For :meth:`Routes.reachable`: the end points ``C`` that a walk through a corner reaches
    more cheaply than ``cost`` (the straight walk from ``s``, inf where blocked), the corner
    and that cost: (point, corner, cost).

    The answer is, per point, the cheapest of its tangent, visible links ``dist[corner] + w``
    (``w`` the link's cost, within ``move``), ties to the lower corner, when it beats ``cost``
    by more than 1e-12 -- what ``g.links`` over every pair gave. Faster, same answer: a point
    the straight walk reaches at its plain length is skipped (a route through a corner is no
    shorter: the triangle inequality, with the sums' rounding far below 1e-12), links that
    cannot beat ``cost`` are dropped, and the rest are tested for walls best first, a few
    rounds of one link per point, then all that are left at once (:func:`_blocked` answers
    each segment alone)."""
    none = (np.zeros(0, int), np.zeros(0, int), np.zeros(0))
    plain = np.hypot(C[:, 0] - s[0], C[:, 1] - s[1])
    todo = (~(clear & (cost <= plain))).nonzero()[0]
    if len(todo) == 0:
        return none
    i, k = _tangent_grid(C[todo], g.real[live], g.up[live], g.un[live]).nonzero()
    xi, nj = todo[i], live[k]
    d = np.hypot(*(C[xi] - g.pos[nj]).T)
    keep = dist[nj] + d <= move + 1e-9
    xi, nj, d = xi[keep], nj[keep], d[keep]
    w = d + g.soft.cost(C[xi], g.pos[nj]) if g.soft else d
    tot = dist[nj] + w
    keep = tot < cost[xi] - 1e-12
    xi, nj, tot = xi[keep], nj[keep], tot[keep]
    if len(xi) == 0:
        return none
    order = np.lexsort((tot, xi))
    xi, nj, tot = xi[order], nj[order], tot[order]
    if jit.ENABLED:  # link by link, each point's cheapest first until one is clear
        rings = g.rings
        k = _jm.first_clear(xi, nj, np.ascontiguousarray(C, dtype=float), g.pos, rings.v,
                            rings.prv, rings.nxt, rings.f, rings.lf, *_disc_arrays(g.discs),
                            TOL, END)
        return xi[k], nj[k], tot[k]
    head = np.concatenate(([True], xi[1:] != xi[:-1]))
    starts = head.nonzero()[0]
    rank = np.arange(len(xi)) - np.repeat(starts, np.diff(starts, append=len(xi)))
    won = np.zeros(len(xi), dtype=bool)
    done = np.zeros(len(C), dtype=bool)
    for r in range(_ROUNDS + 1):
        test = (rank == r) if r < _ROUNDS else (rank >= r)
        test &= ~done[xi]
        k = test.nonzero()[0]
        if len(k) == 0:
            if r < _ROUNDS and not (rank > r).any():
                break
            continue
        seen = k[~g.blocked(C[xi[k]], g.pos[nj[k]])]
        won[seen] = True
        done[xi[seen]] = True
    k = won.nonzero()[0]
    if len(k) == 0:
        return none
    first = np.concatenate(([True], xi[k][1:] != xi[k][:-1]))
    k = k[first]
    return xi[k], nj[k], tot[k]


def in_discs(points: Any, discs: Any) -> np.ndarray:
    """(n,) whether each of ``points`` lies within (distance <= r) one of the discs
    ``[(x, y, r), ...]`` -- the points :meth:`Routes.reachable` keeps with ``near=``."""
    X = _as_points(points)
    D = np.asarray([tuple(d)[:3] for d in discs], dtype=float).reshape(-1, 3)
    out = np.zeros(len(X), dtype=bool)
    for x, y, r in D:
        out |= np.hypot(X[:, 0] - x, X[:, 1] - y) <= r
    return out


def _on_the_way(s: Point2, move: float, discs: Any) -> Callable[[np.ndarray], np.ndarray]:
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


# -- the public object -----------------------------------------------------------------------------
class Routes:
    """Distances around walls and walking paths on one board (one state of its doors).

    Building one compiles the measuring graph; walking graphs are compiled per base radius on
    first use. Points are model centres ``(x, y)`` in inches; radii are base radii.
    """

    def __init__(self, board: Board) -> None:
        self.board = board
        self.frame = box(0.0, 0.0, board.width, board.depth)
        blockers = shapes.measuring_blockers(board)
        self._measure_geom = blockers
        self._measure_eroded = blockers.buffer(-EPS) if not blockers.is_empty else blockers
        if not blockers.is_empty:
            shapely.prepare(blockers)
            shapely.prepare(self._measure_eroded)
        self._measure = _build_graph(shapes.polygons_of(blockers), self._inside_measure,
                                     (0.0, 0.0, board.width, board.depth), _Soft([], [], []))
        g = self._measure
        g.s4 = _side_table(g.pos, g.rings)
        self._D, self._next = _floyd(len(g.pos), g.pi, g.pj, g.pw)
        self._pair = _PairQuery(g, self._D, self._next)
        self._open = blockers.is_empty
        self._soft = _Soft.of(board)
        self._softs: dict[float, _Soft] = {}
        self._walkers: dict[float, _Walker] = {}
        self._disc_sets: dict[tuple[tuple[float, float, float], ...], _Discs] = {}
        self._disc_memo: dict[tuple[float, float, float],
                              tuple[Polygon, np.ndarray, np.ndarray, float]] = {}
        self._node_memo: dict[tuple[bool, float, float], np.ndarray] = {}
        self._direct_memo: dict[tuple[float, float, float, float], float] = {}
        self._free_memo: dict[tuple[bytes | None, float, float], np.ndarray] = {}
        self._via_memo: dict[tuple[bool, float, float], tuple[np.ndarray, np.ndarray]] = {}
        self._fm_memo: dict[tuple[float, float], bool] = {}

    # -- measuring ---------------------------------------------------------------------------------
    def _inside_measure(self, X: np.ndarray) -> np.ndarray:
        if self._measure_geom.is_empty or len(X) == 0:
            return np.zeros(len(X), dtype=bool)
        return shapely.contains_xy(self._measure_geom, X[:, 0], X[:, 1])

    def _free_measure(self, X: np.ndarray) -> np.ndarray:
        """Points on the board and not inside a wall (each point's answer remembered: the
        box test and shapely's answer for one point do not depend on the others)."""
        memo = self._fm_memo
        keys = X.tolist()
        got = [memo.get((x, y)) for x, y in keys]
        if None not in got:
            return np.array(got, dtype=bool)
        miss = [k for k, v in enumerate(got) if v is None]
        Xm = X[miss]
        ok = self._measure.in_box(Xm)
        if not self._measure_eroded.is_empty and len(Xm):
            ok &= ~shapely.contains_xy(self._measure_eroded, Xm[:, 0], Xm[:, 1])
        if len(memo) + len(miss) > _MEMO_LIMIT:
            memo.clear()
        for k, v in zip(miss, ok.tolist(), strict=True):
            got[k] = v
            memo[keys[k][0], keys[k][1]] = v
        return np.array(got, dtype=bool)

    def _to_nodes(self, X: np.ndarray, batch: bool | None = None) -> np.ndarray:
        """(len(X), N) straight distance from each point to each corner it sees (inf if not).

        Each point's row is remembered (models are measured from again and again), apart for
        a point asked alone and in a batch (``batch``, by default: more than one point), which
        :meth:`_Graph.links` tests in two ways that can differ in the last bit at a grazing
        corner."""
        g = self._measure
        n = len(g.pos)
        out = np.full((len(X), n), np.inf)
        if len(X) == 0 or n == 0:
            return out
        batch = len(X) > 1 if batch is None else batch
        memo = self._node_memo
        keys = [(batch, x, y) for x, y in X.tolist()]
        miss = [k for k, key in enumerate(keys) if key not in memo]
        if miss:
            if len(memo) + len(miss) > _MEMO_LIMIT:
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

    def _via(self, A: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(len(A), N): the shortest distance from each point to each corner through the graph,
        and the first corner used (remembered per point as in :meth:`_to_nodes`)."""
        n = len(self._measure.pos)
        best = np.full((len(A), n), np.inf)
        first = np.full((len(A), n), -1, dtype=int)
        if len(A) == 0 or n == 0:
            return best, first
        batch = len(A) > 1
        memo = self._via_memo
        keys = [(batch, x, y) for x, y in A.tolist()]
        miss = [k for k, key in enumerate(keys) if key not in memo]
        if miss:
            if len(memo) + len(miss) > _MEMO_LIMIT:
                memo.clear()
                miss = list(range(len(keys)))
            Da = self._to_nodes(A[miss], batch)
            cols = np.arange(n)
            for k, row in zip(miss, Da, strict=True):
                b_row = np.full(n, np.inf)
                f_row = np.full(n, -1, dtype=int)
                idx = np.flatnonzero(np.isfinite(row))
                if len(idx):
                    tot = row[idx, None] + self._D[idx]
                    arg = tot.argmin(axis=0)
                    b_row = tot[arg, cols]
                    f_row = idx[arg]
                memo[keys[k]] = (b_row, f_row)
        for k, key in enumerate(keys):
            best[k], first[k] = memo[key]
        return best, first

    def _direct(self, A: np.ndarray, B: np.ndarray) -> np.ndarray:
        """(len(A),) straight distances where A[k]->B[k] crosses no wall, else inf (each
        pair's answer remembered: :func:`_blocked` answers each segment alone). With the
        compiled loops and few wall edges the pairs are recomputed instead: the kernel tests a
        segment against :data:`_DIRECT_RECOMPUTE` edges in less time than the memo's keys take
        to build (the same floats either way)."""
        if jit.ENABLED and len(self._measure.rings) <= _DIRECT_RECOMPUTE:
            d = np.hypot(*(B - A).T)
            return np.where(_blocked(A, B, self._measure.rings), np.inf, d)
        memo = self._direct_memo
        keys = list(zip(A[:, 0].tolist(), A[:, 1].tolist(), B[:, 0].tolist(), B[:, 1].tolist(),
                        strict=True))
        miss = [k for k, key in enumerate(keys) if key not in memo]
        if miss:
            if len(memo) + len(miss) > 4 * _MEMO_LIMIT:
                memo.clear()
                miss = list(range(len(keys)))
            P, Q = A[miss], B[miss]
            d = np.hypot(*(Q - P).T)
            clear = ~_blocked(P, Q, self._measure.rings)
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
        if self._open:
            return Route(max(0.0, math.dist(pa, pb) - ra - rb), (pa, pb))
        pair = self._pair
        rows = pair._point_rows(pa, pb)
        rec_a, rec_b = rows[0], rows[1]
        if rec_a[2] is None or rec_b[2] is None:
            if jit.ENABLED:  # by arithmetic far from the walls' edges, else by shapely
                r = pair.g.rings
                ia, ib = _jd.inside(pa[0], pa[1], pb[0], pb[1], r.v, r.nxt, 1e3 * EPS)
            if not jit.ENABLED or ia == _jd.NEAR_EDGE or ib == _jd.NEAR_EDGE:
                ia, ib = shapely.contains_xy(self._measure_eroded, [pa[0], pb[0]],
                                             [pa[1], pb[1]]).tolist()
            rec_a[2], rec_b[2] = bool(ia), bool(ib)
        if rec_a[2] or rec_b[2]:
            return Route(None, ())
        found = pair.query(pa, pb, rows)
        if found is None:
            return Route(None, ())
        if not found[1]:
            return Route(max(0.0, found[0] - ra - rb), (pa, pb))
        real = pair.real_xy  # the same floats as ``float(self._measure.real[k, 0])``
        pts = (pa, *((real[k][0], real[k][1]) for k in found[1]), pb)
        length = 0.0
        for p, q in itertools.pairwise(pts):
            length += math.dist(p, q)
        return Route(max(0.0, length - ra - rb), pts)

    def distance_matrix(self, A: Any, ra: Any, B: Any, rb: Any) -> np.ndarray:
        """(len(A), len(B)) distances between bases' edges around walls (inf: no route)."""
        A, B = _as_points(A), _as_points(B)
        ra, rb = _radii(ra, len(A)), _radii(rb, len(B))
        out = np.full((len(A), len(B)), np.inf)
        if len(A) == 0 or len(B) == 0:
            return out
        fa, fb = self._free_measure(A), self._free_measure(B)
        both = fa[:, None] & fb[None, :]
        ai, bj = np.nonzero(both)  # the live pairs in row-major order, as they always were
        cen = np.full((len(A), len(B)), np.inf)
        cen[ai, bj] = self._direct(A[ai], B[bj])
        need = ~np.isfinite(cen) & both
        if need.any() and len(self._measure.pos):
            rows = np.flatnonzero(need.any(axis=1))
            cols = np.flatnonzero(need.any(axis=0))
            best, _ = self._via(A[rows])
            Db = self._to_nodes(B[cols])
            via = (best[:, None, :] + Db[None, :, :]).min(axis=2)
            box = np.ix_(rows, cols)
            cen[box] = np.where(need[box], via, cen[box])
        same = np.all(A[:, None, :] == B[None, :, :], axis=2)
        cen = np.where(same, 0.0, cen)
        return np.maximum(0.0, cen - ra[:, None] - rb[None, :])

    def distances(self, a: Any, ra: float, B: Any, rb: Any) -> np.ndarray:
        """(len(B),) distances from one base to many (inf where there is no route)."""
        return self.distance_matrix(np.array([[float(a[0]), float(a[1])]]), ra, B, rb)[0]

    # -- walking -----------------------------------------------------------------------------------
    def _walker(self, radius: float) -> _Walker:
        key = round(float(radius), 9)
        w = self._walkers.get(key)
        if w is None:
            w = _Walker(self.board, float(radius), self._soft_for(radius))
            self._walkers[key] = w
        return w

    def fits_many(self, points: Any, radius: float, *, blockers: Any = ()) -> np.ndarray:
        """(n,) whether a base of ``radius`` fits at each point: on the board, clear of terrain
        it cannot stand in and of the other bases ``blockers`` ``[(x, y, r), ...]``."""
        X = _as_points(points)
        if len(X) == 0:
            return np.zeros(0, dtype=bool)
        tol = 1e-6
        w, d = self.board.width, self.board.depth
        ok = ((X[:, 0] >= radius - tol) & (X[:, 0] <= w - radius + tol)
              & (X[:, 1] >= radius - tol) & (X[:, 1] <= d - radius + tol))
        walker = self._walker(radius)
        ok &= ~walker.blocked_at(X)
        blockers = list(blockers)
        if blockers:
            ok &= self._discs(blockers, radius).clear_of(X, EPS)
        return ok

    def _fits_with(self, X: np.ndarray, radius: float, walker: _Walker, discs: _Discs
                   ) -> np.ndarray:
        """:meth:`fits_many` of points X with the walker and the grown bases already at hand
        (``self._discs(blockers, radius)``: the same discs, so the same answer)."""
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
            if len(self._free_memo) >= _MEMO_LIMIT // 64:
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

    def _discs(self, blockers: Any, radius: float) -> _Discs:
        """``_Discs.of(blockers, radius)``, each grown base remembered by its exact centre and
        grown radius (models stand still most of a turn, so the same bases come back)."""
        arr = np.asarray([tuple(b)[:3] for b in blockers], dtype=float).reshape(-1, 3)
        if len(arr) == 0:
            return _Discs.of([], radius)
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
            if len(memo) + len(miss) > _MEMO_LIMIT:
                memo.clear()
                miss = list(range(len(keys)))
            if _fast_discs():  # GEOS's vertices from the table, no buffering
                V = _disc_coords(arr[miss, :2], grown[miss])
                made = cast(np.ndarray, shapely.polygons(np.concatenate([V, V[:, :1]], axis=1)))
                polys = list(made)
                verts = list(V)
            else:
                polys, verts = _buffered_discs(arr[miss, :2], grown[miss])
            if len({v.shape for v in verts}) == 1:
                # the missed bases' edges at once: each row's unit edge is computed from its
                # own two vertices, so stacking the polygons changes no value
                V = np.stack(verts)
                E = _unit(np.roll(V, -1, axis=1) - V)
                inner = _inradii(arr[miss, :2], V, E).tolist()
                for j, k in enumerate(miss):
                    memo[keys[k]] = (polys[j], V[j], E[j], inner[j])
            else:
                for k, poly, v in zip(miss, polys, verts, strict=True):
                    e = _unit(np.roll(v, -1, axis=0) - v)
                    memo[keys[k]] = (poly, v, e,
                                     float(_inradii(arr[k:k + 1, :2], v[None], e[None])[0]))
        found = [memo[key] for key in keys]
        # each polygon's inradius (clear_of's depth of its centre) comes with it
        discs = _Discs([f[0] for f in found], np.stack([f[1] for f in found]), arr[:, :2],
                       grown, edges=np.stack([f[2] for f in found]),
                       _inner=np.array([f[3] for f in found]))
        if len(self._disc_sets) >= _MEMO_LIMIT // 16:
            self._disc_sets.clear()
        self._disc_sets[whole] = discs
        return discs

    def _walk_graph(self, radius: float, blockers: Any, centre: Point2 | None = None,
                    reach: float = math.inf,
                    within: Callable[[np.ndarray], np.ndarray] | None = None
                    ) -> tuple[_Walker, _Graph, _Discs]:
        walker = self._walker(radius)
        discs = self._discs(list(blockers), walker.radius)
        return walker, walker.with_discs(discs, centre, reach, within), discs

    def _free_walk(self, walker: _Walker, g: _Graph, discs: _Discs, X: np.ndarray
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

    def _make_walk(self, pts: list[Point2], radius: float = 0.0) -> Walk:
        P, Q = np.array(pts[:-1], float), np.array(pts[1:], float)
        length = float(np.hypot(*(Q - P).T).sum()) if len(P) else 0.0
        soft = self._soft_for(radius)
        extra = float(soft.cost(P, Q).sum()) if soft and len(P) else 0.0
        if soft and length > 0:
            extra += soft.start_cost(pts[0])
        return Walk(tuple(pts), length, length + extra, radius)

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
        walker = self._walker(radius)
        discs = self._discs(list(blockers), walker.radius)
        g = walker.graph
        X = np.array([s, t])
        if not self._free_walk(walker, g, discs, X).all():
            return None
        used = np.zeros(len(discs), dtype=bool)
        while True:
            found = _route(g, s, t)
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
        count, see the module notes), and the movement spent."""
        pts = walk.points
        left = float(move)
        soft = self._soft_for(walk.radius)
        if soft and walk.length > 0:
            first = soft.start_cost(pts[0])
            if first > left:
                return (pts[0], 0.0)  # it cannot pay to move within reach of razor wire
            left -= first
        for a, b in itertools.pairwise(pts):
            d = math.dist(a, b)
            events = soft.entries(a, b) if soft and d > 0 else []
            done = 0.0  # fraction of this segment walked
            for frac, amount in events:
                need = (frac - done) * d
                if need > left:
                    break
                left -= need
                done = frac
                if amount > left:
                    p = (a[0] + (b[0] - a[0]) * done, a[1] + (b[1] - a[1]) * done)
                    return (p, move - left)
                left -= amount
            rest = (1.0 - done) * d
            if rest >= left:
                frac = done + (left / d if d else 0.0)
                return ((a[0] + (b[0] - a[0]) * frac, a[1] + (b[1] - a[1]) * frac), move)
            left -= rest
        return (pts[-1], move - left)

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
        blockers = [tuple(float(v) for v in tuple(b)[:3]) for b in blockers]
        key = (float(radius), float(start[0]), float(start[1]), type(move), move,
               tuple(blockers), type(spacing), spacing,
               None if near is None else tuple(tuple(float(v) for v in tuple(d)[:3])
                                               for d in near))
        walker = self._walker(radius)
        memo = walker.reaches
        got = memo.get(key)
        if got is None:
            if len(memo) >= _REACH_LIMIT:
                memo.clear()
            got = memo[key] = self._reachable(start, radius, move, blockers, spacing, near)
        # a fresh copy each time (the walks are immutable and built once)
        return Reach(got.points.copy(), got.cost.copy(), got.walk_of)

    def _reachable(self, start: Any, radius: float, move: float, blockers: list[Any],
                   spacing: float, near: Any) -> Reach:
        """:meth:`reachable` computed afresh."""
        s = (float(start[0]), float(start[1]))
        S = np.array([s])
        dx, dy = self._walker(radius).grid(move, spacing)
        C = np.stack([s[0] + dx, s[1] + dy], axis=1)
        within = None
        if near is not None:
            if len(C):
                C = C[in_discs(C, near)]
            within = _on_the_way(s, move, near)
        walker, g, discs = self._walk_graph(radius, blockers, s, move, within)
        start_walk = Walk((s,), 0.0, 0.0)
        if len(C):
            same = walker.radius == float(radius)  # else the bases grow by another radius
            C = C[self._fits_with(C, radius, walker,
                                  discs if same else self._discs(list(blockers), radius))]
        if len(C) == 0 or not self._free_walk(walker, g, discs, S)[0]:
            return Reach(np.array([s], float), np.zeros(1), lambda i: start_walk)
        n = len(g.pos)
        active = np.arange(n) if g.active is None else g.active
        _, sj, sw = g.links(S, active)
        init = np.full(n, np.inf)
        np.minimum.at(init, sj, sw)
        dist, pred = _dijkstra(n, init, g.pi, g.pj, g.pw, limit=move)
        cost = np.full(len(C), np.inf)
        via = np.full(len(C), -1, dtype=int)
        clear = ~g.blocked(np.repeat(S, len(C), axis=0), C)
        if clear.any():
            cost[clear] = g.weight(np.repeat(S, int(clear.sum()), axis=0), C[clear])
        live = (dist <= move + 1e-9).nonzero()[0]
        if len(live):
            ci, nj, tot = _best_links(g, C, S[0], clear, cost, live, dist, move)
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
