"""The sight blockers as convex pieces and as boundary edges, with exact segment clipping.

:class:`Pieces` splits the merged blockers into convex pieces stored as half-planes, with a
float32 prefilter and Cyrus-Beck clipping (:func:`_clip_hits`) against each piece shrunk and
grown by :data:`NEAR`; :class:`_Edges` holds the merged blockers' boundary edges for the
single-edge cut-off proofs of base-to-base visibility
(:mod:`~solo_ops.geometry.sight.visibility`). The tunable :data:`DIRECT_PAIRS` lives here and
is read from here (also by :mod:`~solo_ops.geometry.sight.lines`): change it in this module.
"""

from __future__ import annotations

from typing import cast

import numpy as np
import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry
from shapely.geometry.polygon import orient

from solo_ops.geometry import shapes
from solo_ops.geometry.board import Feature
from solo_ops.geometry.sight.common import _area, _js

NEAR = 1e-6
"""Segments closer than this to a blocker's boundary (without a clean crossing) go to shapely."""
SEPARATE_MARGIN = 1e-4
"""Safety margin for proving two bases blind to each other with a single blocker edge."""
MAX_SIDES = 4
"""Convex blocker pieces with more sides than this are split into triangles."""
PREFILTER_PAD = 1e-3
"""Inches added around each piece's box in the float32 prefilter (rounding is ~1e-5)."""
PIECE_BLOCK = 16
"""Blocker pieces are tested in blocks of this many, largest first; segments already blocked
drop out before the next block."""
DIRECT_PAIRS = 256
"""Batches of at most this many (segment, piece) pairs skip the prefilter and clip every pair
exactly (:meth:`Pieces.hits_all`): fewer numpy calls, the same answers."""


class _Edges:
    """The boundary edges of the merged blockers (all rings), as lines with unit normals."""

    def __init__(self, blockers: BaseGeometry) -> None:
        rings = [np.asarray(ring.coords, dtype=float)
                 for poly in shapes.polygons_of(blockers)
                 for ring in [poly.exterior, *poly.interiors]]
        c0 = np.concatenate([r[:-1] for r in rings]) if rings else np.zeros((0, 2))
        c1 = np.concatenate([r[1:] for r in rings]) if rings else np.zeros((0, 2))
        self.x0, self.y0 = c0[:, 0], c0[:, 1]
        self.dx, self.dy = c1[:, 0] - self.x0, c1[:, 1] - self.y0
        self.length = np.hypot(self.dx, self.dy)
        safe = np.where(self.length > 0, self.length, 1.0)
        self.nx = -self.dy / safe
        self.ny = self.dx / safe
        self.offset = self.nx * self.x0 + self.ny * self.y0
        x1, y1 = self.x0 + self.dx, self.y0 + self.dy
        self.minx, self.maxx = np.minimum(self.x0, x1), np.maximum(self.x0, x1)
        self.miny, self.maxy = np.minimum(self.y0, y1), np.maximum(self.y0, y1)
        ok = self.length > 0
        for name in ("x0", "y0", "dx", "dy", "length", "nx", "ny", "offset", "minx", "maxx",
                     "miny", "maxy"):
            setattr(self, name, getattr(self, name)[ok])
        self.tdx, self.tdy = self.dx / self.length, self.dy / self.length  # unit directions


def _convex_parts(poly: Polygon, split: bool = True) -> list[Polygon]:
    """``poly`` split into convex pieces: itself if convex with few sides, else triangles (or
    nothing, when not ``split``)."""
    poly = orient(cast(Polygon, poly.simplify(0.0)), 1.0)
    if poly.is_empty or poly.area <= 0:
        return []
    c = np.asarray(poly.exterior.coords, dtype=float)[:-1]
    if not poly.interiors and len(c) <= MAX_SIDES:
        e = np.roll(c, -1, axis=0) - c
        turn = e[:, 0] * np.roll(e[:, 1], -1) - e[:, 1] * np.roll(e[:, 0], -1)
        if (turn >= 0).all():
            return [poly]
    if not split:
        return []
    tris = shapely.constrained_delaunay_triangles(poly)
    return [orient(t, 1.0) for t in getattr(tris, "geoms", []) if t.area > 0]


class Pieces:
    """The sight blockers as convex pieces (merged shapes that are convex, else each feature's
    footprint, triangulated when it is not convex), each stored as half-planes
    ``nx * x + ny * y <= c`` padded to :data:`MAX_SIDES`, with its bounding box grown by
    :data:`NEAR`."""

    def __init__(self, blockers: BaseGeometry, features: list[Feature]) -> None:
        # A merged shape that is itself a small convex polygon (a straight run of wall panels
        # and closed doors) is one piece; the others are split feature by feature.
        pieces: list[Polygon] = []
        areas = [_area(f) for f in features]
        for poly in shapes.polygons_of(blockers):
            whole = _convex_parts(poly, split=False)
            if whole:
                pieces += whole
            else:
                pieces += [part for a in areas if a.intersects(poly)
                           for part in _convex_parts(cast(Polygon, a))]
        pieces.sort(key=lambda g: -(g.bounds[2] - g.bounds[0] + g.bounds[3] - g.bounds[1]))
        self.count = len(pieces)
        self.blocks = [(lo, min(self.count, lo + PIECE_BLOCK))
                       for lo in range(0, self.count, PIECE_BLOCK)]
        k = MAX_SIDES
        self.nx = np.zeros((k, self.count))
        self.ny = np.zeros((k, self.count))
        self.c = np.ones((k, self.count))
        boxes = np.zeros((self.count, 4))
        for i, piece in enumerate(pieces):
            v = np.asarray(piece.exterior.coords, dtype=float)
            d = np.diff(v, axis=0)
            length = np.hypot(d[:, 0], d[:, 1])
            ok = length > 0
            d, v0, length = d[ok], v[:-1][ok], length[ok]
            m = len(d)
            self.nx[:m, i] = d[:, 1] / length
            self.ny[:m, i] = -d[:, 0] / length
            self.c[:m, i] = self.nx[:m, i] * v0[:, 0] + self.ny[:m, i] * v0[:, 1]
            boxes[i] = piece.bounds
        grow = 2 * NEAR
        self.minx, self.miny = boxes[:, 0] - grow, boxes[:, 1] - grow
        self.maxx, self.maxy = boxes[:, 2] + grow, boxes[:, 3] + grow
        self.cx, self.cy = (self.minx + self.maxx) / 2, (self.miny + self.maxy) / 2
        self.hx, self.hy = (self.maxx - self.minx) / 2, (self.maxy - self.miny) / 2
        # float32 copies for the prefilter, padded far beyond float32 rounding.
        def column(a: np.ndarray) -> np.ndarray:
            return a.astype(np.float32)[:, None]

        self.cx32, self.cy32 = column(self.cx), column(self.cy)
        self.hx32, self.hy32 = column(self.hx + PREFILTER_PAD), column(self.hy + PREFILTER_PAD)
        # the same, flat, for the compiled loop
        self.flat32 = tuple(np.ascontiguousarray(a.ravel())
                            for a in (self.cx32, self.cy32, self.hx32, self.hy32))

    def hit_masks(self, px: np.ndarray, py: np.ndarray, vx: np.ndarray, vy: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray]:
        """The compiled loop's (blocked, unsure) of every segment against every piece, as
        :meth:`hits_all` (few pairs, no prefilter) or :meth:`hits` block after block (many)
        leave them: (n,) meets a shrunk piece, and meets a grown one but no shrunk one. A
        segment's answers are its own, so the blocks' order changes nothing. The segments
        are passed contiguous (the same values), so that the loop has one compiled form, the
        one ``solo-ops compile`` records and loads before a game (a strided column would need
        another, loaded from disk in the middle of a turn)."""
        c = np.ascontiguousarray
        return cast(tuple[np.ndarray, np.ndarray], _js.pieces_hits(
            c(px), c(py), c(vx), c(vy), *self.flat32, self.nx, self.ny, self.c, 0, self.count, NEAR,
            len(px) * self.count > DIRECT_PAIRS))

    def hits(self, px: np.ndarray, py: np.ndarray, vx: np.ndarray, vy: np.ndarray, lo: int,
             hi: int) -> tuple[np.ndarray, np.ndarray]:
        """Segments ``P + t v`` against pieces ``lo:hi``: the indices of the segments that meet
        a piece shrunk by :data:`NEAR` (blocked) and of those that meet only a grown one."""
        # Prefilter (piece, segment) pairs in float32 with a generous pad: the boxes of the
        # segment and the piece meet, and the segment's line passes through the piece's box
        # (a separating-axis test). Exact tests follow on the few pairs left. Arrays are
        # (piece, segment) so numpy's inner loops run along the long axis.
        f32 = np.float32
        cx, cy, hx, hy = self.cx32[lo:hi], self.cy32[lo:hi], self.hx32[lo:hi], self.hy32[lo:hi]
        ax, ay = np.abs(vx).astype(f32), np.abs(vy).astype(f32)
        dx = (px + vx * 0.5).astype(f32) - cx
        dy = (py + vy * 0.5).astype(f32) - cy
        hit = np.abs(dx) <= ax * f32(0.5) + hx
        hit &= np.abs(dy) <= ay * f32(0.5) + hy
        side = vx.astype(f32) * dy
        side -= vy.astype(f32) * dx
        hit &= np.abs(side) <= ay * hx + ax * hy
        gi, si = np.nonzero(hit)
        if len(si) == 0:
            return si, si
        gi += lo
        # Cyrus-Beck clipping of each segment against the piece shrunk and grown by NEAR;
        # arrays are (side, pair) so the reductions run over whole rows.
        pnx, pny = self.nx[:, gi], self.ny[:, gi]
        num = self.c[:, gi] - (pnx * px[si] + pny * py[si])
        den = pnx * vx[si] + pny * vy[si]
        inner, outer = _clip_hits(num, den, NEAR)
        return si[inner], si[outer & ~inner]


    def hits_all(self, px: np.ndarray, py: np.ndarray, vx: np.ndarray, vy: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`hits` against every piece with no prefilter, for a few segments: (n,) bools,
        meets a piece shrunk by :data:`NEAR` (blocked), meets a grown one. The same Cyrus-Beck
        numbers per (segment, piece) as :meth:`hits`; the pairs the prefilter would drop lie
        far (over :data:`PREFILTER_PAD`) from the piece, so they meet neither version."""
        n, k = len(px), self.count
        num = self.c[:, None, :] - (self.nx[:, None, :] * px[None, :, None]
                                    + self.ny[:, None, :] * py[None, :, None])
        den = self.nx[:, None, :] * vx[None, :, None] + self.ny[:, None, :] * vy[None, :, None]
        inner, outer = _clip_hits(num.reshape(MAX_SIDES, n * k), den.reshape(MAX_SIDES, n * k),
                                  NEAR)
        return (cast(np.ndarray, inner.reshape(n, k).any(axis=1)),
                cast(np.ndarray, outer.reshape(n, k).any(axis=1)))


def _clip_hits(num: np.ndarray, den: np.ndarray, margin: float
               ) -> tuple[np.ndarray, np.ndarray]:
    """Cyrus-Beck: whether segment ``P + t v`` (0 <= t <= 1) meets the convex piece with sides
    ``t * den <= num`` (rows are sides, columns (segment, piece) pairs), once with the piece
    shrunk by ``margin`` and once grown by it: (meets the shrunk piece, meets the grown one)."""
    # 1.0 / 0.0 masks (multiplying by float masks is far faster than by booleans).
    lower = (den < 0).astype(float)  # sides the segment enters through: t >= num / den
    upper = (den > 0).astype(float)  # sides it leaves through: t <= num / den
    flat = den == 0  # sides parallel to it: it must be inside them
    # Both shifts at once: axis 0 is the shift (-margin, then +margin), axis 1 the side.
    m = num[None] + np.array([-margin, margin])[:, None, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        r = m / den
        # Masked-out terms become 0 (the bounds t >= 0 and, after the shift, t <= 1) or NaN
        # (parallel sides), which fmax / fmin skip. Every piece is bounded, so each segment
        # has a side of each kind and the 0 / 1 bounds are always present.
        enter = np.fmax.reduce(r * lower, axis=1)
        r -= 1.0
        r *= upper
        leave = np.fmin.reduce(r, axis=1)
        leave += 1.0
    meets = enter <= leave
    if flat.any():  # (rare: a segment parallel to a side)
        meets &= ~np.logical_or.reduce(flat & (m < 0), axis=1)
    return meets[0], meets[1]
