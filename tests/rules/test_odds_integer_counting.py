"""The exact odds counted as integers equal today's Fraction arithmetic, to the last digit.

The oracle (``tests/support/odds_oracle.py``) is the shooting and fight code of
``solo_ops/rules/odds.py`` as it was before outcomes were counted as integers over powers of
six, kept verbatim. Every comparison below is Fraction equality (and the same key order), on the
51 shipped-style cases that ``bench/bench_odds.py`` times, on generated specs, and through the
callers (``combat shoot`` and ``combat fight`` on the command line, the AI's expected damage).

The three generated tests are ``slow`` tests on the budget (tests/support/budget.py): a quarter
of their examples by default (75 shots, 37 dice and 30 fights, drawn from the same strategies
over every dice rule), all of them with the full budget (CI's slow pass); the fixed grids and
the shipped cases, which cover each dice rule, the crit-to-normal ratios and every small hand,
run whole every time."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from solo_ops.cli import combat as combat_module
from solo_ops.core.model import Profile, Weapon, WeaponType, parse_weapon_rule
from solo_ops.game import attacks
from solo_ops.rules import kt2024, odds
from solo_ops.rules.kt2024 import AttackSpec, DefenceSpec
from tests.support import odds_oracle as oracle
from tests.support.budget import examples

DICE_RULES = ("accurate=1", "accurate=2", "balanced", "ceaseless", "relentless", "lethal=5",
              "lethal=4", "rending", "punishing", "severe", "brutal", "piercing=1",
              "piercing=2", "piercing_crits=1", "piercing_crits=2", "saturate",
              "devastating=1", "devastating=3", "devastating=2:3", "stun", "hot", "shock")
"""Every weapon rule that changes dice or damage (and a few that change nothing here)."""


def _rules(*names: str) -> tuple:
    return tuple(parse_weapon_rule(n) for n in names)


def _same_odds(new: odds.Odds, old: odds.Odds) -> None:
    assert new.distribution == old.distribution
    assert list(new.distribution) == list(old.distribution)  # sorted alike
    assert all(isinstance(p, Fraction) and p > 0 for p in new.distribution.values())
    assert new.extras == old.extras
    assert new.mean == old.mean == sum((d * p for d, p in old.distribution.items()),
                                       Fraction(0))


# -- the shipped-style cases ---------------------------------------------------------------------


def test_the_cases_are_51_and_cover_the_shipped_weapons_and_the_dice_rules() -> None:
    cases = oracle.shipped_cases()
    assert len(cases) == 51 == len(set(cases))
    names = {r.name for spec, _ in cases for r in spec.rules}
    assert {"accurate", "balanced", "ceaseless", "relentless", "lethal", "piercing",
            "piercing_crits", "devastating", "brutal", "saturate", "stun", "rending",
            "punishing", "severe"} <= names
    assert {d.save for _, d in cases} == {3, 4, 5, 6}
    assert {(d.cover, d.obscured) for _, d in cases} == set(oracle.COVER)
    assert oracle.shipped_cases() == cases  # deterministic


@pytest.mark.parametrize("index", range(51))
def test_shipped_case_equals_the_fraction_arithmetic(index: int) -> None:
    spec, defence = oracle.shipped_cases()[index]
    oracle.clear_caches()
    odds.clear_caches()
    _same_odds(odds.shoot_2024(spec, defence), oracle.shoot_2024(spec, defence))
    _same_odds(odds.shoot_2024.__wrapped__(spec, defence), oracle.shoot_2024(spec, defence))
    assert odds.attack_dice_2024(spec) == oracle.attack_dice_2024(spec)
    for obscured in (False, True):
        assert odds.retained_2024(spec, obscured) == oracle.retained_2024(spec, obscured)


def test_shipped_fights_equal_the_fraction_arithmetic() -> None:
    for a, d, aw, dw in oracle.shipped_fights():
        for policy in odds.FIGHT_POLICIES:
            oracle.clear_caches()
            odds.clear_caches()
            new, old = odds.fight_2024(a, d, aw, dw, policy), oracle.fight_2024(a, d, aw, dw,
                                                                               policy)
            assert new.joint == old.joint and list(new.joint) == list(old.joint)
            _same_odds(new.dealt, old.dealt)
            _same_odds(new.taken, old.taken)


# -- generated specs -----------------------------------------------------------------------------

SPECS = st.builds(
    AttackSpec,
    attacks=st.integers(0, 7), hit=st.integers(2, 6), normal=st.integers(0, 7),
    crit=st.integers(0, 9), rules=st.lists(st.sampled_from(DICE_RULES), max_size=4,
                                           unique=True).map(lambda r: _rules(*r)),
    injured=st.booleans(), hit_bonus=st.integers(-2, 2), accurate_bonus=st.integers(0, 2))
DEFENCES = st.builds(DefenceSpec, dice=st.integers(0, 5), save=st.integers(2, 6),
                     wounds=st.one_of(st.none(), st.integers(1, 20)), cover=st.booleans(),
                     obscured=st.booleans())


@settings(max_examples=examples(300), deadline=None)
@given(spec=SPECS, defence=DEFENCES)
def test_generated_shots_equal_the_fraction_arithmetic(spec: AttackSpec,
                                                       defence: DefenceSpec) -> None:
    _same_odds(odds.shoot_2024.__wrapped__(spec, defence), oracle.shoot_2024(spec, defence))


@settings(max_examples=examples(150), deadline=None)
@given(spec=SPECS, obscured=st.booleans(), count=st.integers(0, 6), save=st.integers(2, 6))
def test_generated_dice_equal_the_fraction_arithmetic(spec: AttackSpec, obscured: bool,
                                                      count: int, save: int) -> None:
    assert odds.attack_dice_2024.__wrapped__(spec) == oracle.attack_dice_2024(spec)
    assert odds.retained_2024(spec, obscured) == oracle.retained_2024(spec, obscured)
    assert odds.save_dice.__wrapped__(count, save) == oracle.save_dice(count, save)


@pytest.mark.parametrize("rules", [("ceaseless", "balanced"), ("ceaseless",), ("balanced",),
                                   ("relentless", "accurate=1"), ()])
@pytest.mark.parametrize(("attacks_n", "hit"), [(12, 6), (9, 4), (12, 2)])
def test_many_dice_equal_the_fraction_arithmetic(rules: tuple[str, ...], attacks_n: int,
                                                 hit: int) -> None:
    spec = AttackSpec(attacks_n, hit, 3, 4, _rules(*rules))
    assert odds.attack_dice_2024.__wrapped__(spec) == oracle.attack_dice_2024(spec)
    _same_odds(odds.shoot_2024.__wrapped__(spec, DefenceSpec(4, 4, 20, cover=True)),
               oracle.shoot_2024(spec, DefenceSpec(4, 4, 20, cover=True)))


@pytest.mark.parametrize(("normal", "crit"), [(2, 3), (3, 6), (1, 5), (4, 4), (0, 2)])
def test_every_small_hand_of_hits_and_saves_equals_the_fraction_arithmetic(normal: int,
                                                                           crit: int) -> None:
    """A grid on which the hits-and-saves loop meets every (crits, normals) up to 5 against
    every (crit saves, normal saves) up to 5, a crit worth less than, exactly or more than two
    normal hits, with and without cover and Brutal."""
    for attacks_n, dice, save, cover, brutal in product(range(1, 6), range(1, 6), (2, 4, 6),
                                                        (False, True), (False, True)):
        spec = AttackSpec(attacks_n, 3, normal, crit, _rules("brutal") if brutal else ())
        defence = DefenceSpec(dice, save, None, cover)
        _same_odds(odds.shoot_2024.__wrapped__(spec, defence),
                   oracle.shoot_2024.__wrapped__(spec, defence))


FIGHT_RULES = st.lists(st.sampled_from(["shock", "brutal", "devastating=1", "devastating=3",
                                        "lethal=5", "rending", "severe", "punishing",
                                        "accurate=1", "ceaseless", "balanced", "relentless"]),
                       max_size=3, unique=True).map(lambda r: _rules(*r))
FIGHTERS = st.builds(AttackSpec, attacks=st.integers(0, 5), hit=st.integers(2, 6),
                     normal=st.integers(0, 6), crit=st.integers(0, 7), rules=FIGHT_RULES)


@settings(max_examples=examples(120), deadline=None)
@given(a=FIGHTERS, d=FIGHTERS, aw=st.one_of(st.none(), st.integers(1, 16)),
       dw=st.one_of(st.none(), st.integers(1, 16)), policy=st.sampled_from(["best", "strike"]))
def test_generated_fights_equal_the_fraction_arithmetic(a: AttackSpec, d: AttackSpec,
                                                        aw: int | None, dw: int | None,
                                                        policy: str) -> None:
    new = odds.fight_2024.__wrapped__(a, d, aw, dw, policy)
    old = oracle.fight_2024.__wrapped__(a, d, aw, dw, policy)
    assert new.joint == old.joint and list(new.joint) == list(old.joint)


def test_unknown_fight_policy_is_refused() -> None:
    with pytest.raises(ValueError, match="fight policy"):
        odds.fight_2024.__wrapped__(AttackSpec(1, 3, 1, 2), AttackSpec(1, 3, 1, 2), 5, 5, "nope")


# -- the pieces, against the rules functions themselves ------------------------------------------


def test_least_damage_equals_allocate_saves_everywhere_a_crit_is_worth_a_normal() -> None:
    """Every hand of hits and saves up to 5 each, every damage pair with crit >= normal."""
    for crits, normals, cs, ns in product(range(6), repeat=4):
        for nd in range(5):
            for cd in range(nd, 11):
                want = kt2024.allocate_saves(crits, normals, cs, ns, nd, cd).damage
                assert odds.least_damage(crits, normals, cs, ns, nd, cd) == want, (
                    crits, normals, cs, ns, nd, cd)


def test_most_common_face_table_counts_every_roll() -> None:
    """``MOST_COMMON_WAYS[m][f][r]`` against listing all m**f rolls of f failed dice."""
    for m in range(1, 6):
        for f in range(6):
            counts = [0] * (f + 1)
            for faces in product(range(m), repeat=f):
                counts[max((faces.count(v) for v in range(m)), default=0)] += 1
            assert list(odds.MOST_COMMON_WAYS[m][f][: f + 1]) == counts
            assert not any(odds.MOST_COMMON_WAYS[m][f][f + 1:])
    assert all(sum(odds.MOST_COMMON_WAYS[m][f]) == m**f for m in range(6) for f in range(13))


def test_caches_can_be_cleared_and_the_uncached_core_is_the_same() -> None:
    spec, defence = AttackSpec(5, 3, 3, 4, _rules("ceaseless")), DefenceSpec(3, 4, 9, True)
    first = odds.shoot_2024(spec, defence)
    assert odds.shoot_2024.cache_info().currsize >= 1
    odds.clear_caches()
    assert odds.shoot_2024.cache_info().currsize == 0
    assert kt2024.solvers.cache_info().currsize == 0
    _same_odds(odds.shoot_2024.__wrapped__(spec, defence), first)


# -- the callers use the counted odds --------------------------------------------------------------


def test_combat_shoot_cli_prints_the_oracle_distribution(runner: CliRunner) -> None:
    spec, defence = oracle.shipped_cases()[13]
    args = ["shoot", "--attacks", str(spec.attacks), "--hit", str(spec.hit), "--damage",
            f"{spec.normal}/{spec.crit}", "--defence-dice", str(defence.dice), "--save",
            str(defence.save), "--wounds", str(defence.wounds), "--json"]
    for rule in spec.rules:
        args += ["--rule", rule.text()]
    if defence.cover:
        args.append("--cover")
    if defence.obscured:
        args.append("--obscured")
    odds.clear_caches()
    result = runner.invoke(combat_module.combat, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    exact = oracle.shoot_2024.__wrapped__(spec, defence)
    assert data["distribution"] == {str(k): float(v) for k, v in exact.distribution.items()}
    assert data["mean"] == float(exact.mean)
    assert data["p_incapacitated"] == float(exact.extras["p_incapacitated"])


def test_combat_fight_cli_prints_the_oracle_joint(runner: CliRunner) -> None:
    a, d = AttackSpec(4, 3, 4, 5, _rules("shock")), AttackSpec(5, 2, 4, 5, _rules("rending",
                                                                                  "lethal=5"))
    odds.clear_caches()
    result = runner.invoke(combat_module.combat, [
        "fight", "--attacks", "4", "--hit", "3", "--damage", "4/5", "--wounds", "10",
        "--rule", "shock", "--defender-attacks", "5", "--defender-hit", "2",
        "--defender-damage", "4/5", "--defender-rule", "rending", "--defender-rule",
        "lethal=5", "--defender-wounds", "12", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    exact = oracle.fight_2024.__wrapped__(a, d, 10, 12, "best")
    assert data["joint"] == [{"dealt": k[0], "taken": k[1], "p": float(p)}
                             for k, p in sorted(exact.joint.items())]
    assert data["mean"] == float(exact.dealt.mean)


class _Op:
    def __init__(self, profile: Profile, wounds: int, injured: bool = False) -> None:
        self.profile, self.wounds, self.injured = profile, wounds, injured
        self.name, self.id, self.at, self.radius, self.flesh_wounds = "op", "op", None, 0.5, 0


class _Cover:
    def __init__(self, in_cover: bool, obscured: bool) -> None:
        self.in_cover, self.obscured = in_cover, obscured


@pytest.mark.parametrize(("in_cover", "obscured"), oracle.COVER)
def test_expected_damage_of_the_ai_is_the_oracle_mean(in_cover: bool, obscured: bool) -> None:
    gun = Weapon("gun", WeaponType.HEAVY, range=36, attacks=6, hit=5, damage=(2, 3),
                 rules=_rules("ceaseless", "heavy=dash"))
    prof = Profile("m", 6, 7, 4, 10, 4, 32, weapons=(gun,))
    odds.clear_caches()
    exp = attacks.expected_for("kt2024")(gun, _Op(prof, 10), _Op(prof, 7),
                                         _Cover(in_cover, obscured))
    spec = AttackSpec(6, 5, 2, 3, _rules("ceaseless", "heavy=dash"))
    want = oracle.shoot_2024.__wrapped__(spec, DefenceSpec(3, 4, 7, in_cover, obscured))
    assert exp == float(want.mean)
