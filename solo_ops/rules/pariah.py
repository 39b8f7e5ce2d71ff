"""The Pariah Nexus effects in force (004), applied to the dice and checks: pure functions.

The effects are data (:mod:`solo_ops.core.effects`): each names the die or check it changes
and when. These functions answer, for one roll or check described by a :class:`Situation`,
which changes apply and what they do: the modifiers of a roll (each named by its effect, so
the logged roll says why), its re-rolls, an extra die to discard, an invulnerable save given,
improved or taken away, a target that counts as obscured, Overwatch hitting on 5+, a Retreat
of 4", a model that cannot React, a model that shoots in Ready, Fire! or fights in Hammer of
Wrath. They never look at the board: the caller (:mod:`solo_ops.game.pariah`) measures the
places a condition names and hands in the answers through :attr:`Situation.where`.

Both sides ask the same functions for every die the engine rolls (the players' rolled
attacks, Advance and charge rolls, Overwatch and Nerve tests, and the enemy's), so an effect
applies to both alike.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from solo_ops.core.effects import Change, Effect, Place

Where = Callable[[str, Place], bool]
"""``(who, place) -> bool``: whether the model called ``who`` (``attacker``, ``target``,
``model``, ``charge_target``) stands where ``place`` says."""


def _nowhere(_who: str, _place: Place) -> bool:
    return False


@dataclass(frozen=True)
class Situation:
    """One roll or check, as the conditions of a change ask about it: the ``weapon``
    (``melee`` or ``ranged``, None when no attack), the ``phase``, the ``distance`` between
    attacker and target (base to base, as the range is measured), whether the attacker
    benefits from a ``firing_point`` or gains ``no_escape``'s advantage, the battle round's
    rolled state (``round``: Power Surges' lighting, Power Flux's divisors) and ``where``
    (see :data:`Where`)."""

    weapon: str | None = None
    phase: str | None = None
    distance: float | None = None
    firing_point: bool = False
    no_escape: bool = False
    round: Mapping[str, Any] = field(default_factory=dict)
    where: Where = _nowhere


def applies(change: Change, sit: Situation) -> bool:
    """Whether every condition of ``change`` holds in ``sit``."""
    for key, wanted in change.when.items():
        if key == "weapon" and sit.weapon != wanted:
            return False
        if key == "phase" and sit.phase != wanted:
            return False
        if key == "range_over" and not (sit.distance is not None
                                        and sit.distance > float(wanted) + 1e-9):
            return False
        if key == "range_within" and not (sit.distance is not None
                                          and sit.distance <= float(wanted) + 1e-9):
            return False
        if key in ("firing_point", "no_escape") and bool(getattr(sit, key)) != bool(wanted):
            return False
        if key == "round" and any(str(sit.round.get(k)) != str(v) for k, v in wanted.items()):
            return False
        if key in ("attacker", "target", "model", "charge_target") and not sit.where(key,
                                                                                    wanted):
            return False
    return True


def in_force(effects: Iterable[Effect], to: str, sit: Situation | None = None
             ) -> list[tuple[Effect, Change]]:
    """The changes to ``to`` of ``effects`` that apply in ``sit`` (all of them when None)."""
    return [(e, c) for e in effects for c in e.of(to) if sit is None or applies(c, sit)]


def modifiers(effects: Iterable[Effect], to: str, sit: Situation) -> list[tuple[str, int]]:
    """The ``add`` modifiers of the changes to ``to`` in force, each named by its effect
    (004 Reality Fluctuation "add 1 to the wound roll"; Internal Pressure Shift "Subtract 1
    from Advance rolls and charge rolls ...")."""
    return [(e.title, int(c.get("add"))) for e, c in in_force(effects, to, sit)
            if c.get("add")]


def rerolls(effects: Iterable[Effect], to: str, sit: Situation) -> tuple[frozenset[int],
                                                                          str | None]:
    """The faces of ``to`` re-rolled by the changes in force, and the effects that say so
    (004 Flensing Microfilaments "re-roll rolls of 1"; Parasitic Transmission "re-roll a wound
    roll of 1")."""
    faces: set[int] = set()
    names = []
    for e, c in in_force(effects, to, sit):
        if c.get("reroll"):
            faces.update(c.get("reroll"))
            names.append(e.title)
    return frozenset(faces), (", ".join(names) or None)


def extra_die(effects: Iterable[Effect], to: str, sit: Situation) -> tuple[str, str] | None:
    """``(discard, effect title)`` when an effect adds a die to ``to`` and discards one
    (004 Auto-reactive Foundations "roll one additional D6 and discard the highest result"),
    else None."""
    for e, c in in_force(effects, to, sit):
        if c.get("extra_die"):
            return str(c.get("extra_die")), e.title
    return None


def invulnerable(effects: Iterable[Effect], sit: Situation, own: int | None
                 ) -> tuple[int | None, list[str]]:
    """The invulnerable save of the target in ``sit`` with the effects in force, from its own
    ``own``, and why: a save given (the better of it and its own: 004 Metastasis Generator
    "a 4+ invulnerable save"), improved (Energy Discharge "If it already has an invulnerable
    save, improve that save by 1 (to a maximum of 3+)"), or taken away (Biophasic Leak "that
    model cannot use an invulnerable save", which wins)."""
    value = own
    why: list[str] = []
    found = in_force(effects, "save", sit)
    for e, c in found:  # the saves given first: an improvement improves what the model has
        given = c.get("invulnerable")
        if given in (None, "none") or c.get("improve"):
            continue
        if value is None or int(given) < value:
            value = int(given)
            why.append(f"{e.title}: {given}+ invulnerable save")
    already = value
    for e, c in found:
        if not c.get("improve"):
            continue
        if already is not None:  # "If it already has an invulnerable save, improve that save"
            better = max(int(c.get("best", 2)), already - int(c.get("improve")))
            if value is None or better < value:
                value = better
                why.append(f"{e.title}: invulnerable save improved to {better}+")
        elif (given := c.get("invulnerable")) not in (None, "none") and (
                value is None or int(given) < value):
            value = int(given)
            why.append(f"{e.title}: {given}+ invulnerable save")
    for e, c in found:
        if c.get("invulnerable") == "none":
            return None, [f"{e.title}: no invulnerable save"]
    return value, why


def obscured(effects: Iterable[Effect], sit: Situation) -> str | None:
    """The effect that makes the target count as obscured (004 Shifting Shadows), or None."""
    for e, c in in_force(effects, "obscured", sit):
        if c.get("set", True):
            return e.title
    return None


def overwatch_hits_on(effects: Iterable[Effect], sit: Situation) -> tuple[int, str | None]:
    """The Overwatch hit roll that always succeeds: 6 (004 Overwatch "a 6 is always required
    for a successful hit roll"), or lower by an effect (Power Surges' intense lighting: "a hit
    roll of 5+ is always successful")."""
    best, why = 6, None
    for e, c in in_force(effects, "overwatch_hit_roll", sit):
        if int(c.get("hits_on", 6)) < best:
            best, why = int(c.get("hits_on")), e.title
    return best, why


RETREAT = 3.0
"""004 Retreat: "When a model Retreats, it can be moved up to 3" by the controlling player."""


def retreat_distance(effects: Iterable[Effect], sit: Situation) -> tuple[float, str | None]:
    """How far a Retreat may move: 3" (004 Retreat), or an effect's distance (Power Surges'
    intense lighting: "when a model Retreats it can be moved up to 4""), and why."""
    best, why = RETREAT, None
    for e, c in in_force(effects, "retreat", sit):
        if float(c.get("distance", RETREAT)) > best:
            best, why = float(c.get("distance")), e.title
    return best, why


def react_forbidden(effects: Iterable[Effect], sit: Situation) -> str | None:
    """The effect that stops the model React (004 Chronovorric Field "Models within 1" of an
    induction diodes terrain feature cannot React"), or None."""
    for e, c in in_force(effects, "react", sit):
        if c.get("forbidden"):
            return e.title
    return None


def acts_first(effects: Iterable[Effect], phase: str, sit: Situation) -> str | None:
    """The effect that puts the model among those acting first in ``phase`` (004 Temporal
    Accelerator: "it shoots in the Ready, Fire! section of the Shooting phase and fights in the
    Hammer of Wrath section of the Fight phase"), or None."""
    for e, c in in_force(effects, "activation_order", sit):
        if phase in (c.get("first") or ()):
            return e.title
    return None


def places(effects: Iterable[Effect], to: str, key: str, sit: Situation | None = None
           ) -> list[tuple[Effect, Place]]:
    """The places ``key`` of the changes to ``to`` in force (``advance_move`` ``through``
    walls or ``blocked_by`` starslave conduits, ``move`` ``blocked_by`` petrific divisors,
    ``no_escape`` ``terrain``), with their effects."""
    return [(e, c.get(key)) for e, c in in_force(effects, to, sit) if c.get(key) is not None]


def moment(effects: Iterable[Effect], to: str) -> list[tuple[Effect, Change]]:
    """The changes that happen at a moment of the battle round (``round_start``,
    ``movement_end``, ``round_end``) or after a move (``after_move``), in table order."""
    return in_force(effects, to)


def roll_state(change: Change, face: int) -> str:
    """The battle round's state a ``round_start`` roll sets: the face's word (Power Surges:
    1-3 ``low``, 4-6 ``intense``), or ``active`` / ``inactive`` against ``hit_on`` (Power
    Flux: "on a 4+ the petrific divisors activate")."""
    faces = change.get("faces")
    if faces:
        return str(faces[face])
    return "active" if face >= int(change.get("hit_on", 7)) else "inactive"


def hazard_hits(change: Change, face: int) -> bool:
    """Whether a hazard's D6 strikes: ``hit_on`` or more (004 Dimensional Flense Feedback "on
    a 5+ that model suffers 1 mortal wound"), or one of ``hit_faces`` (Volatile Pressure
    Inversion "On a 1")."""
    if change.get("hit_faces"):
        return face in change.get("hit_faces")
    return face >= int(change.get("hit_on", 7))
