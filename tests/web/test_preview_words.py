"""The page's tap preview says a move's cost truly: "away" on open ground, "around the walls"
only where the way bends, and what terrain adds to it ("of movement: 3.0" walked, climbing onto
deck-1"), as a refused move says it. It said "6.0" around the walls" of a straight move that
climbed a deck on a table with no wall there (a reviewer). The small table
(:mod:`tests.support.small_table`: a1 at (3, 10); wall-1 along x = 15 from y 4 to 18) with a
vantage deck 3" high from x 5 to 8, y 6 to 14 (a 3" climb)."""

from __future__ import annotations

import copy
from typing import Any

from solo_ops.game.engine import step
from solo_ops.web import placing
from tests.support.small_table import BOARD, start

DECK = {"id": "deck-1", "traits": ["vantage", "light"], "height": 3,
        "polygon": [[5, 6], [8, 6], [8, 14], [5, 14]]}


def _text(x: float, y: float, at: tuple[float, float] = (3.0, 10.0)) -> str:
    board = copy.deepcopy(BOARD)
    board["features"].append(copy.deepcopy(DECK))
    game, state = start("kt2024", faces=[6, 1], board=board)
    state.operatives["a2"].at = (1.0, 20.0)
    state.operatives["a1"].at = at
    step(game, state, {"type": "engine"})
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    shown: dict[str, Any] = placing.preview(game, state, x, y, "move", check=lambda a: None)
    return str(shown["text"])


def test_a_straight_move_on_open_ground_is_away() -> None:
    # (3, 10) -> (3, 13): 3" north, nothing in the way
    assert _text(3.0, 13.0) == 'a1 to (3.0, 13.0): 3.0" away; it can move 6.0" — within the move'


def test_a_climb_is_said_as_movement_walked_and_climbed() -> None:
    # (3, 10) -> (6, 10): 3" walked, 2" of it to the deck's edge, then its 3" climb
    assert _text(6.0, 10.0) == ('a1 to (6.0, 10.0): 6.0" of movement: 3.0" walked, climbing '
                                'onto deck-1; it can move 6.0" — within the move')


def test_round_the_end_of_a_wall_is_around_the_walls() -> None:
    # from (13, 10) to (17, 10) across wall-1 (x = 15, y 4..18): round its south end
    text = _text(17.0, 10.0, at=(13.0, 10.0))
    assert " around the walls; it can move 6.0\"" in text and "away" not in text
