"""Exact odds against independent brute force, hand calculation and the rolled mode."""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solo_ops.core.dice import SeededDice
from solo_ops.core.model import DiceExpr, Profile, Weapon, WeaponType, parse_weapon_rule
from solo_ops.game import attacks
from solo_ops.rules import kt2018, kt2024, odds, odds_2018
from solo_ops.rules.kt2024 import AttackSpec, DefenceSpec

# -- an independent, obviously-correct enumerator ------------------------------------------------


@cache
def _min_damage(crits: int, normals: int, cs: int, ns: int, nd: int, cd: int) -> int:
    """Try every way to spend the saves (recursively) and keep the least damage."""
    best = crits * cd + normals * nd
    if cs and crits:
        best = min(best, _min_damage(crits - 1, normals, cs - 1, ns, nd, cd))
    if cs and normals:
        best = min(best, _min_damage(crits, normals - 1, cs - 1, ns, nd, cd))
    if ns >= 2 and crits:
        best = min(best, _min_damage(crits - 1, normals, cs, ns - 2, nd, cd))
    if ns and normals:
        best = min(best, _min_damage(crits, normals - 1, cs, ns - 1, nd, cd))
    return best


def brute(attacks_n: int, hit: int, nd: int, cd: int, dice: int, save: int,
          cover: bool = False, obscured: bool = False, wounds: int | None = None
          ) -> dict[int, Fraction]:
    rolled_def = dice - (1 if cover else 0)
    out: dict[int, Fraction] = {}
    each = Fraction(1, 6 ** (attacks_n + rolled_def))
    for faces in product(range(1, 7), repeat=attacks_n + rolled_def):
        att, dfn = faces[:attacks_n], faces[attacks_n:]
        crits = sum(1 for f in att if f == 6)
        normals = sum(1 for f in att if hit <= f < 6)
        if obscured:
            normals = max(0, normals + crits - 1)
            crits = 0
        cs = sum(1 for f in dfn if f == 6)
        ns = sum(1 for f in dfn if save <= f < 6) + (1 if cover else 0)
        if crits + normals == 0:
            cs = ns = 0
        dmg = _min_damage(crits, normals, cs, ns, nd, cd)
        if wounds is not None:
            dmg = min(dmg, wounds)
        out[dmg] = out.get(dmg, Fraction(0)) + each
    return out


def close(a: dict[int, Fraction], b: dict[int, Fraction]) -> bool:
    keys = set(a) | set(b)
    return all(abs(float(a.get(k, 0)) - float(b.get(k, 0))) < 1e-12 for k in keys)


def test_brute_force_four_attacks_3up_3_4_against_three_dice_3up() -> None:
    exact = odds.shoot_2024(AttackSpec(4, 3, 3, 4), DefenceSpec(3, 3)).distribution
    assert sum(exact.values()) == 1
    assert close(exact, brute(4, 3, 3, 4, 3, 3))
    assert exact == brute(4, 3, 3, 4, 3, 3)  # Fractions: exactly equal


@pytest.mark.parametrize(("cover", "obscured", "wounds"), [
    (True, False, None), (False, True, None), (True, True, 7), (False, False, 5)])
def test_brute_force_cover_obscured_wounds(cover: bool, obscured: bool,
                                           wounds: int | None) -> None:
    exact = odds.shoot_2024(AttackSpec(3, 4, 2, 5),
                            DefenceSpec(3, 4, wounds, cover, obscured)).distribution
    assert exact == brute(3, 4, 2, 5, 3, 4, cover, obscured, wounds)


def test_hand_calculation_one_die_no_defence() -> None:
    # one attack die, 4+, damage 2/3, no defence dice: P(0)=1/2, P(2)=1/3, P(3)=1/6
    dist = odds.shoot_2024(AttackSpec(1, 4, 2, 3), DefenceSpec(0, 4)).distribution
    assert dist == {0: Fraction(1, 2), 2: Fraction(1, 3), 3: Fraction(1, 6)}


def test_hand_calculation_balanced_and_relentless_on_one_die() -> None:
    # one die, 4+: a failed die (1/2) is re-rolled: P(miss) = 1/4
    for rule in ("balanced", "relentless", "ceaseless"):
        s = AttackSpec(1, 4, 2, 3, (parse_weapon_rule(rule),))
        dist = odds.shoot_2024(s, DefenceSpec(0, 4)).distribution
        assert dist[0] == Fraction(1, 4), rule
        assert dist[3] == Fraction(1, 6) + Fraction(1, 2) * Fraction(1, 6)


def test_brute_force_balanced_two_dice() -> None:
    # two attack dice 4+, Balanced: re-roll the first failed die; no defence
    out: dict[int, Fraction] = {}
    for a, b, r in product(range(1, 7), repeat=3):
        faces = [a, b]
        fails = [i for i, f in enumerate(faces) if f < 4]
        if fails:
            faces[fails[0]] = r
        dmg = sum(3 if f == 6 else 2 if f >= 4 else 0 for f in faces)
        out[dmg] = out.get(dmg, Fraction(0)) + Fraction(1, 216)
    s = AttackSpec(2, 4, 2, 3, (parse_weapon_rule("balanced"),))
    assert odds.shoot_2024(s, DefenceSpec(0, 4)).distribution == out


def test_attack_dice_distributions_sum_to_one() -> None:
    for rules in (("ceaseless", "balanced"), ("relentless", "lethal=5"), ("accurate=1",),
                  ("punishing", "rending", "severe")):
        s = AttackSpec(5, 3, 3, 4, tuple(parse_weapon_rule(r) for r in rules))
        assert sum(odds.attack_dice_2024(s).values()) == 1
        assert sum(odds.shoot_2024(s, DefenceSpec(3, 4, 9, True)).distribution.values()) == 1


def test_fight_joint_sums_to_one_and_marginals_agree() -> None:
    fo = odds.fight_2024(AttackSpec(4, 3, 4, 5, (parse_weapon_rule("shock"),)),
                         AttackSpec(3, 4, 3, 4, (parse_weapon_rule("brutal"),)), 10, 8)
    assert sum(fo.joint.values()) == 1
    assert sum(fo.dealt.distribution.values()) == 1
    assert max(fo.dealt.distribution) <= 8 and max(fo.taken.distribution) <= 10


def test_hot_distribution() -> None:
    assert odds.hot_2024(3) == {0: Fraction(4, 6), 2: Fraction(1, 6), 4: Fraction(1, 6)}


# -- Kill Team 2018 ----------------------------------------------------------------------------


def test_2018_hand_calculation() -> None:
    # BS 3+ (2/3), S4 vs T4 (1/2), Sv 4+ with AP -1 -> 5+ (fail 2/3), damage 1, 2 shots
    a = kt2018.Attack2018(shots=DiceExpr(0, 0, 2), skill=3, strength=4, ap=-1)
    t = kt2018.Target2018(toughness=4, save=4, wounds=2)
    p = Fraction(2, 3) * Fraction(1, 2) * Fraction(2, 3)
    result = odds_2018.attack_2018(a, t)
    assert result.distribution == {0: (1 - p) ** 2, 1: 2 * p * (1 - p), 2: p * p}
    assert result.extras["p_out_of_action"] == p * p * Fraction(1, 2)


def test_2018_random_damage_and_concentrated_radius() -> None:
    assert odds_2018.dice_expr_2018(DiceExpr(1, 3, 0)) == {1: Fraction(1, 3), 2: Fraction(1, 3),
                                                      3: Fraction(1, 3)}
    # D3 with an extra die, the lowest discarded: P(1) = 1/9
    assert odds_2018.dice_expr_2018(DiceExpr(1, 3, 0), extra_die=True)[1] == Fraction(1, 9)
    a = kt2018.Attack2018(shots=DiceExpr(1, 3, 0), skill=2, strength=8,
                          damage=DiceExpr(1, 6, 0))
    result = odds_2018.attack_2018(a, kt2018.Target2018(toughness=3, save=7, wounds=4))
    assert sum(result.distribution.values()) == 1 and max(result.distribution) == 4


def test_2018_injury_odds() -> None:
    """004 Flesh Wound: "Mark one of the empty Flesh Wound boxes ... If a model suffers a
    flesh wound and all of the Flesh Wound boxes on their datacard are marked, it is taken
    out of action instead": +1 per flesh wound; with 2 of 3 boxes marked a 1 (1+2 = 3) still
    marks the third; with all 3 marked nothing is a flesh wound any more."""
    assert odds_2018.injury_2018(0) == {"flesh_wound": Fraction(1, 2),
                                   "out_of_action": Fraction(1, 2)}
    assert odds_2018.injury_2018(1)["out_of_action"] == Fraction(2, 3)
    assert odds_2018.injury_2018(2)["out_of_action"] == Fraction(5, 6)
    assert odds_2018.injury_2018(3)["out_of_action"] == 1


# -- rolled mode agrees with the exact odds -----------------------------------------------------


def _within(samples: list[int], mean: float) -> bool:
    n = len(samples)
    m = sum(samples) / n
    var = sum((x - m) ** 2 for x in samples) / (n - 1)
    return abs(m - mean) <= 5 * math.sqrt(var / n) + 1e-9


def test_rolled_2024_matches_exact_mean() -> None:
    s = AttackSpec(5, 3, 3, 4, tuple(parse_weapon_rule(r) for r in
                                     ("ceaseless", "lethal=5", "piercing_crits=1", "rending")))
    d = DefenceSpec(3, 4, 12, cover=True)
    samples = []
    for seed in range(3000):
        dice = SeededDice(seed=seed)
        samples.append(kt2024.roll_shot(dice, s, d).damage)
        assert all(e.purpose for e in dice.log)
    assert _within(samples, float(odds.shoot_2024(s, d).mean))


def test_rolled_fight_matches_exact_means() -> None:
    a = AttackSpec(4, 3, 4, 5, (parse_weapon_rule("shock"),))
    d = AttackSpec(3, 4, 3, 4)
    fo = odds.fight_2024(a, d, 12, 9)
    dealt, taken = [], []
    for seed in range(3000):
        out = kt2024.roll_fight(SeededDice(seed=seed), a, d, 12, 9)
        dealt.append(out.dealt)
        taken.append(out.taken)
    assert _within(dealt, float(fo.dealt.mean)) and _within(taken, float(fo.taken.mean))


def test_rolled_2018_matches_exact_mean() -> None:
    a = kt2018.Attack2018(shots=DiceExpr(1, 3, 0), skill=3, strength=5, ap=-1,
                          damage=DiceExpr(1, 3, 0))
    t = kt2018.Target2018(toughness=4, save=3, invulnerable=5, wounds=3)
    samples = []
    for seed in range(3000):
        dice = SeededDice(seed=seed)
        samples.append(kt2018.roll_attack(dice, a, t).damage)
        assert all(e.purpose for e in dice.log)
    assert _within(samples, float(odds_2018.attack_2018(a, t).mean))


# -- the bridge's expected damage ---------------------------------------------------------------


class _Op:
    def __init__(self, profile: Profile, wounds: int, injured: bool = False) -> None:
        self.profile, self.wounds, self.injured = profile, wounds, injured
        self.name, self.id, self.at, self.radius, self.flesh_wounds = "op", "op", None, 0.5, 0


class _Cover:
    in_cover = True
    obscured = False


def test_expected_for_uses_the_exact_odds() -> None:
    gun = Weapon("gun", WeaponType.RAPID, range=24, attacks=4, hit=3, damage=(3, 4),
                 strength=4, ap=-1, damage_2018=DiceExpr(0, 0, 1), shots=DiceExpr(0, 0, 2))
    prof = Profile("m", 6, 7, 4, 10, 3, 32, weapons=(gun,), bs=3, strength=4)
    target = _Op(prof, 8)
    exp = attacks.expected_for("kt2024")(gun, _Op(prof, 10), target, _Cover())
    assert exp == pytest.approx(float(odds.shoot_2024(
        AttackSpec(4, 3, 3, 4), DefenceSpec(3, 3, 8, cover=True)).mean), abs=1e-12)
    assert attacks.expected_for("kt2018")(gun, _Op(prof, 1), target, None) > 0
    assert attacks.expected_for("nonsense") is None
    bare = Weapon("club", WeaponType.RAPID, range=6)
    assert attacks.expected_for("kt2024")(bare, _Op(prof, 10), target, None) == 0.0


# -- property: rolled attacks converge on the exact distribution --------------------------------

RULE_POOL = ("balanced", "ceaseless", "relentless", "lethal=5", "rending", "punishing",
             "severe", "brutal", "piercing=1", "piercing_crits=1", "accurate=1", "saturate",
             "devastating=2")


def _chi2_critical(df: int, z: float = 4.265) -> float:
    """The chi-square value exceeded with probability about 1e-5 (z = 4.265) for ``df``
    degrees of freedom, by the Wilson-Hilferty approximation."""
    k = float(df)
    return k * (1.0 - 2.0 / (9.0 * k) + z * math.sqrt(2.0 / (9.0 * k))) ** 3


@settings(max_examples=12, deadline=None, derandomize=True)
@given(attacks_n=st.integers(1, 5), hit=st.integers(2, 6), normal=st.integers(1, 5),
       extra=st.integers(0, 3), dice_n=st.integers(0, 3), save=st.integers(2, 6),
       cover=st.booleans(), obscured=st.booleans(),
       wounds=st.one_of(st.none(), st.integers(4, 15)),
       rules=st.lists(st.sampled_from(RULE_POOL), max_size=3, unique=True))
def test_rolled_attacks_converge_on_the_exact_distribution(
        attacks_n: int, hit: int, normal: int, extra: int, dice_n: int, save: int,
        cover: bool, obscured: bool, wounds: int | None, rules: list[str]) -> None:
    spec = AttackSpec(attacks_n, hit, normal, normal + extra,
                      tuple(parse_weapon_rule(r) for r in rules))
    defence = DefenceSpec(dice_n, save, wounds, cover=cover, obscured=obscured)
    exact = odds.shoot_2024(spec, defence).distribution
    n = 2000
    counts: dict[int, int] = {}
    for seed in range(n):
        dice = SeededDice(seed=seed)
        damage = kt2024.roll_shot(dice, spec, defence).damage
        counts[damage] = counts.get(damage, 0) + 1
    # every rolled result must be possible, and the frequencies must fit the exact odds:
    # chi-square over bins with an expected count of at least 5 (rarer results pooled)
    assert set(counts) <= {d for d, p in exact.items() if p > 0}
    bins: list[tuple[float, int]] = []
    pooled_e, pooled_o = 0.0, 0
    for d, p in sorted(exact.items()):
        e = float(p) * n
        if e >= 5:
            bins.append((e, counts.get(d, 0)))
        else:
            pooled_e += e
            pooled_o += counts.get(d, 0)
    if pooled_e > 0:
        bins.append((pooled_e, pooled_o))
    if len(bins) < 2:
        return
    chi2 = sum((o - e) ** 2 / e for e, o in bins)
    assert chi2 < _chi2_critical(len(bins) - 1), (chi2, bins)


# -- the fight's dynamic programme against a brute force ------------------------------------------
#
# The brute force below is written from the policy in kt2024.resolve_fight's docstring alone: it
# plays every line of the fight out (no memo, no wound clamping), picks the move best for the side
# playing it (damage dealt minus taken), ties in the documented order, and follows that move. Its
# joint distribution must equal fight_2024's exactly, as Fractions.

_TIE_ORDER = ("strike_crit", "strike_normal", "block_crit_crit", "block_normal_normal",
              "block_crit_normal")


def _brute(me: list[int], opp: list[int], wounds: list[int], turn: int, shock: list[bool],
           dmg: tuple[tuple[int, int], tuple[int, int]], brutal: tuple[bool, bool],
           has_shock: tuple[bool, bool]) -> tuple[int, int, int]:
    """(value for side 0, damage side 0 deals, damage side 0 takes) from this state. ``me`` and
    ``opp`` are [crits, normals] of side 0 and side 1."""
    dice = [me, opp]
    if wounds[0] <= 0 or wounds[1] <= 0 or not any(me + opp):
        return 0, 0, 0
    if not any(dice[turn]):
        turn = 1 - turn
    mine, theirs = dice[turn], dice[1 - turn]
    best: tuple[int, int, int] | None = None
    for act in _TIE_ORDER:
        new = [list(me), list(opp)]
        m, o = new[turn], new[1 - turn]
        new_shock, dealt = list(shock), 0
        if act == "strike_crit" and mine[0]:
            m[0] -= 1
            dealt = dmg[turn][1]
            if has_shock[turn] and shock[turn]:
                new_shock[turn] = False
                if o[1]:
                    o[1] -= 1
                elif o[0]:
                    o[0] -= 1
        elif act == "strike_normal" and mine[1]:
            m[1] -= 1
            dealt = dmg[turn][0]
        elif act == "block_crit_crit" and mine[0] and theirs[0]:
            m[0] -= 1
            o[0] -= 1
        elif act == "block_normal_normal" and mine[1] and theirs[1] and not brutal[1 - turn]:
            m[1] -= 1
            o[1] -= 1
        elif act == "block_crit_normal" and mine[0] and theirs[1]:
            m[0] -= 1
            o[1] -= 1
        else:
            continue
        dealt = min(dealt, wounds[1 - turn])
        new_wounds = list(wounds)
        new_wounds[1 - turn] -= dealt
        value, d, t = _brute(new[0], new[1], new_wounds, 1 - turn, new_shock, dmg, brutal,
                             has_shock)
        cand = (value + dealt, d + dealt, t) if turn == 0 else (value - dealt, d, t + dealt)
        if best is None or (cand[0] > best[0] if turn == 0 else cand[0] < best[0]):
            best = cand
    assert best is not None
    return best


def _brute_joint(a: AttackSpec, d: AttackSpec, aw: int | None, dw: int | None
                 ) -> dict[tuple[int, int], Fraction]:
    big = 10**6
    joint: dict[tuple[int, int], Fraction] = {}
    for ka, p in odds.retained_2024(a).items():
        for kd, q in odds.retained_2024(d).items():
            dev_a = min(a.devastating * ka.crits, dw if dw is not None else big)
            left_d = (dw if dw is not None else big) - dev_a
            dev_d = 0 if left_d == 0 else min(d.devastating * kd.crits,
                                              aw if aw is not None else big)
            left_a = (aw if aw is not None else big) - dev_d
            _, dealt, taken = _brute([ka.crits, ka.normals], [kd.crits, kd.normals],
                                     [left_a, left_d], 0, [True, True],
                                     ((a.normal, a.crit), (d.normal, d.crit)),
                                     (a.has("brutal"), d.has("brutal")),
                                     (a.has("shock"), d.has("shock")))
            key = (dealt + dev_a, taken + dev_d)
            joint[key] = joint.get(key, Fraction(0)) + p * q
    return dict(sorted(joint.items()))


def _rules(*names: str) -> tuple:
    return tuple(parse_weapon_rule(n) for n in names)


@pytest.mark.parametrize(("a", "d", "aw", "dw"), [
    (AttackSpec(3, 3, 3, 4), AttackSpec(3, 4, 4, 5), 6, 5),
    (AttackSpec(4, 3, 3, 4, _rules("shock")), AttackSpec(3, 3, 3, 5, _rules("brutal")), 7, 6),
    (AttackSpec(3, 2, 2, 6, _rules("devastating=2", "lethal=5")),
     AttackSpec(4, 4, 3, 3, _rules("shock", "rending")), 5, 9),
    (AttackSpec(4, 4, 5, 6, _rules("brutal", "shock")),
     AttackSpec(4, 3, 4, 6, _rules("brutal", "shock", "severe")), None, 9),
    (AttackSpec(4, 3, 1, 2), AttackSpec(4, 3, 1, 2), 3, 3),
    (AttackSpec(3, 3, 3, 4), AttackSpec(3, 3, 3, 4), None, None),
])
def test_fight_dynamic_programme_equals_brute_force(a: AttackSpec, d: AttackSpec,
                                                    aw: int | None, dw: int | None) -> None:
    odds.fight_2024.cache_clear()
    assert odds.fight_2024(a, d, aw, dw).joint == _brute_joint(a, d, aw, dw)


_FIGHT_RULES = st.lists(st.sampled_from(["shock", "brutal", "devastating=1", "devastating=3",
                                         "lethal=5", "rending", "severe", "punishing"]),
                        max_size=2, unique=True)


@settings(max_examples=40, deadline=None)
@given(an=st.integers(0, 3), ah=st.integers(2, 6), anorm=st.integers(0, 5),
       acrit=st.integers(0, 6), arules=_FIGHT_RULES, dn=st.integers(0, 3),
       dh=st.integers(2, 6), dnorm=st.integers(0, 5), dcrit=st.integers(0, 6),
       drules=_FIGHT_RULES, aw=st.one_of(st.none(), st.integers(1, 12)),
       dw=st.one_of(st.none(), st.integers(1, 12)))
def test_fight_dynamic_programme_equals_brute_force_generated(
        an: int, ah: int, anorm: int, acrit: int, arules: list[str], dn: int, dh: int,
        dnorm: int, dcrit: int, drules: list[str], aw: int | None, dw: int | None) -> None:
    a = AttackSpec(an, ah, anorm, acrit, _rules(*arules))
    d = AttackSpec(dn, dh, dnorm, dcrit, _rules(*drules))
    assert odds.fight_2024(a, d, aw, dw).joint == _brute_joint(a, d, aw, dw)


def test_fight_with_wounds_beyond_every_blow_equals_uncapped_fight() -> None:
    """The clamp the programme relies on: 999 wounds against 4 dice of 3/4 play exactly like
    no wound limit at all (no blow can ever be capped), move for move."""
    a, d = AttackSpec(4, 3, 3, 4), AttackSpec(4, 3, 3, 4, _rules("shock"))
    capped = odds.fight_2024(a, d, 999, 999).joint
    assert capped == odds.fight_2024(a, d, None, None).joint == _brute_joint(a, d, 999, 999)
    side = kt2024.FightSide(2, 2, 3, 4, 999)
    other = kt2024.FightSide(1, 3, 3, 4, 999, shock=True)
    assert kt2024.resolve_fight(side, other).steps == kt2024.resolve_fight(
        kt2024.FightSide(2, 2, 3, 4, None), kt2024.FightSide(1, 3, 3, 4, None, shock=True)).steps


def test_remembered_expectations_are_the_exact_odds() -> None:
    """The Kill Team 2024 expected damage (``attacks.expected_for("kt2024")``) remembers its
    answers by what the attack and the defence read: asked again, and after other questions,
    each answer is still the exact odds of its own spec and defence (injured shooter, wounds
    left, cover, obscured and Vantage each change it; another weapon object never reads a
    remembered answer)."""
    import dataclasses

    gun = Weapon("gun", WeaponType.RAPID, range=24, attacks=4, hit=3, damage=(3, 4),
                 rules=(parse_weapon_rule("lethal=5"),))
    twin = dataclasses.replace(gun, damage=(4, 5))
    prof = Profile("m", 6, 7, 4, 10, 3, 32, weapons=(gun,), bs=3, strength=4)
    attacks.clear_caches()
    expected = attacks.expected_for("kt2024")
    seen = set()
    for _ in range(2):
        for weapon in (gun, twin):
            for injured in (False, True):
                for wounds in (8, 3):
                    for in_cover, obscured, vantage in ((False, False, 0), (True, False, 0),
                                                        (False, True, 0), (False, False, 2)):
                        cover = attacks.ShotCover(True, in_cover, obscured, True, vantage)
                        shooter, target = _Op(prof, 10, injured), _Op(prof, wounds)
                        got = expected(weapon, shooter, target, cover)
                        spec = AttackSpec.from_weapon(weapon, injured=injured,
                                                      accurate_bonus=vantage)
                        want = float(odds.shoot_2024(spec, DefenceSpec(
                            3, 3, wounds, cover=in_cover, obscured=obscured)).mean)
                        assert got == want
                        seen.add(got)
    assert len(seen) > 20  # the inputs really change the answer
