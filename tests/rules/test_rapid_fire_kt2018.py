"""Kill Team 2018 Rapid Fire: the Core Manual's rule (not in 004), "A model firing a Rapid
Fire weapon doubles the number of attacks it makes if its target is within half the weapon's
maximum range", the setting ``rapid_fire: double`` (default) or ``as_written`` (004 only: no
doubling). Half range is long range's line, 004 "A target is at long range if it is more than
half the weapon's Range characteristic away". Values by hand (docs/rules.md "Kill Team 2018")."""

from __future__ import annotations

from fractions import Fraction

import pytest

from solo_ops.core.dice import ScriptedDice
from solo_ops.core.errors import InputError
from solo_ops.core.model import DiceExpr, Profile, Weapon, WeaponType
from solo_ops.core.settings import parse_settings
from solo_ops.game import attacks
from solo_ops.rules import kt2018, odds_2018

LASGUN = Weapon("lasgun", WeaponType.RAPID, range=24, strength=3, ap=0,
                damage_2018=DiceExpr(0, 0, 1), shots=DiceExpr(0, 0, 1))
SHOOTER = Profile("Trooper", 6, 7, 3, 1, 5, 25, (LASGUN,), ws=4, bs=3, strength=3, attacks=1)


class _Op:
    """A model on the table: its profile, where it stands, its base and wounds."""

    def __init__(self, at: tuple[float, float], wounds: int = 1) -> None:
        self.profile, self.at, self.radius, self.wounds = SHOOTER, at, 0.5, wounds
        self.flesh_wounds = 0


def test_only_a_rapid_fire_weapon_within_half_range_doubles_and_only_by_the_setting() -> None:
    assert kt2018.rapid_fire_doubles("rapid", long_range=False)
    assert not kt2018.rapid_fire_doubles("rapid", long_range=True)
    assert not kt2018.rapid_fire_doubles("rapid", long_range=False, rule="as_written")
    for other in ("assault", "heavy", "pistol", "grenade", "special", "melee"):
        assert not kt2018.rapid_fire_doubles(other, long_range=False)


def test_the_setting_is_named_and_checked() -> None:
    assert parse_settings(None, "s.yaml").rapid_fire == "double"
    assert parse_settings({"rapid_fire": "as_written"}, "s.yaml").rapid_fire == "as_written"
    with pytest.raises(InputError, match="rapid_fire"):
        parse_settings({"rapid_fire": "triple"}, "s.yaml")


def test_the_odds_of_two_shots_within_half_range() -> None:
    """Lasgun (BS 3+, S 3, AP 0, D 1) at a trooper (T 3, Sv 5+): hit 4/6, wound S 3 = T 3 on
    4+ (3/6), save 5+ fails 4/6: 2/9 a shot. One wound: 1 - (7/9)^2 = 32/81 with two shots,
    2/9 with one; two wounds: 2 x 2/9 = 4/9 mean with two shots."""
    shooter = _Op((0.0, 0.0))
    for gap, rule, mean in ((10.0, "double", Fraction(32, 81)),
                            (12.0, "double", Fraction(32, 81)),  # exactly half: within
                            (13.0, "double", Fraction(2, 9)),
                            (10.0, "as_written", Fraction(2, 9))):
        target = _Op((gap + 1.0, 0.0))  # bases 0.5" each: ``gap`` between them
        attack = attacks.attack_2018(LASGUN, shooter, target, rapid_fire=rule)
        assert attack is not None
        assert odds_2018.attack_2018(attack, attacks.target_2018(target)).mean == mean
    two = _Op((11.0, 0.0), wounds=2)
    attack = attacks.attack_2018(LASGUN, shooter, two)
    assert attack is not None and attack.shots_factor == 2
    assert odds_2018.attack_2018(attack, attacks.target_2018(two)).mean == Fraction(4, 9)


def test_the_planners_odds_take_the_range_it_will_shoot_from() -> None:
    """The enemy's planner asks the odds from where the shooter will stand (``distance``):
    10" doubles, 13" does not; ``as_written`` never."""
    shooter, target = _Op((0.0, 0.0)), _Op((30.0, 0.0))
    double = attacks.expected_for("kt2018", "double")
    written = attacks.expected_for("kt2018", "as_written")
    assert double(LASGUN, shooter, target, None, distance=10.0) == pytest.approx(32 / 81)
    assert double(LASGUN, shooter, target, None, distance=13.0) == pytest.approx(2 / 9)
    assert written(LASGUN, shooter, target, None, distance=10.0) == pytest.approx(2 / 9)


def test_rolled_the_hit_rolls_are_twice_the_shots_and_the_line_says_why() -> None:
    """Two hit rolls (both 2s: misses at BS 3+) for a Rapid Fire 1 weapon within half range."""
    attack = kt2018.Attack2018(shots=DiceExpr(0, 0, 1), skill=3, strength=3, rapid_fire=True)
    dice = ScriptedDice(faces=[2, 2])
    rolled = kt2018.roll_attack(dice, attack, kt2018.Target2018(toughness=3, save=5), "a1")
    assert [r.purpose for r in dice.log] == ["a1: hit roll 1", "a1: hit roll 2"]
    assert rolled.lines[0] == "Rapid Fire, the target within half range: 1 x 2 = 2 shots."
    assert rolled.damage == 0
