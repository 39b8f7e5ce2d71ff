"""Compiled wall tests of segments against a board's rings, an edge run at a time:
``routes.rings.blocked`` (:func:`blocked`), the pairs a walking graph gains with other bases
(:func:`pairs_new`) and the corner step of a reach (:func:`first_clear`).

The rings come with their runs of consecutive edges and each run's box (``routes.rings.
run_boxes``, the boxes ``blocked_boxed`` tests): a run whose box lies beyond a segment's box
(grown by :data:`~solo_ops.geometry.jit.movement.CULL`) holds no edge the segment can meet, so
its edges are passed over as :func:`~solo_ops.geometry.jit.movement._one` passes each of them
over -- the same booleans, with a box test per run instead of per edge (a walk's segments are
short beside the board: most runs are far from each).
"""

from __future__ import annotations

import numpy as np

from solo_ops.geometry.jit import njit
from solo_ops.geometry.jit.movement import CULL, _disc_blocked, _ring_scratch, _sign, enters


@njit
def _one_runs(px: float, py: float, qx: float, qy: float, v: np.ndarray, prv: np.ndarray,
              nxt: np.ndarray, f: np.ndarray, lf: np.ndarray, cs: np.ndarray, cl: np.ndarray,
              rlo: np.ndarray, rhi: np.ndarray, s1: np.ndarray, live: np.ndarray,
              tol: float, end: float) -> bool:
    """``movement._one`` (whether the segment p -> q goes into an obstacle of the rings), its
    edges taken run by run (run r: edges ``cs[r] .. cs[r] + cl[r] - 1``, box ``rlo[r]`` ..
    ``rhi[r]``): a run whose box is apart from the segment's box grown by ``CULL`` is passed
    over whole, every other edge tested as ``_one`` tests it, in the same order. ``s1`` (a
    vertex) and ``live`` (a run) are scratch space."""
    dx, dy = qx - px, qy - py
    ld = np.hypot(dx, dy)
    tl = tol * ld
    x0, x1 = min(px, qx) - CULL, max(px, qx) + CULL
    y0, y1 = min(py, qy) - CULL, max(py, qy) + CULL
    nl = 0
    for r in range(cs.shape[0]):
        if rhi[r, 0] < x0 or rlo[r, 0] > x1 or rhi[r, 1] < y0 or rlo[r, 1] > y1:
            continue  # every edge of the run would be passed over
        live[nl] = r
        nl += 1
        for e in range(cs[r], cs[r] + cl[r]):
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
    for i in range(nl):
        r = live[i]
        for e in range(cs[r], cs[r] + cl[r]):
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
def blocked(P: np.ndarray, Q: np.ndarray, v: np.ndarray, prv: np.ndarray, nxt: np.ndarray,
            f: np.ndarray, lf: np.ndarray, cs: np.ndarray, cl: np.ndarray, rlo: np.ndarray,
            rhi: np.ndarray, tol: float, end: float) -> np.ndarray:
    """``routes.rings.blocked``: (S,) whether each segment ``P[k] -> Q[k]`` goes into an obstacle
    of the rings (vertices ``v`` with their neighbours, edge vectors ``f = nxt - v`` and
    lengths ``lf``, runs ``cs``, ``cl`` with boxes ``rlo``, ``rhi``): every segment against
    every edge, as ``_blocked_dense`` (which ``blocked_boxed`` equals: the pairs it skips
    cannot cross or touch), by :func:`_one_runs`."""
    out = np.zeros(P.shape[0], np.bool_)
    s1 = np.empty(v.shape[0], np.int8)
    live = np.empty(cs.shape[0], np.int64)
    for k in range(P.shape[0]):
        out[k] = _one_runs(P[k, 0], P[k, 1], Q[k, 0], Q[k, 1], v, prv, nxt, f, lf, cs, cl, rlo,
                           rhi, s1, live, tol, end)
    return out


@njit
def first_clear(xi: np.ndarray, nj: np.ndarray, C: np.ndarray, pos: np.ndarray,
                v: np.ndarray, prv: np.ndarray, nxt: np.ndarray, f: np.ndarray, lf: np.ndarray,
                cs: np.ndarray, cl: np.ndarray, rlo: np.ndarray, rhi: np.ndarray,
                centres: np.ndarray, radii: np.ndarray, x1: np.ndarray, x0: np.ndarray,
                y1: np.ndarray, y0: np.ndarray, verts: np.ndarray, tol: float, end: float
                ) -> np.ndarray:
    """The rounds of ``routes.graph.best_links``: links ``C[xi[k]] -> pos[nj[k]]`` come grouped by
    point, cheapest first; the index of each point's first link clear of the walls (the rings
    ``v`` ..., with their runs) and of the bases (``centres`` ..., none when empty), in point
    order. A link is blocked or not on its own, so trying them one by one finds the link the
    rounds find."""
    m = xi.shape[0]
    out = np.empty(m, np.int64)
    found = 0
    ws1 = np.empty(v.shape[0], np.int8)
    live = np.empty(cs.shape[0], np.int64)
    s1, dprv, dnxt, df, dlf = _ring_scratch(verts.shape[1])
    done = -1
    for k in range(m):
        i = xi[k]
        if i == done:
            continue
        cx, cy = C[i, 0], C[i, 1]
        px, py = pos[nj[k], 0], pos[nj[k], 1]
        if v.shape[0] and _one_runs(cx, cy, px, py, v, prv, nxt, f, lf, cs, cl, rlo, rhi, ws1,
                                    live, tol, end):
            continue
        if centres.shape[0] and _disc_blocked(cx, cy, px, py, centres, radii, x1, x0, y1, y0,
                                              verts, tol, end, s1, dprv, dnxt, df, dlf):
            continue
        out[found] = k
        found += 1
        done = i
    return out[:found]


@njit
def _tangent(x0: float, x1: float, vx: float, vy: float, upx: float, upy: float, unx: float,
             uny: float) -> bool:
    """``routes.rings.tangent_u`` of one point and one corner (as ``movement.tangent_grid``)."""
    dx = vx - x0
    dy = vy - x1
    s1 = dx * upy - dy * upx
    s2 = dx * uny - dy * unx
    tol = (abs(dx) + abs(dy)) * 1e-9
    return (s1 >= -tol and s2 >= -tol) or (s1 <= tol and s2 <= tol)


@njit
def pairs_new(a: np.ndarray, others: np.ndarray, ns: int, real: np.ndarray, up: np.ndarray,
              un: np.ndarray, pos: np.ndarray, v: np.ndarray, prv: np.ndarray,
              nxt: np.ndarray, f: np.ndarray, lf: np.ndarray, cs: np.ndarray, cl: np.ndarray,
              rlo: np.ndarray, rhi: np.ndarray, centres: np.ndarray,
              radii: np.ndarray, x1: np.ndarray, x0: np.ndarray, y1: np.ndarray,
              y0: np.ndarray, verts: np.ndarray, tol: float, end: float
              ) -> tuple[np.ndarray, np.ndarray]:
    """``routes.graph.Graph.pairs_new`` up to the costs: the pairs (``a[p]``, ``others[q]``) --
    ``others`` the ``ns`` old corners then ``a`` itself -- tangent both ways (and ``p < q``
    among ``a``), clear of the walls (rings ``v`` ..., with their runs) and of the bases
    (``centres`` ..., none when empty), in row-major order: the rows (p) and columns (q) of
    the pairs kept."""
    na, no = a.shape[0], others.shape[0]
    cap = 64
    out_p = np.empty(cap, np.int64)
    out_q = np.empty(cap, np.int64)
    m = 0
    ws1 = np.empty(v.shape[0], np.int8)
    live = np.empty(cs.shape[0], np.int64)
    s1, dprv, dnxt, df, dlf = _ring_scratch(verts.shape[1])
    for p in range(na):
        i = a[p]
        rx, ry = real[i, 0], real[i, 1]
        for q in range(no):
            if q >= ns and q - ns <= p:
                continue  # among the new corners only i < j
            j = others[q]
            # tangent at the new corner first: a base polygon's corner is tangent to about
            # one direction in eight, a wall's to one in two (both must hold: the same pairs)
            if not _tangent(real[j, 0], real[j, 1], rx, ry, up[i, 0], up[i, 1], un[i, 0],
                            un[i, 1]):
                continue
            if not _tangent(rx, ry, real[j, 0], real[j, 1], up[j, 0], up[j, 1], un[j, 0],
                            un[j, 1]):
                continue
            px, py, qx, qy = pos[i, 0], pos[i, 1], pos[j, 0], pos[j, 1]
            if v.shape[0] and _one_runs(px, py, qx, qy, v, prv, nxt, f, lf, cs, cl, rlo, rhi,
                                        ws1, live, tol, end):
                continue
            if centres.shape[0] and _disc_blocked(px, py, qx, qy, centres, radii, x1, x0, y1,
                                                  y0, verts, tol, end, s1, dprv, dnxt, df,
                                                  dlf):
                continue
            if m == cap:
                cap *= 2
                grow_p = np.empty(cap, np.int64)
                grow_q = np.empty(cap, np.int64)
                grow_p[:m] = out_p
                grow_q[:m] = out_q
                out_p, out_q = grow_p, grow_q
            out_p[m] = p
            out_q[m] = q
            m += 1
    return out_p[:m], out_q[:m]


@njit
def _seg_dist_le(px: float, py: float, qx: float, qy: float, ax: float, ay: float, bx: float,
                 by: float, margin: float) -> bool:
    """Whether the segments p -> q and a -> b may come within ``margin`` of each other: an end
    of one within ``margin`` of the other (or a degenerate one), or the two crossing by their
    ends' sides (taken loosely: a side within rounding counts both ways). Never False for
    segments closer than ``margin`` less the arithmetic's rounding."""
    for k in range(4):
        if k == 0:
            x, y, sx, sy, ex, ey = px, py, ax, ay, bx, by
        elif k == 1:
            x, y, sx, sy, ex, ey = qx, qy, ax, ay, bx, by
        elif k == 2:
            x, y, sx, sy, ex, ey = ax, ay, px, py, qx, qy
        else:
            x, y, sx, sy, ex, ey = bx, by, px, py, qx, qy
        dx, dy = ex - sx, ey - sy
        l2 = dx * dx + dy * dy
        t = 0.0
        if l2 > 0:
            t = ((x - sx) * dx + (y - sy) * dy) / l2
            t = min(max(t, 0.0), 1.0)
        if np.hypot(x - (sx + t * dx), y - (sy + t * dy)) <= margin:
            return True
    dx, dy = qx - px, qy - py
    fx, fy = bx - ax, by - ay
    o1 = dx * (ay - py) - dy * (ax - px)
    o2 = dx * (by - py) - dy * (bx - px)
    o3 = fx * (py - ay) - fy * (px - ax)
    o4 = fx * (qy - ay) - fy * (qx - ax)
    return o1 * o2 <= 0 and o3 * o4 <= 0


@njit
def soft_near(P: np.ndarray, Q: np.ndarray, ev: np.ndarray, en: np.ndarray,
              starts: np.ndarray, boxes: np.ndarray, margin: float) -> np.ndarray:
    """For ``routes.costs._Soft.cost``: (S,) whether segment ``P[k] -> Q[k]`` may come within
    ``margin`` of an edge ``ev -> en`` of a surcharged footprint (footprint f's edges are
    ``starts[f] .. starts[f + 1] - 1``, its box grown by ``margin`` ``boxes[f]``). A segment
    farther than that from every outline crosses none, passes no corner and has no end on one,
    so it costs nothing (the footprints' boxes first, then their edges)."""
    S = P.shape[0]
    out = np.zeros(S, np.bool_)
    for s in range(S):
        px, py, qx, qy = P[s, 0], P[s, 1], Q[s, 0], Q[s, 1]
        lox, hix = min(px, qx), max(px, qx)
        loy, hiy = min(py, qy), max(py, qy)
        for f in range(boxes.shape[0]):
            if not (hix >= boxes[f, 0] and lox <= boxes[f, 2] and hiy >= boxes[f, 1]
                    and loy <= boxes[f, 3]):
                continue
            for e in range(starts[f], starts[f + 1]):
                ax, ay, bx, by = ev[e, 0], ev[e, 1], en[e, 0], en[e, 1]
                if (max(ax, bx) < lox - margin or min(ax, bx) > hix + margin
                        or max(ay, by) < loy - margin or min(ay, by) > hiy + margin):
                    continue
                if _seg_dist_le(px, py, qx, qy, ax, ay, bx, by, margin):
                    out[s] = True
                    break
            if out[s]:
                break
    return out
