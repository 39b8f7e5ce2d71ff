"""Obstacle rings and the segment tests on them: crossing, blocked, seeing, tangent.

:class:`Rings` holds every vertex of a set of polygons with its neighbours (inside on the
left). The tests, vectorised in numpy (or the compiled loops when on):
:func:`crossings` (proper crossings of segments with edges), :func:`blocked` (a segment goes
into an obstacle; by a sign table for few segment-edge pairs, :func:`_blocked_dense`, else by
the boxes of runs of edges, :func:`blocked_boxed`), :func:`sees` (a point sees others, only
the edges facing it tested), their forms against each segment's own ring (``_rows``: the
bases), and :func:`_tangent` (a segment that can be part of a shortest path bending at a
corner) with its grid form :func:`tangent_grid`. The sizes :data:`CHUNK`, :data:`DENSE`,
:data:`RUN`, :data:`SAT_PAIRS` and :data:`GRID_BLOCK` are read from this module at every call.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from shapely.geometry import Polygon
from shapely.geometry.polygon import orient

from solo_ops.geometry import jit
from solo_ops.geometry.routes.common import END, NUDGE, TOL, _cross, jm, jw, unit_vectors

CHUNK = 2_000_000  # segment-edge pairs examined at once (memory bound)
RUN = 12  # edges per run that blocked's boxes cover (many pairs)
DENSE = 8_000  # segment-edge pairs up to which blocked tests every pair (else by boxes)
SAT_PAIRS = 800  # (segment, run) pairs above which blocked_boxed tests the runs' boxes by line
GRID_BLOCK = 32_768  # elements of a tangent_grid block (its temporaries fit the cache)


@dataclass
class Rings:
    """Every vertex of a set of polygons with its neighbours, oriented so that the polygon's
    inside is on the left of each edge ``v -> nxt``; ``piece`` says which polygon."""

    v: np.ndarray
    prv: np.ndarray
    nxt: np.ndarray
    f: np.ndarray = field(init=False, repr=False)  # edge vectors v -> nxt
    lf: np.ndarray = field(init=False, repr=False)  # their lengths
    lo: np.ndarray = field(init=False, repr=False)  # edge boxes (grown by TOL)
    hi: np.ndarray = field(init=False, repr=False)
    vx: np.ndarray = field(init=False, repr=False)  # the vertices' x and y, each contiguous
    vy: np.ndarray = field(init=False, repr=False)  # (the sign table's rows read them fast)

    succ: np.ndarray = field(init=False, repr=False)  # row of each vertex's successor
    ring: np.ndarray = field(init=False, repr=False)  # which ring each vertex is on
    # what blocked and blocked_boxed derive from the rings alone, on first use (rings are
    # never changed once built)
    ends_at_successors: bool | None = field(default=None, init=False, repr=False)
    runs: tuple[Any, ...] | None = field(default=None, init=False, repr=False)

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
        self.vx = np.ascontiguousarray(self.v[:, 0])
        self.vy = np.ascontiguousarray(self.v[:, 1])

    @staticmethod
    def of(polys: Iterable[Polygon]) -> Rings:
        """The rings of polygons (exteriors and holes, counter-clockwise outside; repeated
        vertices and rings of fewer than three dropped)."""
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
            return Rings(z, z, z)
        return Rings(np.concatenate(vs), np.concatenate(ps), np.concatenate(ns))

    def __len__(self) -> int:
        return len(self.v)

    def take(self, mask: np.ndarray) -> Rings:
        """The whole rings that have a vertex selected by ``mask``."""
        keep = np.isin(self.ring, np.unique(self.ring[mask]))
        return Rings(self.v[keep], self.prv[keep], self.nxt[keep])

    @staticmethod
    def join(*parts: Rings) -> Rings:
        """One set of rings holding every ring of ``parts`` (walls and bases tested as one)."""
        return Rings(np.concatenate([p.v for p in parts]),
                      np.concatenate([p.prv for p in parts]),
                      np.concatenate([p.nxt for p in parts]))

    def corners(self) -> tuple[np.ndarray, np.ndarray]:
        """(mask of convex vertices, every vertex nudged outward along its bisector)."""
        return corners_of(self.v, self.prv, self.nxt)


def corners_of(v: np.ndarray, prv: np.ndarray, nxt: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray]:
    """:meth:`Rings.corners` of vertices ``v`` with their neighbours, without building the
    rings (each row's answer is worked from that row alone)."""
    din, dout = v - prv, nxt - v
    turn = _cross(unit_vectors(din), unit_vectors(dout))
    nin = unit_vectors(np.stack([din[:, 1], -din[:, 0]], axis=1))
    nout = unit_vectors(np.stack([dout[:, 1], -dout[:, 0]], axis=1))
    bis = nin + nout
    ok = np.hypot(bis[:, 0], bis[:, 1]) > 1e-9
    return (turn > 1e-12) & ok, v + NUDGE * unit_vectors(bis)


def _bbox_pairs(lo_a: np.ndarray, hi_a: np.ndarray, lo_b: np.ndarray, hi_b: np.ndarray,
                start: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Index pairs (i, j) whose boxes overlap (a chunk of ``a`` starting at ``start``)."""
    m = ((lo_a[:, None, 0] <= hi_b[None, :, 0]) & (hi_a[:, None, 0] >= lo_b[None, :, 0])
         & (lo_a[:, None, 1] <= hi_b[None, :, 1]) & (hi_a[:, None, 1] >= lo_b[None, :, 1]))
    i, j = np.nonzero(m)
    return i + start, j


def _asked(P: np.ndarray, against: np.ndarray, active: np.ndarray | None) -> np.ndarray | None:
    """The segments :func:`crossings` and :func:`touches` look at (all, or the ``active``
    ones), or None when there is nothing to look at (no segment, nothing ``against``)."""
    if len(P) == 0 or len(against) == 0:
        return None
    idx = np.arange(len(P)) if active is None else np.flatnonzero(active)
    return idx if len(idx) else None


def _none_found() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What :func:`crossings` and :func:`touches` give when they find nothing."""
    return np.zeros(0, int), np.zeros(0, int), np.zeros(0)


def crossings(P: np.ndarray, Q: np.ndarray, e0: np.ndarray, e1: np.ndarray,
              active: np.ndarray | None = None
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Proper crossings of segments ``P->Q`` with edges ``e0->e1``: (segment, edge, t along the
    segment). Ends closer than :data:`TOL` to the other line do not count."""
    idx = _asked(P, e0, active)
    if idx is None:
        return _none_found()
    if jit.ENABLED:
        found: tuple[np.ndarray, np.ndarray, np.ndarray] = jm.crossings(
            np.ascontiguousarray(P, dtype=float), np.ascontiguousarray(Q, dtype=float),
            np.ascontiguousarray(e0, dtype=float), np.ascontiguousarray(e1, dtype=float), idx,
            TOL)
        return found
    lo_e, hi_e = np.minimum(e0, e1) - TOL, np.maximum(e0, e1) + TOL
    step = max(1, CHUNK // len(e0))
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
        return _none_found()
    return np.concatenate(out_s), np.concatenate(out_e), np.concatenate(out_t)


def touches(P: np.ndarray, Q: np.ndarray, v: np.ndarray, active: np.ndarray | None = None,
            near: float = TOL) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Vertices ``v`` that segments ``P->Q`` pass through: (segment, vertex, t along the
    segment) of each vertex within ``near`` of a segment and more than ``near`` from both its
    ends. :func:`crossings` leaves such a pass out (the two edges meeting there each have an
    end on the segment), so a leg that goes into a footprint through its corner crosses no
    edge of it; whoever reads a segment piece by piece cuts it there too."""
    idx = _asked(P, v, active)
    if idx is None:
        return _none_found()
    if jit.ENABLED:
        found: tuple[np.ndarray, np.ndarray, np.ndarray] = jm.touches(
            np.ascontiguousarray(P, dtype=float), np.ascontiguousarray(Q, dtype=float),
            np.ascontiguousarray(v, dtype=float), idx, near)
        return found
    out_s, out_v, out_t = [], [], []
    step = max(1, CHUNK // len(v))
    for s in range(0, len(idx), step):
        part = idx[s:s + step]
        p, q = P[part], Q[part]
        si, vi = _bbox_pairs(np.minimum(p, q) - near, np.maximum(p, q) + near, v, v)
        if len(si) == 0:
            continue
        si = part[si]
        a, d = P[si], Q[si] - P[si]
        w = v[vi] - a
        ld = np.hypot(d[:, 0], d[:, 1])
        along = (w[:, 0] * d[:, 0] + w[:, 1] * d[:, 1]) / np.where(ld > 0, ld, 1.0)
        hit = ((np.abs(_cross(d, w)) <= near * ld) & (along > near) & (along < ld - near)
               & (ld > 2 * near))
        if hit.any():
            out_s.append(si[hit])
            out_v.append(vi[hit])
            out_t.append(along[hit] / ld[hit])
    if not out_s:
        return _none_found()
    return np.concatenate(out_s), np.concatenate(out_v), np.concatenate(out_t)


def wedge_enters(d: np.ndarray, v: np.ndarray, prv: np.ndarray, nxt: np.ndarray
                 ) -> np.ndarray:
    """Whether a line with direction ``d`` through obstacle vertex ``v`` (neighbours ``prv``,
    ``nxt``, inside on the left) goes into the obstacle there, in either direction."""
    d = unit_vectors(d)
    e1 = unit_vectors(nxt - v)
    e2 = unit_vectors(prv - v)
    convex = _cross(v - prv, nxt - v) >= 0
    tol = 1e-12
    enters = np.zeros(len(d), dtype=bool)
    for sign in (1.0, -1.0):
        dd = d * sign
        inside_convex = (_cross(e1, dd) > tol) & (_cross(dd, e2) > tol)
        inside_reflex = ~((_cross(e2, dd) >= -tol) & (_cross(dd, e1) >= -tol))
        enters |= np.where(convex, inside_convex, inside_reflex)
    return enters


def blocked(P: np.ndarray, Q: np.ndarray, rings: Rings) -> np.ndarray:
    """(S,) True where segment ``P->Q`` goes into the inside of an obstacle. Grazing an edge or
    a corner is allowed; both ends are assumed to be outside the obstacles. A segment is blocked
    when it properly crosses an edge, or passes exactly through a vertex (within :data:`TOL`,
    away from its ends) into the obstacle."""
    S, E = len(P), len(rings)
    if jit.ENABLED and S and E:  # segment by segment, edge runs far from it passed over
        return jw.blocked(np.ascontiguousarray(P, dtype=float),
                          np.ascontiguousarray(Q, dtype=float), rings.v, rings.prv, rings.nxt,
                          rings.f, rings.lf, *run_boxes(rings)[1:5], TOL, END)
    out = np.zeros(S, dtype=bool)
    if S == 0 or E == 0:
        return out
    # rings as built end each edge at their successor vertex (the sign tables read the ends'
    # signs there); any other rows are tested with their ends computed, densely
    ring_ends = rings.ends_at_successors
    if ring_ends is None:
        ring_ends = rings.ends_at_successors = bool(np.array_equal(rings.nxt, rings.v[rings.succ]))
    dense = S * E <= DENSE or not ring_ends
    step = max(1, CHUNK // E)
    for s in range(0, S, step):
        part = slice(s, s + step)  # out[part] is a view: the kernels mark it in place
        if dense:
            _blocked_dense(P[part], Q[part], rings, out[part], ring_ends)
        else:
            blocked_boxed(P[part], Q[part], rings, out[part])
    return out


def _blocked_dense(P: np.ndarray, Q: np.ndarray, rings: Rings, out: np.ndarray,
                   ring_ends: bool = True) -> np.ndarray:
    """:func:`blocked` for few segment-edge pairs: one (S, E) sign table, the rest sparse.

    The same arithmetic as the pair-by-pair form, element by element (so the same booleans):
    ``o1`` (which side of the segment's line each vertex is) for every pair; the side of an
    edge's end is its successor vertex's ``o1`` when ``nxt`` is that vertex (``ring_ends``,
    else computed as ``o1`` is); ``o3``/``o4`` (which side of the edge's line the segment's ends
    are) only for the pairs whose vertices straddle the line, and the touch test only for the
    pairs with a vertex within :data:`TOL` of it (none looked for when no vertex is)."""
    u, w = rings.v, rings.nxt
    d = Q - P
    ld = np.hypot(d[:, 0], d[:, 1])
    dx, dy = d[:, 0:1], d[:, 1:2]
    ux = rings.vx - P[:, 0:1]  # u[None, :, 0] - P[:, 0:1], read from contiguous columns
    uy = rings.vy - P[:, 1:2]
    o1 = dx * uy
    o1 -= dy * ux  # dx * uy - dy * ux, in place (the same floats)
    tl = (TOL * ld)[:, None]
    s1 = (o1 > tl).view(np.int8) - (o1 < -tl).view(np.int8)
    if ring_ends:  # nxt[e] is v[succ[e]]: o2 is o1 of the successor
        s2 = s1.take(rings.succ, axis=1)
    else:
        wx = w[None, :, 0] - P[:, 0:1]
        wy = w[None, :, 1] - P[:, 1:2]
        o2 = dx * wy - dy * wx
        s2 = (o2 > tl).view(np.int8) - (o2 < -tl).view(np.int8)
    s2 *= s1  # -1 where the edge's ends are strictly on either side
    si, ei = (s2 == -1).nonzero()
    if len(si):
        uxk, uyk = ux[si, ei], uy[si, ei]
        fx, fy = rings.f[ei, 0], rings.f[ei, 1]
        o3 = fy * uxk - fx * uyk  # cross(f, P - u)
        o4 = o3 + (fx * d[si, 1] - fy * d[si, 0])  # cross(f, Q - u), as blocked rounds it
        tf = TOL * rings.lf[ei]
        hit = ((o3 > tf) & (o4 < -tf)) | ((o3 < -tf) & (o4 > tf))
        out[si[hit]] = True
    if np.count_nonzero(s1) == s1.size:
        return out
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
            enters = wedge_enters(d[si], u[ei], rings.prv[ei], w[ei])
            out[si[enters]] = True
    return out


def run_boxes(rings: Rings) -> tuple[Any, ...]:
    """The rings' runs of up to :data:`RUN` edges (every ring starts one), once per rings:
    ``(RUN, starts, lengths, box lows, box highs, each run's last vertex's successor)``, then
    what :func:`blocked_boxed` reads per run: its entries (:func:`_run_rows`), and its box's
    centre and half extents."""
    runs = rings.runs
    if runs is None or runs[0] != RUN:
        E = len(rings)
        ring_starts = np.flatnonzero(np.concatenate(([True],
                                                     rings.ring[1:] != rings.ring[:-1])))
        offset = np.arange(E) - np.repeat(ring_starts, np.diff(ring_starts, append=E))
        cs = np.flatnonzero(offset % RUN == 0)  # run starts (every ring starts one)
        cl = np.diff(cs, append=E)
        rlo = np.minimum.reduceat(rings.lo, cs, axis=0) - 1e-9
        rhi = np.maximum.reduceat(rings.hi, cs, axis=0) + 1e-9
        last = rings.succ[cs + cl - 1]
        runs = rings.runs = (RUN, cs, cl, rlo, rhi, last,
                             *_run_rows(rings, cs, cl, last), (rlo + rhi) / 2, (rhi - rlo) / 2)
    return runs


def _run_rows(rings: Rings, cs: np.ndarray, cl: np.ndarray, last: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each run as a row of ``RUN + 1`` entries: the rows of its edges' starts, then its last
    edge's end, repeated to fill the row (a pad starts no edge: the end against itself never
    straddles a line); whether each entry starts an edge; the entries' x and y."""
    col = np.arange(RUN + 1)
    starts = col[None, :] < cl[:, None]
    vi = np.where(starts, cs[:, None] + col[None, :], last[:, None])
    return vi, starts, rings.vx[vi], rings.vy[vi]


def blocked_boxed(P: np.ndarray, Q: np.ndarray, rings: Rings, out: np.ndarray
                  ) -> np.ndarray:
    """:func:`_blocked_dense` on the (segment, run of edges) pairs whose boxes meet only (and,
    of many, those whose run's box the segment's line passes through).

    Each ring is cut into runs of up to :data:`RUN` consecutive edges; a segment is tested
    against the runs whose box meets its own (a crossed edge's box does, and so does a vertex
    within :data:`TOL` of it: the boxes are grown by 1e-9 more) and, when there are more than
    :data:`SAT_PAIRS` such pairs, whose box its line passes through (the same edges and
    vertices lie in it; a separating-axis test, padded far beyond its rounding: for fewer
    pairs the test costs more than it spares). Each (segment, run) pair is a row of the run's
    vertices then the end of its last edge (:func:`_run_rows`), so an edge's end sign is the
    next entry's, as in the sign table; the same arithmetic, element by element."""
    _, _, _, rlo, rhi, _, vrow, starts, vxrow, vyrow, centre, half = run_boxes(rings)
    lo, hi = np.minimum(P, Q), np.maximum(P, Q)
    m = lo[:, None, 0] <= rhi[None, :, 0]
    m &= hi[:, None, 0] >= rlo[None, :, 0]
    m &= lo[:, None, 1] <= rhi[None, :, 1]
    m &= hi[:, None, 1] >= rlo[None, :, 1]
    si, ri = m.nonzero()
    if len(si) == 0:
        return out
    d = Q - P
    dxs, dys = d[:, 0], d[:, 1]
    px, py = P[:, 0].take(si), P[:, 1].take(si)
    dx, dy = dxs.take(si), dys.take(si)
    if len(si) > SAT_PAIRS:
        ax, ay = np.abs(dx), np.abs(dy)
        side = np.abs(dx * (centre[:, 1].take(ri) - py) - dy * (centre[:, 0].take(ri) - px))
        keep = side <= ay * half[:, 0].take(ri) + ax * half[:, 1].take(ri) + 1e-9 * (1 + ax + ay)
        if not keep.all():
            si, ri, px, py, dx, dy = si[keep], ri[keep], px[keep], py[keep], dx[keep], dy[keep]
            if len(si) == 0:
                return out
    ld = np.hypot(dxs, dys)
    ux = vxrow[ri]
    ux -= px[:, None]
    uy = vyrow[ri]
    uy -= py[:, None]
    dx, dy = dx[:, None], dy[:, None]
    o1 = dx * uy
    o1 -= dy * ux
    tl = (TOL * ld).take(si)[:, None]
    s1 = (o1 > tl).view(np.int8) - (o1 < -tl).view(np.int8)
    straddle = s1[:, :-1] * s1[:, 1:] == -1  # an edge's start and end on either side
    k, c = straddle.nonzero()
    if len(k):
        e = vrow[ri[k], c]
        fx, fy = rings.f[e, 0], rings.f[e, 1]
        o3 = fy * ux[k, c] - fx * uy[k, c]  # cross(f, P - u)
        o4 = o3 + (fx * dy[k, 0] - fy * dx[k, 0])  # cross(f, Q - u), as blocked rounds it
        tf = TOL * rings.lf[e]
        hit = ((o3 > tf) & (o4 < -tf)) | ((o3 < -tf) & (o4 > tf))
        out[si[k[hit]]] = True
    if np.count_nonzero(s1) == s1.size:
        return out
    k, c = (s1 == 0).nonzero()
    if len(k):
        keep = starts[ri[k], c]  # the entries that start an edge (each vertex once)
        k, c = k[keep], c[keep]
        keep = np.abs(o1[k, c]) < tl[k, 0]
        k, c = k[keep], c[keep]
        sj = si[k]
        ldk = ld[sj]
        along = (ux[k, c] * dx[k, 0] + uy[k, c] * dy[k, 0]) / np.where(ldk > 0, ldk, 1.0)
        keep = (along > END) & (along < ldk - END) & ~out[sj]
        if keep.any():
            e, sj = vrow[ri[k[keep]], c[keep]], sj[keep]
            enters = wedge_enters(d[sj], rings.v[e], rings.prv[e], rings.nxt[e])
            out[sj[enters]] = True
    return out


def blocked_rows(P: np.ndarray, Q: np.ndarray, V: np.ndarray) -> np.ndarray:
    """(S,) :func:`blocked` of each segment ``P[k]->Q[k]`` against its own closed ring
    ``V[k]`` (vertices (S, n, 2), inside on the left; ``prv``/``nxt`` the ring's neighbours),
    computed as :func:`_blocked_dense` does: a sign table of the vertices against each
    segment's line, the edge tests only where an edge's ends straddle it. The same arithmetic
    element by element, so the same booleans."""
    if jit.ENABLED and len(P):
        return jm.blocked_rows(np.ascontiguousarray(P, dtype=float),
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
            enters = wedge_enters(d[si], V[si, ei], V[si, (ei - 1) % n], V[si, (ei + 1) % n])
            out[si[enters]] = True
    return out


_NO_SIDES = np.zeros((0, 0), dtype=bool)  # the compiled sees' stand-in for "no s4 given"


def sees(x: np.ndarray, T: np.ndarray, rings: Rings, s4: np.ndarray | None = None
         ) -> np.ndarray:
    """(len(T),) whether the point ``x`` sees each point of T (:func:`blocked` negated).

    Only edges facing ``x`` are tested: a segment from outside an obstacle into it enters
    through an edge that faces its start. ``s4`` optionally holds the precomputed sides of T
    against every edge (``graph.side_table``)."""
    m = len(T)
    if m == 0 or len(rings) == 0:
        return np.ones(m, dtype=bool)
    if jit.ENABLED:
        return jm.sees(float(x[0]), float(x[1]), np.ascontiguousarray(T, dtype=float),
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
            enters = wedge_enters(d[ti], u[v], rings.prv[v], rings.nxt[v])
            out[ti[enters]] = False
    return out


def sees_rows(x: np.ndarray, T: np.ndarray, V: np.ndarray) -> np.ndarray:
    """(len(T),) :func:`sees` of each point ``T[k]`` from ``x`` against its own closed
    ring ``V[k]`` (``prv``/``nxt`` the ring's neighbours), computed as :func:`blocked_rows`
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
            enters = wedge_enters(d[ti], V[ti, vi], V[ti, (vi - 1) % n], V[ti, (vi + 1) % n])
            out[ti[enters]] = False
    return out


def _tangent(X: np.ndarray, v: np.ndarray, prv: np.ndarray, nxt: np.ndarray) -> np.ndarray:
    """Whether the line from each point X to corner v leaves both of v's neighbours on one side
    (only such segments can be part of a shortest path bending at v). Permissive within a
    small tolerance: an extra candidate costs time, a missing one would cost correctness."""
    return tangent_u(X, v, unit_vectors(prv - v), unit_vectors(nxt - v))


def tangent_u(X: np.ndarray, v: np.ndarray, up: np.ndarray, un: np.ndarray) -> np.ndarray:
    """:func:`_tangent` with the unit directions from v to its neighbours given (graphs keep
    them per corner, so the many-pair tests do not recompute them)."""
    d = v - X
    s1 = d[..., 0] * up[..., 1] - d[..., 1] * up[..., 0]
    s2 = d[..., 0] * un[..., 1] - d[..., 1] * un[..., 0]
    tol = 1e-9 * (np.abs(d[..., 0]) + np.abs(d[..., 1]))
    return ((s1 >= -tol) & (s2 >= -tol)) | ((s1 <= tol) & (s2 <= tol))


def tangent_grid(X: np.ndarray, v: np.ndarray, up: np.ndarray, un: np.ndarray) -> np.ndarray:
    """(len(X), len(v)): :func:`tangent_u` of every point of X with every corner v (the same
    arithmetic, broadcast instead of gathered pair by pair), in blocks of rows of about
    :data:`GRID_BLOCK` elements (the temporaries stay in the cache: ~3x faster than one
    block at a few hundred by a few hundred)."""
    if jit.ENABLED:
        return jm.tangent_grid(np.ascontiguousarray(X, dtype=float),
                               np.ascontiguousarray(v, dtype=float),
                               np.ascontiguousarray(up, dtype=float),
                               np.ascontiguousarray(un, dtype=float))
    rows = max(1, GRID_BLOCK // max(len(v), 1))
    if len(X) <= rows:
        return _tangent_block(X, v, up, un)
    out = np.empty((len(X), len(v)), dtype=bool)
    for s in range(0, len(X), rows):
        out[s:s + rows] = _tangent_block(X[s:s + rows], v, up, un)
    return out


def _tangent_block(X: np.ndarray, v: np.ndarray, up: np.ndarray, un: np.ndarray) -> np.ndarray:
    """:func:`tangent_grid` of one block of rows."""
    dx = v[None, :, 0] - X[:, None, 0]
    dy = v[None, :, 1] - X[:, None, 1]
    # the same operations on the same operands as tangent_u, in place (fewer temporaries)
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
