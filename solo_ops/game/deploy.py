"""Deploying the player's squads when a scenario does not give their positions.

Models are set up wholly within the player drop zone (``zones.player``; in co-op a
``player-2``, ``player-3``... zone is used for the second, third squad when the board has one),
on free floor, at least 1" apart, filling the zone from the point nearest its centre outwards.
Deterministic: no dice, so the same scenario always deploys the same way.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np
from shapely.geometry import Polygon, box

from solo_ops.core.errors import InputError

if TYPE_CHECKING:
    from solo_ops.geometry.terrain import Terrain


GAP = 1.0


def zone_for(board: Any, index: int) -> Polygon:
    """The drop zone for the ``index``-th squad (0-based)."""
    name = "player" if index == 0 else f"player-{index + 1}"
    if name in board.zones:
        return board.zones[name]
    if "player" in board.zones:
        return board.zones["player"]
    return box(0, 0, board.width, min(6.0, board.depth / 3))


def deploy(terrain: Terrain, zone: Polygon, radii: list[float],
           taken: list[tuple[float, float, float]]) -> list[tuple[float, float]]:
    """Positions for bases of ``radii`` wholly within ``zone`` clear of ``taken`` discs."""
    if not radii:
        return []
    rmax = max(radii)
    inner = zone.buffer(-rmax)
    if inner.is_empty:
        raise InputError("the drop zone is too small for the squad's bases", field="zones")
    pts = np.asarray(terrain.routes.free_points(inner, rmax, 0.5), dtype=float)
    if len(pts) == 0:
        raise InputError("no free floor in the drop zone to deploy the squad", field="zones")
    c = zone.centroid
    d = np.hypot(pts[:, 0] - c.x, pts[:, 1] - c.y)
    pts = pts[np.lexsort((pts[:, 1], pts[:, 0], np.round(d, 9)))]
    placed = list(taken)
    out: list[tuple[float, float]] = []
    # Python floats: the same doubles as the array's (so the same hypots), scanned faster
    rows = pts.tolist()
    for r in radii:
        need = [(x, y, r + rr + GAP - 1e-9) for x, y, rr in placed]
        for px, py in rows:
            if all(math.hypot(px - x, py - y) >= gap for x, y, gap in need):
                out.append((px, py))
                placed.append((px, py, r))
                break
        else:
            raise InputError(f"the drop zone has no room for {len(radii)} models",
                             field="zones")
    return out
