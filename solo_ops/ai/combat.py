"""Moves into and out of combat: the charge the order allows, and the Fall Back.

``charge_option`` is the charge on the closest visible enemy when the charge order allows it
and the charge move reaches its control range (Kill Team 2018: declared, and rolled by the
engine); ``_fall_back_point`` the Fall Back of a model that is not a melee fighter, out of
control range and as far from the enemy as the move allows.
"""

from __future__ import annotations

import math

import numpy as np

from solo_ops.ai.candidates import held_by_friends, pick, reachable
from solo_ops.ai.context import CONTROL_RANGE, Action, Context, WorkingBoard, move_allowance
from solo_ops.ai.explain import cost_inches, fmt_pt, inches
from solo_ops.game.state import Operative
from solo_ops.geometry import placement
from solo_ops.rules import kt2018, reach

CHARGE_END_MARGIN = 0.05  # a charge ends this far inside control range (rounding of points)
KT2018_CHARGE_REACH = reach.KT2018_CHARGE_MAX  # the most a 2D6 charge roll can cover
CHARGE_LIMIT = {"within_6": 6.0, "within_12": 12.0, "yes": math.inf}


def charge_disc(op: Operative, tp: tuple[float, float], target: Operative
                ) -> tuple[float, float, float]:
    """The disc around ``target`` holding every centre from which ``op`` can be in its control
    range by :func:`reach.control_mask`'s first, straight-line test (with a hair to spare for
    rounding): the only end points a charge looks at, so ``reachable`` is asked for those
    alone (``near=``; the same points, costs and walks as the whole move circle has there)."""
    r = op.radius + target.radius + CONTROL_RANGE + reach.TOLERANCE + 1e-6
    return (float(tp[0]), float(tp[1]), r)


def charge_order_words(code: str) -> str:
    """A charge order's code as the order table reads (``within_6`` -> ``Within 6"``,
    ``yes`` -> ``Yes``), never ``'within 6'``, whose closing quote reads as feet."""
    words = code.replace("_", " ").capitalize()
    return words + "\"" if words[-1:].isdigit() else words


def charge_option(ctx: Context, op: Operative, start: tuple[float, float], board: WorkingBoard,
                  near_visible: list[tuple[float, Operative]], codes: dict[str, str],
                  edition: str) -> Action | None:
    """A charge on the closest visible enemy, if the charge order allows it and it reaches."""
    limit = CHARGE_LIMIT[codes["charge"]]
    dist, target = near_visible[0]
    if dist > limit + 1e-9:
        return None
    if not kt2018.melee_weapons(op.profile, edition) and codes["charge"] != "yes":
        return None
    tp = board.pos[target.id]
    allowance = move_allowance(op, "charge", edition)
    blockers = []
    held = held_by_friends(ctx, op, board)
    for oid, p in board.pos.items():
        if oid in (op.id, target.id):
            continue
        other = board.state.operatives[oid]
        # another enemy's control range is kept out of, as the players' charge keeps out of
        # it (game/player_moves._route), but one a friendly holds (2024 setting
        # engaged_control_range: pass)
        keep = other.side != op.side and oid not in held
        blockers.append((p[0], p[1], other.radius + (CONTROL_RANGE if keep else 0.0)))
    blockers += board.fixed  # the downed and the counters (the placement rule)
    bases = board.bases(op.id)  # where its base may not end (the exact circles)
    if edition == "kt2018":
        # 2018: a charge is declared against a target within 12" and rolled (2D6) by the
        # engine, which moves the charger along this route as far as the roll allows
        if dist > KT2018_CHARGE_REACH + 1e-9:
            return None
        # the route ends at the cheapest spot within 1" of the target that keeps out of 1" of
        # every other enemy (the target's own centre may be unreachable on those terms)
        near = [*blockers, (tp[0], tp[1], target.radius)]
        cand = reachable(ctx, start, op.radius, KT2018_CHARGE_REACH, near, 0.5,
                         [charge_disc(op, tp, target)])
        pts = np.asarray(cand.points, dtype=float)
        ends = reach.control_mask(ctx.terrain, pts, op.radius, tp, target.radius,
                                  margin=CHARGE_END_MARGIN)
        ends &= placement.clear_of_bases(pts, op.radius, bases)
        if not ends.any():
            return None
        free = ends & placement.clear_of_bases(pts, op.radius, board.reserved)
        if free.any():  # not the spot a mate's charge already makes for
            ends = free
        costs = np.asarray(cand.cost, dtype=float)
        k = pick(costs, costs, pts, ends)
        assert k is not None
        walk = cand.path(k)
        return Action("charge", op.id, start=start, to=None, route=tuple(walk.points),
                      target=target.id,
                      note=f"{op.label} declares a charge on {target.label} "
                           f"({inches(dist)} away; charge order: "
                           f"{charge_order_words(codes['charge'])}): the engine rolls its "
                           "charge roll.")
    if dist > allowance + CONTROL_RANGE + 1e-9:
        return None  # even a straight charge could not reach its control range
    blockers.append((tp[0], tp[1], target.radius))
    cand = reachable(ctx, start, op.radius, allowance, blockers, 0.5,
                     [charge_disc(op, tp, target)])
    pts = np.asarray(cand.points, dtype=float)
    # the end must be in the target's control range by the one predicate: within 1" around
    # the walls and visible (never the far side of a wall however close in a straight line)
    ok = reach.control_mask(ctx.terrain, pts, op.radius, tp, target.radius,
                            margin=CHARGE_END_MARGIN)
    ok &= placement.clear_of_bases(pts, op.radius, bases)
    if not ok.any():
        return None
    costs = np.asarray(cand.cost, dtype=float)
    i = pick(costs, costs, pts, ok)
    assert i is not None
    end = (float(pts[i][0]), float(pts[i][1]))
    route, spent = tuple(cand.path(i).points), float(costs[i])
    why = {"within_6": 'it is within 6"', "within_12": 'it is within 12"',
           "yes": "its order is to charge the closest enemy it can reach"}[codes["charge"]]
    return Action("charge", op.id, start=start, to=end, route=route, cost=spent,
                  target=target.id,
                  note=f"{op.label} charges {target.label}, {inches(dist)} away: {why}; the "
                       f"charge move of {cost_inches(spent)} reaches it.")


def _fall_back_point(ctx: Context, op: Operative, start: tuple[float, float], board: WorkingBoard,
                     enemies: list[Operative], codes: dict[str, str],
                     closest: tuple[float, Operative] | None) -> Action | None:
    """Fall Back (2024: 2 AP; 2018: the movement phase's move): out of control range, as far
    from the enemy as the move allows."""
    allowance = move_allowance(op, "fall_back", ctx.edition)  # both editions: M
    blockers = board.bases(op.id)  # every other base, the downed and counters included
    cand = ctx.terrain.routes.reachable(start, op.radius, allowance, blockers=blockers,
                                        spacing=0.5)
    pts = np.asarray(cand.points, dtype=float)
    if len(pts) == 0:
        return None
    ep = np.array([board.pos[e.id] for e in enemies], dtype=float)
    er = np.array([e.radius for e in enemies], dtype=float)
    gaps = np.linalg.norm(pts[:, None, :] - ep[None], axis=2) - op.radius - er[None]
    held = np.zeros(len(pts), dtype=bool)
    for e in enemies:  # out of every enemy's control range (the one predicate)
        held |= reach.control_mask(ctx.terrain, pts, op.radius, board.pos[e.id], e.radius)
    clear = ~held & placement.clear_of_bases(pts, op.radius, blockers)
    if not clear.any():
        return None
    scores = -gaps.min(axis=1)
    i = pick(scores, np.asarray(cand.cost, dtype=float), pts, clear)
    assert i is not None
    end = (float(pts[i][0]), float(pts[i][1]))
    walk = cand.path(i)
    return Action("fall_back", op.id, start=start, to=end, route=tuple(walk.points),
                  cost=float(cand.cost[i]),
                  note=f"{op.label} is not a melee fighter: it falls back (2 AP) to "
                       f"{fmt_pt(end)}, out of control range." if ctx.edition == "kt2024" else
                  f"{op.label} is not a melee fighter: it Falls Back to {fmt_pt(end)}, more "
                  "than 1\" from every enemy model.")
