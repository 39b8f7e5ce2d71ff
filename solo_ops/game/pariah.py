"""The Pariah Nexus effects in play: where the models stand, and the dice the effects change.

The effects in force are the mission's (:meth:`solo_ops.game.missions.Mission.in_force`), as
data (:mod:`solo_ops.core.effects`); :mod:`solo_ops.rules.pariah` says what each change does.
This module answers the questions those rules leave to the board — whether a model is within
1" of a pitfall, on the circuit of entropic anguish, within 2" of an objective marker — and
turns the answers into the inputs of every roll and check the engine makes for either side:
an attack's modifiers, re-rolls, Strength and invulnerable save (:func:`attack_effects`), an
Advance or charge roll (:func:`advance_roll`, :func:`charge_roll`), Overwatch, a Retreat's
distance, whether a model may React (:func:`react_refusal`), a Nerve test's modifiers, and who
acts first in the shooting and fight phases (:func:`acts_first`). What happens at a moment of
the battle round (Power Surges' lighting, spatial lacerators, mortal wounds at the start or end
of a round ...) is :mod:`solo_ops.game.pariah_events`.

A distance to a place is measured from the model's base: to a marker or an objective around
the walls (as 004 measures every distance), to a feature's footprint straight and then, where
the straight line passes a wall, around it to the footprint's nearest point.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import shapely.ops
from shapely.geometry import Point

from solo_ops.core.effects import Effect, Place
from solo_ops.game.places import place_shapes as place_shapes
from solo_ops.game.places import terrain_changes as terrain_changes
from solo_ops.game.state import Operative, State
from solo_ops.rules import kt2018, kt2018_reactions, pariah, referee
from solo_ops.rules.pariah import Situation

if TYPE_CHECKING:
    from solo_ops.game.definition import Game

TOLERANCE = 1e-6


def in_force(game: Game) -> tuple[Effect, ...]:
    """The Pariah Nexus effects in force in ``game`` (none outside Kill Team 2018)."""
    return getattr(game, "effects", ())


# -- places ----------------------------------------------------------------------------------------
def near_ids(game: Game, state: State, at: Sequence[float], radius: float, place: Place,
             among: Iterable[str] | None = None) -> list[str]:
    """The ids of what ``place`` names that a base of ``radius`` at ``at`` is within (or
    over) as the place says; ``among`` limits them (the spatial lacerators selected). The
    answer depends only on the terrain as it stands and these inputs, so each is remembered
    on the terrain (the 2018 turn order asks it of every model at every step)."""
    terrain = game.terrain(state)
    key = (float(at[0]), float(at[1]), float(radius), place,
           None if among is None else tuple(sorted(among)))
    memo = terrain.place_answers
    got = memo.get(key)
    if got is None:
        got = _near_ids(game, terrain, key[0], key[1], key[2], place, among)
        if len(memo) >= PLACE_MEMO_LIMIT:
            memo.clear()
        memo[key] = got
    return list(got)


PLACE_MEMO_LIMIT = 4096
"""Answers of :func:`near_ids` a terrain keeps (then it starts afresh)."""


def _near_ids(game: Game, terrain: Any, x: float, y: float, radius: float, place: Place,
              among: Iterable[str] | None) -> tuple[str, ...]:
    """:func:`near_ids` worked out."""
    at = (x, y)
    centre = Point(x, y)
    wanted = None if among is None else set(among)
    found = []
    for ident, shape, is_point in place_shapes(game.scenario.board, place):
        if wanted is not None and ident not in wanted:
            continue
        gap = shape.distance(centre) - radius
        if place.over:
            if gap < -TOLERANCE if not is_point else gap <= TOLERANCE:
                found.append(ident)
            continue
        limit = float(place.within or 0.0)
        if gap > limit + TOLERANCE:
            continue
        if gap > TOLERANCE and place.trait != "wall":
            # around the walls: to a point marker, or to the footprint's nearest point
            spot = shape if is_point else shapely.ops.nearest_points(shape, centre)[0]
            sx, sy = spot.coords[0]
            d = terrain.routes.distance(at, (sx, sy), radius, 0.0).distance
            if d is None or d > limit + TOLERANCE:
                continue
        found.append(ident)
    return tuple(found)


def stands(game: Game, state: State, op: Operative | None, place: Place,
           among: Iterable[str] | None = None) -> bool:
    """Whether ``op`` (on the table) stands where ``place`` says."""
    if op is None or op.at is None:
        return False
    return bool(near_ids(game, state, op.at, op.radius, place, among))


# -- situations ------------------------------------------------------------------------------------
def situation(game: Game, state: State, *, attacker: Operative | None = None,
              target: Operative | None = None, model: Operative | None = None,
              charge_targets: Sequence[Operative] = (), weapon: Any = None,
              distance: float | None = None, firing_point: bool = False,
              no_escape: bool = False, phase: str | None = None) -> Situation:
    """The :class:`~solo_ops.rules.pariah.Situation` of one roll or check: the models it is
    about (looked up on the board only when a condition asks), the weapon, the phase (the
    game's, unless given: Overwatch is in the movement phase), the attacker-target distance."""
    who: dict[str, list[Operative]] = {
        "attacker": [attacker] if attacker else [], "target": [target] if target else [],
        "model": [model] if model else [], "charge_target": list(charge_targets)}

    def where(name: str, place: Place) -> bool:
        return any(stands(game, state, o, place) for o in who.get(name, []))

    kind = None if weapon is None else ("melee" if weapon.is_melee else "ranged")
    return Situation(weapon=kind, phase=phase or state.phase, distance=distance,
                     firing_point=firing_point, no_escape=no_escape,
                     round=dict(state.round_effects), where=where)


# -- attacks ---------------------------------------------------------------------------------------
def attack_effects(game: Game, state: State, attacker: Operative, target: Operative,
                   weapon: Any, *, distance: float | None, firing_point: bool = False,
                   no_escape: bool = False, overwatch: bool = False
                   ) -> tuple[dict[str, Any], dict[str, Any], str | None]:
    """The effects in force on one attack of ``attacker`` at ``target``: the
    :class:`~solo_ops.rules.kt2018.Attack2018` fields (named hit, wound and injury modifiers,
    Strength, re-rolls, Overwatch's hit), the :class:`~solo_ops.rules.kt2018.Target2018`
    fields (its invulnerable save and why) and the effect that makes the target count as
    obscured (None). Empty outside a game with effects."""
    effects = in_force(game)
    if not effects:
        return {}, {}, None
    sit = situation(game, state, attacker=attacker, target=target, weapon=weapon,
                    distance=distance, firing_point=firing_point, no_escape=no_escape,
                    phase="movement" if overwatch else None)
    wound_faces, wound_why = pariah.rerolls(effects, "wound_roll", sit)
    injury_faces, injury_why = pariah.rerolls(effects, "injury_roll", sit)
    kwargs: dict[str, Any] = {
        "effect_hit": tuple(pariah.modifiers(effects, "hit_roll", sit)),
        "effect_wound": tuple(pariah.modifiers(effects, "wound_roll", sit)),
        "effect_injury": tuple(pariah.modifiers(effects, "injury_roll", sit)),
        "effect_strength": tuple(pariah.modifiers(effects, "strength", sit)),
        "wound_reroll": wound_faces, "wound_reroll_why": wound_why,
        "injury_reroll": injury_faces, "injury_reroll_why": injury_why}
    if overwatch:
        kwargs["overwatch_hits_on"], kwargs["overwatch_why"] = pariah.overwatch_hits_on(
            effects, sit)
    own = getattr(target.profile, "invulnerable", None)
    invulnerable, why = pariah.invulnerable(effects, sit, own)
    defence = {"invulnerable": invulnerable, "invulnerable_why": tuple(why)} if why else {}
    return kwargs, defence, pariah.obscured(effects, sit)


def injury_effects(game: Game, state: State, op: Operative
                   ) -> tuple[list[tuple[str, int]], frozenset[int], str | None]:
    """The effects on an Injury roll for ``op`` that no attack of known weapon caused (a
    mortal wound, damage reported at the table): those that ask only where it stands (004
    Energy Discharge "when an Injury roll is made for a model on the circuit of entropic
    anguish, add 1 to the result"). Modifiers, re-rolled faces and why."""
    effects = in_force(game)
    if not effects:
        return [], frozenset(), None
    sit = situation(game, state, target=op)
    faces, why = pariah.rerolls(effects, "injury_roll", sit)
    return pariah.modifiers(effects, "injury_roll", sit), faces, why


# -- Advance and charge rolls ----------------------------------------------------------------------
def advance_roll(game: Game, state: State, op: Operative) -> tuple[int, str]:
    """``op``'s Advance roll (004 "make an Advance roll by rolling a D6"), with the effects
    in force on it (Auto-reactive Foundations, Internal Pressure Shift), logged: its value
    and its words."""
    effects = in_force(game)
    sit = situation(game, state, model=op)
    assert state.dice is not None
    return kt2018.roll_move_dice(state.dice, f"Advance roll: {op.label}", 1,
                                 extra=pariah.extra_die(effects, "advance_roll", sit),
                                 modifiers=pariah.modifiers(effects, "advance_roll", sit))


def charge_roll(game: Game, state: State, op: Operative, targets: Sequence[Operative]
                ) -> tuple[int, str]:
    """``op``'s charge roll at ``targets`` (004 "make a charge roll by rolling 2D6"), with
    the effects in force on it (Auto-reactive Foundations, Internal Pressure Shift, Gravitic
    Fluxwave), logged: its value and its words."""
    effects = in_force(game)
    sit = situation(game, state, model=op, charge_targets=targets)
    names = ", ".join(t.label for t in targets)
    assert state.dice is not None
    return kt2018.roll_move_dice(state.dice, f"charge roll: {op.label} at {names}", 2,
                                 extra=pariah.extra_die(effects, "charge_roll", sit),
                                 modifiers=pariah.modifiers(effects, "charge_roll", sit))


# -- reactions, Retreat, Nerve, who acts first -----------------------------------------------------
def react_refusal(game: Game, state: State, op: Operative, engaged: bool) -> str | None:
    """Why ``op``, the target of a charge, cannot React now (004 React, Advancing, Falling
    Back, Retreat, Charge Move and the effects in force:
    :func:`solo_ops.rules.kt2018_reactions.may_react`), or None. Both sides ask it."""
    forbidden = None
    effects = in_force(game)
    if effects:
        forbidden = pariah.react_forbidden(effects, situation(game, state, model=op))
    return referee.shaken_words(state.edition, op.shaken) or kt2018_reactions.may_react(
        engaged=engaged, moved_how=op.moved_how, advanced=op.advanced, charged=op.charged,
        forbidden_by=forbidden, assault=op.profile.has_assault, picked_up=op.picked_up)


def retreat_distance(game: Game, state: State, op: Operative) -> tuple[float, str | None]:
    """How far ``op`` may Retreat (004: 3"; Power Surges' intense lighting: 4") and why."""
    return pariah.retreat_distance(in_force(game), situation(game, state, model=op))


def nerve_modifiers(game: Game, state: State, op: Operative) -> list[tuple[str, int]]:
    """The effects' modifiers of ``op``'s Nerve test (004 Fear Matrix)."""
    effects = in_force(game)
    if not effects:
        return []
    return pariah.modifiers(effects, "nerve_test", situation(game, state, model=op))


def acts_first(game: Game, state: State, op: Operative) -> str | None:
    """The effect that makes ``op`` shoot in Ready, Fire! or fight in Hammer of Wrath in this
    phase (004 Temporal Accelerator), or None."""
    effects = in_force(game)
    if not effects or state.phase not in ("shooting", "fight"):
        return None
    return pariah.acts_first(effects, state.phase, situation(game, state, model=op))


def counts_as_obscured(game: Game, state: State, attacker: Operative, target: Operative,
                       distance: float | None) -> str | None:
    """The effect that makes ``target`` count as obscured to ``attacker`` (004 Shifting
    Shadows), or None."""
    effects = in_force(game)
    if not effects:
        return None
    return pariah.obscured(effects, situation(game, state, attacker=attacker, target=target,
                                              distance=distance))


def access_control(game: Game) -> Effect | None:
    """The effect that lets Access Override open and close any and all doors (004 Access
    Control), when in force."""
    return next((e for e in in_force(game) if e.of("access_override")), None)


def no_escape_excluded(game: Game) -> set[str]:
    """The features that are not terrain features for No Escape in this game: those an
    effect of the killzone's table makes count (004 Hyperactive Energy Cycle "Hyperflay
    arteries are considered terrain features for the purpose of the No Escape rule"), while
    that effect is not in force."""
    from solo_ops.core.tables import simple_table
    from solo_ops.game.missions import KILLZONE_TABLES

    board = game.scenario.board
    name = KILLZONE_TABLES.get(board.killzone or "")
    if name is None:
        return set()
    counted = {p for _, p in pariah.places(in_force(game), "no_escape", "terrain")}
    out: set[str] = set()
    for row in simple_table(name).rows.values():
        for change in row.effect:
            place = change.get("terrain") if change.to == "no_escape" else None
            if place is not None and place not in counted:
                out |= {ident for ident, _, _ in place_shapes(board, place)}
    return out


def frozen(state: State, op: Operative) -> bool:
    """Whether ``op`` cannot move this battle round: it stood on a petrific divisor when it
    activated (004 Power Flux "if a model is already on a petrific divisor when it activates,
    that model cannot move that battle round")."""
    return op.id in (state.round_effects.get("frozen") or ())


def gap(a: Operative, b: Operative) -> float:
    """The straight gap between two bases (for a message)."""
    assert a.at is not None and b.at is not None
    return math.dist(a.at, b.at) - a.radius - b.radius
