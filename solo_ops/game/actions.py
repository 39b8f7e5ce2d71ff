"""The player's reported actions: checked against the board and the rules, then applied.

Each function takes the game, the state and an action dict and returns events, or raises
:class:`~solo_ops.core.errors.RuleError` with the reason (the state is untouched: every check runs
before the first change). The command line turns typed answers into these dicts
(:mod:`solo_ops.view.answers`), so a script can drive a game with the same vocabulary.

The checks every action shares (the active operative, AP, control range) are in
:mod:`solo_ops.game.action_checks`; the move action is in :mod:`solo_ops.game.player_moves`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from solo_ops.ai.guard import GALLOWDARK
from solo_ops.core.errors import RuleError
from solo_ops.game import attack_checks, cp, markers, pariah, reveal, scoring, turns
from solo_ops.game.action_checks import AP_COST as AP_COST
from solo_ops.game.action_checks import (
    CONTROL_RANGE,
    _active,
    _centre,
    _enemies_in_control,
    _op,
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
    unnamed_weapon,
)
from solo_ops.game.downed import apply_damage
from solo_ops.game.fights import roll_fight
from solo_ops.game.player_moves import _move, open_moves
from solo_ops.game.reactions import _reaction
from solo_ops.game.shots import count_limited, resolve_player_shot
from solo_ops.game.state import ENEMY, PLAYER, Operative, State
from solo_ops.game.stun import end_activation_stun, stun
from solo_ops.rules import kt2018_reactions, portals, reach, referee

if TYPE_CHECKING:
    from solo_ops.core.model import Weapon
    from solo_ops.game.definition import Game


def apply(game: Game, state: State, action: dict[str, Any], prompt: Any) -> list[dict[str, Any]]:
    """Check and apply one player action (see the module docstring)."""
    kind = action.get("type")
    handlers = {
        "activate": _activate, "move": _move, "shoot": _shoot, "fight": _fight,
        "damage": _damage, "down": _down, "carry": _carry, "evacuate": _evacuate,
        "portal": _portal, "ready": _ready, "done": _done, "attack_damage": _attack_damage,
        "reaction": _reaction, "cp": cp.spend_at_table,
        "counteract": _counteract, "pickup": _pickup, "placedown": _placedown,
        "guard": _guard, "order": _order, "effect": _effect, "hold_fire": _hold_fire,
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
    if (prompt.kind == "effect") != (kind == "effect") and kind not in ("damage", "down"):
        raise RuleError(f"first answer this: {prompt.text}" if prompt.kind == "effect"
                        else "no Pariah Nexus effect is waiting for an answer")
    if (prompt.kind == "reaction") != (kind == "reaction"):
        raise RuleError(f"first answer the charge: {prompt.text}" if prompt.kind == "reaction"
                        else "no charge is waiting for a Reaction")
    return handler(game, state, action, prompt)


# -- actions ---------------------------------------------------------------------------------------
def _effect(game: Game, state: State, action: dict[str, Any], prompt: Any) -> list[dict]:
    """The players' answer to a Pariah Nexus effect's question
    (:func:`solo_ops.game.pariah_events.take_answer`)."""
    from solo_ops.game import pariah_events

    if prompt.player is not None and action.get("player") not in (None, prompt.player):
        raise RuleError(f"{prompt.player} answers this")
    return pariah_events.take_answer(game, state, action)


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
    op.portals_operated = []
    op.heavy_shot = None
    op.moved = op.carrying is not None  # a carrier always counts as having moved
    state.active_player = op.owner
    kept = {"kept": True} if stance is None and state.edition == "kt2024" else {}
    return [{"type": "activated", "operative": op.id, "player": op.owner, "stance": op.stance,
             **kept}]


def _hold_fire(game: Game, state: State, action: dict[str, Any], prompt: Any) -> list[dict]:
    """Kill Team 2018, ``pass`` at "which of your models shoots now?": the asked player's
    models not picked yet hold their fire this shooting phase (004 Ready, Fire!: players
    "choose a ... model from their kill team to shoot with ..., or pass"), in one answer
    rather than each picked and ``done``; the turn goes on as after an activation."""
    if prompt.kind != "activate" or state.edition != "kt2018" or state.phase != "shooting":
        raise RuleError("'pass' answers \"which of your models shoots now?\" in a Kill Team "
                        "2018 shooting phase: the models not picked yet hold their fire")
    held = list(prompt.options)
    for mid in held:
        state.operatives[mid].activated = True  # they have had their turn to shoot
    events: list[dict[str, Any]] = [{"type": "held_fire", "player": prompt.player,
                                     "operatives": held}]
    return events + turns.after_player_activation(game, state)


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
    if weapon is None:
        weapon = unnamed_weapon(game, state, op, target)
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
    across = check_fight(game, state, op, target)
    _spend(state, op, "fight")
    op.fought = True
    if action.get("roll"):  # "fight X roll": solo-ops rolls both sides' dice, as for a shot
        return _across(game, across, _rolled_fight(game, state, op, target))
    events: list[dict[str, Any]] = _across(game, across, [
        {"type": "fight", "operative": op.id, "target": target.id}])
    dealt = int(action.get("dealt", 0) or 0)
    taken = int(action.get("taken", 0) or 0)
    if dealt < 0 or taken < 0:
        raise RuleError("damage cannot be negative")
    if dealt:
        events.extend(apply_damage(game, state, target, dealt, f"fought by {op.name}"))
    if taken:
        events.extend(apply_damage(game, state, op, taken, f"fighting {target.label}"))
    return events


def _across(game: Game, portal: str | None, events: list[dict[str, Any]]
            ) -> list[dict[str, Any]]:
    """A fight's events, the first saying which door or hatch it was fought across."""
    if portal is not None and events and events[0].get("type") == "fight":
        name = portals.fight_name(game.scenario.board.feature(portal))
        events[0] = {**events[0], "across": portal, "note": f"across {portal} ({name})"}
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
    op.picked_up = True  # (2018: for the shooting and fight phases of this battle round too)
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
               "note": f"{op.name} carries {friend.name} off the table to safety; both "
                       "leave the table for the rest of the mission."}]
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
        operated = referee.portal_again_refusal(activation(state, op), feature.id, word)
        if operated is not None:
            raise RuleError(operated)
        if gap > CONTROL_RANGE + 1e-6:
            raise RuleError(f"{feature.id} is {gap:.1f}\" from {op.name}: it must be within "
                            + ("1\"" if state.edition == "kt2018" else "control range (1\")"))
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
        op.portals_operated.append(feature.id)
    else:
        again = state.override_used  # under Access Control: the same override, no CP more
        blocked = _access_override(game, state, feature, want)
        if blocked is not None:
            return blocked
        override = True
    state.doors[feature.id] = want
    verb = "opens" if want else "closes"
    who = op.name if op else (
        "the players (Access Override, 1 CP)" if not (override and again)
        else "the players (Access Override, Access Control: the same CP)")
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


def _access_override(game: Game, state: State, feature: Any, want: bool
                     ) -> list[dict[str, Any]] | None:
    """Kill Team 2018's Access Override (:func:`solo_ops.rules.portals.access_override`): 1 CP,
    once a battle round, one door opened. Under Access Control (004 "When using the Access
    Override Tactic, you can open and close any and all doors ... If any models would prevent
    a door from being placed, the door is not closed, but roll one D6 for each of those models.
    On a 4+, that model suffers 1 mortal wound") the players may open and close any number of
    doors while the override's moment lasts, for the one CP; a door a base stands in stays
    open and each such model rolls (the events returned: the door is not closed)."""
    from shapely.geometry import Point

    access = pariah.access_control(game)
    board = game.scenario.board
    started = any(o.activated for o in state.operatives.values())
    again = access is not None and state.override_used and not started
    nodes = [o.id for o in board.objectives if o.command_node]
    control = scoring.objective_control(game, state) if nodes else {}
    verdict = portals.access_override(
        state.edition, phase=state.phase, turn=state.turn,
        players_left_to_move=turns.next_player(game, state) is not None,
        controls_command_node=any(control.get(n) == PLAYER for n in nodes),
        cp=state.cp.get(PLAYER, 0) + (1 if again else 0),
        used_this_round=state.override_used and not again, shooting_started=started)
    if not verdict.ok:
        raise RuleError(verdict.why)
    if not want and access is None:
        raise RuleError("Access Override opens a door (it does not close one)")
    if not again:
        state.cp[PLAYER] = state.cp.get(PLAYER, 0) - verdict.cost
    state.override_used = True  # a State field: checkpoints keep it (issue #14)
    if want:
        return None
    standing = [o for o in state.operatives.values() if o.on_table and o.at is not None
                and feature.shape.distance(Point(o.at)) < o.radius - 1e-9]
    if not standing:
        return None
    events: list[dict[str, Any]] = [{
        "type": "portal", "feature": feature.id, "open": True, "access_override": True,
        "cp": dict(state.cp), "note": f"Access Control: {feature.id} cannot close on "
        f"{', '.join(o.label for o in standing)}: it stays open, and each rolls a D6 (4+: 1 "
        "mortal wound)."}]
    for o in sorted(standing, key=lambda o: o.id):
        assert state.dice is not None
        face = state.dice.d6(f"Access Control: {o.label} in {feature.id}").face
        events.append({"type": "effect_hazard", "effect": "Access Control", "operative": o.id,
                       "roll": face, "struck": face >= 4, "then": "mortal_wound",
                       "where": f"in {feature.id}"})
        if face >= 4:
            events.extend(apply_damage(game, state, o, 1, "a mortal wound (Access Control)"))
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
    """Kill Team 2018 Readying (004 "When you pick a model to move, instead of making a
    normal move (including pivoting the model) you can Ready them, unless they are within 1"
    of an enemy model. A model that is Readied in the Movement phase has an advantage in the
    subsequent Shooting phase (see Ready, Fire!)"): the model is Readied instead of moving,
    which ends its part in the movement phase."""
    op = _active(state, action, prompt)
    if state.edition != "kt2018" or state.phase != "movement":
        raise RuleError("'ready' is a Kill Team 2018 movement-phase choice")
    declared = ("advance" if op.advance_roll is not None
                else "charge" if op.charge_roll is not None or op.charge_target else None)
    why = kt2018_reactions.may_ready(engaged=bool(_enemies_in_control(state, op, game)),
                           moved=op.moved or op.moved_how is not None, declared=declared,
                           started_within=state.started_within(op))
    if why is not None:
        raise RuleError(f"{op.name} cannot be Readied: {why}")
    op.readied = True
    op.moved_how = "ready"  # instead of its move: it moves no more this phase
    events: list[dict[str, Any]] = [{"type": "readied", "operative": op.id,
                                     "note": f"{op.name} is Readied: it shoots in Ready, Fire!, "
                                             "before all other models, in the shooting phase."}]
    return events + _end_activation(game, state, op)


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
    op.portals_operated = []
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
    if (state.edition == "kt2018" and state.phase == "fight" and op.charged
            and not (op.fought or "fight" in op.actions_taken)
            and turns.engaged_2018(game, state, op)):
        raise RuleError(f"{op.name} charged this battle round and can fight: it fights now "
                        "(004 Hammer of Wrath \"A player cannot choose to pass if they have a "
                        "model that charged that can fight\")")
    return _end_activation(game, state, op)


def _end_activation(game: Game, state: State, op: Operative) -> list[dict[str, Any]]:
    if state.edition == "kt2018" and op.moved_how is None:
        # a declared Advance or charge the model did not move after: it still Advanced, or
        # made its charge attempt (004 "A model can only make one charge attempt")
        if op.charge_target is not None:
            op.moved_how = "charge"
        elif op.advance_roll is not None:
            op.moved_how = "advance"
    state.active_operative = None
    state.activation_over()
    events: list[dict[str, Any]] = [{"type": "activation_end", "operative": op.id}]
    if state.counteracting:  # a counteract is not an activation: a Stun runs on
        state.counteracting = False
        events[0]["counteract"] = True
    else:
        end_activation_stun(op)  # Stun lasts until the end of its next activation
    events.extend(turns.after_player_activation(game, state))
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
        raise RuleError(f"{op.name} has no enemy within 1\" "
                        + ("to fight" if state.edition == "kt2018" else "(control range) to fight"))
