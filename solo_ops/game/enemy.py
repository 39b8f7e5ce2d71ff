"""Carrying out the enemy's plans, and applying damage to anyone.

:func:`apply_plan` applies a :class:`~solo_ops.ai.context.Plan` to the state: moves (with a
spotting check after each, as the fog of war requires), Kill Team 2018 charge rolls, attacks
(rolled by the engine, or handed to the player to roll when the game's ``enemy_attacks``
setting says so), stance and the unit's state-machine triggers, and merging into a leader's or
rallier's unit. :func:`~solo_ops.game.downed.apply_damage` is the one place wounds are taken away.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from solo_ops.ai import explain, fsm
from solo_ops.ai.planner import Action, Plan, replan_model
from solo_ops.game import attacks, cover_choice, cp, enemy_checks, fight_choices, placing, reveal
from solo_ops.game.downed import apply_damage as apply_damage  # (their home: game.downed)
from solo_ops.game.downed import take_down as take_down
from solo_ops.game.missions import KILLZONE_TABLES
from solo_ops.game.state import ENEMY, PLAYER, Operative, State
from solo_ops.geometry import placement
from solo_ops.rules import killzones, kt2024, reach

if TYPE_CHECKING:
    from solo_ops.game.definition import Game


CONTROL_RANGE = reach.CONTROL_RANGE
ATTACKS = ("shoot", "charge", "fight")
MAX_REPLANS = 3  # per model and activation (each re-plan drops a target that left the table)


def _r(p: Any) -> list[float] | None:
    return reach.round_point(p)


def _in_reach(game: Game, state: State, a: Operative, b: Operative) -> bool:
    """Control range (2024) / within 1" (2018) between two on-table operatives, by
    :mod:`solo_ops.rules.reach` (within 1" around the walls and visible)."""
    if not (a.on_table and b.on_table):
        return False
    assert a.at is not None and b.at is not None
    return reach.in_control_range(game.terrain(state), a.at, a.radius, b.at, b.radius)


def stale(game: Game, state: State, op: Operative, action: Action) -> str | None:
    """Why a planned attack can no longer be made as planned (its target is off the table,
    out of sight for a shot, out of reach for a fight), or a Fall Back no longer needed (no
    enemy holds the model in control range any more), or None when it still can."""
    moved = enemy_checks.stale_move(game, state, op, action)  # a Fall Back, a 2024 Charge
    if moved is not None or action.kind not in ATTACKS or action.target is None:
        return moved
    target = state.operatives.get(action.target)
    if target is not None and target.lying:
        return f"{target.label} is down"
    if target is None or not target.on_table:
        return f"{action.target} is no longer on the table"
    assert op.at is not None and target.at is not None
    if action.kind == "shoot":
        terrain = game.terrain(state)
        if not terrain.sight.visible(op.at, target.at, op.radius, target.radius):
            return f"{target.label} is no longer visible to {op.label}"
    if action.kind == "fight" and action.portal is None and not _in_reach(game, state, op,
                                                                         target):
        return f"{target.label} is not in {op.label}'s control range"
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
        "explain": list(plan.explain), "plan": plan.to_dict(),
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
            events.extend(_move(game, state, op, action))
            events.extend(reveal.check_spotting(game, state))
        elif action.kind == "charge" and reaction_due(game, state, op, action):
            events.extend(declare_charge(game, state, op, action))
        elif action.kind == "charge":
            events.extend(_charge(game, state, op, action))
            events.extend(reveal.check_spotting(game, state))
        elif action.kind == "shoot":
            events.extend(_shoot(game, state, op, action, acting=acting))
        elif action.kind == "fight":
            events.extend(_fight(game, state, op, action, acting=acting))
        elif action.kind == "operate_hatch":
            events.extend(_operate(game, state, op, action))
            events.extend(reveal.check_spotting(game, state))
        elif action.kind == "guard":
            op.on_guard = True
            events.append({"type": "on_guard", "operative": op.id, "note": action.note})
        if after_action is not None and op.on_table:
            events.extend(after_action(op, len(spent[op.id]) == 1))
    for trigger in plan.triggers:
        if unit.active and fsm.allowed(unit.fsm, trigger):
            unit.fsm = fsm.fire(unit.fsm, trigger)
    if plan.merge_into and unit.active is False and unit.fsm == "merged":
        events.append(state.merge_unit(unit, state.units[plan.merge_into]))
    events.append({"type": "unit_state", "unit": unit.id, "state": unit.fsm})
    return events


def _move(game: Game, state: State, op: Operative, action: Action) -> list[dict[str, Any]]:
    old = op.at
    assert old is not None and action.to is not None
    route: Any = action.route if len(action.route) >= 2 else (old, action.to)
    note = action.note
    moved_on = math.dist(route[0], old) > 0.005  # an earlier move of it stopped short
    if moved_on or enemy_checks.route_blocked(game, state, op, route):  # or a base in the way
        route = placing.way_from_here(game, state, op, action.to)
        if route is None:
            return [{"type": "move_blocked", "operative": op.id, "how": action.kind,
                     "blocked_by": "no way around the walls and bases",
                     "note": f"{op.label} cannot make its move from {explain.fmt_pt(old)}, "
                             "where its last move stopped: no way around the walls and "
                             "bases."}]
        note += (f" It starts from {explain.fmt_pt(old)}, where its last move stopped."
                 if moved_on else " It goes round a base now in its way.")
    limit = _allowance(state, op, action.kind)
    if action.rest and op.move_left is not None:  # the rest of a move a door interrupted
        limit = op.move_left
    if action.kind == "advance" and state.dice is not None:  # 004 Advance: "add D6""
        roll = state.dice.roll(f"advance roll: {op.label}", 1, 6)
        limit = reach.move_allowance(op, "advance", state.edition, roll=float(roll.value))
        note = f"{note} It rolls {roll.value} to Advance: {explain.inches(limit)} in all."
        op.advanced = True
    to, walk, blocked = placing.placed(game, state, op, route, limit)
    if to is None:
        return [{"type": "move_blocked", "operative": op.id, "how": action.kind,
                 "blocked_by": blocked,
                 "note": f"{op.label} cannot make its move: {blocked} (the placement rule)."}]
    cost = float(walk.cost)  # what its route costs, climbs and drops added (issue #27)
    if blocked is not None:
        note = (f"{note} It stops at {explain.fmt_pt(to)} after {explain.inches(cost)}: "
                f"{blocked}.")
    elif math.dist(to, action.to) > 0.005:
        note = (f"{note} Its route costs more than planned (climbing): it stops at "
                f"{explain.fmt_pt(to)}, its {explain.inches(limit)} spent.")
    op.at = to
    op.moved = True
    op.moved_how = action.kind
    op.move_left = None if limit is None else max(0.0, limit - cost)
    if action.kind == "fall_back":
        op.fell_back = True
    events = [{"type": "moved", "operative": op.id, "how": action.kind, "from": _r(old),
               "to": _r(to), "route": [_r(p) for p in walk.points],
               "cost": round(cost, 2), "note": note, **({"blocked_by": blocked} if blocked else {}),
               **placing.move_facts(game.terrain(state), state, op.id, op.radius,
                                    walk.points, game.words)}]
    return events + check_mines(game, state, op)


def _allowance(state: State, op: Operative, kind: str) -> float | None:
    """How far an enemy move of ``kind`` may go (``reach.move_allowance``; a 2018 Advance at
    its most), or None for a kind without one: a planned route that costs more is cut there."""
    try:
        return reach.move_allowance(op, kind, state.edition)
    except ValueError:
        return None


def reaction_due(game: Game, state: State, op: Operative, action: Action) -> bool:
    """Kill Team 2018: a charge rolled by the engine (``action.to`` None) at a player model
    that is more than 1" from every enemy model: the target may React first (004 "A model can
    React if it is the target of a charging model and it is more than 1" from an enemy
    model")."""
    if state.edition != "kt2018" or action.to is not None or action.target is None:
        return False
    target = state.operatives.get(action.target)
    if target is None or not target.on_table or target.side != PLAYER or target.at is None:
        return False
    return not may_not_react(game, state, target)


def may_not_react(game: Game, state: State, target: Operative) -> str | None:
    """Why ``target`` cannot React now (None: it can)."""
    terrain = game.terrain(state)
    assert target.at is not None
    for e in state.living(ENEMY):
        if e.at is not None and reach.engaged_2018(terrain, target.at, target.radius, e.at,
                                                   e.radius):
            return f"{target.name} is within 1\" of {e.label}"
    if target.moved_how == "retreat" and target.fell_back:
        return f"{target.name} retreated this battle round: it cannot React again"
    return None


def declare_charge(game: Game, state: State, op: Operative, action: Action
                   ) -> list[dict[str, Any]]:
    """Declare a 2018 charge and wait for the target's Reaction (Overwatch, Retreat or none):
    the charge roll is made when the player has answered (``actions._reaction`` calls
    :func:`charge_after_reaction`)."""
    target = state.operatives[action.target]  # type: ignore[index]
    may_retreat = target.moved_how is None and not target.charged
    text = (f"{op.label} declares a charge at {target.name}: react with Overwatch "
            f"('overwatch [with WEAPON] roll' or 'overwatch damage N')"
            + (", Retreat ('retreat X,Y', up to 3\" away from it)" if may_retreat else "")
            + " or 'no'?")
    state.pending_attacks.append({
        "kind": "reaction", "attacker": op.id, "target": target.id, "text": text,
        "retreat": may_retreat, "route": [list(p) for p in action.route],
        "note": action.note})
    return [{"type": "charge_declared", "operative": op.id, "target": target.id,
             "note": f"{op.label} declares a charge at {target.name}."}]


def charge_after_reaction(game: Game, state: State, entry: dict[str, Any],
                          retreated: bool) -> list[dict[str, Any]]:
    """The declared charge, after the target's Reaction: rolled along the planned route, or
    (the target retreated) along a new route to within 1" of it; none if the charger is
    gone."""
    op = state.operatives[entry["attacker"]]
    target = state.operatives[entry["target"]]
    if not op.on_table or not target.on_table or op.at is None or target.at is None:
        return []
    route = tuple(tuple(p) for p in entry.get("route") or ())
    if retreated or len(route) < 2:
        terrain = game.terrain(state)
        others = placement.discs(state.bases(exclude=(op.id, target.id)))
        walk = terrain.routes.walk(op.at, target.at, op.radius, blockers=others)
        if walk is None:
            return [{"type": "charge_failed", "operative": op.id, "target": target.id,
                     "note": f"{op.label} has no way to {target.label} any more."}]
        # stop short of the target's base: within 1" of it (0.5" from it)
        route = _cut(walk.points, max(0.0, walk.length - (op.radius + target.radius + 0.5)))
    action = Action("charge", op.id, start=op.at, route=route,  # type: ignore[arg-type]
                    target=target.id, note=str(entry.get("note", "")))
    return _charge(game, state, op, action)


def _cut(points: Any, length: float) -> tuple[tuple[float, float], ...]:
    """The first ``length`` inches of a polyline."""
    out = [tuple(points[0])]
    left = length
    for a, b in itertools.pairwise(points):
        d = math.dist(a, b)
        if d >= left:
            f = left / d if d else 0.0
            out.append((a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f))
            return tuple(out)  # type: ignore[return-value]
        out.append(tuple(b))
        left -= d
    return tuple(out)  # type: ignore[return-value]


def _charge(game: Game, state: State, op: Operative, action: Action) -> list[dict[str, Any]]:
    target = state.operatives[action.target]  # type: ignore[index]
    events: list[dict[str, Any]] = []
    if action.to is None:
        # Kill Team 2018: roll 2D6 and move along the planned route as far as the roll allows
        roll = state.dice.roll(f"charge roll: {op.label} at {target.label}", 2, 6)  # type: ignore
        terrain = game.terrain(state)
        # the planned route ends within 1" of the target and keeps out of 1" of every other
        # enemy; the model goes along it as far as the roll allows
        start = op.at
        assert start is not None
        route = tuple(action.route) if len(action.route) >= 2 else (start, start)
        # as far along it as the roll allows and its base may stand (the placement rule)
        end, walk, blocked = placing.placed(game, state, op, route, float(roll.value))
        if end is None:
            end, walk = start, terrain.routes.walk_through((start, start), op.radius)
        old = op.at
        op.at = (float(end[0]), float(end[1]))
        success = target.on_table and reach.engaged_2018(
            terrain, op.at, op.radius, target.at, target.radius)  # type: ignore[arg-type]
        op.charged = success
        op.moved = True
        op.moved_how = "charge"
        short = f" ({blocked})" if blocked and not success else ""
        events.append({"type": "charged" if success else "charge_failed", "operative": op.id,
                       "target": target.id, "roll": roll.value, "from": _r(old),
                       "to": _r(op.at), "route": [_r(p) for p in walk.points],
                       "cost": round(float(walk.cost), 2),
                       **({"blocked_by": blocked} if blocked else {}),
                       **placing.move_facts(terrain, state, op.id, op.radius, walk.points,
                                            game.words),
                       "note": f"{op.label} rolls {roll.value} for the charge "
                       f"and {'reaches' if success else 'falls short of'} {target.label}"
                       f"{short}."})
        return events + check_mines(game, state, op)
    old = op.at
    assert old is not None and action.to is not None
    to, walk, blocked = placing.placed(game, state, op,
                                       action.route if len(action.route) >= 2
                                       else (old, action.to),
                                       _allowance(state, op, "charge"))
    moved_short = to is not None and (blocked is not None or math.dist(to, action.to) > 0.005)
    if to is None or (moved_short and target.at is not None and not reach.in_control_range(
            game.terrain(state), to, op.radius, target.at, target.radius)):
        return [{"type": "charge_failed", "operative": op.id, "target": target.id,
                 "from": _r(old), "to": _r(old), "blocked_by": blocked,
                 "note": f"{op.label} cannot end its charge in {target.label}'s control range: "
                         f"{blocked or 'its route costs more than its charge move'}."}]
    op.at = to
    op.moved = True
    op.charged = True
    op.moved_how = "charge"
    cost = float(walk.cost)
    events.append({"type": "charged", "operative": op.id, "target": target.id, "from": _r(old),
                   "to": _r(to), "route": [_r(p) for p in walk.points],
                   "cost": round(cost, 2), "note": action.note,
                   **({"blocked_by": blocked} if blocked else {}),
                   **placing.move_facts(game.terrain(state), state, op.id, op.radius,
                                        walk.points, game.words)})
    return events + check_mines(game, state, op)


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


def _shoot(game: Game, state: State, op: Operative, action: Action, *,
           hit_penalty: int = 0, acting: frozenset[str] = frozenset()) -> list[dict[str, Any]]:
    """An enemy shot, rolled or handed to the player. ``hit_penalty`` worsens the weapon's
    Hit stat (On Guard shooting within control range: -1 to hit). ``acting``: the models whose
    activation this is (see :func:`stun`)."""
    target = state.operatives[action.target]  # type: ignore[index]
    if not target.on_table:
        return []
    weapon = next(w for w in op.profile.weapons if w.name == action.weapon)
    if limited_used_up(state, op, weapon):
        return [{"type": "shot_cancelled", "operative": op.id, "target": target.id,
                 "note": f"{op.label}'s {weapon.name} is used up (Limited)."}]
    if hit_penalty and weapon.hit is not None:
        weapon = replace(weapon, hit=min(6, weapon.hit + hit_penalty))
    terrain = game.terrain(state)
    cover = shot_cover(game, state, op, weapon, target)
    if not cover.visible:
        return [{"type": "shot_cancelled", "operative": op.id, "target": target.id,
                 "note": f"{target.label} is no longer visible to {op.label}."}]
    text = attacks.describe_shot(state.edition, op, weapon, target, cover, terrain)
    if hit_penalty:
        text += f" (-{hit_penalty} to hit: On Guard, shooting within control range)"
    op.shot = True
    events: list[dict[str, Any]] = count_limited(state, op, weapon)
    secondary = secondary_targets(game, state, op, weapon, target, cover)
    if game.settings.enemy_attacks == "player":
        if secondary:
            rule = kt2024.secondary_rule(weapon)
            assert rule is not None
            names = ", ".join(o.label for o, _ in secondary)
            text += (f" {rule.kind.title()} {rule.radius:g}\": then shoot {names} the same "
                     "way and report their damage with 'damage MODEL N'.")
        state.pending_attacks.append({"kind": "shoot", "attacker": op.id, "target": target.id,
                                      "weapon": weapon.name, "text": text})
        return [*events, {"type": "attack_pending", "attacker": op.id, "target": target.id,
                          "note": text}]
    return events + _resolve_shot(game, state, op, weapon, target, cover, secondary, text,
                                  acting=acting)


def _resolve_shot(game: Game, state: State, op: Operative, weapon: Any, target: Operative,
                  cover: Any, secondary: list[tuple[Operative, Any]], note: str | None, *,
                  acting: frozenset[str] = frozenset(), overwatch: bool = False
                  ) -> list[dict[str, Any]]:
    """Roll a shot (either side's) with every weapon rule the game knows, then apply it: damage
    to the target, to Blast / Torrent targets and Devastating splash, Hot to the shooter, Stun.
    """
    terrain = game.terrain(state)
    flags = flags_2018(game, state, op, weapon, target)
    if overwatch:
        flags["overwatch"] = True
    assert state.dice is not None
    result = attacks.roll_shot(state.edition, state.dice, op, weapon, target, cover, terrain,
                               secondary=secondary,
                               nearby=devastating_nearby(game, state, weapon, target),
                               cp=cp_hooks(game), covers=cover_choice.hooks(game), **flags)
    event: dict[str, Any] = {"type": "attack", "attacker": op.id, "target": target.id,
                             "weapon": weapon.name, "damage": result.damage,
                             "lines": result.lines}
    if note is not None:
        event["note"] = note
    if result.splash:
        event["splash"] = [{"operative": i, "damage": d} for i, d in result.splash]
    events = [event, *cp.spent(game)]  # the CP its re-rolls cost, told with it
    events += apply_damage(game, state, target, result.damage, f"shot by {op.label}",
                           outcome=result.outcome)
    rule = kt2024.secondary_rule(weapon)
    splashed = len(result.splash) - (len(secondary) if rule is not None else 0)
    for index, (extra_target, amount) in enumerate(result.splash):
        victim = state.operatives.get(extra_target)
        if victim is None or not victim.on_table:
            continue
        # the bridge lists Devastating's splash first, then one entry per Blast/Torrent target
        kind = "Devastating" if index < splashed or rule is None else rule.kind
        why = f"{weapon.name} {kind} (shot by {op.label})"
        events.append({"type": "secondary_hit", "attacker": op.id, "operative": victim.id,
                       "weapon": weapon.name, "damage": amount, "why": why})
        events += apply_damage(game, state, victim, amount, why)
    if result.self_damage and op.on_table:
        events += apply_damage(game, state, op, result.self_damage, f"{weapon.name} is Hot")
    events += stun(state, result.stunned, f"{weapon.name} (Stun)", acting=acting)
    return events


def _fight(game: Game, state: State, op: Operative, action: Action, *,
           acting: frozenset[str] = frozenset()) -> list[dict[str, Any]]:
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
    result = roll_fight(game, state, op, target)
    events = [{"type": "fight", "attacker": op.id, "target": target.id,
               "damage": result.damage, "damage_taken": result.damage_taken,
               "lines": result.lines, "note": text}, *cp.spent(game)]
    events += apply_damage(game, state, target, result.damage, f"fought by {op.label}",
                           outcome=result.outcome)
    if result.damage_taken and op.on_table:
        events += apply_damage(game, state, op, result.damage_taken,
                               f"struck back by {target.label}", outcome=result.outcome_taken)
    events += stun(state, result.stunned, "Stun", acting=acting)
    return events


def _is_hatch(game: Game, portal: str) -> bool:
    try:
        return bool(game.scenario.board.feature(portal).has("hatch"))
    except (KeyError, AttributeError):
        return False


# -- Guard -----------------------------------------------------------------------------------------
def guard_interrupts(game: Game, state: State, mover: Operative) -> list[dict[str, Any]]:
    """After a player operative's first action of its activation: every enemy model On Guard
    (in id order) that can now shoot it (a valid target) or fight it (in control range)
    interrupts, for free; doing so ends its Guard. Rolled or handed to the player like every
    enemy attack."""
    from solo_ops.ai.planner import guard_reaction

    events: list[dict[str, Any]] = []
    cp.tell(game, events)  # the interrupt is told before a question in its attack
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
            penalty = 1 if _in_reach(game, state, guard, mover) else 0
            events.extend(_shoot(game, state, guard, action, hit_penalty=penalty))
    return events


def guards_engaged(game: Game, state: State, mover: Operative) -> list[dict[str, Any]]:
    """Guard ends when an enemy ends an action in the guard's control range (within 1" around
    the walls and visible: :func:`solo_ops.rules.reach.in_control_range`)."""
    events: list[dict[str, Any]] = []
    if not mover.on_table:
        return events
    for guard in sorted(state.living(ENEMY), key=lambda o: o.id):
        if guard.on_guard and _in_reach(game, state, guard, mover):
            guard.on_guard = False
            events.append({"type": "guard_ended", "operative": guard.id,
                           "why": f"{mover.label} ended an action within its control range"})
    return events


def roll_fight(game: Game, state: State, op: Operative, target: Operative) -> Any:
    """``op`` fights ``target``, rolled with the game's dice — the same for either side: the
    friends helping each (2018), a broken or trapped side (2018, Pariah Nexus No Escape),
    the Volkus stronghold's defenders striking first (rules/killzones.py), and a player
    operative's dice resolved as the players choose (:mod:`solo_ops.game.fight_choices`)."""
    extra: dict[str, bool] = {}
    if state.edition == "kt2018":
        extra = {"broken": broken_2018(state, op.side),
                 "no_escape": pariah_nexus(game) and no_escape(game, state, op, target)}
    elif killzones.defender_first(game.scenario.board, op.at, op.radius, target.at,
                                  target.radius):
        extra = {"defender_first": True}
    assert state.dice is not None
    return attacks.roll_fight(state.edition, state.dice, op, target,
                              _fight_helpers(game, state, op, target), cp=cp_hooks(game),
                              choices=fight_choices.hooks(game), **extra)


def cp_hooks(game: Game) -> attacks.CpHooks | None:
    """The players' Command Point re-roll choosers for the step under way (set by
    :func:`solo_ops.game.engine.step`, see :mod:`solo_ops.game.cp`), or None."""
    chooser = getattr(game, "cp_chooser", None)
    return None if chooser is None else chooser.hook


def _fight_helpers(game: Game, state: State, op: Operative, target: Operative) -> int:
    """Other friendly operatives also in control range of the target and of no other enemy."""
    count = 0
    foes = state.living(PLAYER if op.side == ENEMY else ENEMY)
    for friend in state.living(op.side):
        if friend.id == op.id:
            continue
        if not _in_reach(game, state, friend, target):
            continue
        if any(_in_reach(game, state, friend, f) for f in foes if f.id != target.id):
            continue
        count += 1
    return count


def resolve_player_shot(game: Game, state: State, op: Operative, weapon: Any,
                        target: Operative) -> list[dict[str, Any]]:
    """The player asked solo-ops to roll their shot (``op`` is the active operative)."""
    cover = shot_cover(game, state, op, weapon, target)
    secondary = secondary_targets(game, state, op, weapon, target, cover)
    return _resolve_shot(game, state, op, weapon, target, cover, secondary, None,
                         acting=frozenset({op.id}))


# -- weapon rules in play ----------------------------------------------------------------------
def shot_cover(game: Game, state: State, shooter: Operative, weapon: Any,
               target: Operative) -> attacks.ShotCover:
    """The target's cover from the shooter, for the attack's dice, with Vantage (Kill Team
    2024): a shooter standing on a ``vantage`` feature with a ``height`` shooting an Engaged
    target on the floor has Accurate 1 from 2" above, Accurate 2 from 4" above.

    Seek and Seek Light are not applied here: they only decide whether a Concealed operative
    may be targeted (the planner and the players' shot check do that), and "any Cover saves
    can still be retained" (002, Seek)."""
    terrain = game.terrain(state)
    cover = terrain.sight.cover(shooter.at, target.at, shooter.radius, target.radius,
                                edition=state.edition)
    accurate = 0
    if (state.edition == "kt2024" and cover.visible and target.stance == "engage"
            and vantage_height(terrain.board, target.at) == 0.0):
        accurate = kt2024.vantage_accurate(vantage_height(terrain.board, shooter.at))
    return attacks.ShotCover.of(cover, accurate)


def vantage_height(board: Any, at: Any) -> float:
    """The height of the highest ``vantage`` feature (with a ``height``) whose footprint holds
    the point ``at`` (a base's centre), or 0.0 on the floor."""
    from shapely.geometry import Point

    if at is None:
        return 0.0
    point = Point(float(at[0]), float(at[1]))
    best = 0.0
    for f in board.features:
        if f.has("vantage") and f.height and not f.is_line and f.shape.covers(point):
            best = max(best, float(f.height))
    return best


def _hidden_unit(state: State, op: Operative) -> bool:
    unit = state.units.get(op.owner) if op.side == ENEMY else None
    return unit is not None and unit.fsm == "hidden"


def secondary_targets(game: Game, state: State, shooter: Operative, weapon: Any,
                      target: Operative, cover: Any) -> list[tuple[Operative, Any]]:
    """Blast x / Torrent x extra targets as ``(operative, cover)`` (Kill Team 2024), nearest
    to the primary target first.

    Distances are measured as the killzone measures (around walls: ``routes.distance``).
    Blast: the shooter's enemies within x of the primary target and visible to it (Conceal
    ignored), each taking the primary's cover. Torrent: every other valid target of the
    shooter (visible, in range, not Concealed in cover) within x of the primary, each with its
    own cover from the shooter (solo-ops shoots them all)."""
    rule = kt2024.secondary_rule(weapon)
    if state.edition != "kt2024" or rule is None or target.at is None:
        return []
    terrain = game.terrain(state)
    foes = state.living(ENEMY if shooter.side == PLAYER else PLAYER)
    found: list[tuple[float, str, Operative, Any]] = []
    for other in foes:
        if other.id == target.id or _hidden_unit(state, other):
            continue
        d = terrain.routes.distance(target.at, other.at, target.radius, other.radius).distance
        if d is None or d > rule.radius + 1e-9:
            continue
        other_cover = cover
        visible_to_primary = valid = False
        if rule.needs_visible_to_primary:
            visible_to_primary = terrain.sight.visible(target.at, other.at, target.radius,
                                                       other.radius)
        if rule.needs_valid_for_shooter:
            other_cover = shot_cover(game, state, shooter, weapon, other)
            reach = terrain.routes.distance(shooter.at, other.at, shooter.radius,
                                            other.radius).distance
            valid = (other_cover.visible and reach is not None
                     and kt2024.in_range(weapon, reach)
                     and not (other.stance == "conceal" and other_cover.in_cover))
        candidate = kt2024.Candidate(other.id, d, visible_to_primary, valid)
        if kt2024.secondary_targets(weapon, [candidate]):
            found.append((d, other.id, other, other_cover))
    found.sort(key=lambda f: (f[0], f[1]))
    return [(o, c) for _, _, o, c in found]


def devastating_nearby(game: Game, state: State, weapon: Any,
                       target: Operative) -> list[Operative]:
    """For the distance form of Devastating: every other operative on the table (either side,
    the shooter included) visible to the target; the bridge keeps those within x."""
    if state.edition != "kt2024" or kt2024.devastating_splash(weapon) is None:
        return []
    sight = game.terrain(state).sight
    return [o for o in state.operatives.values()
            if o.on_table and o.id != target.id and not _hidden_unit(state, o)
            and sight.visible(target.at, o.at, target.radius, o.radius)]


def limited_used_up(state: State, op: Operative, weapon: Any) -> bool:
    """Limited x (Kill Team 2024): whether ``op`` has used ``weapon`` x times this battle."""
    if state.edition != "kt2024":
        return False
    left = kt2024.uses_left(weapon, op.limited_uses.get(weapon.name, 0))
    return left is not None and left <= 0


def count_limited(state: State, op: Operative, weapon: Any) -> list[dict[str, Any]]:
    """Count one use of a Limited weapon (one per action, whatever the number of targets)."""
    if state.edition != "kt2024" or not weapon.has("limited"):
        return []
    used = op.limited_uses.get(weapon.name, 0) + 1
    op.limited_uses[weapon.name] = used
    left = kt2024.uses_left(weapon, used)
    return [{"type": "limited_use", "operative": op.id, "weapon": weapon.name, "used": used,
             "left": left}]


def stun(state: State, ids: list[str], why: str, *,
         acting: frozenset[str] = frozenset()) -> list[dict[str, Any]]:
    """Stun: each operative loses 1 APL (not cumulative) from now until the end of its next
    activation. One stunned during its own activation (``acting``, or the active player
    operative) keeps the penalty through its next one too."""
    events: list[dict[str, Any]] = []
    for ident in dict.fromkeys(ids):
        op = state.operatives.get(ident)
        if op is None or not op.on_table:
            continue
        op.apl_penalty = 1
        if ident in acting or ident == state.active_operative:
            op.stun_carries = True
        events.append({"type": "stunned", "operative": op.id, "why": why,
                       "apl": max(1, op.profile.apl - op.apl_penalty)})
    return events


def end_activation_stun(op: Operative) -> None:
    """At the end of ``op``'s activation its Stun ends, unless it was stunned during it."""
    op.apl_penalty = 1 if op.stun_carries else 0
    op.stun_carries = False


def pariah_nexus(game: Game) -> bool:
    """Whether the Pariah Nexus ultra-close-confines rules (Close Quarters, Concentrated
    Radius, No Escape) apply: a Kill Team 2018 game with a Pariah Nexus mission (the 2018
    default) or on a Pariah Nexus killzone."""
    if game.edition != "kt2018":
        return False
    return (getattr(game.scenario.mission, "pariah", None) is not None
            or game.scenario.board.killzone in KILLZONE_TABLES)


def broken_2018(state: State, side: str) -> bool:
    """Kill Team 2018: the side's kill team is broken (more than half its models out of action
    or shaken; the test :func:`solo_ops.game.scoring.morale_2018` uses)."""
    models = state.side(side)
    gone = sum(1 for o in models if o.down or o.shaken)
    return bool(models) and gone * 2 > len(models)


def flags_2018(game: Game, state: State, op: Operative, weapon: Any,
               target: Operative) -> dict[str, Any]:
    """The bridge's Kill Team 2018 shot options: broken, long range (more than half the
    weapon's range, measured as the range check measures: around walls) and the Pariah Nexus
    rules. Overwatch is added by the caller (a player's Reaction, ``actions._reaction``)."""
    if state.edition != "kt2018":
        return {}
    long_range = None
    if weapon.range and not weapon.is_melee:
        d = game.terrain(state).routes.distance(op.at, target.at, op.radius,
                                                target.radius).distance
        if d is not None:
            long_range = d > weapon.range / 2 + 1e-9
    confines = pariah_nexus(game)
    return {"broken": broken_2018(state, op.side), "long_range": long_range,
            "close_quarters": confines, "concentrated_radius": confines}


def no_escape(game: Game, state: State, attacker: Operative, target: Operative) -> bool:
    """No Escape (Pariah Nexus): the straight line from the attacker's centre through the
    target's centre to the board's edge touches a wall, door, terrain feature or pitfall
    within 1" of the target (open doors are off the board in 2018)."""
    from shapely.geometry import LineString, Point, box

    if attacker.at is None or target.at is None:
        return False
    board = game.terrain(state).board
    ax, ay = attacker.at
    tx, ty = target.at
    length = math.hypot(tx - ax, ty - ay)
    if length <= 1e-9:
        return False
    far = board.width + board.depth
    line = LineString([(ax, ay), (tx + (tx - ax) / length * far, ty + (ty - ay) / length * far)])
    ray = line.intersection(box(0, 0, board.width, board.depth))
    near = Point(tx, ty).buffer(target.radius + CONTROL_RANGE)
    for f in board.features:
        if f.is_portal and f.open and not f.has("hatch"):
            continue
        touched = f.shape.intersection(ray)
        if not touched.is_empty and touched.intersects(near):
            return True
    return False


def check_mines(game: Game, state: State, op: Operative) -> list[dict[str, Any]]:
    """Mines: "The first time ANY Operative is within Control Range, inflict D3+3 damage"."""
    events: list[dict[str, Any]] = []
    if op.at is None:
        return events
    for marker in game.terrain(state).board.markers:
        if marker.kind != "mines" or marker.id in state.spent_markers:
            continue
        if reach.in_control_range(game.terrain(state), op.at, op.radius, marker.at, 0.0):
            state.spent_markers.append(marker.id)
            roll = state.dice.d3(f"mines {marker.id}: D3+3 damage to {op.label}",  # type: ignore
                                 [("mines", 3)])
            events.append({"type": "mines", "marker": marker.id, "operative": op.id,
                           "damage": roll.value})
            events.extend(apply_damage(game, state, op, roll.value, f"mines {marker.id}"))
    return events
