"""The fog's hidden movement, planned (pure): what the hidden-enemy table makes a counter do now
(:func:`plan_hidden_move`, a :class:`HiddenMove`, secret until it is carried out). Its six
rows as ``shared/RULES-NOTES.md`` reads them: remain stationary; to the cheapest reachable
point protected from every player model, then stay; towards a friend with a higher command
(joining it within reach); towards the closest player model by route, never into a control
range, "using cover" ending out of sight where that costs little more (:func:`enemy_scores`);
and the rally that pulls a lower counter towards a row-6 one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from solo_ops.core.settings import Settings
from solo_ops.core.tables import hidden_enemy_table
from solo_ops.game import placing
from solo_ops.game.state import COUNTER_RADIUS, ENEMY, Counter, Operative, State

if TYPE_CHECKING:
    from solo_ops.geometry.terrain import Terrain


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
"""Points whose route scores :func:`enemy_scores` measures first (the nearest in a straight
line), to bound the best score before measuring the rest."""


def enemy_score_values(terrain: Terrain, pts: np.ndarray, players: list[Operative]
                       ) -> np.ndarray:
    """(len(pts),) each point's route distance to the nearest player model, 1e9 where no
    route leads to one or where it lies within 1" of one (never into a control range)."""
    ptsl = np.array([o.at for o in players], dtype=float)
    pr = np.array([o.radius for o in players], dtype=float)
    dist = terrain.routes.distance_matrix(pts, COUNTER_RADIUS, ptsl, pr)
    score = np.where(np.isfinite(dist), dist, 1e9).min(axis=1)
    return np.where(score < 1.0, 1e9, score)


def enemy_scores(terrain: Terrain, pts: np.ndarray, players: list[Operative],
                 slack: float) -> np.ndarray:
    """:func:`enemy_score_values` of every point that could matter, inf for the others: a
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
        return enemy_score_values(terrain, pts, players)
    # first the points nearest in a straight line outside the control ranges
    order = np.argsort(np.where(bound >= 1.0 - 1e-6, bound, np.inf), kind="stable")
    first = order[:SCORE_FIRST]
    score[first] = enemy_score_values(terrain, pts[first], players)
    top = float(score[first].min())
    if top >= 1e9:
        return enemy_score_values(terrain, pts, players)
    rest = np.flatnonzero((bound <= top + slack + 1e-5) & ~np.isfinite(score))
    if len(rest):
        score[rest] = enemy_score_values(terrain, pts[rest], players)
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
    score = enemy_scores(terrain, pts, players,
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
