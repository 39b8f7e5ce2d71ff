"""Compiled loops for line of sight and cover (``sight``).

Each function reproduces one numpy routine of the geometry element by element, with the same
IEEE operations in the same order (see :mod:`solo_ops.geometry.jit`); the numpy routine stays
the reference and the fallback. Imported only when a kernel is first used.
"""

from __future__ import annotations

import numpy as np

from solo_ops.geometry.jit import njit


@njit
def _sign(x: float) -> float:
    """``np.sign`` of one float: 1.0, -1.0, 0.0, or the NaN itself."""
    if x > 0:
        return 1.0
    if x < 0:
        return -1.0
    if x == 0:
        return 0.0
    return x


@njit
def _tri_box(tri: np.ndarray, i: int, box: np.ndarray, k: int) -> tuple[bool, bool]:
    """``sight.cover.triangle_meets_box`` of triangle ``tri[i]`` and box ``box[k]``."""
    cx, cy = (box[k, 0] + box[k, 2]) / 2, (box[k, 1] + box[k, 3]) / 2
    hx, hy = (box[k, 2] - box[k, 0]) / 2, (box[k, 3] - box[k, 1]) / 2
    v0x, v0y = tri[i, 0, 0], tri[i, 0, 1]
    v1x, v1y = tri[i, 1, 0], tri[i, 1, 1]
    v2x, v2y = tri[i, 2, 0], tri[i, 2, 1]
    turn = _sign((v1x - v0x) * (v2y - v0y) - (v1y - v0y) * (v2x - v0x))
    apart = False
    clearly = False
    tie = turn == 0
    for e in range(3):
        ax, ay, bx, by = _tri_edge(e, v0x, v0y, v1x, v1y, v2x, v2y)
        ex, ey = (bx - ax) * turn, (by - ay) * turn
        gap = (ey * (cx - ax) - ex * (cy - ay)) - (abs(ey) * hx + abs(ex) * hy)
        scale = np.hypot(ex, ey) * 1e-9
        apart = apart or gap > 0
        clearly = clearly or gap > scale
        tie = tie or abs(gap) <= scale
    return not apart, clearly or not tie


@njit
def _grow(a: np.ndarray) -> np.ndarray:
    """``a`` (full) in an array twice as long."""
    out = np.empty(2 * a.shape[0], a.dtype)
    out[:a.shape[0]] = a
    return out


@njit
def heavy_candidates(tri: np.ndarray, box: np.ndarray, is_box: np.ndarray, zt: np.ndarray,
                     za: np.ndarray, coords: np.ndarray, rings: np.ndarray, polys: np.ndarray,
                     geoms: np.ndarray, outlines: bool
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The first stages of ``sight.cover.CoverJob._obscured``: every (triangle, feature) pair whose
    boxes meet (a NaN box meets none), in row-major order, with ``triangle_meets_box``'s
    (may meet, clear of ties) -- the latter only for box-shaped features (``is_box``); with
    ``outlines`` (the features' ragged arrays) what :func:`triangles_meet` settles of the rest,
    and (n,) whether a triangle has an :func:`obscure_witness` (zones ``zt``, ``za`` per
    triangle) with a feature it surely meets."""
    ti, fi = np.empty(64, np.int64), np.empty(64, np.int64)
    meets, sure = np.empty(64, np.bool_), np.empty(64, np.bool_)
    seen = np.zeros(tri.shape[0], np.bool_)
    m = 0
    for i in range(tri.shape[0]):
        lox = min(tri[i, 0, 0], tri[i, 1, 0], tri[i, 2, 0])
        hix = max(tri[i, 0, 0], tri[i, 1, 0], tri[i, 2, 0])
        loy = min(tri[i, 0, 1], tri[i, 1, 1], tri[i, 2, 1])
        hiy = max(tri[i, 0, 1], tri[i, 1, 1], tri[i, 2, 1])
        for k in range(box.shape[0]):
            if not (lox <= box[k, 2] and hix >= box[k, 0] and loy <= box[k, 3]
                    and hiy >= box[k, 1]):
                continue
            if m == ti.shape[0]:
                ti, fi, meets, sure = _grow(ti), _grow(fi), _grow(meets), _grow(sure)
            mt, st = _tri_box(tri, i, box, k)
            st = st and is_box[k]
            if outlines and mt and not st:
                got = _meets_one(tri, i, k, coords, rings, polys, geoms)
                mt, st = got != 0, got >= 0
            if outlines and mt and st and not seen[i]:
                seen[i] = _witness_one(tri, i, k, zt, za, coords, rings, polys, geoms)
            ti[m], fi[m], meets[m], sure[m] = i, k, mt, st
            m += 1
    return ti[:m], fi[:m], meets[:m], sure[:m], seen


@njit
def _max(a: float, b: float) -> float:
    """Python's ``max(a, b)``: b only when b > a (so a NaN b never wins)."""
    return b if b > a else a


@njit
def _min(a: float, b: float) -> float:
    """Python's ``min(a, b)``: b only when b < a."""
    return b if b < a else a


@njit
def clip_one(px: float, py: float, vx: float, vy: float, sides: np.ndarray, count: int,
             near: float) -> tuple[bool, bool]:
    """``sight.scalar.clip_one``: the Cyrus-Beck test of segment ``P + t v`` against one convex
    piece (its first ``count`` sides ``(nx, ny, c)``), shrunk and grown by ``near``: (meets the
    shrunk piece, meets the grown one), with the Python floats' operations in their order."""
    ei = eo = li = lo = 0.0  # enter and leave - 1, inner and outer
    hei = heo = hli = hlo = False  # whether each has a term yet
    out_i = out_o = False
    for s in range(count):
        nx, ny, c = sides[s, 0], sides[s, 1], sides[s, 2]
        num = c - (nx * px + ny * py)
        den = nx * vx + ny * vy
        mi, mo = num + -near, num + near
        if den < 0.0:
            ri, ro = mi / den, mo / den
            if not hei or ri > ei:
                ei, hei = ri, True
            if not heo or ro > eo:
                eo, heo = ro, True
            if np.isfinite(ri) and (not hli or 0.0 < li):
                li, hli = 0.0, True
            if np.isfinite(ro) and (not hlo or 0.0 < lo):
                lo, hlo = 0.0, True
        elif den > 0.0:
            ri, ro = mi / den - 1.0, mo / den - 1.0
            if not hli or ri < li:
                li, hli = ri, True
            if not hlo or ro < lo:
                lo, hlo = ro, True
            if np.isfinite(ri) and (not hei or 0.0 > ei):
                ei, hei = 0.0, True
            if np.isfinite(ro) and (not heo or 0.0 > eo):
                eo, heo = 0.0, True
        else:
            out_i = out_i or mi < 0.0
            out_o = out_o or mo < 0.0
    return (hei and hli and ei <= li + 1.0 and not out_i,
            heo and hlo and eo <= lo + 1.0 and not out_o)


BLOCKED, CLEAR, UNSURE = 0, 1, 2
"""What :func:`segment` says: meets a shrunk piece, meets no grown piece, or in between."""


@njit
def segment(px: float, py: float, qx: float, qy: float, boxes: np.ndarray, sides: np.ndarray,
            counts: np.ndarray, near: float) -> int:
    """``sight.scalar.Scalar.segment``: one sight segment against every piece (boxes ``(minx, miny,
    maxx, maxy)`` already grown, skipped when the segment's box misses them): BLOCKED at the
    first piece whose shrunk version it meets, else UNSURE if it met a grown one, else
    CLEAR (UNSURE for a zero-length segment: shapely's point test decides it)."""
    if px == qx and py == qy:
        return UNSURE
    vx, vy = qx - px, qy - py
    if px <= qx:
        lox, hix = px, qx
    else:
        lox, hix = qx, px
    if py <= qy:
        loy, hiy = py, qy
    else:
        loy, hiy = qy, py
    unsure = False
    for k in range(boxes.shape[0]):
        if lox > boxes[k, 2] or hix < boxes[k, 0] or loy > boxes[k, 3] or hiy < boxes[k, 1]:
            continue
        inner, outer = clip_one(px, py, vx, vy, sides[k], counts[k], near)
        if inner:
            return BLOCKED
        unsure = unsure or outer
    return UNSURE if unsure else CLEAR


@njit
def _tangent(alpha: float, beta: float, ux: float, uy: float, ax: float, ay: float, ra: float,
             sign: float) -> tuple[float, float, float]:
    """The outer common tangent of :func:`cut_off`'s two bases on side ``sign``: (mx, my, k),
    ``m.x >= k`` on the hull's side."""
    mx = alpha * ux - sign * beta * uy
    my = alpha * uy + sign * beta * ux
    return mx, my, mx * ax + my * ay - ra


@njit
def _inside(mx: float, my: float, k: float, e: np.ndarray, i: int, marg: float) -> bool:
    """Whether edge ``e[i]`` crosses the line ``m.x = k`` strictly inside itself (by ``marg``)."""
    denom = mx * e[i, 9] + my * e[i, 10]
    if denom == 0.0:
        return False
    t = (k - (mx * e[i, 7] + my * e[i, 8])) / denom
    return bool(np.isfinite(t) and t > marg and t < e[i, 11] - marg)


@njit
def cut_off(ax: float, ay: float, ra: float, bx: float, by: float, rb: float,
            edges: np.ndarray, marg: float) -> bool:
    """``sight.scalar.Scalar.cut_off``: whether a blocker edge separates the two bases (centres a,
    b, radii ra, rb) entirely. ``edges`` rows are ``(minx, maxx, miny, maxy, nx, ny, offset, x0,
    y0, tdx, tdy, length)``; an edge whose box meets the pair's and whose line has the bases
    strictly on either side (by ``marg``) must cross both outer tangent lines strictly inside
    itself. The Python floats' operations, in their order (the tangents worked out at the first
    such edge: the same numbers, and no answer depends on the order the edges are tried in)."""
    lo_x, lo_y = _min(ax - ra, bx - rb), _min(ay - ra, by - rb)
    hi_x, hi_y = _max(ax + ra, bx + rb), _max(ay + ra, by + rb)
    r0, r1 = ra + marg, rb + marg
    have = False
    m0x = m0y = k0 = m1x = m1y = k1 = 0.0
    for i in range(edges.shape[0]):
        if not (lo_x <= edges[i, 1] and hi_x >= edges[i, 0] and lo_y <= edges[i, 3]
                and hi_y >= edges[i, 2]):
            continue
        nx, ny, off = edges[i, 4], edges[i, 5], edges[i, 6]
        sa = ax * nx + ay * ny - off
        sb = bx * nx + by * ny - off
        if not ((sa > r0 and sb < -r1) or (sa < -r0 and sb > r1)):
            continue
        if not have:
            dx, dy = bx - ax, by - ay
            dist = np.hypot(dx, dy)
            if dist == 0.0:
                return False
            ux, uy = dx / dist, dy / dist
            alpha = (rb - ra) / dist
            beta = np.sqrt(_max(0.0, 1.0 - alpha * alpha))
            m0x, m0y, k0 = _tangent(alpha, beta, ux, uy, ax, ay, ra, 1.0)
            m1x, m1y, k1 = _tangent(alpha, beta, ux, uy, ax, ay, ra, -1.0)
            have = True
        if _inside(m0x, m0y, k0, edges, i, marg) and _inside(m1x, m1y, k1, edges, i, marg):
            return True
    return False


@njit
def _fmax(acc: float, x: float) -> float:
    """``np.fmax(acc, x)``: a NaN on either side gives the other."""
    if x != x:
        return acc
    if acc != acc:
        return x
    return x if x > acc else acc


@njit
def _fmin(acc: float, x: float) -> float:
    """``np.fmin(acc, x)``: a NaN on either side gives the other."""
    if x != x:
        return acc
    if acc != acc:
        return x
    return x if x < acc else acc


@njit
def pieces_hits(px: np.ndarray, py: np.ndarray, vx: np.ndarray, vy: np.ndarray,
                cx32: np.ndarray, cy32: np.ndarray, hx32: np.ndarray, hy32: np.ndarray,
                nx: np.ndarray, ny: np.ndarray, c: np.ndarray, lo: int, hi: int, near: float,
                prefilter: bool) -> tuple[np.ndarray, np.ndarray]:
    """``sight.blockers.Pieces.hits`` (``prefilter``) or ``hits_all`` (pieces ``lo:hi``) as masks:
    (n,) whether segment ``P + t v`` meets a piece shrunk by ``near``, and whether it meets a
    grown piece whose shrunk version it misses. The float32 prefilter and the Cyrus-Beck
    clipping of ``_clip_hits`` (``np.fmax``/``np.fmin`` reductions skipping NaN, masks as
    products by 1.0 / 0.0) with numpy's operations in their order."""
    n = px.shape[0]
    sides = nx.shape[0]
    inner = np.zeros(n, np.bool_)
    outer = np.zeros(n, np.bool_)
    f32 = np.float32
    half32 = f32(0.5)
    nan = np.nan
    for s in range(n):
        x, y, dxs, dys = px[s], py[s], vx[s], vy[s]
        if prefilter:
            ax = f32(abs(dxs))
            ay = f32(abs(dys))
            mx = f32(x + dxs * 0.5)
            my = f32(y + dys * 0.5)
            vx32 = f32(dxs)
            vy32 = f32(dys)
        for g in range(lo, hi):
            if prefilter:
                ddx = mx - cx32[g]
                ddy = my - cy32[g]
                if not abs(ddx) <= ax * half32 + hx32[g]:
                    continue
                if not abs(ddy) <= ay * half32 + hy32[g]:
                    continue
                side = vx32 * ddy
                side = side - vy32 * ddx
                if not abs(side) <= ay * hx32[g] + ax * hy32[g]:
                    continue
            enter_i = enter_o = leave_i = leave_o = nan
            out_i = out_o = False
            for k in range(sides):
                pnx, pny = nx[k, g], ny[k, g]
                num = c[k, g] - (pnx * x + pny * y)
                den = pnx * dxs + pny * dys
                mi = num + -near
                mo = num + near
                ri = mi / den
                ro = mo / den
                lowf = 1.0 if den < 0 else 0.0
                upf = 1.0 if den > 0 else 0.0
                enter_i = _fmax(enter_i, ri * lowf)
                enter_o = _fmax(enter_o, ro * lowf)
                leave_i = _fmin(leave_i, (ri - 1.0) * upf)
                leave_o = _fmin(leave_o, (ro - 1.0) * upf)
                if den == 0:
                    out_i = out_i or mi < 0
                    out_o = out_o or mo < 0
            leave_i += 1.0
            leave_o += 1.0
            meets_i = enter_i <= leave_i and not out_i
            meets_o = enter_o <= leave_o and not out_o
            if meets_i:  # blocked: no other piece can change the answer
                inner[s] = True
                outer[s] = False
                break
            if meets_o:
                outer[s] = True
    return inner, outer


@njit
def cut_off_many(a: np.ndarray, ra: np.ndarray, b: np.ndarray, rb: np.ndarray,
                 edges: np.ndarray, marg: float) -> np.ndarray:
    """``Sight.cut_off`` of pairs one by one: :func:`cut_off` of each (m,) pair of bases."""
    m = a.shape[0]
    out = np.zeros(m, np.bool_)
    for i in range(m):
        out[i] = cut_off(a[i, 0], a[i, 1], ra[i], b[i, 0], b[i, 1], rb[i], edges, marg)
    return out


@njit
def points_cut_off(pts: np.ndarray, c: np.ndarray, r: np.ndarray, edges: np.ndarray,
                   marg: float) -> np.ndarray:
    """``Sight.points_cut_off``: (k, n) :func:`cut_off` of each point ``pts[g, i]`` (a base
    of radius 0) and the base of radius ``r[g]`` at ``c[g]``."""
    k, n = pts.shape[0], pts.shape[1]
    out = np.zeros((k, n), np.bool_)
    for g in range(k):
        for i in range(n):
            out[g, i] = cut_off(pts[g, i, 0], pts[g, i, 1], 0.0, c[g, 0], c[g, 1], r[g], edges,
                                marg)
    return out


@njit
def cover_triangles(p: np.ndarray, c: np.ndarray, r: np.ndarray, phi: np.ndarray,
                    half: np.ndarray, step: float, ring: int, cos_t: np.ndarray,
                    sin_t: np.ndarray) -> np.ndarray:
    """``CoverJob.triangles`` with the base polygons' vertices from the table (``cos_t``,
    ``sin_t``): from each point ``p[i]`` to the two tangent vertices of the base polygon of
    centre ``c[i]`` and radius ``r[i]``, given numpy's ``phi`` (the angle of p - c) and
    ``half`` (the tangent half-angle). For each tangent (sign +, then -), the vertex guessed
    from the angles and its two neighbours either side are tried, and the one with the largest
    ``|tan|`` of the angle at ``p`` is taken (the first of equals; a NaN first, as
    ``np.argmax``). Closed rings (n, 4, 2), the point first."""
    n = p.shape[0]
    out = np.empty((n, 4, 2))
    for i in range(n):
        px, py = p[i, 0], p[i, 1]
        cx, cy = c[i, 0], c[i, 1]
        ri = r[i]
        tx, ty = cx - px, cy - py
        out[i, 0, 0], out[i, 0, 1] = px, py
        out[i, 3, 0], out[i, 3, 1] = px, py
        for s in range(2):
            sign = 1.0 if s == 0 else -1.0
            guess = int(np.rint(-(phi[i] + sign * half[i]) / step))
            best = 0.0
            bx, by = 0.0, 0.0
            for k in range(5):
                m = (guess + k - 2) % ring
                vx = cx + ri * cos_t[m]
                vy = cy + ri * sin_t[m]
                wx, wy = vx - px, vy - py
                a = abs((tx * wy - ty * wx) / (tx * wx + ty * wy))
                if k == 0 or a > best or (a != a and best == best):
                    best, bx, by = a, vx, vy
                if a != a:
                    break
            out[i, 1 + s, 0], out[i, 1 + s, 1] = bx, by
    return out


@njit
def _osign(ax: float, ay: float, bx: float, by: float, cx: float, cy: float) -> int:
    """The sign of the turn a -> b -> c (1 left, -1 right) when the rounding of its float
    computation cannot have flipped it (its error is at most about 3.3e-16 of the two
    products' size, Shewchuk's bound; 1e-12 is far above it), else 0: too close to call
    (collinear, or nearly)."""
    left = (bx - ax) * (cy - ay)
    right = (by - ay) * (cx - ax)
    det = left - right
    bound = 1e-12 * (abs(left) + abs(right))
    if det > bound:
        return 1
    if det < -bound:
        return -1
    return 0


@njit
def _apart(ax: float, ay: float, bx: float, by: float, lox: float, hix: float, loy: float,
           hiy: float) -> bool:
    """Whether segment a-b lies wholly beyond the box (lox, hix, loy, hiy) on some side."""
    return (max(ax, bx) < lox or min(ax, bx) > hix or max(ay, by) < loy
            or min(ay, by) > hiy)


@njit
def _tri_edge(e: int, ux: float, uy: float, vx: float, vy: float, wx: float, wy: float
              ) -> tuple[float, float, float, float]:
    """Edge ``e`` (0, 1 or 2) of the triangle u, v, w: its two ends."""
    if e == 0:
        return ux, uy, vx, vy
    if e == 1:
        return vx, vy, wx, wy
    return wx, wy, ux, uy


@njit
def _crossing(px: float, py: float, qx: float, qy: float, ax: float, ay: float, bx: float,
              by: float) -> int:
    """Whether segments p-q and a-b cross at a point inside both: 1 yes, 0 no (every turn
    certain), -1 too close to call (an end on or near the other's line: a touch, maybe)."""
    o1 = _osign(px, py, qx, qy, ax, ay)
    o2 = _osign(px, py, qx, qy, bx, by)
    o3 = _osign(ax, ay, bx, by, px, py)
    o4 = _osign(ax, ay, bx, by, qx, qy)
    if o1 == 0 or o2 == 0 or o3 == 0 or o4 == 0:
        return -1
    return 1 if o1 != o2 and o3 != o4 else 0


@njit
def _corners(t: np.ndarray, i: int) -> tuple[float, float, float, float, float, float]:
    """The first three points of triangle ``t[i]`` (u, v, w)."""
    return t[i, 0, 0], t[i, 0, 1], t[i, 1, 0], t[i, 1, 1], t[i, 2, 0], t[i, 2, 1]


@njit
def _holds(ux: float, uy: float, vx: float, vy: float, wx: float, wy: float, turn: int,
           cx: float, cy: float) -> int:
    """Whether the triangle u, v, w (turning ``turn``) holds point c strictly inside: 1 yes,
    0 no, -1 too close to call (c on or near an edge's line)."""
    s1 = _osign(ux, uy, vx, vy, cx, cy)
    s2 = _osign(vx, vy, wx, wy, cx, cy)
    s3 = _osign(wx, wy, ux, uy, cx, cy)
    if s1 == 0 or s2 == 0 or s3 == 0:
        return -1
    return 1 if s1 == turn and s2 == turn and s3 == turn else 0


@njit
def _meets_one(t: np.ndarray, i: int, g: int, coords: np.ndarray, rings: np.ndarray,
               polys: np.ndarray, geoms: np.ndarray) -> int:
    """Whether triangle ``t[i]`` (its first three points) meets geometry ``g`` of the ragged
    arrays: 1 yes, 0 no, -1 too close to call (some turn is)."""
    ux, uy, vx, vy, wx, wy = _corners(t, i)
    turn = _osign(ux, uy, vx, vy, wx, wy)
    if turn == 0:
        return -1
    lox, hix = min(ux, vx, wx), max(ux, vx, wx)
    loy, hiy = min(uy, vy, wy), max(uy, vy, wy)
    # 1. a crossing of the triangle's edges with the geometry's (any touch: too close)
    for p in range(geoms[g], geoms[g + 1]):
        for r in range(polys[p], polys[p + 1]):
            for k in range(rings[r], rings[r + 1] - 1):
                ax, ay = coords[k, 0], coords[k, 1]
                bx, by = coords[k + 1, 0], coords[k + 1, 1]
                if _apart(ax, ay, bx, by, lox, hix, loy, hiy):
                    continue  # apart from the triangle's box: cannot touch it
                for e in range(3):
                    px, py, qx, qy = _tri_edge(e, ux, uy, vx, vy, wx, wy)
                    crossing = _crossing(px, py, qx, qy, ax, ay, bx, by)
                    if crossing != 0:
                        return crossing
    # 2. no boundaries cross or touch: the triangle lies inside a part (its first point, by
    # the crossing count over the part's rings), or a ring lies inside the triangle
    for p in range(geoms[g], geoms[g + 1]):
        inside = False
        for r in range(polys[p], polys[p + 1]):
            for k in range(rings[r], rings[r + 1] - 1):
                ay, by = coords[k, 1], coords[k + 1, 1]
                if (ay > uy) != (by > uy):
                    o = _osign(coords[k, 0], ay, coords[k + 1, 0], by, ux, uy)
                    if o == 0:
                        return -1
                    if (o > 0) == (by > ay):
                        inside = not inside
        if inside:
            return 1
        for r in range(polys[p], polys[p + 1]):
            if rings[r + 1] == rings[r]:
                continue
            held = _holds(ux, uy, vx, vy, wx, wy, turn, coords[rings[r], 0],
                          coords[rings[r], 1])
            if held != 0:
                return held
    return 0


@njit
def triangles_meet(t: np.ndarray, gi: np.ndarray, coords: np.ndarray, rings: np.ndarray,
                   polys: np.ndarray, geoms: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``shapely.intersects(geometries[gi[n]], triangle n)`` for triangles ``t`` (n, >=3, 2)
    and polygonal geometries given as ragged arrays (``sight.regions.ragged``): (meets, sure);
    where a turn is too close to call (a touch, a shared line, a flat triangle) sure is False and
    shapely is to answer."""
    n = t.shape[0]
    meets = np.zeros(n, np.bool_)
    sure = np.ones(n, np.bool_)
    for i in range(n):
        got = _meets_one(t, i, gi[i], coords, rings, polys, geoms)
        if got < 0:
            sure[i] = False
        else:
            meets[i] = got == 1
    return meets, sure


@njit
def _clear_of_zones(x: float, y: float, zt: np.ndarray, za: np.ndarray, i: int) -> bool:
    """Whether (x, y) lies clearly outside both circles ``zt[i]`` and ``za[i]`` (x, y, r), and
    so outside the polygons inscribed in them, by a margin far above any rounding."""
    for z in (zt, za):
        r = z[i, 2]
        if not np.hypot(x - z[i, 0], y - z[i, 1]) > r * (1 + 1e-9) + 1e-9:
            return False
    return True


@njit
def _witness_one(t: np.ndarray, i: int, g: int, zt: np.ndarray, za: np.ndarray,
                 coords: np.ndarray, rings: np.ndarray, polys: np.ndarray,
                 geoms: np.ndarray) -> bool:
    """:func:`obscure_witness` of triangle ``t[i]`` and feature ``g``."""
    ux, uy, vx, vy, wx, wy = _corners(t, i)
    turn = _osign(ux, uy, vx, vy, wx, wy)
    if turn == 0:
        return False
    lox, hix = min(ux, vx, wx), max(ux, vx, wx)
    loy, hiy = min(uy, vy, wy), max(uy, vy, wy)
    for p in range(geoms[g], geoms[g + 1]):
        for r in range(polys[p], polys[p + 1]):
            for k in range(rings[r], rings[r + 1] - 1):
                ax, ay = coords[k, 0], coords[k, 1]
                bx, by = coords[k + 1, 0], coords[k + 1, 1]
                if _apart(ax, ay, bx, by, lox, hix, loy, hiy):
                    continue
                if (_holds(ux, uy, vx, vy, wx, wy, turn, ax, ay) == 1
                        and _clear_of_zones(ax, ay, zt, za, i)):
                    return True
                for e in range(3):
                    px, py, qx, qy = _tri_edge(e, ux, uy, vx, vy, wx, wy)
                    if _crossing(px, py, qx, qy, ax, ay, bx, by) != 1:
                        continue
                    # the crossing, along p -> q
                    ex, ey = bx - ax, by - ay
                    s = ((ax - px) * ey - (ay - py) * ex) / ((qx - px) * ey - (qy - py) * ex)
                    if _clear_of_zones(px + (qx - px) * s, py + (qy - py) * s, zt, za, i):
                        return True
    return False


@njit
def obscure_witness(t: np.ndarray, gi: np.ndarray, zt: np.ndarray, za: np.ndarray,
                    coords: np.ndarray, rings: np.ndarray, polys: np.ndarray,
                    geoms: np.ndarray) -> np.ndarray:
    """(n,) True where triangle ``t[n]`` surely meets Heavy feature ``gi[n]`` (ragged arrays,
    as :func:`triangles_meet`) outside both 1" zones ``zt[n]`` and ``za[n]`` (x, y, r): a
    point of the feature's outline where a triangle edge properly crosses it, or a vertex of
    the outline strictly inside the triangle, lies clearly outside both zones (so it is in
    the feature less the zones, where the outline is the feature's own). False: no such
    witness found (not an answer: the region is to be asked of shapely)."""
    n = t.shape[0]
    out = np.zeros(n, np.bool_)
    for i in range(n):
        out[i] = _witness_one(t, i, gi[i], zt, za, coords, rings, polys, geoms)
    return out


@njit
def visible_pairs(a: np.ndarray, ra: np.ndarray, b: np.ndarray, rb: np.ndarray,
                  phi: np.ndarray, boxes: np.ndarray, sides: np.ndarray, counts: np.ndarray,
                  near: float, edges: np.ndarray, marg: float, cos: np.ndarray,
                  sin: np.ndarray, shrink: float, step: float) -> np.ndarray:
    """``Sight.compute_visible_pairs`` pair by pair, all its stages (the centres' segment; none
    when both radii are 0 or :func:`cut_off`; the two probes, ``phi`` numpy's angle a -> b;
    every sample segment whose ends :func:`cut_off` leaves): 1 visible, 0 not, -1 a segment
    too close to call and none surely clear (for the numpy code and shapely to answer)."""
    m = a.shape[0]
    ns = cos.shape[0]
    out = np.zeros(m, np.int8)
    sa, sb = np.empty((ns + 1, 2)), np.empty((ns + 1, 2))
    cut_a, cut_b = np.empty(ns + 1, np.bool_), np.empty(ns + 1, np.bool_)
    pb, ps, pc = np.empty_like(boxes), np.empty_like(sides), np.empty_like(counts)
    qb, qs, qc = np.empty_like(boxes), np.empty_like(sides), np.empty_like(counts)
    half_pi = np.pi / 2
    for i in range(m):
        ax, ay, r0, bx, by, r1 = a[i, 0], a[i, 1], ra[i], b[i, 0], b[i, 1], rb[i]
        got = segment(ax, ay, bx, by, boxes, sides, counts, near)
        if got != BLOCKED:
            out[i] = 1 if got == CLEAR else -1
            continue
        if not (r0 > 0 or r1 > 0) or cut_off(ax, ay, r0, bx, by, r1, edges, marg):
            continue
        lox, hix = _min(ax - r0, bx - r1), _max(ax + r0, bx + r1)  # the pieces near the pair:
        loy, hiy = _min(ay - r0, by - r1), _max(ay + r0, by + r1)  # no others meet a segment
        n = 0
        for k in range(boxes.shape[0]):
            if not (lox > boxes[k, 2] or hix < boxes[k, 0] or loy > boxes[k, 3]
                    or hiy < boxes[k, 1]):
                pb[n], ps[n], pc[n] = boxes[k], sides[k], counts[k]
                n += 1
        sa[0, 0], sa[0, 1], sb[0, 0], sb[0, 1] = ax, ay, bx, by
        for k in range(ns):  # sight.circles.samples: the same floats
            sa[k + 1, 0], sa[k + 1, 1] = ax + r0 * cos[k] * shrink, ay + r0 * sin[k] * shrink
            sb[k + 1, 0], sb[k + 1, 1] = bx + r1 * cos[k] * shrink, by + r1 * sin[k] * shrink
        unsure = False
        for s in range(2):
            side = phi[i] + half_pi if s == 0 else phi[i] - half_pi
            k = int(np.rint(side / step)) % ns + 1
            got = segment(sa[k, 0], sa[k, 1], sb[k, 0], sb[k, 1], pb[:n], ps[:n], pc[:n], near)
            if got == CLEAR:
                out[i] = 1
                break
            unsure = unsure or got == UNSURE
        if out[i] == 1:
            continue
        for k in range(ns + 1):
            cut_a[k] = cut_off(sa[k, 0], sa[k, 1], 0.0, bx, by, r1, edges, marg)
            cut_b[k] = cut_off(sb[k, 0], sb[k, 1], 0.0, ax, ay, r0, edges, marg)
        for p in range(ns + 1):
            if cut_a[p]:
                continue
            lox, hix = _min(sa[p, 0], bx - r1), _max(sa[p, 0], bx + r1)  # near p's segments
            loy, hiy = _min(sa[p, 1], by - r1), _max(sa[p, 1], by + r1)
            n2 = 0
            for k in range(n):
                if not (lox > pb[k, 2] or hix < pb[k, 0] or loy > pb[k, 3] or hiy < pb[k, 1]):
                    qb[n2], qs[n2], qc[n2] = pb[k], ps[k], pc[k]
                    n2 += 1
            for q in range(ns + 1):
                if cut_b[q]:
                    continue
                got = segment(sa[p, 0], sa[p, 1], sb[q, 0], sb[q, 1], qb[:n2], qs[:n2],
                              qc[:n2], near)
                if got == CLEAR:
                    out[i] = 1
                    break
                unsure = unsure or got == UNSURE
            if out[i] == 1:
                break
        if out[i] == 0 and unsure:
            out[i] = -1
    return out


@njit
def cover_candidates(ring: np.ndarray, rows: np.ndarray, jj: np.ndarray, start: np.ndarray,
                     bnd: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``CoverJob._evaluate``'s box tests of triangles ``ring[rows[i]]`` against the regions
    ``start[jj[i]]:start[jj[i] + 1]`` (boxes ``bnd``): the pairs (i, region), in order, whose
    boxes meet (none for a NaN corner) and that :func:`_tri_box` cannot show apart."""
    total = (start[jj + 1] - start[jj]).sum()
    rep, idx = np.empty(total, np.int64), np.empty(total, np.int64)
    m = 0
    for i in range(rows.shape[0]):
        t = rows[i]
        xs, ys = ring[t, :3, 0], ring[t, :3, 1]
        if np.isnan(xs).any() or np.isnan(ys).any():
            continue
        lox, hix, loy, hiy = xs.min(), xs.max(), ys.min(), ys.max()
        for r in range(start[jj[i]], start[jj[i] + 1]):
            if lox <= bnd[r, 2] and hix >= bnd[r, 0] and loy <= bnd[r, 3] and hiy >= bnd[r, 1]:
                meets, sure = _tri_box(ring, t, bnd, r)
                if meets or not sure:
                    rep[m], idx[m] = i, r
                    m += 1
    return rep[:m], idx[:m]
