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
counter) only ever appear in events marked ``secret``; :mod:`solo_ops.view.player` strips them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
from shapely.geometry import Point

from solo_ops.core.dice import Dice
from solo_ops.core.model import Roster
from solo_ops.core.settings import Settings
from solo_ops.core.tables import enemy_count_table, hidden_enemy_table
from solo_ops.game import placing
from solo_ops.game.state import COUNTER_RADIUS, ENEMY, Counter, Operative, State, Unit
from solo_ops.geometry import placement, search
from solo_ops.rules.orders import form_units, roll_command

if TYPE_CHECKING:
    from solo_ops.geometry.terrain import Terrain


MODEL_GAP = 0.25  # inches between the bases of models placed for a resolved counter


# -- placement -------------------------------------------------------------------------------------
def hidden_points(terrain: Terrain, region: Any, observers: Sequence[tuple[float, float, float]],
                  radius: float, spacing: float,
                  avoid: Sequence[tuple[float, float, float]] = ()) -> np.ndarray:
    """Points of ``region`` where a base of ``radius`` fits, clear of ``avoid`` discs, and
    that no observer disc ``(x, y, r)`` can see (:func:`solo_ops.geometry.search.hidden_points`),
    and whose base lies clear of every terrain feature's footprint (:func:`off_features`).

    The same points, in the same order, as ``off_features(search.hidden_points(...))``: every
    test keeps or drops each point on its own, so the cheap ones run first and the sight test
    only asks about the points they leave, one observer at a time (a point one observer sees
    is not asked of the next)."""
    pts = search.hidden_points(terrain, region, (), radius, spacing, avoid)
    pts = off_features(terrain, pts, radius)
    if len(pts) == 0 or not observers:
        return pts
    live = np.arange(len(pts))
    for x, y, r in observers:
        seen = terrain.sight.visibility_matrix(np.array([(x, y)], dtype=float), float(r),
                                               pts[live], radius)[0]
        live = live[~seen]
        if len(live) == 0:
            break
    return pts[live]


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


# -- spotting -------------------------------------------------------------------------------------
def spotters(terrain: Terrain, state: State, counters: Sequence[Counter] | None = None
             ) -> dict[str, Operative]:
    """For every counter (default: every active one) that a player model can see, the nearest
    player model that sees it (ties by id). One batched visibility question."""
    todo = list(state.active_counters() if counters is None else counters)
    players = [o for o in state.operatives.values()
               if o.side != ENEMY and o.on_table and o.at is not None]
    if not todo or not players:
        return {}
    # The engine asks after every move, mostly with nobody moved since: the answer (pairs of
    # counter and player places in these lists) is remembered per exact inputs on the terrain.
    key = (tuple([(o.id, o.at[0], o.at[1], o.radius) for o in players]),  # type: ignore[index]
           tuple([(c.at[0], c.at[1]) for c in todo]))
    memo = terrain.spotting
    found = memo.get(key)
    if found is None:
        if len(memo) >= SPOTTING_MEMO:
            memo.clear()
        found = memo[key] = _spotters(terrain, players, todo)
    return {todo[j].id: players[i] for j, i in found}


SPOTTING_MEMO = 4096
"""How many :func:`spotters` answers a terrain keeps before it forgets them all."""


def _spotters(terrain: Terrain, players: list[Operative], todo: list[Counter]
              ) -> tuple[tuple[int, int], ...]:
    """:func:`spotters` measured: ``(counter place, player place)`` for each counter seen, in
    counter order."""
    obs = np.array([o.at for o in players], dtype=float)
    obs_r = np.array([o.radius for o in players], dtype=float)
    pts = np.array([c.at for c in todo], dtype=float)
    seen = np.asarray(terrain.sight.visibility_matrix(obs, obs_r, pts, COUNTER_RADIUS),
                      dtype=bool)
    out: list[tuple[int, int]] = []
    for j in range(len(todo)):
        rows = np.flatnonzero(seen[:, j])
        if len(rows) == 0:
            continue
        best = min(rows, key=lambda i: (math.hypot(obs[i, 0] - pts[j, 0], obs[i, 1] - pts[j, 1]),
                                        players[i].id))
        out.append((j, int(best)))
    return tuple(out)


def spotted_by(terrain: Terrain, state: State, counter: Counter) -> Operative | None:
    """The player model that can see ``counter`` (the nearest one), or None."""
    return spotters(terrain, state, [counter]).get(counter.id)


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


def plan_hidden_move(terrain: Terrain, state: State, counter: Counter,
                     settings: Settings) -> HiddenMove:
    """What the hidden-enemy table makes ``counter`` do now (pure). A move that would end
    where the counter stands is returned as no move (``to`` None), so that what the players
    see of a counter that stays put is the same whatever its hidden order."""
    move = _plan(terrain, state, counter, settings)
    if move.to is not None and math.dist(move.to, counter.at) < 1e-6:
        move.to, move.route = None, ()
    return move


def _plan(terrain: Terrain, state: State, counter: Counter, settings: Settings) -> HiddenMove:
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
        tid, at, command, radius = target
        return _move_towards_point(terrain, state, counter, at, settings, code,
                                   f"moves towards {tid} (command {command})", join=tid,
                                   command=command, goal_radius=radius)
    using_cover = code in ("towards_enemy_using_cover", "towards_enemy_using_cover_rally")
    return _towards_enemy(terrain, state, counter, players, settings, code, using_cover)


def _reach(terrain: Terrain, state: State, counter: Counter, settings: Settings) -> Any:
    """Where ``counter`` can end its hidden move: the reachable points (the start first) where
    the placement rule lets it stand (:func:`solo_ops.geometry.placement.legal`, on the floor,
    clear of every other base)."""
    return placing.counter_reach(terrain, state, counter, settings.hidden_move, 0.5)


def _first_protected(terrain: Terrain, pts: np.ndarray, cost: np.ndarray,
                     players: list[Operative], chunk: int = 96) -> int | None:
    """The index of the cheapest point (ties: lower x, then lower y) protected from every
    player model, or None. Points are tested in that order, a chunk at a time, so the usual
    case (cover close by) asks few sight questions."""
    order = np.lexsort((pts[:, 1], pts[:, 0], np.round(cost, 6)))
    order = order[np.isfinite(cost[order])]
    for lo in range(0, len(order), chunk):
        idx = order[lo:lo + chunk]
        prot = _protected_from_all(terrain, pts[idx], players)
        if prot.any():
            return int(idx[int(np.argmax(prot))])
    return None


def _walked(terrain: Terrain, walk: Any, move: float
            ) -> tuple[tuple[float, float], tuple[Any, ...]]:
    """Where ``move`` inches along ``walk`` end, and the part of the walk covered (the rest of
    the planned route is a hidden fact)."""
    end, _ = terrain.routes.advance(walk, move)
    end = (float(end[0]), float(end[1]))
    done: list[tuple[float, float]] = [walk.points[0]]
    for q in walk.points[1:]:
        p = done[-1]
        seg = math.dist(p, q)
        t = 0.0 if seg == 0 else ((end[0] - p[0]) * (q[0] - p[0])
                                  + (end[1] - p[1]) * (q[1] - p[1])) / seg ** 2
        foot = (p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t)
        if -1e-9 <= t <= 1 + 1e-9 and math.dist(foot, end) < 1e-7:
            break  # the move ends on this leg
        done.append(q)
    if math.dist(done[-1], end) > 1e-9:
        done.append(end)
    return end, tuple(done)


def _to_cover(terrain: Terrain, state: State, counter: Counter, players: list[Operative],
              settings: Settings) -> HiddenMove:
    """Row 2: the cheapest reachable point protected from every player model (hidden from, in
    cover from or obscured to each), then stay; with none in reach, head for the nearest one
    further away (and arrive in a later turn)."""
    reach = _reach(terrain, state, counter, settings)
    pts = np.asarray(reach.points, dtype=float)
    if len(pts) == 0:
        return HiddenMove(counter.id, "to_cover", reason="cannot move")
    i = _first_protected(terrain, pts, np.asarray(reach.cost, dtype=float), players)
    if i is None:
        # nothing protected in reach: move towards the nearest protected point further away
        far = placing.counter_reach(terrain, state, counter, 30.0, 1.0)
        fpts = np.asarray(far.points, dtype=float)
        j = _first_protected(terrain, fpts, np.asarray(far.cost, dtype=float), players) \
            if len(fpts) else None
        if j is not None:
            end, route = _walked(terrain, far.path(j), settings.hidden_move)
            return HiddenMove(counter.id, "to_cover", to=end, route=route,
                              reason="heads for distant cover")
        return HiddenMove(counter.id, "to_cover", reason="no cover to reach", settled=True)
    walk = reach.path(i)
    return HiddenMove(counter.id, "to_cover", to=(float(pts[i, 0]), float(pts[i, 1])),
                      route=tuple(walk.points), reason="moves to cover, then stays",
                      settled=True)


def _protected_from_all(terrain: Terrain, pts: np.ndarray, players: list[Operative]) -> np.ndarray:
    """(k,) True where a counter at the point is hidden from, or in cover from, every player
    model."""
    if not players:
        return np.ones(len(pts), dtype=bool)
    obs = np.array([o.at for o in players], dtype=float)
    obs_r = np.array([o.radius for o in players], dtype=float)
    cm = terrain.sight.cover_matrix(obs, obs_r, pts, COUNTER_RADIUS)
    ok = ~np.asarray(cm.visible) | np.asarray(cm.in_cover)  # obscured alone is not cover
    return ok.all(axis=0)


def _hidden_from_all(terrain: Terrain, pts: np.ndarray, players: list[Operative]) -> np.ndarray:
    if not players:
        return np.ones(len(pts), dtype=bool)
    obs = np.array([o.at for o in players], dtype=float)
    obs_r = np.array([o.radius for o in players], dtype=float)
    seen = np.asarray(terrain.sight.visibility_matrix(obs, obs_r, pts, COUNTER_RADIUS))
    return np.logical_not(seen.any(axis=0))


SCORE_FIRST = 48
"""Points whose route scores :func:`_enemy_scores` measures first (the nearest in a straight
line), to bound the best score before measuring the rest."""


def _enemy_score_values(terrain: Terrain, pts: np.ndarray, players: list[Operative]
                        ) -> np.ndarray:
    """(len(pts),) each point's route distance to the nearest player model, 1e9 where no
    route leads to one or where it lies within 1" of one (never into a control range)."""
    ptsl = np.array([o.at for o in players], dtype=float)
    pr = np.array([o.radius for o in players], dtype=float)
    dist = terrain.routes.distance_matrix(pts, COUNTER_RADIUS, ptsl, pr)
    score = np.where(np.isfinite(dist), dist, 1e9).min(axis=1)
    return np.where(score < 1.0, 1e9, score)


def _enemy_scores(terrain: Terrain, pts: np.ndarray, players: list[Operative],
                  slack: float) -> np.ndarray:
    """:func:`_enemy_score_values` of every point that could matter, inf for the others: a
    point whose score is more than ``slack`` (plus 1e-5) above the best one's can neither be
    the best nor come within ``slack`` of it.

    A route is never shorter than the straight line, so the straight distance to the nearest
    player model bounds each score from below. The points nearest in a straight line are
    measured first; their best score leaves only the points whose bound is within ``slack``
    of it to measure (all of them when none of the first has a useful score)."""
    ptsl = np.array([o.at for o in players], dtype=float)
    pr = np.array([o.radius for o in players], dtype=float)
    straight = np.hypot(pts[:, None, 0] - ptsl[None, :, 0], pts[:, None, 1] - ptsl[None, :, 1])
    bound = (straight - COUNTER_RADIUS - pr[None, :]).min(axis=1)
    score = np.full(len(pts), np.inf)
    if len(pts) <= 2 * SCORE_FIRST:
        return _enemy_score_values(terrain, pts, players)
    # first the points nearest in a straight line outside the control ranges
    order = np.argsort(np.where(bound >= 1.0 - 1e-6, bound, np.inf), kind="stable")
    first = order[:SCORE_FIRST]
    score[first] = _enemy_score_values(terrain, pts[first], players)
    top = float(score[first].min())
    if top >= 1e9:
        return _enemy_score_values(terrain, pts, players)
    rest = np.flatnonzero((bound <= top + slack + 1e-5) & ~np.isfinite(score))
    if len(rest):
        score[rest] = _enemy_score_values(terrain, pts[rest], players)
    return score


def _towards_enemy(terrain: Terrain, state: State, counter: Counter, players: list[Operative],
                   settings: Settings, code: str, using_cover: bool) -> HiddenMove:
    """Rows 4-6: the reachable point closest (by route) to the closest player model, never
    inside a player model's control range (1"); "using cover" takes, among points at most
    ``cover_detour`` worse, the best one out of every player model's sight."""
    reach = _reach(terrain, state, counter, settings)
    pts = np.asarray(reach.points, dtype=float)
    if len(pts) == 0:
        return HiddenMove(counter.id, code, reason="cannot move")
    score = _enemy_scores(terrain, pts, players,
                          settings.cover_detour if using_cover else 0.0)
    cost = np.asarray(reach.cost, dtype=float)
    order = np.lexsort((pts[:, 1], pts[:, 0], np.round(cost, 6), np.round(score, 6)))
    best = int(order[0])
    reason = "moves towards the enemy"
    if using_cover:
        near = np.flatnonzero(score <= score[best] + settings.cover_detour)
        hidden = _hidden_from_all(terrain, pts[near], players)
        if hidden.any():
            idx = near[hidden]
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


def _move_towards_point(terrain: Terrain, state: State, counter: Counter,
                        goal: tuple[float, float], settings: Settings, code: str, reason: str,
                        *, join: str | None = None, command: int | None = None,
                        rally: Counter | None = None,
                        goal_radius: float = COUNTER_RADIUS) -> HiddenMove:
    """Rows 3 and 6 (the rally): the reachable point closest (by route, base to base) to the
    base at ``goal``; ending within ``hidden_join_radius`` joins it (row 3) or takes the
    rallier's command (row 6)."""
    reach = _reach(terrain, state, counter, settings)
    pts = np.asarray(reach.points, dtype=float)
    if len(pts) == 0:
        return HiddenMove(counter.id, code, reason="cannot move")
    d = terrain.routes.distances(goal, goal_radius, pts, COUNTER_RADIUS)
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


def _rallier(terrain: Terrain, state: State, counter: Counter, settings: Settings
             ) -> Counter | None:
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


def _higher_command_target(terrain: Terrain, state: State, counter: Counter
                           ) -> tuple[str, tuple[float, float], int, float] | None:
    """The closer (by route, base to base) of a revealed unit's model or a hidden counter with
    a higher command: ``(id, where, command, base radius)``; ties go to the lower id."""
    options: list[tuple[float, str, tuple[float, float], int, float]] = []
    others = [o for o in state.active_counters()
              if o.id != counter.id and o.hidden_order > counter.hidden_order]
    models = [(unit, op) for unit in state.active_units() if unit.command > counter.hidden_order
              for op in state.unit_models(unit) if op.at is not None]
    if not others and not models:
        return None
    pts = np.array([o.at for o in others] + [op.at for _, op in models], dtype=float)
    radii = np.array([COUNTER_RADIUS] * len(others) + [op.radius for _, op in models])
    d = terrain.routes.distances(counter.at, COUNTER_RADIUS, pts, radii)
    for k, other in enumerate(others):
        if np.isfinite(d[k]):
            options.append((float(d[k]), other.id, other.at, other.hidden_order, COUNTER_RADIUS))
    for k, (unit, op) in enumerate(models, start=len(others)):
        if np.isfinite(d[k]):
            options.append((float(d[k]), unit.id, op.at, unit.command,  # type: ignore[arg-type]
                            op.radius))
    if not options:
        return None
    options.sort(key=lambda o: (round(o[0], 6), o[1]))
    _, tid, at, command, radius = options[0]
    return tid, at, command, radius


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
                   "result": enemy_count_table()[face].shown})
    return face, events


def resolve_counter(terrain: Terrain, state: State, counter: Counter, spotter: Operative | None,
                    roster: Roster | None, dice: Dice, settings: Settings,
                    *, edition: str, in_place: bool = False) -> list[Resolution]:
    """Resolve a spotted counter on the enemy-count table (and its ambush partner).
    ``in_place``: resolved where it stands, nobody having spotted it (a hidden-enemy row 3
    join with a revealed unit): an Ambush then puts both counters there, not by a player."""
    face, events = roll_enemy_count(dice, counter)
    row = enemy_count_table()[face]
    if row.code == "false_alarm":
        sector = dice.d6(f"false alarm: new sector for counter {counter.id}").face
        place = place_in_sector(terrain, sector, player_observers(state), dice, settings,
                                counter.id, avoid=occupied(state, exclude=counter.id))
        order = dice.d6(f"false alarm: new hidden order for counter {counter.id}",
                        secret=True).face
        counter.at, counter.sector, counter.hidden_order = place.at, sector, order
        counter.resolve_first_turn = place.resolve_first_turn
        counter.settled = False  # a new hidden order: row 2's "then remain stationary" is over
        events.append({"type": "false_alarm", "counter": counter.id, "sector": sector,
                       "at": [round(place.at[0], 2), round(place.at[1], 2)]})
        events.append({"type": "hidden_order", "counter": counter.id, "hidden_order": order,
                       "secret": True})
        return [Resolution(counter.id, "false_alarm", events=events)]
    if row.code == "ambush":
        return _ambush(terrain, state, counter, spotter, roster, dice, settings, events,
                       edition=edition, in_place=in_place)
    res = _reveal(terrain, state, counter, row.enemies, roster, dice, edition=edition,
                  troop_count=settings.troop_count)
    res.events[:0] = events
    return [res]


def _ambush(terrain: Terrain, state: State, counter: Counter, spotter: Operative | None,
            roster: Roster | None, dice: Dice, settings: Settings,
            events: list[dict[str, Any]], *, edition: str,
            in_place: bool = False) -> list[Resolution]:
    second = Counter(state.new_counter_id(), counter.at, counter.hidden_order, counter.sector,
                     ambush=True)
    state.counters[second.id] = second
    counter.ambush = True
    events.append({"type": "ambush", "counter": counter.id, "second": second.id,
                   "spotter": spotter.id if spotter else None})
    if in_place:
        # a row-3 join: nobody spotted it, so "the player unit that spotted the hidden enemy
        # force" is nobody; both counters are resolved where it stands, beside the unit it
        # joins (issue #29), never carried across the board to a player model
        spotter = None
    elif spotter is None or spotter.at is None:
        # resolved in the first turn with no model seeing it: the table still puts both
        # counters 6" from a player model -- the one nearest the counter (issue #14)
        spotter = _nearest_player(state, counter.at)
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
                      edition=edition, troop_count=settings.troop_count)
        res.events[:0] = ([*events, *evs] if first else evs)
        res.outcome = "ambush"
        first = False
        results.append(res)
    return results


def _nearest_player(state: State, at: tuple[float, float]) -> Operative | None:
    """The player model on the table nearest ``at`` (straight line, ties by id), or None."""
    players = [o for o in state.operatives.values()
               if o.side != ENEMY and o.on_table and o.at is not None]
    if not players:
        return None
    return min(players, key=lambda o: (math.dist(o.at, at), o.id))  # type: ignore[arg-type]


def _ambush_band(terrain: Terrain, spotter: Operative, pts: np.ndarray, want: float
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


def _ambush_spots(terrain: Terrain, state: State, spotter: Operative, settings: Settings,
                  ids: list[str], dice: Dice) -> list[tuple[float, float]]:
    """Two points 6" from the spotter, beside cover that hides them from it where possible."""
    want = settings.ambush_distance
    avoid = occupied(state, exclude=ids)
    pts = terrain.floor_points(COUNTER_RADIUS, 0.5)  # off_features of the free points
    if len(pts) == 0:
        return []
    pts = pts[placement.clear_of_bases(pts, COUNTER_RADIUS, avoid, touch=0.0)]
    cand = _ambush_band(terrain, spotter, pts, want)
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


def _reveal(terrain: Terrain, state: State, counter: Counter, count: int, roster: Roster | None,
            dice: Dice, *, edition: str, troop_count: str = "main_weapon") -> Resolution:
    """Turn a counter into ``count`` models from the roster table, formed into units
    (``troop_count``: the setting of that name)."""
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
        mid = state.new_model_id(key)
        models.append((mid, profile))
        state.operatives[mid] = Operative(mid, profile.name, ENEMY, "", profile, at,
                                          profile.wounds, stance="engage")
        res.models.append(mid)
    leadership = max(p.leadership for _, p in models)
    roll = roll_command(dice, leadership, purpose=f"order roll for counter {counter.id}")
    formed = form_units(models, roll.command, troop_count)
    base = counter.id.replace("c", "u", 1)
    wanted = [base] if len(formed) == 1 else [f"{base}-{u.troop.value}" for u in formed]
    for uid, unit in zip(state.new_unit_ids(wanted), formed, strict=True):
        state.units[uid] = Unit(uid, list(unit.models), unit.troop.value, unit.command,
                                unit.leadership, fsm="hidden", origin=counter.id)
        for m in unit.models:
            state.operatives[m].owner = uid
        res.units.append(uid)
    res.events.append({
        "type": "counter_revealed", "counter": counter.id,
        "models": [{"id": m, "profile": p.name, "at": _rounded(state.operatives[m].at)}
                   for m, p in models],
        "units": [state.units[u].to_dict() for u in res.units],
        "order_roll": {"roll": roll.roll, "modifier": roll.modifier, "command": roll.command,
                       "leadership": leadership},
    })
    return res


def _rounded(at: tuple[float, float] | None) -> list[float] | None:
    """A revealed model's place for its event, to 0.01" (None for one not on the table)."""
    return None if at is None else [round(at[0], 2), round(at[1], 2)]


def _cluster(terrain: Terrain, state: State, at: tuple[float, float],
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
        out = _cluster_pick(terrain, at, radii, pts[near], list(placed), CLUSTER_FIRST - 1e-7)
        if out is not None:
            return out
    out = _cluster_pick(terrain, at, radii, pts, placed, math.inf)
    assert out is not None
    return out


CLUSTER_FIRST = 2.5
"""Inches (straight line) around a resolved counter whose points :func:`_cluster` measures
first."""
AMBUSH_CLEAR = CLUSTER_FIRST + 1.5
"""Inches from an ambush counter to every player model's base: its models, revealed within
:data:`CLUSTER_FIRST` of it, land in no player's control range (a surprise, not a melee)."""


def _cluster_pick(terrain: Terrain, at: tuple[float, float], radii: list[float],
                  pts: np.ndarray, placed: list[tuple[float, float, float]], limit: float
                  ) -> list[tuple[float, float]] | None:
    """:func:`_cluster`'s choice among ``pts``: for each radius the first point, nearest by
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
