"""Kill Team 2018's "obscured": even partly hidden from the best point of the firer's base.

004: "If the target of an attack is even partially obscured from the best point of view of the
firing model (that is, the point of view from a part of the firing model that gives the
clearest line of sight), then it is said to be obscured." and, for walls, "select a point on the
attacking model's base. If is it possible to draw straight lines to all parts of the target's
base from that point without crossing a wall, then the target is not being obscured".

So a target is obscured when no point of the firer's base sees all of the target's base: from
every point ``P`` of the firer's base, some straight line to the target's base crosses terrain
(walls, closed doors, heavy, light or blocking features) or another model's base. For one
convex obstacle ``O`` and the target's disc ``D``, the points ``P`` whose view of the whole disc
``O`` cuts (the hull of ``P`` and ``D`` meets ``O``) form one convex region, :func:`shadow`:
``O`` and the part of the plane behind it between the two inner common tangents of ``O`` and
``D`` (the penumbra and umbra of ``D`` seen as a light). The target is obscured when the
firer's base lies wholly inside the union of these shadows: an exact test (the target's disc is
a true circle; the firer's base is its circumscribed 128-gon, so a firer with any clear point
outside the shadows is never called obscured by the polygon's error; a firer of no size to
speak of, :data:`POINT_FIRER`, is its centre, which sees the whole disc when no obstacle meets
the triangle from it to its tangent points on the circle), answered with shapely 2
over the few obstacle pieces that meet the hull of the two bases (an STRtree query).

Obstacles are convex pieces (a feature's footprint, triangulated when it is not convex) shrunk
by :data:`~solo_ops.geometry.sight.common.ERODE`, so terrain that only touches a base (a wall
behind the target) hides nothing of it.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import cast

import numpy as np
import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from solo_ops.geometry import shapes
from solo_ops.geometry.board import Board
from solo_ops.geometry.sight.blockers import _convex_parts
from solo_ops.geometry.sight.common import ERODE

SIDES = 128
"""Sides of the firer's base polygon (circumscribed about the base)."""
MODEL_SIDES = 32
"""Sides of another model's base as an obstacle (inscribed: it hides no more than the base)."""
FAR = 1000.0
"""How far (inches) a shadow's sides are drawn: beyond any board."""
WITNESSES = 17
"""Points of the firer's base tried as a clear point of view before the exact test: its
centre and 16 about its edge."""
AREA_TOLERANCE = 1e-9
"""Square inches of the firer's base left outside the shadows that still count as none (the
seams of touching shadows)."""
CORRIDOR_QUAD_SEGS = 4
"""Segments a quarter circle of a batch's corridor ends (:meth:`_Partial.obscured_many`)."""
CORRIDOR_GROWTH = 1.01 / math.cos(math.pi / (4 * CORRIDOR_QUAD_SEGS))
"""How much wider than the larger base a batch's corridor is drawn: GEOS draws its round ends
through points on the circle, so a chord of the polygon comes within ``cos(pi / 16)`` of the
radius; grown by this much, the corridor holds both bases whole, 1% to spare (at 1.01 alone a
wall over the far rim of the target's base was missed: the pair called not obscured that
:meth:`_Partial.obscured` calls obscured)."""
POINT_FIRER = 1e-4
"""A firer's base radius (inches) at or below which the firer is a point, its centre its one
point of view: the whole of so small a base is hardly more than :data:`AREA_TOLERANCE`, so the
area left outside the shadows could not tell a clear base from an obscured one."""


@functools.cache
def _unit_ring(sides: int) -> tuple[np.ndarray, np.ndarray]:
    """The cosines and sines of a regular ``sides``-gon's vertex angles (worked out once)."""
    k = np.arange(sides) * (2 * math.pi / sides)
    cos, sin = np.cos(k), np.sin(k)
    cos.setflags(write=False)
    sin.setflags(write=False)
    return cos, sin


def _ring(x: float, y: float, r: float, sides: int, outside: bool) -> np.ndarray:
    """A regular polygon's vertices about ``(x, y)``: circumscribed about the circle of
    radius ``r`` when ``outside``, else inscribed."""
    cos, sin = _unit_ring(sides)
    scale = r / math.cos(math.pi / sides) if outside else r
    return np.stack([x + scale * cos, y + scale * sin], axis=1)


def hull(points: np.ndarray) -> BaseGeometry:
    """The convex hull of ``points`` ((n, 2), n >= 2). GEOS reads only the set of a
    geometry's coordinates for a hull (its unique coordinates, sorted), so the points are
    handed over as one line string -- one coordinate sequence -- rather than as a multipoint
    of n point geometries: the same hull, bit for bit, three times faster."""
    return cast(BaseGeometry, shapely.convex_hull(shapely.linestrings(points)))


def _view_triangles(px: np.ndarray | float, py: np.ndarray | float, cx: np.ndarray | float,
                    cy: np.ndarray | float, r: np.ndarray | float) -> np.ndarray:
    """What each point ``(px, py)`` must see of its disc (``(cx, cy)``, ``r``; arrays that
    broadcast together) to see all of it, apart from the disc itself: the closed triangle
    from the point to its two tangent points on the circle, ``(..., 4, 2)``. A point sees the
    whole disc when no obstacle clear of the disc meets its triangle (degenerate, a segment to
    the centre, for a point on or in the disc)."""
    px, py, cx, cy, r = np.broadcast_arrays(px, py, cx, cy, r)
    d = np.hypot(px - cx, py - cy)
    phi = np.arctan2(py - cy, px - cx)
    half = np.arccos(np.clip(r / np.maximum(d, 1e-12), -1.0, 1.0))
    ring = np.empty((*px.shape, 4, 2))
    ring[..., 0, 0], ring[..., 0, 1] = px, py
    ring[..., 1, 0], ring[..., 1, 1] = cx + r * np.cos(phi + half), cy + r * np.sin(phi + half)
    ring[..., 2, 0], ring[..., 2, 1] = cx + r * np.cos(phi - half), cy + r * np.sin(phi - half)
    ring[..., 3, :] = ring[..., 0, :]
    return ring


def shadow(piece: np.ndarray, centre: Sequence[float], radius: float) -> BaseGeometry | None:
    """The points from which some straight line to the disc (``centre``, ``radius``) meets
    the convex polygon ``piece`` (its vertices, (n, 2)): the polygon and the region behind it
    between its two inner common tangents with the disc, drawn :data:`FAR` inches. None when
    the polygon meets the disc (every point of view is cut: the caller says so)."""
    cx, cy = float(centre[0]), float(centre[1])
    v = np.asarray(piece, dtype=float)
    if shapely.distance(Polygon(v), shapely.Point(cx, cy)) <= radius:
        return None
    return _shadow(v, cx, cy, radius)


def _shadow(v: np.ndarray, cx: float, cy: float, radius: float) -> BaseGeometry:
    """:func:`shadow` of a piece known to be clear of the disc."""
    dx, dy = cx - v[:, 0], cy - v[:, 1]
    beta = np.arcsin(np.minimum(1.0, radius / np.hypot(dx, dy)))
    base = np.arctan2(dy, dx)
    far = []
    for sign in (1.0, -1.0):
        theta = base + sign * beta  # the tangent from each vertex, one side of the disc
        ux, uy = np.cos(theta), np.sin(theta)
        side_c = ux * dy - uy * dx  # the disc's side of each tangent
        # every vertex (against every tangent) on the side away from the disc
        sides = (ux[:, None] * (v[None, :, 1] - v[:, None, 1])
                 - uy[:, None] * (v[None, :, 0] - v[:, None, 0]))
        inner = np.flatnonzero((sides * np.sign(side_c)[:, None] <= 1e-9).all(axis=1))
        if len(inner):
            k = int(inner[0])
            far.append((v[k, 0] - FAR * ux[k], v[k, 1] - FAR * uy[k]))
    points = np.vstack([v, np.asarray(far, dtype=float).reshape(-1, 2)])
    return hull(points)


class _Partial:
    """The obstacles of one board (one door state) for the 2018 "obscured": convex pieces of
    every feature that hides (:attr:`~solo_ops.geometry.board.Feature.gives_cover`: walls,
    closed doors and hatches, heavy, light and blocking terrain; not insignificant or exposed
    ground, nor pitfalls), eroded, in an STRtree."""

    def __init__(self, board: Board) -> None:
        pieces: list[Polygon] = []
        for f in board.features:
            if not f.gives_cover:
                continue
            for part in _convex_parts(shapes.feature_area(f)):
                shrunk = shapely.buffer(part, -ERODE, join_style="mitre")
                if isinstance(shrunk, Polygon) and not shrunk.is_empty:
                    pieces.append(shrunk)
        self.pieces = np.array(pieces, dtype=object)
        self.vertices = [np.asarray(p.exterior.coords, dtype=float)[:-1] for p in pieces]
        self.tree = shapely.STRtree(self.pieces)

    def obscured_many(self, rows: np.ndarray) -> np.ndarray:
        """:meth:`obscured` by the terrain alone for each row ``(ax, ay, ra, bx, by, rb)``,
        batched in three stages, each exact for the pairs it settles: one STRtree query over
        every pair's corridor (the two bases swept along the line between them, which holds
        the hull of the two: no obstacle near, not obscured); an obstacle overlapping the
        target's base (obscured); a witness among :data:`WITNESSES` points of the firer's
        base whose view of the whole target's base meets no obstacle (not obscured: the
        triangle from the point to the tangent points of the base, with the base, is that
        view); the exact test (:meth:`obscured`) for the pairs left."""
        rows = np.asarray(rows, dtype=float).reshape(-1, 6)
        out = np.zeros(len(rows), dtype=bool)
        if len(rows) == 0 or len(self.pieces) == 0:
            return out
        lines = shapely.linestrings(np.stack([rows[:, 0:2], rows[:, 3:5]], axis=1))
        near = shapely.buffer(lines, np.maximum(rows[:, 2], rows[:, 5]) * CORRIDOR_GROWTH
                              + 1e-6, quad_segs=CORRIDOR_QUAD_SEGS)
        pair, piece = self.tree.query(near, predicate="intersects")
        if len(pair) == 0:
            return out
        gap = shapely.distance(self.pieces[piece], shapely.points(rows[pair, 3:5]))
        overlap = np.unique(pair[gap <= rows[pair, 5]])
        out[overlap] = True
        todo = np.setdiff1d(np.unique(pair), overlap)
        if len(todo) == 0:
            return out
        clear = self._witnessed(rows[todo])
        for k in todo[~clear].tolist():
            out[k] = self.obscured((rows[k, 0], rows[k, 1]), rows[k, 2],
                                   (rows[k, 3], rows[k, 4]), rows[k, 5])
        return out

    def _witnessed(self, rows: np.ndarray) -> np.ndarray:
        """(n,) whether some of :data:`WITNESSES` points of each firer's base sees the whole
        target's base past every obstacle (the targets overlap none)."""
        n = len(rows)
        ang = np.arange(WITNESSES - 1) * (2 * math.pi / (WITNESSES - 1))
        inner = rows[:, 2:3] * (1 - 1e-6)
        px = np.concatenate([rows[:, 0:1], rows[:, 0:1] + inner * np.cos(ang)], axis=1)
        py = np.concatenate([rows[:, 1:2], rows[:, 1:2] + inner * np.sin(ang)], axis=1)
        cx, cy, r = rows[:, 3:4], rows[:, 4:5], np.maximum(rows[:, 5:6], 1e-9)
        ring = _view_triangles(px, py, cx, cy, r)
        tris = shapely.polygons(ring.reshape(-1, 4, 2))
        hit = np.zeros(n * WITNESSES, dtype=bool)
        hit[self.tree.query(tris, predicate="intersects")[0]] = True
        return cast(np.ndarray, (~hit.reshape(n, WITNESSES)).any(axis=1))

    def obscured(self, a: Sequence[float], ra: float, b: Sequence[float], rb: float,
                 others: Sequence[tuple[float, float, float]] = ()) -> bool:
        """Whether the target's base (``b``, ``rb``) is obscured to the firer's (``a``,
        ``ra``) by the board's terrain and the bases ``others`` ((x, y, radius): other models,
        of either side): see the module docstring."""
        ax, ay, bx, by = float(a[0]), float(a[1]), float(b[0]), float(b[1])
        firer_ring = _ring(ax, ay, max(ra, 1e-9), SIDES, outside=True)
        target_ring = _ring(bx, by, max(rb, 1e-9), SIDES, outside=True)
        corridor = hull(np.vstack([firer_ring, target_ring]))
        index = self.tree.query(corridor, predicate="intersects")
        shapes_near = list(self.pieces[index])
        obstacles = [self.vertices[int(i)] for i in index]
        left_x, low_y, right_x, high_y = shapely.bounds(corridor).tolist()
        for x, y, r in others:
            reach = float(r) + 1e-6  # a base whose box is clear of the corridor's box is
            if (x + reach < left_x or x - reach > right_x  # clear of the corridor: the
                    or y + reach < low_y or y - reach > high_y):  # exact test only for the rest
                continue
            ring = _ring(float(x), float(y), max(0.0, r - ERODE), MODEL_SIDES, outside=False)
            poly = Polygon(ring)
            if shapely.intersects(poly, corridor):
                obstacles.append(ring)
                shapes_near.append(poly)
        if not obstacles:
            return False
        # the centre of the firer's base seeing all of the target's base is a clear point
        view = hull(np.vstack([[ax, ay], target_ring]))
        if not shapely.intersects(view, np.array(shapes_near, dtype=object)).any():
            return False
        centre = shapely.points(bx, by)
        if (shapely.distance(np.array(shapes_near, dtype=object), centre) <= rb).any():
            return True  # an obstacle overlaps the target's base: part of it is hidden from all
        if ra <= POINT_FIRER:  # its centre is its one point of view (no obstacle overlaps
            # the target's base: those hide it from every point, above)
            tri = shapely.polygons(_view_triangles(ax, ay, bx, by, max(rb, 1e-9)))
            return bool(shapely.intersects(tri, np.array(shapes_near, dtype=object)).any())
        firer = Polygon(firer_ring)
        shadows = [_shadow(piece, bx, by, rb) for piece in obstacles]
        if any(shapely.contains(cast_, firer) for cast_ in shadows):
            return True
        left = shapely.difference(firer, shapely.union_all(shadows))
        return bool(left.area <= AREA_TOLERANCE)
