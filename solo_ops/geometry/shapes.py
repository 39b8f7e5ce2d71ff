"""Turning board features into the merged obstacle shapes that the geometry queries use.

Thin features (``line:`` walls, doors, hatches) become strips :data:`WALL_THICKNESS` inches
wide with square ends, and every group of obstacles is unioned, so wall panels that touch or
overlap become one solid shape: a route or a sight line can never slip through the seam between
two touching panels. Each obstacle group is cached per board (boards are immutable).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from functools import lru_cache
from typing import Any, TypeVar, cast
from weakref import WeakKeyDictionary

import shapely
from shapely.geometry import LineString, MultiPolygon, Polygon
from shapely.geometry.base import BaseGeometry

from solo_ops.core.errors import InputError, excerpt
from solo_ops.core.fields import join_path
from solo_ops.geometry.board import Board, Feature

T = TypeVar("T")

WALL_THICKNESS = 0.02  # inches: how wide a ``line:`` feature is drawn


MEASURE_THICKNESS = 2e-6  # inches: a ``line:`` feature for measuring (zero, in effect)


_PER_FEATURE: WeakKeyDictionary[Feature, dict[Hashable, Any]] = WeakKeyDictionary()


def per_feature(feature: Feature, key: Hashable, make: Callable[[], T]) -> T:
    """``make()``, remembered for as long as ``feature`` lives under ``key``: what is worked
    out from one feature alone (its strip, its surcharged footprints). A board with a door
    opened, or a Kill Team 2018 effect's change, keeps every other feature object as it was
    (:meth:`Board.with_open`), so its terrain reuses their shapes instead of buffering them
    again. Features are immutable and compared by identity."""
    memo = _PER_FEATURE.get(feature)
    if memo is None:
        memo = _PER_FEATURE[feature] = {}
    if key not in memo:
        memo[key] = make()
    return cast(T, memo[key])


OUTLINE = 1e-7
"""Inches: a point this close inside a footprint's outline is on the outline, beside the
footprint rather than in it. A model's centre there stands on the floor beside a raised
feature: the walk that brought it there paid no climb, and the next walk into the feature pays
it (:class:`~solo_ops.geometry.routes.costs._Soft`); it is not up on the feature for sight or
Vantage (:func:`stands_on`)."""


def interior(feature: Feature) -> Polygon:
    """The feature's footprint shrunk by :data:`OUTLINE` (made once per feature)."""
    return per_feature(feature, ("interior", OUTLINE),
                       lambda: feature_area(feature).buffer(-OUTLINE))


def stands_on(feature: Feature, x: float, y: float) -> bool:
    """Whether a model whose centre is at (``x``, ``y``) stands in ``feature``'s footprint
    (up on it, for a raised one): the centre inside it by more than :data:`OUTLINE`, the
    reading of movement's climb (a centre on the outline paid none)."""
    return bool(shapely.contains_xy(interior(feature), float(x), float(y)))


def feature_area(feature: Feature, thickness: float = WALL_THICKNESS) -> Polygon:
    """The feature's footprint as a polygon (thin features become a strip ``thickness``
    wide, made once per feature and thickness: :func:`per_feature`)."""
    shape = feature.shape
    if isinstance(shape, LineString):
        return per_feature(feature, ("strip", thickness), lambda: shape.buffer(
            thickness / 2.0, cap_style="square", join_style="mitre"))
    return shape


def merged(features: list[Feature], thickness: float = WALL_THICKNESS) -> BaseGeometry:
    """The union of the features' footprints, simplified (collinear points removed)."""
    if not features:
        return shapely.GeometryCollection()
    union = shapely.union_all([feature_area(f, thickness) for f in features])
    return union.simplify(0.0)


def polygons_of(geom: BaseGeometry) -> list[Polygon]:
    """The polygons making up ``geom`` (empty list for an empty geometry)."""
    if geom.is_empty:
        return []
    if isinstance(geom, Polygon):
        return [geom]
    if isinstance(geom, MultiPolygon):
        return list(geom.geoms)
    return [g for g in getattr(geom, "geoms", []) if isinstance(g, Polygon)]


def _select(board: Board, predicate: Callable[[Feature], bool]) -> list[Feature]:
    return [f for f in board.features if predicate(f)]


@lru_cache(maxsize=64)
def sight_blockers(board: Board) -> BaseGeometry:
    """Everything that stops sight: walls, closed doors and hatches, ``blocking`` features."""
    return merged(_select(board, lambda f: f.blocks_visibility))


@lru_cache(maxsize=64)
def measuring_blockers(board: Board) -> BaseGeometry:
    """Everything distances must go around: walls and closed doors and hatches. A ``line:``
    wall has no thickness for measuring (issue 14 item 13: a route around its end is the
    straight-line geometry): it is a strip :data:`MEASURE_THICKNESS` wide, which keeps the
    corner graph well defined and changes a route by at most a few millionths of an inch.
    Walking bases keep the :data:`WALL_THICKNESS` strip (their clearance)."""
    return merged(_select(board, lambda f: f.blocks_measuring), MEASURE_THICKNESS)


@lru_cache(maxsize=64)
def movement_blockers(board: Board) -> BaseGeometry:
    """Everything a model cannot walk through: walls, closed doors and hatches, pitfalls."""
    return merged(_select(board, lambda f: f.blocks_movement))


def terrain_at(features: Iterable[Feature], x: float, y: float) -> Feature | None:
    """The first of ``features`` no model can stand in (a wall, a closed door or hatch, a
    pitfall, impassable terrain: :attr:`Feature.blocks_movement`) that holds the point
    (``x``, ``y``) strictly inside its footprint, or None: a point no model reaches (an
    objective, a marker, a ``geom`` question's point) is refused there."""
    for feature in features:
        if feature.blocks_movement and shapely.contains_xy(
                feature_area(feature).buffer(-1e-9), float(x), float(y)):
            return feature
    return None


def terrain_words(feature: Feature) -> str:
    """What :func:`terrain_at` found, as a player names it: ``wall 'w2'``, ``closed door 'd1'``,
    ``pitfall 'p3'``."""
    kind = "pitfall" if "pitfall" in feature.effective_traits else (
        "closed " + ("hatch" if feature.has("hatch") else "door")
        if feature.closed_portal else "wall")
    return f"{kind} {excerpt(feature.id)}"


def check_points(board: Board, source: str | None, path: str = "") -> None:
    """Refuse a board whose objective or marker stands inside terrain no model can stand in
    (:func:`terrain_at`): no model could ever reach it. The error names the field, as
    :func:`~solo_ops.geometry.board.parse_board`'s do; both board readers (a board file, a
    scenario's board) ask it once the board is built."""
    points = {"objectives": [o.at for o in board.objectives],
              "markers": [m.at for m in board.markers]}
    for name, ats in points.items():
        for i, at in enumerate(ats):
            solid = terrain_at(board.features, *at)
            if solid is not None:
                raise InputError(f"point {at[0]:g},{at[1]:g} is inside "
                                 f"{terrain_words(solid)}", source=source,
                                 field=join_path(join_path(join_path(path, name), i), "at"))
