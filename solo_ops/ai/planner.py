"""Turning a unit's order into actions on the board, with the reasons a player can read.

:func:`plan_activation` is pure: it reads the game and the state, asks geometry every
question (sight, cover, distances around walls, walking routes) and returns a :class:`Plan`
— moves with routes and end points, shots and charges with targets, the stance, the state
machine triggers, and an explanation. It never changes the state and never rolls dice;
:mod:`solo_ops.game.engine` applies the plan (rolling advance, charge and attack dice).

How each order field is carried out follows ``shared/RULES-NOTES.md`` ("Orders"); the choices
it leaves open are in ``docs/rules.md``. In short, per model of the unit (nearest to the enemy
first, so the rest keep coherency with it):

* Allies first: a lower-command unit of the same type inside a rallying unit's command radius
  answers the rally; a unit ordered to group with leaders that is inside a leader's radius
  moves into coherency with it. Reaching coherency merges it (it takes the leader's order).
* Models already in an enemy's control range fight (Melee troops, or any unit whose charge
  order is "Yes"), otherwise fall back towards where their move order wants them.
* Shoot "Fire at will": shoot the closest valid enemy in range first, and never make a move
  that would forbid the shot (Heavy); "Unhindered move/charge": move or charge first, then
  shoot if still allowed.
* Charge "Within 6"" / "If within 12"" / "Yes": charge the closest visible enemy if it is
  within that distance around the walls and the charge move reaches it.
* Move: the candidate end points reachable this activation are scored by the move order
  (distance to the closest enemy with line of sight; |distance - 12"| or |distance - range|;
  nearest cover from the closest enemy, or from the most enemies; the most unobscured targets
  for a firing line); "Use cover if possible" takes a protected point whose score is at most
  ``settings.cover_detour`` worse than the best.

This module puts an activation together (:func:`plan_activation`, ``_plan_model``'s stages,
the state machine triggers, the activation order); the parts live beside it in
:mod:`solo_ops.ai`: ``context`` (Action, Plan, Context and the cached geometry questions),
``shooting``, ``candidates`` (end points and picking), ``cover``, ``move_order``, ``combat``
(charge, fall back), ``allies``, ``portals`` (doors and hatches), ``guard`` and ``explain``.
Each of those parts is public in its own module, where the autopilot and the tests find it;
this module imports only what it uses and re-exports nothing.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from solo_ops.ai import fsm
from solo_ops.ai.allies import _ally_pull, _join_ally, _Pull
from solo_ops.ai.candidates import _coherent
from solo_ops.ai.combat import _fall_back_point
from solo_ops.ai.context import (
    Action,
    Context,
    Plan,
    WorkingBoard,
    _closest_enemy,
    in_control_range,
    move_allowance,
    nearest_targets,
    visible_targets,
)
from solo_ops.ai.cover import IN_COVER, cover_levels
from solo_ops.ai.explain import engaged_words, fmt_pt, inches
from solo_ops.ai.guard import _may_guard
from solo_ops.ai.sequences import charge_first, choose_sequence, fire_before_allies
from solo_ops.ai.shooting import choose_shot, combat_refusal, ranged
from solo_ops.ai.turn import MOVE_KINDS, _ap_cost, _fight, _Turn
from solo_ops.core.tables import Order, TroopType, order_table
from solo_ops.game.state import ENEMY, PLAYER, Operative, State, Unit
from solo_ops.rules import kt2018, kt2024, reach, referee


# -- the planner -----------------------------------------------------------------------------------
def plan_activation(ctx: Context, state: State, unit_id: str, phase: str = "firefight", *,
                    only: frozenset[str] | None = None) -> Plan:
    """Plan one activation of ``unit_id`` (Kill Team 2024) or its part of a 2018 ``phase``
    (``movement``, ``shooting`` or ``fight``). ``only``: the ids of the unit's models that act
    now (:func:`solo_ops.game.turns.acting_models`: in a 2018 phase, the models that go
    first, or those that have not yet acted); None: all of them."""
    unit = state.units[unit_id]
    order = order_table(unit.troop)[unit.command]
    plan = Plan(unit.id, unit.command, unit.troop, order, unit.fsm)
    codes = order.codes()
    plan.explain.append(
        f"{unit.id} ({TroopType(unit.troop).title}, command {unit.command}): "
        f"{order.words()}.")
    board = WorkingBoard(state)
    models = state.unit_models(unit)
    enemies = board.enemies_of_ai()
    plan.explain.append(state_words(ctx, unit, models, enemies, board))
    if not models:
        return plan
    if not enemies:
        plan.explain.append("No enemy operative is on the table: the unit holds its ground.")
        plan.stance = "conceal"
        return plan

    # Models nearest the enemy act first, so the others can keep coherency with them.
    def nearest_dist(op: Operative) -> float:
        near = nearest_targets(ctx, board.pos[op.id], op.radius, enemies, board.pos)
        return near[0][0] if near else math.inf

    models.sort(key=lambda o: (nearest_dist(o), o.id))
    models = _not_acted(ctx, models, phase, plan)
    if only is not None:
        models = _acting(models, only, phase, plan)

    pull = _ally_pull(ctx, state, unit, board)
    moved_any = False
    acted = False
    guards: list[tuple[Operative, str]] = []  # each with why it has nothing to shoot
    waiting = {op.id for op in models}  # the models not yet planned (they follow)
    for op in models:
        waiting.discard(op.id)
        result = _plan_model(ctx, state, unit, op, order, codes, board, enemies, pull, phase,
                             plan, following=frozenset(waiting))
        ctx = result["ctx"]  # the rest of the unit walks through a door it opened
        moved_any |= result["moved"]
        acted |= result["attacked"]
        if result["guard"]:
            guards.append((op, result["guard"]))
    # stance, state machine triggers
    _stance_and_guards(ctx, plan, codes, acted, moved_any, guards)
    _triggers(plan, unit, codes, pull, board, ctx, state)
    if plan.stance == "conceal" and ctx.edition == "kt2024":
        plan.explain.append("Stance: Conceal (no shot or charge this activation; it keeps to "
                            "its cover).")
    elif ctx.edition == "kt2024":
        plan.explain.append("Stance: Engage.")
    return plan


def state_words(ctx: Context, unit: Unit, models: Sequence[Operative],
                enemies: Sequence[Operative], board: WorkingBoard) -> str:
    """The explanation's "State:" line: the unit's state as the table shows it now, not as
    its last activation left it. A unit with a model within 1" (Kill Team 2024: in control
    range) of an enemy is in melee, whatever its state machine last recorded (a player's
    charge, a revealed counter placed in contact); one whose state machine still says "in
    melee" (or "falling back") with no enemy that near -- the player's model Fell Back, or
    was taken out -- is out of melee. Words only: the state machine is not changed here, and
    the simulator, which reads no words (``ctx.words`` off), gets the recorded state without
    asking the table."""
    recorded = unit.fsm.replace("_", " ")
    if not ctx.words:
        return f"State: {recorded}."
    for op in models:
        if op.id not in board.pos:
            continue
        near = in_control_range(ctx, board.pos[op.id], op.radius, list(enemies), board.pos)
        if near:
            where = f"{op.label} is {engaged_words(ctx.edition)} {near[0].label}"
            if revealed_in_contact(unit, op):
                where = f"revealed from counter {unit.origin}, where {where}"
            if unit.fsm == "charging":
                return f"State: charging, in melee ({where})."
            return f"State: in melee ({where})."
    if unit.fsm in ("in_melee", "falling_back"):
        return (f"State: out of melee (no enemy is {engaged_words(ctx.edition)} any of its "
                "models any more).")
    if unit.fsm == "charging":
        return (f"State: charging, not in melee (no enemy is {engaged_words(ctx.edition)} "
                "any of its models).")
    return f"State: {recorded}."


def _not_acted(ctx: Context, models: list[Operative], phase: str, plan: Plan
               ) -> list[Operative]:
    """The models that may still act: a model that joined this unit after acting with its own
    does not act again (Kill Team 2024: an operative activates once a turning point, 001; Kill
    Team 2018: a model moves once in the movement phase, 004)."""
    out = []
    for op in models:
        if ctx.edition == "kt2024" and op.activated:
            plan.explain.append(f"{op.label} has already activated this turning point (with "
                                "the unit it joined this one from): it does not act again.")
        elif ctx.edition == "kt2018" and phase == "movement" and op.moved_how is not None:
            plan.explain.append(f"{op.label} has already moved this battle round (with the "
                                "unit it joined this one from): it does not move again.")
        else:
            out.append(op)
    return out


def _acting(models: list[Operative], only: frozenset[str], phase: str, plan: Plan
            ) -> list[Operative]:
    """The models of ``only`` (Kill Team 2018: the unit's models that act now), each other
    one told why it waits or does not act in this ``phase``."""
    verb = "fight" if phase == "fight" else "shoot"
    for op in models:
        if op.id in only:
            continue
        if op.activated:
            plan.explain.append(f"{op.label} has already had its turn to {verb} this phase.")
        elif any(m.id in only for m in models) and phase == "fight":
            plan.explain.append(
                f"{op.label} did not charge: the models that charged (and those a Pariah Nexus "
                "effect puts there) fight first, in Hammer of Wrath; it fights later this phase "
                "if a player's model is within 1\" of it then.")
        elif any(m.id in only for m in models):
            plan.explain.append(
                f"{op.label} waits: the models a Pariah Nexus effect puts in Ready, Fire! "
                "(Temporal Accelerator: within 2\" of an objective marker) shoot first; it "
                "has its turn to shoot later this phase.")
    return [op for op in models if op.id in only]


def _stance_and_guards(ctx: Context, plan: Plan, codes: dict[str, str], acted: bool,
                       moved_any: bool, guards: list[tuple[Operative, str]]) -> None:
    """The unit's stance (Kill Team 2024: Conceal when a cover or stationary order made no
    attack, unless it fires at will and moved; Engage when it stands and watches On Guard),
    and the On Guard actions of ``guards`` (each with why it has nothing to shoot) when it
    engages."""
    plan.stance = "engage"
    if ctx.edition == "kt2024" and not acted and codes["move"] in (
            "to_cover", "to_cover_firing_line", "remain_stationary") and not any(
            a.kind in ("shoot", "charge", "fight") for a in plan.actions):
        if codes["shoot"] != "fire_at_will" or not moved_any:
            plan.stance = "conceal"
        if codes["move"] == "remain_stationary" and guards:
            plan.stance = "engage"  # it stands and watches: On Guard needs Engage
    if plan.stance == "engage":
        for op, why in guards:
            note = (f"{op.label} goes On Guard (Guard, 1 AP): {why}; it "
                    "will shoot (or fight) the first enemy operative that ends an action where "
                    "it can, until it acts again or the next turning point.")
            plan.actions.append(Action("guard", op.id, note=note))
            plan.explain.append(note)


def _plan_model(ctx: Context, state: State, unit: Unit, op: Operative, order: Order,
                codes: dict[str, str], board: WorkingBoard, enemies: list[Operative],
                pull: _Pull | None, phase: str, plan: Plan,
                spent: Sequence[Action] = (), following: frozenset[str] = frozenset(),
                stance: str | None = None) -> dict[str, Any]:
    """Plan one model's actions; updates ``board`` positions and ``plan``. The result says
    whether it moved and attacked, the context after it (``ctx``: a new door state when it
    opened a door or hatch) and whether it may go On Guard (``guard``). ``spent``: the actions
    it has already carried out this activation (a re-plan, :func:`replan_model`): their AP are
    gone and none of them is planned again. ``following``: the unit's models planned after
    this one (coherency is the unit's after it has moved: see :func:`_mates`). ``stance``:
    the order already chosen for the activation (a re-plan), which the referee holds it to."""
    t = _begin_turn(ctx, state, unit, op, codes, board, enemies, phase, plan, spent,
                    following)
    t.stance = stance
    if t.ap <= 0:
        return t.result
    idle = referee.shaken_refusal(t.facts())  # 2018: a shaken model does nothing at all
    if idle is not None:
        t.plan.explain.append(f"{idle}.")
        return t.result
    _look_around(t)
    if _locked_in_combat(t) or _started_in_combat(t) or _phase_2018(t):
        return t.result
    if pull is not None:
        fire_before_allies(t)
        if not charge_first(t, pull.reason):
            _answer_allies(t, pull)
        return t.result
    if ctx.tally is not None:
        ctx.tally.plans += 1
    choose_sequence(t)
    t.result["guard"] = _may_guard(t.ctx, op, board.pos[op.id], enemies, board, codes, t.ap,
                                   t.shot_done)
    return t.result


def _begin_turn(ctx: Context, state: State, unit: Unit, op: Operative, codes: dict[str, str],
                board: WorkingBoard, enemies: list[Operative], phase: str, plan: Plan,
                spent: Sequence[Action], following: frozenset[str] = frozenset()) -> _Turn:
    """The model's turn as it starts: where it stands, its unit's other models, the AP it has
    left after ``spent`` (Kill Team 2024; no limit in 2018) and whether it has moved."""
    edition = ctx.edition
    start = board.pos[op.id]
    mates = _mates(ctx, state, unit, op, board, following)
    result: dict[str, Any] = {"moved": False, "attacked": False, "ctx": ctx, "guard": False}
    apl = max(1, op.profile.apl - op.apl_penalty) if edition == "kt2024" else 99
    done = [a.kind for a in spent]
    moved_before = bool(set(done) & set(MOVE_KINDS))
    ap = apl - sum(_ap_cost(a.kind) for a in spent) if edition == "kt2024" else apl
    t = _Turn(ctx, state, unit, op, codes, board, enemies, phase, plan, spent, edition, start,
              mates, result, ap, done, moved_before)
    for a in spent:  # a Heavy weapon fired earlier in the activation still holds it
        weapon = next((w for w in op.profile.ranged_weapons if w.name == a.weapon), None)
        if a.kind == "shoot" and weapon is not None and edition == "kt2024":
            t.shot_done = True
            if kt2024.heavy_allowed_moves(weapon) is not None:
                t.heavy_moves = kt2024.heavy_allowed_moves(weapon)
    t.shot_done |= "shoot" in done
    return t


def _mates(ctx: Context, state: State, unit: Unit, op: Operative, board: WorkingBoard,
           following: frozenset[str]) -> list[tuple[float, float, float]]:
    """The unit's other models as coherency discs (centre, radius). Coherency is a property of
    the unit once it has moved (003: models move "as close ... as they can"): a model planned
    before this one stands where it was planned to; one planned after it will follow, so its
    disc is grown by the most it can move this activation (2024: a Reposition and a Dash;
    2018: its move) -- the lead model is not held back by mates that have not moved yet."""
    out = []
    for m in unit.models:
        if m == op.id or m not in board.pos:
            continue
        mate = state.operatives[m]
        grow = 0.0
        if m in following:
            kind = "reposition" if ctx.edition == "kt2024" else "normal"
            grow = move_allowance(mate, kind, ctx.edition)
            if ctx.edition == "kt2024" and max(1, mate.profile.apl - mate.apl_penalty) >= 2:
                grow += move_allowance(mate, "dash", ctx.edition)
        out.append((board.pos[m][0], board.pos[m][1], mate.radius + grow))
    return out


def _look_around(t: _Turn) -> None:
    """The closest enemy (with line of sight, else by route), said in the explanation; the
    enemies whose control range it is in; whether it is minded to fight in melee."""
    op, board, enemies = t.op, t.board, t.enemies
    near = nearest_targets(t.ctx, t.start, op.radius, enemies, board.pos)
    visible = visible_targets(t.ctx, t.start, op.radius, enemies, board.pos)
    vis_ids = {v.id for v in visible}
    t.near_visible = [(d, e) for d, e in near if e.id in vis_ids]
    t.closest = t.near_visible[0] if t.near_visible else (near[0] if near else None)
    if t.closest is not None:
        seen = ("with line of sight" if t.near_visible
                else "(none is in sight: the nearest by route)")
        far, foe = t.closest
        # "around the walls" only where the way bends: in the open it is simply away (both
        # distances from base edge to base edge)
        straight = math.dist(t.start, board.pos[foe.id]) - op.radius - foe.radius
        way = reach.way_words(far, straight)
        t.plan.explain.append(f"{op.label} at {fmt_pt(t.start)}: closest enemy {seen} is "
                              f"{foe.label}, {inches(far)} {way}.")
    t.engaged = in_control_range(t.ctx, t.start, op.radius, enemies, board.pos)
    t.melee_minded = t.unit.troop == TroopType.MELEE.value or t.codes["charge"] == "yes"


def _locked_in_combat(t: _Turn) -> bool:
    """1. Already locked in combat: a melee-minded model (or any, in a 2018 fight phase) fights;
    another falls back when it has the AP (2) and has done nothing yet, else fights. In a 2018
    movement phase it waits for the fight; in a 2018 shooting phase it may fire a Pistol
    (:func:`_phase_2018`). True when the model is done."""
    if not t.engaged:
        return False
    if "fight" in t.done:
        return True  # it fought already this activation
    # a unit that charged into this fight by its own order: the own_charge_fight setting
    sought = t.unit.fsm == "charging" and not t.melee_minded
    stays = t.melee_minded or (sought and t.ctx.settings.own_charge_fight == "stay")
    if sought and t.phase in ("firefight", "movement"):
        t.plan.explain.append(
            f"{t.op.label}'s unit charged into this fight by its own order: "
            + ("it fights on (setting own_charge_fight: stay)." if stays else
               "it falls back out of it if it can (setting own_charge_fight: fall_back)."))
    if t.phase in ("firefight", "movement") and revealed_in_contact(t.unit, t.op):
        t.plan.explain.append(
            f"{t.op.label} was revealed from counter {t.unit.origin} "
            f"{engaged_words(t.ctx.edition)} {t.engaged[0].label}: it starts in melee.")
    if t.phase == "movement" and not stays and _fall_back_2018(t):
        return True
    if t.phase in ("firefight", "fight"):
        if stays or t.phase == "fight":
            _fight(t, t.engaged[0], _stays_why(t) if stays else " (the Fight phase)")
            return True
        why = " (not a melee fighter, but it has not the 2 AP left to fall back)"
        if t.phase == "firefight" and t.ap >= 2 and not t.done:
            dest = _fall_back_point(t.ctx, t.op, t.start, t.board, t.enemies, t.codes,
                                    t.closest)
            if dest is not None:
                t.plan.actions.append(dest)
                t.board.pos[t.op.id] = dest.to  # type: ignore[assignment]
                t.plan.explain.append(dest.note)
                t.result["moved"] = True
                return True
            why = " (not a melee fighter, but it has nowhere to fall back to)"
        _fight(t, t.engaged[0], why)
        return True
    if t.phase == "shooting":
        return False  # 2018: a Pistol may fire from combat (``_phase_2018``, combat_refusal)
    t.plan.explain.append(_stays_in_combat_words(t, stays, sought))
    return True  # the 2018 movement phase: models in combat wait for the fight


def _started_in_combat(t: _Turn) -> bool:
    """Kill Team 2018, movement phase: a model that began the phase within 1" of an enemy that
    has since Fallen Back or fallen stays where it is (004 Falling Back: it "can either remain
    stationary or Fall Back"; staying keeps its shot, a Fall Back would cost it). True when
    the model is done."""
    foe = t.state.started_within(t.op) if t.phase == "movement" else None
    if foe is None or t.engaged:
        return False
    t.plan.explain.append(
        f"{t.op.label} started the movement phase within 1\" of {foe}: it cannot make a normal "
        "move, Advance or charge (004: it \"can either remain stationary or Fall Back\"). It "
        "remains stationary, free to shoot in the shooting phase (a Fall Back would forbid it).")
    return True


def revealed_in_contact(unit: Unit, op: Operative) -> bool:
    """Whether ``op``'s unit was revealed from a counter within 1" (2024: in control range)
    of a player's model and has not acted since (the caller has found it engaged): its state
    is still the "idle" a counter's reveal gives it and the model has not moved. Only a
    reveal puts an enemy there without a charge (a charge, either way, makes it "charging" or
    "in melee")."""
    return unit.origin is not None and unit.fsm == "idle" and not op.moved


def _stays_why(t: _Turn) -> str:
    """Why a model within reach of an enemy stays in the fight: its order (003: Melee
    troops, a charge order of Yes) or the ``own_charge_fight: stay`` setting."""
    if t.unit.troop == TroopType.MELEE.value:
        return " (a Melee unit)"
    if t.codes["charge"] == "yes":
        return " (its charge order is Yes)"
    return " (its unit sought this fight: own_charge_fight: stay)"


def _stays_in_combat_words(t: _Turn, stays: bool, sought: bool) -> str:
    """Kill Team 2018, movement phase: why a model within 1" of an enemy stays where it is
    (004 Falling Back: "if that model started the Movement phase within 1" of an enemy model,
    it cannot make a normal move. Instead, it can either remain stationary or Fall Back"; "A
    model cannot Fall Back if an enemy model finished a charge move within 1" of it in the
    same phase")."""
    foe = t.engaged[0]
    charger = next((e for e in t.engaged if e.charged), None)
    head = (f"{t.op.label} is within 1\" of {foe.label}: it cannot make a normal move (004: "
            "it \"can either remain stationary or Fall Back\").")
    if charger is not None:  # not the rule of a model that began the phase there
        head = (f"{t.op.label} is within 1\" of {foe.label}: {charger.label} charged it this "
                "phase, so it can neither move nor Fall Back (004 \"A model cannot Fall Back "
                "if an enemy model finished a charge move within 1\" of it in the same "
                "phase\").")
    if t.melee_minded:
        why = ("a Melee unit fights" if t.unit.troop == TroopType.MELEE.value
               else "its charge order (Yes) fights")
    elif sought and stays:
        why = "its unit sought this fight (own_charge_fight: stay)"
    elif sought and charger is not None:
        why = "its unit sought this fight and may not Fall Back from it"
    elif sought:
        why = "it has nowhere to Fall Back to (more than 1\" from every enemy)"
    else:
        why = ("the enemy's models Fall Back only out of a fight their own charge started, "
               "under own_charge_fight: fall_back")
    return f"{head} It remains stationary, to fight in the Fight phase: {why}."


def _fall_back_2018(t: _Turn) -> bool:
    """Kill Team 2018, movement phase: a model locked in combat that is not minded to fight
    falls back (004 "it can either remain stationary or Fall Back"; not when an enemy finished
    a charge within 1" of it this phase); whether it did. Only under ``own_charge_fight:
    fall_back`` for a unit that charged by its own order (else 2018 models wait for the
    fight)."""
    if t.edition != "kt2018" or not (t.unit.fsm == "charging"
                                     and t.ctx.settings.own_charge_fight == "fall_back"):
        return False
    if not kt2018.may_fall_back(any(e.charged for e in t.engaged)):
        return False
    dest = _fall_back_point(t.ctx, t.op, t.start, t.board, t.enemies, t.codes, t.closest)
    if dest is None:
        return False
    t.plan.actions.append(dest)
    t.board.pos[t.op.id] = dest.to  # type: ignore[assignment]
    t.plan.explain.append(dest.note)
    t.result["moved"] = True
    return True


def _phase_2018(t: _Turn) -> bool:
    """A 2018 fight phase (nothing for a model out of combat) or shooting phase (the shot, unless
    it advanced, charged or fell back). True when the phase is one of those."""
    op = t.op
    if t.phase == "fight":  # (a model within 1" of an enemy fought: _locked_in_combat)
        t.plan.explain.append(f"{op.label} is not within 1\" of an enemy model: it does not "
                              "fight this phase.")
        return True
    if t.phase == "shooting":
        barred = kt2018.shooting_barred(
            moved_how="fall_back" if op.fell_back else op.moved_how, advanced=op.advanced,
            charged=op.charged, assault=op.profile.has_assault)
        if barred is not None:
            t.plan.explain.append(f"{op.label} {barred}.")
            return True
        shot, notes = choose_shot(t.ctx, op, t.start, t.enemies, t.board.pos, moved=op.moved,
                                  moved_how=op.moved_how)
        if shot is None:
            t.plan.explain.extend(notes or [_no_shot_words(t)])
            return True
        weapon = next((w for w in op.profile.weapons if w.name == shot.weapon), None)
        # the referee: not after an Advance (but an Assault weapon), a Fall Back or a charge
        # attempt (004 "once it has done so it cannot shoot later in the battle round")
        why = referee.refusal(t.facts(), "shoot", weapon=weapon, check_control=False)
        if why is not None:
            t.plan.explain.append(f"{op.label} does not shoot: {why}.")
            return True
        t.plan.actions.append(shot)
        t.plan.explain.append(shot.note)
        t.result["attacked"] = True
        return True
    return False


def _no_shot_words(t: _Turn) -> str:
    """Why a 2018 model has no shot: the closest enemy in sight that a weapon reaches is barred
    by the rules of shooting from and into combat (the 2018 Core Manual: "Models cannot
    target enemy models that are within 1" of friendly models"; :func:`combat_refusal`),
    or none is in sight and range. Words only (none asked of the table in the simulator)."""
    op = t.op
    if not t.ctx.words:
        return f"{op.label} has no enemy to shoot."
    for dist, enemy in t.near_visible:
        for weapon in ranged(op.profile):
            if weapon.effective_range is not None and weapon.effective_range + 1e-9 < dist:
                continue
            why = combat_refusal(t.ctx, op, t.start, weapon, enemy, t.board.pos)
            if why is not None:
                return f"{op.label} does not shoot {enemy.label}: {why}."
        break  # the closest in sight decides (the shot the planner would take)
    return f"{op.label} has no enemy to shoot: none in sight and range that it may target."


def _answer_allies(t: _Turn, pull: _Pull) -> None:
    """2. Allies override movement: move to join the ally (rally or group with leaders), then
    shoot (Kill Team 2024) if AP are left -- unless it fired first (Fire at will:
    :func:`~solo_ops.ai.sequences.fire_before_allies`), when it joins with the AP left and a
    Heavy weapon fired keeps it where it is (001 Heavy)."""
    op, board = t.op, t.board
    if t.shot_done:
        if t.heavy_moves is not None and "reposition" not in t.heavy_moves:
            t.plan.explain.append(f"{op.label} fired a Heavy weapon, so it does not move to "
                                  "join its allies.")
        elif t.ap > 0 and _join_ally(t.ctx, t.state, op, t.start, board, pull, t.plan,
                                     t.edition):
            t.result["moved"] = True
            t.ap -= 1
        return
    moved = _join_ally(t.ctx, t.state, op, t.start, board, pull, t.plan, t.edition)
    if moved:
        t.result["moved"] = True
        t.ap -= 1
    if t.edition == "kt2024" and t.ap > 0:
        shot, _ = choose_shot(t.ctx, op, board.pos[op.id], t.enemies, board.pos,
                              moved=moved, moved_how="reposition")
        if shot is not None:
            t.plan.actions.append(shot)
            t.plan.explain.append(shot.note)
            t.result["attacked"] = True


def _triggers(plan: Plan, unit: Unit, codes: dict[str, str], pull: _Pull | None,
              board: WorkingBoard, ctx: Context, state: State) -> None:
    """The state-machine triggers this plan fires, in order (decided here, recorded by fsm)."""
    kinds = [a.kind for a in plan.actions]
    state_now = unit.fsm

    def add(trigger: str) -> None:
        nonlocal state_now
        if fsm.allowed(state_now, trigger):
            state_now = fsm.fire(state_now, trigger)
            plan.triggers.append(trigger)

    if pull is not None:
        plan.allies = pull.unit.id
    if pull is not None and "charge" not in kinds:  # (a charge made first: allies_charge)
        add("group" if pull.trigger == "group" else "rally")
        # merged when every model ends in coherency with the ally
        theirs = [(board.pos[m][0], board.pos[m][1], state.operatives[m].radius)
                  for m in pull.unit.models if m in board.pos]
        ok = True
        for m in unit.models:
            if m not in board.pos:
                continue
            pts = np.array([board.pos[m]])
            if not _coherent(pts, theirs, state.operatives[m].radius, ctx.settings.coherency)[0]:
                ok = False
        if ok:
            plan.merge_into = pull.unit.id
            plan.explain.append(
                f"{unit.id} reaches coherency with {pull.unit.id} and merges into it, taking "
                f"its order (command {pull.unit.command}).")
            add("merged")
        return
    if "fight" in kinds and "charge" not in kinds:
        if unit.fsm != "charging":  # (a unit fighting on where it charged stays "charging")
            add("engaged")
        return
    if "charge" in kinds:
        add("charge")
        return
    if "fall_back" in kinds:
        add("fall_back")
        return
    moved = any(k in ("reposition", "dash", "normal", "advance") for k in kinds)
    if codes["move"] in ("to_cover", "to_cover_firing_line"):
        if moved:
            add("order_move")
        if _all_protected(ctx, unit, board, state):
            add("reached_cover")
        return
    if codes["move"] in ("hold_12", "to_firing_range"):
        if moved:
            add("order_move")
        add("hold_range")
        return
    if moved:
        add("order_move")
    elif unit.fsm in ("moving",):
        add("stand")


def _all_protected(ctx: Context, unit: Unit, board: WorkingBoard, state: State) -> bool:
    enemies = board.enemies_of_ai()
    for m in unit.models:
        if m not in board.pos:
            continue
        op = state.operatives[m]
        closest = _closest_enemy(ctx, op, board.pos[m], enemies, board)
        if closest is None:
            continue
        if cover_levels(ctx, np.array([board.pos[m]]), op.radius, closest[1],
                        board.pos)[0] < IN_COVER:
            return False
    return True


def replan_model(ctx: Context, state: State, unit_id: str, model_id: str, phase: str,
                 spent: Sequence[Action]) -> Plan:
    """The rest of one model's activation when its plan has gone stale (a model it was to
    shoot, charge or fight is no longer on the table, or no longer in reach): what its order
    asks of it now, from where it stands, with the AP and actions it has left (``spent``: what
    it has carried out this activation). Allies are not answered again (they were when the
    activation was planned). Pure, like :func:`plan_activation`."""
    unit = state.units[unit_id]
    order = order_table(unit.troop)[unit.command]
    plan = Plan(unit.id, unit.command, unit.troop, order, unit.fsm)
    board = WorkingBoard(state)
    enemies = board.enemies_of_ai()
    op = state.operatives[model_id]
    if not enemies or op.id not in board.pos:
        plan.explain.append(f"{op.label} has no enemy left to act against.")
        return plan
    result = _plan_model(ctx, state, unit, op, order, order.codes(), board, enemies, None,
                         phase, plan, spent=spent,
                         stance=op.stance if state.edition == "kt2024" else None)
    if result["guard"] and op.stance == "engage" and not any(
            a.kind in ("shoot", "fight", "charge") for a in plan.actions):
        note = f"{op.label} goes On Guard (Guard, 1 AP): {result['guard']}."
        plan.actions.append(Action("guard", op.id, note=note))
        plan.explain.append(note)
    return plan


def shared_commands(ready: list[Unit]) -> set[int]:
    """The commands held by more than one of ``ready``: the distance to the enemy orders only
    units of the same command, so a unit alone with its command is placed by its command
    whatever its distance and :func:`activation_order` does not measure it."""
    commands = [u.command for u in ready]
    return {c for c in commands if commands.count(c) > 1}


def activation_order(ctx: Context, state: State, ready: list[Unit]) -> list[Unit]:
    """RULES-NOTES: highest command first; ties to the unit nearest an enemy model."""
    enemies = state.living(PLAYER)
    pos = {o.id: o.at for o in state.operatives.values() if o.on_table and o.at}
    shared = shared_commands(ready)

    def nearest(unit: Unit) -> float:
        if unit.command not in shared:
            return 0.0
        best = math.inf
        for m in state.unit_models(unit):
            near = nearest_targets(ctx, m.at, m.radius, enemies, pos)  # type: ignore[arg-type]
            if near:
                best = min(best, near[0][0])
        return best

    return sorted(ready, key=lambda u: (-u.command, nearest(u), u.id))


def first_to_activate(ctx: Context, state: State, ready: list[Unit]) -> list[Unit]:
    """``activation_order(ctx, state, ready)[:1]``: the unit that activates next (none when
    nothing is ready), measuring only the units of the highest command among ``ready`` (the
    engine needs the first alone; the others' distances cannot change which it is)."""
    if not ready:
        return []
    top = max(u.command for u in ready)
    return activation_order(ctx, state, [u for u in ready if u.command == top])[:1]


__all__ = ["ENEMY", "Action", "Context", "Plan", "activation_order", "first_to_activate",
           "plan_activation"]
