"""Exact odds: the probability of every damage total of one attack, by enumeration.

Nothing here samples. Each function walks every distinct dice outcome (grouped by multinomial
counts, which is exact) and applies the same rule steps the rolled mode uses
(:mod:`solo_ops.rules.kt2024`, :mod:`solo_ops.rules.kt2018`). Probabilities are
:class:`fractions.Fraction`, so results are exact; :meth:`Odds.to_json` turns them into floats.
Damage is capped at the target's wounds when they are given. Results are cached: the AI asks
the same question many times while planning.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from itertools import product
from math import factorial
from typing import Any

from solo_ops.core.model import DiceExpr
from solo_ops.rules import kt2018, kt2024
from solo_ops.rules.kt2024 import CRIT, FAIL, NORMAL, AttackSpec, DefenceSpec, Retained

Dist = dict[int, Fraction]


@dataclass(frozen=True)
class Odds:
    """An exact damage distribution and extra probabilities (``extras``, e.g. incapacitated)."""

    distribution: Dist
    extras: dict[str, Fraction] = field(default_factory=dict)

    @property
    def mean(self) -> Fraction:
        return sum((d * p for d, p in self.distribution.items()), Fraction(0))

    def to_json(self) -> dict[str, Any]:
        """``{"distribution": {"0": p, ...}, "mean": m, ...extras}`` with float values."""
        data: dict[str, Any] = {
            "distribution": {str(d): float(p) for d, p in sorted(self.distribution.items())},
            "mean": float(self.mean),
        }
        data.update({k: float(v) for k, v in self.extras.items()})
        return data


@dataclass(frozen=True)
class FightOdds:
    """A fight's exact joint distribution of (damage dealt, damage taken)."""

    joint: dict[tuple[int, int], Fraction]
    attacker_wounds: int | None = None
    defender_wounds: int | None = None

    @property
    def dealt(self) -> Odds:
        return Odds(_marginal(self.joint, 0), self._down(0, self.defender_wounds))

    @property
    def taken(self) -> Odds:
        return Odds(_marginal(self.joint, 1), self._down(1, self.attacker_wounds))

    def _down(self, index: int, wounds: int | None) -> dict[str, Fraction]:
        if wounds is None:
            return {}
        return {"p_incapacitated": sum((p for k, p in self.joint.items() if k[index] >= wounds),
                                       Fraction(0))}

    def to_json(self) -> dict[str, Any]:
        dealt, taken = self.dealt.to_json(), self.taken.to_json()
        return {
            "distribution": dealt["distribution"],
            "mean": dealt["mean"],
            "dealt": dealt,
            "taken": taken,
            "joint": [{"dealt": d, "taken": t, "p": float(p)}
                      for (d, t), p in sorted(self.joint.items())],
        }


def _marginal(joint: dict[tuple[int, int], Fraction], index: int) -> Dist:
    out: Dist = {}
    for key, p in joint.items():
        out[key[index]] = out.get(key[index], Fraction(0)) + p
    return dict(sorted(out.items()))


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
        free = kt2024.cover_saves(spec, defence, collected)
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


FIGHT_POLICIES = ("best", "strike")
"""The blocking policies a fight's odds can assume: ``best`` (the engine's and the AI's, both
sides play to maximise damage dealt minus damage taken, :func:`kt2024.resolve_fight`) and
``strike`` (both sides always strike, never block: :func:`strike_totals`)."""


def strike_totals(a: Retained, d: Retained, attacker: AttackSpec, defender: AttackSpec,
                  attacker_wounds: int | None, defender_wounds: int | None
                  ) -> tuple[int, int]:
    """``(dealt, taken)`` of a fight in which both sides always strike and never block: the
    attacker resolves first, then they alternate, each striking with a crit while it has one,
    then with normals; a side with no dice left lets the other strike with the rest; the
    fight stops when either side is out of wounds. Devastating is applied first (as in
    :func:`kt2024.fight_with_devastating`); Shock discards the opponent's unresolved normal
    (else crit) the first time a side strikes with a crit; Brutal changes nothing (nobody
    blocks)."""
    dev_a = kt2024.fight_devastating(attacker, a.crits, defender_wounds)
    dw = kt2024.NO_WOUNDS_CAP if defender_wounds is None else defender_wounds - dev_a
    dev_d = 0 if dw <= 0 else kt2024.fight_devastating(defender, d.crits, attacker_wounds)
    aw = kt2024.NO_WOUNDS_CAP if attacker_wounds is None else attacker_wounds - dev_d
    dice = [[a.crits, a.normals], [d.crits, d.normals]]
    wounds = [aw, dw]
    damage = [(attacker.crit, attacker.normal), (defender.crit, defender.normal)]
    shock = [attacker.has("shock"), defender.has("shock")]
    done = [dev_a, dev_d]
    turn = 0
    while wounds[0] > 0 and wounds[1] > 0 and any(dice[0] + dice[1]):
        if not any(dice[turn]):
            turn = 1 - turn  # a side with no dice left lets the other strike with the rest
        me, them = dice[turn], dice[1 - turn]
        if me[0]:
            me[0] -= 1
            hit = damage[turn][0]
            if shock[turn]:
                shock[turn] = False
                if them[1]:
                    them[1] -= 1
                elif them[0]:
                    them[0] -= 1
        else:
            me[1] -= 1
            hit = damage[turn][1]
        hit = min(hit, wounds[1 - turn])
        wounds[1 - turn] -= hit
        done[turn] += hit
        turn = 1 - turn
    return done[0], done[1]


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


# -- Kill Team 2018 --------------------------------------------------------------------------------


def dice_expr_2018(expr: DiceExpr, extra_die: bool = False) -> Dist:
    """Exact distribution of a number such as ``D3`` or ``2D6+1``; ``extra_die``: roll one more
    and discard the lowest (Concentrated Radius)."""
    if not expr.is_random:
        return {expr.plus: Fraction(1)}
    count = expr.count + (1 if extra_die else 0)
    each = Fraction(1, expr.sides**count)
    out: Dist = {}
    for faces in product(range(1, expr.sides + 1), repeat=count):
        kept = sorted(faces)[1:] if extra_die else faces
        _add(out, sum(kept) + expr.plus, each)
    return dict(sorted(out.items()))


def _chance(test: Any) -> Fraction:
    return Fraction(sum(1 for face in range(1, 7) if test(face)), 6)


@lru_cache(maxsize=4096)
def attack_2018(attack: kt2018.Attack2018, target: kt2018.Target2018) -> Odds:
    """Exact damage distribution of one Kill Team 2018 attack (all its shots), capped at the
    target's wounds. Extras: ``p_hit``, ``p_wound``, ``p_unsaved`` (per shot), ``p_down``
    (reduced to 0 wounds) and ``p_out_of_action`` (then the Injury roll, 4+ after modifiers,
    or a flesh wound with every box already marked)."""
    p_hit = _chance(lambda f: kt2018.hits(f, attack))
    p_wound = _chance(lambda f: kt2018.wounds(f, attack, target))
    p_fail_save = 1 - _chance(lambda f: kt2018.saves(f, attack, target))
    p = p_hit * p_wound * p_fail_save
    per_shot: Dist = {0: 1 - p}
    for dmg, q in dice_expr_2018(attack.damage).items():
        _add(per_shot, dmg, p * q)
    cap = target.wounds
    dist: Dist = {}
    for shots, ps in dice_expr_2018(attack.shots, attack.concentrated).items():
        total: Dist = {0: Fraction(1)}
        for _ in range(max(0, shots)):
            nxt: Dist = {}
            for have, a in total.items():
                if have >= cap:
                    _add(nxt, have, a)
                    continue
                for dmg, b in per_shot.items():
                    _add(nxt, min(cap, have + dmg), a * b)
            total = nxt
        for dmg, a in total.items():
            _add(dist, dmg, ps * a)
    p_down = dist.get(cap, Fraction(0))
    mods = kt2018.injury_modifiers(target.flesh_wounds, attack.injury_modifiers)
    bonus = sum(a for _, a in mods)
    p_ooa_given_down = _chance(lambda f: kt2018.after_injury(
        kt2018.injury_result(f + bonus), target.flesh_wounds) == "out_of_action")
    return Odds(dict(sorted(dist.items())), {
        "p_hit": p_hit, "p_wound": p_wound, "p_unsaved": p_fail_save, "p_down": p_down,
        "p_out_of_action": p_down * p_ooa_given_down,
    })


def injury_2018(flesh_wounds: int, extra: tuple[tuple[str, int], ...] = ()) -> dict[str,
                                                                                  Fraction]:
    """Exact chances of the Injury roll's two outcomes."""
    bonus = sum(a for _, a in kt2018.injury_modifiers(flesh_wounds, extra))
    ooa = _chance(lambda f: kt2018.after_injury(kt2018.injury_result(f + bonus),
                                                flesh_wounds) == "out_of_action")
    return {"flesh_wound": 1 - ooa, "out_of_action": ooa}
