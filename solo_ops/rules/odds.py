"""Exact odds: the probability of every damage total of one attack, by enumeration.

Nothing here samples. Each function walks every distinct dice outcome (grouped by multinomial
counts, which is exact) and applies the same rule steps the rolled mode uses
(:mod:`solo_ops.rules.kt2024`, :mod:`solo_ops.rules.kt2018`). Kill Team 2024 outcomes are
counted as whole numbers over a power of six and turned into :class:`fractions.Fraction` once,
at the end, so results are exact (the same Fractions as multiplying chances step by step,
which ``tests/rules/test_odds_integer_counting.py`` checks); :meth:`Odds.to_json` turns them
into floats. Damage is capped at the target's wounds when they are given. Results are cached:
the AI asks the same question many times while planning; :func:`clear_caches` forgets them
all.
"""

from __future__ import annotations

import sys
from array import array
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, lru_cache
from math import factorial
from typing import Any

from solo_ops.core.limits import bounds
from solo_ops.rules import kt2024
from solo_ops.rules.kt2024 import AttackSpec, DefenceSpec, Retained

Dist = dict[int, Fraction]


@dataclass(frozen=True)
class Odds:
    """An exact damage distribution and extra probabilities (``extras``, e.g. incapacitated)."""

    distribution: Dist
    extras: dict[str, Fraction] = field(default_factory=dict)
    known_mean: Fraction | None = field(default=None, compare=False, repr=False)
    """The mean when whoever made the distribution already knows it (counted exactly, it is
    the same Fraction as summing the distribution, and cheaper)."""

    @property
    def mean(self) -> Fraction:
        if self.known_mean is not None:
            return self.known_mean
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
    """A fight's exact joint distribution of (damage dealt, damage taken).

    Its marginals (:attr:`dealt`, :attr:`taken`) are worked out once per object and kept with
    it (the fight solver's results are cached, and the AI asks the same fight's means again and
    again while planning); like every :class:`Odds` they are read, never changed."""

    joint: dict[tuple[int, int], Fraction]
    attacker_wounds: int | None = None
    defender_wounds: int | None = None

    @cached_property
    def dealt(self) -> Odds:
        """The distribution of the damage the attacker deals (its mean counted once)."""
        return _with_mean(_marginal(self.joint, 0), self._down(0, self.defender_wounds))

    @cached_property
    def taken(self) -> Odds:
        """The distribution of the damage the attacker takes (its mean counted once)."""
        return _with_mean(_marginal(self.joint, 1), self._down(1, self.attacker_wounds))

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


def _with_mean(distribution: Dist, extras: dict[str, Fraction]) -> Odds:
    """``Odds(distribution, extras)`` with its mean worked out now (the same Fraction
    :attr:`Odds.mean` sums: Fraction arithmetic is exact)."""
    plain = Odds(distribution, extras)
    return Odds(distribution, extras, known_mean=plain.mean)


def _marginal(joint: dict[tuple[int, int], Fraction], index: int) -> Dist:
    out: Dist = {}
    for key, p in joint.items():
        out[key[index]] = out.get(key[index], Fraction(0)) + p
    return dict(sorted(out.items()))


# -- counting outcomes -----------------------------------------------------------------------------
#
# Every die has six equally likely faces, so every chance below is a whole number of outcomes
# over a power of six: the odds count outcomes as integers (one multinomial coefficient times
# the number of faces of each kind) and make one Fraction per result at the very end. The
# numbers are exactly those of multiplying Fractions step by step
# (tests/rules/test_odds_integer_counting.py compares both), about a hundred times faster.

_MOST_DICE = 12
"""Attack dice a weapon can roll (``core.limits``: attacks 0..12); tables below go this far."""

NO_CAP = 10**9
"""Stands in for "no wound limit" when capping damage (no attack deals this much)."""

_FACT = tuple(factorial(i) for i in range(2 * _MOST_DICE + 2))


def _most_common_ways(faces: int = 5, most: int = _MOST_DICE
                      ) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """``MOST_COMMON_WAYS[m][f][r]``: of the ``m**f`` ways ``f`` failed dice can show ``m``
    failing faces, how many have ``r`` dice on the most common face (Ceaseless re-rolls exactly
    those; on a tie the lowest face, which has as many). Pure combinatorics, the same for every
    attack, built once when the module is imported (a few thousand additions)."""
    out: list[tuple[tuple[int, ...], ...]] = []
    states: dict[tuple[int, int], int] = {(0, 0): 1}  # (dice placed, most on one face): ways
    for m in range(faces + 1):
        if m:
            grown: dict[tuple[int, int], int] = {}
            for (s, top), ways in states.items():
                for j in range(most - s + 1):
                    key = (s + j, top if top >= j else j)
                    grown[key] = grown.get(key, 0) + ways * (_FACT[s + j]
                                                             // (_FACT[s] * _FACT[j]))
            states = grown
        table = [[0] * (most + 1) for _ in range(most + 1)]
        for (s, top), ways in states.items():
            table[s][top] += ways
        out.append(tuple(tuple(row) for row in table))
    return tuple(out)


MOST_COMMON_WAYS = _most_common_ways()
"""``MOST_COMMON_WAYS[m][f][r]``: how many of the ways ``f`` failed dice show ``m`` failing
faces put ``r`` dice on the most common face (what Ceaseless re-rolls; see
:func:`_most_common_ways`)."""


def _multinomials(most: int) -> tuple[tuple[tuple[int, int, int, int], ...], ...]:
    """For each number of dice up to ``most``: every ``(c, n, f, count! / (c! n! f!))`` with
    ``c + n + f`` the dice, ``c`` then ``n`` ascending (the ways to split them into crits,
    normals and fails, before the faces of each kind are counted)."""
    fact = tuple(factorial(i) for i in range(most + 1))
    return tuple(tuple((c, n, count - c - n,
                        fact[count] // (fact[c] * fact[n] * fact[count - c - n]))
                       for c in range(count + 1) for n in range(count - c + 1))
                 for count in range(most + 1))


_SPLITS = _multinomials(2 * _MOST_DICE + 1)
""":func:`_multinomials` of every pool a weapon or a defence rolls (``core.limits``)."""


def _rule_names(spec: AttackSpec) -> frozenset[str]:
    """The names of ``spec``'s rules (worked out once per attack: every step asks)."""
    return frozenset(rule.name for rule in spec.rules)


_Hits = tuple[tuple[int, int, int], ...] | list[tuple[int, int, int]]
"""``(crits, normals, ways)`` of a pool of dice, one entry per distinct ``(crits, normals)``
(the failed dice are the rest), crits then normals ascending where a table made them."""


def _kinds(count: int, wc: int, wn: int, wf: int) -> tuple[tuple[int, int, int], ...]:
    """``(crits, normals, ways)`` of ``count`` dice whose faces are ``wc`` crits, ``wn``
    normals and ``wf`` fails (ways out of ``(wc + wn + wf) ** count``), crits then normals
    ascending; outcomes with no way are left out, as the Fraction version left out zero
    chances."""
    splits = _SPLITS[count] if count < len(_SPLITS) else _multinomials(count)[count]
    span = range(count + 1)
    pc, pn, pf = [wc**i for i in span], [wn**i for i in span], [wf**i for i in span]
    return tuple((c, n, ways) for c, n, f, k in splits if (ways := k * pc[c] * pn[n] * pf[f]))


_ROLLED = {faces: tuple(_kinds(count, *faces) for count in range(_MOST_DICE + 1))
           for faces in ((7 - crit_at, kn, crit_at - 1 - kn)
                         for crit_at in range(2, 7) for kn in range(crit_at - 1))}
"""``_ROLLED[(crit faces, normal faces, failing faces)][count]``: the :data:`_Hits` of
``count`` attack dice with no re-roll, out of ``6 ** count``, for every kind of attack die
(crits from Lethal's ``crit_at``+, 2+..6+; normal hits from the Hit stat below it; a 1 always
fails: :func:`kt2024_dice.classify`): the same for every attack, built once when the module is
imported (5,005 outcomes)."""

_SAVES = {save: tuple(_kinds(count, 1, 6 - save, save - 1)
                      for count in range(bounds("defence_dice")[1] + 1))
          for save in range(bounds("save")[0], bounds("save")[1] + 1)}
"""``_SAVES[save][count]``: ``(crit saves, normal saves, ways)`` of ``count`` defence dice
(``core.limits``: 0..12) with Save ``save``+ (2+..6+: a 6 a crit save, ``save``+ a normal
one, :func:`kt2024_dice.classify_save`), out of ``6 ** count``; built at import."""


def _by_saves(rolls: tuple[tuple[int, int, int], ...]) -> tuple[tuple[int, int], ...]:
    """``(saves, ways)`` of defence ``rolls``, crit and normal saves together (all an attack
    that retained no crit needs to know: each save blocks a normal hit)."""
    out: dict[int, int] = {}
    for cs, ns, ways in rolls:
        out[cs + ns] = out.get(cs + ns, 0) + ways
    return tuple(out.items())


_SAVE_TOTALS = {save: tuple(_by_saves(roll) for roll in rolls) for save, rolls in _SAVES.items()}
"""``_SAVE_TOTALS[save][count]``: :func:`_by_saves` of ``_SAVES[save][count]``; built at
import."""

_SLOTS = tuple(tuple((c, n, c + n * (rolled + 1)) for c in range(rolled + 1)
                     for n in range(rolled - c + 1)) for rolled in range(_MOST_DICE + 1))
"""``_SLOTS[rolled]``: ``(crits, normals, slot)`` of every outcome of ``rolled`` dice in the
Kronecker packing of :func:`_rolled_counts` (``x**c y**n`` in slot ``c + n * (rolled + 1)``)."""

_SLOT_CODES = tuple(next((code for code in "BHILQ" if array(code).itemsize >= size), "")
                    for size in range(9))
"""``_SLOT_CODES[bytes]``: the :mod:`array` type code of the smallest unsigned machine integer
with at least that many bytes (none past 8), to read a packed integer's slots at once."""

_HOT_MEANS = {hit: Fraction(sum(kt2024.hot_damage(face, hit) for face in range(1, 7)), 6)
              for hit in range(bounds("hit")[0], bounds("hit")[1] + 1)}
"""Hot's mean self-damage for each Hit stat an attack can have (``core.limits``: 2+..6+)."""


def _rolled_counts(spec: AttackSpec, names: frozenset[str], one_kind: bool = False
                   ) -> tuple[_Hits, int, int]:
    """The :data:`_Hits` of the rolled attack dice after the re-roll policy, the number all the
    ways are out of (a power of six), and Accurate's dice (retained as normal hits unrolled, not
    in the hits). ``names``: the names of the spec's rules (:func:`_rule_names`). ``one_kind``:
    count every hit as a crit (the re-rolls only read the failed dice), for Obscured, after
    which only the number of hits matters. Without a re-roll the hits are a table's
    (:data:`_ROLLED`): read them, never change them."""
    accurate = spec.accurate if "accurate" in names or spec.accurate_bonus else 0
    accurate = min(accurate, spec.attacks)
    rolled = spec.attacks - accurate
    crit_at = spec.crit_needed if "lethal" in names else 6
    kc = 7 - crit_at  # faces crit_at..6 (kt2024_dice.classify: a 1 always fails)
    kn = max(0, crit_at - spec.hit_needed)
    kf = 6 - kc - kn
    if one_kind:
        kc, kn = kc + kn, 0
    if "relentless" in names:  # every failed die re-rolled once: 36 ways a die
        return _kinds(rolled, kc * (6 + kf), kn * (6 + kf), kf * kf), 36**rolled, accurate
    ceaseless, balanced = "ceaseless" in names, "balanced" in names
    if not (ceaseless or balanced):
        return _ROLLED[(kc, kn, kf)][rolled], 6**rolled, accurate
    # Ceaseless re-rolls the r dice of the most common failed face, then Balanced one failed
    # die not yet re-rolled. Everything is a polynomial in x (a crit) and y (a normal hit),
    # packed into one integer with a slot of ``bits`` bits for each x**c * y**n (Kronecker
    # substitution), so adding dice is multiplying integers. The first roll with f failed
    # dice is C(rolled, f) * (kc x + kn y) ** (rolled - f); it joins group k, the number of
    # dice then re-rolled, with the ways its failed faces give k; group k gains
    # (kc x + kn y + kf) ** k for the re-rolled dice. All is counted out of
    # 6 ** (rolled + most re-rolls): one Horner sum.
    most = (rolled if ceaseless else 0) + (1 if balanced else 0)
    total = 6 ** (rolled + most)
    size = (total.bit_length() + 8) // 8  # bytes a slot: no slot ever holds more than total
    code = _SLOT_CODES[size] if size < len(_SLOT_CODES) else ""
    if code:  # slots read as one machine array (its whole number of bytes a slot)
        size = array(code).itemsize
    bits = 8 * size
    stride = rolled + 1  # x**c y**n sits in slot c + n * stride (c + n <= rolled)
    hits = (kc << bits) + (kn << (bits * stride))
    powers = [1]
    for _ in range(rolled):
        powers.append(powers[-1] * hits)
    groups = [0] * (most + 1)
    ways_f = MOST_COMMON_WAYS[kf]
    fact = _FACT
    for f in range(rolled + 1):
        first = fact[rolled] // (fact[f] * fact[rolled - f]) * powers[rolled - f]
        if ceaseless and f:
            for r in range(1, f + 1):  # at least one die on the most common face, at most f
                w = ways_f[f][r]
                if w:
                    groups[r + (1 if balanced and f > r else 0)] += first * w
        else:
            groups[1 if balanced and f else 0] += first * kf**f
    die = hits + kf
    acc = groups[most]
    for k in range(most - 1, -1, -1):
        acc = acc * die + groups[k] * 6 ** (most - k)
    raw = acc.to_bytes(size * stride * stride, "little")
    if code:
        slots = array(code, raw)
        if sys.byteorder == "big":
            slots.byteswap()
        out = [(c, n, ways) for c, n, at in _SLOTS[rolled] if (ways := slots[at])]
    else:
        out = [(c, n, ways) for c, n, at in _SLOTS[rolled]
               if (ways := int.from_bytes(raw[size * at:size * (at + 1)], "little"))]
    return out, total, accurate


def _retained_counts(spec: AttackSpec, obscured: bool, names: frozenset[str] | None = None
                     ) -> tuple[_Hits, int]:
    """The :data:`_Hits` of the attack dice after Accurate and :func:`kt2024_dice.after_roll`
    (its steps written out here, in its order: Obscured, Punishing, Rending, Severe), and the
    denominator. A table's hits when nothing changes them: read them, never change them."""
    names = _rule_names(spec) if names is None else names
    if obscured:  # every crit a normal hit, then one normal hit discarded: no crit is retained
        hits, den, accurate = _rolled_counts(spec, names, one_kind=True)
        normals: dict[int, int] = {}
        for h, _n, ways in hits:
            n = h + accurate - 1 if h + accurate else 0
            normals[n] = normals.get(n, 0) + ways
        return [(0, n, ways) for n, ways in normals.items()], den
    hits, den, accurate = _rolled_counts(spec, names)
    punishing, rending, severe = "punishing" in names, "rending" in names, "severe" in names
    if not (punishing or rending or severe):
        return (hits if not accurate else [(c, n + accurate, ways) for c, n, ways in hits]), den
    attacks = spec.attacks  # the failed dice: attacks - crits - normals
    out: dict[tuple[int, int], int] = {}
    for c, n, ways in hits:
        n += accurate
        if punishing and c and c + n < attacks:
            n += 1
        if rending and c and n:
            n -= 1
            c += 1
        if severe and not c and n:
            n -= 1
            c += 1
        key = (c, n)
        out[key] = out.get(key, 0) + ways
    return [(c, n, ways) for (c, n), ways in out.items()], den


def add_probability(into: dict[Any, Fraction], key: Any, p: Fraction) -> None:
    """Add the chance ``p`` to ``into[key]`` (a distribution being summed)."""
    into[key] = into.get(key, Fraction(0)) + p


# -- Kill Team 2024 --------------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def attack_dice_2024(spec: AttackSpec) -> dict[tuple[int, int, int], Fraction]:
    """Exact distribution of (crits, normal hits, fails) after Accurate and the re-roll
    policy, before :func:`kt2024_dice.after_roll`."""
    hits, den, accurate = _rolled_counts(spec, _rule_names(spec))
    rolled = spec.attacks - accurate
    return {(c, n + accurate, rolled - c - n): Fraction(ways, den) for c, n, ways in hits}


def retained_2024(spec: AttackSpec, obscured: bool = False) -> dict[Retained, Fraction]:
    """Exact distribution of the retained dice after :func:`kt2024_dice.after_roll`."""
    hits, den = _retained_counts(spec, obscured)
    return {Retained(c, n, spec.attacks - c - n): Fraction(ways, den) for c, n, ways in hits}


@lru_cache(maxsize=256)
def save_dice(count: int, save: int) -> dict[tuple[int, int], Fraction]:
    """Exact distribution of (crit saves, normal saves) on ``count`` defence dice."""
    den = 6**count
    return {(c, n): Fraction(ways, den) for c, n, ways in _kinds(count, 1, 6 - save, save - 1)}


_Roll = list[tuple[int, int, int]]
"""``(crit saves, normal saves, ways)`` of the defence, out of ``6 ** dice``."""


def _defence_rolls(defence: DefenceSpec, cuts: tuple[int, int], brutal: bool, saturate: bool
                   ) -> tuple[int, int, int, _Roll, _Roll | None]:
    """How the defence rolls: the Save its dice read with (Brutal: only crit saves block, as
    with a Save of 6+); the dice rolled and the normal saves retained unrolled when no crit is
    retained (Piercing removes ``cuts[0]`` dice); the :data:`_Roll` when a crit is retained
    (Piercing Crits: ``cuts[1]``); and when a crits-only attack leaves the cover save useless
    (:func:`kt2024_dice.cover_useless`: no pair can form), the roll of every collected die
    instead, else None. In cover one collected die is a normal save retained unrolled
    (:func:`kt2024_dice.cover_saves`: none with Saturate or Brutal, or when no die is left)."""
    save = 6 if brutal else defence.save
    rolled: list[int] = []
    free: list[int] = []
    for cut in cuts:  # kt2024_dice.defence_dice_count
        collected = max(0, defence.dice - cut)
        free.append(1 if defence.cover and not saturate and collected > 0 and not brutal else 0)
        rolled.append(collected - free[-1])
    scale = 6 ** (defence.dice - rolled[1])
    rolls = [(cs, ns + free[1], w * scale) for cs, ns, w in _SAVES[save][rolled[1]]]
    every = None
    if free[1] and (rolled[1] == 0 or defence.save >= 6):
        every = [(cs, ns, w * scale // 6) for cs, ns, w in _SAVES[save][rolled[1] + 1]]
    return save, rolled[0], free[0], rolls, every


def _shot_counts(spec: AttackSpec, defence: DefenceSpec
                 ) -> tuple[dict[int, int], int, int, int]:
    """The counting core of :func:`shoot_2024`: ``(damage -> ways, ascending; denominator; ways
    with a crit retained; its denominator)``. Saves are allocated as
    :func:`kt2024_dice.allocate_saves` does (the least damage), worked out directly when a crit
    does at least a normal hit's damage (crit saves on crits first, then the normal saves:
    pairs on crits while a pair is worth more, see :func:`least_damage`), else by that function
    itself. The defence dice collected depend on whether a crit was retained
    (:func:`_defence_rolls`)."""
    names = _rule_names(spec)
    hits, den = _retained_counts(spec, defence.obscured, names)
    pierce = spec.value("piercing") if "piercing" in names else 0
    cuts = (pierce, max(pierce, spec.value("piercing_crits"))
            if "piercing_crits" in names else pierce)
    brutal = "brutal" in names
    save, rolled0, free0, rolls1, every = _defence_rolls(defence, cuts, brutal,
                                                         "saturate" in names)
    only_roll = rolls1 if every is None else every  # what a crits-only attack meets
    dice = defence.dice
    nd, cd = spec.normal, spec.crit
    dev = spec.devastating if "devastating" in names else 0
    cap = NO_CAP if defence.wounds is None else defence.wounds
    whole = 6**dice
    with_crit = 0
    if cd < nd:  # rare: let kt2024_dice.allocate_saves itself find the least damage
        scale0 = 6 ** (dice - rolled0)
        rolls0 = [(cs, ns + free0, w * scale0) for cs, ns, w in _SAVES[save][rolled0]]
        dist: dict[int, int] = {}
        for c, n, ways in hits:
            with_crit += ways if c else 0
            roll = only_roll if c and not n else rolls1 if c else rolls0 if n else [(0, 0, whole)]
            for cs, ns, w in roll:
                damage = dev * c + kt2024.allocate_saves(c, n, cs, ns, nd, cd, brutal).damage
                damage = damage if damage < cap else cap
                dist[damage] = dist.get(damage, 0) + ways * w
        return dict(sorted(dist.items())), den * whole, with_crit, den
    top = (dev + cd) * spec.attacks  # no more damage than every die a crit, none blocked
    if cap > top:
        cap = top
    hist = [0] * (cap + 1)
    normals: list[tuple[int, int]] = []  # (normal hits, ways) of the attacks with no crit
    crits: list[tuple[int, int, int, int]] = []  # (crits, normals, ways, Devastating's damage)
    only: list[tuple[int, int, int, int]] = []  # the same with no normal hit, if it differs
    for c, n, ways in hits:
        if c:
            with_crit += ways
            (only if every is not None and not n else crits).append((c, n, ways, dev * c))
        elif n:
            normals.append((n, ways))
        else:
            hist[0] = ways * whole  # no hit: no damage, whatever the saves
    if normals:
        _add_no_crit(hist, normals, _SAVE_TOTALS[save][rolled0], free0,
                     6 ** (dice - rolled0), nd, cap)
    for items, roll in ((crits, rolls1), (only, only_roll)):
        if items:
            _add_crits(hist, items, roll, nd, cd, cap)
    return {d: ways for d, ways in enumerate(hist) if ways}, den * whole, with_crit, den


def _add_crits(hist: list[int], items: list[tuple[int, int, int, int]], roll: _Roll, nd: int,
               cd: int, cap: int) -> None:
    """Add to ``hist`` the damage of the attacks that retained a crit (``(crits, normals,
    ways, Devastating's damage)``) against the defence ``roll``, ``cd >= nd``: :func:`least_damage`
    written out (this loop is the hot path of the AI's expected damage)."""
    double = cd >= 2 * nd
    for cs, ns, w in roll:
        half = ns >> 1
        saves = cs + ns
        for c, n, ways, base in items:
            if c <= cs:  # every crit blocked by a crit save, no crit left for pairs
                over = c + n - saves
                damage = base + over * nd if over > 0 else base
            else:
                cr = c - cs
                if ns:
                    pairs = half if half < cr else cr
                    if not double:
                        enough = (ns - n + 1) >> 1
                        if enough < pairs:
                            pairs = enough if enough > 0 else 0
                    singles = ns - 2 * pairs
                    if singles > n:
                        singles = n
                    damage = base + (cr - pairs) * cd + (n - singles) * nd
                else:
                    damage = base + cr * cd + n * nd
            hist[damage if damage < cap else cap] += ways * w


def _add_no_crit(hist: list[int], normals: list[tuple[int, int]],
                 totals: tuple[tuple[int, int], ...], free: int, scale: int, nd: int,
                 cap: int) -> None:
    """Add to ``hist`` the damage of the attacks that retained no crit (``(normal hits,
    ways)``) against the defence's ``(saves rolled, ways)`` (:data:`_SAVE_TOTALS`), with ``free``
    saves retained unrolled and every ways times ``scale``: each save, crit or normal, blocks a
    normal hit (:func:`least_damage` with no crits), so only how many saves there are
    matters."""
    for saves, w in totals:
        saves += free
        w *= scale
        for n, ways in normals:
            over = (n - saves) * nd
            hist[(over if over < cap else cap) if over > 0 else 0] += ways * w


def least_damage(crits: int, normals: int, crit_saves: int, normal_saves: int, nd: int,
                 cd: int) -> int:
    """The damage :func:`kt2024_dice.allocate_saves` lets through when ``cd >= nd``: crit saves
    block crits first (a crit save on a normal hit while a crit got through could be moved to
    the crit for no less), the rest block normal hits; then ``p`` pairs of normal saves block
    crits and the rest block normal hits, ``p`` as large as it can be when a crit is worth two
    normal hits or more, else just enough to use the saves the normal hits leave (an odd one
    left over still makes a pair with one that would block a normal hit: ``cd >= nd``)."""
    a = crit_saves if crit_saves < crits else crits
    crits -= a
    b = crit_saves - a
    normals -= b if b < normals else normals
    if not normal_saves:
        return crits * cd + normals * nd
    pairs = normal_saves // 2
    if pairs > crits:
        pairs = crits
    if cd < 2 * nd:
        enough = (normal_saves - normals + 1) // 2
        if enough < pairs:
            pairs = enough if enough > 0 else 0
    singles = normal_saves - 2 * pairs
    if singles > normals:
        singles = normals
    return (crits - pairs) * cd + (normals - singles) * nd


def _shoot_2024(spec: AttackSpec, defence: DefenceSpec) -> Odds:
    """:func:`shoot_2024` without its cache."""
    dist_ways, den, crit_ways, crit_den = _shot_counts(spec, defence)
    dist = {d: Fraction(ways, den) for d, ways in dist_ways.items()}
    extras: dict[str, Fraction] = {"p_crit": Fraction(crit_ways, crit_den)}
    if defence.wounds is not None:
        down = dist.get(defence.wounds)
        extras["p_incapacitated"] = Fraction(0) if down is None else down
    if spec.has("hot"):
        extras["hot_mean"] = _HOT_MEANS[spec.hit]
    mean = Fraction(sum(d * ways for d, ways in dist_ways.items()), den)
    return Odds(dist, extras, mean)


@lru_cache(maxsize=8192)
def shoot_2024(spec: AttackSpec, defence: DefenceSpec) -> Odds:
    """Exact damage distribution of one Kill Team 2024 shooting attack (target only; the
    distance form of Devastating's splash and Hot are separate). Extras: ``p_incapacitated``
    (with wounds), ``p_crit`` (a crit retained: Stun, Piercing Crits), ``hot_mean``.
    Remembered (the AI asks the same question many times); :func:`clear_caches` forgets."""
    return _shoot_2024(spec, defence)


def hot_2024(hit: int) -> Dist:
    """Hot's self-damage distribution for a weapon with Hit stat ``hit``."""
    out: Dist = {}
    for face in range(1, 7):
        add_probability(out, kt2024.hot_damage(face, hit), Fraction(1, 6))
    return dict(sorted(out.items()))


FIGHT_POLICIES = ("best", "strike")
"""The blocking policies a fight's odds can assume: ``best`` (the engine's and the AI's, both
sides play to maximise damage dealt minus damage taken, :func:`kt2024_fight.resolve_fight`) and
``strike`` (both sides always strike, never block: :func:`strike_totals`)."""


def strike_totals(a: Retained, d: Retained, attacker: AttackSpec, defender: AttackSpec,
                  attacker_wounds: int | None, defender_wounds: int | None
                  ) -> tuple[int, int]:
    """``(dealt, taken)`` of a fight in which both sides always strike and never block: the
    attacker resolves first, then they alternate, each striking with a crit while it has one,
    then with normals; a side with no dice left lets the other strike with the rest; the
    fight stops when either side is out of wounds. Devastating is applied first (as in
    :func:`kt2024_fight.fight_with_devastating`); Shock discards the opponent's unresolved normal
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
    :func:`kt2024_fight.resolve_fight` (``policy="best"``: both sides play to maximise damage dealt
    minus damage taken) or with both sides always striking (``policy="strike"``,
    :func:`strike_totals`). Every pair of retained dice is looked up in the fight's dynamic
    programme (states: dice and wounds left), so the cost grows with the number of states,
    not with the number of ways to play them out. Remembered; :func:`clear_caches`
    forgets (this and the fight programme's states)."""
    return _fight_2024(attacker, defender, attacker_wounds, defender_wounds, policy)


def _fight_2024(attacker: AttackSpec, defender: AttackSpec, attacker_wounds: int | None,
                defender_wounds: int | None, policy: str = "best") -> FightOdds:
    """:func:`fight_2024` without its cache: the retained dice of each side are counted
    (:func:`_retained_counts`), each pair's totals are :func:`kt2024_fight.fight_with_devastating`'s
    (its steps written out: the attacker's Devastating, the defender's if still standing,
    then :func:`kt2024_fight.fight_totals`' programme) or :func:`strike_totals`, and the joint
    distribution is made of Fractions at the end."""
    if policy not in FIGHT_POLICIES:
        raise ValueError(f"fight policy must be one of {', '.join(FIGHT_POLICIES)}, "
                         f"got {policy!r}")
    sides_a, den_a = _retained_counts(attacker, False)  # failed dice play no part in a fight
    sides_d, den_d = _retained_counts(defender, False)
    joint: dict[tuple[int, int], int] = {}
    if policy == "strike":
        for ca, na, p in sides_a:
            ka = Retained(ca, na, 0)
            for cd, nd, q in sides_d:
                key = strike_totals(ka, Retained(cd, nd, 0), attacker, defender,
                                    attacker_wounds, defender_wounds)
                joint[key] = joint.get(key, 0) + p * q
    else:
        solve = kt2024.solvers((attacker.normal, attacker.crit, defender.normal,
                                defender.crit, attacker.has("brutal"), defender.has("brutal"),
                                attacker.has("shock"), defender.has("shock"))).solve
        dev_a_each, dev_d_each = attacker.devastating, defender.devastating
        big = kt2024.NO_WOUNDS_CAP  # no wound limit: the programme's stand-in, as before
        for ca, na, p in sides_a:
            dev_a = dev_a_each * ca
            if defender_wounds is None:
                dw = big
            else:
                dev_a = dev_a if dev_a < defender_wounds else defender_wounds
                dw = defender_wounds - dev_a
            for cd, nd, q in sides_d:
                if dw == 0:  # out before the defender's Devastating
                    key = (dev_a, 0)
                else:
                    dev_d = dev_d_each * cd
                    if attacker_wounds is None:
                        aw = big
                    else:
                        dev_d = dev_d if dev_d < attacker_wounds else attacker_wounds
                        aw = attacker_wounds - dev_d
                    if aw == 0:
                        key = (dev_a, dev_d)
                    else:
                        _, _, dealt, taken = solve(ca, na, cd, nd, aw, dw, 0, True, True)
                        key = (dealt + dev_a, taken + dev_d)
                joint[key] = joint.get(key, 0) + p * q
    den = den_a * den_d
    return FightOdds({key: Fraction(ways, den) for key, ways in sorted(joint.items())},
                     attacker_wounds, defender_wounds)


REMEMBERED: list[Any] = []
"""The remembering functions of other odds modules (:mod:`solo_ops.rules.odds_2018` adds its
own as it is imported), emptied by :func:`clear_caches` with this module's."""


def clear_caches() -> None:
    """Forget every remembered result (the AI's repeated questions), and the fight
    programme's solved states: the next call computes from scratch (``bench/bench_odds.py``
    times them so)."""
    for fn in (attack_dice_2024, save_dice, shoot_2024, fight_2024, kt2024.solvers,
               *REMEMBERED):
        fn.cache_clear()
