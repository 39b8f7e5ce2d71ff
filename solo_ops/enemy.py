"""Carrying out the enemy's plans, and applying damage to anyone.

:func:`apply_plan` applies a :class:`~solo_ops.ai.planner.Plan` to the state: moves (with a
spotting check after each, as the fog of war requires), Kill Team 2018 charge rolls, attacks
(rolled by the engine, or handed to the player to roll when the game's ``enemy_attacks``
setting says so), stance and the unit's state-machine triggers, and merging into a leader's or
rallier's unit. :func:`apply_damage` is the one place wounds are taken away.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from solo_ops import attacks
from solo_ops.ai import fsm
from solo_ops.ai.planner import Action, Plan
from solo_ops.state import ENEMY, PLAYER, Operative, State

CONTROL_RANGE = 1.0


def _r(p: Any) -> list[float] | None:
    return None if p is None else [round(float(p[0]), 2), round(float(p[1]), 2)]


def apply_plan(game: Any, state: State, plan: Plan) -> list[dict[str, Any]]:
    """Apply ``plan`` (see the module docstring); returns the events."""
    from solo_ops import engine

    unit = state.units[plan.unit]
    events: list[dict[str, Any]] = [{
        "type": "enemy_activation", "unit": unit.id, "command": unit.command,
        "order": plan.order.texts(), "state_before": plan.state_before,
        "explain": list(plan.explain), "plan": plan.to_dict(),
    }]
    for m in unit.models:
        op = state.operatives[m]
        if op.on_table and state.edition == "kt2024":
            op.stance = plan.stance
    for action in plan.actions:
        op = state.operatives[action.model]
        if not op.on_table:
            continue
        if op.on_guard:  # Guard ends when it performs any action
            op.on_guard = False
        if action.kind in ("reposition", "dash", "normal", "fall_back", "advance"):
            events.extend(_move(game, state, op, action))
            events.extend(engine.check_spotting(game, state))
        elif action.kind == "charge":
            events.extend(_charge(game, state, op, action))
            events.extend(engine.check_spotting(game, state))
        elif action.kind == "shoot":
            events.extend(_shoot(game, state, op, action))
        elif action.kind == "fight":
            events.extend(_fight(game, state, op, action))
        elif action.kind == "operate_hatch":
            events.extend(_operate(game, state, op, action))
            events.extend(engine.check_spotting(game, state))
        elif action.kind == "guard":
            op.on_guard = True
            events.append({"type": "on_guard", "operative": op.id, "note": action.note})
    for trigger in plan.triggers:
        if unit.active and fsm.allowed(unit.fsm, trigger):
            unit.fsm = fsm.fire(unit.fsm, trigger)
    if plan.merge_into and unit.active is False and unit.fsm == "merged":
        leader = state.units[plan.merge_into]
        for m in unit.models:
            state.operatives[m].owner = leader.id
            state.operatives[m].on_guard = False  # its order changed
            leader.models.append(m)
        unit.merged_into = leader.id
        unit.models = []
        events.append({"type": "merged", "unit": unit.id, "into": leader.id,
                       "command": leader.command})
    events.append({"type": "unit_state", "unit": unit.id, "state": unit.fsm})
    return events


def _move(game: Any, state: State, op: Operative, action: Action) -> list[dict[str, Any]]:
    old = op.at
    op.at = action.to
    op.moved = True
    op.moved_how = action.kind
    if action.kind == "fall_back":
        op.fell_back = True
    events = [{"type": "moved", "operative": op.id, "how": action.kind, "from": _r(old),
               "to": _r(action.to), "route": [_r(p) for p in action.route],
               "cost": round(action.cost, 2), "note": action.note}]
    return events + check_mines(game, state, op)


def _charge(game: Any, state: State, op: Operative, action: Action) -> list[dict[str, Any]]:
    target = state.operatives[action.target]  # type: ignore[index]
    events: list[dict[str, Any]] = []
    if action.to is None:
        # Kill Team 2018: roll 2D6 and move along the planned route as far as the roll allows
        roll = state.dice.roll(f"charge roll: {op.name} at {target.name}", 2, 6)  # type: ignore
        terrain = game.terrain(state)
        from solo_ops.geometry.routes import Walk  # noqa: F401 - documented return type

        walk = terrain.routes.walk(op.at, target.at, op.radius,
                                   blockers=[(o.at[0], o.at[1], o.radius)
                                             for o in state.operatives.values()
                                             if o.on_table and o.id not in (op.id, target.id)])
        if walk is None:
            return [{"type": "charge_failed", "operative": op.id, "target": target.id,
                     "roll": roll.value, "note": "no route"}]
        need = max(0.0, float(walk.cost) - op.radius - target.radius)
        budget = min(float(roll.value), need)
        end, _spent = terrain.routes.advance(walk, budget)
        old = op.at
        op.at = (float(end[0]), float(end[1]))
        gap = math.hypot(op.at[0] - target.at[0], op.at[1] - target.at[1]) - op.radius - \
            target.radius
        success = gap <= CONTROL_RANGE + 1e-6
        op.charged = success
        op.moved = True
        op.moved_how = "charge"
        events.append({"type": "charged" if success else "charge_failed", "operative": op.id,
                       "target": target.id, "roll": roll.value, "from": _r(old),
                       "to": _r(op.at), "note": f"{op.name} rolls {roll.value} for the charge "
                       f"and {'reaches' if success else 'falls short of'} {target.name}."})
        return events + check_mines(game, state, op)
    old = op.at
    op.at = action.to
    op.moved = True
    op.charged = True
    op.moved_how = "charge"
    events.append({"type": "charged", "operative": op.id, "target": target.id, "from": _r(old),
                   "to": _r(action.to), "route": [_r(p) for p in action.route],
                   "note": action.note})
    return events + check_mines(game, state, op)


def _operate(game: Any, state: State, op: Operative, action: Action) -> list[dict[str, Any]]:
    """Operate Hatch / open a door: the board's door state changes, so every later action
    (this activation's and the players') uses the terrain with it open."""
    assert action.portal is not None
    want = True if action.open is None else bool(action.open)
    if state.doors.get(action.portal) == want:
        return []
    state.doors[action.portal] = want
    verb = "opens" if want else "closes"
    return [{"type": "portal", "feature": action.portal, "open": want, "operative": op.id,
             "side": ENEMY, "note": f"The enemy {op.name} {verb} {action.portal}.",
             "explain": action.note}]


def _shoot(game: Any, state: State, op: Operative, action: Action, *,
           hit_penalty: int = 0) -> list[dict[str, Any]]:
    """An enemy shot, rolled or handed to the player. ``hit_penalty`` worsens the weapon's
    Hit stat (On Guard shooting within control range: -1 to hit)."""
    target = state.operatives[action.target]  # type: ignore[index]
    if not target.on_table:
        return []
    weapon = next(w for w in op.profile.weapons if w.name == action.weapon)
    if hit_penalty and weapon.hit is not None:
        weapon = replace(weapon, hit=min(6, weapon.hit + hit_penalty))
    terrain = game.terrain(state)
    cover = terrain.sight.cover(op.at, target.at, op.radius, target.radius,
                                seek=weapon.has("seek"), seek_light=weapon.has("seek_light"),
                                edition=state.edition)
    if not cover.visible:
        return [{"type": "shot_cancelled", "operative": op.id, "target": target.id,
                 "note": f"{target.name} is no longer visible to {op.name}."}]
    text = attacks.describe_shot(state.edition, op, weapon, target, cover, terrain)
    if hit_penalty:
        text += f" (-{hit_penalty} to hit: On Guard, shooting within control range)"
    op.shot = True
    if game.settings.enemy_attacks == "player":
        state.pending_attacks.append({"kind": "shoot", "attacker": op.id, "target": target.id,
                                      "weapon": weapon.name, "text": text})
        return [{"type": "attack_pending", "attacker": op.id, "target": target.id,
                 "note": text}]
    result = attacks.roll_shot(state.edition, state.dice, op, weapon, target, cover, terrain)
    events = [{"type": "attack", "attacker": op.id, "target": target.id,
               "weapon": weapon.name, "damage": result.damage, "lines": result.lines,
               "note": text}]
    events += apply_damage(game, state, target, result.damage, f"shot by {op.name}",
                           outcome=result.outcome)
    for extra_target, amount in result.splash:
        victim = state.operatives.get(extra_target)
        if victim is not None and victim.on_table and amount:
            events += apply_damage(game, state, victim, amount, f"{weapon.name} blast")
    if result.self_damage and op.on_table:
        events += apply_damage(game, state, op, result.self_damage, f"{weapon.name} is Hot")
    return events


def _fight(game: Any, state: State, op: Operative, action: Action) -> list[dict[str, Any]]:
    target = state.operatives[action.target]  # type: ignore[index]
    if not target.on_table:
        return []
    text = attacks.describe_fight(state.edition, op, target)
    if action.portal is not None:
        kind = "Hatchway" if _is_hatch(game, action.portal) else "Door"
        text = f"{text[:-1]} across {action.portal} ({kind} Fight)."
    op.fought = True
    if game.settings.enemy_attacks == "player":
        state.pending_attacks.append({"kind": "fight", "attacker": op.id, "target": target.id,
                                      "text": text})
        return [{"type": "attack_pending", "attacker": op.id, "target": target.id,
                 "note": text}]
    helpers = _fight_helpers(state, op, target)
    result = attacks.roll_fight(state.edition, state.dice, op, target, helpers)
    events = [{"type": "fight", "attacker": op.id, "target": target.id,
               "damage": result.damage, "damage_taken": result.damage_taken,
               "lines": result.lines, "note": text}]
    events += apply_damage(game, state, target, result.damage, f"fought by {op.name}",
                           outcome=result.outcome)
    if result.damage_taken and op.on_table:
        events += apply_damage(game, state, op, result.damage_taken,
                               f"struck back by {target.name}", outcome=result.outcome_taken)
    return events


def _is_hatch(game: Any, portal: str) -> bool:
    try:
        return bool(game.scenario.board.feature(portal).has("hatch"))
    except (KeyError, AttributeError):
        return False


# -- Guard -----------------------------------------------------------------------------------------
def guard_interrupts(game: Any, state: State, mover: Operative) -> list[dict[str, Any]]:
    """After a player operative's first action of its activation: every enemy model On Guard
    (in id order) that can now shoot it (a valid target) or fight it (in control range)
    interrupts, for free; doing so ends its Guard. Rolled or handed to the player like every
    enemy attack."""
    from solo_ops.ai.planner import guard_reaction

    events: list[dict[str, Any]] = []
    for guard in sorted(state.living(ENEMY), key=lambda o: o.id):
        if not guard.on_guard or not mover.on_table:
            continue
        reaction = guard_reaction(game.context(state), state, guard.id, mover.id)
        if reaction is None:
            continue
        how, action = reaction
        guard.on_guard = False
        events.append({"type": "guard_interrupt", "operative": guard.id, "target": mover.id,
                       "how": how, "note": action.note})
        if how == "fight":
            events.extend(_fight(game, state, guard, action))
        else:
            penalty = 1 if _gap(guard, mover) <= CONTROL_RANGE + 1e-9 else 0
            events.extend(_shoot(game, state, guard, action, hit_penalty=penalty))
    return events


def guards_engaged(state: State, mover: Operative) -> list[dict[str, Any]]:
    """Guard ends when an enemy ends an action in the guard's control range."""
    events: list[dict[str, Any]] = []
    if not mover.on_table:
        return events
    for guard in sorted(state.living(ENEMY), key=lambda o: o.id):
        if guard.on_guard and _gap(guard, mover) <= CONTROL_RANGE + 1e-9:
            guard.on_guard = False
            events.append({"type": "guard_ended", "operative": guard.id,
                           "why": f"{mover.name} ended an action within its control range"})
    return events


def _fight_helpers(state: State, op: Operative, target: Operative) -> int:
    """Other friendly operatives also in control range of the target and of no other enemy."""
    count = 0
    foes = state.living(PLAYER if op.side == ENEMY else ENEMY)
    for friend in state.living(op.side):
        if friend.id == op.id:
            continue
        if _gap(friend, target) > CONTROL_RANGE:
            continue
        if any(_gap(friend, f) <= CONTROL_RANGE for f in foes if f.id != target.id):
            continue
        count += 1
    return count


def _gap(a: Operative, b: Operative) -> float:
    return math.hypot(a.at[0] - b.at[0], a.at[1] - b.at[1]) - a.radius - b.radius  # type: ignore


def resolve_player_shot(game: Any, state: State, op: Operative, weapon: Any,
                        target: Operative) -> list[dict[str, Any]]:
    """The player asked solo-ops to roll their shot."""
    terrain = game.terrain(state)
    cover = terrain.sight.cover(op.at, target.at, op.radius, target.radius,
                                seek=weapon.has("seek"), seek_light=weapon.has("seek_light"),
                                edition=state.edition)
    result = attacks.roll_shot(state.edition, state.dice, op, weapon, target, cover, terrain)
    events = [{"type": "attack", "attacker": op.id, "target": target.id, "weapon": weapon.name,
               "damage": result.damage, "lines": result.lines}]
    events += apply_damage(game, state, target, result.damage, f"shot by {op.name}",
                           outcome=result.outcome)
    if result.self_damage:
        events += apply_damage(game, state, op, result.self_damage, f"{weapon.name} is Hot")
    return events


def apply_damage(game: Any, state: State, op: Operative, amount: int, why: str,
                 *, outcome: str | None = None) -> list[dict[str, Any]]:
    """Take ``amount`` wounds from ``op``; at 0 it goes down (2024) or, in 2018, an injury
    roll decides (``outcome`` from a rolled 2018 attack already carries it)."""
    if op.down or (amount <= 0 and outcome is None):
        return []
    events: list[dict[str, Any]] = []
    lost = min(op.wounds, max(0, amount))
    op.wounds -= lost
    op.wounds_lost += lost
    events.append({"type": "damage", "operative": op.id, "amount": lost, "wounds": op.wounds,
                   "why": why})
    if state.edition == "kt2018" and op.wounds <= 0 and outcome is None:
        outcome = attacks.injury_2018(state.dice, op)
    if state.edition == "kt2018" and outcome == "flesh_wound":
        op.flesh_wounds += 1
        op.wounds = 1
        events.append({"type": "flesh_wound", "operative": op.id, "flesh_wounds":
                       op.flesh_wounds})
        if op.flesh_wounds >= 3:
            outcome = "out_of_action"
        else:
            return events
    if op.wounds > 0 and outcome != "out_of_action":
        if op.side == ENEMY:
            unit = state.unit_of(op.id)
            if unit is not None and unit.active and fsm.allowed(unit.fsm, "shot_at"):
                unit.fsm = fsm.fire(unit.fsm, "shot_at")
        return events
    return events + take_down(state, op, why)


def take_down(state: State, op: Operative, why: str) -> list[dict[str, Any]]:
    """``op`` is incapacitated / out of action."""
    op.down = True
    op.wounds = 0
    op.went_down = True
    side = op.side
    state.incapacitated_this_turn[side] = state.incapacitated_this_turn.get(side, 0) + 1
    state.incapacitated_total[side] = state.incapacitated_total.get(side, 0) + 1
    events: list[dict[str, Any]] = [{"type": "down", "operative": op.id, "side": side,
                                     "why": why}]
    if op.carrying is not None:
        carried = state.operatives[op.carrying]
        carried.carried_by = None
        op.carrying = None
        events.append({"type": "dropped", "operative": op.id, "carried": carried.id})
    if side == ENEMY:
        unit = state.unit_of(op.id)
        if unit is not None and unit.active:
            if not state.unit_models(unit):
                unit.fsm = fsm.fire(unit.fsm, "destroyed")
                events.append({"type": "unit_destroyed", "unit": unit.id})
                events.extend(_leader_lost(state, unit))
            elif fsm.allowed(unit.fsm, "lost_models"):
                unit.fsm = fsm.fire(unit.fsm, "lost_models")
    return events


def _leader_lost(state: State, leader: Any) -> list[dict[str, Any]]:
    """Units heading to join a destroyed unit lose their goal (``leader_destroyed``)."""
    events = []
    for unit in state.active_units():
        if unit.id == leader.id or unit.fsm == "hidden":
            continue
        if unit.leadership < leader.leadership and fsm.allowed(unit.fsm, "leader_destroyed"):
            before = unit.fsm
            unit.fsm = fsm.fire(unit.fsm, "leader_destroyed")
            if before != unit.fsm:
                events.append({"type": "unit_state", "unit": unit.id, "state": unit.fsm,
                               "why": f"its leader {leader.id} was destroyed"})
    return events


def check_mines(game: Any, state: State, op: Operative) -> list[dict[str, Any]]:
    """Mines: "The first time ANY Operative is within Control Range, inflict D3+3 damage"."""
    events: list[dict[str, Any]] = []
    if op.at is None:
        return events
    for marker in game.terrain(state).board.markers:
        if marker.kind != "mines" or marker.id in state.spent_markers:
            continue
        gap = math.hypot(op.at[0] - marker.at[0], op.at[1] - marker.at[1]) - op.radius
        if gap <= CONTROL_RANGE + 1e-9:
            state.spent_markers.append(marker.id)
            roll = state.dice.d3(f"mines {marker.id}: D3+3 damage to {op.name}",  # type: ignore
                                 [("mines", 3)])
            events.append({"type": "mines", "marker": marker.id, "operative": op.id,
                           "damage": roll.value})
            events.extend(apply_damage(game, state, op, roll.value, f"mines {marker.id}"))
    return events
