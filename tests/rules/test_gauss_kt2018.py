"""Kill Team 2018 Gauss (the Kill Team 2018 Core Manual's Necron datasheets, not in 004):
"Gauss: each wound roll of 6+ is resolved with AP -4". The gauss flayer is S4 AP0 D1 Rapid
Fire 1; its hit is saved at armour 4+ against AP0, not at all against AP -4 (4 + 4 = 8+). The
odds are worked by hand (docs/rules.md "Kill Team 2018")."""

from __future__ import annotations

from fractions import Fraction

import pytest

from solo_ops.core.dice import ScriptedDice
from solo_ops.core.errors import InputError
from solo_ops.game import attacks
from solo_ops.io.roster import load_roster, parse_weapon
from solo_ops.rules import kt2018, odds_2018
from tests.support.paths import ROSTERS

TROOPER = kt2018.Target2018(toughness=3, save=4, wounds=1)


def _flayer(**extra) -> kt2018.Attack2018:
    """A Necron warrior (BS 3+) with a gauss flayer, one shot (not doubled: ``rapid_fire`` off)."""
    return kt2018.Attack2018(shots=kt2018.ONE, skill=3, strength=4, ap=0, long_range=False,
                             close_quarters=False, concentrated_radius=False,
                             wound_ap=(6, -4), wound_ap_why="Gauss", **extra)


def test_the_odds_by_hand() -> None:
    """Hit on 3+: 4/6. S4 against T3 wounds on 3+: a 3, 4 or 5 (3/6) is saved on 4+ (fails
    1/2); a 6 (1/6) is AP -4: no save. Unsaved per shot 2/3 * (3/6 * 1/2 + 1/6) = 5/18; without
    Gauss 2/3 * 4/6 * 1/2 = 2/9."""
    got = odds_2018.attack_2018.__wrapped__(_flayer(), TROOPER)
    assert got.mean == Fraction(5, 18)
    plain = kt2018.Attack2018(shots=kt2018.ONE, skill=3, strength=4, ap=0, long_range=False,
                              close_quarters=False, concentrated_radius=False)
    assert odds_2018.attack_2018.__wrapped__(plain, TROOPER).mean == Fraction(2, 9)


def test_a_wound_modifier_below_six_loses_gauss() -> None:
    """"a wound roll of 6+": a -1 to wound (an effect in force) makes a 6 a 5 (it still
    wounds: an unmodified 6 always does) and no Gauss; S4 v T3 with -1 wounds on 4+. Unsaved
    per shot 2/3 * (faces 4, 5 and 6: 3/6 * 1/2) = 1/6."""
    got = odds_2018.attack_2018.__wrapped__(_flayer(effect_wound=(("test", -1),)), TROOPER)
    assert got.mean == Fraction(1, 6)


def test_a_rolled_six_to_wound_is_resolved_with_ap_minus_4() -> None:
    """Hit 4, wound 6: no save die is rolled (AP -4 against armour 4+), 1 damage; then hit 4,
    wound 5, save 4: saved."""
    rolled = kt2018.roll_attack(ScriptedDice(faces=[4, 6, 6]), _flayer(), TROOPER)
    assert rolled.damage == 1
    assert any("wound roll 6 wounds (Gauss: AP -4), no save (AP -4 against armour 4+)" in line
               for line in rolled.lines), rolled.lines
    rolled = kt2018.roll_attack(ScriptedDice(faces=[4, 5, 4]), _flayer(), TROOPER)
    assert rolled.damage == 0 and "Gauss" not in " ".join(rolled.lines)


def test_the_necron_roster_plays_gauss_for_both_sides_and_the_planner() -> None:
    """The shipped roster's gauss flayer is AP0 with Gauss in 2018, and the one attack both
    sides and the planner's odds are built from (``game.attacks.attack_2018``) carries it."""
    roster = load_roster(ROSTERS / "necron-patrol.yaml")
    flayer = next(w for w in roster.profiles["warrior"].for_edition("kt2018").weapons
                  if w.name == "gauss flayer")
    assert (flayer.ap, flayer.abilities_2018) == (0, ("gauss",))
    attack = attacks.attack_2018(flayer, roster.profiles["warrior"], None, long_range=True)
    assert attack is not None and attack.wound_ap == (6, -4)


def test_an_unknown_ability_is_one_line_naming_the_field() -> None:
    with pytest.raises(InputError, match=r"abilities_2018\[0\].*unknown Kill Team 2018 weapon "
                                         r"ability 'gaus'"):
        parse_weapon({"name": "x", "type": "rapid", "abilities_2018": ["gaus"]}, "r.yaml",
                     "profiles.w.weapons[0]")
