"""Kill Team 2024, a Charge past another enemy, one rule for both sides (001 Charge): the
operative "MUST finish the move within Control Range of the first enemy Operative that it
enters the Control Range of IF that enemy Operative is not in Control Range of a friendly
Operative". The enemy's planner kept out of every other enemy's control range and the players'
charges walked past any base (a tester's charge went round e2 at 0.0"): now both keep out of
it, and both may pass one a friendly already holds (setting ``engaged_control_range: pass``).

The board is 30" x 22" with a corridor 3" wide between two walls (y 8.5 and y 11.5) from edge
to edge; bases are 25.4 mm (radius 0.5"). a1 charges e1 at the corridor's far end; e2 stands in
its south half, so the north half leaves a1 no way past e2 more than 1" from it.
"""

from __future__ import annotations

import pytest

from solo_ops.core.errors import RuleError
from solo_ops.game.player_moves import check_move
from tests.support.order_boards import GRUNT, setup

WALLS = ({"id": "w-north", "traits": ["wall"], "line": [[0, 8.5], [30, 8.5]]},
         {"id": "w-south", "traits": ["wall"], "line": [[0, 11.5], [30, 11.5]]})


def _charge(players: list) -> tuple:
    game, state = setup([("u1", 1, [("e1", GRUNT, (13, 10)), ("e2", GRUNT, (9, 10.9))])],
                        players, WALLS)
    state.counters.clear()
    a1 = state.operatives["a1"]
    a1.stance = "engage"  # (a Charge needs an Engage order)
    return game, state, a1


def test_a_charge_may_not_pass_through_another_enemy_s_control_range() -> None:
    game, state, a1 = _charge([("a1", GRUNT, (5, 10))])
    with pytest.raises(RuleError, match=r"into e2's control range, which it would have to end "
                                        r"in: charge it instead"):
        check_move(game, state, a1, "charge", (12.0, 10.0), state.operatives["e1"])


def test_it_may_pass_one_a_friendly_already_holds() -> None:
    # a2 stands within 1" of e2 (0.1" apart): e2 is held, and a1 may go by it
    game, state, a1 = _charge([("a1", GRUNT, (5, 10)), ("a2", GRUNT, (10.1, 10.9))])
    walk, cost = check_move(game, state, a1, "charge", (12.0, 10.0), state.operatives["e1"])
    assert walk.points[-1] == (12.0, 10.0) and cost <= 8.0 + 0.25


def test_block_keeps_out_of_a_held_enemy_too() -> None:
    """Setting ``engaged_control_range: block``: no exception for a held enemy."""
    game, state = setup([("u1", 1, [("e1", GRUNT, (13, 10)), ("e2", GRUNT, (9, 10.9))])],
                        [("a1", GRUNT, (5, 10)), ("a2", GRUNT, (10.1, 10.9))], WALLS,
                        settings={"engaged_control_range": "block"})
    state.counters.clear()
    state.operatives["a1"].stance = "engage"
    with pytest.raises(RuleError, match="into e2's control range"):
        check_move(game, state, state.operatives["a1"], "charge", (12.0, 10.0),
                   state.operatives["e1"])
