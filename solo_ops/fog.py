"""Fog of war: hidden counters, their hidden orders and moves, spotting and resolution.

Everything here follows the supplement's "FOG OF WAR" section as ``shared/RULES-NOTES.md``
reads it:

* :func:`seed_counters` — 2 x engagement counters; a d6 picks each one's sector; it goes to a
  random point of that sector that no player model can see and where a base fits (a logged die
  picks among the candidate points); if there is none, to the sector's centre (the nearest free
  point to it) marked to be resolved in the first turn. Each rolls its hidden order (its
  command) on the hidden-enemy table.
* :func:`plan_hidden_move` — the six rows of the hidden-enemy table, pure, using the geometry.
* :func:`spotted_by` — which player model sees a counter (the moment it does, it is resolved).
* :func:`resolve_counter` — the enemy-count table: false alarm, 1-4 enemies drawn from the
  roster table, or an ambush (a second counter, both placed 6" from the spotter beside cover
  that hides them where possible, both resolved re-rolling 1s and 6s).

Hidden facts (a counter's hidden order, its planned move, the contents of an unresolved
counter) only ever appear in events marked ``secret``; :mod:`solo_ops.view` strips them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from shapely.geometry import Point

from solo_ops.dice import Dice
from solo_ops.model import MM_PER_INCH, Roster
from solo_ops.orders import form_units, roll_command
from solo_ops.settings import Settings
from solo_ops.state import ENEMY, Counter, Operative, State, Unit
from solo_ops.tables import enemy_count_table, hidden_enemy_table

COUNTER_BASE_MM = 32.0
COUNTER_RADIUS = COUNTER_BASE_MM / MM_PER_INCH / 2.0
MODEL_GAP = 0.25  # inches between the bases of models placed for a resolved counter


# -- placement -------------------------------------------------------------------------------------
def hidden_points(terrain: Any, region: Any, observers: Sequence[tuple[float, float, float]],
                  radius: float, spacing: float,
                  avoid: Sequence[tuple[float, float, float]] = ()) -> np.ndarray:
    """Points of ``region`` where a base of ``radius`` fits, clear of ``avoid`` discs, and
    that no observer disc ``(x, y, r)`` can see."""
    pts = np.asarray(terrain.routes.free_points(region, radius, spacing), dtype=float)
    if len(pts) == 0:
        return pts.reshape(0, 2)
    if avoid:
        a = np.array([(x, y) for x, y, _ in avoid], dtype=float)
        ar = np.array([r for _, _, r in avoid], dtype=float)
        gap = np.linalg.norm(pts[:, None] - a[None], axis=2) - radius - ar[None]
        pts = pts[(gap >= 0.0).all(axis=1)]
    if len(pts) == 0 or not observers:
        return pts
    obs = np.array([(x, y) for x, y, _ in observers], dtype=float)
    obs_r = np.array([r for _, _, r in observers], dtype=float)
    seen = np.asarray(terrain.sight.visibility_matrix(obs, obs_r, pts, radius), dtype=bool)
    return pts[~seen.any(axis=0)]


def _nearest_free(terrain: Any, target: tuple[float, float], radius: float,
                  avoid: Sequence[tuple[float, float, float]]) -> tuple[float, float]:
    pts = np.asarray(terrain.routes.free_points(None, radius, 0.5), dtype=float)
    if avoid and len(pts):
        a = np.array([(x, y) for x, y, _ in avoid], dtype=float)
        ar = np.array([r for _, _, r in avoid], dtype=float)
        gap = np.linalg.norm(pts[:, None] - a[None], axis=2) - radius - ar[None]
        pts = pts[(gap >= 0.0).all(axis=1)]
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


def place_in_sector(terrain: Any, sector: int, observers: Sequence[tuple[float, float, float]],
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
    centre = _nearest_free(terrain, board.sector_centre(sector), COUNTER_RADIUS, avoid)
    return Placement(centre, sector, True, 0)


def seed_counters(terrain: Any, state: State, engagement: int, dice: Dice,
                  settings: Settings) -> list[dict[str, Any]]:
    """Place 2 x ``engagement`` counters and roll their hidden orders. Returns events."""
    events: list[dict[str, Any]] = []
    observers = player_observers(state)
    for _ in range(2 * engagement):
        state.counter_seq += 1
        cid = f"c{state.counter_seq}"
        sector = dice.d6(f"sector for counter {cid}").face
        place = place_in_sector(terrain, sector, observers, dice, settings, cid,
                                avoid=occupied(state))
        order = dice.d6(f"hidden order for counter {cid}").face
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
    """Discs already on the table: models and counters (so new ones do not overlap)."""
    skip = {exclude} if isinstance(exclude, str) else set(exclude or ())
    discs = [(o.at[0], o.at[1], o.radius) for o in state.operatives.values()
             if o.on_table and o.at is not None and o.id not in skip]
    discs += [(c.at[0], c.at[1], COUNTER_RADIUS) for c in state.counters.values()
              if c.active and c.id not in skip]
    return discs


# -- spotting -------------------------------------------------------------------------------------
def spotted_by(terrain: Any, state: State, counter: Counter) -> Operative | None:
    """The player model that can see ``counter`` (the nearest one), or None."""
    seers = []
    for op in state.operatives.values():
        if op.side == ENEMY or not op.on_table or op.at is None:
            continue
        if terrain.sight.visible(op.at, counter.at, op.radius, COUNTER_RADIUS):
            d = math.hypot(op.at[0] - counter.at[0], op.at[1] - counter.at[1])
            seers.append((d, op.id, op))
    if not seers:
        return None
    seers.sort(key=lambda s: (s[0], s[1]))
    return seers[0][2]


# -- hidden movement -------------------------------------------------------------------------------
@dataclass
class HiddenMove:
    """A counter's planned hidden move (secret until it is carried out)."""

    counter: str
    code: str
    to: tuple[float, float] | None = None
    route: tuple[tuple[float, float], ...] = ()
    join: str | None = None  # counter or unit it joins
    take_command: int | None = None
    rally_pull: str | None = None  # the rallying counter it answers
    reason: str = ""
    settled: bool = False


def plan_hidden_move(terrain: Any, state: State, counter: Counter,
                     settings: Settings) -> HiddenMove:
    """What the hidden-enemy table makes ``counter`` do now (pure)."""
    code = hidden_enemy_table()[counter.hidden_order].code
    players = [o for o in state.operatives.values()
               if o.side != ENEMY and o.on_table and o.at is not None]
    # A row-6 counter with a higher command within 12" pulls this one (rally).
    rallier = _rallier(terrain, state, counter, settings)
    if rallier is not None:
        return _move_towards_point(terrain, state, counter, rallier.at, settings, code,
                                   f"answers the rally of {rallier.id}", join=None,
                                   rally=rallier)
    if code == "remain_stationary" or counter.settled:
        return HiddenMove(counter.id, code, reason="remains stationary")
    if not players and code != "join_higher_command":
        return HiddenMove(counter.id, code, reason="no enemy to move towards")
    if code == "to_cover":
        return _to_cover(terrain, state, counter, players, settings)
    if code == "join_higher_command":
        target = _higher_command_target(terrain, state, counter)
        if target is None:
            return HiddenMove(counter.id, code, reason="no friend with a higher command")
        tid, at, command = target
        return _move_towards_point(terrain, state, counter, at, settings, code,
                                   f"moves towards {tid} (command {command})", join=tid,
                                   command=command)
    using_cover = code in ("towards_enemy_using_cover", "towards_enemy_using_cover_rally")
    return _towards_enemy(terrain, state, counter, players, settings, code, using_cover)


def _reach(terrain: Any, state: State, counter: Counter, settings: Settings) -> Any:
    blockers = occupied(state, exclude=counter.id)
    return terrain.routes.reachable(counter.at, COUNTER_RADIUS, settings.hidden_move,
                                    blockers=blockers, spacing=0.5)


def _to_cover(terrain: Any, state: State, counter: Counter, players: list[Operative],
              settings: Settings) -> HiddenMove:
    reach = _reach(terrain, state, counter, settings)
    pts = np.asarray(reach.points, dtype=float)
    if len(pts) == 0:
        return HiddenMove(counter.id, "to_cover", reason="cannot move")
    prot = _protected_from_all(terrain, pts, players)
    if not prot.any():
        # nothing protected in reach: move towards the nearest protected point further away
        far = terrain.routes.reachable(counter.at, COUNTER_RADIUS, 30.0,
                                       blockers=occupied(state, exclude=counter.id), spacing=1.0)
        fpts = np.asarray(far.points, dtype=float)
        fprot = _protected_from_all(terrain, fpts, players) if len(fpts) else fpts
        if len(fpts) and fprot.any():
            idx = np.flatnonzero(fprot)
            j = int(idx[np.lexsort((fpts[idx, 1], fpts[idx, 0], np.asarray(far.cost)[idx]))[0]])
            walk = far.path(j)
            end, _ = terrain.routes.advance(walk, settings.hidden_move)
            return HiddenMove(counter.id, "to_cover", to=(float(end[0]), float(end[1])),
                              route=tuple(walk.points), reason="heads for distant cover")
        return HiddenMove(counter.id, "to_cover", reason="no cover to reach", settled=True)
    cost = np.asarray(reach.cost, dtype=float)
    idx = np.flatnonzero(prot)
    i = int(idx[np.lexsort((pts[idx, 1], pts[idx, 0], np.round(cost[idx], 6)))[0]])
    walk = reach.path(i)
    return HiddenMove(counter.id, "to_cover", to=(float(pts[i, 0]), float(pts[i, 1])),
                      route=tuple(walk.points), reason="moves to cover, then stays",
                      settled=True)


def _protected_from_all(terrain: Any, pts: np.ndarray, players: list[Operative]) -> np.ndarray:
    """(k,) True where a counter at the point is hidden from, or in cover from, every player
    model."""
    if not players:
        return np.ones(len(pts), dtype=bool)
    obs = np.array([o.at for o in players], dtype=float)
    obs_r = np.array([o.radius for o in players], dtype=float)
    cm = terrain.sight.cover_matrix(obs, obs_r, pts, COUNTER_RADIUS)
    ok = ~np.asarray(cm.visible) | np.asarray(cm.in_cover) | np.asarray(cm.obscured)
    return ok.all(axis=0)


def _hidden_from_all(terrain: Any, pts: np.ndarray, players: list[Operative]) -> np.ndarray:
    if not players:
        return np.ones(len(pts), dtype=bool)
    obs = np.array([o.at for o in players], dtype=float)
    obs_r = np.array([o.radius for o in players], dtype=float)
    seen = np.asarray(terrain.sight.visibility_matrix(obs, obs_r, pts, COUNTER_RADIUS))
    return ~seen.any(axis=0)


def _towards_enemy(terrain: Any, state: State, counter: Counter, players: list[Operative],
                   settings: Settings, code: str, using_cover: bool) -> HiddenMove:
    reach = _reach(terrain, state, counter, settings)
    pts = np.asarray(reach.points, dtype=float)
    if len(pts) == 0:
        return HiddenMove(counter.id, code, reason="cannot move")
    ptsl = np.array([o.at for o in players], dtype=float)
    pr = np.array([o.radius for o in players], dtype=float)
    dist = terrain.routes.distance_matrix(pts, COUNTER_RADIUS, ptsl, pr)
    score = np.where(np.isfinite(dist), dist, 1e9).min(axis=1)
    score = np.where(score < 1.0, 1e9, score)  # never into an enemy's control range
    cost = np.asarray(reach.cost, dtype=float)
    order = np.lexsort((pts[:, 1], pts[:, 0], np.round(cost, 6), np.round(score, 6)))
    best = int(order[0])
    reason = "moves towards the enemy"
    if using_cover:
        hidden = _hidden_from_all(terrain, pts, players)
        ok = hidden & (score <= score[best] + settings.cover_detour)
        if ok.any():
            idx = np.flatnonzero(ok)
            best = int(idx[np.lexsort((pts[idx, 1], pts[idx, 0], np.round(cost[idx], 6),
                                       np.round(score[idx], 6)))[0]])
            reason = "moves towards the enemy, ending out of sight"
        else:
            reason = "moves towards the enemy (no point out of sight on the way)"
    if np.hypot(*(pts[best] - np.asarray(counter.at))) < 0.05:
        return HiddenMove(counter.id, code, reason="already as close as it can get unseen")
    walk = reach.path(best)
    return HiddenMove(counter.id, code, to=(float(pts[best, 0]), float(pts[best, 1])),
                      route=tuple(walk.points), reason=reason)


def _move_towards_point(terrain: Any, state: State, counter: Counter,
                        goal: tuple[float, float], settings: Settings, code: str, reason: str,
                        *, join: str | None = None, command: int | None = None,
                        rally: Counter | None = None) -> HiddenMove:
    reach = _reach(terrain, state, counter, settings)
    pts = np.asarray(reach.points, dtype=float)
    if len(pts) == 0:
        return HiddenMove(counter.id, code, reason="cannot move")
    d = terrain.routes.distances(goal, COUNTER_RADIUS, pts, COUNTER_RADIUS)
    d = np.where(np.isfinite(d), d, 1e9)
    cost = np.asarray(reach.cost, dtype=float)
    i = int(np.lexsort((pts[:, 1], pts[:, 0], np.round(cost, 6), np.round(d, 6)))[0])
    end = (float(pts[i, 0]), float(pts[i, 1]))
    walk = reach.path(i)
    gap = float(d[i])
    move = HiddenMove(counter.id, code, to=end, route=tuple(walk.points), reason=reason)
    if rally is not None:
        move.rally_pull = rally.id
        if gap <= settings.hidden_join_radius + 1e-9:
            move.take_command = rally.hidden_order
    elif join is not None and gap <= settings.hidden_join_radius + 1e-9:
        move.join = join
        move.take_command = command
    return move


def _rallier(terrain: Any, state: State, counter: Counter, settings: Settings) -> Counter | None:
    """The nearest row-6 counter with a higher command within the rally radius, if any."""
    best: tuple[float, str, Counter] | None = None
    for other in state.active_counters():
        if other.id == counter.id or other.hidden_order <= counter.hidden_order:
            continue
        if hidden_enemy_table()[other.hidden_order].code != "towards_enemy_using_cover_rally":
            continue
        d = terrain.routes.distance(counter.at, other.at, COUNTER_RADIUS,
                                    COUNTER_RADIUS).distance
        if d is not None and d <= settings.hidden_rally_radius + 1e-9:
            if best is None or (d, other.id) < best[:2]:
                best = (d, other.id, other)
    return None if best is None else best[2]


def _higher_command_target(terrain: Any, state: State, counter: Counter
                           ) -> tuple[str, tuple[float, float], int] | None:
    """The closer of a revealed unit or a hidden counter with a higher command."""
    options: list[tuple[float, str, tuple[float, float], int]] = []
    for other in state.active_counters():
        if other.id != counter.id and other.hidden_order > counter.hidden_order:
            d = terrain.routes.distance(counter.at, other.at, COUNTER_RADIUS,
                                        COUNTER_RADIUS).distance
            if d is not None:
                options.append((d, other.id, other.at, other.hidden_order))
    for unit in state.active_units():
        if unit.command <= counter.hidden_order:
            continue
        for op in state.unit_models(unit):
            d = terrain.routes.distance(counter.at, op.at, COUNTER_RADIUS, op.radius).distance
            if d is not None:
                options.append((d, unit.id, op.at, unit.command))  # type: ignore[arg-type]
    if not options:
        return None
    options.sort(key=lambda o: (o[0], o[1]))
    _, tid, at, command = options[0]
    return tid, at, command


# -- resolution ---------------------------------------------------------------------------------
@dataclass
class Resolution:
    """What a counter turned out to be."""

    counter: str
    outcome: str  # false_alarm, enemies, ambush
    units: list[str] = field(default_factory=list)
    models: list[str] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)


def roll_enemy_count(dice: Dice, counter: Counter) -> tuple[int, list[dict[str, Any]]]:
    """The enemy-count roll; an ambush counter re-rolls 1s and 6s until it gets 2-5."""
    events = []
    entry = dice.d6(f"enemy count for counter {counter.id}")
    face = entry.face
    while counter.ambush and face in (1, 6):
        entry = dice.d6(f"enemy count for counter {counter.id} (ambush: re-roll {face})",
                        ref=entry.seq)
        face = entry.face
    events.append({"type": "enemy_count", "counter": counter.id, "roll": face,
                   "result": enemy_count_table()[face].text})
    return face, events


def resolve_counter(terrain: Any, state: State, counter: Counter, spotter: Operative | None,
                    roster: Roster | None, dice: Dice, settings: Settings,
                    *, edition: str) -> list[Resolution]:
    """Resolve a spotted counter on the enemy-count table (and its ambush partner)."""
    face, events = roll_enemy_count(dice, counter)
    row = enemy_count_table()[face]
    if row.code == "false_alarm":
        sector = dice.d6(f"false alarm: new sector for counter {counter.id}").face
        place = place_in_sector(terrain, sector, player_observers(state), dice, settings,
                                counter.id, avoid=occupied(state, exclude=counter.id))
        order = dice.d6(f"false alarm: new hidden order for counter {counter.id}").face
        counter.at, counter.sector, counter.hidden_order = place.at, sector, order
        counter.resolve_first_turn = place.resolve_first_turn
        events.append({"type": "false_alarm", "counter": counter.id, "sector": sector,
                       "at": [round(place.at[0], 2), round(place.at[1], 2)]})
        events.append({"type": "hidden_order", "counter": counter.id, "hidden_order": order,
                       "secret": True})
        return [Resolution(counter.id, "false_alarm", events=events)]
    if row.code == "ambush":
        return _ambush(terrain, state, counter, spotter, roster, dice, settings, events,
                       edition=edition)
    res = _reveal(terrain, state, counter, row.enemies, roster, dice, edition=edition)
    res.events[:0] = events
    return [res]


def _ambush(terrain: Any, state: State, counter: Counter, spotter: Operative | None,
            roster: Roster | None, dice: Dice, settings: Settings,
            events: list[dict[str, Any]], *, edition: str) -> list[Resolution]:
    state.counter_seq += 1
    second = Counter(f"c{state.counter_seq}", counter.at, counter.hidden_order, counter.sector,
                     ambush=True)
    state.counters[second.id] = second
    counter.ambush = True
    events.append({"type": "ambush", "counter": counter.id, "second": second.id,
                   "spotter": spotter.id if spotter else None})
    if spotter is not None and spotter.at is not None:
        spots = _ambush_spots(terrain, state, spotter, settings, [counter.id, second.id], dice)
        for c, at in zip((counter, second), spots, strict=False):
            c.at = at
            c.sector = terrain.board.sector_of(*at)
            events.append({"type": "counter_moved", "counter": c.id,
                           "at": [round(at[0], 2), round(at[1], 2)], "ambush": True})
    results = []
    first = True
    for c in (counter, second):
        face, evs = roll_enemy_count(dice, c)
        res = _reveal(terrain, state, c, enemy_count_table()[face].enemies, roster, dice,
                      edition=edition)
        res.events[:0] = ([*events, *evs] if first else evs)
        res.outcome = "ambush"
        first = False
        results.append(res)
    return results


def _ambush_spots(terrain: Any, state: State, spotter: Operative, settings: Settings,
                  ids: list[str], dice: Dice) -> list[tuple[float, float]]:
    """Two points 6" from the spotter, beside cover that hides them from it where possible."""
    want = settings.ambush_distance
    avoid = occupied(state, exclude=ids)
    pts = np.asarray(terrain.routes.free_points(None, COUNTER_RADIUS, 0.5), dtype=float)
    if len(pts) == 0:
        return []
    if avoid:
        a = np.array([(x, y) for x, y, _ in avoid], dtype=float)
        ar = np.array([r for _, _, r in avoid], dtype=float)
        gap = np.linalg.norm(pts[:, None] - a[None], axis=2) - COUNTER_RADIUS - ar[None]
        pts = pts[(gap >= 0.0).all(axis=1)]
    d = terrain.routes.distances(spotter.at, spotter.radius, pts, COUNTER_RADIUS)
    band = np.abs(d - want) <= 0.5
    if not band.any():
        band = np.abs(d - want) <= np.nanmin(np.abs(d - want)) + 0.5
    cand = pts[band]
    cm = terrain.sight.cover_matrix(np.array([spotter.at]), spotter.radius, cand,
                                    COUNTER_RADIUS)
    prot = (~np.asarray(cm.visible) | np.asarray(cm.in_cover) | np.asarray(cm.obscured))[0]
    pool = cand[prot] if prot.any() else cand
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
        chosen.append(chosen[0])
    return chosen


def _reveal(terrain: Any, state: State, counter: Counter, count: int, roster: Roster | None,
            dice: Dice, *, edition: str) -> Resolution:
    """Turn a counter into ``count`` models from the roster table, formed into units."""
    counter.resolved = True
    res = Resolution(counter.id, "enemies")
    if roster is None or count <= 0:
        res.events.append({"type": "counter_empty", "counter": counter.id})
        return res
    drawn = []
    for i in range(count):
        face = dice.d6(f"roster table for counter {counter.id}, model {i + 1}").face
        key = roster.table[face]
        drawn.append((key, roster.profiles[key].for_edition(edition)))
    spots = _cluster(terrain, state, counter.at, [p.base_radius for _, p in drawn])
    models = []
    for (key, profile), at in zip(drawn, spots, strict=True):
        state.unit_seq += 1
        mid = f"{key}-{state.unit_seq}"
        models.append((mid, profile))
        state.operatives[mid] = Operative(mid, profile.name, ENEMY, "", profile, at,
                                          profile.wounds, stance="engage")
        res.models.append(mid)
    leadership = max(p.leadership for _, p in models)
    roll = roll_command(dice, leadership, purpose=f"order roll for counter {counter.id}")
    formed = form_units(models, roll.command)
    for k, unit in enumerate(formed):
        uid = counter.id.replace("c", "u", 1) if len(formed) == 1 else \
            f"{counter.id.replace('c', 'u', 1)}-{unit.troop.value}"
        if uid in state.units:
            uid = f"{uid}-{k + 2}"
        state.units[uid] = Unit(uid, list(unit.models), unit.troop.value, unit.command,
                                unit.leadership, fsm="hidden", origin=counter.id)
        for m in unit.models:
            state.operatives[m].owner = uid
        res.units.append(uid)
    res.events.append({
        "type": "counter_revealed", "counter": counter.id,
        "models": [{"id": m, "profile": p.name, "at": [round(state.operatives[m].at[0], 2),
                                                        round(state.operatives[m].at[1], 2)]}
                   for m, p in models],
        "units": [state.units[u].to_dict() for u in res.units],
        "order_roll": {"roll": roll.roll, "modifier": roll.modifier, "command": roll.command},
    })
    return res


def _cluster(terrain: Any, state: State, at: tuple[float, float],
             radii: list[float]) -> list[tuple[float, float]]:
    """Free spots for bases of ``radii`` around ``at``: the counter's own spot first, then the
    nearest free points (deterministic)."""
    placed: list[tuple[float, float, float]] = list(occupied(state))
    out: list[tuple[float, float]] = []
    rmax = max(radii)
    pts = np.asarray(terrain.routes.free_points(
        Point(at).buffer(6.0 + rmax * 6), rmax, 0.25), dtype=float)
    if len(pts) == 0:
        pts = np.array([at], dtype=float)
    d = np.hypot(pts[:, 0] - at[0], pts[:, 1] - at[1])
    order = np.lexsort((pts[:, 1], pts[:, 0], np.round(d, 9)))
    pts = pts[order]
    for r in radii:
        chosen = None
        for p in pts:
            if all(math.hypot(p[0] - x, p[1] - y) >= r + rr + MODEL_GAP - 1e-9
                   for x, y, rr in placed):
                chosen = (float(p[0]), float(p[1]))
                break
        if chosen is None:
            chosen = (float(at[0]), float(at[1]))
        placed.append((chosen[0], chosen[1], r))
        out.append(chosen)
    return out
