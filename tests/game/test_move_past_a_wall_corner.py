"""The players walk past an enemy round a wall's corner by the one rule
(:func:`solo_ops.rules.reach.keep_out`). 001 Reposition: "Cannot move within Control Range of
an enemy ... and cannot finish the move within Control Range of an enemy"; 001 "Control Range
Visible and within 1" of model base"."""

from __future__ import annotations

import json

import pytest

from solo_ops.core.errors import RuleError
from solo_ops.game.engine import step
from tests.support import wall_corner as wc


def _moved(record: dict) -> dict:
    return next(e for e in record["events"] if e["type"] == "moved")


def test_a_move_may_end_0_9_inches_from_an_enemy_round_the_corner() -> None:
    """ABOVE is 0.9" from e1 as the crow flies but out of its sight: a 4.5" Reposition (by
    hand: 15.7 - 11.2) straight there is the players' (it was refused: e1's 1" was a disc)."""
    game, state = wc.game("players")
    moved = _moved(step(game, state, {"type": "move", "how": "reposition",
                                      "to": list(wc.ABOVE)}))
    assert moved["cost"] == 4.5
    assert moved["route"] == [list(wc.PAST_START), list(wc.ABOVE)]
    assert state.operatives["a1"].at == wc.ABOVE


def test_a_move_walks_straight_past_the_corner() -> None:
    """The 6" walk east along y = 13.2 passes 0.9" from e1 as the crow flies, never in its
    control range: straight, 6.0"."""
    game, state = wc.game("players")
    moved = _moved(step(game, state, {"type": "move", "how": "reposition",
                                      "to": list(wc.PAST_END)}))
    assert moved["cost"] == 6.0
    assert moved["route"] == [list(wc.PAST_START), list(wc.PAST_END)]


def test_a_move_round_the_wall_into_its_control_range_is_refused() -> None:
    """From BEHIND_A (0.91" from e1, out of its sight) round wall-a's south end to
    ROUND_THE_END, 0.96" from e1 in its sight: refused, nothing changed (it was let through:
    the enemy behind the wall was not looked at again)."""
    game, state = wc.game("players", mover_at=wc.BEHIND_A)
    before = json.dumps(state.to_dict(secrets=True)), len(state.log)
    with pytest.raises(RuleError, match=r"a move cannot end within an enemy's control range "
                                        r"\(e1: "):
        step(game, state, {"type": "move", "how": "reposition", "to": list(wc.ROUND_THE_END)})
    assert (json.dumps(state.to_dict(secrets=True)), len(state.log)) == before


def test_a_move_to_a_point_in_an_enemys_control_range_says_so() -> None:
    """A Reposition to (15.7, 9.8), 1.5" south of e1 centre to centre (0.5" base to base) on
    the open side of the corner, in its sight: no way there keeps out of its 1", and the
    refusal names the rule the end breaks, not "no route"."""
    game, state = wc.game("players")
    with pytest.raises(RuleError, match=r"a move cannot end within an enemy's control range "
                                        r"\(e1: 001 Reposition"):
        step(game, state, {"type": "move", "how": "reposition", "to": [15.7, 9.8]})
