"""Today's exact shooting odds (before the integer counting of ``solo_ops.rules.odds``), kept
verbatim as an oracle, and the shipped-style cases the fast path is checked and timed on.

The functions below are a copy of ``solo_ops/rules/odds.py`` at commit 416c933 (Fraction
arithmetic over grouped multinomial outcomes, the same rule steps of :mod:`kt2024`); only their
names and the cache-clearing helper are new.
``tests/rules/test_odds_integer_counting.py`` proves the fast path gives the same Fractions,
``bench/bench_odds.py`` times both (caches cleared between cases).
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from functools import cache, lru_cache
from math import factorial
from typing import Any

from solo_ops.rules import kt2024
from solo_ops.rules.kt2024 import CRIT, FAIL, NORMAL, AttackSpec, DefenceSpec, Retained
from solo_ops.rules.odds import FIGHT_POLICIES, FightOdds, Odds, strike_totals

Dist = dict[int, Fraction]


# -- combinatorics -----------------------------------------------------------------------------


def _compositions(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Every way to write ``total`` as an ordered sum of ``parts`` non-negative integers."""
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in _compositions(total - first, parts - 1):
            yield (first, *rest)


def _multinomial(counts: tuple[int, ...], probs: tuple[Fraction, ...]) -> Fraction:
    coef = factorial(sum(counts))
    p = Fraction(1)
    for c, q in zip(counts, probs, strict=True):
        coef //= factorial(c)
        if c:
            p *= q**c
    return coef * p


@lru_cache(maxsize=4096)
def _category_dist(count: int, pc: Fraction, pn: Fraction, pf: Fraction
                   ) -> dict[tuple[int, int, int], Fraction]:
    """``count`` independent dice each crit / normal / fail with these chances."""
    out: dict[tuple[int, int, int], Fraction] = {}
    for c, n, f in _compositions(count, 3):
        p = _multinomial((c, n, f), (pc, pn, pf))
        if p:
            out[(c, n, f)] = p
    return out


def _add(into: dict[Any, Fraction], key: Any, p: Fraction) -> None:
    into[key] = into.get(key, Fraction(0)) + p


# -- Kill Team 2024 --------------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def attack_dice_2024(spec: AttackSpec) -> dict[tuple[int, int, int], Fraction]:
    """Exact distribution of (crits, normal hits, fails) after Accurate and the re-roll
    policy, before :func:`kt2024.after_roll`."""
    accurate = min(spec.accurate, spec.attacks)
    rolled = spec.attacks - accurate
    sixth = Fraction(1, 6)
    kinds = {face: kt2024.classify(face, spec) for face in range(1, 7)}
    fail_faces = [f for f in range(1, 7) if kinds[f] == FAIL]
    pc = sixth * sum(1 for k in kinds.values() if k == CRIT)
    pn = sixth * sum(1 for k in kinds.values() if k == NORMAL)
    pf = sixth * len(fail_faces)
    out: dict[tuple[int, int, int], Fraction] = {}
    if spec.has("relentless"):
        each = (pc + pf * pc, pn + pf * pn, pf * pf)
        for (c, n, f), p in _category_dist(rolled, *each).items():
            _add(out, (c, n + accurate, f), p)
        return out
    parts = len(fail_faces) + 2  # each failing face, then normal, then crit
    probs = tuple([sixth] * len(fail_faces) + [pn, pc])
    for counts in _compositions(rolled, parts):
        p = _multinomial(counts, probs)
        if not p:
            continue
        fails = counts[:-2]
        n0, c0, f0 = counts[-2], counts[-1], sum(fails)
        stages: dict[tuple[int, int, int], Fraction] = {(c0, n0 + accurate, f0): p}
        rerolled = 0
        if spec.has("ceaseless") and f0:
            value = kt2024.ceaseless_value(
                face for face, k in zip(fail_faces, fails, strict=True) for _ in range(k))
            rerolled = fails[fail_faces.index(value)] if value is not None else 0
            stages = _reroll(stages, rerolled, pc, pn, pf)
        if spec.has("balanced") and f0 - rerolled > 0:
            stages = _reroll(stages, 1, pc, pn, pf)
        for key, q in stages.items():
            _add(out, key, q)
    return out


def _reroll(stages: dict[tuple[int, int, int], Fraction], k: int, pc: Fraction,
            pn: Fraction, pf: Fraction) -> dict[tuple[int, int, int], Fraction]:
    """Re-roll ``k`` failed dice in every outcome of ``stages``."""
    if not k:
        return stages
    out: dict[tuple[int, int, int], Fraction] = {}
    again = _category_dist(k, pc, pn, pf)
    for (c, n, f), p in stages.items():
        for (dc, dn, df), q in again.items():
            _add(out, (c + dc, n + dn, f - k + df), p * q)
    return out


def retained_2024(spec: AttackSpec, obscured: bool = False) -> dict[Retained, Fraction]:
    """Exact distribution of the retained dice after :func:`kt2024.after_roll`."""
    out: dict[Retained, Fraction] = {}
    for (c, n, f), p in attack_dice_2024(spec).items():
        kept = kt2024.after_roll(c, n, f, spec, obscured)
        _add(out, Retained(kept.crits, kept.normals, kept.fails), p)
    return out


@lru_cache(maxsize=256)
def save_dice(count: int, save: int) -> dict[tuple[int, int], Fraction]:
    """Exact distribution of (crit saves, normal saves) on ``count`` defence dice."""
    sixth = Fraction(1, 6)
    pc, pn, pf = sixth, sixth * (6 - save), sixth * (save - 1)
    return {(c, n): p for (c, n, _f), p in _category_dist(count, pc, pn, pf).items()}


@lru_cache(maxsize=8192)
def shoot_2024(spec: AttackSpec, defence: DefenceSpec) -> Odds:
    """Exact damage distribution of one Kill Team 2024 shooting attack (target only; the
    distance form of Devastating's splash and Hot are separate). Extras: ``p_incapacitated``
    (with wounds), ``p_crit`` (a crit retained: Stun, Piercing Crits), ``hot_mean``."""
    dist: Dist = {}
    p_crit = Fraction(0)
    for kept, p in retained_2024(spec, defence.obscured).items():
        if kept.crits:
            p_crit += p
        collected = kt2024.defence_dice_count(spec, defence, kept.crits)
        free = kt2024.cover_saves(spec, defence, collected, kept)
        for (cs, ns), q in save_dice(collected - free, defence.save).items():
            damage, _ = kt2024.shot_damage(spec, defence, kept, cs, ns + free)
            _add(dist, damage, p * q)
    extras: dict[str, Fraction] = {"p_crit": p_crit}
    if defence.wounds is not None:
        extras["p_incapacitated"] = dist.get(defence.wounds, Fraction(0))
    if spec.has("hot"):
        extras["hot_mean"] = Odds(hot_2024(spec.hit)).mean
    return Odds(dict(sorted(dist.items())), extras)


def hot_2024(hit: int) -> Dist:
    """Hot's self-damage distribution for a weapon with Hit stat ``hit``."""
    out: Dist = {}
    for face in range(1, 7):
        _add(out, kt2024.hot_damage(face, hit), Fraction(1, 6))
    return dict(sorted(out.items()))





@lru_cache(maxsize=2048)
def fight_2024(attacker: AttackSpec, defender: AttackSpec, attacker_wounds: int | None,
               defender_wounds: int | None, policy: str = "best") -> FightOdds:
    """Exact joint distribution of (damage dealt, damage taken) in a fight, under the policy of
    :func:`kt2024.resolve_fight` (``policy="best"``: both sides play to maximise damage dealt
    minus damage taken) or with both sides always striking (``policy="strike"``,
    :func:`strike_totals`). Every pair of retained dice is looked up in the fight's dynamic
    programme (states: dice and wounds left), so the cost grows with the number of states,
    not with the number of ways to play them out."""
    if policy not in FIGHT_POLICIES:
        raise ValueError(f"fight policy must be one of {', '.join(FIGHT_POLICIES)}, "
                         f"got {policy!r}")
    joint: dict[tuple[int, int], Fraction] = {}
    ra, rd = retained_2024(attacker), retained_2024(defender)
    for ka, p in ra.items():
        # the same damage pair from several defender dice: add their chances, multiply once
        row: dict[tuple[int, int], Fraction] = {}
        for kd, q in rd.items():
            if policy == "strike":
                _add(row, strike_totals(ka, kd, attacker, defender, attacker_wounds,
                                        defender_wounds), q)
                continue
            out, _ = kt2024.fight_with_devastating(attacker, defender, ka, kd,
                                                   attacker_wounds, defender_wounds,
                                                   steps=False)
            _add(row, (out.dealt, out.taken), q)
        for key, q in row.items():
            _add(joint, key, p * q)
    return FightOdds(dict(sorted(joint.items())), attacker_wounds, defender_wounds)


# -- the shipped-style cases -----------------------------------------------------------------------

VARIANTS = ("accurate=1", "balanced", "relentless", "stun", "punishing", "severe",
            "devastating=1", "piercing_crits=1", "accurate=2", "lethal=5", "rending",
            "brutal", "saturate", "piercing=1", "ceaseless", "balanced+lethal=5",
            "relentless+rending")
"""Weapon rules added to shipped weapons for the cases beyond the shipped ones, so that every
rule that changes dice is timed and checked (the shipped data use only some of them)."""

COVER = ((False, False), (True, False), (False, True), (True, True))
"""(in cover, obscured) in turn."""


@cache
def shipped_profiles() -> tuple[Any, ...]:
    """Every Kill Team 2024 profile of the shipped rosters and squads, in file order (read
    once)."""
    from solo_ops.io import library
    from solo_ops.io.roster import load_roster, parse_profile
    from solo_ops.io.yamlio import read_document

    out: list[Any] = []
    for item in library.shipped("roster"):
        out.extend(load_roster(item.path).profiles.values())
    for item in library.shipped("squad"):
        doc = read_document(item.path)
        for i, model in enumerate(doc.get("models", [])):
            if isinstance(model.get("profile"), dict):
                out.append(parse_profile(model["profile"], str(item.path),
                                         f"models[{i}].profile", str(model.get("id"))))
    return tuple(p.for_edition("kt2024") for p in out)


def _weapons(melee: bool) -> list[AttackSpec]:
    """The distinct attack specs of the shipped weapons (ranged or melee), sorted."""
    specs = set()
    for prof in shipped_profiles():
        for w in prof.weapons:
            if w.attacks is None or (w.type.value == "melee") != melee:
                continue
            specs.add(AttackSpec.from_weapon(w))
    return sorted(specs, key=repr)


def _defences() -> list[tuple[int, int]]:
    """The distinct (save, wounds) of the shipped profiles, with 6+ saves added (3+..6+)."""
    found = {(p.save, p.wounds) for p in shipped_profiles() if 2 <= p.save <= 6}
    found |= {(6, 7), (6, 10)}
    return sorted(found)


def shipped_cases(count: int = 51) -> list[tuple[AttackSpec, DefenceSpec]]:
    """``count`` shooting cases built deterministically from the shipped data: every distinct
    shipped ranged weapon against the shipped defences (3 dice, Save 3+..6+, their wounds), in
    cover or not, obscured or not, then shipped weapons with one more rule from
    :data:`VARIANTS` (so Accurate, Balanced, Relentless, Stun, Punishing, Severe... are
    covered), some injured (Hit +1) as the AI asks."""
    from solo_ops.core.model import parse_weapon_rule

    weapons, defences = _weapons(False), _defences()
    out: list[tuple[AttackSpec, DefenceSpec]] = []
    i = 0
    while len(out) < count:
        spec = weapons[i % len(weapons)]
        save, wounds = defences[(i * 5) % len(defences)]
        cover, obscured = COVER[i % len(COVER)]
        rounds = i // len(weapons)
        if rounds >= 2:  # beyond two rounds of the shipped weapons: one rule more each
            extra = VARIANTS[(i - 2 * len(weapons)) % len(VARIANTS)].split("+")
            spec = AttackSpec(spec.attacks, spec.hit, spec.normal, spec.crit,
                              spec.rules + tuple(parse_weapon_rule(r) for r in extra),
                              injured=i % 3 == 0)
        out.append((spec, DefenceSpec(3, save, wounds, cover, obscured)))
        i += 1
    return out


def shipped_fights(count: int = 24) -> list[tuple[AttackSpec, AttackSpec, int, int]]:
    """``count`` fights between shipped melee weapons with the shipped wounds, deterministic."""
    weapons = _weapons(True)
    wounds = sorted({p.wounds for p in shipped_profiles()})
    out = []
    for i in range(count):
        a = weapons[i % len(weapons)]
        d = weapons[(i * 7 + 3) % len(weapons)]
        out.append((a, d, wounds[i % len(wounds)], wounds[(i * 3 + 1) % len(wounds)]))
    return out


def clear_caches() -> None:
    """Forget every cached result of the copy above and of the fight solver in ``kt2024``."""
    for fn in (_category_dist, attack_dice_2024, save_dice, shoot_2024, fight_2024,
               kt2024._solver):
        fn.cache_clear()
