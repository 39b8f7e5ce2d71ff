"""One sight segment or one base pair at a time, in Python floats: :class:`Scalar`.

For a visibility computation of a few pairs the fixed cost of each numpy call outweighs the
work, so the first stages run pair by pair here (:class:`Scalar`, :func:`clip_one`),
operation by operation the same floats as the numpy code of
:mod:`~solo_ops.geometry.sight.blockers` and :mod:`~solo_ops.geometry.sight.visibility` (or
the compiled loops, when on).
"""

from __future__ import annotations

import math

import numpy as np

from solo_ops.geometry import jit
from solo_ops.geometry.sight.blockers import (
    MAX_SIDES,
    NEAR,
    PREFILTER_PAD,
    SEPARATE_MARGIN,
    Pieces,
    _Edges,
)
from solo_ops.geometry.sight.common import _js


class Scalar:
    """The sight blockers' pieces and edges as Python floats, for questions about one segment
    or one base pair at a time (:meth:`Sight.compute_visible_pairs` on a few pairs).

    Each test is the numpy one of :class:`Pieces` / :meth:`Sight.cut_off_dense` written out
    operation by operation (the same IEEE additions, products and quotients in the same order,
    so the same floats), pair by pair, with an exact bounding-box skip in front: a segment whose
    box misses a piece's box (grown by :data:`NEAR` twice and by :data:`PREFILTER_PAD`) meets
    neither the shrunk nor the grown piece, as the float32 prefilter of :meth:`Pieces.hits`
    already relies on."""

    def __init__(self, pieces: Pieces, edges: _Edges) -> None:
        pad = PREFILTER_PAD
        self.pieces: list[tuple[float, float, float, float,
                                tuple[tuple[float, float, float], ...]]] = []
        for i in range(pieces.count):
            # Padding sides (0, 0, 1) are never crossed (num = 1 +- NEAR > 0): left out.
            sides = tuple((float(pieces.nx[s, i]), float(pieces.ny[s, i]),
                           float(pieces.c[s, i])) for s in range(MAX_SIDES)
                          if pieces.nx[s, i] != 0.0 or pieces.ny[s, i] != 0.0)
            self.pieces.append((float(pieces.minx[i]) - pad, float(pieces.miny[i]) - pad,
                                float(pieces.maxx[i]) + pad, float(pieces.maxy[i]) + pad,
                                sides))
        self.edges = list(zip(*(getattr(edges, name).tolist() for name in (
            "minx", "maxx", "miny", "maxy", "nx", "ny", "offset", "x0", "y0", "tdx", "tdy",
            "length")), strict=True))
        # the same edges and pieces as arrays, for the compiled tests (the same floats)
        self.edge_rows = np.array(self.edges, dtype=float).reshape(len(self.edges), 12)
        k = len(self.pieces)
        self.boxes = np.array([p[:4] for p in self.pieces], dtype=float).reshape(k, 4)
        self.sides = np.zeros((k, MAX_SIDES, 3))
        self.counts = np.zeros(k, dtype=np.int64)
        for i, p in enumerate(self.pieces):
            self.counts[i] = len(p[4])
            if p[4]:
                self.sides[i, :len(p[4])] = p[4]

    def segment(self, px: float, py: float, qx: float, qy: float) -> bool | None:
        """One sight segment against every piece: False when it meets a piece shrunk by
        :data:`NEAR` (blocked), True when it meets no grown piece (clear), None in between
        (shapely decides). Not for a zero-length segment."""
        if jit.ENABLED:
            found = _js.segment(px, py, qx, qy, self.boxes, self.sides, self.counts, NEAR)
            return None if found == _js.UNSURE else found == _js.CLEAR
        vx, vy = qx - px, qy - py
        lox, hix = (px, qx) if px <= qx else (qx, px)
        loy, hiy = (py, qy) if py <= qy else (qy, py)
        unsure = False
        for minx, miny, maxx, maxy, sides in self.pieces:
            if lox > maxx or hix < minx or loy > maxy or hiy < miny:
                continue
            inner, outer = clip_one(px, py, vx, vy, sides)
            if inner:
                return False
            unsure = unsure or outer
        return None if unsure else True

    def cut_off(self, ax: float, ay: float, ra: float, bx: float, by: float, rb: float
                ) -> bool:
        """:meth:`Sight.cut_off_dense` of one pair."""
        if jit.ENABLED:
            return bool(_js.cut_off(ax, ay, ra, bx, by, rb, self.edge_rows, SEPARATE_MARGIN))
        marg = SEPARATE_MARGIN
        lo_x, lo_y = min(ax - ra, bx - rb), min(ay - ra, by - rb)
        hi_x, hi_y = max(ax + ra, bx + rb), max(ay + ra, by + rb)
        r0, r1 = ra + marg, rb + marg
        found = []
        for edge in self.edges:
            minx, maxx, miny, maxy, nx, ny, off = edge[:7]
            if lo_x <= maxx and hi_x >= minx and lo_y <= maxy and hi_y >= miny:
                sa = ax * nx + ay * ny - off
                sb = bx * nx + by * ny - off
                if (sa > r0 and sb < -r1) or (sa < -r0 and sb > r1):
                    found.append(edge)
        if not found:
            return False
        dx, dy = bx - ax, by - ay
        dist = float(np.hypot(dx, dy))
        if dist == 0.0:  # one centre: the numpy version's NaNs cut nothing off
            return False
        ux, uy = dx / dist, dy / dist
        alpha = (rb - ra) / dist
        beta = math.sqrt(max(0.0, 1.0 - alpha * alpha))
        lines = []
        for sign in (1.0, -1.0):
            mx = alpha * ux - sign * beta * uy
            my = alpha * uy + sign * beta * ux
            lines.append((mx, my, mx * ax + my * ay - ra))
        for edge in found:
            x0, y0, tdx, tdy, length = edge[7:]
            for mx, my, k in lines:
                denom = mx * tdx + my * tdy
                if denom == 0.0:
                    break
                t = (k - (mx * x0 + my * y0)) / denom
                if not (math.isfinite(t) and t > marg and t < length - marg):
                    break
            else:
                return True
        return False


def clip_one(px: float, py: float, vx: float, vy: float,
             sides: tuple[tuple[float, float, float], ...]) -> tuple[bool, bool]:
    """:func:`_clip_hits` of one segment ``P + t v`` and one piece given by its sides
    ``(nx, ny, c)``, with margin :data:`NEAR`: (meets the shrunk piece, meets the grown one).
    The same floats as the numpy version: ``enter`` is the largest entering ``t``, ``leave``
    the smallest leaving ``t - 1``, plus 1; each side the segment leaves through adds the bound
    0 to ``enter`` and each it enters through the bound 0 to ``leave`` (the numpy version's
    masked-out terms, ``r * 0``) where its ``t`` is finite (an infinite one, from a side all
    but parallel, masks to NaN, which the reductions skip); parallel sides only exclude, and
    a reduction with no term (all NaN) meets nothing."""
    ei = eo = li = lo = 0.0  # enter and leave - 1, inner and outer
    hei = heo = hli = hlo = False  # whether each has a term yet
    out_i = out_o = False
    isfinite = math.isfinite
    for nx, ny, c in sides:
        num = c - (nx * px + ny * py)
        den = nx * vx + ny * vy
        mi, mo = num + -NEAR, num + NEAR
        if den < 0.0:
            ri, ro = mi / den, mo / den
            if not hei or ri > ei:
                ei, hei = ri, True
            if not heo or ro > eo:
                eo, heo = ro, True
            if isfinite(ri) and (not hli or 0.0 < li):
                li, hli = 0.0, True
            if isfinite(ro) and (not hlo or 0.0 < lo):
                lo, hlo = 0.0, True
        elif den > 0.0:
            ri, ro = mi / den - 1.0, mo / den - 1.0
            if not hli or ri < li:
                li, hli = ri, True
            if not hlo or ro < lo:
                lo, hlo = ro, True
            if isfinite(ri) and (not hei or 0.0 > ei):
                ei, hei = 0.0, True
            if isfinite(ro) and (not heo or 0.0 > eo):
                eo, heo = 0.0, True
        else:
            out_i = out_i or mi < 0.0
            out_o = out_o or mo < 0.0
    return (hei and hli and ei <= li + 1.0 and not out_i,
            heo and hlo and eo <= lo + 1.0 and not out_o)
