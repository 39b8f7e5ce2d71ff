"""Engagement level 1 is easier than level 6 for the autopilot: a one-sided test, fixed seeds.

Design: the same 30 mission seeds at level 1 and at level 6 (``rate``'s common random
numbers: mission i has the same dice stream at both levels) on a three-turn Gallowdark
cloister mission against the traitor cult, the ``cautious`` policy (the strongest of the three
there). Each mission gives the players' margin, their VP minus the enemy's.

H0: the level makes no difference to the margin (each pair's difference is as likely positive
as negative); H1: the players' margin is larger at level 1. Test: the exact one-sided sign test
on the paired margins (ties dropped; P(Binomial(n, 1/2) >= the pairs favouring level 1),
computed with integers). It assumes nothing about the margins' distribution, and pairing the
levels on the same dice removes the seeds' own variation, which is why it is used rather than
a comparison of win counts alone (measured: 8 wins of 20 against 2 of 20 gave a one-sided
Fisher p of 0.03 only, the win/loss line throwing most of the information away).
Threshold: p < 0.01. With fixed seeds the outcome is deterministic; the threshold makes it a
claim about difficulty rather than about these seeds. Measured with the first 20 seeds: 16
pairs better at level 1, 4 worse, p = 0.006 (wins 8 against 2); 30 pairs leave room for the
rules and the enemy AI to change under the test. The win counts must also point the same way.
Runtime: about 75 s of CPU (40 s on two cores): it runs once, with the full budget
(``FULL_ONLY`` in tests/conftest.py), never on a quarter of its sample.
"""

from __future__ import annotations

from math import comb
from pathlib import Path

import pytest

from solo_ops.io.scenario import load_scenario
from solo_ops.sim import rating
from tests.support.players import small_scenario

MISSIONS = 30
ALPHA = 0.01


def sign_test(better: int, worse: int) -> float:
    """One-sided exact sign test: P(at least ``better`` of ``better + worse`` fair coins)."""
    n = better + worse
    return sum(comb(n, k) for k in range(better, n + 1)) / 2**n


def test_sign_test_by_hand() -> None:
    assert sign_test(0, 0) == 1.0
    assert sign_test(3, 0) == 1 / 8
    assert sign_test(16, 2) == pytest.approx((comb(18, 16) + 18 + 1) / 2**18, rel=1e-12)
    assert sign_test(1, 1) == 3 / 4


def test_level_1_is_easier_than_level_6(tmp_path: Path) -> None:
    path = small_scenario(tmp_path, turns=3, engagement=1, board="gallowdark-cloister")
    scenario = load_scenario(path)
    results = rating.run(scenario, MISSIONS, 1, policy="cautious", engagements=[1, 6],
                         jobs=2)
    levels = rating.by_level(results)
    pairs = list(zip(levels[1], levels[6], strict=True))
    assert all(a.seed == b.seed for a, b in pairs)
    diffs = [(a.vp_player - a.vp_enemy) - (b.vp_player - b.vp_enemy) for a, b in pairs]
    better = sum(d > 0 for d in diffs)
    worse = sum(d < 0 for d in diffs)
    p = sign_test(better, worse)
    assert p < ALPHA, f"margins better at level 1 in {better} pairs, worse in {worse}: p = {p}"
    wins1 = sum(r.outcome == "win" for r in levels[1])
    wins6 = sum(r.outcome == "win" for r in levels[6])
    assert wins1 > wins6
