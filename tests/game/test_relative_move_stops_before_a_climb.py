"""A relative move that stops before a climb it cannot pay says so. ``move 3 toward obj-1``
on a refinery board went 2.7" and stopped at the foot of condenser-1 without a word (a
play-tester): the walk's next step climbs, and the movement left cannot pay the climb, so the
walk stops just before the outline (:meth:`Routes.advance`). The proposal now says "it can get
no further: climbing onto deck-1 costs more than the movement left". Nothing else changes:
the engine's own moves, charges and their dice are the same (the reason is words only).

The small table (:mod:`tests.support.small_table`) with a vantage deck 3" high from x 5 to 8,
y 6 to 14 (its climb costs 3", 001: a centre enters it); a1 at (3, 10), obj-1 at (10, 10)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from solo_ops.game import intent
from solo_ops.game.engine import step
from solo_ops.session.words import proposal_words
from solo_ops.view.answers import parse
from tests.support.small_table import BOARD, start

DECK = {"id": "deck-1", "traits": ["vantage", "light"], "height": 3,
        "polygon": [[5, 6], [8, 6], [8, 14], [5, 14]]}


def _game() -> tuple[Any, Any]:
    board = copy.deepcopy(BOARD)
    board["features"].append(copy.deepcopy(DECK))
    board["objectives"] = [{"id": "obj-1", "at": [10, 10]}, {"id": "obj-2", "at": [26, 11]}]
    game, state = start("kt2024", faces=[6, 1], board=board)  # the players first
    state.operatives["a2"].at = (1.0, 20.0)
    step(game, state, {"type": "engine"})
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    return game, state


@pytest.mark.parametrize("words", ["move 3 toward obj-1", "move 2 toward obj-1"])
def test_a_move_that_cannot_pay_the_climb_says_so(words: str) -> None:
    # 2" east reaches the deck's outline at x = 5; its 3" climb is more than the 1" left (none
    # of a 2" move): the walk stops 0.05" short, at (4.95, 10), 1.95" spent
    game, state = _game()
    p = intent.propose(game, state, parse(words, "act"))
    assert p.to == (4.95, 10.0) and p.cost == pytest.approx(1.95)
    assert p.blocked_by == "climbing onto deck-1 costs more than the movement left"
    said = proposal_words(game, state, p)
    assert said.endswith("; it can get no further: climbing onto deck-1 costs more than the "
                         "movement left (it can reposition 6.0\").")


def test_a_move_that_pays_the_climb_says_nothing_of_it() -> None:
    # the whole 6": 2" to the outline, 3" to climb, 1" on the deck: (6, 10)
    game, state = _game()
    p = intent.propose(game, state, parse("move to obj-1", "act"))
    assert p.to == (6.0, 10.0) and p.cost == pytest.approx(6.0)
    assert p.blocked_by is None
    assert "climbing onto deck-1" in proposal_words(game, state, p)  # the route's own words
