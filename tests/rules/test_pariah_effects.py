"""The Pariah Nexus effects of 004 as data, and what they do to each die and check
(:mod:`solo_ops.core.effects`, :mod:`solo_ops.rules.pariah`, :mod:`solo_ops.rules.kt2018`).
Every test quotes the 004 line it checks; the dice are scripted."""

from __future__ import annotations

from typing import Any

import pytest

from solo_ops.core.dice import ScriptedDice
from solo_ops.core.effects import Effect, Place, parse_changes
from solo_ops.core.errors import InputError
from solo_ops.core.model import DiceExpr
from solo_ops.core.tables import simple_table
from solo_ops.game.missions import KILLZONE_TABLES, PN_EFFECT_TABLES
from solo_ops.rules import kt2018, pariah
from solo_ops.rules.kt2018_reactions import may_react, may_ready, may_retreat
from solo_ops.rules.pariah import Situation

TABLES = sorted({t for t in PN_EFFECT_TABLES.values() if t} | set(KILLZONE_TABLES.values()))


def effect(code: str) -> Effect:
    for name in TABLES:
        for row in simple_table(name).rows.values():
            if row.code == code:
                return row.as_effect()
    raise KeyError(code)


def where(*true: tuple[str, str]) -> Any:
    """A ``where`` that answers yes for the (who, place kind or trait) pairs given."""
    def answer(who: str, place: Place) -> bool:
        return (who, place.kind or place.trait or "objective") in true
    return answer


def test_every_effect_of_every_table_is_described_as_data() -> None:
    """004 Narrative Effects: "one player can roll on that table and apply the corresponding
    result to the battle ahead": each of the 36 rows (5 tables of the book, the two
    killzones' tables) says what it changes (an ``effect:`` list the loader checked)."""
    rows = [row for name in TABLES for row in simple_table(name).rows.values()]
    assert len(rows) == 6 + 3 + 3 + 6 + 6 + 6 + 6
    assert all(row.effect for row in rows), [row.code for row in rows if not row.effect]


def test_the_loader_refuses_an_effect_it_does_not_know() -> None:
    """A damaged data file never applies silently otherwise: one line naming the field."""
    with pytest.raises(InputError, match=r"effect\[0\].to: unknown value 'luck'"):
        parse_changes([{"to": "luck", "add": 1}], "t.yaml", "effect")
    with pytest.raises(InputError, match=r"effect\[0\].when.target: a place names one of"):
        parse_changes([{"to": "hit_roll", "add": 1, "when": {"target": {"within": 1}}}],
                      "t.yaml", "effect")
    with pytest.raises(InputError, match=r"effect\[0\].reroll"):
        parse_changes([{"to": "wound_roll", "add": 1, "reroll": "x"}], "t.yaml", "effect")


def test_auto_reactive_foundations_rolls_one_more_die_and_discards_the_highest() -> None:
    """004 Auto-reactive Foundations: "When making an Advance or charge roll, roll one
    additional D6 and discard the highest result." A charge roll of 6, 6, 3 is 6 + 3 = 9; the
    log keeps the three dice and says which was discarded and why."""
    e = [effect("auto-reactive-foundations")]
    extra = pariah.extra_die(e, "charge_roll", Situation())
    assert extra == ("discard_highest", "Auto-reactive Foundations")
    dice = ScriptedDice(faces=[6, 6, 3])
    value, words = kt2018.roll_move_dice(dice, "charge roll: e1 at a1", 2, extra=extra)
    assert value == 9
    assert words == "3D6: 6, 6, 3, the highest (6) discarded (Auto-reactive Foundations) = 9"
    first, total = dice.log
    assert (first.dice, first.faces) == ("3d6", (6, 6, 3))
    assert total.value == 9 and total.ref == first.seq
    assert ("the highest die discarded: Auto-reactive Foundations", -6) in total.modifiers
    # an Advance roll: one more D6 than the one (D6 2 and 5: the 5 is discarded)
    dice = ScriptedDice(faces=[2, 5])
    assert kt2018.roll_move_dice(dice, "Advance roll", 1, extra=extra)[0] == 2


def test_internal_pressure_shift_and_gravitic_fluxwave_subtract_from_the_roll() -> None:
    """004 Internal Pressure Shift: "Subtract 1 from Advance rolls and charge rolls for models
    within 2" of a pitfall." Gravitic Fluxwave: "When a model declares a charge with one or more
    targets within 1" of a quantum node, subtract 2 from the charge roll." Neither takes a roll
    below 0."""
    e = [effect("internal-pressure-shift"), effect("gravitic-fluxwave")]
    near = Situation(where=where(("model", "pitfall"), ("charge_target", "quantum-node")))
    assert pariah.modifiers(e, "charge_roll", near) == [("Internal Pressure Shift", -1),
                                                        ("Gravitic Fluxwave", -2)]
    assert pariah.modifiers(e, "advance_roll", near) == [("Internal Pressure Shift", -1)]
    assert pariah.modifiers(e, "charge_roll", Situation()) == []
    dice = ScriptedDice(faces=[1, 1])
    value, words = kt2018.roll_move_dice(dice, "charge roll", 2,
                                         modifiers=pariah.modifiers(e, "charge_roll", near))
    assert value == 0 and words == ("2D6: 1, 1, -1 (Internal Pressure Shift), -2 (Gravitic "
                                    "Fluxwave) = 0")


def test_reality_fluctuation_changes_the_wound_roll_by_distance() -> None:
    """004 Reality Fluctuation: "When resolving an attack made by a model against a target
    within 6", add 1 to the wound roll. When resolving an attack made by a model against a
    target more than 12" away, subtract 1 from the wound roll." S3 against T3 needs 4+: a 3
    wounds within 6", a 4 fails beyond 12"."""
    e = [effect("reality-fluctuation")]
    for distance, mods, face, wounded in ((5.0, [("Reality Fluctuation", 1)], 3, True),
                                          (9.0, [], 4, True),
                                          (12.5, [("Reality Fluctuation", -1)], 4, False)):
        got = pariah.modifiers(e, "wound_roll", Situation(distance=distance))
        assert got == mods
        attack = kt2018.Attack2018(DiceExpr(0, 0, 1), 3, 3, effect_wound=tuple(got))
        assert kt2018.wounds(face, attack, kt2018.Target2018(3, 5)) is wounded


def test_flensing_microfilaments_rerolls_a_melee_injury_roll_of_1() -> None:
    """004 Flensing Microfilaments: "When making an Injury roll for a model as a result of an
    attack made with a melee weapon, re-roll rolls of 1." Hit 4, wound 5, save 2 (fails), the
    Injury roll 1 re-rolled into a 5: out of action."""
    e = [effect("flensing-microfilaments")]
    faces, why = pariah.rerolls(e, "injury_roll", Situation(weapon="melee"))
    assert (faces, why) == (frozenset({1}), "Flensing Microfilaments")
    assert pariah.rerolls(e, "injury_roll", Situation(weapon="ranged"))[0] == frozenset()
    attack = kt2018.Attack2018(DiceExpr(0, 0, 1), 3, 4, melee=True, injury_reroll=faces,
                               injury_reroll_why=why)
    dice = ScriptedDice(faces=[4, 5, 2, 1, 5])
    rolled = kt2018.roll_attack(dice, attack, kt2018.Target2018(3, 5), "a1 fights e1")
    assert rolled.outcome == "out_of_action"
    assert dice.log[-1].note == "re-roll of a 1: Flensing Microfilaments"


def test_parasitic_transmission_rerolls_a_ranged_wound_roll_of_1() -> None:
    """004 Parasitic Transmission: "When resolving an attack made with a ranged weapon by a
    model that is within 1" of a pitfail, re-roll a wound roll of 1." A hit, a wound roll of 1
    re-rolled into a 4 (S3 against T3: 4+), a failed save: 1 damage."""
    e = [effect("parasitic-transmission")]
    near = Situation(weapon="ranged", where=where(("attacker", "pitfall")))
    faces, why = pariah.rerolls(e, "wound_roll", near)
    attack = kt2018.Attack2018(DiceExpr(0, 0, 1), 3, 3, wound_reroll=faces,
                               wound_reroll_why=why)
    rolled = kt2018.roll_attack(ScriptedDice(faces=[5, 1, 4, 1, 1]), attack,
                                kt2018.Target2018(3, 5, wounds=2), "a1 shoots e1")
    assert rolled.damage == 1
    assert pariah.rerolls(e, "wound_roll", Situation(weapon="ranged"))[0] == frozenset()


def test_power_surges_lighting_changes_hits_retreats_and_overwatch() -> None:
    """004 Power Surges: "On a 1-3, it is low lighting ...; when resolving an attack against a
    model more than 9" away, subtract 1 from the hit roll. On a 4-6, it is intense lighting
    ...; when a model Retreats it can be moved up to 4", and when a model fires Overwatch a
    hit roll of 5+ is always successful." """
    e = [effect("power-surges")]
    change = next(c for c in e[0].changes if c.to == "round_start")
    assert [pariah.roll_state(change, f) for f in range(1, 7)] == ["low"] * 3 + ["intense"] * 3
    low, intense = {"lighting": "low"}, {"lighting": "intense"}
    assert pariah.modifiers(e, "hit_roll", Situation(distance=9.5, round=low)) == [
        ("Power Surges", -1)]
    assert pariah.modifiers(e, "hit_roll", Situation(distance=9.0, round=low)) == []
    assert pariah.retreat_distance(e, Situation(round=intense)) == (4.0, "Power Surges")
    assert pariah.retreat_distance(e, Situation(round=low)) == (3.0, None)
    assert pariah.overwatch_hits_on(e, Situation(round=intense)) == (5, "Power Surges")
    ow = kt2018.Attack2018(DiceExpr(0, 0, 1), 3, 3, overwatch=True, overwatch_hits_on=5)
    assert kt2018.hits(5, ow) and not kt2018.hits(4, ow)
    assert not kt2018.hits(5, kt2018.Attack2018(DiceExpr(0, 0, 1), 2, 3, overwatch=True))


def test_invulnerable_saves_given_improved_and_taken_away() -> None:
    """004 Energy Discharge: "While a model is on the circuit of entropic anguish it has a 5+
    invulnerable save. If it already has an invulnerable save, improve that save by 1 (to a
    maximum of 3+)." Metastasis Generator: "Models have a 4+ invulnerable save against attacks
    made with ranged weapons whilst they are within 2" of an objective marker." Biophasic
    Leak: "that model cannot use an invulnerable save." """
    on = Situation(weapon="ranged", where=where(("target", "circuit-of-entropic-anguish")))
    energy = [effect("energy-discharge")]
    assert pariah.invulnerable(energy, on, None) == (5, ["Energy Discharge: 5+ invulnerable "
                                                         "save"])
    assert pariah.invulnerable(energy, on, 4)[0] == 3
    assert pariah.invulnerable(energy, on, 3)[0] == 3  # "to a maximum of 3+"
    meta = [effect("metastasis-generator")]
    near = Situation(weapon="ranged", where=where(("target", "objective")))
    assert pariah.invulnerable(meta, near, 5)[0] == 4
    assert pariah.invulnerable(meta, Situation(weapon="melee", where=near.where), 5)[0] == 5
    on_and_near = Situation(weapon="ranged", where=where(
        ("target", "circuit-of-entropic-anguish"), ("target", "objective")))
    for both_tables in ([*energy, *meta], [*meta, *energy]):  # "already has": the 4+ given
        assert pariah.invulnerable(both_tables, on_and_near, None)[0] == 3  # improved to 3+
    assert pariah.invulnerable([*energy, *meta], on_and_near, 6)[0] == 3
    leak = [effect("biophasic-leak"), *meta]
    both = Situation(weapon="ranged", where=where(("target", "objective"),
                                                  ("target", "induction-diodes")))
    assert pariah.invulnerable(leak, both, 4) == (None, ["Biophasic Leak: no invulnerable "
                                                         "save"])


def test_strength_and_injury_modifiers() -> None:
    """004 Enervating Shroud: "Whilst a model is within 1" of a pitfall, subtract 1 from its
    Strength characteristic." Intramural Energies: "When an attacking model gains an advantage
    as a result of the No Escape rule, add 1 to the Strength characteristic of that attack."
    Nano-scarab Infection and Active Kill-Field Augmentation: "add 1 to any Injury roll"."""
    shroud = [effect("enervating-shroud"), effect("intramural-energies")]
    sit = Situation(weapon="melee", no_escape=True, where=where(("attacker", "pitfall")))
    mods = pariah.modifiers(shroud, "strength", sit)
    assert mods == [("Enervating Shroud", -1), ("Intramural Energies", 1)]
    attack = kt2018.Attack2018(DiceExpr(0, 0, 1), 3, 4, melee=True,
                               effect_strength=(("Enervating Shroud", -1),))
    assert attack.effective_strength == 3 and kt2018.wound_target(3, 4) == 5
    kill = [effect("active-kill-field-augmentation"), effect("nano-scarab-infection")]
    assert pariah.modifiers(kill, "injury_roll", Situation(weapon="ranged",
                                                           firing_point=True)) == [
        ("Active Kill-Field Augmentation", 1)]
    assert pariah.modifiers(kill, "injury_roll", Situation(
        weapon="melee", where=where(("target", "induction-diodes")))) == [
        ("Nano-scarab Infection", 1)]


def test_shifting_shadows_chronovorric_field_fear_matrix_temporal_accelerator() -> None:
    """004 Shifting Shadows: "When resolving an attack made by a model against a target that
    is more than 10" away and within 1" of a wall, the target counts as being obscured."
    Chronovorric Field: "Models within 1" of an induction diodes terrain feature cannot
    React." Fear Matrix: "When taking a Nerve test for a model within 1" of a quantum node,
    subtract 1 from the result." Temporal Accelerator: "it shoots in the Ready, Fire! section
    of the Shooting phase and fights in the Hammer of Wrath section of the Fight phase"."""
    walls = [effect("shifting-shadows")]
    assert pariah.obscured(walls, Situation(distance=10.5, where=where(("target", "wall")))) \
        == "Shifting Shadows"
    assert pariah.obscured(walls, Situation(distance=9.5, where=where(("target", "wall")))) \
        is None
    react = [effect("chronovorric-field")]
    assert pariah.react_forbidden(react, Situation(where=where(("model", "induction-diodes"))))
    assert may_react(engaged=False, moved_how=None, forbidden_by="Chronovorric Field") \
        == "Chronovorric Field (it cannot React)"
    fear = [effect("fear-matrix")]
    assert pariah.modifiers(fear, "nerve_test", Situation(
        where=where(("model", "quantum-node")))) == [("Fear Matrix", -1)]
    assert kt2018.nerve_modifiers(0, 0, [("Fear Matrix", -1)]) == [("Fear Matrix", -1)]
    fast = [effect("temporal-accelerator")]
    near = Situation(where=where(("model", "objective")))
    assert pariah.acts_first(fast, "shooting", near) == "Temporal Accelerator"
    assert pariah.acts_first(fast, "fight", near) == "Temporal Accelerator"
    assert pariah.acts_first(fast, "shooting", Situation()) is None


def test_hazards_strike_on_their_faces() -> None:
    """004 Volatile Pressure Inversion: "roll one D6 for each model within 2" of a pitfall. On
    a 1, that model suffers 1 mortal wound." Dimensional Flense Feedback: "on a 5+ that model
    suffers 1 mortal wound." Power Flux: "on a 4+ the petrific divisors activate"."""
    volatile = effect("volatile-pressure-inversion").changes[0]
    assert [pariah.hazard_hits(volatile, f) for f in range(1, 7)] == [True] + [False] * 5
    flense = effect("dimensional-flense-feedback").changes[0]
    assert [pariah.hazard_hits(flense, f) for f in range(1, 7)] == [False] * 4 + [True] * 2
    flux = effect("power-flux").changes[0]
    assert [pariah.roll_state(flux, f) for f in (3, 4)] == ["inactive", "active"]


def test_flesh_wound_boxes_as_004_writes_them() -> None:
    """004 Flesh Wound: "Mark one of the empty Flesh Wound boxes on that model's datacard. If a
    model suffers a flesh wound and all of the Flesh Wound boxes on their datacard are marked,
    it is taken out of action instead." With 3 boxes and 2 marked, a flesh wound marks the
    third; with all 3 marked it is out of action."""
    assert kt2018.after_injury("flesh_wound", 2) == "flesh_wound"
    assert kt2018.after_injury("flesh_wound", 3) == "out_of_action"
    assert kt2018.after_injury("out_of_action", 0) == "out_of_action"


def test_who_may_react_retreat_and_be_readied() -> None:
    """004 React: "A model can React if it is the target of a charging model and it is more
    than 1" from an enemy model." Advancing: "A model that Advances cannot charge, React or
    shoot later that battle round." Falling Back: "If a model Falls Back, it cannot Advance,
    charge, React or be Readied in that phase." Retreat: "A target model cannot Retreat if it
    has already made a move of any kind (or attempted to charge) in this phase ... A model that
    Retreats cannot React later in the battle round." Readying: "instead of making a normal
    move ... you can Ready them, unless they are within 1" of an enemy model"."""
    assert may_react(engaged=False, moved_how=None) is None
    assert may_react(engaged=False, moved_how="normal") is None  # Overwatch still
    assert may_react(engaged=True, moved_how=None) == "it is within 1\" of an enemy model"
    assert may_react(engaged=False, moved_how="advance") == "it Advanced this battle round"
    assert may_react(engaged=False, moved_how=None, advanced=True) is not None
    assert may_react(engaged=False, moved_how="fall_back") == "it Fell Back this phase"
    assert may_react(engaged=False, moved_how="retreat") == ("it Retreated this battle "
                                                                    "round")
    assert may_react(engaged=False, moved_how="charge") is not None
    assert may_retreat(None) is None
    # Readying is "instead of making a normal move": not a move, so it may still Retreat
    # (and the Retreat ends the Ready: "If the model moves for any reason, it is no longer
    # Readied")
    assert may_retreat("ready") is None
    assert may_retreat("normal") == "it has moved this phase (normal)"
    assert may_ready(engaged=True, moved=False) == "it is within 1\" of an enemy model"
    assert may_ready(engaged=False, moved=False) is None
    # a declared Advance is instead of the normal move too: the sentence says so whole
    assert may_ready(engaged=False, moved=False, declared="advance") == (
        "it has declared an Advance this phase: Readying is instead of a normal move, as that "
        "is too")


def test_shooting_from_and_into_combat() -> None:
    """The 2018 Core Manual (not in 004), the reading 2018 players use: a Pistol "can [make
    shooting attacks] even if there are enemy models within 1" of the firing model, but it
    must target the closest enemy model ... even if other friendly models are within 1" of the
    same enemy model"; "Models cannot target enemy models that are within 1" of friendly
    models". The ``anywhere`` setting keeps the old reading."""
    refuse = kt2018.combat_shot_refusal
    assert refuse("core", pistol=True, shooter_engaged=True, target_engaged_with_friend=True,
                  target_closest=True) is None
    assert "closest" in str(refuse("core", pistol=True, shooter_engaged=True,
                                   target_engaged_with_friend=False, target_closest=False))
    assert "only a Pistol" in str(refuse("core", pistol=False, shooter_engaged=True,
                                         target_engaged_with_friend=False, target_closest=True))
    assert "friendly" in str(refuse("core", pistol=False, shooter_engaged=False,
                                    target_engaged_with_friend=True, target_closest=True))
    assert refuse("anywhere", pistol=False, shooter_engaged=False,
                  target_engaged_with_friend=True, target_closest=True) is None
    assert refuse("anywhere", pistol=True, shooter_engaged=True,
                  target_engaged_with_friend=False, target_closest=True) is not None
