"""The 2018 obscured test's convex hulls (:func:`solo_ops.geometry.sight.partial.hull`): the
points handed to GEOS as one line string give the very hull a multipoint of them gives, bit
for bit (GEOS reads only the set of a geometry's coordinates for a hull), for any points:
repeated, collinear, or two bases' rings as the obscured test builds them."""

from __future__ import annotations

import math

import numpy as np
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from solo_ops.geometry.sight.partial import SIDES, hull
from tests.support.budget import examples


def _as_multipoint_hull(points: np.ndarray) -> shapely.Geometry:
    return shapely.convex_hull(shapely.multipoints(points))


def _same(points: np.ndarray) -> None:
    a, b = hull(points), _as_multipoint_hull(points)
    assert a.geom_type == b.geom_type
    assert np.array_equal(shapely.get_coordinates(a), shapely.get_coordinates(b))


coordinate = st.floats(-40, 40, allow_nan=False, allow_infinity=False)


@settings(max_examples=examples(400), deadline=None)
@given(st.lists(st.tuples(coordinate, coordinate), min_size=2, max_size=60),
       st.integers(0, 3))
def test_any_points_give_the_same_hull(points: list[tuple[float, float]], places: int) -> None:
    """Any points, rounded to ``places`` decimals so that many repeat or line up."""
    _same(np.round(np.asarray(points, dtype=float), places))


@settings(max_examples=examples(200), deadline=None)
@given(coordinate, coordinate, st.floats(0.2, 1.5), coordinate, coordinate, st.floats(0.2, 1.5))
def test_two_bases_rings_give_the_same_corridor(ax: float, ay: float, ra: float, bx: float,
                                                 by: float, rb: float) -> None:
    """The corridor of two bases: their circumscribed 128-gons, as ``_Partial.obscured``
    builds them (the same base twice included)."""
    k = np.arange(SIDES) * (2 * math.pi / SIDES)
    rings = [np.stack([x + r / math.cos(math.pi / SIDES) * np.cos(k),
                       y + r / math.cos(math.pi / SIDES) * np.sin(k)], axis=1)
             for x, y, r in ((ax, ay, ra), (bx, by, rb))]
    _same(np.vstack(rings))
    _same(np.vstack([[ax, ay], rings[1]]))  # the view from the firer's centre


def test_collinear_and_repeated_points() -> None:
    _same(np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0], [1.0, 1.0]]))  # a line: a LineString
    _same(np.array([[0.0, 0.0], [4.0, 0.0], [4.0, 3.0], [2.0, 0.0], [0.0, 0.0]]))
    assert hull(np.array([[0.0, 0.0], [4.0, 0.0], [4.0, 3.0]])).area == 6.0
