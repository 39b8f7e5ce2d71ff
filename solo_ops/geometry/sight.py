"""Fast visibility, cover and obscuring queries for one board: :class:`Sight`.

Meaning (``shared/RULES-NOTES.md``, "Geometry"; the slow reference is
``tests/geometry_oracle.py``'s ``OracleSight``, which this module must agree with):

* A sight segment from ``P`` to ``Q`` is *clear* when it does not pass through the interior of
  any sight blocker (walls, closed doors and hatches, ``blocking`` features, merged by
  :func:`solo_ops.geometry.shapes.sight_blockers` so touching panels leave no seam). Running
  along or touching a blocker's boundary is clear: the reference tests the segment against the
  blockers eroded by ``1e-7``.
* Two bases (discs) are *visible* to each other when some segment from a point of one to a point
  of the other is clear. Both discs are sampled the same way as the reference: the centre plus
  24 points evenly spaced on a circle of radius ``r * (1 - 1e-6)`` (just inside the base), and
  every pair of samples is tried.
* *Cover lines* run from one point of the attacker's base (its centre or one of 16 points just
  inside its edge) to the whole target base (their convex hull). The target is *in cover* when
  cover-giving terrain crosses the cover lines within 1" of the target's base (and outside the
  base itself) and the bases are more than 2" apart; it is *obscured* when Heavy terrain crosses
  the cover lines more than 1" from both bases. The attacker picks the point that suits it best:
  least obscured first, then least in cover.

How it is fast:

* :meth:`Sight.clear` splits the sight blockers into convex pieces (each blocking feature's
  footprint; non-convex ones are triangulated). Pieces may overlap or touch: their union is the
  merged blocker shape, so a segment through the seam of two touching panels is still caught.
  A float32 prefilter (bounding boxes plus a separating-axis test of the segment's line against
  each piece's box) leaves a few (segment, piece) pairs, which are clipped exactly (Cyrus-Beck,
  float64) against the piece shrunk by ``1e-6`` and grown by ``1e-6``. Meeting a shrunk piece
  means passing through the eroded blockers: blocked. Missing every grown piece means staying
  clear of them: clear. The rare segment in between (grazing a corner, running along a wall's
  face, ending on it, following a seam) is decided exactly by shapely against the blockers
  eroded by ``1e-7``, as the reference does. Work runs in chunks of :data:`CHUNK` segments so
  the arrays stay in cache; a batch of a few segments skips the prefilter and clips every
  piece at once (:data:`DIRECT_PAIRS`: the pairs the prefilter drops meet no piece anyway).
* Base-to-base visibility first tries the centre-to-centre line, then proves pairs blind where a
  single edge of the merged blockers cuts across the whole hull of the two bases, then tries
  the two sample segments parallel to the centre line (one each side: where a wall's end hides
  the centres, one of them usually passes it), and only then all the sample pairs, skipping
  those a single edge provably cuts (from one sample point to the whole other base; the
  numbers that depend only on the other base are worked out once per pair). The answer is
  "some sample segment is clear", so the order changes only the time.
* A pair's answer depends on its own centres and radii alone, so a :class:`Sight` remembers it
  (keyed by the exact bits of the six numbers; bounded): the engine asks the same pairs again
  and again (spotting after every move, the same targets from many candidate points).
* Cover uses the fact that the hull of a point ``p`` and a convex target base ``T`` is ``T``
  plus the triangle from ``p`` to the two tangent vertices of ``T``. Every question becomes
  "does this triangle meet this prepared region", asked with shapely's vectorised predicates
  after STRtree / bounding-box prefilters (a triangle becomes a shapely polygon only when a
  question needs one; both tangent vertices are found in one pass). Regions are per feature
  and built only when needed:
  for cover, a cover-giving feature within 1" of the target and outside its base; for obscuring,
  a Heavy feature minus the two 1" zones (skipped when the feature touches neither zone). The
  attacker's centre is tried first, then four points of its base edge, then the other twelve,
  stopping as soon as a point leaves the target neither obscured nor in cover (a job of a few
  pairs tries all 17 at once: each round has a fixed cost). The circles of target bases and
  1" zones, and each target's cover regions, are remembered per :class:`Sight` (exact
  arguments; bounded); circle vertices come from a table of cosines, checked once per process
  to be GEOS's buffered points bit for bit (else GEOS buffers them).

The circles of bases and 1" zones are the same 128-sided polygons as the reference's, so the
results agree with it exactly away from float-rounding ties.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any, cast

import numpy as np
import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry
from shapely.geometry.polygon import orient

from solo_ops.geometry import jit, shapes
from solo_ops.geometry.board import Board, Feature

# the compiled loops (numba), loaded when first used; the numpy code below is the reference
_js = jit.kernels("sight")

ERODE = 1e-7
"""How far blockers and terrain are shrunk before testing, so touching is not crossing."""
NEAR = 1e-6
"""Segments closer than this to a blocker's boundary (without a clean crossing) go to shapely."""
SEPARATE_MARGIN = 1e-4
"""Safety margin for proving two bases blind to each other with a single blocker edge."""
BASE_SAMPLES = 24
"""Points sampled on each base's edge for visibility (plus the centre), as the reference."""
COVER_SAMPLES = 16
"""Points sampled on the attacker's base edge for cover lines (plus the centre)."""
SHRINK = 1.0 - 1e-6
"""Sample points sit this fraction of the radius out from the centre (just inside the base)."""
QUAD_SEGS = 32
"""Quarter-circle segments of the polygons standing for bases and 1" zones (as the reference)."""
RING = 4 * QUAD_SEGS
"""Vertices in one of those circle polygons."""
CHUNK = 1024
"""Segments handled per vectorised pass of :meth:`Sight.clear`: small enough that the working
arrays stay in cache (fresh large arrays cost far more than the arithmetic)."""
MAX_SIDES = 4
"""Convex blocker pieces with more sides than this are split into triangles."""
PREFILTER_PAD = 1e-3
"""Inches added around each piece's box in the float32 prefilter (rounding is ~1e-5)."""
PIECE_BLOCK = 16
"""Blocker pieces are tested in blocks of this many, largest first; segments already blocked
drop out before the next block."""
SMALL_BATCH = 32
"""Batches of at most this many segments test every piece at once: for them the fixed cost of
each block's numpy calls outweighs what dropping blocked segments saves."""
DIRECT_PAIRS = 256
"""Batches of at most this many (segment, piece) pairs skip the prefilter and clip every pair
exactly (:meth:`_Pieces.hits_all`): fewer numpy calls, the same answers."""
DIRECT_EDGES = 1024
"""Cut-off tests of at most this many (pair, blocker edge) combinations work on every
combination at once (:meth:`Sight._cut_off_dense`)."""
PAIR_MEMO_LIMIT = 50_000
"""Single-pair answers (:meth:`Sight.visible`, :meth:`Sight.cover`) a :class:`Sight` keeps; the
memo is emptied when it grows past this."""
VIS_MEMO_LIMIT = 100_000
"""Base-pair visibility answers (inside :meth:`Sight.visibility_matrix`) a :class:`Sight` keeps;
emptied when it grows past this (about 15 MB)."""
COVER_MEMO_LIMIT = 100_000
"""Base-pair cover answers (inside :meth:`Sight.cover_matrix`) a :class:`Sight` keeps for each of
its three modes (plain, Seek, Seek Light); each emptied when it grows past this (about 15 MB)."""
SHAPE_MEMO_LIMIT = 2048
"""Circle polygons, and targets' cover regions, a :class:`Sight` keeps (each memo emptied when
it grows past this: some 10-20 MB at most); a mission's models stand at a few hundred places."""
SMALL_COVER_JOB = 8
"""Cover jobs with at most this many visible pairs try all of the attacker's points at once."""
TINY_BASE = 1e-6
"""Radius standing for a point-sized target base in cover tests."""
SCALAR_PAIRS = 10
"""Visibility computations of at most this many base pairs run their first stages (centre
segment, single-edge cut-off, the two probes) pair by pair in plain Python floats
(:class:`_Scalar`): for so few pairs the fixed cost of each numpy call outweighs the work."""


@dataclass
class CoverResult:
    """Cover of one target from one attacker.

    ``visible``: the attacker can see the target at all. ``in_cover`` / ``obscured``: as in the
    module docstring (both False when not visible). ``valid_target``: may be shot at (here the
    same as ``visible``; callers layer concealment and range on top).
    """

    visible: bool
    in_cover: bool
    obscured: bool
    valid_target: bool = True


@dataclass
class CoverMatrix:
    """Cover of every target (columns) from every attacker (rows), as boolean arrays."""

    visible: np.ndarray
    in_cover: np.ndarray
    obscured: np.ndarray


def _unit_circle(n: int) -> tuple[list[float], list[float]]:
    """Cosines and sines of ``n`` evenly spaced angles, computed as the reference does."""
    angles = [2 * math.pi * k / n for k in range(n)]
    return [math.cos(a) for a in angles], [math.sin(a) for a in angles]


_BASE_COS, _BASE_SIN = _unit_circle(BASE_SAMPLES)
_COVER_COS, _COVER_SIN = _unit_circle(COVER_SAMPLES)
_STEP = 2 * math.pi / BASE_SAMPLES
"""The angle between neighbouring edge samples of a base."""


def _samples(centres: np.ndarray, radii: np.ndarray, cos: list[float], sin: list[float]
             ) -> np.ndarray:
    """(n, 1 + len(cos), 2): each disc's centre then its edge samples (the centre repeated when
    the radius is 0, which is harmless: the same segment is tried again)."""
    c = np.asarray(cos)[None, :]
    s = np.asarray(sin)[None, :]
    r = radii[:, None]
    xs = centres[:, 0:1] + r * c * SHRINK
    ys = centres[:, 1:2] + r * s * SHRINK
    out = np.empty((len(centres), 1 + len(cos), 2))
    out[:, 0] = centres
    out[:, 1:, 0] = xs
    out[:, 1:, 1] = ys
    return out


def _ring_table() -> tuple[np.ndarray, np.ndarray]:
    """Cosines and sines of the vertices of GEOS's polygon for a buffered point (``quad_segs=``
    :data:`QUAD_SEGS`): vertex ``m`` at angle ``-2 pi m / RING``, the quarter points exact."""
    angles = [-2 * math.pi * m / RING for m in range(RING)]
    cos = np.array([math.cos(a) for a in angles])
    sin = np.array([math.sin(a) for a in angles])
    cos[RING // 4] = cos[3 * RING // 4] = 0.0
    sin[RING // 2] = 0.0
    return cos, sin


_RING_COS, _RING_SIN = _ring_table()
_SIGNS = np.array([1.0, -1.0])
"""The two tangents of a cover-line triangle (see :meth:`_CoverJob._triangles`)."""
_AROUND = np.arange(-2, 3)
"""Offsets of the base polygon's vertices tried around a tangent's guessed vertex."""


def _ring_coords(centres: np.ndarray, radii: np.ndarray) -> np.ndarray:
    """(n, RING + 1, 2): the closed rings of the circles, by :func:`_ring_table`."""
    out = np.empty((len(centres), RING + 1, 2))
    out[:, :RING, 0] = centres[:, 0:1] + radii[:, None] * _RING_COS
    out[:, :RING, 1] = centres[:, 1:2] + radii[:, None] * _RING_SIN
    out[:, RING] = out[:, 0]
    return out


def _buffered_rings(centres: np.ndarray, radii: np.ndarray) -> np.ndarray:
    """The same rings as GEOS makes them: ``shapely.buffer`` of each centre."""
    discs = shapely.buffer(shapely.points(centres), radii, quad_segs=QUAD_SEGS)
    return cast(np.ndarray, shapely.get_coordinates(discs).reshape(len(centres), RING + 1, 2))


def _rings_match_geos() -> bool:
    """Whether :func:`_ring_coords` gives GEOS's circles bit for bit (checked once on discs
    like the game's; with another GEOS that builds them differently, circles are buffered)."""
    rng = np.random.default_rng(20261123)
    centres = np.concatenate([rng.uniform(0, 30, (200, 2)),
                              np.round(rng.uniform(0, 30, (56, 2)) * 2) / 2])
    radii = np.concatenate([rng.uniform(1e-3, 3.0, 200),
                            np.resize([TINY_BASE, 0.5, 0.63, 16 / 25.4, 1.0, 1.5,
                                       16 / 25.4 + 1.0, 20 / 25.4 + 1.0], 56)])
    return bool(np.array_equal(_ring_coords(centres, radii), _buffered_rings(centres, radii)))


_FAST_RINGS: bool | None = None
"""Whether :func:`_ring_coords` may stand for ``shapely.buffer``: a fact about the GEOS
library in use, found once per process (not game state)."""


def _circle_rings(centres: np.ndarray, radii: np.ndarray) -> np.ndarray:
    """(n, RING + 1, 2): the rings of the 128-sided circle polygons standing for bases and
    1" zones, exactly GEOS's (as the reference buffers them), computed without GEOS when
    :func:`_rings_match_geos`."""
    if _fast_rings():
        return _ring_coords(centres, radii)
    return _buffered_rings(centres, radii)


def _fast_rings() -> bool:
    """Whether :func:`_ring_coords` may stand for ``shapely.buffer`` (decided on first use)."""
    global _FAST_RINGS
    if _FAST_RINGS is None:
        _FAST_RINGS = _rings_match_geos()
    return _FAST_RINGS


def _circle_polygons(centres: np.ndarray, radii: np.ndarray) -> np.ndarray:
    """Prepared circle polygons with the rings of :func:`_circle_rings`, as an object array."""
    if len(centres) == 0:
        return np.empty(0, dtype=object)
    polys = shapely.polygons(_circle_rings(centres, radii))
    shapely.prepare(polys)
    return cast(np.ndarray, polys)


def _ragged(geoms: np.ndarray) -> tuple[np.ndarray, ...] | None:
    """Polygons and multipolygons as the flat arrays :func:`jit.sight.triangles_meet` reads:
    (coordinates, ring starts, each polygon's rings, each geometry's polygons), every offset
    array one longer than what it indexes; None for other geometry types."""
    if len(geoms) == 0:
        return None
    try:
        kind, coords, offsets = shapely.to_ragged_array(geoms)
    except ValueError:  # points, lines or collections among them
        return None
    per_geom: np.ndarray
    if int(kind) == int(shapely.GeometryType.POLYGON):
        rings, polys = offsets
        per_geom = np.arange(len(polys), dtype=np.int64)
    elif int(kind) == int(shapely.GeometryType.MULTIPOLYGON):
        rings, polys, per_geom = offsets
    else:
        return None
    return (np.ascontiguousarray(coords, dtype=float), rings.astype(np.int64),
            polys.astype(np.int64), per_geom.astype(np.int64))


def _row_keys(rows: np.ndarray) -> list[bytes]:
    """The exact bits of each row of a C-contiguous float64 array, as dictionary keys."""
    width = rows.shape[1] * rows.itemsize
    return cast(list[bytes], rows.view(np.dtype((np.void, width))).ravel().tolist())


def _as_points(points: Any) -> np.ndarray:
    arr = np.asarray(points, dtype=float)
    if arr.size == 0:
        return arr.reshape(0, 2)
    return np.atleast_2d(arr).reshape(-1, 2)


def _as_radii(radii: Any, n: int) -> np.ndarray:
    r = np.asarray(radii, dtype=float)
    if r.ndim == 0:  # a scalar (the usual case): no broadcasting machinery
        return np.full(n, r)
    if r.shape == (n,):  # one per point already: a copy
        return r.copy()
    return np.array(np.broadcast_to(r, (n,)), dtype=float)


def _area(feature: Feature) -> BaseGeometry:
    return shapes.feature_area(feature)


def _eroded_parts(features: list[Feature]) -> np.ndarray:
    """Each feature's footprint shrunk by :data:`ERODE` (as the reference erodes each feature
    on its own), prepared, as an object array (empty geometries kept, so indices match)."""
    parts = np.array([_area(f) for f in features] or [], dtype=object)
    if len(parts) == 0:
        return parts
    parts = shapely.buffer(parts, -ERODE, quad_segs=16)
    shapely.prepare(parts)
    return parts


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


class _Pieces:
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
        segment's answers are its own, so the blocks' order changes nothing."""
        return cast(tuple[np.ndarray, np.ndarray], _js.pieces_hits(
            px, py, vx, vy, *self.flat32, self.nx, self.ny, self.c, 0, self.count, NEAR,
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
    outside = np.logical_or.reduce(flat & (m < 0), axis=1)
    meets = (enter <= leave) & ~outside
    return meets[0], meets[1]


def _triangle_meets_box(tri: np.ndarray, box: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Separating-axis test of triangles (n, 3, 2) against axis-aligned boxes (n, 4) whose
    bounding boxes already overlap, so only the triangles' edge normals are left to try:
    (may meet, the answer is clear of rounding ties). Exact for the box itself."""
    if jit.ENABLED and len(tri):
        out: tuple[np.ndarray, np.ndarray] = _js.triangle_meets_box(
            np.ascontiguousarray(tri, dtype=float), np.ascontiguousarray(box, dtype=float))
        return out
    cx, cy = (box[:, 0] + box[:, 2]) / 2, (box[:, 1] + box[:, 3]) / 2
    hx, hy = (box[:, 2] - box[:, 0]) / 2, (box[:, 3] - box[:, 1]) / 2
    v0, v1, v2 = tri[:, 0], tri[:, 1], tri[:, 2]
    turn = np.sign((v1[:, 0] - v0[:, 0]) * (v2[:, 1] - v0[:, 1])
                   - (v1[:, 1] - v0[:, 1]) * (v2[:, 0] - v0[:, 0]))
    apart = np.zeros(len(tri), dtype=bool)  # some axis separates them
    clearly = np.zeros(len(tri), dtype=bool)  # ... by a clear margin
    tie = turn == 0  # some axis is too close to call (or the triangle is flat)
    for a, b in ((v0, v1), (v1, v2), (v2, v0)):
        ex, ey = (b[:, 0] - a[:, 0]) * turn, (b[:, 1] - a[:, 1]) * turn
        # Distance (times the edge length) from the edge, along its outward normal (ey, -ex),
        # to the nearest corner of the box.
        gap = ey * (cx - a[:, 0]) - ex * (cy - a[:, 1]) - (np.abs(ey) * hx + np.abs(ex) * hy)
        scale = np.hypot(ex, ey) * 1e-9
        apart |= gap > 0
        clearly |= gap > scale
        tie |= np.abs(gap) <= scale
    return ~apart, clearly | ~tie


class _Scalar:
    """The sight blockers' pieces and edges as Python floats, for questions about one segment
    or one base pair at a time (:meth:`Sight._compute_visible_pairs` on a few pairs).

    Each test is the numpy one of :class:`_Pieces` / :meth:`Sight._cut_off_dense` written out
    operation by operation (the same IEEE additions, products and quotients in the same order,
    so the same floats), pair by pair, with an exact bounding-box skip in front: a segment whose
    box misses a piece's box (grown by :data:`NEAR` twice and by :data:`PREFILTER_PAD`) meets
    neither the shrunk nor the grown piece, as the float32 prefilter of :meth:`_Pieces.hits`
    already relies on."""

    def __init__(self, pieces: _Pieces, edges: _Edges) -> None:
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
            inner, outer = _clip_one(px, py, vx, vy, sides)
            if inner:
                return False
            unsure = unsure or outer
        return None if unsure else True

    def cut_off(self, ax: float, ay: float, ra: float, bx: float, by: float, rb: float
                ) -> bool:
        """:meth:`Sight._cut_off_dense` of one pair."""
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


def _clip_one(px: float, py: float, vx: float, vy: float,
              sides: tuple[tuple[float, float, float], ...]) -> tuple[bool, bool]:
    """:func:`_clip_hits` of one segment ``P + t v`` and one piece given by its sides
    ``(nx, ny, c)``, with margin :data:`NEAR`: (meets the shrunk piece, meets the grown one).
    The same floats as the numpy version: ``enter`` is the largest entering ``t`` (with the
    bound 0 present when some side is left through), ``leave`` the smallest leaving ``t - 1``
    (with 0 present when some side is entered through) plus 1; parallel sides only exclude."""
    enter_i = enter_o = leave_i = leave_o = 0.0
    lower = upper = out_i = out_o = False
    for nx, ny, c in sides:
        num = c - (nx * px + ny * py)
        den = nx * vx + ny * vy
        mi, mo = num + -NEAR, num + NEAR
        if den < 0.0:
            ri, ro = mi / den, mo / den
            if lower:
                enter_i, enter_o = max(enter_i, ri), max(enter_o, ro)
            else:
                enter_i, enter_o, lower = ri, ro, True
        elif den > 0.0:
            ri, ro = mi / den - 1.0, mo / den - 1.0
            if upper:
                leave_i, leave_o = min(leave_i, ri), min(leave_o, ro)
            else:
                leave_i, leave_o, upper = ri, ro, True
        else:
            out_i = out_i or mi < 0.0
            out_o = out_o or mo < 0.0
    if not (lower or upper):  # every side parallel: the numpy reductions are NaN
        return False, False
    # The 0 bounds, present as the numpy version's masked-out terms: 0 <= t from each side
    # left through, t - 1 <= 0 from each side entered through.
    if upper:
        enter_i, enter_o = (max(enter_i, 0.0), max(enter_o, 0.0)) if lower else (0.0, 0.0)
    if lower:
        leave_i, leave_o = (min(leave_i, 0.0), min(leave_o, 0.0)) if upper else (0.0, 0.0)
    leave_i, leave_o = leave_i + 1.0, leave_o + 1.0
    return enter_i <= leave_i and not out_i, enter_o <= leave_o and not out_o


class Sight:
    """Compiled sight queries for one board (one state of its doors and hatches).

    Building one splits the blockers into pieces and prepares the terrain shapes once; keep it (the
    :class:`~solo_ops.geometry.terrain.TerrainCache` does) rather than rebuilding per query.
    """

    def __init__(self, board: Board) -> None:
        self.board = board
        blockers = shapes.sight_blockers(board)
        self._edges = _Edges(blockers)
        self._pieces = _Pieces(blockers, [f for f in board.features if f.blocks_visibility])
        self._block = (shapely.buffer(blockers, -ERODE) if not blockers.is_empty
                       else shapely.GeometryCollection())
        shapely.prepare(self._block)
        cover_feats = [f for f in board.features if f.gives_cover]
        self._cover_parts = _eroded_parts(cover_feats)
        self._cover_light = np.array([f.is_light_only for f in cover_feats], dtype=bool)
        self._cover_tree = shapely.STRtree(self._cover_parts)
        heavy = [f for f in board.features if f.obscures]
        self._heavy_parts = _eroded_parts(heavy)
        # The eroded features' boxes, and which features are exactly their box.
        self._heavy_box = shapely.bounds(self._heavy_parts).reshape(-1, 4)
        box_area = ((self._heavy_box[:, 2] - self._heavy_box[:, 0])
                    * (self._heavy_box[:, 3] - self._heavy_box[:, 1]))
        area = shapely.area(self._heavy_parts) if len(self._heavy_parts) else np.zeros(0)
        self._heavy_is_box = np.abs(box_area - area) <= 1e-9 * np.maximum(box_area, 1e-12)
        # their outlines as flat arrays, for the compiled triangle test (None: shapely only)
        self._heavy_ragged = _ragged(self._heavy_parts)
        # Single-pair answers by their exact arguments: a Sight never changes, and the engine
        # asks the same pair again and again (spotting after every move, the players' shots,
        # the autopilot), each costing a whole matrix computation of one pair.
        self._pair_memo: dict[tuple[Any, ...], Any] = {}
        self._vis_memo: dict[bytes, bool] = {}
        self._circle_memo: dict[bytes, BaseGeometry] = {}
        # whether a base's 1" zone meets a Heavy feature, per exact (x, y, r) and feature
        self._touch_memo: dict[tuple[bytes, int], bool] = {}
        self._region_memo: dict[bytes, np.ndarray] = {}
        # each visible pair's cover answer (2 * obscured + in cover) by its exact centres and
        # radii, one memo per mode (plain, Seek, Seek Light): the planner, the autopilot and
        # the engine ask the same pairs in different batches and under different names
        self._cover_memo: tuple[dict[bytes, int], ...] = ({}, {}, {})
        self._scalar_parts: _Scalar | None = None

    @property
    def _scalar(self) -> _Scalar:
        """The pieces and edges as Python floats (built on first use)."""
        if self._scalar_parts is None:
            self._scalar_parts = _Scalar(self._pieces, self._edges)
        return self._scalar_parts

    def _clear_one(self, px: float, py: float, qx: float, qy: float) -> bool:
        """:meth:`clear` of one segment, in Python floats (the same answer)."""
        if px == qx and py == qy:
            return not bool(shapely.contains_xy(self._block, px, py))
        found = self._scalar.segment(px, py, qx, qy)
        if found is None:
            line = shapely.linestrings([[px, py], [qx, qy]])
            return not bool(shapely.intersects(self._block, line))
        return found

    def _remember(self, key: tuple[Any, ...], value: Any) -> Any:
        if len(self._pair_memo) >= PAIR_MEMO_LIMIT:
            self._pair_memo.clear()
        self._pair_memo[key] = value
        return value

    def _circles(self, centres: np.ndarray, radii: np.ndarray) -> np.ndarray:
        """Prepared circle polygons (``shapely.buffer`` of each centre by its radius, with
        :data:`QUAD_SEGS`, as the reference's) as an object array, remembered per exact
        ``(x, y, r)``: the same bases and 1" zones come back call after call."""
        n = len(centres)
        rows = np.empty((n, 3))
        rows[:, 0:2] = centres
        rows[:, 2] = radii
        keys = _row_keys(rows)
        memo = self._circle_memo
        found = [memo.get(k) for k in keys]
        miss = [i for i, g in enumerate(found) if g is None]
        if miss:
            idx = np.array(miss, dtype=np.intp)
            made = _circle_polygons(rows[idx, 0:2], rows[idx, 2])
            if len(memo) + len(miss) > SHAPE_MEMO_LIMIT:
                memo.clear()
            for i, geom in zip(miss, made, strict=True):
                found[i] = memo[keys[i]] = geom
        out = np.empty(n, dtype=object)
        out[:] = found
        return out

    def _zones_touch(self, centres: np.ndarray, radii: np.ndarray, feats: np.ndarray,
                     keep_circles: bool = True) -> np.ndarray:
        """(n,) whether the circle (:meth:`_circles`) of ``centres[k]``, ``radii[k]`` meets
        Heavy feature ``feats[k]``, remembered per exact circle and feature: the same bases'
        1" zones are asked about the same walls again and again (about 80% of the time).
        ``keep_circles=False``: the circles asked about are made without being remembered
        (the same polygons; an attacker's many candidate points would crowd out the bases)."""
        n = len(centres)
        rows = np.empty((n, 3))
        rows[:, 0:2] = centres
        rows[:, 2] = radii
        keys = list(zip(_row_keys(rows), feats.tolist(), strict=True))
        memo = self._touch_memo
        found = [memo.get(k) for k in keys]
        out = np.array([bool(v) for v in found], dtype=bool)
        miss = [i for i, v in enumerate(found) if v is None]
        if miss:
            idx = np.array(miss, dtype=np.intp)
            make = self._circles if keep_circles else _circle_polygons
            got = shapely.intersects(make(rows[idx, 0:2], rows[idx, 2]),
                                     self._heavy_parts[feats[idx]])
            out[idx] = got
            if len(memo) + len(miss) > PAIR_MEMO_LIMIT:
                memo.clear()
            memo.update(zip([keys[i] for i in miss], got.tolist(), strict=True))
        return out

    def _cover_regions_of(self, centres: np.ndarray, rb: np.ndarray, t_radius: np.ndarray,
                          cover_use: np.ndarray) -> list[np.ndarray]:
        """For each target base (centre, radius ``rb``, polygon radius ``t_radius``), the
        prepared regions where the cover-giving features in use would put it in cover: each
        feature's part within 1" of the base and outside the base itself. Remembered per
        exact target and ``cover_use``."""
        n = len(centres)
        rows = np.empty((n, 4))
        rows[:, 0:2] = centres
        rows[:, 2] = rb
        rows[:, 3] = t_radius
        use = cover_use.tobytes()
        keys = [k + use for k in _row_keys(rows)]
        memo = self._region_memo
        found: list[np.ndarray | None] = [memo.get(k) for k in keys]
        miss = np.array([i for i, g in enumerate(found) if g is None], dtype=np.intp)
        if len(miss):
            # The 1" zones are built only for targets with a feature in use whose box meets
            # the zone's box (the zone polygon lies inside the square of its radius).
            at, reach = centres[miss], rb[miss] + 1.0
            pad = reach + 1e-9
            boxes = shapely.box(at[:, 0] - pad, at[:, 1] - pad, at[:, 0] + pad, at[:, 1] + pad)
            zi, fi = self._cover_tree.query(boxes)
            keep = cover_use[fi]
            zi, fi = zi[keep], fi[keep]
            zones = np.empty(len(miss), dtype=object)
            near = np.unique(zi)
            zones[near] = self._circles(at[near], reach[near])
            meets = shapely.intersects(zones[zi], self._cover_parts[fi])
            zi, fi = zi[meets], fi[meets]
            discs = self._circles(centres[miss[zi]], t_radius[miss[zi]])
            regions = shapely.difference(shapely.intersection(self._cover_parts[fi], zones[zi]),
                                         discs)
            ok = ~shapely.is_empty(regions)
            zi, regions = zi[ok], regions[ok]
            shapely.prepare(regions)
            order = np.argsort(zi, kind="stable")
            zi, regions = zi[order], regions[order]
            start = np.searchsorted(zi, np.arange(len(miss) + 1))
            if len(memo) + len(miss) > SHAPE_MEMO_LIMIT:
                memo.clear()
            for m, i in enumerate(miss.tolist()):
                found[i] = memo[keys[i]] = regions[start[m]:start[m + 1]]
        return cast(list[np.ndarray], found)

    # -- point to point ---------------------------------------------------------------------
    def clear(self, P: Any, Q: Any) -> np.ndarray:
        """(n,) True where the sight segment from ``P[i]`` to ``Q[i]`` is clear.

        ``P`` and ``Q`` are (n, 2) arrays (or single points). A zero-length segment is clear
        unless its point lies inside a blocker.
        """
        p = _as_points(P)
        q = _as_points(Q)
        if p.shape != q.shape:
            raise ValueError(f"P and Q differ in shape: {p.shape} vs {q.shape}")
        n = len(p)
        out = np.ones(n, dtype=bool)
        if n == 0 or self._pieces.count == 0:
            return out
        for start in range(0, n, CHUNK):
            stop = min(n, start + CHUNK)
            out[start:stop] = self._clear_chunk(p[start:stop], q[start:stop])
        return out

    def _clear_chunk(self, p: np.ndarray, q: np.ndarray) -> np.ndarray:
        """:meth:`clear` for one chunk of segments."""
        px, py, qx, qy = p[:, 0], p[:, 1], q[:, 0], q[:, 1]
        n = len(px)
        vx, vy = qx - px, qy - py
        blocks: list[tuple[int, int]] = []
        if jit.ENABLED:
            blocked, unsure = self._pieces.hit_masks(px, py, vx, vy)
        elif n * self._pieces.count <= DIRECT_PAIRS:
            blocked, unsure = self._pieces.hits_all(px, py, vx, vy)
            unsure &= ~blocked
        else:
            blocked = np.zeros(n, dtype=bool)
            unsure = np.zeros(n, dtype=bool)
            blocks = self._pieces.blocks if n > SMALL_BATCH else [(0, self._pieces.count)]
        # Pieces come largest first, in blocks: a segment blocked by an early (large) piece
        # is not tested against the later ones.
        active = np.arange(n)
        for lo, hi in blocks:
            if lo:
                active = active[~blocked[active]]
                if len(active) == 0:
                    break
                sub = (px[active], py[active], vx[active], vy[active])
            else:
                sub = (px, py, vx, vy)
            inner, outer = self._pieces.hits(*sub, lo, hi)
            blocked[active[inner]] = True
            unsure[active[outer]] = True
        unsure &= ~blocked
        point = (vx == 0) & (vy == 0)
        if point.any():
            idx = np.flatnonzero(point)
            blocked[idx] = shapely.contains_xy(self._block, px[idx], py[idx])
            unsure[idx] = False
        idx = np.flatnonzero(unsure)
        if len(idx):
            lines = shapely.linestrings(np.stack([p[idx], q[idx]], axis=1))
            blocked[idx] = shapely.intersects(self._block, lines)
        return ~blocked

    # -- base to base -----------------------------------------------------------------------
    def visible(self, a: Any, b: Any, ra: float = 0.0, rb: float = 0.0) -> bool:
        """Whether a base of radius ``ra`` at ``a`` and one of radius ``rb`` at ``b`` can see
        each other (some clear segment between sample points of the two; see the module
        docstring for the sampling). Answers are remembered per exact arguments."""
        key = ("v", float(a[0]), float(a[1]), float(b[0]), float(b[1]), float(ra), float(rb))
        found = self._pair_memo.get(key)
        if found is None:
            found = self._remember(key, bool(self.visibility_matrix([a], ra, [b], rb)[0, 0]))
        return bool(found)

    def visibility_matrix(self, A: Any, ra: Any, B: Any, rb: Any) -> np.ndarray:
        """(len(A), len(B)) bool: :meth:`visible` for every pair; radii scalars or arrays."""
        A, B = _as_points(A), _as_points(B)
        na, nb = len(A), len(B)
        ra_, rb_ = _as_radii(ra, na), _as_radii(rb, nb)
        # One row (ax, ay, ra, bx, by, rb) per pair, row-major over (A, B).
        rows = np.empty((na, nb, 6))
        rows[:, :, 0:2] = A[:, None, :]
        rows[:, :, 2] = ra_[:, None]
        rows[:, :, 3:5] = B[None, :, :]
        rows[:, :, 5] = rb_[None, :]
        return self._visible_rows(rows.reshape(na * nb, 6)).reshape(na, nb)

    def _visible_rows(self, rows: np.ndarray) -> np.ndarray:
        """(m,) visibility of m base pairs given by centres and radii, remembered per pair.

        A pair's answer depends only on its own centres and radii (never on the other pairs of
        the batch), so answers are kept per :class:`Sight` keyed by the exact bits of the six
        numbers, and only the pairs not seen before are computed. The engine asks the same
        pairs again and again: spotting after every move, the cover of the same targets from
        many candidate points, the planner's and the autopilot's questions."""
        m = len(rows)
        a, ra, b, rb = rows[:, 0:2], rows[:, 2], rows[:, 3:5], rows[:, 5]
        if m == 0 or self._pieces.count == 0:
            return self._compute_visible_pairs(a, ra, b, rb)
        keys = _row_keys(rows)
        memo = self._vis_memo
        known = [memo.get(k) for k in keys]
        miss = [i for i, v in enumerate(known) if v is None]
        if not miss:
            return np.array(known, dtype=bool)
        if len(miss) == m:
            vis = self._compute_visible_pairs(a, ra, b, rb)
            fresh = vis.tolist()
        else:
            idx = np.array(miss, dtype=np.intp)
            fresh = self._compute_visible_pairs(a[idx], ra[idx], b[idx], rb[idx]).tolist()
            for i, v in zip(miss, fresh, strict=True):
                known[i] = v
            vis = np.array(known, dtype=bool)
        if len(memo) + len(miss) > VIS_MEMO_LIMIT:
            memo.clear()
        memo.update(zip([keys[i] for i in miss], fresh, strict=True))
        return vis

    def _compute_visible_pairs(self, a: np.ndarray, ra: np.ndarray, b: np.ndarray,
                               rb: np.ndarray) -> np.ndarray:
        """(m,) visibility of m base pairs given by centres and radii (no memo)."""
        m = len(a)
        vis = np.zeros(m, dtype=bool)
        if m == 0:
            return vis
        if self._pieces.count == 0:
            vis[:] = True
            return vis
        if m <= SCALAR_PAIRS:
            return self._few_visible_pairs(a, ra, b, rb)
        vis[:] = self.clear(a, b)
        todo = np.flatnonzero(~vis & ((ra > 0) | (rb > 0)))
        if len(todo) == 0:
            return vis
        todo = todo[~self._cut_off(a[todo], ra[todo], b[todo], rb[todo])]
        if len(todo) == 0:
            return vis
        return self._probe_and_sample(vis, todo, a, ra, b, rb)

    def _few_visible_pairs(self, a: np.ndarray, ra: np.ndarray, b: np.ndarray,
                           rb: np.ndarray) -> np.ndarray:
        """:meth:`_compute_visible_pairs` of a few pairs: the centre segment, the single-edge
        cut-off and the two probes pair by pair in Python floats (:class:`_Scalar`), then the
        sample segments of the pairs still open as for many pairs."""
        m = len(a)
        vis = np.zeros(m, dtype=bool)
        scalar = self._scalar
        open_: list[int] = []
        for i, (ax, ay, r0, bx, by, r1) in enumerate(zip(
                a[:, 0].tolist(), a[:, 1].tolist(), ra.tolist(), b[:, 0].tolist(),
                b[:, 1].tolist(), rb.tolist(), strict=True)):
            if self._clear_one(ax, ay, bx, by):
                vis[i] = True
                continue
            if not (r0 > 0 or r1 > 0) or scalar.cut_off(ax, ay, r0, bx, by, r1):
                continue
            # The probes: the sample segments parallel to the centre line (see
            # _probe_and_sample; the same sample points, in the same floats).
            phi = float(np.arctan2(by - ay, bx - ax))
            for side in (phi + math.pi / 2, phi - math.pi / 2):
                k = round(side / _STEP) % BASE_SAMPLES  # halves to even, as np.rint
                cos, sin = _BASE_COS[k], _BASE_SIN[k]
                if self._clear_one(ax + r0 * cos * SHRINK, ay + r0 * sin * SHRINK,
                                   bx + r1 * cos * SHRINK, by + r1 * sin * SHRINK):
                    vis[i] = True
                    break
            else:
                open_.append(i)
        if open_:
            todo = np.array(open_, dtype=np.intp)
            vis[todo] = self._sample_all(a[todo], ra[todo], b[todo], rb[todo])
        return vis

    def _probe_and_sample(self, vis: np.ndarray, todo: np.ndarray, a: np.ndarray,
                          ra: np.ndarray, b: np.ndarray, rb: np.ndarray) -> np.ndarray:
        """The last stages of :meth:`_compute_visible_pairs` for pairs ``todo`` (neither seen
        along the centre line nor cut off): the two probes, then every sample segment."""
        sa = _samples(a[todo], ra[todo], _BASE_COS, _BASE_SIN)
        sb = _samples(b[todo], rb[todo], _BASE_COS, _BASE_SIN)
        # Probes first: the two sample segments parallel to the centre line, one on each side
        # (where the end of a wall hides the centres, one of them usually passes it). The
        # answer is whether any sample segment is clear, so the order they are tried in
        # changes nothing but the time.
        k = len(todo)
        d = b[todo] - a[todo]
        phi = np.arctan2(d[:, 1], d[:, 0])
        side = np.concatenate([phi + math.pi / 2, phi - math.pi / 2])
        col = np.rint(side / _STEP).astype(np.intp) % BASE_SAMPLES + 1
        row = np.tile(np.arange(k), 2)
        ok = self.clear(sa[row, col], sb[row, col])
        seen = np.bincount(row[ok], minlength=k) > 0
        vis[todo[seen]] = True
        todo = todo[~seen]
        if len(todo) == 0:
            return vis
        vis[todo] = self._sample_all(a[todo], ra[todo], b[todo], rb[todo], sa[~seen],
                                     sb[~seen])
        return vis

    def _sample_all(self, a: np.ndarray, ra: np.ndarray, b: np.ndarray, rb: np.ndarray,
                    sa: np.ndarray | None = None, sb: np.ndarray | None = None
                    ) -> np.ndarray:
        """(k,) whether some sample segment of each pair is clear (every pair of sample
        points, skipping those one blocker edge provably cuts); ``sa`` / ``sb`` are the pairs'
        sample points when already made."""
        if sa is None or sb is None:
            sa = _samples(a, ra, _BASE_COS, _BASE_SIN)
            sb = _samples(b, rb, _BASE_COS, _BASE_SIN)
        # Then every sample segment, skipping those one blocker edge provably cuts: from a
        # sample point of one base to the whole of the other base. (Most pairs left here are
        # blind, so a coarse pass first would only add work.)
        k = len(a)
        cut = self._points_cut_off(np.concatenate([sa, sb]), np.concatenate([b, a]),
                                   np.concatenate([rb, ra]))
        need = ~cut[:k, :, None] & ~cut[k:, None, :]
        pk, pa, pb = np.nonzero(need)
        ok = self.clear(sa[pk, pa], sb[pk, pb])
        return np.bincount(pk[ok], minlength=k) > 0

    def _cut_off(self, a: np.ndarray, ra: np.ndarray, b: np.ndarray, rb: np.ndarray,
                 group: int = 1) -> np.ndarray:
        """(m,) True where one blocker edge provably crosses every segment between the two
        bases: the bases lie on opposite sides of the edge's line and the edge spans the whole
        hull of the two bases where it meets that line. Rows come in runs of ``group`` that lie
        close together (one pair's sample points), which share a bounding-box prefilter."""
        e = self._edges
        m = len(a)
        out = np.zeros(m, dtype=bool)
        if len(e.x0) == 0 or m == 0:
            return out
        if jit.ENABLED:  # pair by pair: the box test is only a filter, the numbers the same
            return cast(np.ndarray, _js.cut_off_many(a, ra, b, rb, self._scalar.edge_rows,
                                                     SEPARATE_MARGIN))
        if group == 1 and m * len(e.x0) <= DIRECT_EDGES:
            return self._cut_off_dense(a, ra, b, rb)
        marg = SEPARATE_MARGIN
        # Only edges whose box meets the box around a run's bases can cut them off.
        lo = np.minimum(a - ra[:, None], b - rb[:, None]).reshape(m // group, group, 2).min(1)
        hi = np.maximum(a + ra[:, None], b + rb[:, None]).reshape(m // group, group, 2).max(1)
        near = ((lo[:, 0:1] <= e.maxx) & (hi[:, 0:1] >= e.minx)
                & (lo[:, 1:2] <= e.maxy) & (hi[:, 1:2] >= e.miny))
        gi, ei = np.nonzero(near)
        pi = (gi[:, None] * group + np.arange(group)).ravel()
        ei = np.repeat(ei, group)
        # Signed distances of the two centres from each edge's line.
        enx, eny, eoff = e.nx[ei], e.ny[ei], e.offset[ei]
        sa = a[pi, 0] * enx + a[pi, 1] * eny - eoff
        sb = b[pi, 0] * enx + b[pi, 1] * eny - eoff
        r0, r1 = ra[pi] + marg, rb[pi] + marg
        split = ((sa > r0) & (sb < -r1)) | ((sa < -r0) & (sb > r1))
        pi, ei = pi[split], ei[split]
        if len(pi) == 0:
            return out
        # The two outer common tangents of each row's bases are worked out once per row (a
        # row meets many edges), then each edge is met with them.
        need = np.zeros(m, dtype=bool)
        need[pi] = True
        rows = np.flatnonzero(need)
        back = (np.cumsum(need) - 1)[pi]
        ax, ay, bx, by = a[rows, 0], a[rows, 1], b[rows, 0], b[rows, 1]
        r0, r1 = ra[rows], rb[rows]
        dx, dy = bx - ax, by - ay
        dist = np.hypot(dx, dy)
        ux, uy = dx / dist, dy / dist
        alpha = (r1 - r0) / dist
        beta = np.sqrt(np.maximum(0.0, 1.0 - alpha * alpha))
        ex0, ey0 = e.x0[ei], e.y0[ei]
        tdx, tdy = e.tdx[ei], e.tdy[ei]
        ok = np.ones(len(pi), dtype=bool)
        for sign in (1.0, -1.0):
            # The outer common tangent with unit normal m: m.x >= k on the hull's side.
            mx = alpha * ux - sign * beta * uy
            my = alpha * uy + sign * beta * ux
            k = mx * ax + my * ay - r0
            mx, my, k = mx[back], my[back], k[back]
            denom = mx * tdx + my * tdy
            with np.errstate(divide="ignore", invalid="ignore"):
                t = (k - (mx * ex0 + my * ey0)) / denom
            ok &= np.isfinite(t) & (t > marg) & (t < e.length[ei] - marg)
        out[pi[ok]] = True
        return out

    def _cut_off_dense(self, a: np.ndarray, ra: np.ndarray, b: np.ndarray, rb: np.ndarray
                       ) -> np.ndarray:
        """:meth:`_cut_off` of a few pairs (``group`` 1), worked out for every (pair, edge) at
        once as (pair, edge) arrays: the same numbers for the pairs the box and side tests
        keep, with fewer numpy calls than picking those pairs out first."""
        e = self._edges
        marg = SEPARATE_MARGIN
        ax, ay, bx, by = a[:, 0:1], a[:, 1:2], b[:, 0:1], b[:, 1:2]
        ra1, rb1 = ra[:, None], rb[:, None]
        lo_x, lo_y = np.minimum(ax - ra1, bx - rb1), np.minimum(ay - ra1, by - rb1)
        hi_x, hi_y = np.maximum(ax + ra1, bx + rb1), np.maximum(ay + ra1, by + rb1)
        ok = (lo_x <= e.maxx) & (hi_x >= e.minx) & (lo_y <= e.maxy) & (hi_y >= e.miny)
        sa = ax * e.nx + ay * e.ny - e.offset
        sb = bx * e.nx + by * e.ny - e.offset
        r0, r1 = ra1 + marg, rb1 + marg
        ok &= ((sa > r0) & (sb < -r1)) | ((sa < -r0) & (sb > r1))
        if not ok.any():
            return np.zeros(len(a), dtype=bool)
        dx, dy = bx - ax, by - ay
        dist = np.hypot(dx, dy)
        with np.errstate(divide="ignore", invalid="ignore"):  # pairs with one centre: no edge
            ux, uy = dx / dist, dy / dist
            alpha = (rb1 - ra1) / dist
            beta = np.sqrt(np.maximum(0.0, 1.0 - alpha * alpha))
            for sign in (1.0, -1.0):
                mx = alpha * ux - sign * beta * uy
                my = alpha * uy + sign * beta * ux
                k = mx * ax + my * ay - ra1
                denom = mx * e.tdx + my * e.tdy
                t = (k - (mx * e.x0 + my * e.y0)) / denom
                ok &= np.isfinite(t) & (t > marg) & (t < e.length - marg)
        return cast(np.ndarray, ok.any(axis=1))

    def _points_cut_off(self, pts: np.ndarray, c: np.ndarray, r: np.ndarray) -> np.ndarray:
        """(k, n) True where one blocker edge provably crosses every segment from the point
        ``pts[g, i]`` to the whole base of radius ``r[g]`` at ``c[g]``: :meth:`_cut_off` of
        each point (radius 0) and its group's base, the same numbers computed once per group
        where they do not depend on the point."""
        e = self._edges
        k, n = pts.shape[0], pts.shape[1]
        out = np.zeros((k, n), dtype=bool)
        if len(e.x0) == 0 or k == 0:
            return out
        if jit.ENABLED:  # point by point, as _cut_off of a base of radius 0
            return cast(np.ndarray, _js.points_cut_off(pts, c, r, self._scalar.edge_rows,
                                                       SEPARATE_MARGIN))
        marg = SEPARATE_MARGIN
        # Only edges whose box meets the box around a group's points and base can cut them off.
        lo = np.minimum(pts.min(axis=1), c - r[:, None])
        hi = np.maximum(pts.max(axis=1), c + r[:, None])
        near = ((lo[:, 0:1] <= e.maxx) & (hi[:, 0:1] >= e.minx)
                & (lo[:, 1:2] <= e.maxy) & (hi[:, 1:2] >= e.miny))
        gi, ei = np.nonzero(near)
        if len(gi) == 0:
            return out
        # Signed distances of each point and of its base's centre from each edge's line.
        enx, eny, eoff = e.nx[ei], e.ny[ei], e.offset[ei]
        sb = (c[gi, 0] * enx + c[gi, 1] * eny - eoff)[:, None]
        p = pts[gi]
        sa = p[:, :, 0] * enx[:, None] + p[:, :, 1] * eny[:, None] - eoff[:, None]
        r1 = (r[gi] + marg)[:, None]
        split = ((sa > marg) & (sb < -r1)) | ((sa < -marg) & (sb > r1))
        qi, ii = np.nonzero(split)
        if len(qi) == 0:
            return out
        pi = gi[qi] * n + ii  # flat index of the point
        ei = ei[qi]
        # The two tangents from each point to its base, once per point (a point meets many
        # edges), then each edge is met with them.
        flat = pts.reshape(k * n, 2)
        need = np.zeros(k * n, dtype=bool)
        need[pi] = True
        rows = np.flatnonzero(need)
        back = (np.cumsum(need) - 1)[pi]
        g = rows // n
        ax, ay, bx, by = flat[rows, 0], flat[rows, 1], c[g, 0], c[g, 1]
        r1 = r[g]
        dx, dy = bx - ax, by - ay
        dist = np.hypot(dx, dy)
        ux, uy = dx / dist, dy / dist
        alpha = r1 / dist
        beta = np.sqrt(np.maximum(0.0, 1.0 - alpha * alpha))
        ex0, ey0 = e.x0[ei], e.y0[ei]
        tdx, tdy = e.tdx[ei], e.tdy[ei]
        ok = np.ones(len(pi), dtype=bool)
        for sign in (1.0, -1.0):
            mx = alpha * ux - sign * beta * uy
            my = alpha * uy + sign * beta * ux
            kk = mx * ax + my * ay
            mx, my, kk = mx[back], my[back], kk[back]
            denom = mx * tdx + my * tdy
            with np.errstate(divide="ignore", invalid="ignore"):
                t = (kk - (mx * ex0 + my * ey0)) / denom
            ok &= np.isfinite(t) & (t > marg) & (t < e.length[ei] - marg)
        out.reshape(k * n)[pi[ok]] = True
        return out

    # -- cover ------------------------------------------------------------------------------
    def cover(self, attacker: Any, target: Any, ra: float = 0.0, rb: float = 0.0, *,
              seek: bool = False, seek_light: bool = False, edition: str = "kt2024"
              ) -> CoverResult:
        """Whether ``target`` is visible to ``attacker``, in cover and obscured (2024 reading,
        see the module docstring). ``seek``: cover-giving terrain gives no cover;
        ``seek_light``: light-only terrain gives none. Not visible gives all False.

        ``edition="kt2018"`` runs the same computation: the engine reads ``obscured or
        in_cover`` as the 2018 "obscured", so both editions share this one geometry.
        """
        key = ("c", float(attacker[0]), float(attacker[1]), float(target[0]), float(target[1]),
               float(ra), float(rb), bool(seek), bool(seek_light), edition)
        found = self._pair_memo.get(key)
        if found is None:
            cm = self.cover_matrix([attacker], ra, [target], rb, seek=seek,
                                   seek_light=seek_light, edition=edition)
            vis = bool(cm.visible[0, 0])
            found = self._remember(key, CoverResult(vis, bool(cm.in_cover[0, 0]),
                                                    bool(cm.obscured[0, 0]), vis))
        return replace(found)  # a copy: a caller may change its own

    def cover_matrix(self, A: Any, ra: Any, B: Any, rb: Any, *, edition: str = "kt2024",
                     seek: bool = False, seek_light: bool = False) -> CoverMatrix:
        """:meth:`cover` from every attacker in ``A`` (rows) to every target in ``B`` (columns);
        radii are scalars or arrays. ``edition`` is accepted for both editions and changes
        nothing (see :meth:`cover`)."""
        del edition  # one geometry for both editions
        A, B = _as_points(A), _as_points(B)
        ra_, rb_ = _as_radii(ra, len(A)), _as_radii(rb, len(B))
        shape = (len(A), len(B))
        vis = self.visibility_matrix(A, ra_, B, rb_)
        in_cover = np.zeros(shape, dtype=bool)
        obscured = np.zeros(shape, dtype=bool)
        pi, pj = np.nonzero(vis)
        if len(pi) == 0:
            return CoverMatrix(vis, in_cover, obscured)
        # A pair's answer depends on its own centres and radii only (never on the other pairs
        # of a job), so the pairs answered before are read back and only the rest computed.
        mode = 1 if seek else 2 if seek_light else 0
        rows = np.empty((len(pi), 6))
        rows[:, 0:2] = A[pi]
        rows[:, 2] = ra_[pi]
        rows[:, 3:5] = B[pj]
        rows[:, 5] = rb_[pj]
        keys = _row_keys(rows)
        memo = self._cover_memo[mode]
        found = [memo.get(k) for k in keys]
        miss = [i for i, v in enumerate(found) if v is None]
        if miss:
            if mode == 1:
                cover_use = np.zeros(len(self._cover_parts), dtype=bool)
            elif mode == 2:
                cover_use = ~self._cover_light
            else:
                cover_use = np.ones(len(self._cover_parts), dtype=bool)
            m = np.array(miss, dtype=np.intp)
            obs, cov = _CoverJob(self, A, ra_, B, rb_, pi[m], pj[m], cover_use).run()
            if len(memo) + len(miss) > COVER_MEMO_LIMIT:
                memo.clear()
            for i, code in zip(miss, (2 * obs.astype(np.int8) + cov).tolist(), strict=True):
                found[i] = memo[keys[i]] = code
        codes = np.array(found, dtype=np.int8)
        obscured[pi, pj] = codes >= 2
        in_cover[pi, pj] = codes % 2 == 1
        return CoverMatrix(vis, in_cover, obscured)


class _CoverJob:
    """One cover computation over a set of visible (attacker, target) pairs ``(pi[k], pj[k])``.

    Regions are per feature: for cover, a cover-giving feature's part within 1" of a target but
    outside its base; for obscuring, a Heavy feature's part more than 1" from both bases of a
    pair. Any region meeting a cover-line triangle settles the question for that triangle.
    """

    def __init__(self, sight: Sight, A: np.ndarray, ra: np.ndarray, B: np.ndarray,
                 rb: np.ndarray, pi: np.ndarray, pj: np.ndarray, cover_use: np.ndarray) -> None:
        self.s = sight
        self.A, self.ra, self.B, self.rb = A, ra, B, rb
        self.pi, self.pj = pi, pj
        self.t_radius = np.maximum(rb, TINY_BASE)
        self._near_a: np.ndarray | None = None
        self._have_a = np.zeros(0, dtype=bool)
        # Cover needs the bases more than 2" apart.
        gap = np.hypot(*(A[pi] - B[pj]).T) - ra[pi] - rb[pj]
        self.cover_ok = gap > 2.0
        self.cover_use = cover_use
        self._obscure_regions: dict[tuple[int, int], BaseGeometry] = {}

    def near_t(self, j: np.ndarray) -> np.ndarray:
        """The 1" zone around the base of each target ``j`` (a polygon as the reference's)."""
        return self.s._circles(self.B[j], self.rb[j] + 1.0)

    def near_a(self, i: np.ndarray) -> np.ndarray:
        """The 1" zone around the base of each attacker ``i``, built once per attacker a job
        needs (attackers are often many candidate points, few of them near Heavy terrain)."""
        if self._near_a is None:
            self._near_a = np.empty(len(self.A), dtype=object)
            self._have_a = np.zeros(len(self.A), dtype=bool)
        need = np.unique(i[~self._have_a[i]])
        if len(need):
            made = _circle_polygons(self.A[need], self.ra[need] + 1.0)
            self._near_a[need] = made
            self._have_a[need] = True
        return cast(np.ndarray, self._near_a[i])

    def tdisc_coords(self, j: np.ndarray) -> np.ndarray:
        """(len(j), RING, 2): the vertices of the base polygon of each target ``j`` (as the
        reference's)."""
        return _circle_rings(self.B[j], self.t_radius[j])[:, :RING]

    def cover_regions(self, targets: np.ndarray) -> None:
        """Build, for the given targets, the regions where cover-giving terrain would put them
        in cover: ``self.c_start[j]:self.c_start[j + 1]`` index ``self.c_regions``."""
        nt = len(self.B)
        self.c_regions = np.zeros(0, dtype=object)
        self.c_bounds = np.zeros((0, 4))
        self.c_start = np.zeros(nt + 1, dtype=np.intp)
        if len(targets) == 0 or not self.cover_use.any():
            return
        per_target = self.s._cover_regions_of(self.B[targets], self.rb[targets],
                                              self.t_radius[targets], self.cover_use)
        counts = np.zeros(nt, dtype=np.intp)
        counts[targets] = [len(r) for r in per_target]
        if counts.sum() == 0:
            return
        self.c_regions = np.concatenate(per_target)  # targets come sorted (np.unique)
        self.c_start[1:] = np.cumsum(counts)
        self.c_bounds = shapely.bounds(self.c_regions)  # (minx, miny, maxx, maxy), exact

    def _heavy_near(self) -> np.ndarray:
        """(pairs,) whether any Heavy feature's box meets the box around the pair's bases."""
        hb = self.s._heavy_box
        if len(hb) == 0:
            return np.zeros(len(self.pi), dtype=bool)
        a, b = self.A[self.pi], self.B[self.pj]
        r_a, r_b = self.ra[self.pi], self.t_radius[self.pj]
        lo_x = np.minimum(a[:, 0] - r_a, b[:, 0] - r_b)[:, None]
        hi_x = np.maximum(a[:, 0] + r_a, b[:, 0] + r_b)[:, None]
        lo_y = np.minimum(a[:, 1] - r_a, b[:, 1] - r_b)[:, None]
        hi_y = np.maximum(a[:, 1] + r_a, b[:, 1] + r_b)[:, None]
        return ((lo_x <= hb[:, 2]) & (hi_x >= hb[:, 0])
                & (lo_y <= hb[:, 3]) & (hi_y >= hb[:, 1])).any(axis=1)

    def run(self) -> tuple[np.ndarray, np.ndarray]:
        """(obscured, in_cover) for every pair, the attacker choosing its best point."""
        npairs = len(self.pi)
        heavy_near = self._heavy_near()
        self.cover_regions(np.unique(self.pj[self.cover_ok]))
        counts = np.diff(self.c_start)
        cover_near = self.cover_ok & (counts[self.pj] > 0)
        # Best (obscured, in cover) so far, as 2 * obscured + in_cover (lower suits the attacker).
        best = np.zeros(npairs, dtype=np.int8)
        todo = np.flatnonzero(heavy_near | cover_near)
        if len(todo) == 0:
            return best >= 2, best % 2 == 1
        # The answer is the best of the attacker's centre and the 16 points of its base edge.
        # A few pairs: all 17 at once (each round of questions has a fixed cost). Many: first
        # the centre; then, where that leaves the target obscured or in cover, four points of
        # the edge, and the rest only if still needed (a point that leaves the target neither
        # obscured nor in cover is the best there is).
        if len(todo) <= SMALL_COVER_JOB:
            pts = _samples(self.A[self.pi[todo]], self.ra[self.pi[todo]], _COVER_COS,
                           _COVER_SIN)
            rep = np.repeat(todo, COVER_SAMPLES + 1)
            obs, cov = self._evaluate(rep, pts.reshape(-1, 2), heavy_near, cover_near)
            key = (2 * obs + cov).astype(np.int8).reshape(len(todo), COVER_SAMPLES + 1)
            best[todo] = key.min(axis=1)
            return best >= 2, best % 2 == 1
        obs, cov = self._evaluate(todo, self.A[self.pi[todo]], heavy_near, cover_near)
        best[todo] = 2 * obs + cov
        edge = _samples(self.A, self.ra, _COVER_COS, _COVER_SIN)[:, 1:]
        quarter = COVER_SAMPLES // 4
        first = np.arange(0, COVER_SAMPLES, quarter)
        for group in (first, np.setdiff1d(np.arange(COVER_SAMPLES), first)):
            todo = todo[(best[todo] > 0) & (self.ra[self.pi[todo]] > 0)]
            if len(todo) == 0:
                break
            pts = edge[self.pi[todo]][:, group]
            rep = np.repeat(todo, len(group))
            obs, cov = self._evaluate(rep, pts.reshape(-1, 2), heavy_near, cover_near)
            key = (2 * obs + cov).astype(np.int8).reshape(len(todo), len(group))
            best[todo] = np.minimum(best[todo], key.min(axis=1))
        return best >= 2, best % 2 == 1

    def _evaluate(self, pairs: np.ndarray, points: np.ndarray, heavy_near: np.ndarray,
                  cover_near: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(obscured, in_cover) of the cover lines from ``points[n]`` to pair ``pairs[n]``'s
        target."""
        n = len(pairs)
        obs = np.zeros(n, dtype=bool)
        cov = np.zeros(n, dtype=bool)
        j = self.pj[pairs]
        c = self.B[j]
        rel = points - c
        d = np.hypot(rel[:, 0], rel[:, 1])
        # Inside the target's 1" zone the whole hull is in that zone: neither applies.
        outside = d >= (self.rb[j] + 1.0) * math.cos(math.pi / RING) * (1 - 1e-9)
        live = np.flatnonzero(outside & (heavy_near[pairs] | cover_near[pairs]))
        if len(live) == 0:
            return obs, cov
        tri = _Triangles(self._triangles(points[live], c[live], self.t_radius[j[live]],
                                         j[live], d[live]))
        hv = np.flatnonzero(heavy_near[pairs[live]])
        if len(hv):
            obs[live[hv]] = self._obscured(tri, hv, pairs[live[hv]])
        cv = np.flatnonzero(cover_near[pairs[live]])
        if len(cv):
            jj = j[live[cv]]
            counts = self.c_start[jj + 1] - self.c_start[jj]
            rep = np.repeat(np.arange(len(cv)), counts)
            idx = np.repeat(self.c_start[jj] - np.cumsum(counts) + counts, counts)
            idx += np.arange(len(rep))
            # A triangle clearly apart from a region's bounding box misses the region: by
            # the boxes, then by the triangle's edges (exact for the box, ties left to shapely);
            # shapely answers the rest (about 40% of the pairs in a mission).
            corners = tri.ring[cv[rep], :3]
            lo, hi = corners.min(axis=1), corners.max(axis=1)
            bnd = self.c_bounds[idx]
            ask = ((lo[:, 0] <= bnd[:, 2]) & (hi[:, 0] >= bnd[:, 0])
                   & (lo[:, 1] <= bnd[:, 3]) & (hi[:, 1] >= bnd[:, 1]))
            near = np.flatnonzero(ask)
            meets, sure = _triangle_meets_box(corners[near], bnd[near])
            ask[near] = meets | ~sure
            hit = np.zeros(len(rep), dtype=bool)
            hit[ask] = shapely.intersects(self.c_regions[idx[ask]], tri.polygons(cv[rep[ask]]))
            cov[live[cv]] = np.bincount(rep[hit], minlength=len(cv)) > 0
        return obs, cov

    def _obscured(self, tris: _Triangles, sub: np.ndarray, pairs: np.ndarray
                  ) -> np.ndarray:
        """(n,) whether Heavy terrain meets triangle ``sub[n]`` of ``tris`` more than 1" from
        both bases of pair ``pairs[n]``."""
        out = np.zeros(len(sub), dtype=bool)
        # The features whose boxes meet each triangle's box (as the tree of the features'
        # boxes would give them; empty features have NaN boxes and meet none); a
        # separating-axis test of each triangle against the feature's box (exact for
        # box-shaped features); shapely for the rest.
        corners = tris.ring[sub, :3]
        hb = self.s._heavy_box
        if jit.ENABLED:
            ti, fi, meets, sure = _js.heavy_candidates(corners, hb, self.s._heavy_is_box)
        else:
            lo, hi = corners.min(axis=1), corners.max(axis=1)
            ti, fi = np.nonzero((lo[:, 0:1] <= hb[:, 2]) & (hi[:, 0:1] >= hb[:, 0])
                                & (lo[:, 1:2] <= hb[:, 3]) & (hi[:, 1:2] >= hb[:, 1]))
            meets, sure = _triangle_meets_box(corners[ti], hb[fi])
            sure &= self.s._heavy_is_box[fi]
        ask = np.flatnonzero(meets & ~sure)
        if len(ask) and jit.ENABLED and self.s._heavy_ragged is not None:
            # the feature's own outline, edge by edge (shapely where a turn is too close)
            got, known = _js.triangles_meet(corners[ti[ask]], fi[ask], *self.s._heavy_ragged)
            meets[ask[known]] = got[known]
            ask = ask[~known]
        if len(ask):
            meets[ask] = shapely.intersects(self.s._heavy_parts[fi[ask]],
                                            tris.polygons(sub[ti[ask]]))
        ti, fi = ti[meets], fi[meets]
        if len(ti) == 0:
            return out
        k = pairs[ti]
        if jit.ENABLED and self.s._heavy_ragged is not None:
            # Most triangles meet a feature far from both 1" zones, where the feature less the
            # zones is the feature itself: a point of its outline in the triangle, clearly
            # outside both zones, settles it (with no zone test and no region built); the
            # rest are decided below as without it.
            tj, ai = self.pj[k], self.pi[k]
            zt = np.column_stack([self.B[tj], self.rb[tj] + 1.0])
            za = np.column_stack([self.A[ai], self.ra[ai] + 1.0])
            seen = _js.obscure_witness(corners[ti], fi, zt, za, *self.s._heavy_ragged)
            out[ti[seen]] = True
            left = ~out[ti]
            ti, fi, k = ti[left], fi[left], k[left]
            if len(ti) == 0:
                return out
        # Whether each feature reaches into either 1" zone, once per (pair, feature).
        nf = len(self.s._heavy_parts)
        uniq, back = np.unique(k * nf + fi, return_inverse=True)
        uk, uf = uniq // nf, uniq % nf
        tj = self.pj[uk]
        touch = self.s._zones_touch(self.B[tj], self.rb[tj] + 1.0, uf)
        ask = np.flatnonzero(~touch)  # the attacker's zone only where the target's misses
        ai = self.pi[uk[ask]]
        touch[ask] = self.s._zones_touch(self.A[ai], self.ra[ai] + 1.0, uf[ask],
                                         keep_circles=False)
        clean = ~touch[back.ravel()]
        out[ti[clean]] = True
        rest = np.flatnonzero(~clean & ~out[ti])
        if len(rest) == 0:
            return out
        keys = list(zip(k[rest].tolist(), fi[rest].tolist(), strict=True))
        missing = sorted({key for key in keys if key not in self._obscure_regions})
        if missing:
            mk = np.array([m[0] for m in missing], dtype=np.intp)
            mf = np.array([m[1] for m in missing], dtype=np.intp)
            regions = shapely.difference(self.s._heavy_parts[mf], self.near_t(self.pj[mk]))
            regions = shapely.difference(regions, self.near_a(self.pi[mk]))
            shapely.prepare(regions)
            self._obscure_regions.update(zip(missing, regions, strict=True))
        regions = np.array([self._obscure_regions[key] for key in keys], dtype=object)
        hit = shapely.intersects(regions, tris.polygons(sub[ti[rest]]))
        out[ti[rest[hit]]] = True
        return out

    def _triangles(self, p: np.ndarray, c: np.ndarray, r: np.ndarray, j: np.ndarray,
                   d: np.ndarray) -> np.ndarray:
        """Triangles from each point ``p`` to the two tangent vertices of its target's base
        polygon (with the base they make the cover lines' hull): their closed rings
        (n, 4, 2), the point first."""
        step = 2 * math.pi / RING
        phi = np.arctan2(p[:, 1] - c[:, 1], p[:, 0] - c[:, 0])
        half = np.arccos(np.clip(r / d, -1.0, 1.0))
        if _fast_rings():  # the vertices straight from the table, no polygon needed
            if jit.ENABLED:  # the same arithmetic vertex by vertex (numpy's angles)
                return cast(np.ndarray, _js.cover_triangles(
                    np.ascontiguousarray(p), np.ascontiguousarray(c), r, phi, half, step,
                    RING, _RING_COS, _RING_SIN))
            verts = None
        else:
            uj, inv = np.unique(j, return_inverse=True)
            verts = self.tdisc_coords(uj).reshape(-1, 2)
            base = (inv.ravel() * RING)[:, None]
        n = len(p)
        tx, ty = (c - p)[:, 0:1, None], (c - p)[:, 1:2, None]
        # Both tangents at once, axis 1 the sign (+, -): base polygon vertex m sits at angle
        # -m * step; look around the true tangent.
        guess = np.rint(-(phi[:, None] + _SIGNS * half[:, None]) / step).astype(int)  # (n, 2)
        cand = (guess[:, :, None] + _AROUND) % RING  # (n, 2, 5)
        if verts is None:
            v = np.empty((*cand.shape, 2))  # (n, 2, 5, 2), as _ring_coords computes them
            v[..., 0] = c[:, 0:1, None] + r[:, None, None] * _RING_COS[cand]
            v[..., 1] = c[:, 1:2, None] + r[:, None, None] * _RING_SIN[cand]
        else:
            v = verts[base[:, :, None] + cand]  # (n, 2, 5, 2)
        wx, wy = v[..., 0] - p[:, None, None, 0], v[..., 1] - p[:, None, None, 1]
        # tan of the angle between p->c and p->vertex; the tangent vertex has the largest.
        tan = (tx * wy - ty * wx) / (tx * wx + ty * wy)
        pick = np.argmax(np.abs(tan), axis=2)  # (n, 2)
        rows = np.arange(n)[:, None]
        corners = v[rows, np.arange(2)[None, :], pick]  # (n, 2, 2)
        ring = np.empty((n, 4, 2))
        ring[:, 0] = p
        ring[:, 1:3] = corners
        ring[:, 3] = p
        return ring


class _Triangles:
    """Cover-line triangles by their rings, made into shapely polygons only where a question
    needs one (most are settled by box tests alone)."""

    def __init__(self, ring: np.ndarray) -> None:
        self.ring = ring
        self._polys = np.empty(len(ring), dtype=object)
        self._made = np.zeros(len(ring), dtype=bool)

    def polygons(self, idx: np.ndarray) -> np.ndarray:
        """The polygons of triangles ``idx`` (an object array, built on first use)."""
        need = np.unique(idx[~self._made[idx]])
        if len(need):
            self._polys[need] = shapely.polygons(self.ring[need])
            self._made[need] = True
        return cast(np.ndarray, self._polys[idx])
