"""Kill Team 2018 combat: hit roll and modifiers, wound table, saves, AP, invulnerable saves,
damage, injury roll, mortal wounds, Nerve tests and the ultra-close-confines rules."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from solo_ops.core.dice import ScriptedDice
from solo_ops.core.model import DiceExpr, Profile, Weapon, WeaponType
from solo_ops.game import attacks
from solo_ops.rules import kt2018
from solo_ops.rules.kt2018 import Attack2018, Target2018


def attack(**kw: object) -> Attack2018:
    base: dict[str, object] = {"shots": DiceExpr(0, 0, 1), "skill": 4, "strength": 4}
    base.update(kw)
    return Attack2018(**base)  # type: ignore[arg-type]


@pytest.mark.parametrize(("s", "t", "need"), [
    (8, 4, 2), (9, 4, 2),  # twice or more
    (5, 4, 3), (7, 4, 3),  # greater
    (4, 4, 4),  # equal
    (3, 4, 5), (3, 5, 5),  # lower
    (2, 4, 6), (3, 6, 6), (1, 4, 6),  # half or less
])
def test_wound_table(s: int, t: int, need: int) -> None:
    assert kt2018.wound_target(s, t) == need


def test_wound_roll_natural_one_and_six() -> None:
    target = Target2018(toughness=8, save=3)
    assert kt2018.wounds(6, attack(strength=1), target)
    assert not kt2018.wounds(1, attack(strength=20, wound_modifier=3), target)


def test_hit_roll_modifiers_are_cumulative() -> None:
    a = attack(skill=3, close_quarters=False, long_range=True, obscured=True, flesh_wounds=1,
               broken=True)
    assert sum(m for _, m in a.hit_modifiers) == -4
    assert not kt2018.hits(5, a)
    assert kt2018.hits(6, a)  # an unmodified 6 always hits
    assert not kt2018.hits(1, attack(skill=2, hit_modifier=3))  # a 1 always fails


def test_close_quarters_drops_long_range_and_grenades_ignore_it() -> None:
    assert attack(long_range=True).hit_modifiers == []
    assert attack(long_range=True, close_quarters=False).hit_modifiers == [("long range", -1)]
    assert attack(long_range=True, close_quarters=False, grenade=True).hit_modifiers == []


def test_melee_ignores_range_and_obscured() -> None:
    assert attack(melee=True, obscured=True, long_range=True,
                  close_quarters=False).hit_modifiers == []


def test_overwatch_hits_only_on_sixes() -> None:
    a = attack(skill=2, overwatch=True, hit_modifier=2)
    assert [kt2018.hits(f, a) for f in range(1, 7)] == [False] * 5 + [True]


def test_ap_worsens_the_save_and_its_sign_is_ignored() -> None:
    target = Target2018(toughness=4, save=3)
    assert kt2018.save_needed(attack(ap=-1), target) == (4, "armour")
    assert kt2018.save_needed(attack(ap=2), target) == (5, "armour")
    assert not kt2018.saves(1, attack(), Target2018(toughness=4, save=2))


def test_invulnerable_save_ignores_ap_and_is_used_when_better() -> None:
    target = Target2018(toughness=4, save=3, invulnerable=5)
    assert kt2018.save_needed(attack(ap=-1), target) == (4, "armour")
    assert kt2018.save_needed(attack(ap=-3), target) == (5, "invulnerable")


def test_injury_roll_table_and_modifiers() -> None:
    assert [kt2018.injury_result(v) for v in range(1, 7)] == ["flesh_wound"] * 3 + [
        "out_of_action"] * 3
    dice = ScriptedDice(faces=[3, 3, 2])
    assert kt2018.roll_injury(dice, 0) == ("flesh_wound", 3)
    assert kt2018.roll_injury(dice, 1) == ("out_of_action", 4)  # +1 per flesh wound
    # a flesh wound with every box marked is out of action instead
    assert kt2018.roll_injury(dice, 2, [("No Escape", 0)])[0] == "out_of_action"
    assert all(e.purpose == "injury roll" for e in dice.log)


def test_no_escape_adds_one_to_the_injury_roll_in_melee_only() -> None:
    assert attack(melee=True, no_escape=True).injury_modifiers == [("No Escape", 1)]
    assert attack(no_escape=True).injury_modifiers == []


def test_mortal_wounds_stop_at_zero() -> None:
    assert kt2018.mortal_wound_damage(3, 2) == (2, True)
    assert kt2018.mortal_wound_damage(1, 2) == (1, False)


def test_nerve_test() -> None:
    assert kt2018.nerve_modifiers(2, 1) == [("friends shaken or out of action", 2),
                                            ("friends within 2\"", -1)]
    assert kt2018.nerve_passed(1, 9, 6)  # an unmodified 1 always passes
    assert not kt2018.nerve_passed(5, 8, 7)
    assert kt2018.nerve_passed(5, 7, 7)


def test_rolled_attack_hits_wounds_saves_and_damages() -> None:
    # 2 shots: shot 1 hit 4, wound 5, save 2 (fails 3+ with AP-1) -> D3 damage rolls 2;
    # shot 2 misses on 1
    a = attack(shots=DiceExpr(0, 0, 2), strength=4, ap=-1, damage=DiceExpr(1, 3, 0))
    dice = ScriptedDice(faces=[4, 5, 2, 2, 1])
    result = kt2018.roll_attack(dice, a, Target2018(toughness=4, save=3, wounds=3))
    assert result.damage == 2 and result.outcome is None
    assert [e.purpose for e in dice.log] == ["attack: hit roll 1", "attack: wound roll 1",
                                            "attack: save roll 1 (armour 4+)",
                                            "attack: damage 1", "attack: hit roll 2"]


def test_rolled_attack_injury_at_zero_and_remaining_shots_lost() -> None:
    a = attack(shots=DiceExpr(0, 0, 3))
    dice = ScriptedDice(faces=[6, 6, 1, 5])  # hit, wound, save fails; injury 5
    result = kt2018.roll_attack(dice, a, Target2018(toughness=4, save=4, wounds=1))
    assert result.damage == 1 and result.outcome == "out_of_action"
    assert dice.position == 4


def test_concentrated_radius_rolls_an_extra_die_and_drops_the_lowest() -> None:
    a = attack(shots=DiceExpr(1, 6, 0))
    assert a.concentrated
    dice = ScriptedDice(faces=[2, 5, 1, 1, 1, 1, 1])
    result = kt2018.roll_attack(dice, a, Target2018(toughness=4, save=4))
    assert dice.log[0].faces == (2, 5)
    assert len(dice.log) == 1 + 5  # five shots, all missing
    assert result.damage == 0
    assert not attack(shots=DiceExpr(1, 6, 0), concentrated_radius=False).concentrated
    assert not attack(shots=DiceExpr(1, 6, 0), melee=True).concentrated


# -- the bridge ----------------------------------------------------------------------------


def _profile(**kw: object) -> Profile:
    base: dict[str, object] = {"name": "trooper", "movement": 6, "leadership": 7,
                               "toughness": 4, "wounds": 1, "save": 4, "base_mm": 25,
                               "ws": 3, "bs": 3, "strength": 4, "attacks": 2}
    base.update(kw)
    return Profile(**base)  # type: ignore[arg-type]


@dataclass
class Op:
    id: str
    profile: Profile
    at: tuple[float, float] | None = (0.0, 0.0)
    wounds: int = 1
    flesh_wounds: int = 0
    shaken: bool = False
    down: bool = False
    side: str = "enemy"
    radius: float = 0.5
    name: str = field(default="")

    def __post_init__(self) -> None:
        self.name = self.name or self.id


@dataclass
class FakeState:
    ops: list[Op]

    def side(self, side: str) -> list[Op]:
        return [o for o in self.ops if o.side == side]


def test_bridge_injury_and_nerve_test() -> None:
    op = Op("a", _profile(), flesh_wounds=1)
    dice = ScriptedDice(faces=[3, 6, 1])
    assert attacks.injury_2018(dice, op) == "out_of_action"
    near = Op("b", _profile(), at=(1.5, 0.0))
    gone = Op("c", _profile(), down=True)
    state = FakeState([op, near, gone])
    passed, value = attacks.nerve_test_2018(dice, state, op)
    assert (passed, value) == (True, 6)  # 6 +1 (c gone) -1 (b near) = 6 <= Ld 7
    passed, value = attacks.nerve_test_2018(dice, state, op)
    assert passed and value == 1
    assert dice.log[1].purpose == "Nerve test: a"


def test_bridge_roll_shot_and_fight_2018() -> None:
    gun = Weapon("lasgun", WeaponType.RAPID, range=24, strength=3, ap=0,
                 damage_2018=DiceExpr(0, 0, 1), shots=DiceExpr(0, 0, 1))
    knife = Weapon("knife", WeaponType.MELEE, strength=None)
    shooter = Op("s", _profile(weapons=(gun, knife)))
    target = Op("t", _profile(), at=(5.0, 0.0))
    dice = ScriptedDice(faces=[5, 5, 2, 4])
    result = attacks.roll_shot("kt2018", dice, shooter, gun, target, None, None)
    assert result.damage == 1 and result.outcome == "out_of_action"
    dice = ScriptedDice(faces=[1, 1])
    fight = attacks.roll_fight("kt2018", dice, shooter, target, 0)
    assert fight.damage == 0 and fight.damage_taken == 0 and len(dice.log) == 2


def test_bridge_missing_characteristics_asks_the_player() -> None:
    gun = Weapon("lasgun", WeaponType.RAPID, range=24)
    shooter = Op("s", _profile(bs=None, strength=None, weapons=(gun,)))
    result = attacks.roll_shot("kt2018", ScriptedDice(), shooter, gun, Op("t", _profile()),
                               None, None)
    assert result.damage == 0 and "table" in result.lines[0]
