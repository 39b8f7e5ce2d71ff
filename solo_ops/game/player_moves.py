"""The players' move action: a reported move checked rule by rule, then applied.

Kill Team 2024 Reposition, Dash, Charge and Fall Back; Kill Team 2018 normal move, Advance,
Charge and Fall Back. Each check below answers one rule and refuses with its reason before
anything changes (the order of the checks is the order a player hears the refusals in); then
:func:`_apply_move` moves the operative (and what it carries), records how, and lets a charged
enemy unit's state machine hear of it. :mod:`solo_ops.game.actions` dispatches ``move`` here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from solo_ops.core.errors import RuleError
from solo_ops.game import pariah, pariah_events, placing, reveal
from solo_ops.game.action_checks import (
    MOVE_TOLERANCE,
    _active,
    _centre,
    _enemies_in_control,
    _op,
    _point,
    _spend,
    activation,
    move_limit,
)
from solo_ops.game.mines import check_mines
from solo_ops.game.move_goals import engaged_foes
from solo_ops.game.state import ENEMY, Operative, State
from solo_ops.geometry import placement
from solo_ops.geometry.routes.costs import UNCLIMBABLE
from solo_ops.rules import kt2018, reach, referee

if TYPE_CHECKING:
    from solo_ops.game.definition import Game
    from solo_ops.geometry.routes import Walk
    from solo_ops.geometry.terrain import Terrain


FREE_MOVES = referee.FREE_MOVES


def _move(game: Game, state: State, action: dict[str, Any], prompt: Any) -> list[dict]:
    """Check a reported move of the active operative (``how``, ``to``, ``target`` for a
    charge) against every rule below, in order, then apply it. A Kill Team 2018 Advance or
    charge is rolled by the engine (:func:`_rolled_move`)."""
    op = _active(state, action, prompt)
    how = _move_kind(state, action)
    if state.edition == "kt2018":
        how, action = declared_move(op, how, action)
    _check_move_timing(state, op, how)
    _spend(state, op, how, check_only=True)
    _check_order(state, op, how)
    _check_heavy_move(state, op, how)
    if state.edition == "kt2018" and how in ("advance", "charge") and action.get("to") is None:
        return _declare(game, state, op, how, action)
    to = _point(action.get("to"))
    target = _charge_target(state, op, how, action)
    if state.edition == "kt2018" and how in ("advance", "charge"):
        return _rolled_move(game, state, op, how, to, _checked_route(game, state, op, how, to,
                                                                     target), target)
    walk, cost = check_move(game, state, op, how, to, target)
    op.move_left = max(0.0, move_limit(state, op, how) - cost)
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
    the sequence table, the 2024 order, Heavy, where the base may stand, control range, a
    route around walls and bases (enemy control ranges blocking a free move), the allowance,
    where a charge or fall back ends. Its walk and cost when legal; changes nothing (the
    referee audit asks it of the enemy, whose actions are in ``op.ap_used`` /
    ``op.actions_taken``)."""
    _check_move_timing(state, op, how)
    _spend(state, op, how, check_only=True)
    _check_order(state, op, how)
    _check_heavy_move(state, op, how)
    walk = _checked_route(game, state, op, how, to, target)
    cost = _check_allowance(game, state, op, how, walk)
    _check_move_end(game, state, op, how, to, target, game.terrain(state))
    return walk, cost


def _checked_route(game: Game, state: State, op: Operative, how: str, to: tuple[float, float],
                   target: Operative | None) -> Walk:
    """The checks of a move up to its route: where the base may stand, a charge's target,
    leaving control range, the route around walls and bases (on the terrain this move
    crosses: :meth:`~solo_ops.game.definition.Game.moving_terrain`)."""
    terrain = game.terrain(state)
    others = [o for o in state.operatives.values() if o.has_base and o.id != op.id
              and o.id != op.carrying]
    counters = [b for b in state.bases() if b.ident in state.counters]
    _check_base_fits(terrain, state, op, to)
    in_control = _enemies_in_control(state, op, game)
    if how == "charge" and (target is None or target.side == op.side or not target.on_table):
        raise RuleError("a charge names an enemy on the table")
    _check_leaving_control_range(state, op, how, in_control)
    try:
        return _route(game.moving_terrain(state, how), op, how, to, others, target, counters,
                      move_limit(state, op, how), engaged=engaged_foes(game, state, op, how))
    except RuleError:
        if how in FREE_MOVES:  # no way there when the end is in an enemy's control range: say so
            _check_move_end(game, state, op, how, to, None, terrain)
        raise


def declared_move(op: Operative, how: str, action: dict[str, Any]
                  ) -> tuple[str, dict[str, Any]]:
    """Kill Team 2018: once a model has declared an Advance or a charge and rolled it, its
    next move is that Advance or charge (at the charge's target), whatever word it is
    reported with (004 "declare that it will Advance ... make an Advance roll ... You can then
    move that model"; "make a charge roll ... The charging model can move up to this
    number of inches"); a charge after an Advance is refused for what it is (004 "A model
    that Advances cannot charge")."""
    if op.charge_target is not None:
        return "charge", {**action, "how": "charge", "target": op.charge_target}
    if op.advance_roll is not None:
        if how == "charge" and not op.moved:  # said as such, not as "it has rolled already"
            raise RuleError(f"{op.name} has declared an Advance this phase: a model that "
                            "Advances cannot charge (004); say where its Advance goes "
                            "('move X,Y', 'move 4 toward ...')")
        return "advance", {**action, "how": "advance"}
    return how, action


def _rolled_move(game: Game, state: State, op: Operative, how: str, to: tuple[float, float],
                 walk: Walk, target: Operative | None) -> list[dict[str, Any]]:
    """A Kill Team 2018 Advance or charge: first declared and rolled by the engine with the
    effects in force on the roll (:func:`solo_ops.game.pariah.advance_roll`,
    :func:`~solo_ops.game.pariah.charge_roll`; a charge after the enemy's Reaction), then
    moved as far as the roll allows. A charge's point must be where it would end, within 1" of
    its target (refused before any die is rolled); a point the roll does not reach is not
    refused once the dice are down: the roll stands and the next answer says where the model
    goes (as close as it can get, if the charge fails)."""
    events: list[dict[str, Any]] = []
    fresh = (op.advance_roll if how == "advance" else op.charge_roll) is None
    if fresh:
        _check_allowance(game, state, op, how, walk)  # the most any roll allows
        if how == "charge":  # declared to reach its target: the point is where it would end
            _check_move_end(game, state, op, how, to, target, game.terrain(state))
        events = _declared_and_rolled(game, state, op, how, target)
        if not op.on_table:  # slain by the Overwatch: no charge
            return events
    limit = reach.move_allowance(op, how, state.edition)
    why = _rolled_refusal(game, state, op, how, to, walk, target, limit)
    if why is not None:
        if not fresh:
            raise RuleError(why)
        events[-1]["note"] += f" {why}: say where it goes."
        return events
    success = how == "charge" and target is not None and target in _enemies_in_control(
        state, op, game, at=to)
    moved = _apply_move(game, state, op, how, to, float(walk.cost), walk,
                        target if success or how != "charge" else None)
    if how == "charge" and not success:
        op.charged = False  # a failed charge: "the model is not said to have charged"
        assert target is not None
        moved[0]["failed_charge"] = target.id
    return events + moved


def _declare(game: Game, state: State, op: Operative, how: str, action: dict[str, Any]
             ) -> list[dict[str, Any]]:
    """``advance`` or ``charge TARGET`` without a point (Kill Team 2018): the Advance or the
    charge is declared and rolled (a charge after the enemy's Reaction); the move follows,
    within the roll, as the next answer."""
    if (op.advance_roll if how == "advance" else op.charge_roll) is not None:
        raise RuleError(f"{op.name} has rolled already: say where it goes ('move X,Y', "
                        "'move 4 toward ...')")
    target = _charge_target(state, op, how, action)
    _check_leaving_control_range(state, op, how, _enemies_in_control(state, op, game))
    return _declared_and_rolled(game, state, op, how, target)


def _declared_and_rolled(game: Game, state: State, op: Operative, how: str,
                         target: Operative | None) -> list[dict[str, Any]]:
    """Declare ``op``'s Advance or charge and roll it: a charge is first answered by the
    enemy's Reaction (004 "After you have declared a charge, any opponents take it in turn to
    make Reactions"); "After all Reactions have been resolved, make a charge roll"."""
    events: list[dict[str, Any]] = []
    if how == "charge":
        assert target is not None
        _check_charge_range(game, state, op, target)
        events.append({"type": "charge_declared", "operative": op.id, "target": target.id,
                       "side": "player",
                       "note": f"{op.name} declares a charge at {target.label}."})
        events.extend(_enemy_reaction(game, state, op, how, target))
        if not op.on_table:  # slain by the Overwatch: no charge
            return events
    events.append(_roll_move(game, state, op, how, target))
    return events


def _roll_move(game: Game, state: State, op: Operative, how: str,
               target: Operative | None) -> dict[str, Any]:
    """Roll ``op``'s Advance or charge roll and keep it for this phase; the event says the
    dice and what the roll allows."""
    if how == "charge":
        assert target is not None
        value, words = pariah.charge_roll(game, state, op, [target])
        op.charge_roll, op.charge_target = value, target.id
        allows = (f"it may move up to {value}\" and must end within 1\" of {target.label}, or "
                  "the charge fails")
    else:
        value, words = pariah.advance_roll(game, state, op)
        op.advance_roll, op.advanced = value, True
        allows = (f"it may move up to {op.profile.movement:g}\" + {value}\" = "
                  f"{reach.move_allowance(op, 'advance', state.edition):g}\"")
    word = "charge roll" if how == "charge" else "Advance roll"
    return {"type": "move_roll", "operative": op.id, "how": how, "roll": value, "dice": words,
            **({"target": target.id} if target is not None else {}),
            "note": f"{op.name}'s {word}: {words}: {allows}."}


def _rolled_refusal(game: Game, state: State, op: Operative, how: str,
                    to: tuple[float, float], walk: Walk, target: Operative | None,
                    limit: float) -> str | None:
    """Why ``to`` is not where the rolled Advance or charge may end, or None: within the
    roll's movement; a charge within 1" of its target, or (the charge failed) 004 "the model
    can move up to its charge distance, as long as that move takes it as close as possible to
    at least one of the targets of its charge, and not within 1" of any enemy models"."""
    cost = float(walk.cost)
    word = "charge roll" if how == "charge" else "Advance"
    if cost > limit + MOVE_TOLERANCE:
        return (f"{to[0]:g},{to[1]:g} is {_movement(game, state, op, walk)}; "
                f"the {word} allows {limit:g}\"")
    if how != "charge" or target is None:
        return None
    if target in _enemies_in_control(state, op, game, at=to):
        return None
    near = _enemies_in_control(state, op, game, at=to)
    if near:
        return (f"a charge that fails cannot end within 1\" of an enemy model "
                f"({near[0].label})")
    terrain = game.terrain(state)
    assert op.at is not None and target.at is not None
    before = reach.route_gap(terrain, op.at, op.radius, target.at, target.radius)
    after = reach.route_gap(terrain, to, op.radius, target.at, target.radius)
    if after >= before - 1e-6:
        return (f"{to[0]:g},{to[1]:g} does not reach {target.label} (within 1\") and a "
                "failed charge must take it closer to its target")
    return None


def _check_charge_range(game: Game, state: State, op: Operative, target: Operative) -> None:
    """Kill Team 2018: a charge is declared at an enemy within 12" (the most 2D6 can roll),
    measured around the walls."""
    assert op.at is not None and target.at is not None
    gap = reach.route_gap(game.terrain(state), op.at, op.radius, target.at, target.radius)
    if gap > reach.KT2018_CHARGE_MAX + 1e-6:
        way = reach.way_words(gap, reach.base_gap(op, target))
        raise RuleError(f"{target.label} is {gap:.1f}\" {way}: a charge is declared at an "
                        f"enemy within {reach.KT2018_CHARGE_MAX:g}\"")


def _enemy_reaction(game: Game, state: State, op: Operative, how: str,
                    target: Operative | None) -> list[dict[str, Any]]:
    """Kill Team 2018: the enemy model ``op`` charges Reacts first (Overwatch, hits only on
    6s: :func:`solo_ops.ai.reactions.overwatch`), rolled by solo-ops, or handed to the
    player with the enemy's other attacks (setting ``enemy_attacks: player``)."""
    if state.edition != "kt2018" or how != "charge" or target is None or target.side != ENEMY:
        return []
    from solo_ops.ai.reactions import may_react, overwatch
    from solo_ops.game.shots import resolve_shot, shot_cover

    why = may_react(game.context(state), state, target.id)
    if why is not None:  # the game says why, as for the players' models (docs/rules.md)
        return [{"type": "cannot_react", "operative": target.id,
                 "why": why.removesuffix(": it cannot React")}]
    shot = overwatch(game.context(state), state, target.id, op.id)
    if shot is None:
        return []
    weapon = next(w for w in target.profile.weapons if w.name == shot.weapon)
    from solo_ops.game.play2018 import overwatch_hits_on

    note = shot.note.replace("(hits only on 6s)",
                             f"(hits on {overwatch_hits_on(game, state, target, op)})")
    events: list[dict[str, Any]] = [
        {"type": "overwatch", "operative": target.id, "target": op.id, "weapon": weapon.name,
         "note": note}]
    if game.settings.enemy_attacks == "player":
        text = f"{note} Roll it and report the damage."
        state.pending_attacks.append({"kind": "shoot", "attacker": target.id, "target": op.id,
                                      "weapon": weapon.name, "text": text})
        return [*events, {"type": "attack_pending", "attacker": target.id, "target": op.id,
                          "note": text}]
    cover = shot_cover(game, state, target, weapon, op)
    return events + resolve_shot(game, state, target, weapon, op, cover, [], None,
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
    referee's :func:`solo_ops.rules.referee.timing_refusal_2018`; a declared Advance or charge
    moves once, after its roll), not once Readied, not off a petrific divisor under Power
    Flux."""
    if state.edition == "kt2018" and state.phase == "movement":
        if op.moved_how == "ready":
            raise RuleError(f"{op.name} is Readied: it was Readied instead of moving")
        if pariah.frozen(state, op):
            raise RuleError(f"{op.name} stood on a petrific divisor when it activated: it "
                            "cannot move this battle round (004 Power Flux)")
    refused = referee.timing_refusal_2018(activation(state, op), how)
    if refused is not None:
        raise RuleError(refused)


def _check_order(state: State, op: Operative, how: str) -> None:
    """Kill Team 2024: no Charge on a Conceal order, by the referee
    (:func:`solo_ops.rules.referee.order_refusal`)."""
    refused = referee.order_refusal(activation(state, op), how)
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
                                      in_control[0].label if in_control else None)
    if refused is not None:
        raise RuleError(refused)
    if state.edition == "kt2018" and how == "fall_back" and not kt2018.may_fall_back(
            any(e.charged for e in in_control)):
        charger = next(e for e in in_control if e.charged)
        raise RuleError(f"{op.name} cannot fall back: {charger.id} charged it this phase (004 \"A "
                        "model cannot Fall Back if an enemy model finished a charge move within "
                        "1\" of it in the same phase\")")


def _route(terrain: Terrain, op: Operative, how: str, to: tuple[float, float],
           others: list[Operative], target: Operative | None, counters: Sequence[Any] = (),
           limit: float = math.inf, *, engaged: frozenset[str] = frozenset()) -> Walk:
    """The walk there around walls and other bases -- models standing or downed, counters --
    or refuse. A free move (Reposition, Dash, 2018 normal move and Advance) keeps out of every
    enemy's control range on its way, by the one rule both sides walk by
    (:func:`solo_ops.rules.reach.keep_out`): round an enemy's 1" where nothing cuts it,
    through the part of it a wall puts out of control range (each such walk tested point by
    point); the cheaper walk that keeps out is the move's. A Kill Team 2018 charge keeps out of
    the 1" of every enemy but its target by the same rule, and so does a Kill Team 2024 charge
    (but for an enemy a friendly holds: it may be passed, as a free move may). Fall backs walk
    past the enemies' bases alone (their ends are checked by :func:`_check_move_end`)."""
    assert op.at is not None
    # a charge keeps out of every enemy's control range but its target's by the same rule:
    # 2018 "cannot move within 1" of an enemy model that was not a target of its charge" (004
    # Charge Move); 2024 "MUST finish the move within Control Range of the first enemy
    # Operative that it enters the Control Range of IF that enemy Operative is not in Control
    # Range of a friendly Operative" (001 Charge): one held by a friendly may be passed
    keeps_clear = how in FREE_MOVES or how == "charge"
    foes = [o for o in others if o.side != op.side and o.on_table and keeps_clear
            and (target is None or o.id != target.id)]
    bases = [(*_centre(o), o.radius) for o in foes]
    keep = reach.keep_out(terrain, op.at, op.radius, bases, reach=limit,
                          engaged=[k for k, o in enumerate(foes) if o.id in engaged])
    best = None
    entered = None
    for round_cut in ((True, False) if keep.through else (True,)):
        blockers = []
        k = 0
        for o in others:
            extra = 0.0
            if o in foes:
                extra = keep.grown(k, round_cut=round_cut)
                k += 1
            blockers.append((*_centre(o), o.radius + extra))
        blockers += placement.discs(counters)
        walk = terrain.routes.walk(op.at, to, op.radius, blockers=blockers)
        if walk is None:
            continue
        held = keep.entered(terrain, walk.points, op.radius, round_cut=round_cut)
        if held is not None:
            entered = entered or foes[held]
            continue
        if best is None or walk.cost < best.cost - 1e-9:
            best = walk
    if best is None:
        if how == "charge" and entered is None:  # the end itself within a non-target's inch
            entered = next((o for o in foes if math.dist(to, _centre(o))
                            < op.radius + o.radius + reach.CONTROL_RANGE - 1e-6), None)
        if entered is not None and how == "charge" and op.charge_target is not None:
            raise RuleError(f"{op.name} cannot reach {to[0]:g},{to[1]:g}: its way there goes "
                            f"within 1\" of {entered.label}, which is not a target of the "
                            "charge (004 \"It cannot move within 1\" of an enemy model that was "
                            "not a target of its charge\")")
        if entered is not None and how == "charge":
            raise RuleError(f"{op.name} cannot reach {to[0]:g},{to[1]:g}: its way there goes "
                            f"into {entered.label}'s control range, which it would have to end "
                            "in: charge it instead (001 Charge \"MUST finish the move within "
                            "Control Range of the first enemy Operative that it enters the "
                            "Control Range of\")")
        if entered is not None:
            raise RuleError(f"{op.name} cannot reach {to[0]:g},{to[1]:g}: its way there goes "
                            f"into {entered.id}'s control range (001 Reposition \"Cannot move "
                            "within Control Range of an enemy\")")
        raise RuleError(f"{op.name} cannot reach {to[0]:g},{to[1]:g}: no route around the walls"
                        " and other models")
    return best


def _check_allowance(game: Game, state: State, op: Operative, how: str, walk: Walk) -> float:
    """The walk's length is within the move's allowance (2" for a counteract; what is left
    of a move a door or hatch interrupted); its cost."""
    limit = move_limit(state, op, how)
    cost = float(walk.cost)
    if cost >= UNCLIMBABLE:  # a Dash's way there climbs (its board climbs nothing)
        why = placement.detour(game.terrain(state), walk.points, op.radius) or "climbing"
        raise RuleError(f"a Dash cannot be used to climb (001 Dash), and there it would be "
                        f"{why.split(', ')[-1]}")
    if cost > limit + MOVE_TOLERANCE:
        raise RuleError(f"that is {_movement(game, state, op, walk)}; {op.name} can "
                        f"{reach.move_verb(how)} {max(0.0, limit):.1f}\"")
    return cost


def _movement(game: Game, state: State, op: Operative, walk: Walk) -> str:
    """A refused move's cost in the players' words: ``9.1" of movement around the walls`` (or
    just ``of movement`` on open ground), or, when terrain adds to it, what for (``9.1" of
    movement: 5.1" walked, climbing onto condenser-1``: :func:`terrain_added`)."""
    cost = float(walk.cost)
    added = terrain_added(game, state, op, walk)
    if added is not None:
        return f"{cost:.1f}\" of movement: {added}"
    around = reach.bends(float(walk.length), math.dist(walk.points[0], walk.points[-1]))
    return f"{cost:.1f}\" of movement" + (" around the walls" if around else "")


def terrain_added(game: Game, state: State, op: Operative, walk: Walk,
                  show: Callable[[float], str] = lambda d: f"{d:.1f}\"") -> str | None:
    """What terrain adds to ``walk``'s cost, in words (``5.1" walked, climbing onto
    condenser-1``: the length walked, by ``show``, and
    :func:`~solo_ops.geometry.placement.detour`'s words), or None when it adds less than
    :data:`~solo_ops.geometry.placement.DETOUR_SHOWN`: a refused move and the page's
    preview say it alike."""
    if float(walk.cost) - float(walk.length) < placement.DETOUR_SHOWN:
        return None
    why = placement.detour(game.terrain(state), walk.points, op.radius) or "through terrain"
    return f"{show(float(walk.length))} walked, {why}"


def _check_move_end(game: Game, state: State, op: Operative, how: str,
                    to: tuple[float, float], target: Operative | None,
                    terrain: Terrain) -> None:
    """A charge ends in its target's control range; a fall back, and a free move, outside
    every enemy's (001 Reposition "cannot finish the move within Control Range of an
    enemy"; Fall Back "cannot finish in Control Range")."""
    if target is not None and target not in _enemies_in_control(state, op, game, at=to):
        assert target.at is not None
        gap = reach.route_gap(terrain, to, op.radius, target.at, target.radius)
        way = reach.way_words(gap, reach.straight_gap(to, op.radius, target.at, target.radius))
        raise RuleError(f"a charge must end within 1\" of {target.id} and in its sight: from "
                        f"there it is {gap:.1f}\" {way}")
    if how == "fall_back" and _enemies_in_control(state, op, game, at=to):
        raise RuleError("a Fall Back must end more than 1\" from every enemy model"
                        if state.edition == "kt2018"
                        else "a fall back must end outside every enemy's control range")
    if how in FREE_MOVES:
        held = _enemies_in_control(state, op, game, at=to)
        if held and state.edition == "kt2018":
            raise RuleError(f"a move cannot end within 1\" of an enemy model ({held[0].id})")
        if held:
            raise RuleError(f"a move cannot end within an enemy's control range ({held[0].id}: "
                            "001 Reposition \"cannot finish the move within Control Range of an "
                            "enemy\")")


def _apply_move(game: Game, state: State, op: Operative, how: str, to: tuple[float, float],
                cost: float, walk: Walk, target: Operative | None) -> list[dict[str, Any]]:
    """Move the operative (and whom it carries), record how, then mines and spotting."""
    old = op.at
    op.at = to
    op.moved = True
    op.moved_how = how
    op.readied = False  # 004 Readying: "If the model moves for any reason, it is no longer
    # Readied"
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
    events.extend(check_mines(game, state, op, walk.points))
    events.extend(reveal.check_spotting(game, state))
    if state.edition == "kt2018":  # a spatial lacerator's offer, Arcing Tesla Fields (004)
        events.extend(pariah_events.after_move(game, state, op, how, walk.points))
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
    destination: the 2018 movement phase, AP, a Heavy weapon shot, an enemy's control range
    (within one, only a fall back — or a 2018 charge — starts) and the 2024 order (no charge
    on Conceal)."""
    kinds = {"kt2024": ("reposition", "dash", "charge", "fall_back"),
             "kt2018": ("normal", "advance", "charge", "fall_back")}[state.edition]
    if state.active_operative is None:
        return dict.fromkeys(kinds, "no operative is active")
    op = state.operatives[state.active_operative]
    declared = declared_move(op, "", {})[0]
    # a rolled Advance or charge: only its move is left, in the movement phase it was rolled in
    if declared and not op.moved and state.phase == "movement":
        word = "an Advance" if declared == "advance" else "a charge"
        return {how: None if how == declared else f"{op.name} has declared {word}: its move "
                "follows the roll" for how in kinds}
    in_control = _enemies_in_control(state, op, game) if op.on_table else []
    out: dict[str, str | None] = {}
    for how in kinds:
        try:
            _check_move_timing(state, op, how)
            _spend(state, op, how, check_only=True)
            _check_heavy_move(state, op, how)
            _check_leaving_control_range(state, op, how, in_control)
            _check_order(state, op, how)  # after control range: within one, that is why
            if how == "charge" and not _foes_on_table(state, op):
                raise RuleError("there is no enemy on the table to charge")
        except RuleError as exc:
            out[how] = str(exc)
        else:
            out[how] = None
    return out


def _foes_on_table(state: State, op: Operative) -> bool:
    """Whether any model of the other side stands on the table (a charge needs a target;
    hidden counters are not models)."""
    return any(o.side != op.side and o.on_table for o in state.operatives.values())
