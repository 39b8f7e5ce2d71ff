"""Searches that combine sight and routes: where to take cover, where to shoot from, where to
hide.

These are the position questions the enemy AI and the fog of war ask, as plain queries over a
:class:`~solo_ops.geometry.terrain.Terrain` (one board in one state of its doors), batched over
numpy arrays:

* :func:`protected_from` — for candidate points and a set of threats: is a base there hidden
  from, in cover from or obscured to each threat (Kill Team 2024 cover lines, the threat being
  the attacker);
* :func:`nearest_cover` — the cheapest point to walk to (within a move) that is protected from
  every threat;
* :func:`firing_positions` — points within a move, protected from the threats, ranked by how
  many targets they have a clear firing line onto (visible, not obscured, within range around
  the walls);
* :func:`hidden_points` — points of a region (a fog-of-war sector) where a base fits and that
  no observer can see.

A "disc" is ``(x, y, radius)`` in inches. Nothing here knows about units, orders or dice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from solo_ops.geometry.terrain import Terrain


Disc = tuple[float, float, float]


def _split(discs: Sequence[Disc]) -> tuple[np.ndarray, np.ndarray]:
    if not discs:
        return np.zeros((0, 2)), np.zeros(0)
    arr = np.asarray(discs, dtype=float).reshape(-1, 3)
    return arr[:, :2], arr[:, 2]


def protected_from(terrain: Terrain, points: Any, radius: float,
                   threats: Sequence[Disc], *, obscured: bool = True) -> np.ndarray:
    """``(len(threats), len(points))`` bools: a base of ``radius`` at each point is not visible
    to the threat, or is in cover from it, or (with ``obscured``) is obscured to it."""
    pts = np.asarray(points, dtype=float).reshape(-1, 2)
    t_xy, t_r = _split(threats)
    if len(pts) == 0 or len(t_xy) == 0:
        return np.ones((len(t_xy), len(pts)), dtype=bool)
    cm = terrain.sight.cover_matrix(t_xy, t_r, pts, radius)
    out = ~np.asarray(cm.visible) | np.asarray(cm.in_cover)
    return out | np.asarray(cm.obscured) if obscured else out


@dataclass(frozen=True)
class Spot:
    """A candidate position: where, what it costs to walk there, and why it was chosen."""

    at: tuple[float, float]
    cost: float
    route: tuple[tuple[float, float], ...]
    targets: tuple[int, ...] = ()  # indices of the targets it has a firing line onto


def _reach(terrain: Terrain, start: Any, radius: float, move: float, blockers: Sequence[Disc],
           spacing: float) -> tuple[Any, np.ndarray, np.ndarray]:
    reach = terrain.routes.reachable(tuple(map(float, start)), radius, float(move),
                                     blockers=list(blockers), spacing=spacing)
    pts = np.asarray(reach.points, dtype=float).reshape(-1, 2)
    cost = np.asarray(reach.cost, dtype=float)
    return reach, pts, cost


def _spot(reach: Any, pts: np.ndarray, cost: np.ndarray, i: int,
          targets: tuple[int, ...] = ()) -> Spot:
    walk = reach.path(int(i))
    return Spot((float(pts[i, 0]), float(pts[i, 1])), float(cost[i]),
                tuple((float(x), float(y)) for x, y in walk.points), targets)


def nearest_cover(terrain: Terrain, start: Any, radius: float, threats: Sequence[Disc],
                  move: float, *, blockers: Sequence[Disc] = (), spacing: float = 0.5
                  ) -> Spot | None:
    """The cheapest point within ``move`` (walking cost around terrain and other bases) where a
    base is protected from every threat; ties go to the lower x, then y. None when no
    reachable point is protected. With no threats, the start itself."""
    reach, pts, cost = _reach(terrain, start, radius, move, blockers, spacing)
    if len(pts) == 0:
        return None
    order = np.lexsort((pts[:, 1], pts[:, 0], np.round(cost, 9)))
    chunk = 64
    for lo in range(0, len(order), chunk):
        idx = order[lo:lo + chunk]
        ok = protected_from(terrain, pts[idx], radius, threats).all(axis=0)
        if ok.any():
            return _spot(reach, pts, cost, int(idx[int(np.argmax(ok))]))
    return None


def firing_positions(terrain: Terrain, start: Any, radius: float, targets: Sequence[Disc],
                     move: float, weapon_range: float | None, *,
                     threats: Sequence[Disc] | None = None, blockers: Sequence[Disc] = (),
                     spacing: float = 0.5, limit: int = 5) -> list[Spot]:
    """Points within ``move`` protected from ``threats`` (by default the targets themselves),
    with a firing line onto at least one target: visible, not obscured and within
    ``weapon_range`` around the walls (None: any range). Best first: most targets, then the
    cheapest walk, then lower x, y. At most ``limit`` spots."""
    reach, pts, cost = _reach(terrain, start, radius, move, blockers, spacing)
    t_xy, t_r = _split(targets)
    if len(pts) == 0 or len(t_xy) == 0:
        return []
    safe = protected_from(terrain, pts, radius,
                          list(targets) if threats is None else threats).all(axis=0)
    idx = np.flatnonzero(safe)
    if len(idx) == 0:
        return []
    cm = terrain.sight.cover_matrix(pts[idx], radius, t_xy, t_r)
    line = np.asarray(cm.visible) & ~np.asarray(cm.obscured)
    if weapon_range is not None:
        dist = np.asarray(terrain.routes.distance_matrix(pts[idx], radius, t_xy, t_r))
        line &= dist <= float(weapon_range) + 1e-9
    counts = line.sum(axis=1)
    keep = counts > 0
    idx, line, counts = idx[keep], line[keep], counts[keep]
    if len(idx) == 0:
        return []
    order = np.lexsort((pts[idx, 1], pts[idx, 0], np.round(cost[idx], 9), -counts))
    return [_spot(reach, pts, cost, int(idx[k]), tuple(int(t) for t in np.flatnonzero(line[k])))
            for k in order[:limit]]


def clear_of_discs(pts: np.ndarray, radius: float, discs: Sequence[Disc]) -> np.ndarray:
    """The points of ``pts`` where a base of ``radius`` overlaps none of ``discs`` (touching
    one is clear), in their order: each point kept or dropped on its own."""
    if not discs or len(pts) == 0:
        return pts
    a, ar = _split(discs)
    gap = np.linalg.norm(pts[:, None] - a[None], axis=2) - radius - ar[None]
    return pts[(gap >= 0.0).all(axis=1)]


def hidden_points(terrain: Terrain, region: Any, observers: Sequence[Disc], radius: float,
                  spacing: float, avoid: Sequence[Disc] = ()) -> np.ndarray:
    """Points of ``region`` (a shapely polygon, None for the whole board) on a ``spacing``
    grid where a base of ``radius`` fits, clear of the ``avoid`` discs, that no observer disc
    can see."""
    pts = np.asarray(terrain.routes.free_points(region, radius, spacing), dtype=float)
    if len(pts) == 0:
        return pts.reshape(0, 2)
    pts = clear_of_discs(pts, radius, avoid)
    if len(pts) == 0 or not observers:
        return pts
    obs, obs_r = _split(observers)
    seen = np.asarray(terrain.sight.visibility_matrix(obs, obs_r, pts, radius), dtype=bool)
    return pts[~seen.any(axis=0)]
