"""Compiled loops for other models' bases on a walk (``routes.discs.Discs``): whether a base
hides a corner from a point (:func:`hides`), the one-point links of every reach.

Each is the numpy code's arithmetic element by element (see the package notes), reusing the
wall test's pieces of :mod:`~solo_ops.geometry.jit.movement`.
"""

from __future__ import annotations

import numpy as np

from solo_ops.geometry.jit import njit
from solo_ops.geometry.jit.movement import _closed_ring, _ring_scratch, enters


@njit
def _ring_hides(x0: float, x1: float, tx: float, ty: float, v: np.ndarray, prv: np.ndarray,
                nxt: np.ndarray, f: np.ndarray, lf: np.ndarray, tol: float, end: float) -> bool:
    """``routes.rings.sees_rows`` of one point ``(tx, ty)`` from ``(x0, x1)`` against the
    closed ring ``v`` (neighbours and edges from :func:`_closed_ring`), negated: an edge facing
    x (``f_y * (x0 - u_x) - f_x * (x1 - u_y) > tol * lf``) whose ends are strictly on either
    side of the sight line hides the point when it lies strictly beyond the edge's line; else
    a facing edge's start or end vertex on the line, strictly between the ends (``end``), hides
    it when the line goes into the ring there (:func:`enters`)."""
    n = v.shape[0]
    dx, dy = tx - x0, ty - x1
    ld = np.hypot(dx, dy)
    tl = tol * ld
    for e in range(n):
        if not f[e, 1] * (x0 - v[e, 0]) - f[e, 0] * (x1 - v[e, 1]) > tol * lf[e]:
            continue
        o1 = dx * (v[e, 1] - x1) - dy * (v[e, 0] - x0)
        o2 = dx * (nxt[e, 1] - x1) - dy * (nxt[e, 0] - x0)
        if (o1 > tl and o2 < -tl) or (o1 < -tl and o2 > tl):
            c = f[e, 0] * v[e, 1] - f[e, 1] * v[e, 0]
            if ty * f[e, 0] - tx * f[e, 1] - c > tol * lf[e]:
                return True
    div = ld if ld > 0 else 1.0
    for e in range(n):
        if not f[e, 1] * (x0 - v[e, 0]) - f[e, 0] * (x1 - v[e, 1]) > tol * lf[e]:
            continue
        for second in (False, True):
            w = (e + 1) % n if second else e
            o = dx * (v[w, 1] - x1) - dy * (v[w, 0] - x0)
            if o > tl or o < -tl:
                continue
            rx, ry = v[w, 0] - x0, v[w, 1] - x1
            along = (dx * rx + dy * ry) / div
            if along > end and along < ld - end and enters(
                    dx, dy, v[w, 0], v[w, 1], prv[w, 0], prv[w, 1], nxt[w, 0], nxt[w, 1]):
                return True
    return False


@njit
def hides(x0: float, x1: float, T: np.ndarray, centres: np.ndarray, radii: np.ndarray,
          bx1: np.ndarray, bx0: np.ndarray, by1: np.ndarray, by0: np.ndarray,
          verts: np.ndarray, tol: float, end: float) -> np.ndarray:
    """``routes.discs.Discs.hides``: (len(T),) whether a disc polygon (``verts``: (discs, n,
    2), counter-clockwise) hides ``T[k]`` from x. As ``Discs.passing`` then ``sees_rows``: a
    disc is tested where the sight line's box meets the disc's grown box (``bx1, bx0, by1,
    by0``) and the line comes within ``radii + 1e-6`` of its centre (the gap from the closest
    point, ``t`` clipped to [0, 1]), its ring then as :func:`_ring_hides` tests it."""
    S = T.shape[0]
    out = np.zeros(S, np.bool_)
    _, prv, nxt, f, lf = _ring_scratch(verts.shape[1])
    for s in range(S):
        qx, qy = T[s, 0], T[s, 1]
        lox, hix = min(x0, qx), max(x0, qx)
        loy, hiy = min(x1, qy), max(x1, qy)
        dx, dy = qx - x0, qy - x1
        ld2 = max(dx * dx + dy * dy, 1e-300)
        for k in range(centres.shape[0]):
            if not (lox <= bx1[k] and hix >= bx0[k] and loy <= by1[k] and hiy >= by0[k]):
                continue
            rx, ry = centres[k, 0] - x0, centres[k, 1] - x1
            t = (rx * dx + ry * dy) / ld2
            t = min(max(t, 0.0), 1.0)
            if not np.hypot(rx - dx * t, ry - dy * t) < radii[k] + 1e-6:
                continue
            _closed_ring(verts[k], prv, nxt, f, lf)
            if _ring_hides(x0, x1, qx, qy, verts[k], prv, nxt, f, lf, tol, end):
                out[s] = True
                break
    return out
