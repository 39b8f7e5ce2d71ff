"""The player's reported actions: checked against the board and the rules, then applied.

Each function takes the game, the state and an action dict and returns events, or raises
:class:`~solo_ops.core.errors.RuleError` with the reason (the state is untouched: every check runs
before the first change). The command line turns typed answers into these dicts
(:mod:`solo_ops.view.answers`), so a script can drive a game with the same vocabulary.

The checks every action shares (the active operative, AP, control range) are in
:mod:`solo_ops.game.action_checks`; the move action is in :mod:`solo_ops.game.player_moves`.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from solo_ops.ai.guard import GALLOWDARK
from solo_ops.core.errors import RuleError
from solo_ops.game import attack_checks, cp, markers, reveal, scoring, turns
from solo_ops.game.action_checks import AP_COST as AP_COST
from solo_ops.game.action_checks import (
    CONTROL_RANGE,
    MOVE_TOLERANCE,
    _active,
    _centre,
    _enemies_in_control,
    _op,
    _point,
    _spend,
    activation,
    holder,
    order_may_change,
)
from solo_ops.game.attack_checks import (
    _check_fight_start,
    _check_shot_rest,
    _check_shot_start,
    check_fight,
)
from solo_ops.game.enemy import (
    apply_damage,
    check_mines,
    count_limited,
    end_activation_stun,
    resolve_player_shot,
    roll_fight,
    stun,
)
from solo_ops.game.player_moves import _move, open_moves
from solo_ops.game.state import ENEMY, PLAYER, Operative, State
from solo_ops.geometry import placement
from solo_ops.rules import portals, reach, referee

if TYPE_CHECKING:
    from solo_ops.core.model import Weapon
    from solo_ops.game.definition import Game
    from solo_ops.geometry.routes import Walk
    from solo_ops.geometry.terrain import Terrain


def apply(game: Game, state: State, action: dict[str, Any], prompt: Any) -> list[dict[str, Any]]:
    """Check and apply one player action (see the module docstring)."""
    kind = action.get("type")
    handlers = {
        "activate": _activate, "move": _move, "shoot": _shoot, "fight": _fight,
        "damage": _damage, "down": _down, "carry": _carry, "evacuate": _evacuate,
        "portal": _portal, "ready": _ready, "done": _done, "attack_damage": _attack_damage,
        "reaction": _reaction, "cp": cp.spend_at_table,
        "counteract": _counteract, "pickup": _pickup, "placedown": _placedown,
        "guard": _guard, "order": _order,
    }
    handler = handlers.get(str(kind))
    if handler is None:
        raise RuleError(f"unknown action {kind!r}")
    if prompt.kind == "attack" and kind not in ("attack_damage", "cp"):
        raise RuleError(f"first tell me the damage: {prompt.text}")
    if prompt.kind == "counteract" and kind not in ("counteract", "damage", "down", "cp"):
        raise RuleError(f"first counteract or pass: {prompt.text}")
    if state.counteracting and kind in ("carry", "evacuate", "ready"):
        raise RuleError(f"a counteract is one 1 AP action: {kind} is not one")
    if (prompt.kind == "reaction") != (kind == "reaction"):
        raise RuleError(f"first answer the charge: {prompt.text}" if prompt.kind == "reaction"
                        else "no charge is waiting for a Reaction")
    return handler(game, state, action, prompt)


# -- actions ---------------------------------------------------------------------------------------
def _activate(game: Game, state: State, action: dict[str, Any], prompt: Any) -> list[dict]:
    if prompt.kind != "activate":
        raise RuleError("an operative is already active: finish it with 'done'")
    op = _op(state, action.get("operative"))
    if op.id not in prompt.options:
        raise RuleError(f"{op.id} cannot act now (ready: {', '.join(prompt.options)})")
    stance = action.get("stance")
    if stance is not None and stance not in ("engage", "conceal"):
        raise RuleError(f"stance must be engage or conceal, got {stance!r}")
    if stance:
        op.stance = stance
    state.active_operative = op.id
    state.activation_actions = 0
    op.activated = True
    op.ap_used = 0
    op.actions_taken = []
    op.heavy_shot = None
    op.moved = op.carrying is not None  # a carrier always counts as having moved
    state.active_player = op.owner
    kept = {"kept": True} if stance is None and state.edition == "kt2024" else {}
    return [{"type": "activated", "operative": op.id, "player": op.owner, "stance": op.stance,
             **kept}]


def _order(game: Game, state: State, action: dict[str, Any], prompt: Any) -> list[dict]:
    """``engage`` / ``conceal`` before the active operative's first action: its order for
    this activation (2024 orders are chosen as the activation starts; an operative activated
    without one keeps the order it had)."""
    op = _active(state, action, prompt)
    stance = action.get("stance")
    if state.edition != "kt2024":
        raise RuleError("Kill Team 2018 has no Engage or Conceal orders")
    if stance not in ("engage", "conceal"):
        raise RuleError(f"an order is engage or conceal, not {stance!r}")
    if not order_may_change(state, op):
        raise RuleError(f"{op.name}'s order is chosen as its activation starts, and it has "
                        "already acted ('undo' takes the action back)")
    op.stance = stance
    return [{"type": "order", "operative": op.id, "player": op.owner, "stance": stance}]


def _shoot(game: Game, state: State, action: dict[str, Any], prompt: Any) -> list[dict]:
    """Check a reported shot of the active operative (``target``, ``weapon``; ``roll`` or the
    ``damage`` dealt) against every rule below, in order, then apply it."""
    op = _active(state, action, prompt)
    _check_shot_start(state, op)
    target = _op(state, action.get("target"), "target")
    if target.side == op.side or not target.on_table:
        raise RuleError(f"{target.id} is not an enemy on the table")
    weapon = _chosen_weapon(op, action)
    heavy = _check_shot_rest(game, state, op, target, weapon)
    if action.get("roll") and weapon is None:
        raise RuleError("say which weapon to roll: 'with WEAPON'")
    _spend(state, op, "shoot")
    return _fire(game, state, op, target, weapon, heavy, action)


def _chosen_weapon(op: Operative, action: dict[str, Any]) -> Weapon | None:
    """The weapon the shot names (None when it names none), or refuse an unknown one."""
    weapon = None
    if action.get("weapon"):
        weapon = next((w for w in op.profile.weapons if w.name == action["weapon"]), None)
        if weapon is None:
            names = ", ".join(w.name for w in op.profile.ranged_weapons)
            raise RuleError(f"{op.name} has no weapon {action['weapon']!r} ({names})")
    return weapon


def _fire(game: Game, state: State, op: Operative, target: Operative, weapon: Weapon | None,
          heavy: bool, action: dict[str, Any]) -> list[dict[str, Any]]:
    """Record the shot, then roll it (or take the damage reported); every enemy unit shot at
    hears of it."""
    op.shot = True
    if heavy:
        assert weapon is not None
        op.heavy_shot = weapon.name
    events: list[dict[str, Any]] = [{"type": "shot", "operative": op.id, "target": target.id,
                                     "weapon": weapon.name if weapon else None}]
    if weapon is not None:
        events.extend(count_limited(state, op, weapon))
    if action.get("roll"):
        assert weapon is not None
        rolled = resolve_player_shot(game, state, op, weapon, target)
        events.extend(rolled)
        for e in rolled:  # Blast / Torrent targets were shot at too
            if e.get("type") == "secondary_hit" and e["operative"] != op.id:
                hit = state.operatives[e["operative"]]
                if hit.side != op.side:
                    events.extend(_react_to_shot(state, hit))
    elif action.get("damage") is not None:
        events.extend(apply_damage(game, state, target, int(action["damage"]),
                                   f"shot by {op.name}"))
    events.extend(_react_to_shot(state, target))
    return events


def _react_to_shot(state: State, target: Operative) -> list[dict[str, Any]]:
    unit = state.unit_of(target.id)
    if unit is None or not unit.active:
        return []
    from solo_ops.ai import fsm

    if fsm.allowed(unit.fsm, "shot_at"):
        unit.fsm = fsm.fire(unit.fsm, "shot_at")
    return [{"type": "unit_event", "unit": unit.id, "event": "shot_at"}]


def _fight(game: Game, state: State, action: dict[str, Any], prompt: Any) -> list[dict]:
    op = _active(state, action, prompt)
    _check_fight_start(state, op)
    target = _op(state, action.get("target"), "target")
    check_fight(game, state, op, target)
    _spend(state, op, "fight")
    op.fought = True
    if action.get("roll"):  # "fight X roll": solo-ops rolls both sides' dice, as for a shot
        return _rolled_fight(game, state, op, target)
    events: list[dict[str, Any]] = [{"type": "fight", "operative": op.id, "target": target.id}]
    dealt = int(action.get("dealt", 0) or 0)
    taken = int(action.get("taken", 0) or 0)
    if dealt < 0 or taken < 0:
        raise RuleError("damage cannot be negative")
    if dealt:
        events.extend(apply_damage(game, state, target, dealt, f"fought by {op.name}"))
    if taken:
        events.extend(apply_damage(game, state, op, taken, f"fighting {target.label}"))
    return events


def _rolled_fight(game: Game, state: State, op: Operative, target: Operative) -> list[dict]:
    """A player's fight rolled by solo-ops: the same dice and events as an enemy's fight."""
    result = roll_fight(game, state, op, target)
    events: list[dict[str, Any]] = [{"type": "fight", "attacker": op.id, "target": target.id,
                                     "damage": result.damage,
                                     "damage_taken": result.damage_taken,
                                     "lines": result.lines}, *cp.spent(game)]
    events += apply_damage(game, state, target, result.damage, f"fought by {op.name}",
                           outcome=result.outcome)
    if result.damage_taken and op.on_table:
        events += apply_damage(game, state, op, result.damage_taken,
                               f"struck back by {target.label}", outcome=result.outcome_taken)
    events += stun(state, result.stunned, "Stun")
    return events


def _damage(game: Game, state: State, action: dict[str, Any], prompt: Any) -> list[dict]:
    target = _op(state, action.get("operative"))
    if target.down:
        raise RuleError(f"{target.label} is already down")
    try:
        amount = int(action.get("amount"))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise RuleError(f"damage must be a whole number, got {action.get('amount')!r}") from None
    if amount < 0:
        raise RuleError("damage cannot be negative")
    return apply_damage(game, state, target, amount, str(action.get("why", "reported")))


def _down(game: Game, state: State, action: dict[str, Any], prompt: Any) -> list[dict]:
    target = _op(state, action.get("operative"))
    if target.down:
        raise RuleError(f"{target.label} is already down")
    return apply_damage(game, state, target, target.wounds, "reported down")


def _carry(game: Game, state: State, action: dict[str, Any], prompt: Any) -> list[dict]:
    op = _active(state, action, prompt)
    friend = _op(state, action.get("target"), "friend")
    if friend.side != op.side or not friend.down or friend.at is None:
        raise RuleError(f"{friend.name} is not a downed friend")
    if friend.carried_by is not None:
        raise RuleError(f"{friend.name} is already carried by {friend.carried_by}")
    if op.carrying is not None:
        raise RuleError(f"{op.name} is already carrying {op.carrying}")
    if op.marker is not None:
        raise RuleError(f"{op.name} is carrying {op.marker}: it cannot carry a friend too")
    assert op.at is not None
    if not reach.in_control_range(game.terrain(state), op.at, op.radius, friend.at,
                                  friend.radius):
        gap = reach.route_gap(game.terrain(state), op.at, op.radius, friend.at, friend.radius)
        raise RuleError(f"{op.name} must first move to {friend.name} ({gap:.1f}\" away)")
    op.carrying = friend.id
    friend.carried_by = op.id
    friend.at = op.at
    op.ap_used = max(op.profile.apl, op.ap_used)  # picking him up ends all actions this turn
    op.actions_taken.append("carry")
    events = [{"type": "carry", "operative": op.id, "carried": friend.id,
               "note": f"{op.name} picks up {friend.name}: its actions end this turn; it moves "
                       "at most 4\" a turn and always counts as having moved."}]
    return events + _end_activation(game, state, op)


def _evacuate(game: Game, state: State, action: dict[str, Any], prompt: Any) -> list[dict]:
    op = _active(state, action, prompt)
    if op.carrying is None:
        raise RuleError(f"{op.name} is not carrying anyone")
    assert op.at is not None
    board = game.terrain(state).board
    if not reach.at_edge(board, op.at, op.radius):
        edge = reach.edge_gap(board, op.at, op.radius)
        raise RuleError(f"{op.name} must be within 1\" of a table edge to carry "
                        f"{op.carrying} off ({edge:.1f}\" away; 'evacuate' alone proposes "
                        "the way to the nearest edge)")
    friend = state.operatives[op.carrying]
    friend.carried_to_safety = True
    friend.at = None
    op.at = None
    events = [{"type": "evacuated", "operative": op.id, "carried": friend.id,
               "note": f"{op.name} carries {friend.name} off the table to safety."}]
    return events + _end_activation(game, state, op)


def _portal(game: Game, state: State, action: dict[str, Any], prompt: Any) -> list[dict]:
    """Open or close a door or hatch: the active operative within 1" of it, by the edition's
    rule and timing (:func:`solo_ops.rules.portals.operate`, the AI's rule too), or with no
    operative active Kill Team 2018's Access Override (:func:`portals.access_override`)."""
    fid = action.get("feature")
    board = game.scenario.board
    try:
        feature = board.feature(str(fid))
    except KeyError:
        names = ", ".join(f.id for f in board.portals()) or "none on this board"
        raise RuleError(f"no door or hatch called {fid!r} ({names})") from None
    if not feature.is_portal:
        raise RuleError(f"{fid} is not a door or hatch")
    want = bool(action.get("open"))
    if state.doors.get(feature.id) == want:
        raise RuleError(f"{fid} is already {'open' if want else 'closed'}")
    word = "hatch" if feature.has("hatch") else "door"
    op = None
    override = False
    if prompt.kind == "act" and state.active_operative is not None:
        op = state.operatives[state.active_operative]
        from shapely.geometry import Point

        terrain = game.terrain(state)
        gap = feature.shape.distance(Point(_centre(op))) - op.radius
        enemies = [e for e in state.living(ENEMY if op.side == PLAYER else PLAYER)
                   if e.at is not None]
        guarded = any(feature.shape.distance(Point(_centre(e))) - e.radius
                      <= CONTROL_RANGE + 1e-9 for e in enemies)
        if gap > CONTROL_RANGE + 1e-6:
            raise RuleError(f"{feature.id} is {gap:.1f}\" from {op.name}: it must be within "
                            "control range (1\")")
        if not want:
            standing = [o.name for o in state.operatives.values() if o.on_table
                        and feature.shape.distance(Point(_centre(o))) < o.radius - 1e-9]
            if standing:
                raise RuleError(f"{feature.id} cannot close: {', '.join(standing)} "
                                f"{'stands' if len(standing) == 1 else 'stand'} in the "
                                "doorway")
        verdict = portals.operate(
            state.edition, opening=want, phase=state.phase, gap=gap,
            in_enemy_control=bool(reach.within_reach(terrain, op, enemies)),
            portal_guarded=guarded, moved_how=op.moved_how, readied=op.readied,
            advanced=op.advanced, charged=op.charged, word=word)
        if not verdict.ok:
            raise RuleError(f"{op.name} cannot {'open' if want else 'close'} {feature.id}: "
                            f"{verdict.why}")
        _spend_portal(state, op, verdict.cost)
    else:
        nodes = [o.id for o in board.objectives if o.command_node]
        control = scoring.objective_control(game, state) if nodes else {}
        verdict = portals.access_override(
            state.edition, phase=state.phase, turn=state.turn,
            players_left_to_move=turns.next_player(game, state) is not None,
            controls_command_node=any(control.get(n) == PLAYER for n in nodes),
            cp=state.cp.get(PLAYER, 0), used_this_round=state.override_used,
            shooting_started=any(o.activated for o in state.operatives.values()))
        if not verdict.ok:
            raise RuleError(verdict.why)
        if not want:
            raise RuleError("Access Override opens a door (it does not close one)")
        state.cp[PLAYER] = state.cp.get(PLAYER, 0) - verdict.cost
        state.override_used = True  # a State field: checkpoints keep it (issue #14)
        override = True
    state.doors[feature.id] = want
    verb = "opens" if want else "closes"
    who = op.name if op else "the players (Access Override, 1 CP)"
    events: list[dict[str, Any]] = [{"type": "portal", "feature": feature.id, "open": want,
                                     "note": f"{who} {verb} {feature.id}."}]
    if override:
        events[0]["access_override"] = True
        events[0]["cp"] = dict(state.cp)
    if op is not None and state.edition == "kt2018" and _enemies_in_control(state, op, game):
        # 004: "If that model is now within 1" of any enemy models, it cannot move any further"
        op.moved = True
        op.moved_how = op.moved_how or "normal"
        events[0]["note"] += f" {op.name} is now within 1\" of an enemy: it moves no further."
    events.extend(reveal.check_spotting(game, state))
    return events


def _spend_portal(state: State, op: Operative, cost: int) -> None:
    """The AP of a door or hatch (2024); 2018: free. Either way it is recorded as part of the
    activation: opened during a move, the rest of that move may follow (the referee's
    ``rest_of_move``)."""
    if cost:
        _spend(state, op, "portal")
    else:
        op.actions_taken.append("portal")


def _ready(game: Game, state: State, action: dict[str, Any], prompt: Any) -> list[dict]:
    op = _active(state, action, prompt)
    if state.edition != "kt2018" or state.phase != "movement":
        raise RuleError("'ready' is a Kill Team 2018 movement-phase choice")
    if op.moved:
        raise RuleError(f"{op.name} has moved: it cannot be Readied")
    op.readied = True
    return [{"type": "readied", "operative": op.id}]


def _counteract(game: Game, state: State, action: dict[str, Any], prompt: Any) -> list[dict]:
    """Kill Team 2024 Counteract (001: "you can select a expended friendly Operative with an
    ENGAGE order to perform a 1AP action for free"): ``operative`` (one the prompt names; it
    becomes active for one free 1 AP action, moves capped at 2") or ``pass`` (the turn goes
    to the enemy, which still has units to activate)."""
    if prompt.kind != "counteract":
        raise RuleError("no counteract is on offer now (it is, when none of your operatives "
                        "is ready and solo-ops still has units to activate)")
    if action.get("pass"):
        state.next_side = ENEMY
        return [{"type": "counteract_pass", "side": PLAYER, "player": prompt.player}]
    op = _op(state, action.get("operative"))
    allowed = list(prompt.data.get("operatives", []))
    if op.id not in allowed:
        raise RuleError(f"{op.id} cannot counteract now (an expended operative with an Engage "
                        f"order that has not counteracted this turning point: "
                        f"{', '.join(allowed)})")
    state.active_operative = op.id
    state.active_player = op.owner
    state.activation_actions = 0
    state.counteracting = True
    state.counteracted.append(op.id)
    op.actions_taken = []
    op.heavy_shot = None
    op.moved_how = None
    op.moved = op.carrying is not None  # a carrier always counts as having moved
    return [{"type": "counteract", "side": PLAYER, "operative": op.id, "player": op.owner,
             "note": f"{op.name} counteracts: one free 1 AP action (a move of at most 2\")."}]


def _pickup(game: Game, state: State, action: dict[str, Any], prompt: Any) -> list[dict]:
    """Pick Up (001, 1 AP): the active operative takes a portable objective marker it
    controls (:func:`solo_ops.game.markers.pick_up_check`)."""
    op = _active(state, action, prompt)
    _spend(state, op, "pickup", check_only=True)
    obj = markers.pick_up_check(game, state, op, action.get("marker"),
                                scoring.objective_control(game, state))
    _spend(state, op, "pickup")
    return markers.pick_up(state, op, obj)


def _placedown(game: Game, state: State, action: dict[str, Any], prompt: Any) -> list[dict]:
    """Place Down (001, 1 AP): the marker the active operative carries goes down within its
    control range, at ``to`` or where it stands (:func:`solo_ops.game.markers.place_down_check`)."""
    op = _active(state, action, prompt)
    if state.edition != "kt2024":
        raise RuleError("Place Down is a Kill Team 2024 action")
    _spend(state, op, "placedown", check_only=True)
    point = markers.place_down_check(game, state, op, action.get("to"))
    _spend(state, op, "placedown")
    return markers.place_down(state, op, point)


def _guard(game: Game, state: State, action: dict[str, Any], prompt: Any) -> list[dict]:
    """Guard (002 Gallowdark: "Guard 1AP: Treated as a Shoot action. Cannot be used in Control
    Range with enemies or while Concealed."): the active operative goes On Guard, on a
    Gallowdark board in Kill Team 2024 (the interrupt and its end are
    :mod:`solo_ops.game.guard`'s)."""
    op = _active(state, action, prompt)
    if state.edition != "kt2024" or game.scenario.board.killzone != GALLOWDARK:
        raise RuleError("Guard is an action of the Gallowdark killzone (card 002): this board "
                        "is not Gallowdark")
    _spend(state, op, "shoot", check_only=True)
    if op.stance == "conceal":
        raise RuleError(f"{op.name} has a Conceal order: it cannot go On Guard (002 Guard: "
                        "\"Cannot be used ... while Concealed\")")
    refused = referee.control_refusal(activation(state, op), "guard", holder(state, op, game))
    if refused is not None:
        raise RuleError(refused)
    _spend(state, op, "shoot")
    op.shot = True
    op.on_guard = True
    return [{"type": "on_guard", "operative": op.id, "side": PLAYER,
             "note": f"{op.name} is On Guard."}]


def _done(game: Game, state: State, action: dict[str, Any], prompt: Any) -> list[dict]:
    op = _active(state, action, prompt)
    return _end_activation(game, state, op)


def _end_activation(game: Game, state: State, op: Operative) -> list[dict[str, Any]]:
    state.active_operative = None
    events: list[dict[str, Any]] = [{"type": "activation_end", "operative": op.id}]
    if state.counteracting:  # a counteract is not an activation: a Stun runs on
        state.counteracting = False
        events[0]["counteract"] = True
    else:
        end_activation_stun(op)  # Stun lasts until the end of its next activation
    events.extend(turns.after_player_activation(game, state))
    return events


RETREAT = 3.0  # inches: a Retreat moves up to 3" (004)


def _reaction(game: Game, state: State, action: dict[str, Any], prompt: Any) -> list[dict]:
    """Kill Team 2018 charge Reactions (004 "A model can either fire Overwatch or Retreat when
    it Reacts"): ``react`` is ``overwatch`` (``roll`` with ``weapon``, or the ``damage`` the
    player rolled), ``retreat`` (``to``: up to 3", ending further from the charger and more
    than 1" from every other enemy model; not after a move this phase) or ``none``. Then the
    engine rolls the charge."""
    entry = state.pending_attacks[0]
    charger = state.operatives[entry["attacker"]]
    me = state.operatives[entry["target"]]
    react = str(action.get("react", "none"))
    terrain = game.terrain(state)
    events: list[dict[str, Any]] = []
    assert me.at is not None and charger.at is not None
    if react == "overwatch":
        events.extend(_overwatch(game, state, action, me, charger, terrain))
        return events + _charge_after(game, state, entry, False)
    if react == "retreat":
        events.extend(_retreat(game, state, action, entry, me, charger, terrain))
        return events + _charge_after(game, state, entry, True)
    if react != "none":
        raise RuleError("react with 'overwatch ...', 'retreat X,Y' or 'no'")
    state.pending_attacks.pop(0)
    events.append({"type": "no_reaction", "operative": me.id, "target": charger.id})
    return events + _charge_after(game, state, entry, False)


def _charge_after(game: Game, state: State, entry: dict[str, Any],
                  retreated: bool) -> list[dict[str, Any]]:
    """The charge the Reaction answered, rolled by the engine, then spotting."""
    from solo_ops.game.enemy import charge_after_reaction

    out = charge_after_reaction(game, state, entry, retreated)
    return out + reveal.check_spotting(game, state)


def _overwatch_weapon(action: dict[str, Any], me: Operative, charger: Operative,
                      terrain: Terrain) -> Weapon:
    """Overwatch: a ranged weapon of the target's that sees the charger and reaches it."""
    assert me.at is not None and charger.at is not None
    name = action.get("weapon")
    guns = me.profile.ranged_weapons
    weapon = next((w for w in guns if w.name == name), None) if name else \
        (guns[0] if guns else None)
    if weapon is None:
        raise RuleError(f"{me.name} has no ranged weapon {name!r}" if name else
                        f"{me.name} has no ranged weapon to fire Overwatch")
    if not terrain.sight.visible(me.at, charger.at, me.radius, charger.radius):
        raise RuleError(f"{charger.label} is not visible to {me.name}: no Overwatch")
    d = terrain.routes.distance(me.at, charger.at, me.radius, charger.radius).distance
    if weapon.range and (d is None or d > weapon.range + 1e-6):
        raise RuleError(f"{charger.label} is out of range of {weapon.name}")
    return weapon


def _overwatch(game: Game, state: State, action: dict[str, Any], me: Operative,
               charger: Operative, terrain: Terrain) -> list[dict[str, Any]]:
    """Overwatch (hits on 6s): rolled by solo-ops, or the damage the player rolled."""
    from solo_ops.game.enemy import _resolve_shot, shot_cover

    weapon = _overwatch_weapon(action, me, charger, terrain)
    if not action.get("roll") and action.get("damage") is None:
        raise RuleError("say 'overwatch roll' or 'overwatch damage N'")
    state.pending_attacks.pop(0)
    events: list[dict[str, Any]] = [
        {"type": "overwatch", "operative": me.id, "target": charger.id, "weapon": weapon.name,
         "note": f"{me.name} fires Overwatch at {charger.label} (hits on 6s)."}]
    if action.get("roll"):
        events.extend(_resolve_shot(game, state, me, weapon, charger,
                                    shot_cover(game, state, me, weapon, charger), [], None,
                                    acting=frozenset({me.id}), overwatch=True))
    elif int(action["damage"]):
        events.extend(apply_damage(game, state, charger, int(action["damage"]),
                                   f"Overwatch by {me.name}"))
    return events


def _check_retreat(state: State, action: dict[str, Any], entry: dict[str, Any], me: Operative,
                   charger: Operative, terrain: Terrain) -> tuple[tuple[float, float], Walk]:
    """Retreat (004): not after a move this phase; up to 3" to a place the base fits, further
    from the charger and more than 1" from every other enemy; the point and the walk."""
    assert me.at is not None and charger.at is not None
    if not entry.get("retreat"):
        raise RuleError(f"{me.name} has moved this phase: it cannot Retreat")
    to = _point(action.get("to"))
    others = state.bases(exclude=(me.id, me.carrying))  # the placement rule's bases
    refused = placement.refusal(terrain, to, me.radius, others, me.name)
    if refused is not None:
        raise RuleError(refused)
    walk = terrain.routes.walk(me.at, to, me.radius, blockers=placement.discs(others))
    if walk is None or walk.cost > RETREAT + MOVE_TOLERANCE:
        got = "no route there" if walk is None else f"that is {walk.cost:.1f}\""
        raise RuleError(f"a Retreat moves up to 3\" ({got})")
    if math.dist(to, charger.at) <= math.dist(me.at, charger.at) + 1e-9:
        raise RuleError(f"a Retreat must end further away from {charger.label}")
    for e in state.living(ENEMY):
        if e.id != charger.id and e.at is not None and reach.engaged_2018(
                terrain, to, me.radius, e.at, e.radius):
            raise RuleError(f"a Retreat must end more than 1\" from {e.label}")
    return to, walk


def _retreat(game: Game, state: State, action: dict[str, Any], entry: dict[str, Any],
             me: Operative, charger: Operative, terrain: Terrain) -> list[dict[str, Any]]:
    """Retreat: the checked move, then mines and spotting (the model may not shoot or React
    again this battle round)."""
    to, walk = _check_retreat(state, action, entry, me, charger, terrain)
    state.pending_attacks.pop(0)
    old = me.at
    me.at = to
    me.moved = True
    me.moved_how = "retreat"
    me.fell_back = True  # "cannot React later in the battle round, and cannot shoot"
    events: list[dict[str, Any]] = [
        {"type": "moved", "operative": me.id, "how": "retreat",
         "from": reach.round_point(old), "to": reach.round_point(to),
         "cost": round(float(walk.cost), 2),
         "route": [reach.round_point(p) for p in walk.points]}]
    events.extend(check_mines(game, state, me))
    events.extend(reveal.check_spotting(game, state))
    return events


def _attack_damage(game: Game, state: State, action: dict[str, Any], prompt: Any) -> list[dict]:
    if prompt.kind != "attack":
        raise RuleError("no enemy attack is waiting for its result")
    attack = state.pending_attacks[0]
    try:
        amount = int(action.get("damage"))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise RuleError("tell me the damage as a whole number") from None
    if amount < 0:
        raise RuleError("damage cannot be negative")
    state.pending_attacks.pop(0)
    target = state.operatives[attack["target"]]
    events = [{"type": "attack_reported", "attacker": attack["attacker"],
               "target": target.id, "damage": amount}]
    if amount and not target.down:
        events.extend(apply_damage(game, state, target, amount, attack["text"]))
    taken = int(action.get("taken", 0) or 0)
    if taken and attack.get("kind") == "fight":
        attacker = state.operatives[attack["attacker"]]
        if not attacker.down:
            events.extend(apply_damage(game, state, attacker, taken,
                                       f"{target.name} strikes back"))
    return events


def open_actions(game: Game, state: State) -> dict[str, str | None]:
    """What the active operative may start now, and why not: its moves
    (:func:`~solo_ops.game.player_moves.open_moves`), ``shoot``, ``fight``, ``carry`` and
    ``evacuate`` — each ``None``
    when it may (the target is checked when the action is reported), else the refusal the
    action would meet. These are the action's own first checks (phase, AP, a carried friend,
    a Conceal order or an enemy's control range for a shot; an enemy in control range for a
    fight), so a page offers only what the rules allow there."""
    out: dict[str, str | None] = dict(open_moves(game, state))
    op = state.operatives.get(state.active_operative or "")
    if op is None or not op.on_table:
        return {**out, "shoot": "no operative is active", "fight": "no operative is active"}
    out["shoot"] = _refusal(lambda: _may_start_shot(game, state, op))
    out["fight"] = _refusal(lambda: _may_start_fight(game, state, op))
    out["carry"] = _carry_refusal(state, op)
    out["evacuate"] = None if op.carrying is not None else f"{op.name} is not carrying anyone"
    return out


def _carry_refusal(state: State, op: Operative) -> str | None:
    """Why ``op`` cannot pick up a friend now (:func:`_carry`'s checks before its target), or
    None: it carries nothing and a downed friend lies on the table (how far is the action's
    own question)."""
    if op.carrying is not None:
        return f"{op.name} is already carrying {op.carrying}"
    if op.marker is not None:
        return f"{op.name} is carrying {op.marker}: it cannot carry a friend too"
    if not any(o.side == op.side and o.lying and o.carried_by is None
               for o in state.operatives.values()):
        return "no downed friend lies on the table"
    return None


def _refusal(check: Any) -> str | None:
    try:
        check()
    except RuleError as exc:
        return str(exc)
    return None


def _may_start_shot(game: Game, state: State, op: Operative) -> None:
    """The checks of :func:`_shoot` that come before its target, with any of op's weapons."""
    _check_shot_start(state, op)
    refusal = None
    for weapon in op.profile.weapons or [None]:  # type: ignore[list-item]
        refusal = _refusal(lambda w=weapon: attack_checks._check_shooter_free(game, state, op, w))
        if refusal is None:
            return
    raise RuleError(refusal or f"{op.name} has no weapon")


def _may_start_fight(game: Game, state: State, op: Operative) -> None:
    """The checks of :func:`_fight` that come before its target: phase, AP, an enemy in
    control range."""
    _check_fight_start(state, op)
    if not _enemies_in_control(state, op, game):
        raise RuleError(f"{op.name} has no enemy within 1\" (control range) to fight")
