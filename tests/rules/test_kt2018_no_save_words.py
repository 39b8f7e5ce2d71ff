"""Kill Team 2018: a save worsened past 6+ cannot be made. The save roll is the Core Manual's
(004 has only its invulnerable saves): a D6 modified by the weapon's Armour Penetration must reach
the model's Save, so a 6+ save against AP -3 needs a 9, which no D6 rolls. The line says "no save
(AP -3 against armour 6+)", not "armour 9+", and no save die is rolled; an invulnerable save still
counts (004 "If you use a model's invulnerable save, it is never modified (e.g. by a weapon's
Armour Penetration characteristic ...)")."""

from __future__ import annotations

from solo_ops.core.dice import ScriptedDice
from solo_ops.core.model import DiceExpr
from solo_ops.rules import kt2018
from solo_ops.rules.kt2018 import Attack2018, Target2018

PLASMA = Attack2018(shots=DiceExpr(0, 0, 1), skill=4, strength=7, ap=-3)


def test_ap_3_against_a_6_plus_save_is_no_save_and_rolls_no_die() -> None:
    dice = ScriptedDice(faces=[4, 2])  # hit 4 (4+), wound 2 (S 7 against T 3: 2+)
    rolled = kt2018.roll_attack(dice, PLASMA, Target2018(toughness=3, save=6, wounds=2), "p")
    assert [e.purpose for e in dice.log] == ["p: hit roll 1", "p: wound roll 1"]
    assert rolled.lines == ["Shot 1: hit roll 4 hits, wound roll 2 wounds, no save "
                            "(AP -3 against armour 6+); 1 damage.", "Damage: 1."]
    assert rolled.damage == 1


def test_the_words_of_each_save() -> None:
    assert kt2018.save_words(PLASMA, Target2018(toughness=3, save=3)) == "armour 6+"
    assert kt2018.save_words(PLASMA, Target2018(toughness=3, save=4)) is None  # 7+
    assert kt2018.save_words(PLASMA, Target2018(toughness=3, save=6, invulnerable=5)) == (
        "invulnerable 5+")
    none = Target2018(toughness=3, save=7)  # Save 7: a model with no save
    assert kt2018.save_words(Attack2018(shots=DiceExpr(0, 0, 1), skill=4, strength=3), none) \
        is None
    assert kt2018.no_save_words(Attack2018(shots=DiceExpr(0, 0, 1), skill=4, strength=3),
                                none) == "no save"
    assert kt2018.no_save_words(PLASMA, Target2018(toughness=3, save=5)) == (
        "no save (AP -3 against armour 5+)")


def test_a_save_that_can_be_made_is_rolled_as_before() -> None:
    dice = ScriptedDice(faces=[4, 2, 6])  # hit, wound, save 6 against 3+ worsened to 6+
    rolled = kt2018.roll_attack(dice, PLASMA, Target2018(toughness=3, save=3, wounds=2), "p")
    assert dice.log[-1].purpose == "p: save roll 1 (armour 6+)"
    assert rolled.lines[0] == ("Shot 1: hit roll 4 hits, wound roll 2 wounds, saved on a 6 "
                               "(armour 6+).")
