"""Sample points on bases, and the 128-sided circle polygons of bases and 1" zones.

Visibility samples each base at its centre and :data:`BASE_SAMPLES` points just inside its
edge; cover lines start at the attacker's centre or one of :data:`COVER_SAMPLES` edge points.
The circle polygons are the reference's (``shapely.buffer`` with :data:`QUAD_SEGS`), their
vertices computed from a table of cosines when that gives GEOS's points bit for bit
(:func:`fast_rings`, checked once per process: :data:`FAST_RINGS` lives here alone).
"""

from __future__ import annotations

import math
from typing import cast

import numpy as np
import shapely

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
TINY_BASE = 1e-6
"""Radius standing for a point-sized target base in cover tests."""


def _unit_circle(n: int) -> tuple[list[float], list[float]]:
    """Cosines and sines of ``n`` evenly spaced angles, computed as the reference does."""
    angles = [2 * math.pi * k / n for k in range(n)]
    return [math.cos(a) for a in angles], [math.sin(a) for a in angles]


BASE_COS, BASE_SIN = _unit_circle(BASE_SAMPLES)
"""The cosines and sines of a base's :data:`BASE_SAMPLES` edge samples (:func:`samples`)."""
_COVER_COS, _COVER_SIN = _unit_circle(COVER_SAMPLES)
STEP = 2 * math.pi / BASE_SAMPLES
"""The angle between neighbouring edge samples of a base."""


def samples(centres: np.ndarray, radii: np.ndarray, cos: list[float], sin: list[float]
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


RING_COS, RING_SIN = _ring_table()
"""The cosines and sines of the :data:`RING` vertices of a circle as GEOS buffers a point
(:func:`ring_coords` draws bases and 1" zones from them)."""


def ring_coords(centres: np.ndarray, radii: np.ndarray) -> np.ndarray:
    """(n, RING + 1, 2): the closed rings of the circles, by :func:`_ring_table`."""
    out = np.empty((len(centres), RING + 1, 2))
    out[:, :RING, 0] = centres[:, 0:1] + radii[:, None] * RING_COS
    out[:, :RING, 1] = centres[:, 1:2] + radii[:, None] * RING_SIN
    out[:, RING] = out[:, 0]
    return out


def buffered_rings(centres: np.ndarray, radii: np.ndarray) -> np.ndarray:
    """The same rings as GEOS makes them: ``shapely.buffer`` of each centre."""
    discs = shapely.buffer(shapely.points(centres), radii, quad_segs=QUAD_SEGS)
    return cast(np.ndarray, shapely.get_coordinates(discs).reshape(len(centres), RING + 1, 2))


def _rings_match_geos() -> bool:
    """Whether :func:`ring_coords` gives GEOS's circles bit for bit (checked once on discs
    like the game's; with another GEOS that builds them differently, circles are buffered)."""
    rng = np.random.default_rng(20261123)
    centres = np.concatenate([rng.uniform(0, 30, (200, 2)),
                              np.round(rng.uniform(0, 30, (56, 2)) * 2) / 2])
    radii = np.concatenate([rng.uniform(1e-3, 3.0, 200),
                            np.resize([TINY_BASE, 0.5, 0.63, 16 / 25.4, 1.0, 1.5,
                                       16 / 25.4 + 1.0, 20 / 25.4 + 1.0], 56)])
    return bool(np.array_equal(ring_coords(centres, radii), buffered_rings(centres, radii)))


FAST_RINGS: bool | None = None
"""Whether :func:`ring_coords` may stand for ``shapely.buffer``: a fact about the GEOS
library in use, found once per process (not game state)."""


def _circle_rings(centres: np.ndarray, radii: np.ndarray) -> np.ndarray:
    """(n, RING + 1, 2): the rings of the 128-sided circle polygons standing for bases and
    1" zones, exactly GEOS's (as the reference buffers them), computed without GEOS when
    :func:`_rings_match_geos`."""
    if fast_rings():
        return ring_coords(centres, radii)
    return buffered_rings(centres, radii)


def fast_rings() -> bool:
    """Whether :func:`ring_coords` may stand for ``shapely.buffer`` (decided on first use)."""
    global FAST_RINGS
    if FAST_RINGS is None:
        FAST_RINGS = _rings_match_geos()
    return FAST_RINGS


def circle_polygons(centres: np.ndarray, radii: np.ndarray) -> np.ndarray:
    """Prepared circle polygons with the rings of :func:`_circle_rings`, as an object array."""
    if len(centres) == 0:
        return np.empty(0, dtype=object)
    polys = shapely.polygons(_circle_rings(centres, radii))
    shapely.prepare(polys)
    return cast(np.ndarray, polys)
