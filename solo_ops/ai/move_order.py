"""One move by the move order: scoring the end points and choosing where the move ends.

``move_by_order`` scores the end points of one move (reposition, dash or 2018 normal move) by
the unit's move order (``shared/RULES-NOTES.md``, "Orders"): towards the closest enemy (its
distance around the walls), hold 12" / to firing range (``|distance - want|``), to cover (the
cheapest protected point) or to cover with the best firing line; "Use cover if possible" takes
a protected point at most ``settings.cover_detour`` worse than the best. ``_order_satisfied``
says when the order needs no further move this activation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from solo_ops.ai.candidates import (
    _Candidates,
    _coherent,
    candidate_points,
    lazy_scores,
    pick,
    pick_where,
)
from solo_ops.ai.context import (
    CONTROL_RANGE,
    Action,
    Context,
    WorkingBoard,
    _closest_enemy,
    _ids_visible,
    _route_distance,
    move_allowance,
    nearest_targets,
)
from solo_ops.ai.cover import (
    IN_COVER,
    _first_in_cover,
    _in_cover_all,
    cover_levels,
    firing_lines,
)
from solo_ops.ai.explain import _cover_words, _verb, cost_inches, fmt_pt, inches
from solo_ops.game.state import Operative, State, Unit
from solo_ops.geometry import placement

HOLD_TOLERANCE = 0.1
MIN_GAIN = 0.05  # a move must improve its order's score by this much to be made


def _order_satisfied(ctx: Context, op: Operative, board: WorkingBoard, enemies: list[Operative],
                     codes: dict[str, str]) -> bool:
    """Whether the move order needs no further move this activation."""
    here = board.pos[op.id]
    if codes["move"] in ("to_cover", "to_cover_firing_line"):
        closest = _closest_enemy(ctx, op, here, enemies, board)
        if closest is None:
            return True
        level = cover_levels(ctx, np.array([here]), op.radius, closest[1], board.pos)
        return bool(level[0] >= IN_COVER)
    if codes["move"] in ("hold_12", "to_firing_range"):
        target = _closest_enemy(ctx, op, here, enemies, board)
        if target is None:
            return True
        want = _hold_distance(ctx, op, codes)
        if not math.isfinite(want):  # in firing range of whatever it sees
            return bool(_ids_visible(ctx, op, here, enemies, board))
        score = _hold_score(np.array([target[0]]), np.array([True]), want,
                            codes["move"] == "to_firing_range")
        return bool(score[0] <= HOLD_TOLERANCE)
    return False


def _hold_measure(ctx: Context, pts: np.ndarray, radius: float, enemies: list[Operative],
                  board: WorkingBoard) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each candidate point: the distance (around the walls) to the closest enemy visible
    from it — or, when none is visible there, to the closest enemy by route — and that enemy's
    index in ``enemies``, and whether it is visible from there. Hold / to firing range score
    every end point by this distance."""
    ep = np.array([board.pos[e.id] for e in enemies], dtype=float)
    er = np.array([e.radius for e in enemies], dtype=float)
    # distances and visibility are symmetric: ask enemies x points (few rows, batched columns)
    dist = ctx.terrain.routes.distance_matrix(ep, er, pts, radius).T
    vis = np.asarray(ctx.terrain.sight.visibility_matrix(ep, er, pts, radius), dtype=bool).T
    seen = np.where(vis, dist, np.inf)
    any_seen = np.asarray(vis.any(axis=1))
    use = np.where(any_seen[:, None], seen, dist)
    who = np.argmin(use, axis=1)
    return use[np.arange(len(pts)), who], who, any_seen


def _hold_distance(ctx: Context, op: Operative, codes: dict[str, str]) -> float:
    """The distance Hold 12" / To firing range keeps to the closest enemy: the setting
    ``hold_distance``, or the longest weapon range; inf for a model whose weapons reach any
    visible target (Kill Team 2024 without Range x: it is in firing range of every enemy it
    sees, so it moves only to see one). A model with no ranged weapon holds 12"."""
    if codes["move"] == "hold_12":
        return float(ctx.settings.hold_distance)
    rng = op.profile.longest_range
    if rng is None:
        return float(ctx.settings.hold_distance)
    return float(rng)


OUT_OF_RANGE = 1.0  # "To firing range": a point beyond the range scores this much worse


def _hold_score(distance: np.ndarray, seen: np.ndarray, want: float,
                firing: bool = False) -> np.ndarray:
    """How far each point is from holding: ``|distance - want|``; with no range to keep
    (``want`` inf), 0 where an enemy is in sight and else the route to the closest enemy.
    ``firing`` (To firing range): a point beyond the range is :data:`OUT_OF_RANGE` worse, so a
    point just inside it is preferred to one just outside (out of range it cannot fire)."""
    d = np.where(np.isfinite(distance), distance, 1e9)
    if not math.isfinite(want):
        return np.where(seen, 0.0, d)  # type: ignore[no-any-return]
    off = np.abs(d - want)
    if firing:
        off = np.where(d > want + 1e-9, off + OUT_OF_RANGE, off)
    return off  # type: ignore[no-any-return]


@dataclass
class _Move:
    """One move being chosen by the move order: who moves, from where, and its end points.

    ``threat`` is the enemy the end points are judged against (the closest with line of sight,
    else by route); ``base_mask`` the end points in coherency (None when none is); ``slack``
    how much worse than the best a point may score and still be chosen for its cover."""

    ctx: Context
    op: Operative
    start: tuple[float, float]
    kind: str
    codes: dict[str, str]
    board: WorkingBoard
    enemies: list[Operative]
    mates: list[tuple[float, float, float]]
    allowance: float
    near: list[tuple[float, Operative]]
    threat: Operative
    cand: _Candidates
    base_mask: np.ndarray | None
    slack: float


@dataclass
class _Scored:
    """The move order's scores of the end points (lower is better), the reason in words and the
    enemy they were measured from; for hold / to firing range also the distance, the enemy's
    index and whether it is in sight, at each point (``hold``)."""

    scores: np.ndarray
    reason: str
    threat: Operative
    hold: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None


def move_by_order(ctx: Context, state: State, unit: Unit, op: Operative,
                  start: tuple[float, float], kind: str, codes: dict[str, str], board: WorkingBoard,
                  enemies: list[Operative], mates: list[tuple[float, float, float]],
                  allowance: float | None = None) -> Action | None:
    """The end point of one move (reposition, dash or 2018 normal move) by the move order;
    ``allowance``: the movement left of a move that opened a door or hatch on its way (its
    rest), else the move's own."""
    if allowance is None:
        allowance = move_allowance(op, kind, ctx.edition)
    if allowance <= 0:
        return None
    near = nearest_targets(ctx, start, op.radius, enemies, board.pos)
    if not near:
        return None
    closest = _closest_enemy(ctx, op, start, enemies, board)
    threat = closest[1] if closest is not None else near[0][1]
    if stays_put(ctx, op, start, codes, board, enemies, mates, threat):
        return None  # (the answer below, found without the end points)
    cand = candidate_points(ctx, op, start, allowance, board, kind=kind)
    if len(cand.points) <= 1:
        return None
    base_mask, slack = _coherence_and_slack(ctx, op, cand.points, codes, mates)
    move = _Move(ctx, op, start, kind, codes, board, enemies, mates, allowance, near, threat,
                 cand, base_mask, slack)
    scored = _score_by_order(move)
    if not isinstance(scored, _Scored):
        return scored  # the order decided without a choice among scores (None: no move)
    return _choose_end(move, scored)


def no_move_reason(ctx: Context, state: State, unit: Unit, op: Operative,
                   start: tuple[float, float], kind: str, codes: dict[str, str],
                   board: WorkingBoard, enemies: list[Operative],
                   mates: list[tuple[float, float, float]]) -> str | None:
    """Why :func:`move_by_order` makes no move of ``kind`` from ``start``, in the words the
    plan tells the players: no room, or no point serving the order better (the same words
    with the planner's fast paths on or off); None when the order never moves (Remain
    stationary) or no enemy is on the table (said elsewhere)."""
    if codes["move"] == "remain_stationary":
        return None
    if move_allowance(op, kind, ctx.edition) <= 0:
        return "it has no movement to make"
    near = nearest_targets(ctx, start, op.radius, enemies, board.pos)
    if not near:
        return None
    cand = candidate_points(ctx, op, start, move_allowance(op, kind, ctx.edition), board,
                            kind=kind)
    if len(cand.points) <= 1:
        return ("it has no room to move: every point within its move is taken by a wall, "
                "terrain or another model's base")
    return "no point its move reaches serves its order better than where it stands"


def _coherence_and_slack(ctx: Context, op: Operative, pts: np.ndarray, codes: dict[str, str],
                         mates: list[tuple[float, float, float]]
                         ) -> tuple[np.ndarray | None, float]:
    """The end points in coherency (None: all of them, when none is), and how much worse than
    the best a point may score and still be chosen for its cover: only the scores of points
    that could be chosen are worked out exactly (lazy_scores)."""
    coherent = _coherent(pts, mates, op.radius, ctx.settings.coherency)
    base_mask = coherent if coherent.any() else None
    slack = (float(ctx.settings.cover_detour) if codes["cover"] == "use_if_possible"
             and codes["move"] not in ("to_cover", "to_cover_firing_line") else 0.0)
    return base_mask, slack


def _score_by_order(m: _Move) -> _Scored | Action | None:
    """The end points scored by the move order; or, when the order decides without scores, its
    move (None: no move)."""
    move_code = m.codes["move"]
    if move_code == "towards_closest_enemy":
        return _score_towards(m)
    if move_code in ("hold_12", "to_firing_range"):
        return _score_hold(m)
    if move_code in ("to_cover", "to_cover_firing_line"):
        return _score_cover(m)
    return None  # remain_stationary


def _score_towards(m: _Move) -> _Scored:
    """Towards the closest enemy (with line of sight, else by route): the distance to it around
    the walls, never ending inside its control range."""
    ctx, op, pts = m.ctx, m.op, m.cand.points
    vis = _ids_visible(ctx, op, m.start, m.enemies, m.board)
    seen = [(d, t) for d, t in m.near if t.id in vis]
    target = seen[0] if seen else m.near[0]
    tp = m.board.pos[target[1].id]
    t_radius = target[1].radius

    def towards(idx: np.ndarray) -> np.ndarray:
        d = ctx.terrain.routes.distances(tp, t_radius, pts[idx], op.radius)
        d = np.where(np.isfinite(d), d, 1e9)
        # never end inside the enemy's control range without a charge
        return np.where(d < CONTROL_RANGE + 1e-6, 1e9, d)

    straight = np.hypot(pts[:, 0] - tp[0], pts[:, 1] - tp[1]) - t_radius - op.radius
    scores = lazy_scores(np.maximum(0.0, straight), towards, m.base_mask, m.slack)
    reason = (f"towards {target[1].label} (the closest enemy"
              f"{' with line of sight' if target[1].id in vis else ''})")
    return _Scored(scores, reason, target[1])


def _score_hold(m: _Move) -> _Scored | None:
    """Hold 12" / to firing range: how far the distance to the closest enemy (:func:`_hold_measure`)
    is from the distance wanted. None when the start already holds it."""
    ctx, op, pts, enemies, board = m.ctx, m.op, m.cand.points, m.enemies, m.board
    want = _hold_distance(ctx, op, m.codes)
    d_star = np.full(len(pts), np.inf)
    who = np.zeros(len(pts), dtype=int)
    seen_at = np.zeros(len(pts), dtype=bool)

    def holding(idx: np.ndarray) -> np.ndarray:
        d_star[idx], who[idx], seen_at[idx] = _hold_measure(ctx, pts[idx], op.radius,
                                                            enemies, board)
        return _hold_score(d_star[idx], seen_at[idx], want,
                           m.codes["move"] == "to_firing_range")

    # the measured enemy is one of them, so no nearer than the nearest in a straight line
    ep = np.array([board.pos[e.id] for e in enemies], dtype=float)
    er = np.array([e.radius for e in enemies], dtype=float)
    gap = (np.hypot(pts[:, None, 0] - ep[None, :, 0], pts[:, None, 1] - ep[None, :, 1])
           - er[None, :]).min(axis=1) - op.radius
    bound = np.maximum(0.0, gap - want) if math.isfinite(want) else np.zeros(len(pts))
    # every point within HOLD_TOLERANCE of the best is scored: the cheapest of them is taken
    scores = lazy_scores(bound, holding, m.base_mask, max(m.slack, HOLD_TOLERANCE))
    if scores[0] <= HOLD_TOLERANCE:
        return None  # already holding: no move improves the order
    reason = (f"to keep {inches(want)} from the closest enemy" if math.isfinite(want) else
              "to get the closest enemy in its line of fire (its weapons reach any visible "
              "target)")
    return _Scored(scores, reason, enemies[int(who[0])], (d_star, who, seen_at))


def _score_cover(m: _Move) -> _Scored | Action | None:
    """To cover (the cheapest protected point, looked for nearest first) / to cover with the
    best firing line: a protected point scores its cost (less 100 a firing line), the others
    1e6 more; with no protected point within this move, a move towards one further away."""
    ctx, op, pts, cost = m.ctx, m.op, m.cand.points, m.cand.cost
    threat, board, move_code = m.threat, m.board, m.codes["move"]
    if move_code == "to_cover":
        # the choice is the cheapest protected point: look for it nearest first
        coherent = _coherent(pts, m.mates, op.radius, ctx.settings.coherency)
        first = _first_in_cover(ctx, pts, cost, op.radius, threat, board.pos,
                                coherent if coherent.any() else None)
        if first is not None:
            prot0 = cover_levels(ctx, pts[:1], op.radius, threat, board.pos)[0] >= IN_COVER
            score0 = cost[0] if prot0 else 1e6 + cost[0]
            if score0 - cost[first] < MIN_GAIN:
                return None
            return _finish_move(ctx, op, m.start, m.kind, m.cand, first, board, threat,
                                move_code, f"to the nearest cover from {threat.label}", "",
                                None)
    prot = cover_levels(ctx, pts, op.radius, threat, board.pos) >= IN_COVER
    if move_code == "to_cover_firing_line":
        best_range = op.profile.longest_range or 0.0
        # firing lines count only at protected points (the others score 1e6 + cost);
        # never a batch of one point (the geometry's single-point path)
        lines = np.zeros(len(pts), dtype=int)
        safe = np.flatnonzero(prot)
        if len(safe):
            ask = safe if len(safe) > 1 else np.r_[safe, safe]
            lines[safe] = firing_lines(ctx, pts[ask], op.radius, best_range, m.enemies,
                                       board.pos)[:len(safe)]
        scores = np.where(prot, -lines.astype(float) * 100 + cost, 1e6 + cost)
        reason = "to cover with the best firing line"
    else:
        scores = np.where(prot, cost, 1e6 + cost)
        reason = f"to the nearest cover from {threat.label}"
    if not prot.any():
        # no cover within this move: head for the nearest protected point further away
        return _towards_far_cover(m)
    return _Scored(scores, reason, threat)


def _towards_far_cover(m: _Move) -> Action | None:
    """No cover within this move: as far as the move allows towards the cheapest point in cover
    from the threat within three moves (at least 18"). None when there is none."""
    ctx, op, start, kind, threat = m.ctx, m.op, m.start, m.kind, m.threat
    far = candidate_points(ctx, op, start, max(m.allowance * 3, 18.0), m.board, spacing=1.0)
    if len(far.points):
        # the cheapest point in cover, asking cover of the cheapest first
        j = pick_where(far.cost, far.cost, far.points, None, lambda idx: cover_levels(
            ctx, far.points[idx], op.radius, threat, m.board.pos) >= IN_COVER, chunk=16)
        if j is not None:
            # as far along the walk as the move allows and its base may stand (the placement
            # rule: never on another base)
            stop = placement.along(ctx.terrain, far.reach.path(j), m.allowance, op.radius,
                                   m.board.bases(op.id))
            if stop is None or np.hypot(stop.at[0] - start[0], stop.at[1] - start[1]) < 1e-6:
                return None
            end, spent, route = stop.at, stop.walk.cost, stop.walk.points
            return Action(kind, op.id, start=start, to=end, route=route, cost=spent,
                          note=f"{op.label} {_verb(kind)} {cost_inches(spent)} to "
                               f"{fmt_pt(end)}, heading for cover from {threat.label} "
                               f"at {fmt_pt(far.points[j])} (out of reach this move).")
    return None


def _choose_end(m: _Move, scored: _Scored) -> Action | None:
    """The move to the best-scored end point (in coherency when any is), when it improves on
    staying put by ``MIN_GAIN``; "Use cover if possible" may take a protected one instead."""
    scores, cost, pts = scored.scores, m.cand.cost, m.cand.points
    move_code = m.codes["move"]
    i = pick(scores, cost, pts, m.base_mask)
    if i is not None and move_code in ("hold_12", "to_firing_range"):
        straight = _straight_hold(m, scored, float(scores[i]))
        if straight is not None:
            return straight
        # every point holding as well (within HOLD_TOLERANCE of the best) serves the order
        # alike: the nearest of them is taken, so the model goes straight (003 "A unit that
        # ignores cover will travel in a straight line towards the enemy"), never around an
        # arc of equal distances for a few hundredths of an inch
        ok = scores <= scores[i] + HOLD_TOLERANCE
        i = pick(cost, cost, pts, ok if m.base_mask is None else ok & m.base_mask)
    if i is None or scores[0] - scores[i] < MIN_GAIN:
        return None  # no end point serves the move order better than staying put
    cover_note = ""
    if m.codes["cover"] == "use_if_possible" and move_code not in ("to_cover",
                                                                   "to_cover_firing_line"):
        i, cover_note = _cover_detour(m, scored, i)
    hold = None
    if move_code in ("hold_12", "to_firing_range"):
        assert scored.hold is not None
        d_star, who, seen_at = scored.hold
        hold = (float(d_star[i]), m.enemies[int(who[i])], bool(seen_at[i]))
    return _finish_move(m.ctx, m.op, m.start, m.kind, m.cand, i, m.board, scored.threat,
                        move_code, scored.reason, cover_note, hold)


def _straight_hold(m: _Move, scored: _Scored, best: float) -> Action | None:
    """Hold 12" / To firing range with Cover: Ignore: the point straight towards (or away
    from) the enemy measured at the start, at the distance wanted (or as far as the move
    allows), when a straight walk reaches it and it holds as well as the best end point of
    the grid (within ``HOLD_TOLERANCE``): 003 "A unit that ignores cover will travel in a
    straight line towards the enemy". None otherwise (the grid's choice stands)."""
    if m.codes["cover"] != "ignore" or scored.hold is None:
        return None
    d_star, who, _ = scored.hold
    want = _hold_distance(m.ctx, m.op, m.codes)
    d0 = float(d_star[0])
    if not (math.isfinite(want) and math.isfinite(d0)):
        return None
    enemy = m.enemies[int(who[0])]
    ex, ey = m.board.pos[enemy.id]
    sx, sy = m.start
    length = math.hypot(ex - sx, ey - sy)
    step = min(abs(d0 - want), m.allowance)
    if length <= 1e-9 or step < MIN_GAIN:
        return None
    sign = 1.0 if d0 > want else -1.0  # towards the enemy, or away from it
    end = (sx + sign * (ex - sx) / length * step, sy + sign * (ey - sy) / length * step)
    blockers = [(p[0], p[1], m.board.state.operatives[i].radius
                 + (CONTROL_RANGE if m.board.state.operatives[i].side != m.op.side else 0.0))
                for i, p in m.board.pos.items() if i != m.op.id]
    walk = m.ctx.terrain.routes.walk(m.start, end, m.op.radius, blockers=blockers)
    if walk is None or walk.length > step + 1e-6 or walk.cost > m.allowance + 1e-6:
        return None  # not a straight walk, or dearer than the move (terrain)
    if m.base_mask is not None and not _coherent(np.array([end]), m.mates, m.op.radius,
                                                 m.ctx.settings.coherency)[0]:
        return None
    got, at, seen = _hold_measure(m.ctx, np.array([end, end]), m.op.radius, m.enemies, m.board)
    score = float(_hold_score(got[:1], seen[:1], want, m.codes["move"] == "to_firing_range")[0])
    if score > best + HOLD_TOLERANCE or float(scored.scores[0]) - score < MIN_GAIN:
        return None
    reason = (f"{scored.reason}, straight {'towards' if sign > 0 else 'away from'} "
              f"{enemy.label}")
    tail = (f" It ends {inches(float(got[0]))} from {m.enemies[int(at[0])].label}, the "
            "closest enemy "
            f"{'it can see there' if seen[0] else 'by route (none is in sight there)'}.")
    note = (f"{m.op.label} {_verb(m.kind)} {cost_inches(walk.cost)} {reason}, to "
            f"{fmt_pt(end)}.{tail}")
    return Action(m.kind, m.op.id, start=m.start, to=end,
                  route=tuple((float(x), float(y)) for x, y in walk.points),
                  cost=float(walk.cost), note=note,
                  told=(reason, tail, "") if m.kind == "advance" else None)


def _cover_detour(m: _Move, scored: _Scored, i: int) -> tuple[int, str]:
    """"Use cover if possible": the best end point in cover from (or hidden from) the threat --
    obscured alone is not cover, as for "To cover" -- among those scoring
    at most ``settings.cover_detour`` worse than ``i`` and still serving the order better
    than staying put by ``MIN_GAIN`` (003 "move to cover while still moving in the general
    direction of its movement orders": a detour never ends the move farther from what the
    order wants than its start), in coherency when any is; ``i`` when none is protected; and
    the words for it."""
    ctx, scores, cost, pts = m.ctx, scored.scores, m.cand.cost, m.cand.points
    cover_note = ""
    ok = (scores <= scores[i] + ctx.settings.cover_detour) & (scores <= scores[0] - MIN_GAIN)
    if m.base_mask is not None:
        ok &= m.base_mask
    # cover matters only where the detour is acceptable; asked best point first
    j = pick_where(scores, cost, pts, ok,
                   _in_cover_all(ctx, pts, m.op.radius, [scored.threat], m.board.pos))
    if j is not None:
        if j != i:
            cover_note = cover_detour_words(float(scores[j] - scores[i]),
                                            ctx.settings.cover_detour)
        else:
            cover_note = " The best point is already in cover."
        i = j
    return i, cover_note


def cover_detour_words(loss: float, accepts: float) -> str:
    """The explanation's words for a point in cover taken instead of the best point ("Use
    cover if possible", :func:`_cover_detour`): what it costs the order (``loss``, inches of
    score worse than the best point) within the ``accepts`` inches it allows. A loss that
    rounds to nothing (0.0", or a point scoring a hair better: the best point was the
    nearest of several holding as well) is said as no cost, never as a cost of -0.0"."""
    if loss < 0.05:
        return " It takes a point in cover, which serves its order as well as the best point."
    return (f" It uses cover on the way (costs {loss:.1f}\" of progress, within the "
            f"{accepts:g}\" it accepts).")


def stays_put(ctx: Context, op: Operative, start: tuple[float, float], codes: dict[str, str],
              board: WorkingBoard, enemies: list[Operative],
              mates: list[tuple[float, float, float]], threat: Operative) -> bool:
    """Whether :func:`move_by_order` returns no move whatever the end points are, as seen from
    the start alone (which is always candidate 0), so the end points need not be found:

    * hold / to firing range when the start already holds (its score is within
      ``HOLD_TOLERANCE``);
    * to cover when the start is in cover from ``threat`` and in coherency (or no end point
      could be): it is then the cheapest protected candidate, cost 0, and no move gains.

    The start is measured as a batch of two copies of itself, as in the batch of all end
    points (the geometry answers each point of a batch alike)."""
    move_code = codes["move"]
    here = np.array([start, start], dtype=float)
    if move_code in ("hold_12", "to_firing_range"):
        d_star, _, seen = _hold_measure(ctx, here, op.radius, enemies, board)
        want = _hold_distance(ctx, op, codes)
        return bool(_hold_score(d_star[:1], seen[:1], want, move_code == "to_firing_range")[0]
                    <= HOLD_TOLERANCE)
    if move_code == "to_cover":
        if not _coherent(here[:1], mates, op.radius, ctx.settings.coherency)[0]:
            return False
        return bool(cover_levels(ctx, here[:1], op.radius, threat, board.pos)[0] >= IN_COVER)
    return False


BLOCKED_SHORT = 1.0
"""A move towards the enemy this much (inches) short of its allowance, whose way around the
walls alone runs into another base, says what blocks it (issue #27)."""


def _blocked_words(ctx: Context, op: Operative, start: tuple[float, float], kind: str,
                   spent: float, board: WorkingBoard, goal: Operative) -> str:
    """`` Its way to Sgt Kell is blocked by cultist-3's base at (12.0, 4.5): it moves 1.2" of
    its 6.0".`` when the move falls :data:`BLOCKED_SHORT` short of its allowance and the way
    around the walls alone (no bases) runs into another model within the allowance; else
    empty."""
    allowance = move_allowance(op, kind, ctx.edition)
    if spent > allowance - BLOCKED_SHORT:
        return ""
    free = ctx.terrain.routes.walk(start, board.pos[goal.id], op.radius)
    if free is None:
        return ""
    # only as far as the model could go before reaching the goal's control range
    reach_to = min(allowance, free.cost - op.radius - goal.radius - CONTROL_RANGE)
    others = [b for b in board.labelled(op.id) if b.ident != goal.id]
    hit = placement.first_in_the_way(ctx.terrain, free, reach_to, op.radius, others)
    if hit is None:
        return ""
    return (f" Its way to {goal.label} is blocked by {hit.label}'s base at "
            f"{fmt_pt((hit.x, hit.y))}: it moves {cost_inches(spent)} of its {inches(allowance)}.")


def _finish_move(ctx: Context, op: Operative, start: tuple[float, float], kind: str,
                 cand: _Candidates, i: int, board: WorkingBoard, threat: Operative, move_code: str,
                 reason: str, cover_note: str, hold: tuple[float, Operative, bool] | None
                 ) -> Action | None:
    """The move to candidate ``i`` chosen by :func:`move_by_order`, with its explanation
    (``hold``: the distance, enemy and sight at the end for hold / to firing range)."""
    pts, cost = cand.points, cand.cost
    end = (float(pts[i][0]), float(pts[i][1]))
    if np.hypot(end[0] - start[0], end[1] - start[1]) < 0.05:
        return None
    walk = cand.reach.path(i)
    route = tuple((float(x), float(y)) for x, y in walk.points)
    spent = float(cost[i])
    extra = ""
    if move_code in ("to_cover", "to_cover_firing_line"):
        extra = _cover_words(int(cover_levels(ctx, np.array([end]), op.radius, threat,
                                              board.pos)[0]), threat)
    elif hold is not None:
        extra = (f" It ends {inches(hold[0])} from {hold[1].label}, the "
                 + ("closest enemy it can see there." if hold[2] else
                    "closest enemy by route (none is in sight there)."))
    elif move_code == "towards_closest_enemy":
        dd = _route_distance(ctx, end, board.pos[threat.id], op.radius, threat.radius)
        extra = f" It ends {inches(dd)} from {threat.label}." + (_blocked_words(
            ctx, op, start, kind, spent, board, threat) if ctx.words else "")
    note = (f"{op.label} {_verb(kind)} {cost_inches(spent)} {reason}, to {fmt_pt(end)}.{extra}"
            f"{cover_note}")
    return Action(kind, op.id, start=start, to=end, route=route, cost=spent, note=note,
                  told=(reason, extra + cover_note, "") if kind == "advance" else None)
