"""Kill Team 2024 combat: every weapon rule, cover, obscured, injured, saves and fights,
with scripted dice (attack dice first, then re-rolls, then defence dice)."""

from __future__ import annotations

import pytest

from solo_ops.core.dice import ScriptedDice
from solo_ops.core.errors import InputError
from solo_ops.core.model import Weapon, WeaponType, parse_weapon_rule
from solo_ops.rules import kt2024
from solo_ops.rules.kt2024 import AttackSpec, Candidate, DefenceSpec, FightSide


def spec(*rules: str, attacks: int = 4, hit: int = 3, dmg: tuple[int, int] = (3, 4),
         **kw: object) -> AttackSpec:
    return AttackSpec(attacks, hit, dmg[0], dmg[1], tuple(parse_weapon_rule(r) for r in rules),
                      **kw)  # type: ignore[arg-type]


def shot(faces: list[int], attack: AttackSpec, defence: DefenceSpec | None = None
         ) -> tuple[kt2024.ShotRoll, ScriptedDice]:
    dice = ScriptedDice(faces=faces)
    result = kt2024.roll_shot(dice, attack, defence or DefenceSpec(3, 3))
    assert dice.position == len(faces), "every scripted face is used"
    return result, dice


def weapon(*rules: str, range_: float | None = 24) -> Weapon:
    return Weapon("gun", WeaponType.RAPID, range=range_, attacks=4, hit=3, damage=(3, 4),
                  rules=tuple(parse_weapon_rule(r) for r in rules))


# -- basics ----------------------------------------------------------------------------------


def test_plain_shot_normal_and_crit_hits_and_saves() -> None:
    # attack 6 (crit), 4, 3 (normals), 1; defence 6 (crit save), 3 (normal), 2 (fail)
    result, dice = shot([6, 4, 3, 1, 6, 3, 2], spec())
    # the crit save blocks the crit (4), the normal save one normal (3): 3 gets through
    assert result.damage == 3
    assert [e.purpose for e in dice.log] == ["shoot: attack dice, hit 3+",
                                            "shoot: defence dice, save 3+"]


def test_a_one_always_fails_and_a_six_is_always_a_crit() -> None:
    s = spec(hit=2)
    assert kt2024.classify(1, s) == "fail"
    assert kt2024.classify(6, spec(hit=6, injured=True)) == "crit"


def test_injured_worsens_the_hit_stat() -> None:
    result, dice = shot([3, 3, 3, 3], spec(injured=True))
    assert result.damage == 0 and len(dice.log) == 1  # no hits: no defence dice
    result, _ = shot([3, 3, 3, 3, 1, 1, 1], spec())
    assert result.damage == 12


def test_cover_retains_one_normal_save_and_rolls_one_die_fewer() -> None:
    result, dice = shot([3, 1, 1, 1, 1, 1], spec(), DefenceSpec(3, 3, cover=True))
    assert result.damage == 0
    assert len(dice.log[1].faces) == 2


def test_obscured_crits_become_normal_and_one_hit_is_discarded() -> None:
    result, _ = shot([6, 6, 3, 1, 1, 1, 1], spec(), DefenceSpec(3, 3, obscured=True))
    assert result.damage == 6  # three normal hits, one discarded
    assert result.crits == 0


def test_obscured_stops_crit_rules() -> None:
    result, _ = shot([6, 1, 1, 1], spec("devastating=3", "rending", "punishing", "stun"),
                     DefenceSpec(3, 3, obscured=True))
    assert result.damage == 0 and not result.stun and result.devastating == 0


def test_damage_is_capped_at_wounds() -> None:
    result, _ = shot([6, 6, 6, 6, 1, 1, 1], spec(), DefenceSpec(3, 3, wounds=7))
    assert result.damage == 7


@pytest.mark.parametrize(("crits", "normals", "cs", "ns", "expected"), [
    (1, 1, 0, 2, 3),  # two normal saves block the crit (4), the normal (3) gets through
    (1, 0, 0, 1, 4),  # one normal save cannot block a crit
    (0, 2, 1, 0, 3),  # a crit save blocks a normal hit
    (2, 1, 1, 2, 3),  # crit save on a crit, two normals on the other crit
    (1, 3, 0, 2, 7),  # two normals block two normal hits (6) rather than the crit (4)
])
def test_defender_blocks_the_most_damage(crits: int, normals: int, cs: int, ns: int,
                                         expected: int) -> None:
    assert kt2024.allocate_saves(crits, normals, cs, ns, 3, 4).damage == expected


def test_allocation_prefers_blocking_crits_when_crit_damage_is_high() -> None:
    assert kt2024.allocate_saves(1, 2, 0, 2, 2, 6).damage == 4


def test_bad_specs_are_input_errors() -> None:
    with pytest.raises(InputError):
        AttackSpec(4, 7, 3, 4)
    with pytest.raises(InputError):
        DefenceSpec(3, 1)


# -- one test per weapon rule ----------------------------------------------------------------


def test_accurate_retains_dice_unrolled() -> None:
    result, dice = shot([1, 1, 1, 1, 1], spec("accurate=2"))
    assert result.damage == 6
    assert len(dice.log[0].faces) == 2


def test_accurate_sources_stack_to_two() -> None:
    assert spec("accurate=1", accurate_bonus=1).accurate == 2
    assert spec("accurate=1", accurate_bonus=2).accurate == 2
    assert spec(accurate_bonus=1).accurate == 1
    assert kt2024.vantage_accurate(4.5) == 2 and kt2024.vantage_accurate(2) == 1


def test_balanced_rerolls_one_failed_die() -> None:
    result, dice = shot([1, 2, 6, 6, 5, 1, 1, 1], spec("balanced"))
    assert result.damage == 3 + 8
    assert dice.log[1].ref == dice.log[0].seq and "Balanced" in dice.log[1].purpose


def test_blast_adds_visible_enemies_near_the_primary_with_its_cover() -> None:
    w = weapon("blast=2")
    rule = kt2024.secondary_rule(w)
    assert rule is not None and rule.cover_from_primary
    picked = kt2024.secondary_targets(w, [
        Candidate("a", 1.5, True, False), Candidate("b", 1.5, False, True),
        Candidate("c", 2.5, True, True), Candidate("d", 1.0, True, True, enemy_of_shooter=False)])
    assert picked == ["a"]


def test_brutal_only_crit_saves_block() -> None:
    result, _ = shot([3, 3, 1, 1, 3, 3, 3], spec("brutal"))
    assert result.damage == 6
    result, _ = shot([3, 3, 1, 1, 3, 3, 6], spec("brutal"))
    assert result.damage == 3


def test_ceaseless_rerolls_the_failed_value_with_most_dice() -> None:
    result, dice = shot([2, 2, 1, 5, 6, 4, 1, 1, 1], spec("ceaseless"))
    assert result.damage == 3 * 2 + 4
    assert len(dice.log[1].faces) == 2
    assert kt2024.ceaseless_value([1, 2]) == 1
    assert kt2024.ceaseless_value([]) is None


def test_devastating_damages_before_saves() -> None:
    result, _ = shot([6, 1, 1, 1, 6, 1, 1], spec("devastating=2"))
    assert result.damage == 2  # the crit is blocked, its Devastating damage is not
    assert kt2024.devastating_splash(weapon("devastating=1:3")) == (1.0, 3)
    assert kt2024.devastating_splash(weapon("devastating=3")) is None
    assert spec("devastating=1:3").devastating == 3


def test_heavy_forbids_moving_and_shooting() -> None:
    assert not kt2024.may_shoot_after_move(weapon("heavy"), "reposition")
    assert kt2024.may_shoot_after_move(weapon("heavy"), None)
    assert kt2024.may_shoot_after_move(weapon("heavy=dash"), "dash")
    assert not kt2024.may_shoot_after_move(weapon("heavy=dash"), "reposition")
    assert kt2024.may_shoot_after_move(weapon(), "reposition")
    assert kt2024.heavy_allowed_moves(weapon("heavy")) == ()


def test_hot_damages_the_shooter_below_the_hit_stat() -> None:
    dice = ScriptedDice(faces=[2, 3])
    assert kt2024.roll_hot(dice, 3, "gun")[0] == 4
    assert kt2024.roll_hot(dice, 3, "gun")[0] == 0
    assert dice.log[0].purpose == "gun: Hot"


def test_lethal_makes_lower_rolls_crits() -> None:
    result, _ = shot([5, 1, 1, 1, 1, 1, 1], spec("lethal=5"))
    assert result.damage == 4 and result.crits == 1


def test_limited_counts_uses() -> None:
    assert kt2024.uses_left(weapon("limited=1"), 0) == 1
    assert kt2024.uses_left(weapon("limited=1"), 1) == 0
    assert kt2024.uses_left(weapon(), 5) is None


def test_piercing_removes_defence_dice() -> None:
    _, dice = shot([3, 1, 1, 1, 1, 1], spec("piercing=1"))
    assert len(dice.log[1].faces) == 2


def test_piercing_crits_only_with_a_crit() -> None:
    _, dice = shot([6, 1, 1, 1, 1], spec("piercing_crits=2"))
    assert len(dice.log[1].faces) == 1
    _, dice = shot([3, 1, 1, 1, 1, 1, 1], spec("piercing_crits=2"))
    assert len(dice.log[1].faces) == 3


def test_punishing_keeps_a_failed_die_with_a_crit() -> None:
    result, _ = shot([6, 1, 1, 1, 1, 1, 1], spec("punishing"))
    assert result.damage == 4 + 3


def test_range_limits_targets() -> None:
    assert kt2024.in_range(weapon("range=6"), 6)
    assert not kt2024.in_range(weapon("range=6"), 6.5)
    assert kt2024.in_range(weapon(range_=None), 99)


def test_relentless_rerolls_every_failed_die() -> None:
    result, dice = shot([1, 2, 3, 6, 3, 4, 1, 1, 1], spec("relentless"))
    assert result.damage == 3 * 3 + 4
    assert len(dice.log[1].faces) == 2


def test_rending_upgrades_a_normal_hit_with_a_crit() -> None:
    result, _ = shot([6, 3, 1, 1, 1, 1, 1], spec("rending"))
    assert result.damage == 8 and result.crits == 2


def test_saturate_denies_cover() -> None:
    result, dice = shot([3, 1, 1, 1, 1, 1, 1], spec("saturate"), DefenceSpec(3, 3, cover=True))
    assert result.damage == 3 and len(dice.log[1].faces) == 3


def test_seek_and_seek_light_targeting() -> None:
    kw = {"visible": True, "concealed": True, "in_cover": True}
    assert not kt2024.valid_target(weapon(), **kw)
    assert kt2024.valid_target(weapon("seek"), **kw)
    assert kt2024.valid_target(weapon("seek_light"), **kw, cover_light_only=True)
    assert not kt2024.valid_target(weapon("seek_light"), **kw, cover_light_only=False)
    assert not kt2024.valid_target(weapon("seek"), visible=False, concealed=False,
                                   in_cover=False)


def test_severe_makes_a_crit_when_none_rolled() -> None:
    result, _ = shot([3, 3, 1, 1, 1, 1, 1], spec("severe"))
    assert result.damage == 3 + 4 and result.crits == 1


def test_shock_discards_a_normal_hit_on_the_first_crit_strike() -> None:
    attacker = FightSide(1, 0, 3, 4, 10, shock=True)
    defender = FightSide(0, 2, 3, 4, 10)
    out = kt2024.resolve_fight(attacker, defender)
    assert (out.dealt, out.taken) == (4, 3)
    assert out.steps[0].shock == "normal"
    plain = kt2024.resolve_fight(FightSide(1, 0, 3, 4, 10), defender)
    assert (plain.dealt, plain.taken) == (4, 6)


def test_silent_allows_shooting_while_concealed() -> None:
    assert kt2024.may_shoot_while_concealed(weapon("silent"))
    assert not kt2024.may_shoot_while_concealed(weapon())


def test_stun_needs_a_retained_crit() -> None:
    result, _ = shot([6, 1, 1, 1, 1, 1, 1], spec("stun"))
    assert result.stun
    result, _ = shot([3, 1, 1, 1, 1, 1, 1], spec("stun"))
    assert not result.stun


def test_torrent_adds_valid_targets_near_the_primary() -> None:
    w = weapon("torrent=2")
    rule = kt2024.secondary_rule(w)
    assert rule is not None and not rule.cover_from_primary
    picked = kt2024.secondary_targets(w, [Candidate("a", 1.0, False, True),
                                          Candidate("b", 1.0, True, False)])
    assert picked == ["a"]


# -- fights ----------------------------------------------------------------------------------


def test_fight_strikes_when_striking_is_worth_more() -> None:
    out = kt2024.resolve_fight(FightSide(1, 0, 3, 4, 10), FightSide(0, 1, 3, 4, 10))
    assert (out.dealt, out.taken) == (4, 3)
    assert out.steps[0].action == "strike"


def test_fight_blocks_a_killing_blow() -> None:
    # the attacker has 3 wounds: the defender's normal hit would kill it, so it blocks first
    out = kt2024.resolve_fight(FightSide(0, 2, 3, 4, 3), FightSide(0, 1, 3, 4, 10))
    assert out.taken == 0 and out.dealt == 3
    assert out.steps[0].action == "block"


def test_fight_brutal_only_crits_block() -> None:
    out = kt2024.resolve_fight(FightSide(0, 1, 3, 4, 3, brutal=True),
                               FightSide(0, 1, 3, 4, 3))
    assert out.dealt == 3 and out.taken == 0  # the defender could not block, and died


def test_fight_ends_when_a_side_falls() -> None:
    out = kt2024.resolve_fight(FightSide(2, 0, 3, 4, 10), FightSide(0, 3, 3, 4, 4))
    assert out.dealt == 4 and out.taken == 0


def test_rolled_fight_uses_scripted_dice_and_logs_every_roll() -> None:
    a, d = spec(attacks=3), spec(attacks=2, hit=4, dmg=(2, 3))
    dice = ScriptedDice(faces=[6, 3, 1, 4, 1])
    out = kt2024.roll_fight(dice, a, d, 10, 10, ("A", "B"))
    assert dice.position == 5
    assert [e.purpose.split(":")[0] for e in dice.log] == ["fight, A", "fight, B"]
    # A: crit + normal vs B: one normal; A strikes with the crit, B strikes, A strikes
    assert (out.dealt, out.taken) == (7, 2)


def test_rolled_fight_devastating_applies_first() -> None:
    a = spec("devastating=5", attacks=1)
    d = spec(attacks=1)
    dice = ScriptedDice(faces=[6, 6])
    out = kt2024.roll_fight(dice, a, d, 10, 5)
    assert out.dealt == 5 and out.taken == 0


# -- the bridge (solo_ops.game.attacks) ----------------------------------------------------------


class _Op:
    def __init__(self, id_: str, profile: object, at: tuple[float, float], wounds: int = 10
                 ) -> None:
        self.id = self.name = id_
        self.profile, self.at, self.wounds = profile, at, wounds
        self.radius, self.injured = 0.5, False


class _Cover:
    in_cover, obscured = False, False


def test_bridge_roll_shot_blast_devastating_splash_hot_and_stun() -> None:
    from solo_ops.core.model import Profile
    from solo_ops.game import attacks

    gun = Weapon("plasma", WeaponType.RAPID, range=24, attacks=1, hit=3, damage=(3, 4),
                 rules=tuple(parse_weapon_rule(r) for r in
                             ("blast=2", "devastating=1:2", "hot", "stun")))
    prof = Profile("m", 6, 7, 4, 10, 3, 25, weapons=(gun,))
    shooter, target = _Op("s", prof, (0, 0)), _Op("t", prof, (10, 0))
    near, far = _Op("n", prof, (11.5, 0)), _Op("f", prof, (20, 0))
    # primary: 6 (crit), defence 1 1 1; Blast on n: 3, defence 1 1 1; Hot: 2
    dice = ScriptedDice(faces=[6, 1, 1, 1, 3, 1, 1, 1, 2])
    result = attacks.roll_shot("kt2024", dice, shooter, gun, target, _Cover(), None,
                               secondary=[(near, _Cover())], nearby=[near, far])
    assert result.damage == 2 + 4
    assert ("n", 2) in result.splash and ("n", 3) in result.splash
    assert all(t != "f" for t, _ in result.splash)
    assert result.self_damage == 4 and result.stunned == ["t"]
    assert dice.position == 9 and all(e.purpose for e in dice.log)


def test_bridge_roll_fight_2024() -> None:
    from solo_ops.core.model import Profile
    from solo_ops.game import attacks

    blade = Weapon("blade", WeaponType.MELEE, attacks=2, hit=3, damage=(3, 4))
    prof = Profile("m", 6, 7, 4, 10, 3, 25, weapons=(blade,))
    a, t = _Op("a", prof, (0, 0)), _Op("t", prof, (1, 0), wounds=3)
    dice = ScriptedDice(faces=[3, 3, 1, 1])
    out = attacks.roll_fight("kt2024", dice, a, t, helpers=1)
    assert out.damage == 3 and out.damage_taken == 0
    assert any("helper" in line for line in out.lines)
