"""Where an ambush's two counters go (003 "to 6' away from the player unit that spotted the
hidden enemy force within line of sight, next to a hidden position if possible"): points
whose route distance from the spotter is within 0.5" of the setting ``ambush_distance``
(:func:`ambush_band`), clear of every player model by :data:`AMBUSH_CLEAR`, in the spotter's
sight and in cover from it where possible, picked by logged dice (:func:`ambush_spots`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from solo_ops.core.dice import Dice
from solo_ops.core.settings import Settings
from solo_ops.game.clusters import CLUSTER_FIRST, MODEL_GAP
from solo_ops.game.fog import occupied
from solo_ops.game.state import COUNTER_RADIUS, ENEMY, Operative, State
from solo_ops.geometry import placement

if TYPE_CHECKING:
    from solo_ops.geometry.terrain import Terrain


def ambush_band(terrain: Terrain, spotter: Operative, pts: np.ndarray, want: float
                ) -> np.ndarray:
    """The points of ``pts`` whose route distance from the spotter's base is within 0.5" of
    ``want`` (walls never cut them off); with none, those within 0.5" of the nearest miss.

    A route is never shorter than the straight line, so a point more than ``want + 0.5`` from
    the spotter in a straight line cannot be in the band: the routes are measured first only
    to the points nearer than that, and to all only when none of those is in the band."""
    assert spotter.at is not None
    gap = (np.hypot(pts[:, 0] - spotter.at[0], pts[:, 1] - spotter.at[1]) - spotter.radius
           - COUNTER_RADIUS)
    near = pts[gap <= want + 0.5 + 1e-6]
    if len(near):
        d = terrain.routes.distances(spotter.at, spotter.radius, near, COUNTER_RADIUS)
        band = np.abs(d - want) <= 0.5  # inf (no route) is never in it
        if band.any():
            return near[band]
    d = terrain.routes.distances(spotter.at, spotter.radius, pts, COUNTER_RADIUS)
    pts, d = pts[np.isfinite(d)], d[np.isfinite(d)]  # never a spot walls cut off
    if len(pts) == 0:
        return pts
    off = np.abs(d - want)
    band = off <= 0.5
    if not band.any():
        band = off <= off.min() + 0.5
    return pts[band]


def _clear_of_players(state: State, pts: np.ndarray) -> np.ndarray:
    """Which of ``pts`` are :data:`AMBUSH_CLEAR` or more from every player model's base."""
    ok = np.ones(len(pts), dtype=bool)
    for o, at in ((o, o.at) for o in state.operatives.values() if o.side != ENEMY):
        if o.on_table and at is not None:
            ok &= np.hypot(pts[:, 0] - at[0], pts[:, 1] - at[1]) - o.radius >= AMBUSH_CLEAR
    return ok


def ambush_spots(terrain: Terrain, state: State, spotter: Operative, settings: Settings,
                 ids: list[str], dice: Dice) -> list[tuple[float, float]]:
    """Two points 6" from the spotter, beside cover that hides them from it where possible."""
    want = settings.ambush_distance
    avoid = occupied(state, exclude=ids)
    pts = terrain.floor_points(COUNTER_RADIUS, 0.5)  # off_features of the free points
    if len(pts) == 0:
        return []
    pts = pts[placement.clear_of_bases(pts, COUNTER_RADIUS, avoid, touch=0.0)]
    cand = ambush_band(terrain, spotter, pts, want)
    if len(cand) == 0:
        return []
    clear = _clear_of_players(state, cand)
    cand = cand[clear] if clear.any() else cand
    cm = terrain.sight.cover_matrix(np.array([spotter.at]), spotter.radius, cand,
                                    COUNTER_RADIUS)
    # 003 "to 6' away from the player unit that spotted the hidden enemy force within line of
    # sight, next to a hidden position if possible": in the spotter's sight, in cover from it
    # where possible (obscured alone is not cover, issue #14), never behind a wall
    seen = np.asarray(cm.visible)[0]
    covered = seen & np.asarray(cm.in_cover)[0]
    pool = cand[covered] if covered.any() else cand[seen] if seen.any() else cand
    chosen: list[tuple[float, float]] = []
    for k in range(2):
        if len(pool) == 0:
            break
        j = dice.roll(f"ambush position {k + 1}", 1, len(pool)).face - 1
        p = (float(pool[j, 0]), float(pool[j, 1]))
        chosen.append(p)
        far = np.hypot(pool[:, 0] - p[0], pool[:, 1] - p[1]) >= 2 * COUNTER_RADIUS + MODEL_GAP
        pool = pool[far]
    while len(chosen) < 2 and chosen:
        # no second spot in the band: the nearest point to the first where it may stand
        taken = [*avoid, (chosen[0][0], chosen[0][1], COUNTER_RADIUS)]
        spot = placement.nearest(terrain, chosen[0], COUNTER_RADIUS, taken, floor=True,
                                 limit=max(terrain.board.width, terrain.board.depth))
        chosen.append(chosen[0] if spot is None else spot.at)
        if spot is None:
            break
    return chosen


AMBUSH_CLEAR = CLUSTER_FIRST + 1.5
"""Inches from an ambush counter to every player model's base: its models, revealed within
:data:`CLUSTER_FIRST` of it, land in no player's control range (a surprise, not a melee)."""
