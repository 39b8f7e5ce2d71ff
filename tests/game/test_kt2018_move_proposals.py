"""Kill Team 2018 moves in the 2018 words: a proposal after a declared Advance is the Advance
(004 "declare that it will Advance ... make an Advance roll ... You can then move that
model"), with what its roll allows; a move too long says the model "can move", never a 2024
Reposition or "can normal"."""

from __future__ import annotations

import pytest

from solo_ops.core.dice import ScriptedDice
from solo_ops.core.errors import RuleError
from solo_ops.game import intent
from solo_ops.game.engine import step
from solo_ops.session.words import proposal_words
from tests.support.portal_board import start


def _active_a1() -> tuple:
    game, state = start({"a1": (3, 11)}, edition="kt2018", enemy_at=(14, 11))
    step(game, state, {"type": "activate", "operative": "a1"})
    return game, state


def test_a_normal_move_too_long_says_it_can_move() -> None:
    """a1 (Move 6") asked 9" straight east on the open floor (west of the walls, e1 at
    (14, 11)): refused in 2018 words."""
    game, state = _active_a1()
    with pytest.raises(RuleError, match=r"a1 can move 6\.0\""):
        step(game, state, {"type": "move", "to": [12, 11]})


def test_a_proposal_after_a_declared_advance_is_the_advance() -> None:
    """a1 declares an Advance and rolls a 3 (6" + 3" = 9"); ``move 8 toward e1`` is then
    proposed as that Advance: 8" east, within the 9" its roll allows."""
    game, state = _active_a1()
    state.dice = ScriptedDice(faces=[3])
    step(game, state, {"type": "move", "how": "advance"})
    found = intent.propose(game, state, {"type": "move", "relation": "toward", "ref": "e1",
                                         "amount": 8})
    assert found.action["how"] == "advance" and found.to == (11.0, 11.0)
    words = proposal_words(game, state, found)
    assert words.startswith("a1 would Advance ") and "its Advance allows 9.0\"" in words
    assert "reposition" not in words
