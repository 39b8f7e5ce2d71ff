"""The Kill Op's end-of-battle point goes by Kill Grade: 001 KILL OP "Score VP as per the
card, +1VP to player with highest Kill Grade (NOT kill count)". The card's grade table is not in
the sources: grade = the thresholds k = 1..5 reached, threshold k = round(k x N / 5), N at least
5 (:func:`solo_ops.game.scoring.kill_grade`). Reading: docs/rules.md, "Objective markers and the
Kill Op".
"""

from __future__ import annotations

import copy

import pytest

from solo_ops.game import scoring
from solo_ops.game.engine import Game
from solo_ops.game.state import ENEMY, PLAYER, State
from tests.support.ops_table import start


@pytest.mark.parametrize(("n", "thresholds"), [
    (7, [1, 3, 4, 6, 7]),  # 1.4, 2.8, 4.2, 5.6, 7
    (5, [1, 2, 3, 4, 5]),
    (3, [1, 2, 3, 4, 5]),  # N clamped to 5
    (10, [2, 4, 6, 8, 10]),
    (12, [2, 5, 7, 10, 12]),  # 2.4, 4.8, 7.2, 9.6, 12
    (9, [2, 4, 5, 7, 9]),  # 1.8, 3.6, 5.4, 7.2, 9
])
def test_kill_grade_thresholds(n: int, thresholds: list[int]) -> None:
    """001 KILL OP: "Score VP as per the card, +1VP to player with highest Kill Grade (NOT kill
    count)". The card's table is not in the sources: grade = thresholds k = 1..5 reached,
    threshold k = round(k x N / 5), N at least 5 (docs/rules.md)."""
    grades = [scoring.kill_grade(kills, n) for kills in range(0, max(n, 5) + 1)]
    expected = [sum(1 for t in thresholds if kills >= t) for kills in range(0, max(n, 5) + 1)]
    assert grades == expected
    assert [min(k for k in range(0, 13) if scoring.kill_grade(k, n) >= g)
            for g in range(1, 6)] == thresholds


def fielded(game: Game, state: State, players: int, enemies: int) -> None:
    """``players`` player operatives and ``enemies`` enemy models in ``state`` (copies)."""
    for side, count in ((PLAYER, players), (ENEMY, enemies)):
        model = state.side(side)[0]
        for i in range(count - len(state.side(side))):
            clone = copy.copy(model)
            clone.id = f"{model.id}-x{i}"
            state.operatives[clone.id] = clone


def test_the_end_of_battle_kill_op_point_goes_to_the_higher_kill_grade_not_kill_count(
) -> None:
    """001 KILL OP: "+1VP to player with highest Kill Grade (NOT kill count)". 3 kills of 7
    enemies (grade 2: thresholds 1, 3) against 2 of the 5-strong squad (grade 2): a tie, no
    point, though 3 kills beat 2. Then 1 kill of 5 (grade 1) against 1 of a 10-strong squad
    (grade 0, threshold 2): the point to the players at equal kills."""
    game, state = start({"a1": (3, 10)}, units=1)
    fielded(game, state, 5, 7)
    state.incapacitated_total = {PLAYER: 2, ENEMY: 3}
    assert scoring.kill_grades(state) == {PLAYER: (2, 3, 7), ENEMY: (2, 2, 5)}
    events = scoring.end_battle(game, state)
    assert not [e for e in events if e["type"] == "vp" and e["source"] == "kill"]

    game, state = start({"a1": (3, 10)}, units=1)
    fielded(game, state, 10, 5)
    state.incapacitated_total = {PLAYER: 1, ENEMY: 1}
    events = scoring.end_battle(game, state)
    kill = [e for e in events if e["type"] == "vp" and e["source"] == "kill"]
    assert [(e["side"], e["points"]) for e in kill] == [(PLAYER, 1)]
    assert kill[0]["why"] == ("Kill Op at the end of the battle: kill grade 1 (1 of 5 enemy "
                              "operatives incapacitated) against 0 (1 of 10 of yours); the "
                              "grades are a reading from outside the sources")
