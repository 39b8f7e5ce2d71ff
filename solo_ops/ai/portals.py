"""Doors and hatches: opening a closed one in the way, and fighting across one.

``_open_the_way`` is Operate Hatch (Gallowdark) / opening a door: when a closed portal stands
between a model and its goal (``closed_way``), it moves to it (``_move_to_portal``) and opens
it by the players' rule (:func:`solo_ops.rules.portals.operate`). ``_portal_fight`` is Door
Fight (Volkus) / Hatchway Fight (Gallowdark): fighting an enemy within 2" beyond a door or an
open hatchway the model touches.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from solo_ops.ai.candidates import candidate_points, pick
from solo_ops.ai.context import (
    CONTROL_RANGE,
    Action,
    Context,
    Plan,
    WorkingBoard,
    answer_memo,
    in_control_range,
    move_allowance,
    nearest_targets,
)
from solo_ops.ai.explain import _portal_word, _verb, cost_inches, fmt_pt, inches
from solo_ops.game.state import Operative
from solo_ops.geometry import placement
from solo_ops.rules import portals, reach

PORTAL_SHORTCUT = 6.0  # a closed door/hatch is opened when it saves at least this much route
PORTAL_TOUCH = portals.TOUCH  # a base within this of a door or hatch touches it
PORTAL_FIGHT_REACH = portals.FIGHT_REACH  # Door / Hatchway Fight: within 2" of the other side


gap_to_feature = portals.gap_to
side_of = portals.side_of


def feature_gap(ctx: Context, feature: Any, point: Sequence[float], radius: float) -> float:
    """:func:`gap_to_feature` through the terrain's answer cache (a door or hatch of one
    terrain by its id, the point by its exact coordinates): each model of an activation asks
    about every portal and every enemy, and the enemies stand still while it plans."""
    key = ("gap", feature.id, float(point[0]), float(point[1]))
    memo = answer_memo(ctx)
    raw = memo.get(key)
    if raw is None:
        raw = memo[key] = gap_to_feature(feature, point, 0.0)
    return raw - radius  # type: ignore[no-any-return]


def beside(feature: Any, side: int, radius: float, off: float) -> tuple[float, float] | None:
    """A base centre on ``side`` of a line door/hatch, facing its middle, its edge ``off``
    inches from it (None for a door or hatch drawn as a polygon)."""
    from shapely.geometry import LineString

    if not isinstance(feature.shape, LineString):
        return None
    (x0, y0), (x1, y1) = feature.shape.coords[0], feature.shape.coords[-1]
    length = math.hypot(x1 - x0, y1 - y0)
    if length < 1e-9:
        return None
    nx, ny = -(y1 - y0) / length, (x1 - x0) / length  # the normal pointing to side +1
    mx, my = (x0 + x1) / 2.0, (y0 + y1) / 2.0
    d = (radius + off) * side
    return (mx + nx * d, my + ny * d)


@dataclass
class _Way:
    """A closed door or hatch a model means to open: the portal, the enemy beyond, the
    distance to it now (None: no route at all) and with the doors open, and a point of the
    open-doors route on the model's side of the portal."""

    portal: Any
    goal: Operative
    now: float | None
    opened: float
    before: tuple[float, float]

    def why(self) -> str:
        if self.now is None:
            return f"the only way to {self.goal.label} is through it"
        return (f"it shortens the way to {self.goal.label} from {inches(self.now)} to "
                f"{inches(self.opened)}")


def closed_way(ctx: Context, op: Operative, start: tuple[float, float], board: WorkingBoard,
               enemies: list[Operative], codes: dict[str, str]) -> _Way | None:
    """The closed door or hatch to open, when the model's goal (the closest enemy by the
    open-doors route) cannot be reached with the doors as they are, or only by a route at
    least ``PORTAL_SHORTCUT`` longer. The portal is the first closed one that the open-doors
    route to that enemy passes. To-cover and stationary orders never open the way (a sealed
    room is cover enough); hold / to firing range orders only when sealed off."""
    from shapely.geometry import LineString, Point

    if ctx.terrain_for is None or codes["move"] in (
            "remain_stationary", "to_cover", "to_cover_firing_line"):
        return None
    if not any(not f.open for f in ctx.terrain.board.portals()):
        return None
    if no_shortcut(ctx, op, start, board, enemies, codes):
        return None  # (the answer below, without the open-doors terrain)
    octx = ctx.all_open()
    near_open = nearest_targets(octx, start, op.radius, enemies, board.pos)
    if not near_open or not math.isfinite(near_open[0][0]):
        return None
    opened, goal = near_open[0]
    near_now = nearest_targets(ctx, start, op.radius, enemies, board.pos)
    now = near_now[0][0] if near_now else math.inf
    if math.isfinite(now):
        if codes["move"] in ("hold_12", "to_firing_range"):
            return None
        if now - opened < PORTAL_SHORTCUT - 1e-9:
            return None
    route = octx.terrain.routes.distance(start, board.pos[goal.id], op.radius, goal.radius)
    if route.distance is None or len(route.points) < 2:
        return None
    line = LineString(route.points)
    best: tuple[float, Any] | None = None
    for feature in ctx.terrain.board.portals():
        if feature.open or not line.intersects(feature.shape):
            continue
        cross = line.intersection(feature.shape)
        pt = cross.representative_point()
        ends = feature.shape.boundary
        if not ends.is_empty and ends.distance(pt) < 0.02 and line.distance(
                feature.shape.centroid) > 0.5:
            continue  # only grazes an end of it (a wall corner), does not go through
        at = line.project(pt)
        if best is None or at < best[0]:
            best = (at, feature)
    if best is None:
        return None
    before = line.interpolate(max(0.0, best[0] - 0.5))
    if Point(before.x, before.y).distance(best[1].shape) < 1e-6:
        before = Point(start)
    return _Way(best[1], goal, None if not math.isfinite(now) else now, opened,
                (float(before.x), float(before.y)))


def no_shortcut(ctx: Context, op: Operative, start: tuple[float, float], board: WorkingBoard,
                enemies: list[Operative], codes: dict[str, str]) -> bool:
    """Whether :func:`closed_way` returns None whatever the open-doors routes are, as seen
    from the routes as the doors stand: some enemy has a route now (``now`` finite) and either
    the order holds a distance (never opens a way it has) or no open-doors route can save
    ``PORTAL_SHORTCUT``: an open-doors route to any enemy is never shorter than the straight
    line to the nearest, so ``now - opened <= now - straight`` (1e-6 to spare for rounding)."""
    near_now = nearest_targets(ctx, start, op.radius, enemies, board.pos)
    now = near_now[0][0] if near_now else math.inf
    if not math.isfinite(now):
        return False
    if codes["move"] in ("hold_12", "to_firing_range"):
        return True
    straight = min(reach.straight_gap(start, op.radius, board.pos[e.id], e.radius)
                   for e in enemies)
    return now - (max(0.0, straight) - 1e-6) < PORTAL_SHORTCUT - 1e-9 - 1e-6


def _move_to_portal(ctx: Context, op: Operative, here: tuple[float, float], way: _Way,
                    kind: str, board: WorkingBoard) -> Action | None:
    """One move (``kind``) towards a point beside ``way.portal`` on the model's side, within
    its control range; as far as the move allows when it is farther (on the terrain that
    kind of move walks: a Dash climbs nothing)."""
    ctx = ctx.for_move(kind)
    allowance = move_allowance(op, kind, ctx.edition)
    if allowance <= 0:
        return None
    blockers = []
    for oid, p in board.pos.items():
        if oid == op.id:
            continue
        other = board.state.operatives[oid]
        extra = CONTROL_RANGE if other.side != op.side else 0.0
        blockers.append((p[0], p[1], other.radius + extra))
    blockers += board.fixed  # the downed and the counters (the placement rule)
    bases = board.bases(op.id)
    side = side_of(way.portal, way.before) if beside(way.portal, 1, 0, 0) else 0
    goal = beside(way.portal, side, op.radius, 0.3) if side else None
    walk = None
    if goal is not None and placement.is_legal(ctx.terrain, goal, op.radius, bases):
        walk = ctx.terrain.routes.walk(here, goal, op.radius, blockers=blockers)
    if walk is None:  # no tidy spot beside it: the cheapest reachable point in its control range
        cand = candidate_points(ctx, op, here, allowance, board)
        pts = cand.points
        if len(pts) == 0:
            return None
        gaps = np.array([gap_to_feature(way.portal, p, op.radius) for p in pts])
        ok = gaps <= CONTROL_RANGE - 0.05
        if not ok.any():
            return None
        i = pick(cand.cost, cand.cost, pts, ok)
        assert i is not None
        walk = cand.reach.path(i)
    stop = placement.along(ctx.terrain, walk, allowance, op.radius, bases)
    if stop is None:
        return None
    end, spent = stop.at, stop.walk.cost
    if math.hypot(end[0] - here[0], end[1] - here[1]) < 0.05:
        return None
    reach = "to" if gap_to_feature(way.portal, end, op.radius) <= CONTROL_RANGE else "towards"
    return Action(kind, op.id, start=here, to=end, route=stop.walk.points, cost=float(spent),
                  note=f"{op.label} {_verb(kind)} {cost_inches(float(spent))} {reach} "
                       f"{way.portal.id} to open it, to {fmt_pt(end)}.")


def _open_the_way(ctx: Context, op: Operative, board: WorkingBoard, enemies: list[Operative],
                  codes: dict[str, str], ap: int, plan: Plan
                  ) -> tuple[Context, int, set[str], bool, bool]:
    """Operate Hatch (Gallowdark) / open a door: when a closed portal stands between the model
    and its goal (:func:`closed_way`), move to within its control range and open it, by the
    players' rule (:func:`solo_ops.rules.portals.operate`): 1 AP in Kill Team 2024 (after a
    Reposition or Dash too), none in a 2018 movement phase. Not while the model or the portal
    is within an enemy's control range.

    Returns the context after it (the new door state when opened), the AP left, the move
    kinds used, whether it moved, and whether it opened the portal."""
    here = board.pos[op.id]
    way = closed_way(ctx, op, here, board, enemies, codes)
    if way is None:
        return ctx, ap, set(), False, False
    portal = way.portal
    word = _portal_word(portal)
    guarded = [e for e in enemies
               if feature_gap(ctx, portal, board.pos[e.id], e.radius) <= CONTROL_RANGE + 1e-9]
    if guarded:
        plan.explain.append(
            f"{op.label} would open {portal.id} ({way.why()}), but {guarded[0].label} is within "
            f"1\" of the {word}: it cannot be operated while an enemy is in its control range.")
        return ctx, ap, set(), False, False
    kinds = ["reposition", "dash"] if ctx.edition == "kt2024" else ["normal"]
    used: set[str] = set()
    moved = False
    last: str | None = None
    while True:
        gap = gap_to_feature(portal, here, op.radius)
        if gap <= CONTROL_RANGE + 1e-6:
            # the players' rule too (rules/portals.py): 1 AP in 2024, during a move or not
            verdict = portals.operate(
                ctx.edition, opening=True,
                phase="firefight" if ctx.edition == "kt2024" else "movement", gap=gap,
                in_enemy_control=bool(in_control_range(ctx, here, op.radius, enemies,
                                                       board.pos)),
                portal_guarded=False, word=word)
            if not verdict.ok:
                plan.explain.append(f"{op.label} cannot open {portal.id}: {verdict.why}.")
                return ctx, ap, used, moved, False
            during = last is not None  # part of the move under way: its rest follows
            cost = verdict.cost
            if ap < cost:
                plan.explain.append(f"{op.label} reaches {portal.id} with no AP left to open it "
                                    "(it will next activation).")
                return ctx, ap, used, moved, False
            ap -= cost
            how = (f"during its {(last or '').replace('_', ' ')}, 1 AP" if during and cost
                   else "1 AP" if cost else "in its move")
            action_word = "Operate Hatch" if portal.has("hatch") else "opens the door"
            note = (f"{op.label} opens {portal.id}: {way.why()} ({action_word}, {how}).")
            plan.actions.append(Action("operate_hatch", op.id, portal=portal.id, open=True,
                                       target=None, note=note))
            plan.explain.append(note)
            return ctx.with_open(portal.id), ap, used, moved, True
        kind = next((k for k in kinds if k not in used), None)
        if kind is None or ap <= 0:
            break
        mv = _move_to_portal(ctx, op, here, way, kind, board)
        if mv is None:
            break
        if not moved:
            plan.explain.append(f"{op.label} makes for {portal.id}, a closed {word}: "
                                f"{way.why()}.")
        plan.actions.append(mv)
        plan.explain.append(mv.note)
        board.pos[op.id] = mv.to  # type: ignore[assignment]
        here = mv.to  # type: ignore[assignment]
        used.add(kind)
        moved = True
        last = kind
        ap -= 1 if ctx.edition == "kt2024" else 0
        if ctx.edition != "kt2024":
            used.add("normal")
    if moved:
        plan.explain.append(f"{op.label} does not reach {portal.id} this activation.")
    return ctx, ap, used, moved, False


def _portal_fight(ctx: Context, op: Operative, here: tuple[float, float], board: WorkingBoard,
                  enemies: list[Operative], *, may_move: bool
                  ) -> tuple[Action | None, Action] | None:
    """Door Fight (Volkus) / Hatchway Fight (Gallowdark): touching a door (open or closed) or
    an open hatchway, fight an enemy within 2" of its other side. Not while an enemy on the
    model's side is within its control range (a door: any enemy). With ``may_move`` the model
    may first Reposition to touch it. The target is the enemy nearest the portal (then id);
    the portal the one the model touches now, else the cheapest to reach."""
    best: tuple[tuple[float, float, str], Action | None, Action] | None = None
    for portal in ctx.terrain.board.portals():
        if portal.has("hatch") and not portal.open:
            continue
        if beside(portal, 1, 0, 0) is None:
            continue
        touching = feature_gap(ctx, portal, here, op.radius) <= PORTAL_TOUCH + 1e-9
        mine = side_of(portal, here)
        if not touching and not may_move:
            continue
        foes = []
        for e in enemies:
            ep = board.pos[e.id]
            gap = feature_gap(ctx, portal, ep, e.radius)
            if gap <= PORTAL_FIGHT_REACH + 1e-9 and side_of(portal, ep) not in (0, mine):
                foes.append((gap, e.id, e))
        if not foes or mine == 0:
            continue
        foes.sort(key=lambda f: (f[0], f[1]))
        gap_t, _, target = foes[0]
        move = None
        spot = here
        cost = 0.0
        if not touching:
            spot_c = beside(portal, mine, op.radius, PORTAL_TOUCH / 2)
            if spot_c is None or not placement.is_legal(ctx.terrain, spot_c, op.radius,
                                                        board.bases(op.id)):
                continue
            blockers = [(p[0], p[1], board.state.operatives[i].radius
                         + (CONTROL_RANGE if board.state.operatives[i].side != op.side else 0))
                        for i, p in board.pos.items() if i != op.id] + board.fixed
            walk = ctx.terrain.routes.walk(here, spot_c, op.radius, blockers=blockers)
            allowance = move_allowance(op, "reposition", ctx.edition)
            if walk is None or walk.cost > allowance + 1e-6:
                continue
            spot, cost = spot_c, float(walk.cost)
            move = Action("reposition", op.id, start=here, to=spot,
                          route=tuple(walk.points), cost=cost,
                          note=f"{op.label} repositions {cost_inches(cost)} to {fmt_pt(spot)}, "
                               f"touching {portal.id}.")
        if portals.fight_across(  # the rule a player's fight is judged by
                ctx.terrain, portal, spot, op.radius, board.pos[target.id], target.radius,
                [(board.pos[e.id], e.radius) for e in enemies],
                gap=feature_gap(ctx, portal, spot, op.radius), target_gap=gap_t) is not None:
            continue
        name = portals.fight_name(portal)
        weapon = op.profile.melee_weapons[0].name if op.profile.melee_weapons else None
        fight = Action("fight", op.id, target=target.id, weapon=weapon, portal=portal.id,
                       note=f"{op.label} fights {target.label} across {portal.id} ({name}, 1 AP: "
                            f"it touches the {_portal_word(portal)} and {target.label} is "
                            f"{inches(gap_t)} beyond it).")
        key = (0.0 if touching else 1.0, cost, portal.id)
        if best is None or key < best[0]:
            best = (key, move, fight)
    return None if best is None else (best[1], best[2])
