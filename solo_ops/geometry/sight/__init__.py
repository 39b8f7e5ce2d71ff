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
* A model up on a *perch* (a ``vantage`` feature with a height that blocks, obscures or gives
  cover) is not hidden by it: the lines from or to that model are answered by the sight of the
  board without that feature (:mod:`~solo_ops.geometry.sight.perches`,
  :meth:`Sight.without`). :meth:`Sight.clear` asks about points, not models, and counts every
  feature.

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
  "some sample segment is clear", so the order changes only the time. With the compiled loops
  on, a pair's whole search is one loop (``jit.sight.visible_pairs``: the same stages and
  segments, each sample segment tried against the blocker pieces near it only); a pair with a
  segment too close to call and none surely clear goes the numpy way, shapely deciding.
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

The modules, lowest first: :mod:`~solo_ops.geometry.sight.common` (the compiled loops' handle,
the erosion tolerance, the memo bounds, exact-bits keys),
:mod:`~solo_ops.geometry.sight.results` (:class:`CoverResult`, :class:`CoverMatrix`),
:mod:`~solo_ops.geometry.sight.circles` (sample points on bases, the circle polygons of bases
and 1" zones), :mod:`~solo_ops.geometry.sight.blockers` (the blockers' convex pieces and
edges, exact clipping), :mod:`~solo_ops.geometry.sight.scalar`
(one segment or pair in Python floats), :mod:`~solo_ops.geometry.sight.lines` (batches of
sight segments: :meth:`Sight.clear`), :mod:`~solo_ops.geometry.sight.visibility` (base-to-base
visibility and the single-edge cut-off proofs), :mod:`~solo_ops.geometry.sight.regions` (the
prepared cover and Heavy terrain, remembered circles and cover regions),
:mod:`~solo_ops.geometry.sight.perches` (the terrain models stand on, and the groups of pairs
answered without it),
:mod:`~solo_ops.geometry.sight.cover` (the 2024 cover lines: :class:`CoverJob`) and
:mod:`~solo_ops.geometry.sight.query` (:class:`Sight`). This package re-exports the names
other rooms use (``from solo_ops.geometry.sight import Sight``: the queries, their results, the
sizes and tolerances); the units it is built of (``blockers.Pieces``, ``scalar.Scalar``,
``cover.CoverJob``, ``circles.samples``, the circle tables) are public in their own modules,
where their tests find them, as are the tunables ``DIRECT_PAIRS``
(:mod:`~solo_ops.geometry.sight.blockers`) and ``DIRECT_EDGES``
(:mod:`~solo_ops.geometry.sight.visibility`) and the flag ``FAST_RINGS``
(:mod:`~solo_ops.geometry.sight.circles`): those are read from the one module that holds them,
so a change must be made there (as must a replacement of ``triangle_meets_box``, looked up in
:mod:`~solo_ops.geometry.sight.cover`).
"""

import shapely

from solo_ops.geometry.sight import (
    blockers,
    circles,
    common,
    cover,
    lines,
    perches,
    query,
    regions,
    results,
    scalar,
    visibility,
)
from solo_ops.geometry.sight.blockers import (
    MAX_SIDES,
    NEAR,
    PIECE_BLOCK,
    PREFILTER_PAD,
    SEPARATE_MARGIN,
)
from solo_ops.geometry.sight.circles import (
    BASE_SAMPLES,
    COVER_SAMPLES,
    QUAD_SEGS,
    RING,
    SHRINK,
    TINY_BASE,
)
from solo_ops.geometry.sight.common import (
    COVER_MEMO_LIMIT,
    ERODE,
    PAIR_MEMO_LIMIT,
    SHAPE_MEMO_LIMIT,
    VIS_MEMO_LIMIT,
)
from solo_ops.geometry.sight.cover import SMALL_COVER_JOB
from solo_ops.geometry.sight.lines import CHUNK, SMALL_BATCH
from solo_ops.geometry.sight.query import Sight
from solo_ops.geometry.sight.results import CoverMatrix, CoverResult
from solo_ops.geometry.sight.visibility import SCALAR_PAIRS

__all__ = [
    "BASE_SAMPLES", "CHUNK", "COVER_MEMO_LIMIT", "COVER_SAMPLES", "ERODE", "MAX_SIDES", "NEAR",
    "PAIR_MEMO_LIMIT", "PIECE_BLOCK", "PREFILTER_PAD", "QUAD_SEGS", "RING", "SCALAR_PAIRS",
    "SEPARATE_MARGIN", "SHAPE_MEMO_LIMIT", "SHRINK", "SMALL_BATCH", "SMALL_COVER_JOB",
    "TINY_BASE", "VIS_MEMO_LIMIT", "CoverMatrix", "CoverResult", "Sight", "blockers",
    "circles", "common", "cover", "lines", "perches", "query", "regions", "results", "scalar",
    "shapely", "visibility",
]
