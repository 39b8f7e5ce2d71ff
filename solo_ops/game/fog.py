"""Fog of war: seeding the hidden counters, as the supplement's "FOG OF WAR" section reads
(``shared/RULES-NOTES.md``).

:func:`seed_counters` places 2 x engagement counters: a d6 picks each one's sector; it goes to a
random point of that sector that no player model can see and where a base fits (a logged die
picks among the candidate points, :func:`place_in_sector`, :func:`hidden_points`); if there is
none, to the sector's centre (the nearest free point to it) marked to be resolved in the first
turn. Each rolls its hidden order (its command) on the hidden-enemy table, a ``secret`` roll.
:func:`occupied` (the bases already on the table) and :func:`player_observers` serve the rest
of the fog too.

The fog's other rooms: hidden moves planned (:mod:`solo_ops.game.hidden_moves`), spotting
(:mod:`solo_ops.game.spotting`), what a spotted counter turns out to be
(:mod:`solo_ops.game.resolution`), where an ambush's counters go (:mod:`solo_ops.game.ambush`)
and where a resolved counter's models stand (:mod:`solo_ops.game.clusters`); the fog during
play is :mod:`solo_ops.game.reveal`.

Hidden facts (a counter's hidden order, its planned move, the contents of an unresolved
counter) only ever appear in events marked ``secret``; :mod:`solo_ops.view.player` strips them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from solo_ops.core.dice import Dice
from solo_ops.core.settings import Settings
from solo_ops.game.state import COUNTER_RADIUS, ENEMY, Counter, State
from solo_ops.geometry import placement, search

if TYPE_CHECKING:
    from solo_ops.geometry.terrain import Terrain


# -- placement -------------------------------------------------------------------------------------
HIDDEN_MEMO_LIMIT = 256
"""The answers :func:`hidden_points` keeps on a terrain (then it starts afresh)."""


def hidden_points(terrain: Terrain, region: Any, observers: Sequence[tuple[float, float, float]],
                  radius: float, spacing: float,
                  avoid: Sequence[tuple[float, float, float]] = ()) -> np.ndarray:
    """Points of ``region`` where a base of ``radius`` fits, clear of ``avoid`` discs, and
    that no observer disc ``(x, y, r)`` can see (:func:`solo_ops.geometry.search.hidden_points`),
    and whose base lies clear of every terrain feature's footprint (:func:`off_features`).

    The same points, in the same order, as ``off_features(search.hidden_points(...))``: every
    test keeps or drops each point on its own, so the points no observer sees are found once
    for a region and a set of observers (:func:`_unseen`, remembered on the terrain: the same
    squads deploy the same way mission after mission, and a replay sets the game up again),
    and the ``avoid`` discs (the bases and the counters already placed) are taken out of them
    by the same test as :func:`~solo_ops.geometry.search.hidden_points`
    (:func:`~solo_ops.geometry.search.clear_of_discs`)."""
    return search.clear_of_discs(_unseen(terrain, region, observers, radius, spacing), radius,
                                 avoid)


def _unseen(terrain: Terrain, region: Any, observers: Sequence[tuple[float, float, float]],
            radius: float, spacing: float) -> np.ndarray:
    """The points of ``region`` where a base of ``radius`` fits, off the features, that no
    observer sees: asked one observer at a time (a point one observer sees is not asked of the
    next), remembered on the terrain by the exact inputs (read-only)."""
    key = (None if region is None else region.wkb,
           tuple((float(x), float(y), float(r)) for x, y, r in observers),
           float(radius), float(spacing))
    memo = terrain.hidden_answers
    found = memo.get(key)
    if found is not None:
        return found
    pts = search.hidden_points(terrain, region, (), radius, spacing)
    pts = off_features(terrain, pts, radius)
    if len(pts) and observers:
        live = np.arange(len(pts))
        for x, y, r in observers:
            seen = terrain.sight.visibility_matrix(np.array([(x, y)], dtype=float), float(r),
                                                   pts[live], radius)[0]
            live = live[~seen]
            if len(live) == 0:
                break
        pts = pts[live]
    pts.setflags(write=False)
    if len(memo) >= HIDDEN_MEMO_LIMIT:
        memo.clear()
    memo[key] = pts
    return pts


def off_features(terrain: Terrain, pts: np.ndarray, radius: float) -> np.ndarray:
    """The points of ``pts`` where a base of ``radius`` overlaps no solid terrain feature's
    footprint (heavy, light, blocking, wall or pitfall): a counter stands on the floor beside a
    crate, never inside it, even where the crate does not block movement (issue #14)."""
    return terrain.off_solids(pts, radius)  # the union of the solids is built once a terrain


def _nearest_free(terrain: Terrain, target: tuple[float, float], radius: float,
                  avoid: Sequence[tuple[float, float, float]]) -> tuple[float, float]:
    pts = terrain.floor_points(radius, 0.5)  # off_features of the board's free points
    pts = pts[placement.clear_of_bases(pts, radius, avoid, touch=0.0)]
    if len(pts) == 0:
        return target
    d = np.hypot(pts[:, 0] - target[0], pts[:, 1] - target[1])
    i = int(np.lexsort((pts[:, 1], pts[:, 0], np.round(d, 9)))[0])
    return (float(pts[i, 0]), float(pts[i, 1]))


@dataclass
class Placement:
    at: tuple[float, float]
    sector: int
    resolve_first_turn: bool
    candidates: int


def place_in_sector(terrain: Terrain, sector: int, observers: Sequence[tuple[float, float, float]],
                    dice: Dice, settings: Settings, label: str,
                    avoid: Sequence[tuple[float, float, float]] = ()) -> Placement:
    """A random hidden point of ``sector`` (a logged die picks among the candidates), or the
    sector's centre marked for first-turn resolution when nothing there is hidden."""
    board = terrain.board
    region = board.sector_box(sector)
    pts = hidden_points(terrain, region, observers, COUNTER_RADIUS, settings.counter_spacing,
                        avoid)
    if len(pts):
        pick = dice.roll(f"placement of {label} in sector {sector}", 1, len(pts)).face - 1
        return Placement((float(pts[pick, 0]), float(pts[pick, 1])), sector, False, len(pts))
    centre = board.sector_centre(sector)
    if not terrain.routes.fits(centre, COUNTER_RADIUS, blockers=list(avoid)) \
            or not len(off_features(terrain, np.array([centre]), COUNTER_RADIUS)):
        centre = _nearest_free(terrain, centre, COUNTER_RADIUS, avoid)
    return Placement(centre, sector, True, 0)


def seed_counters(terrain: Terrain, state: State, engagement: int, dice: Dice,
                  settings: Settings) -> list[dict[str, Any]]:
    """Place 2 x ``engagement`` counters and roll their hidden orders. Returns events."""
    events: list[dict[str, Any]] = []
    observers = player_observers(state)
    for _ in range(2 * engagement):
        cid = state.new_counter_id()
        sector = dice.d6(f"sector for counter {cid}").face
        place = place_in_sector(terrain, sector, observers, dice, settings, cid,
                                avoid=occupied(state))
        order = dice.d6(f"hidden order for counter {cid}", secret=True).face
        state.counters[cid] = Counter(cid, place.at, order, sector, place.resolve_first_turn)
        events.append({"type": "counter_placed", "counter": cid, "sector": sector,
                       "at": [round(place.at[0], 2), round(place.at[1], 2)],
                       "resolve_first_turn": place.resolve_first_turn})
        events.append({"type": "hidden_order", "counter": cid, "hidden_order": order,
                       "secret": True})
    return events


def player_observers(state: State) -> list[tuple[float, float, float]]:
    return [(o.at[0], o.at[1], o.radius) for o in state.operatives.values()
            if o.side != ENEMY and o.on_table and o.at is not None]


def occupied(state: State, exclude: str | Sequence[str] | None = None
             ) -> list[tuple[float, float, float]]:
    """Discs already on the table (so new ones do not overlap): every base the placement rule
    knows, :meth:`State.bases` -- models standing or lying downed, and counters."""
    return placement.discs(state.bases(exclude))


