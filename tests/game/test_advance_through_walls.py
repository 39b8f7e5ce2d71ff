"""Dimensional Destabilisation in force reaches every route worked out for a players'
relative answer after an Advance (``move N toward X``, ``move to X``; the planner's reach:
tests/ai/test_advance_reach_through_walls.py). 004 (Walls effects, 2): "Dimensional
Destabilisation: Models can move through walls when they Advance (but cannot end the move
within the wall)." The table
(tests/support/pariah_table.py) has a wall at x 15, y 0-6, a closed door at y 6-8 beyond it."""

from __future__ import annotations

import math

from solo_ops.game import intent
from solo_ops.game.engine import step
from tests.support.pariah_table import RADIUS, engine_until_players, start

WALL_X = 15.0


def _advanced(effects: dict[str, int]) -> tuple:
    """a1 at (13.5, 3), west of the wall, has declared an Advance and rolled a 3 (6" + 3")."""
    game, state = start(effects, faces=[6, 1, 3], a1=(13.5, 3), a2=(1, 20))
    engine_until_players(game, state)
    step(game, state, {"type": "activate", "operative": "a1"})
    step(game, state, {"type": "move", "how": "advance"})
    assert state.operatives["a1"].advance_roll == 3
    return game, state


def test_move_n_toward_goes_straight_through_the_wall() -> None:
    """``move 3 toward e1`` (27, 11): 3" in a straight line, through the wall (crossed at
    y 3.89), ending at (13.5, 3) + 3 * (13.5, 8) / |(13.5, 8)| = (16.08, 4.53), clear of it."""
    game, state = _advanced({"walls": 2})
    found = intent.propose(game, state, {"type": "move", "relation": "toward",
                                         "ref": "e1", "amount": 3})
    d = math.hypot(13.5, 8.0)
    want = (13.5 + 3 * 13.5 / d, 3 + 3 * 8.0 / d)
    assert found.action["how"] == "advance"
    assert math.dist(found.to, want) < 0.02 and abs(found.cost - 3.0) < 0.02
    step(game, state, found.action)
    assert math.dist(state.operatives["a1"].at, want) < 0.02


def test_without_the_effect_the_same_answer_goes_round() -> None:
    """The same answer with another Walls effect in force (Intramural Energies): the wall and
    the closed door beyond it stand in the way, so 3" of the walk round them stays west of
    the wall."""
    game, state = _advanced({"walls": 1})
    found = intent.propose(game, state, {"type": "move", "relation": "toward",
                                         "ref": "e1", "amount": 3})
    assert found.to[0] + RADIUS <= WALL_X + 1e-6


def test_move_to_never_ends_within_the_wall() -> None:
    """``move 1.5 toward e1`` would end with the base's centre on the wall: "but
    cannot end the move within the wall", so the move stops short, the base clear of the wall
    (x + radius <= 15) and as far as the placement rule's steps allow."""
    game, state = _advanced({"walls": 2})
    found = intent.propose(game, state, {"type": "move", "relation": "toward",
                                         "ref": "e1", "amount": 1.5})
    assert found.to[0] + RADIUS <= WALL_X + 1e-6
    assert found.to[0] > WALL_X - RADIUS - 0.3


def test_move_to_a_marker_beyond_the_wall_goes_through() -> None:
    """``move to e1``, 15.7" away in a straight line: the Advance's 9" all spent straight at
    it, through the wall (x = 13.5 + 9 * 13.5 / 15.69 = 21.24)."""
    game, state = _advanced({"walls": 2})
    found = intent.propose(game, state, {"type": "move", "relation": "to",
                                         "ref": "e1"})
    assert abs(found.cost - 9.0) < 0.02
    assert abs(found.to[0] - (13.5 + 9 * 13.5 / math.hypot(13.5, 8.0))) < 0.02
