"""Compiled loops for movement around walls and bases: the one-segment wall test
(:func:`_one`, which :mod:`~solo_ops.geometry.jit.walls` takes run by run for
``routes.rings.blocked``), ``routes.rings.blocked_rows`` (the bases' own rings), sight from a
point, the searches and the bases' tests.

Each function reproduces one numpy routine of the geometry element by element, with the same
IEEE operations in the same order (see :mod:`solo_ops.geometry.jit`); the numpy routine stays
the reference and the fallback. Imported only when a kernel is first used.
"""

from __future__ import annotations

import heapq

import numpy as np

from solo_ops.geometry.jit import njit


@njit
def _sign(o: float, tl: float) -> int:
    """``(o > tl) - (o < -tl)``: 1, -1, or 0 within the tolerance (and for NaN)."""
    if o > tl:
        return 1
    if o < -tl:
        return -1
    return 0


@njit
def _unit(x: float, y: float) -> tuple[float, float]:
    """``routes.common.unit_vectors`` of one vector: divided by its length, or by 1 when that
    is 0."""
    n = np.hypot(x, y)
    if not n > 0:
        n = 1.0
    return x / n, y / n


@njit
def enters(dx: float, dy: float, vx: float, vy: float, px: float, py: float, nx: float,
           ny: float) -> bool:
    """``routes.rings.wedge_enters`` for one line of direction (dx, dy) through the obstacle vertex
    (vx, vy) with neighbours (px, py) before and (nx, ny) after (inside on the left): whether
    it goes into the obstacle there, in either direction."""
    ux, uy = _unit(dx, dy)
    e1x, e1y = _unit(nx - vx, ny - vy)
    e2x, e2y = _unit(px - vx, py - vy)
    convex = (vx - px) * (ny - vy) - (vy - py) * (nx - vx) >= 0
    tol = 1e-12
    for sgn in (1.0, -1.0):
        ddx, ddy = ux * sgn, uy * sgn
        if convex:
            if e1x * ddy - e1y * ddx > tol and ddx * e2y - ddy * e2x > tol:
                return True
        elif not (e2x * ddy - e2y * ddx >= -tol and ddx * e1y - ddy * e1x >= -tol):
            return True
    return False


CULL = 1e-9
"""Inches: an obstacle edge this far outside a segment's box cannot touch the segment within
the wall test's tolerances (:data:`routes.common.TOL` and :data:`routes.common.END` are 1e-11
and 1e-8 along it, the vertex test needs the vertex within 1e-11 of the segment)."""


@njit
def _one(px: float, py: float, qx: float, qy: float, v: np.ndarray, prv: np.ndarray,
         nxt: np.ndarray, f: np.ndarray, lf: np.ndarray, s1: np.ndarray, tol: float,
         end: float) -> bool:
    """Whether the segment p -> q goes into an obstacle of the rings ``v -> nxt`` (edge
    vectors ``f``, lengths ``lf``): ``routes.rings._blocked_dense`` for one segment. ``s1`` is
    scratch space, one entry a vertex.

    Per vertex u, ``o1 = dx * (u_y - p_y) - dy * (u_x - p_x)`` signed against ``tol * |q - p|``
    (``o2`` the same at the edge's end); an edge whose ends are strictly on either side is
    crossed where ``o3 = f_y * ux - f_x * uy`` and ``o4 = o3 + (f_x * dy - f_y * dx)`` are
    strictly on either side of ``tol * |f|``. With no crossing, a vertex within the tolerance
    of the line, strictly between the segment's ends (``end`` from each), blocks if the line
    goes into the obstacle there (:func:`enters`).

    An edge whose box lies more than :data:`CULL` beyond the segment's box is passed over
    (``s1`` 1): it can neither cross the segment (a crossing point lies in both boxes) nor have
    a vertex within the tolerance of the segment between its ends."""
    dx, dy = qx - px, qy - py
    ld = np.hypot(dx, dy)
    tl = tol * ld
    x0, x1 = min(px, qx) - CULL, max(px, qx) + CULL
    y0, y1 = min(py, qy) - CULL, max(py, qy) + CULL
    for e in range(v.shape[0]):
        vx, vy, wx, wy = v[e, 0], v[e, 1], nxt[e, 0], nxt[e, 1]
        if ((vx < x0 and wx < x0) or (vx > x1 and wx > x1) or (vy < y0 and wy < y0)
                or (vy > y1 and wy > y1)):
            s1[e] = 1
            continue
        ux, uy = vx - px, vy - py
        a = _sign(dx * uy - dy * ux, tl)
        s1[e] = a
        if a == 0:
            continue
        b = _sign(dx * (nxt[e, 1] - py) - dy * (nxt[e, 0] - px), tl)
        if a * b == -1:
            fx, fy = f[e, 0], f[e, 1]
            o3 = fy * ux - fx * uy
            o4 = o3 + (fx * dy - fy * dx)
            tf = tol * lf[e]
            if (o3 > tf and o4 < -tf) or (o3 < -tf and o4 > tf):
                return True
    div = ld if ld > 0 else 1.0
    for e in range(v.shape[0]):
        if s1[e] != 0:
            continue
        ux, uy = v[e, 0] - px, v[e, 1] - py
        if not abs(dx * uy - dy * ux) < tl:
            continue
        along = (ux * dx + uy * dy) / div
        if along > end and along < ld - end and enters(
                dx, dy, v[e, 0], v[e, 1], prv[e, 0], prv[e, 1], nxt[e, 0], nxt[e, 1]):
            return True
    return False


@njit
def _ring_scratch(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Room for one ring of n vertices: signs, neighbours before and after, edges, lengths."""
    return (np.empty(n, np.int8), np.empty((n, 2)), np.empty((n, 2)), np.empty((n, 2)),
            np.empty(n))


@njit
def _closed_ring(v: np.ndarray, prv: np.ndarray, nxt: np.ndarray, f: np.ndarray,
                 lf: np.ndarray) -> None:
    """Fill each vertex's neighbours, edge vector (``v[e + 1] - v[e]``) and edge length
    (``hypot``) of the closed ring ``v`` (n, 2), as ``routes.rings.blocked_rows`` works them
    out."""
    n = v.shape[0]
    for e in range(n):
        a, b = (e - 1) % n, (e + 1) % n
        prv[e, 0], prv[e, 1] = v[a, 0], v[a, 1]
        nxt[e, 0], nxt[e, 1] = v[b, 0], v[b, 1]
        f[e, 0], f[e, 1] = v[b, 0] - v[e, 0], v[b, 1] - v[e, 1]
        lf[e] = np.hypot(f[e, 0], f[e, 1])


@njit
def blocked_rows(P: np.ndarray, Q: np.ndarray, V: np.ndarray, tol: float, end: float
                 ) -> np.ndarray:
    """``routes.rings.blocked_rows``: (S,) whether each segment ``P[k] -> Q[k]`` goes into its own
    closed ring ``V[k]`` (n vertices, inside on the left), with each edge's vector and length
    worked out as there (``V[k, e + 1] - V[k, e]``, its ``hypot``)."""
    S, n = V.shape[0], V.shape[1]
    out = np.zeros(S, np.bool_)
    s1, prv, nxt, f, lf = _ring_scratch(n)
    for k in range(S):
        v = V[k]
        _closed_ring(v, prv, nxt, f, lf)
        out[k] = _one(P[k, 0], P[k, 1], Q[k, 0], Q[k, 1], v, prv, nxt, f, lf, s1, tol, end)
    return out


@njit
def tangent_grid(X: np.ndarray, v: np.ndarray, up: np.ndarray, un: np.ndarray) -> np.ndarray:
    """``routes.rings.tangent_grid``: (len(X), len(v)) whether the line from each point X[i] to
    each corner v[j] leaves both of the corner's neighbours (unit directions ``up``, ``un``)
    on one side, within ``1e-9 * (|dx| + |dy|)``."""
    out = np.empty((X.shape[0], v.shape[0]), np.bool_)
    for i in range(X.shape[0]):
        x0, x1 = X[i, 0], X[i, 1]
        for j in range(v.shape[0]):
            dx = v[j, 0] - x0
            dy = v[j, 1] - x1
            s1 = dx * up[j, 1] - dy * up[j, 0]
            s2 = dx * un[j, 1] - dy * un[j, 0]
            tol = (abs(dx) + abs(dy)) * 1e-9
            out[i, j] = (s1 >= -tol and s2 >= -tol) or (s1 <= tol and s2 <= tol)
    return out


@njit
def sees(x0: float, x1: float, T: np.ndarray, v: np.ndarray, prv: np.ndarray,
         nxt: np.ndarray, f: np.ndarray, lf: np.ndarray, succ: np.ndarray, s4: np.ndarray,
         has_s4: bool, tol: float, end: float) -> np.ndarray:
    """``routes.rings.sees``: (len(T),) whether the point x sees each point of T past the rings.

    Only edges facing x (``f_y * (x0 - u_x) - f_x * (x1 - u_y) > tol * lf``) are tested: one
    hides T[k] when its ends are strictly on either side of the sight line and T[k] is beyond
    its line (``s4[k, e]`` when ``has_s4``, else worked out as ``sees`` does); with none, a
    facing edge's start or end vertex on the line, strictly between the ends, hides T[k] when
    the line goes into the obstacle there (:func:`enters`). Starts first, then ends, as
    ``sees`` tests them (the answer is the same in any order)."""
    E = v.shape[0]
    front = np.empty(E, np.int64)
    nf = 0
    for e in range(E):
        if f[e, 1] * (x0 - v[e, 0]) - f[e, 0] * (x1 - v[e, 1]) > tol * lf[e]:
            front[nf] = e
            nf += 1
    out = np.ones(T.shape[0], np.bool_)
    if nf == 0:
        return out
    on1 = np.empty(nf, np.bool_)
    on2 = np.empty(nf, np.bool_)
    for k in range(T.shape[0]):
        dx, dy = T[k, 0] - x0, T[k, 1] - x1
        ld = np.hypot(dx, dy)
        tl = tol * ld
        hit = False
        for i in range(nf):
            e = front[i]
            o1 = dx * (v[e, 1] - x1) - dy * (v[e, 0] - x0)
            o2 = dx * (nxt[e, 1] - x1) - dy * (nxt[e, 0] - x0)
            p1, n1 = o1 > tl, o1 < -tl
            p2, n2 = o2 > tl, o2 < -tl
            on1[i] = not (p1 or n1)
            on2[i] = not (p2 or n2)
            if (p1 and n2) or (n1 and p2):
                if has_s4:
                    beyond = s4[k, e]
                else:
                    c = f[e, 0] * v[e, 1] - f[e, 1] * v[e, 0]
                    beyond = (T[k, 1] * f[e, 0] - T[k, 0] * f[e, 1]) - c > tol * lf[e]
                if beyond:
                    hit = True
                    break
        if hit:
            out[k] = False
            continue
        div = ld if ld > 0 else 1.0
        for second in (False, True):
            for i in range(nf):
                e = front[i]
                if second:
                    if not on2[i]:
                        continue
                    rx, ry = nxt[e, 0] - x0, nxt[e, 1] - x1
                    w = succ[e]
                else:
                    if not on1[i]:
                        continue
                    rx, ry = v[e, 0] - x0, v[e, 1] - x1
                    w = e
                along = (dx * rx + dy * ry) / div
                if along > end and along < ld - end and enters(
                        dx, dy, v[w, 0], v[w, 1], prv[w, 0], prv[w, 1], nxt[w, 0], nxt[w, 1]):
                    out[k] = False
                    break
            if not out[k]:
                break
    return out


@njit
def passing_blocked(P: np.ndarray, Q: np.ndarray, centres: np.ndarray, radii: np.ndarray,
                    x1: np.ndarray, x0: np.ndarray, y1: np.ndarray, y0: np.ndarray,
                    verts: np.ndarray, tol: float, end: float) -> np.ndarray:
    """``routes.discs.Discs.blocks``: (S,) whether segment ``P[k] -> Q[k]`` goes into any disc
    polygon (``verts``: (discs, n, 2), counter-clockwise). As ``Discs.passing`` then
    ``blocked_rows``: a disc is tested where the segment's box meets the disc's grown box
    (``x1, x0, y1, y0``) and the segment comes within ``radii + 1e-6`` of its centre (the
    gap from the closest point, ``t`` clipped to [0, 1]), its ring then as
    :func:`blocked_rows` tests it."""
    S = P.shape[0]
    n = verts.shape[1]
    out = np.zeros(S, np.bool_)
    s1, prv, nxt, f, lf = _ring_scratch(n)
    for s in range(S):
        out[s] = _disc_blocked(P[s, 0], P[s, 1], Q[s, 0], Q[s, 1], centres, radii, x1, x0,
                               y1, y0, verts, tol, end, s1, prv, nxt, f, lf)
    return out


@njit
def _disc_blocked(px: float, py: float, qx: float, qy: float, centres: np.ndarray,
                  radii: np.ndarray, x1: np.ndarray, x0: np.ndarray, y1: np.ndarray,
                  y0: np.ndarray, verts: np.ndarray, tol: float, end: float, s1: np.ndarray,
                  prv: np.ndarray, nxt: np.ndarray, f: np.ndarray, lf: np.ndarray) -> bool:
    """:func:`passing_blocked` of one segment (``s1`` ... ``lf``: :func:`_ring_scratch`)."""
    lox, hix = min(px, qx), max(px, qx)
    loy, hiy = min(py, qy), max(py, qy)
    dx, dy = qx - px, qy - py
    ld2 = max(dx * dx + dy * dy, 1e-300)
    for k in range(centres.shape[0]):
        if not (lox <= x1[k] and hix >= x0[k] and loy <= y1[k] and hiy >= y0[k]):
            continue
        rx, ry = centres[k, 0] - px, centres[k, 1] - py
        t = (rx * dx + ry * dy) / ld2
        t = min(max(t, 0.0), 1.0)
        if not np.hypot(rx - dx * t, ry - dy * t) < radii[k] + 1e-6:
            continue
        v = verts[k]
        _closed_ring(v, prv, nxt, f, lf)
        if _one(px, py, qx, qy, v, prv, nxt, f, lf, s1, tol, end):
            return True
    return False


@njit
def pair_depth(X: np.ndarray, xi: np.ndarray, ki: np.ndarray, verts: np.ndarray,
               edges: np.ndarray) -> np.ndarray:
    """``routes.discs.Discs.pair_depth``: (m,) how deep point ``X[xi[i]]`` is inside disc polygon
    ``ki[i]``: the least of ``e_x * (x_y - a_y) - e_y * (x_x - a_x)`` over its edges (unit
    vectors ``e`` from vertices ``a``)."""
    m = xi.shape[0]
    out = np.empty(m)
    for i in range(m):
        x, y = X[xi[i], 0], X[xi[i], 1]
        a, e = verts[ki[i]], edges[ki[i]]
        best = np.inf
        for j in range(a.shape[0]):
            v = e[j, 0] * (y - a[j, 1]) - e[j, 1] * (x - a[j, 0])
            if v < best or np.isnan(v):
                best = v
                if np.isnan(v):
                    break
        out[i] = best
    return out


@njit
def floyd(D: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``routes.paths.floyd`` after its start (``D``: the direct distances, 0 on the diagonal,
    changed in place): the all-pairs shortest distances and each pair's next node. Row and
    column k cannot change while k is the corner passed through (the diagonal stays 0 and
    distances are not negative), so updating in place reads what numpy's whole-array step
    reads; the same sum and the same ``alt < D - 1e-12`` test, pair by pair."""
    n = D.shape[0]
    nxt = np.empty((n, n), np.int64)
    for i in range(n):
        for j in range(n):
            nxt[i, j] = j
    for k in range(n):
        for i in range(n):
            dik = D[i, k]
            if dik == np.inf:
                continue  # inf + anything is never below D - 1e-12
            nik = nxt[i, k]
            for j in range(n):
                alt = dik + D[k, j]
                if alt < D[i, j] - 1e-12:
                    D[i, j] = alt
                    nxt[i, j] = nik
    return D, nxt


@njit
def dijkstra(n: int, init: np.ndarray, starts: np.ndarray, b: np.ndarray, ww: np.ndarray,
             limit: float) -> tuple[np.ndarray, np.ndarray]:
    """``routes.paths.dijkstra`` after its edge sort: shortest distances from the nodes with a
    finite ``init`` over the edges ``starts[k]..starts[k + 1]`` of each node k (to ``b``,
    weights ``ww``, in that order), and each node's predecessor (-1: from the start). The same
    binary heap of (distance, node) as Python's heapq (numba's is a port of it), so nodes are
    settled, and ties broken, in the same order; a node farther than ``limit`` is not
    expanded; an improvement must beat the distance by more than 1e-12."""
    dist = np.full(n, np.inf)
    pred = np.full(n, -1, np.int64)
    heap = [(0.0, 0)]
    heap.pop()
    for k in range(n):
        if np.isfinite(init[k]):
            dist[k] = init[k]
            heap.append((dist[k], k))
    heapq.heapify(heap)
    done = np.zeros(n, np.bool_)
    while len(heap):
        dk, k = heapq.heappop(heap)
        if done[k] or dk > dist[k]:
            continue
        done[k] = True
        if dk > limit:
            continue
        for i in range(starts[k], starts[k + 1]):
            m = b[i]
            nd = dk + ww[i]
            if nd < dist[m] - 1e-12:
                dist[m] = nd
                pred[m] = k
                heapq.heappush(heap, (nd, m))
    return dist, pred


@njit
def near(X: np.ndarray, centres: np.ndarray, radii: np.ndarray, pad: float
         ) -> tuple[np.ndarray, np.ndarray]:
    """``routes.discs.Discs.near``: the (point, disc) index pairs, in row-major order, where
    ``dx * dx + dy * dy < (r + pad) ** 2`` (numpy's square of a float is ``x * x``)."""
    n, k = X.shape[0], centres.shape[0]
    lim = np.empty(k)
    for j in range(k):
        s = radii[j] + pad
        lim[j] = s * s
    count = 0
    for i in range(n):
        for j in range(k):
            dx = X[i, 0] - centres[j, 0]
            dy = X[i, 1] - centres[j, 1]
            if dx * dx + dy * dy < lim[j]:
                count += 1
    xi = np.empty(count, np.int64)
    ki = np.empty(count, np.int64)
    m = 0
    for i in range(n):
        for j in range(k):
            dx = X[i, 0] - centres[j, 0]
            dy = X[i, 1] - centres[j, 1]
            if dx * dx + dy * dy < lim[j]:
                xi[m] = i
                ki[m] = j
                m += 1
    return xi, ki



@njit
def _doubled(a: np.ndarray, b: np.ndarray, t: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The three growing outputs of :func:`crossings` and :func:`touches` (two index arrays
    and the ``t`` along the segment), full: copied into arrays twice as long."""
    n = len(a)
    a2 = np.empty(2 * n, np.int64)
    b2 = np.empty(2 * n, np.int64)
    t2 = np.empty(2 * n)
    a2[:n] = a
    b2[:n] = b
    t2[:n] = t
    return a2, b2, t2


@njit
def crossings(P: np.ndarray, Q: np.ndarray, e0: np.ndarray, e1: np.ndarray, idx: np.ndarray,
              tol: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``routes.rings.crossings`` of the segments ``idx``: (segment, edge, t along the segment) of
    every proper crossing of ``P->Q`` with ``e0->e1``, segment by segment, edges in order
    (where the boxes, the edges' grown by ``tol``, overlap; ends within ``tol`` times a
    length of the other line do not count)."""
    ne = e0.shape[0]
    lo = np.empty((ne, 2))
    hi = np.empty((ne, 2))
    for e in range(ne):
        for c in range(2):
            lo[e, c] = min(e0[e, c], e1[e, c]) - tol
            hi[e, c] = max(e0[e, c], e1[e, c]) + tol
    out_s = np.empty(16, np.int64)
    out_e = np.empty(16, np.int64)
    out_t = np.empty(16)
    m = 0
    for s in idx:
        ax, ay, bx, by = P[s, 0], P[s, 1], Q[s, 0], Q[s, 1]
        lox, hix = min(ax, bx), max(ax, bx)
        loy, hiy = min(ay, by), max(ay, by)
        dx, dy = bx - ax, by - ay
        ld = np.hypot(dx, dy)
        tl = tol * ld
        for e in range(ne):
            if not (lox <= hi[e, 0] and hix >= lo[e, 0] and loy <= hi[e, 1]
                    and hiy >= lo[e, 1]):
                continue
            ux, uy, wx, wy = e0[e, 0], e0[e, 1], e1[e, 0], e1[e, 1]
            fx, fy = wx - ux, wy - uy
            lf = np.hypot(fx, fy)
            o1 = dx * (uy - ay) - dy * (ux - ax)
            o2 = dx * (wy - ay) - dy * (wx - ax)
            o3 = fx * (ay - uy) - fy * (ax - ux)
            o4 = fx * (by - uy) - fy * (bx - ux)
            tf = tol * lf
            if not (((o1 > tl and o2 < -tl) or (o1 < -tl and o2 > tl))
                    and ((o3 > tf and o4 < -tf) or (o3 < -tf and o4 > tf))):
                continue
            if m == len(out_s):
                out_s, out_e, out_t = _doubled(out_s, out_e, out_t)
            out_s[m] = s
            out_e[m] = e
            out_t[m] = o3 / (o3 - o4)
            m += 1
    return out_s[:m], out_e[:m], out_t[:m]


@njit
def touches(P: np.ndarray, Q: np.ndarray, v: np.ndarray, idx: np.ndarray, near: float
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``routes.rings.touches`` of the segments ``idx``: (segment, vertex, t along the
    segment) of every vertex within ``near`` of a segment and more than ``near`` from both its
    ends, segment by segment, vertices in order (within the segment's box grown by
    ``near``)."""
    nv = v.shape[0]
    out_s = np.empty(16, np.int64)
    out_v = np.empty(16, np.int64)
    out_t = np.empty(16)
    m = 0
    for s in idx:
        ax, ay, bx, by = P[s, 0], P[s, 1], Q[s, 0], Q[s, 1]
        lox, hix = min(ax, bx) - near, max(ax, bx) + near
        loy, hiy = min(ay, by) - near, max(ay, by) + near
        dx, dy = bx - ax, by - ay
        ld = np.hypot(dx, dy)
        if not ld > 2 * near:
            continue
        for k in range(nv):
            vx, vy = v[k, 0], v[k, 1]
            if not (lox <= vx and hix >= vx and loy <= vy and hiy >= vy):
                continue
            wx, wy = vx - ax, vy - ay
            along = (wx * dx + wy * dy) / ld
            if not (abs(dx * wy - dy * wx) <= near * ld and along > near and along < ld - near):
                continue
            if m == len(out_s):
                out_s, out_v, out_t = _doubled(out_s, out_v, out_t)
            out_s[m] = s
            out_v[m] = k
            out_t[m] = along / ld
            m += 1
    return out_s[:m], out_v[:m], out_t[:m]


@njit
def clear_of(X: np.ndarray, centres: np.ndarray, radii: np.ndarray, inner: np.ndarray,
             verts: np.ndarray, edges: np.ndarray, tol: float) -> np.ndarray:
    """``routes.discs.Discs.clear_of``: (n,) whether no disc polygon holds point ``X[i]`` deeper
    than ``tol``: within a disc's circle (+1e-6, as :func:`near`), deeper than ``tol`` + 1e-6
    short of its inradius ``inner``, else by :func:`pair_depth`'s least edge term."""
    n, k = X.shape[0], centres.shape[0]
    out = np.ones(n, np.bool_)
    for i in range(n):
        x, y = X[i, 0], X[i, 1]
        for j in range(k):
            dx = x - centres[j, 0]
            dy = y - centres[j, 1]
            s = radii[j] + 1e-6
            if not dx * dx + dy * dy < s * s:
                continue
            if np.hypot(dx, dy) < inner[j] - (tol + 1e-6):
                out[i] = False
                break
            a, e = verts[j], edges[j]
            best = np.inf
            for m in range(a.shape[0]):
                v = e[m, 0] * (y - a[m, 1]) - e[m, 1] * (x - a[m, 0])
                if v < best or np.isnan(v):
                    best = v
                    if np.isnan(v):
                        break
            if best > tol:
                out[i] = False
                break
    return out


@njit
def disc_corner_table(V: np.ndarray, nudge: float) -> tuple[np.ndarray, np.ndarray]:
    """``Walker.disc_corners``' arithmetic for the vertex rings ``V`` (m, n, 2) of m disc
    polygons (``Rings.corners`` with each vertex's neighbours from ``np.roll``, and the unit
    directions to them): a row per vertex, disc by disc, ``[nudged, v, prv, nxt, unit to prv,
    unit to nxt]`` (12 floats), and whether the vertex is a convex corner (turning left by
    more than 1e-12, with a bisector longer than 1e-9)."""
    m, n = V.shape[0], V.shape[1]
    table = np.empty((m * n, 12))
    convex = np.empty(m * n, np.bool_)
    for d in range(m):
        for k in range(n):
            row = d * n + k
            vx, vy = V[d, k, 0], V[d, k, 1]
            kp = k - 1 if k > 0 else n - 1
            kn = k + 1 if k < n - 1 else 0
            px, py = V[d, kp, 0], V[d, kp, 1]
            nx, ny = V[d, kn, 0], V[d, kn, 1]
            dix, diy = vx - px, vy - py
            dox, doy = nx - vx, ny - vy
            uix, uiy = _unit(dix, diy)
            uox, uoy = _unit(dox, doy)
            turn = uix * uoy - uiy * uox
            nix, niy = _unit(diy, -dix)
            nox, noy = _unit(doy, -dox)
            bx, by = nix + nox, niy + noy
            ok = np.hypot(bx, by) > 1e-9
            convex[row] = (turn > 1e-12) and ok
            ubx, uby = _unit(bx, by)
            table[row, 0] = vx + nudge * ubx
            table[row, 1] = vy + nudge * uby
            table[row, 2], table[row, 3] = vx, vy
            table[row, 4], table[row, 5] = px, py
            table[row, 6], table[row, 7] = nx, ny
            table[row, 8], table[row, 9] = _unit(px - vx, py - vy)
            table[row, 10], table[row, 11] = _unit(nx - vx, ny - vy)
    return table, convex
