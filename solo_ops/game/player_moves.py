"""The players' move action: a reported move checked rule by rule, then applied.

Kill Team 2024 Reposition, Dash, Charge and Fall Back; Kill Team 2018 normal move, Advance,
Charge and Fall Back. Each check below answers one rule and refuses with its reason before
anything changes (the order of the checks is the order a player hears the refusals in); then
:func:`_apply_move` moves the operative (and what it carries), records how, and lets a charged
enemy unit's state machine hear of it. :mod:`solo_ops.game.actions` dispatches ``move`` here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from solo_ops.ai.counteract import COUNTERACT_MOVE
from solo_ops.core.errors import RuleError
from solo_ops.game import placing, reveal
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
)
from solo_ops.game.enemy import check_mines
from solo_ops.game.state import ENEMY, Operative, State
from solo_ops.geometry import placement
from solo_ops.rules import kt2018, reach, referee

if TYPE_CHECKING:
    from solo_ops.game.definition import Game
    from solo_ops.geometry.routes import Walk
    from solo_ops.geometry.terrain import Terrain


FREE_MOVES = referee.FREE_MOVES


def _move(game: Game, state: State, action: dict[str, Any], prompt: Any) -> list[dict]:
    """Check a reported move of the active operative (``how``, ``to``, ``target`` for a
    charge) against every rule below, in order, then apply it."""
    op = _active(state, action, prompt)
    how = _move_kind(state, action)
    _check_move_timing(state, op, how)
    _spend(state, op, how, check_only=True)
    _check_heavy_move(state, op, how)
    to = _point(action.get("to"))
    target = _charge_target(state, op, how, action)
    walk, cost = check_move(game, state, op, how, to, target)
    op.move_left = max(0.0, _limit(state, op, how) - cost)
    _spend(state, op, how)
    if state.edition == "kt2018":
        op.actions_taken.append(how)  # (2018: a door opened on its way lets the rest follow)
    reacted = _enemy_reaction(game, state, op, how, target)
    if not op.on_table:  # slain by the Overwatch: "no further Reactions", and no charge
        return reacted
    return reacted + _apply_move(game, state, op, how, to, cost, walk, target)


def check_move(game: Game, state: State, op: Operative, how: str, to: tuple[float, float],
               target: Operative | None = None) -> tuple[Walk, float]:
    """Refuse (``RuleError``) a move of ``op`` to ``to`` (``how``: the edition's move; a
    charge at ``target``) that a player's would be refused now: the 2018 movement phase, AP and
    the sequence table, Heavy, where the base may stand, control range, a route around walls
    and bases (enemy control ranges blocking a free move), the allowance, where a charge or
    fall back ends. Its walk and cost when legal; changes nothing (the referee audit asks it
    of the enemy, whose actions are in ``op.ap_used`` / ``op.actions_taken``)."""
    _check_move_timing(state, op, how)
    _spend(state, op, how, check_only=True)
    _check_heavy_move(state, op, how)
    terrain = game.terrain(state)
    others = [o for o in state.operatives.values() if o.has_base and o.id != op.id
              and o.id != op.carrying]
    counters = [b for b in state.bases() if b.ident in state.counters]
    _check_base_fits(terrain, state, op, to)
    in_control = _enemies_in_control(state, op, game)
    if how == "charge" and (target is None or target.side == op.side or not target.on_table):
        raise RuleError("a charge names an enemy on the table")
    _check_leaving_control_range(state, op, how, in_control)
    walk = _route(terrain, op, how, to, others, in_control, target, counters)
    cost = _check_allowance(state, op, how, walk)
    _check_move_end(game, state, op, how, to, target, terrain)
    return walk, cost


def _enemy_reaction(game: Game, state: State, op: Operative, how: str,
                    target: Operative | None) -> list[dict[str, Any]]:
    """Kill Team 2018: the enemy model ``op`` charges Reacts first (Overwatch, hits only on
    6s: :func:`solo_ops.ai.reactions.overwatch`), rolled by solo-ops, or handed to the
    player with the enemy's other attacks (setting ``enemy_attacks: player``)."""
    if state.edition != "kt2018" or how != "charge" or target is None or target.side != ENEMY:
        return []
    from solo_ops.ai.reactions import overwatch
    from solo_ops.game.enemy import _resolve_shot, shot_cover

    shot = overwatch(game.context(state), state, target.id, op.id)
    if shot is None:
        return []
    weapon = next(w for w in target.profile.weapons if w.name == shot.weapon)
    events: list[dict[str, Any]] = [
        {"type": "overwatch", "operative": target.id, "target": op.id, "weapon": weapon.name,
         "note": shot.note}]
    if game.settings.enemy_attacks == "player":
        text = f"{shot.note} Roll it (a hit needs a 6) and report the damage."
        state.pending_attacks.append({"kind": "shoot", "attacker": target.id, "target": op.id,
                                      "weapon": weapon.name, "text": text})
        return [*events, {"type": "attack_pending", "attacker": target.id, "target": op.id,
                          "note": text}]
    cover = shot_cover(game, state, target, weapon, op)
    return events + _resolve_shot(game, state, target, weapon, op, cover, [], None,
                                  acting=frozenset({target.id}), overwatch=True)


def _move_kind(state: State, action: dict[str, Any]) -> str:
    """The edition's name of the move (one of its four moves), or refuse."""
    how = str(action.get("how", "reposition" if state.edition == "kt2024" else "normal"))
    # "move" is a Reposition in 2024 and a normal move in 2018: one word for both editions
    if state.edition == "kt2018" and how == "reposition":
        how = "normal"
    elif state.edition == "kt2024" and how == "normal":
        how = "reposition"
    allowed: tuple[str, ...] = {"kt2024": ("reposition", "dash", "charge", "fall_back"),
               "kt2018": ("normal", "advance", "charge", "fall_back")}[state.edition]
    if how not in allowed:
        raise RuleError(f"'{how}' is not a move in {state.edition} (use {', '.join(allowed)})")
    return how


def _check_move_timing(state: State, op: Operative, how: str = "normal") -> None:
    """Kill Team 2018: a model moves in the movement phase, once a battle round (the
    referee's :func:`solo_ops.rules.referee.timing_refusal_2018`)."""
    refused = referee.timing_refusal_2018(activation(state, op), how)
    if refused is not None:
        raise RuleError(refused)


def _check_heavy_move(state: State, op: Operative, how: str) -> None:
    """Kill Team 2024 Heavy: no move after shooting a Heavy weapon (but its (x) move), by the
    referee (:func:`solo_ops.rules.referee.heavy_move_refusal`)."""
    refused = referee.heavy_move_refusal(activation(state, op), how)
    if refused is not None:
        raise RuleError(refused)


def _check_base_fits(terrain: Terrain, state: State, op: Operative,
                     to: tuple[float, float]) -> None:
    """The base ends where the placement rule lets it stand (:mod:`solo_ops.geometry.placement`:
    wholly on the board, not in terrain no base stands in, on no other base -- standing,
    downed or a counter); the refusal names what is there and the nearest point that is free."""
    refused = placement.refusal(terrain, to, op.radius, state.bases(exclude=(op.id, op.carrying)),
                                op.name)
    if refused is not None:
        raise RuleError(refused)


def _charge_target(state: State, op: Operative, how: str, action: dict[str, Any]
                   ) -> Operative | None:
    """A charge names an enemy on the table (None for any other move)."""
    target = None
    if how == "charge":
        target = _op(state, action.get("target"), "charge target")
        if target.side == op.side or not target.on_table:
            raise RuleError(f"{target.id} is not an enemy on the table")
    return target


def _check_leaving_control_range(state: State, op: Operative, how: str,
                                 in_control: list[Operative]) -> None:
    """Within an enemy's control range only a fall back (or 2018 charge) starts; a fall
    back needs one; 2018: no fall back from a charger. (Which 2024 moves may follow which is
    the sequence table's, asked by ``_spend``.)"""
    refused = referee.control_refusal(activation(state, op), how,
                                      in_control[0].id if in_control else None)
    if refused is not None:
        raise RuleError(refused)
    if state.edition == "kt2018" and how == "fall_back" and not kt2018.may_fall_back(
            any(e.charged for e in in_control)):
        charger = next(e for e in in_control if e.charged)
        raise RuleError(f"{op.name} cannot fall back: {charger.id} charged it this phase (004 \"A "
                        "model cannot Fall Back if an enemy model finished a charge move within "
                        "1\" of it in the same phase\")")


def _route(terrain: Terrain, op: Operative, how: str, to: tuple[float, float],
           others: list[Operative], in_control: list[Operative],
           target: Operative | None, counters: Sequence[Any] = ()) -> Walk:
    """The walk there around walls and other bases -- models standing or downed, counters
    (enemy control ranges block) -- or refuse."""
    # the route: around walls, clear of other bases; enemy control ranges block except for
    # charges (towards the target) and fall backs
    blockers = []
    for o in others:
        extra = 0.0
        if o.side != op.side and o.on_table and how in FREE_MOVES and not (
                reach.base_gap(op, o) <= CONTROL_RANGE + 1e-9 and o not in in_control):
            # (an enemy within 1" but out of sight, behind a wall, has no hold on op)
            extra = CONTROL_RANGE
        if target is not None and o.id == target.id:
            extra = 0.0
        blockers.append((*_centre(o), o.radius + extra))
    blockers += placement.discs(counters)
    assert op.at is not None
    walk = terrain.routes.walk(op.at, to, op.radius, blockers=blockers)
    if walk is None:
        raise RuleError(f"{op.name} cannot reach {to[0]:g},{to[1]:g}: no route around the walls"
                        " and other models")
    return walk


def _limit(state: State, op: Operative, how: str) -> float:
    """How far this move of ``op`` may go: the move's allowance (a carrier's 4" a turn
    included; 2" for a counteract), or what the move under way left when a door or hatch was
    opened on its way (the referee's :func:`~solo_ops.rules.referee.rest_of_move`)."""
    limit = reach.move_allowance(op, how, state.edition)  # a carrier's 4" a turn included
    if referee.rest_of_move(activation(state, op), how) and op.move_left is not None:
        limit = min(limit, op.move_left)
    if state.counteracting:  # 001 "Cannot move greater than 2" while counteracting."
        limit = min(limit, COUNTERACT_MOVE)
    return limit


def _check_allowance(state: State, op: Operative, how: str, walk: Walk) -> float:
    """The walk's length is within the move's allowance (2" for a counteract; what is left
    of a move a door or hatch interrupted); its cost."""
    limit = _limit(state, op, how)
    cost = float(walk.cost)
    if cost > limit + MOVE_TOLERANCE:
        raise RuleError(f"that is {cost:.1f}\" of movement around the walls; {op.name} can "
                        f"{how.replace('_', ' ')} {max(0.0, limit):.1f}\"")
    return cost


def _check_move_end(game: Game, state: State, op: Operative, how: str,
                    to: tuple[float, float], target: Operative | None,
                    terrain: Terrain) -> None:
    """A charge ends in its target's control range; a fall back outside every enemy's."""
    if target is not None and target not in _enemies_in_control(state, op, game, at=to):
        assert target.at is not None
        gap = reach.route_gap(terrain, to, op.radius, target.at, target.radius)
        raise RuleError(f"a charge must end within 1\" of {target.id} and in its sight "
                        f"(control range): from there it is {gap:.1f}\" around the walls")
    if how == "fall_back" and _enemies_in_control(state, op, game, at=to):
        raise RuleError("a fall back must end outside every enemy's control range")


def _apply_move(game: Game, state: State, op: Operative, how: str, to: tuple[float, float],
                cost: float, walk: Walk, target: Operative | None) -> list[dict[str, Any]]:
    """Move the operative (and whom it carries), record how, then mines and spotting."""
    old = op.at
    op.at = to
    op.moved = True
    op.moved_how = how
    op.turn_move += cost
    if how == "charge":
        op.charged = True
    if how == "fall_back":
        op.fell_back = True
    if how == "advance":
        op.advanced = True
    if op.carrying is not None:
        state.operatives[op.carrying].at = to
    events: list[dict[str, Any]] = [{
        "type": "moved", "operative": op.id, "how": how, "from": reach.round_point(old),
        "to": reach.round_point(to), "cost": round(cost, 2),
        "route": [reach.round_point(p) for p in walk.points],
        **({"target": target.id} if target else {}),
        **placing.move_facts(game.terrain(state), state, op.id, op.radius, walk.points,
                             game.words),
    }]
    if target is not None and target.side == ENEMY:
        events.extend(_charged_unit_state(state, op, target))
    events.extend(check_mines(game, state, op))
    events.extend(reveal.check_spotting(game, state))
    return events


def _charged_unit_state(state: State, op: Operative, target: Operative) -> list[dict[str, Any]]:
    """An active enemy unit whose model is charged moves its state machine on ("charged")."""
    unit = state.unit_of(target.id)
    if unit is not None and unit.active:
        from solo_ops.ai import fsm

        if fsm.allowed(unit.fsm, "charged"):
            unit.fsm = fsm.fire(unit.fsm, "charged")
            return [{"type": "unit_state", "unit": unit.id, "state": unit.fsm,
                     "why": f"charged by {op.name}"}]
    return []


def open_moves(game: Game, state: State) -> dict[str, str | None]:
    """The active operative's moves (the edition's four) and, for each, why it cannot be
    made now — ``None`` when it can, wherever it then ends (that is checked when the move is
    reported). These are the very checks :func:`_move` runs before it looks at the
    destination, in its order: the 2018 movement phase, AP, a Heavy weapon shot, and an
    enemy's control range (within one, only a fall back — or a 2018 charge — starts)."""
    kinds = {"kt2024": ("reposition", "dash", "charge", "fall_back"),
             "kt2018": ("normal", "advance", "charge", "fall_back")}[state.edition]
    if state.active_operative is None:
        return dict.fromkeys(kinds, "no operative is active")
    op = state.operatives[state.active_operative]
    in_control = _enemies_in_control(state, op, game) if op.on_table else []
    out: dict[str, str | None] = {}
    for how in kinds:
        try:
            _check_move_timing(state, op, how)
            _spend(state, op, how, check_only=True)
            _check_heavy_move(state, op, how)
            _check_leaving_control_range(state, op, how, in_control)
        except RuleError as exc:
            out[how] = str(exc)
        else:
            out[how] = None
    return out
