"""Exact odds of Kill Team 2018 attacks (004): a number such as ``D3`` or ``2D6+1`` as a
distribution, one attack's damage with the chances of each step (hit, wound, unsaved, out of
action), and the Injury roll's two outcomes. The Kill Team 2024 odds and the distributions both
share are :mod:`solo_ops.rules.odds`'s."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import product
from typing import Any

from solo_ops.core.model import DiceExpr
from solo_ops.rules import kt2018
from solo_ops.rules.odds import REMEMBERED, Dist, Odds, add_probability


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
        add_probability(out, sum(kept) + expr.plus, each)
    return dict(sorted(out.items()))


def _chance(test: Any, reroll: frozenset[int] = frozenset()) -> Fraction:
    """The chance a D6 passes ``test``; a face in ``reroll`` that fails is rolled once more
    (004 Parasitic Transmission, Flensing Microfilaments)."""
    once = Fraction(sum(1 for face in range(1, 7) if test(face)), 6)
    again = Fraction(sum(1 for face in reroll if 1 <= face <= 6 and not test(face)), 6)
    return once + again * once


@lru_cache(maxsize=4096)
def attack_2018(attack: kt2018.Attack2018, target: kt2018.Target2018) -> Odds:
    """Exact damage distribution of one Kill Team 2018 attack (all its shots), capped at the
    target's wounds. Extras: ``p_hit``, ``p_wound``, ``p_unsaved`` (per shot), ``p_down``
    (reduced to 0 wounds) and ``p_out_of_action`` (then the Injury roll, 4+ after modifiers,
    or a flesh wound with every box already marked)."""
    p_hit = _chance(lambda f: kt2018.hits(f, attack))
    p_wound = _chance(lambda f: kt2018.wounds(f, attack, target), attack.wound_reroll)
    p_fail_save = 1 - _chance(lambda f: kt2018.saves(f, attack, target))
    p = p_hit * p_wound * p_fail_save
    per_shot: Dist = {0: 1 - p}
    for dmg, q in dice_expr_2018(attack.damage).items():
        add_probability(per_shot, dmg, p * q)
    cap = target.wounds
    dist: Dist = {}
    for shots, ps in dice_expr_2018(attack.shots, attack.concentrated).items():
        total: Dist = {0: Fraction(1)}
        for _ in range(max(0, shots) * attack.shots_factor):
            nxt: Dist = {}
            for have, a in total.items():
                if have >= cap:
                    add_probability(nxt, have, a)
                    continue
                for dmg, b in per_shot.items():
                    add_probability(nxt, min(cap, have + dmg), a * b)
            total = nxt
        for dmg, a in total.items():
            add_probability(dist, dmg, ps * a)
    p_down = dist.get(cap, Fraction(0))
    mods = kt2018.injury_modifiers(target.flesh_wounds, attack.injury_modifiers)
    bonus = sum(a for _, a in mods)
    p_ooa_given_down = _chance(lambda f: kt2018.after_injury(
        kt2018.injury_result(f + bonus), target.flesh_wounds) == "out_of_action",
        attack.injury_reroll)
    return Odds(dict(sorted(dist.items())), {
        "p_hit": p_hit, "p_wound": p_wound, "p_unsaved": p_fail_save, "p_down": p_down,
        "p_out_of_action": p_down * p_ooa_given_down,
    })


REMEMBERED.append(attack_2018)  # (odds.clear_caches forgets its answers too)


def injury_2018(flesh_wounds: int, extra: tuple[tuple[str, int], ...] = ()) -> dict[str,
                                                                                  Fraction]:
    """Exact chances of the Injury roll's two outcomes."""
    bonus = sum(a for _, a in kt2018.injury_modifiers(flesh_wounds, extra))
    ooa = _chance(lambda f: kt2018.after_injury(kt2018.injury_result(f + bonus),
                                                flesh_wounds) == "out_of_action")
    return {"flesh_wound": 1 - ooa, "out_of_action": ooa}
