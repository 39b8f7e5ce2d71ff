"""Engagement level 1 is easier than level 6 for the autopilot: a one-sided test, fixed seeds.

Design: the same 20 mission seeds at level 1 and at level 6 (``rate``'s common random
numbers) on a three-turn Gallowdark cloister mission against the traitor cult, the
``cautious`` policy (the strongest of the three there: 50% against 17% for ``aggressive`` at
level 1, 12 missions each). H0: the players win at level 6 at least as often as at level 1;
H1: they win more often at level 1. Test: Fisher's exact test, one-sided (the hypergeometric
tail of the level-1 wins given the total wins), computed with integers. The pairs share their
dice, which correlates the two samples positively; the unpaired test then overstates the
variance of the difference, so it is conservative (its real level is at most its nominal one).
Threshold: p < 0.01. With fixed seeds the outcome is deterministic; the threshold makes it a
claim about difficulty rather than about these seeds: 6 wins of 12 against 0 of 12 (measured)
gives p = 0.0069, and 20 missions a level leave room for the rules and the enemy AI to change
under it. Runtime: about 50 s of CPU, hence ``slow``.
"""

from __future__ import annotations

from math import comb
from pathlib import Path

import pytest

from solo_ops.io.scenario import load_scenario
from solo_ops.sim import rating
from tests.test_play_e2e import small_scenario

MISSIONS = 20
ALPHA = 0.01


def fisher_one_sided(wins_a: int, n_a: int, wins_b: int, n_b: int) -> float:
    """P(at least ``wins_a`` of the ``wins_a + wins_b`` wins fall in sample a | the margins)."""
    total = wins_a + wins_b
    denom = comb(n_a + n_b, total)
    return sum(comb(n_a, k) * comb(n_b, total - k)
               for k in range(wins_a, min(n_a, total) + 1)) / denom


def test_fisher_by_hand() -> None:
    # 7/16 vs 0/16: only the table itself is as extreme: C(16,7)/C(32,7)
    assert fisher_one_sided(7, 16, 0, 16) == pytest.approx(11440 / 3365856, rel=1e-12)
    assert fisher_one_sided(0, 5, 0, 5) == 1.0
    assert fisher_one_sided(3, 4, 1, 4) == pytest.approx((comb(4, 3) * comb(4, 1)
                                                          + comb(4, 4) * comb(4, 0))
                                                         / comb(8, 4), rel=1e-12)


@pytest.mark.slow
def test_level_1_is_easier_than_level_6(tmp_path: Path) -> None:
    path = small_scenario(tmp_path, turns=3, engagement=1, board="gallowdark-cloister")
    scenario = load_scenario(path)
    results = rating.run(scenario, MISSIONS, 1, policy="cautious", engagements=[1, 6],
                         jobs=2)
    levels = rating.by_level(results)
    wins1 = sum(r.outcome == "win" for r in levels[1])
    wins6 = sum(r.outcome == "win" for r in levels[6])
    p = fisher_one_sided(wins1, MISSIONS, wins6, MISSIONS)
    assert p < ALPHA, f"level 1 won {wins1}/{MISSIONS}, level 6 {wins6}/{MISSIONS}: p = {p:.4f}"
    # and the players lose more operatives at level 6
    lost1 = sum(r.losses for r in levels[1])
    lost6 = sum(r.losses for r in levels[6])
    assert lost6 > lost1
