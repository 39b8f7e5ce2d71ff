"""Carrying out the enemy's plans.

:func:`apply_plan` applies a :class:`~solo_ops.ai.context.Plan` to the state: moves (with a
spotting check after each, as the fog of war requires), doors and hatches operated, On Guard,
stance and the unit's state-machine triggers, and merging into a leader's or rallier's unit;
a planned action that is stale (:func:`stale`: its target gone) is planned again, and one the
referee refuses is not carried out. The actions that are rooms of their own are asked there:
charges (:mod:`solo_ops.game.charges`; a Kill Team 2018 charge's Reaction is asked in the step,
:func:`solo_ops.game.reactions.asked_in_step`), shots (:mod:`solo_ops.game.shots`, rolled by the
engine or handed to the player to roll when the game's ``enemy_attacks`` setting says so),
fights (:mod:`solo_ops.game.fights`); damage is :mod:`solo_ops.game.downed`'s, mines
:mod:`solo_ops.game.mines`', the enemy's Guard interrupts :mod:`solo_ops.game.enemy_guard`'s.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from solo_ops.ai import explain, fsm
from solo_ops.ai.planner import Action, Plan, replan_model
from solo_ops.game import (
    charges,
    cp,
    enemy_checks,
    fights,
    pariah,
    placing,
    reactions,
    reveal,
    shots,
)
from solo_ops.game.mines import check_mines
from solo_ops.game.play2018 import advance_roll, retell_advance, unrolled_explain
from solo_ops.game.play2018 import after_move as _after_move
from solo_ops.game.state import ENEMY, Operative, State
from solo_ops.rules import reach

if TYPE_CHECKING:
    from solo_ops.game.definition import Game


CONTROL_RANGE = reach.CONTROL_RANGE
ATTACKS = ("shoot", "charge", "fight")
MAX_REPLANS = 3  # per model and activation (each re-plan drops a target that left the table)


def _r(p: Any) -> list[float] | None:
    return reach.round_point(p)


def stale(game: Game, state: State, op: Operative, action: Action) -> str | None:
    """Why a planned attack can no longer be made as planned (its target is off the table,
    out of sight for a shot, out of reach for a fight), or a Fall Back no longer needed (no
    enemy holds the model in control range any more), or None when it still can."""
    moved = enemy_checks.stale_move(game, state, op, action)  # a Fall Back, a 2024 Charge
    if moved is not None or action.kind not in ATTACKS or action.target is None:
        return moved
    target = state.operatives.get(action.target)
    if target is not None and target.lying:
        return f"{target.label} is " + ("out of action" if state.edition == "kt2018"
                                         else "down")
    if target is None or not target.on_table:
        return f"{action.target} is no longer on the table"
    assert op.at is not None and target.at is not None
    if action.kind == "shoot":
        terrain = game.terrain(state)
        if not terrain.sight.visible(op.at, target.at, op.radius, target.radius):
            return f"{target.label} is no longer visible to {op.label}"
    if action.kind == "fight" and action.portal is None and not fights.in_reach(game, state, op,
                                                                         target):
        return (f"{target.label} is not within 1\" of {op.label}" if state.edition == "kt2018"
                else f"{target.label} is not in {op.label}'s control range")
    return None


AfterAction = Callable[[Operative, bool], list[dict[str, Any]]]
"""Asked after each action of a model in an activation (the model, whether it was the model's
first action): what follows it (the players' Guard interrupts, :mod:`solo_ops.game.guard`)."""


def apply_plan(game: Game, state: State, plan: Plan, after_action: AfterAction | None = None
               ) -> list[dict[str, Any]]:
    """Apply ``plan`` (see the module docstring); returns the events. ``after_action`` is
    asked after each action of a model still on the table."""
    unit = state.units[plan.unit]
    if getattr(game, "referee_watch", None) is not None:
        game.referee_watch.plan(game, state, plan)
    events: list[dict[str, Any]] = [{
        "type": "enemy_activation", "unit": unit.id, "command": unit.command,
        "order": plan.order.texts(), "state_before": plan.state_before,
        "explain": unrolled_explain(plan.explain, plan.actions, state.operatives),
        "plan": plan.to_dict(),
    }]
    cp.tell(game, events)  # a question in this step tells what was done before it first
    acting = frozenset(unit.models)  # a Stun on these outlasts this activation
    for m in unit.models:
        op = state.operatives[m]
        if op.on_table and state.edition == "kt2024":
            op.stance = plan.stance
    queue = list(plan.actions)
    spent: dict[str, list[Action]] = {}
    replans: dict[str, int] = {}
    while queue:
        action = queue.pop(0)
        op = state.operatives[action.model]
        if not op.on_table:
            continue
        why = stale(game, state, op, action)
        if why is not None:
            # the target left the table (or reach) part-way through the activation: the rest
            # of this model's actions are planned again (another target, or its order's move)
            queue = [a for a in queue if a.model != op.id]
            replans[op.id] = replans.get(op.id, 0) + 1
            fresh = (replan_model(game.context(state), state, unit.id, op.id, state.phase,
                                  spent.get(op.id, []))
                     if replans[op.id] <= MAX_REPLANS else None)
            new = list(fresh.actions) if fresh is not None else []
            events.append({"type": "replanned", "operative": op.id, "unit": unit.id,
                           "dropped": action.kind, "target": action.target, "why": why,
                           "actions": [a.to_dict() for a in new],
                           "explain": list(fresh.explain) if fresh is not None else []})
            queue[:0] = new
            continue
        refused = enemy_checks.refusal(game, state, op, action, spent.get(op.id, []))
        if refused is not None:  # the referee, asked again as the plan is carried out
            queue = [a for a in queue if a.model != op.id]
            events.append(enemy_checks.refused_event(op, action, refused))
            continue
        spent.setdefault(op.id, []).append(action)
        if op.on_guard:  # Guard ends when it performs any action
            op.on_guard = False
        if action.kind in ("reposition", "dash", "normal", "fall_back", "advance"):
            events.extend(_move_told(game, state, op, action, events[0]))
            events.extend(reveal.check_spotting(game, state))
        elif action.kind == "charge" and charges.reaction_due(game, state, op, action):
            # asked in this step (rolled before the next model acts), else left waiting
            events.extend(reactions.asked_in_step(game, state, op, action)
                          if getattr(game, "cp_chooser", None) is not None
                          else charges.declare_charge(game, state, op, action))
        elif action.kind == "charge":
            events.extend(charges.no_reaction(game, state, action))
            events.extend(charges.enemy_charge(game, state, op, action))
            events.extend(reveal.check_spotting(game, state))
        elif action.kind == "shoot":
            events.extend(shots.enemy_shot(game, state, op, action, acting=acting))
        elif action.kind == "fight":
            events.extend(fights.enemy_fight(game, state, op, action, acting=acting))
        elif action.kind == "operate_hatch":
            events.extend(_operate(game, state, op, action))
            events.extend(reveal.check_spotting(game, state))
        elif action.kind == "guard":
            op.on_guard = True
            events.append({"type": "on_guard", "operative": op.id, "note": action.note})
        if after_action is not None and op.on_table:
            events.extend(after_action(op, len(spent[op.id]) == 1))
    return events + _after_plan(game, state, plan, unit)


def _after_plan(game: Game, state: State, plan: Plan, unit: Any) -> list[dict[str, Any]]:
    """The end of a unit's activation: its order's triggers, a merge, the 2018 charges
    still waiting (a save's from before the Reaction was asked in its step) whose target a
    later charger reached (rolled now), its state."""
    events: list[dict[str, Any]] = []
    for trigger in plan.triggers:
        if unit.active and fsm.allowed(unit.fsm, trigger):
            unit.fsm = fsm.fire(unit.fsm, trigger)
    if plan.merge_into and unit.active is False and unit.fsm == "merged":
        events.append(state.merge_unit(unit, state.units[plan.merge_into]))
    if state.edition == "kt2018" and state.pending_attacks:
        from solo_ops.game.reactions import settle

        events.extend(settle(game, state))
    events.append({"type": "unit_state", "unit": unit.id, "state": unit.fsm})
    return events


def _move_told(game: Game, state: State, op: Operative, action: Action,
               activation: dict[str, Any]) -> list[dict[str, Any]]:
    """:func:`_move`; a 2018 Advance is then told again in ``activation``'s explanation with
    the distance its roll gave (:func:`solo_ops.game.play2018.retell_advance`)."""
    moved = _move(game, state, op, action)
    if action.kind == "advance":
        retell_advance(activation, action, op, moved)
    return moved


def _move(game: Game, state: State, op: Operative, action: Action) -> list[dict[str, Any]]:
    if state.edition == "kt2018" and pariah.frozen(state, op):
        return [{"type": "move_blocked", "operative": op.id, "how": action.kind,
                 "blocked_by": "a petrific divisor",
                 "note": f"{op.label} stood on a petrific divisor when it activated: it cannot "
                         "move this battle round (Power Flux)."}]
    old = op.at
    assert old is not None and action.to is not None
    route: Any = action.route if len(action.route) >= 2 else (old, action.to)
    note = action.note
    moved_on = math.dist(route[0], old) > 0.005  # an earlier move of it stopped short
    if moved_on or enemy_checks.route_blocked(game, state, op, route):  # or a base in the way
        route = placing.way_from_here(game, state, op, action.to, action.kind)
        if route is None:
            return [{"type": "move_blocked", "operative": op.id, "how": action.kind,
                     "blocked_by": "no way around the walls and bases",
                     "note": f"{op.label} cannot make its move from {explain.fmt_pt(old)}, "
                             "where its last move stopped: no way around the walls and "
                             "bases."}]
        note += (f" It starts from {explain.fmt_pt(old)}, where its last move stopped."
                 if moved_on else " It goes round a base now in its way.")
    rolled = advance_roll(game, state, op) if action.kind == "advance" else []
    limit = placing.allowance(state, op, action.kind)
    if action.rest and op.move_left is not None:  # the rest of a move a door interrupted
        limit = op.move_left
    if rolled and limit is not None:
        note = f"{note} Its Advance allows {explain.inches(limit)} in all."
    to, walk, blocked = placing.placed(game, state, op, route, limit, how=action.kind)
    if to is None:
        return [*rolled, {"type": "move_blocked", "operative": op.id, "how": action.kind,
                          "blocked_by": blocked,
                          "note": f"{op.label} cannot make its move: {blocked} (the placement "
                                  "rule)."}]
    cost = float(walk.cost)  # what its route costs, climbs and drops added (issue #27)
    if blocked is not None:
        note = (f"{note} It stops at {explain.fmt_pt(to)} after {explain.cost_inches(cost)}: "
                f"{blocked}.")
    elif math.dist(to, action.to) > 0.005:
        why = ("" if rolled else " From there its way is longer than planned:" if moved_on
               else " Its route costs more than planned (climbing):")
        note = (f"{note}{why} {'it' if why else 'It'} stops at {explain.fmt_pt(to)}, its "
                f"{explain.inches(limit)} spent.")
    op.at = to
    op.moved = True
    op.moved_how = action.kind
    op.readied = False  # 004 "If the model moves for any reason, it is no longer Readied"
    op.move_left = None if limit is None else max(0.0, limit - cost)
    if action.kind == "fall_back":
        op.fell_back = True
    events = [*rolled, {"type": "moved", "operative": op.id, "how": action.kind,
                        "from": _r(old),
               "to": _r(to), "route": [_r(p) for p in walk.points],
               "cost": round(cost, 2), "note": note, **({"blocked_by": blocked} if blocked else {}),
               **placing.move_facts(game.terrain(state), state, op.id, op.radius,
                                    walk.points, game.words)}]
    return (events + check_mines(game, state, op, walk.points)
            + _after_move(game, state, op, action.kind, walk.points))


def _operate(game: Game, state: State, op: Operative, action: Action) -> list[dict[str, Any]]:
    """Operate Hatch / open a door: the board's door state changes, so every later action
    (this activation's and the players') uses the terrain with it open."""
    assert action.portal is not None
    want = True if action.open is None else bool(action.open)
    if state.doors.get(action.portal) == want:
        return []
    state.doors[action.portal] = want
    verb = "opens" if want else "closes"
    return [{"type": "portal", "feature": action.portal, "open": want, "operative": op.id,
             "side": ENEMY, "note": f"The enemy {op.label} {verb} {action.portal}.",
             "explain": action.note}]
