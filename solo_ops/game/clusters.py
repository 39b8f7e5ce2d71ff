"""Where a resolved counter's models stand: around the counter's own spot, each base at the
nearest free point by route (never on the far side of a wall from its counter), clear of every
other base by :data:`MODEL_GAP` (:func:`cluster_spots`; the choice among the points,
:func:`cluster_pick`). Deterministic: no die is rolled.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
from shapely.geometry import Point

from solo_ops.game.fog import occupied
from solo_ops.game.state import State
from solo_ops.geometry import placement

if TYPE_CHECKING:
    from solo_ops.geometry.terrain import Terrain


MODEL_GAP = 0.25  # inches between the bases of models placed for a resolved counter


def cluster_spots(terrain: Terrain, state: State, at: tuple[float, float],
                  radii: list[float]) -> list[tuple[float, float]]:
    """Free spots for bases of ``radii`` around ``at``: the counter's own spot first, then the
    nearest free points (deterministic)."""
    placed: list[tuple[float, float, float]] = list(occupied(state))
    rmax = max(radii)
    pts = np.asarray(terrain.routes.free_points(
        Point(at).buffer(3.0 + rmax * 4), rmax, 0.5), dtype=float).reshape(-1, 2)
    if terrain.routes.fits(at, rmax):
        pts = np.concatenate([np.array([at], dtype=float), pts])
    if len(pts) == 0:
        pts = np.array([at], dtype=float)
    # A route is never shorter than the straight line: when the spots chosen among the points
    # within CLUSTER_FIRST in a straight line all lie nearer than that by route, every point
    # beyond comes after them in the order, so they are the spots the whole list gives.
    near = np.hypot(pts[:, 0] - at[0], pts[:, 1] - at[1]) <= CLUSTER_FIRST
    if near.any() and not near.all():
        out = cluster_pick(terrain, at, radii, pts[near], list(placed), CLUSTER_FIRST - 1e-7)
        if out is not None:
            return out
    out = cluster_pick(terrain, at, radii, pts, placed, math.inf)
    assert out is not None
    return out


CLUSTER_FIRST = 2.5
"""Inches (straight line) around a resolved counter whose points :func:`cluster_spots` measures
first."""


def cluster_pick(terrain: Terrain, at: tuple[float, float], radii: list[float],
                 pts: np.ndarray, placed: list[tuple[float, float, float]], limit: float
                 ) -> list[tuple[float, float]] | None:
    """:func:`cluster_spots`'s choice among ``pts``: for each radius the first point, nearest by
    route (ties: lower x, then y), clear of the bases ``placed`` so far (else ``at``); None
    when a spot is missing or lies ``limit`` or more from ``at`` by route."""
    out: list[tuple[float, float]] = []
    # nearest by route, so no model is put on the far side of a wall from its counter
    d = np.asarray(terrain.routes.distances(at, 0.0, pts, 0.0), dtype=float)
    keep = np.isfinite(d)
    pts, d = pts[keep], d[keep]
    order = np.lexsort((pts[:, 1], pts[:, 0], np.round(d, 9)))
    # Python floats (the same doubles as the array's, so the same sums and hypots) make the
    # point-by-point scan several times cheaper than indexing numpy rows.
    rows = list(zip(pts[order].tolist(), d[order].tolist(), strict=True))
    for r in radii:
        chosen = None
        need = [(x, y, r + rr + MODEL_GAP - 1e-9) for x, y, rr in placed]
        for (px, py), dp in rows:
            if all(math.hypot(px - x, py - y) >= gap for x, y, gap in need):
                chosen = (px, py)
                if dp >= limit:
                    return None
                break
        if chosen is None:
            if limit < math.inf:
                return None
            # nowhere near: the nearest point anywhere where the base may stand
            spot = placement.nearest(terrain, at, r, placed,
                                     limit=max(terrain.board.width, terrain.board.depth))
            chosen = (float(at[0]), float(at[1])) if spot is None else spot.at
        placed.append((chosen[0], chosen[1], r))
        out.append(chosen)
    return out
