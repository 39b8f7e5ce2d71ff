"""Allies first: answering a rally, or grouping with a leader, and moving to join it.

``_ally_pull`` finds the ally the unit must join this activation (a same-type rallying unit of
higher command whose radius it is in, else a leader whose radius it is in, when its order is to
group with leaders); ``_join_ally`` moves a model into coherency with that unit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from solo_ops.ai.candidates import LAZY_MARGIN, candidate_points, lazy_scores, pick
from solo_ops.ai.context import (
    Action,
    Context,
    Plan,
    WorkingBoard,
    _route_distance,
    move_allowance,
)
from solo_ops.ai.explain import _verb, fmt_pt, inches
from solo_ops.core.tables import TroopType, order_table
from solo_ops.game.state import Operative, State, Unit
from solo_ops.rules.orders import command_radius


@dataclass
class _Pull:
    """An ally the unit must join this activation (rally or group with leaders)."""

    unit: Unit
    reason: str
    trigger: str  # "group" or "rally"


def unit_gap(ctx: Context, board: WorkingBoard, state: State, mine: list[Any], radius: float,
             other: Unit, limit: float = math.inf) -> float | None:
    """The shortest route between any of ``mine`` (points of bases of ``radius``) and any model
    of ``other`` on the board (inf when walls close every way; None when it has no model).
    Only a route of at most ``limit`` matters to the caller: when every straight line between
    the bases is already longer, it is inf without asking the routes (a route is never
    shorter than the straight line)."""
    theirs = [(board.pos[m], state.operatives[m].radius) for m in other.models
              if m in board.pos]
    if not theirs:
        return None
    if math.isfinite(limit) and min(math.dist(p, q) - radius - r for p in mine
                                    for q, r in theirs) > limit + LAZY_MARGIN:
        return math.inf
    best = math.inf
    for p in mine:
        for q, r in theirs:
            d = _route_distance(ctx, p, q, radius, r)
            if d is not None and d < best:  # (a distance of 0.0 is a real distance)
                best = d
    return best


def _ally_pull(ctx: Context, state: State, unit: Unit, board: WorkingBoard) -> _Pull | None:
    """Rally first (a same-type rallying unit with higher command whose radius we are in), then
    "Group with leaders" (a unit with higher Leadership whose radius we are in)."""
    mine = [board.pos[m] for m in unit.models if m in board.pos]
    if not mine:
        return None
    radius = state.operatives[unit.models[0]].radius
    candidates: list[tuple[float, str, _Pull]] = []
    for other in state.active_units():
        if other.id == unit.id or other.fsm == "hidden":
            continue
        other_order = order_table(other.troop)[other.command].codes()
        if not (other_order["allies"] == "rally" and other.troop == unit.troop
                and other.command > unit.command):
            continue  # (the order first: the route is asked only of a unit that rallies)
        reach = command_radius(other.leadership)
        dist = unit_gap(ctx, board, state, mine, radius, other, reach)
        if dist is None:
            continue
        if dist <= reach:
            candidates.append((0.0 + dist, other.id, _Pull(
                other, f"{other.id} rallies lower-command {TroopType(unit.troop).title} units "
                       f"within its command radius ({inches(reach)}); {unit.id} is "
                       f"{inches(dist)} away and answers", "rally")))
    if not candidates:
        own = order_table(unit.troop)[unit.command].codes()
        if own["allies"] == "group_with_leaders":
            for other in state.active_units():
                if other.id == unit.id or other.fsm == "hidden":
                    continue
                if other.leadership <= unit.leadership:
                    continue
                reach = command_radius(other.leadership)
                dist = unit_gap(ctx, board, state, mine, radius, other, reach)
                if dist is None:
                    continue
                if dist <= reach:
                    candidates.append((100.0 + dist, other.id, _Pull(
                        other, f"{other.id} is a leader (Leadership {other.leadership} against "
                               f"{unit.leadership}) and {unit.id} is inside its command radius "
                               f"({inches(dist)} of {inches(reach)}): it groups with it",
                        "group")))
    if not candidates:
        return None
    candidates.sort(key=lambda c: (c[0], c[1]))
    return candidates[0][2]


def _straight_score(pts: np.ndarray, mates: list[tuple[float, float, float]], radius: float,
                    coherency: float) -> np.ndarray:
    """A lower bound of :func:`_join_ally`'s score at each point: the same gap measured in a
    straight line, which is never longer than the way around the walls."""
    gap = np.full(len(pts), np.inf)
    for x, y, r in mates:
        gap = np.minimum(gap, np.hypot(pts[:, 0] - x, pts[:, 1] - y) - r - radius)
    return np.maximum(gap - coherency, 0.0)  # type: ignore[no-any-return]


def joined_already(start_score: float) -> bool:
    """Whether :func:`_join_ally` stays where it is without finding its end points: the start
    scores 0 (in coherency with the ally) at cost 0, so no other candidate can beat it."""
    return start_score <= 0.0


def _join_ally(ctx: Context, state: State, op: Operative, start: tuple[float, float],
               board: WorkingBoard, pull: _Pull, plan: Plan, edition: str) -> bool:
    """Move into coherency with the ally unit's nearest model. Returns whether it moved."""
    theirs = [m for m in pull.unit.models if m in board.pos]
    mates = [(board.pos[m][0], board.pos[m][1], state.operatives[m].radius) for m in theirs]
    kind = "reposition" if edition == "kt2024" else "normal"
    allowance = move_allowance(op, kind, edition)

    def score(pts: np.ndarray) -> np.ndarray:
        """How far each point is from coherency with the ally's nearest model, measured along
        the routes around walls (003 "Allies": a unit moves "to join" the leader or rallier,
        so a point beside it across a wall is no nearer)."""
        gap = np.full(len(pts), np.inf)
        for x, y, r in mates:
            d = np.asarray(ctx.terrain.routes.distances((x, y), r, pts, op.radius), dtype=float)
            gap = np.minimum(gap, d)
        return np.maximum(gap - ctx.settings.coherency, 0.0)

    here = np.array([start], dtype=float)
    if joined_already(score(here)[0]):
        # already in coherency: the start (score 0, cost 0, always candidate 0) is the choice
        pts, scores, cost = here, np.zeros(1), np.zeros(1)
        cand = None
    else:
        cand = candidate_points(ctx, op, start, allowance, board)
        pts = np.asarray(cand.points, dtype=float)
        if len(pts) == 0:
            return False
        # only the points a straight line leaves a chance are measured around the walls
        scores = lazy_scores(_straight_score(pts, mates, op.radius, ctx.settings.coherency),
                             lambda idx: score(pts[idx]), None, 0.0)
        cost = np.asarray(cand.cost, dtype=float)
    i = pick(scores, cost, pts)
    assert i is not None
    end = (float(pts[i][0]), float(pts[i][1]))
    if len(plan.explain) < 4 or pull.reason not in plan.explain:
        plan.explain.append(pull.reason + ".")
    if np.hypot(end[0] - start[0], end[1] - start[1]) < 0.05:
        return False
    assert cand is not None  # (a move away from the start: the end points were found)
    walk = cand.reach.path(i)
    plan.actions.append(Action(kind, op.id, start=start, to=end, route=tuple(walk.points),
                               cost=float(cand.cost[i]),
                               note=f"{op.label} {_verb(kind)} to {fmt_pt(end)} to join "
                                    f"{pull.unit.id}."))
    plan.explain.append(plan.actions[-1].note)
    board.pos[op.id] = end
    return True
