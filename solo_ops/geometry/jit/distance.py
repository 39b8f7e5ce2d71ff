"""Compiled loops for single distances around walls (`routes.pairs.PairQuery`).

Each function reproduces one numpy routine of the geometry element by element, with the same
IEEE operations in the same order (see :mod:`solo_ops.geometry.jit`); the numpy routine stays
the reference and the fallback. Imported only when numba is available.

A query's rows (``Y``: one point's dot products with the measuring graph's static tables,
``X @ M + c``) stay a numpy matrix product, whose rounding (BLAS may fuse multiply-adds) these
loops do not try to reproduce; everything after it is here.
"""

from __future__ import annotations

import numpy as np

from solo_ops.geometry.jit import njit

CLEAR, BLOCKED, ON_VERTEX = 1, 0, 2
"""What :func:`direct` says of a straight segment: clear, blocked by a crossing, or clear of
crossings but passing exactly through an obstacle vertex (the caller decides that case with
the numpy code, which looks at the vertex's wedge)."""


@njit
def _sign(o: float, tl: float) -> np.int8:
    """``(o > tl) - (o < -tl)``: 1, -1, or 0 within the tolerance (and for NaN)."""
    if o > tl:
        return np.int8(1)
    if o < -tl:
        return np.int8(-1)
    return np.int8(0)


@njit
def direct(ya: np.ndarray, yb: np.ndarray, k1: int, k2: int, k3: int, c: float, tl: float,
           succ: np.ndarray, front_tol: np.ndarray) -> int:
    """The straight-segment test of ``PairQuery.query`` for points a, b with rows ``ya``,
    ``yb``: the sign of ``(yb[k2:k3] - ya[k2:k3]) - c`` against ``tl`` at every obstacle
    vertex, and a crossing where an edge's two ends have opposite signs, the edge faces a
    (``ya[k1:k2] > front_tol``) and b is behind it (``yb[k1:k2] < -front_tol``)."""
    e = succ.shape[0]
    s1 = np.empty(e, np.int8)
    zero = False
    for u in range(e):
        s1[u] = _sign((yb[k2 + u] - ya[k2 + u]) - c, tl)
        zero = zero or s1[u] == 0
    for u in range(e):
        if s1[u] * s1[succ[u]] == -1 and ya[k1 + u] > front_tol[u] \
                and yb[k1 + u] < -front_tol[u]:
            return BLOCKED
    return ON_VERTEX if zero else CLEAR


@njit
def seen(Y: np.ndarray, X: np.ndarray, n: int, k1: int, k2: int, C: np.ndarray,
         s4: np.ndarray, succ: np.ndarray, pos: np.ndarray, front_tol: np.ndarray,
         tol: float) -> tuple[np.ndarray, np.ndarray, int, bool]:
    """``PairQuery.seen``'s dense part for the points ``X`` with rows ``Y``: the corners the
    points see (ascending, the first point's first) and their straight distances, how many of
    them are the first point's, and whether a seen corner's segment passes exactly through an
    obstacle vertex (then the caller runs the numpy code, which settles that case at the
    vertex's wedge).

    A corner t is a candidate where ``Y[k, t] * Y[k, n + t] >= -1e-12`` (the segment is
    tangent there). With ``o = (C[t, u] - Y[k, k3 + t]) - Y[k, k2 + u]`` signed against
    ``tol * (|T - x| + 10)`` (:func:`_sign`), it is hidden where an edge u's two ends have
    opposite signs, the corner is strictly inside the edge's half-plane (``s4``) and the edge
    faces the point (``Y[k, k1 + u] > front_tol[u]``). Signs are worked out only where an
    edge needs them (the rest cannot change the answer), all of them for a corner seen."""
    m = Y.shape[0]
    e = succ.shape[0]
    k3 = k2 + e
    tt = np.empty(m * n, np.int64)
    dn = np.empty(m * n, np.float64)
    s1 = np.empty(e, np.int8)
    unknown = np.int8(2)
    cnt = 0
    cut = 0
    touch = False
    for k in range(m):
        if k == 1:
            cut = cnt
        x0 = X[k, 0]
        x1 = X[k, 1]
        yk = Y[k]
        for t in range(n):
            if not yk[t] * yk[n + t] >= -1e-12:
                continue
            d = np.hypot(pos[t, 0] - x0, pos[t, 1] - x1)
            tl2 = tol * (d + 10.0)
            yt = yk[k3 + t]
            ct = C[t]
            s4t = s4[t]
            s1[:] = unknown
            hit = False
            for u in range(e):
                if not (s4t[u] and yk[k1 + u] > front_tol[u]):
                    continue
                a = s1[u]
                if a == unknown:
                    a = s1[u] = _sign((ct[u] - yt) - yk[k2 + u], tl2)
                if a == 0:
                    continue
                v = succ[u]
                b = s1[v]
                if b == unknown:
                    b = s1[v] = _sign((ct[v] - yt) - yk[k2 + v], tl2)
                if a * b == -1:
                    hit = True
                    break
            if hit:
                continue
            for u in range(e):
                a = s1[u]
                if a == unknown:
                    a = _sign((ct[u] - yt) - yk[k2 + u], tl2)
                if a == 0:
                    touch = True
                    break
            tt[cnt] = t
            dn[cnt] = d
            cnt += 1
    if m == 1:
        cut = cnt
    return tt[:cnt], dn[:cnt], cut, touch


@njit
def best_pair(ia: np.ndarray, da: np.ndarray, jb: np.ndarray, db: np.ndarray,
              D: np.ndarray) -> tuple[int, int, float]:
    """``argmin`` of ``(da[:, None] + D[ia][:, jb]) + db`` in row-major order (the first of
    equal totals; the first NaN, as numpy's argmin): (row, column, total)."""
    bx, by = 0, 0
    best = (da[0] + D[ia[0], jb[0]]) + db[0]
    if np.isnan(best):
        return 0, 0, best
    for x in range(ia.shape[0]):
        dax = da[x]
        row = ia[x]
        for y in range(jb.shape[0]):
            v = (dax + D[row, jb[y]]) + db[y]
            if np.isnan(v):
                return x, y, v
            if v < best:
                best = v
                bx, by = x, y
    return bx, by, best


NEAR_EDGE = -1
"""What :func:`inside` says of a point too near an obstacle's edge to decide by arithmetic."""


@njit
def _inside_one(x: float, y: float, v: np.ndarray, nxt: np.ndarray, margin: float) -> int:
    """1 if (x, y) is inside the obstacles (rings ``v -> nxt``, even-odd), 0 if outside, or
    :data:`NEAR_EDGE` if it is within ``margin`` of an edge."""
    odd = False
    m2 = margin * margin
    for u in range(v.shape[0]):
        ax, ay, bx, by = v[u, 0], v[u, 1], nxt[u, 0], nxt[u, 1]
        dx, dy = bx - ax, by - ay
        px, py = x - ax, y - ay
        ll = dx * dx + dy * dy
        t = (px * dx + py * dy) / ll if ll > 0.0 else 0.0
        t = min(1.0, max(0.0, t))
        ex, ey = px - t * dx, py - t * dy
        if ex * ex + ey * ey <= m2:
            return NEAR_EDGE
        if (ay > y) != (by > y) and x < ax + (y - ay) * dx / dy:
            odd = not odd
    return 1 if odd else 0


@njit
def inside(ax: float, ay: float, bx: float, by: float, v: np.ndarray, nxt: np.ndarray,
           margin: float) -> tuple[int, int]:
    """Whether points a and b are inside the obstacles whose rings are ``v -> nxt`` (even-odd:
    exteriors and holes), each 1, 0 or :data:`NEAR_EDGE`. Far from every edge (more than
    ``margin``) this is the answer of ``shapely.contains_xy`` on the obstacles shrunk by less
    than ``margin``: the caller asks shapely about a point near an edge."""
    return _inside_one(ax, ay, v, nxt, margin), _inside_one(bx, by, v, nxt, margin)
