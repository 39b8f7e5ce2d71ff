"""A tap during a counteract: the page's preview says the 2" a counteract allows (001
"Cannot move greater than 2" while counteracting."), as the refusal does, never the
operative's whole move. A play-tester's page read "3.5" around the walls; it can move 6.0" —
refused: ... Scout Tam can reposition 2.0"".
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from solo_ops.game import intent
from solo_ops.game.engine import step
from solo_ops.session.table import GameTable
from solo_ops.session.words import proposal_words
from solo_ops.view.answers import parse
from solo_ops.web import placing
from tests.game.test_counteract import three_units_one_left


def _counteracting(tmp_path: Path) -> GameTable:
    """a1 at (7, 10) counteracting (the enemy's u2 and u3 still ready), at a table."""
    game, state = three_units_one_left()
    step(game, state, {"type": "counteract", "operative": "a1"})
    assert state.counteracting
    return GameTable(game, state, tmp_path / "g.json", tmp_path / "g.log.jsonl")


def test_the_preview_of_a_counteract_move_says_2_inches(tmp_path: Path) -> None:
    table = _counteracting(tmp_path)
    # 2.5" due east across open ground: over the counteract's 2"
    far = placing.preview(table.game, table.state, 9.5, 10.0, "move",
                          check=table.refusal_of)
    assert far["allowance"] == 2.0 and far["distance"] == 2.5
    assert far["measured"] == "2.5\" of 2.0\""
    assert far["within"] is False
    assert "it can reposition" not in far["text"]
    assert far["text"].startswith("a1 to (9.5, 10.0): 2.5\" away; it can move 2.0\" "
                                  "— refused: that is 2.5\" of movement; a1 can "
                                  "reposition 2.0\"")
    # 2" is taken, and said to be within the move
    near = placing.preview(table.game, table.state, 9.0, 10.0, "move",
                           check=table.refusal_of)
    assert near["allowance"] == 2.0 and near["within"] is True
    assert near["text"].endswith("it can move 2.0\" — within the move")


def test_a_relative_move_while_counteracting_goes_2_inches_and_says_so(
        tmp_path: Path) -> None:
    """``move toward e2`` proposes a counteract's 2" along the way (before, the whole 6"
    Reposition, which the step then refused), and the proposal says 2"."""
    table = _counteracting(tmp_path)
    game, state = table.game, table.state
    a1 = state.operatives["a1"]
    found = intent.propose(game, state, parse("move toward e2", "act"))
    assert found.allowance == 2.0
    assert found.cost == pytest.approx(2.0, abs=0.02)
    assert math.dist(a1.at, found.to) == pytest.approx(2.0, abs=0.02)
    assert "it can reposition 2.0\"" in proposal_words(game, state, found)
    step(game, state, found.action)  # the engine takes it
    assert a1.at == found.to and not state.counteracting
