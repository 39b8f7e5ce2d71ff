"""Kill Team 2018 in play: the options of either side's attacks, read off the game.

Whether the Pariah Nexus ultra-close-confines rules apply (:func:`pariah_nexus`), whether a
kill team is broken (:func:`broken_2018`), a shot's options for the bridge
(:func:`flags_2018`: long range, the firing point, the Pariah Nexus effects in force on the
attack and its target) and No Escape's geometry (:func:`no_escape`). The shots and fights of
either side ask here (:mod:`solo_ops.game.shots`, :mod:`solo_ops.game.fights`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from solo_ops.ai.context import Action
from solo_ops.ai.explain import cost_inches, fmt_pt, inches
from solo_ops.game import attacks, pariah
from solo_ops.game.missions import KILLZONE_TABLES
from solo_ops.game.state import ENEMY, PLAYER, Operative, State
from solo_ops.rules import reach

if TYPE_CHECKING:
    from solo_ops.game.definition import Game

CONTROL_RANGE = reach.CONTROL_RANGE


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
               target: Operative, *, overwatch: bool = False) -> dict[str, Any]:
    """The bridge's Kill Team 2018 shot options: broken, long range (more than half the
    weapon's range, measured as the range check measures: around walls), the Pariah Nexus
    rules, the firing point the shooter benefits from, and the Pariah Nexus effects in force
    on the attack and its target (:func:`solo_ops.game.pariah.attack_effects`): the same for
    either side's shots and Overwatch."""
    if state.edition != "kt2018":
        return {}
    long_range = None
    d = game.terrain(state).routes.distance(op.at, target.at, op.radius,
                                            target.radius).distance
    if weapon.range and not weapon.is_melee and d is not None:
        long_range = d > weapon.range / 2 + 1e-9
    confines = pariah_nexus(game)
    point = attacks.firing_point_2018(game.terrain(state), op, target)
    effects, defence, obscured_by = pariah.attack_effects(
        game, state, op, target, weapon, distance=d, firing_point=point is not None,
        overwatch=overwatch)
    return {"broken": broken_2018(state, op.side), "long_range": long_range,
            "close_quarters": confines, "concentrated_radius": confines,
            "firing_point": point, "effects": effects, "defence": defence,
            "obscured_by": obscured_by, "overwatch": overwatch,
            "rapid_fire": game.settings.rapid_fire}


def mark_started_within(game: Game, state: State) -> None:
    """At the start of the movement phase, note on every model on the table the enemy it
    stands within 1" of (None: none), for the phase: 004 Falling Back "When you pick a model to
    move, if that model started the Movement phase within 1" of an enemy model, it cannot make a
    normal move. Instead, it can either remain stationary or Fall Back" -- even once that enemy
    has Fallen Back or fallen (the referee's ``started_within``)."""
    terrain = game.terrain(state)
    for op in state.operatives.values():
        foes = state.living(PLAYER if op.side == ENEMY else ENEMY)
        held = reach.within_reach(terrain, op, foes) if op.on_table else []
        op.started_within = held[0].id if held else None


def no_escape(game: Game, state: State, attacker: Operative, target: Operative) -> bool:
    """No Escape (Pariah Nexus): the straight line from the attacker's centre through the
    target's centre to the board's edge touches a wall, door, terrain feature or pitfall
    within 1" of the target (open doors are off the board in 2018). Hyperflay arteries count
    only under Hyperactive Energy Cycle (:func:`solo_ops.game.pariah.no_escape_excluded`)."""
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
    excluded = pariah.no_escape_excluded(game)
    for f in board.features:
        if (f.is_portal and f.open and not f.has("hatch")) or f.id in excluded:
            continue
        touched = f.shape.intersection(ray)
        if not touched.is_empty and touched.intersects(near):
            return True
    return False


def may_not_react(game: Game, state: State, target: Operative) -> str | None:
    """Why ``target``, charged, cannot React now (None: it can): the rule both sides ask
    (:func:`solo_ops.game.pariah.react_refusal`: within 1" of an enemy, Advanced, Fell Back,
    Retreated, attempted a charge, a Pariah Nexus effect)."""
    terrain = game.terrain(state)
    assert target.at is not None
    near = next((e for e in state.living(ENEMY) if e.at is not None and reach.engaged_2018(
        terrain, target.at, target.radius, e.at, e.radius)), None)
    why = pariah.react_refusal(game, state, target, near is not None)
    if why is None:
        return None
    if near is not None:
        return f"{target.name} is within 1\" of {near.label}"
    return f"{target.name} cannot React: {why}"


def overwatch_hits_on(game: Game, state: State, shooter: Operative, target: Operative
                       ) -> str:
    """Overwatch's hit in words: ``6s`` (004), ``5+ (Power Surges)`` under intense lighting."""
    from solo_ops.rules import pariah as pariah_rules

    face, why = pariah_rules.overwatch_hits_on(
        pariah.in_force(game), pariah.situation(game, state, attacker=shooter, target=target,
                                                phase="movement"))
    return "6s" if face == 6 else f"{face}+ ({why})"


def advance_roll(game: Game, state: State, op: Operative) -> list[dict[str, Any]]:
    """An enemy model's Advance roll, once a battle round (004 Advancing: "make an Advance roll
    by rolling a D6", with the effects in force on it: :func:`solo_ops.game.pariah.advance_roll`):
    the ``move_roll`` event, or nothing when it has rolled already or it is not 2018."""
    if state.edition != "kt2018" or op.advance_roll is not None:
        return []
    op.advance_roll, words = pariah.advance_roll(game, state, op)
    op.advanced = True
    limit = reach.move_allowance(op, "advance", state.edition)
    return [{"type": "move_roll", "operative": op.id, "how": "advance", "roll": op.advance_roll,
             "dice": words,
             "note": f"{op.label}'s Advance roll: {words}: it may move up to "
                     f"{op.profile.movement:g}\" + {op.advance_roll}\" = {limit:g}\"."}]


def advance_to_roll(action: Action, op: Operative) -> str:
    """An enemy model's planned Advance in words before its roll is made: where it heads and
    why, no distance claimed (004 Advancing: "make an Advance roll by rolling a D6. Add the
    result to the model's Move characteristic"): what is shown when the game pauses for a
    player's question before the roll (an Overwatch at another model's charge) promises
    nothing the dice have not given. :func:`retell_advance` replaces it once rolled."""
    assert action.told is not None
    reason, _, why = action.told
    where = f", headed for {fmt_pt(action.to)}" if action.to is not None else ""
    return (f"{op.label} is to Advance {reason}{where}: its Advance roll (Move "
            f"{op.profile.movement:g}\" + D6) is made as it moves.{why}")


def advance_sequence_words(line: str, action: Action) -> str:
    """A sequence line of the plan with its "Advance up to N\"" said as to be rolled."""
    return line.replace(f"Advance up to {cost_inches(action.cost)}", "Advance (to be rolled)", 1)


def unrolled_explain(explain: list[str], actions: list[Action],
                     operatives: dict[str, Operative]) -> list[str]:
    """The plan's explanation as the activation first tells it: each Advance (its roll not
    yet made) said by :func:`advance_to_roll`, its sequence line by
    :func:`advance_sequence_words`; every other line as planned."""
    out = list(explain)
    for action in actions:
        if action.kind != "advance" or action.told is None or action.note not in out:
            continue
        op = operatives[action.model]
        out[out.index(action.note)] = advance_to_roll(action, op)
        for i, line in enumerate(out):
            if line.startswith(f"{op.label}'s sequence: "):
                out[i] = advance_sequence_words(line, action)
                break
    return out


def retell_advance(activation: dict[str, Any], action: Action, op: Operative,
                   moved: list[dict[str, Any]]) -> None:
    """Tell an enemy model's Advance again in its activation's explanation once the roll is
    made (004 Advancing: "make an Advance roll by rolling a D6. Add the result to the model's
    Move characteristic for that Movement phase"): the activation first says it is to be
    rolled (:func:`unrolled_explain`), so its line (and the sequence's "Advance (to be
    rolled)") are replaced by the
    distance it moved, the allowance the roll gave and -- where it reached the planned end --
    what it finds there, its figures "of its N\"" the rolled allowance. Words only: the
    move was made as planned, within the roll (:func:`solo_ops.game.enemy._move`)."""
    end = next((e for e in moved if e.get("type") == "moved"), None)
    explain = activation.get("explain")
    if action.told is None or end is None or op.advance_roll is None \
            or not isinstance(explain, list):
        return
    told = advance_to_roll(action, op)
    if told not in explain:
        return
    reason, tail, why = action.told
    limit = reach.move_allowance(op, "advance", "kt2018")
    most = reach.move_allowance(op, "advance", "kt2018", roll=reach.KT2018_ADVANCE_MAX)
    to = tuple(end["to"])
    words = (f"{op.label} Advances {inches(end['cost'])} {reason}, to {fmt_pt(to)}: its "
             f"Advance roll allows {inches(limit)} (Move {op.profile.movement:g}\" + "
             f"{op.advance_roll}\").")
    if action.to is not None and math.dist(to, action.to) <= 0.05:
        words += tail.replace(f"of its {inches(most)}", f"of its {inches(limit)}")
    elif action.to is not None:
        words += f" The roll stops it short of {fmt_pt(action.to)}, where it was headed."
    explain[explain.index(told)] = words + why
    planned = "Advance (to be rolled)"
    for i, line in enumerate(explain):
        if line.startswith(f"{op.label}'s sequence: ") and planned in line:
            explain[i] = line.replace(planned, f"Advance {inches(end['cost'])}", 1)
            break


def after_move(game: Game, state: State, op: Operative, how: str, route: Any
               ) -> list[dict[str, Any]]:
    """Kill Team 2018: what the Pariah Nexus effects do after an enemy model's move (a
    spatial lacerator, Arcing Tesla Fields: :func:`solo_ops.game.pariah_events.after_move`)."""
    if state.edition != "kt2018":
        return []
    from solo_ops.game import pariah_events

    return pariah_events.after_move(game, state, op, how, route)
