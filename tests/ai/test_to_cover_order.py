"""The enemy's To Cover move order: 003 "To Cover: Unit will move to the nearest cover and
then remain stationary."

It ends in cover from the closest enemy in sight (obscured alone is not cover: 001 "In Cover —
… within 1" of anything intervening"), says so in its explanation, and a unit that reached
cover stays put in later activations. Reading: docs/rules.md, "Carrying out the orders".
"""

from __future__ import annotations

import pytest

from tests.support.order_boards import GRUNT, plan, setup

CRATE = {"id": "crate", "traits": ["heavy"], "polygon": [[14, 10], [15, 10], [15, 11], [14, 11]]}


def test_a_to_cover_unit_that_reached_cover_stays_put() -> None:
    """003: "To Cover: Unit will move to the nearest cover and then remain stationary." e1
    (Fire Teams command 2: To Cover) already reached cover (state ``in_cover``); p1 has since
    moved so that e1 is no longer in cover from it: e1 does not move again."""
    game, state = setup([("u1", 2, [("e1", GRUNT, (17.0, 10.5))])], [("p1", GRUNT, (3, 10.5))],
                        features=(CRATE,))
    assert [a.to for a in plan(game, state, "u1").moves()] == [(16.0, 10.5)]  # idle: it moves
    state.units["u1"].fsm = "in_cover"
    p = plan(game, state, "u1")
    assert p.moves() == []
    assert ("e1 stays where it is: the unit reached cover and then remains stationary "
            "(To Cover).") in p.explain


def test_to_cover_ends_in_cover_not_merely_obscured() -> None:
    """003: "To Cover: Unit will move to the nearest cover". e1 stands 1.5" from a heavy crate:
    obscured from p1 but not in cover (no terrain within 1" on the cover lines). It moves 1" to
    a spot both in cover and obscured, and the explanation says exactly that."""
    game, state = setup([("u1", 2, [("e1", GRUNT, (17.0, 10.5))])], [("p1", GRUNT, (3, 10.5))],
                        features=(CRATE,))
    sight = game.terrain(state).sight
    start = sight.cover((3, 10.5), (17.0, 10.5), 0.5, 0.5)
    assert (start.visible, start.in_cover, start.obscured) == (True, False, True)
    p = plan(game, state, "u1")
    (move,) = p.moves()
    assert move.to == (16.0, 10.5) and move.cost == pytest.approx(1.0)
    end = sight.cover((3, 10.5), move.to, 0.5, 0.5)
    assert (end.visible, end.in_cover, end.obscured) == (True, True, True)
    assert ("e1 repositions 1.0\" to the nearest cover from p1, to (16.0, 10.5). It is in cover "
            "from p1 and obscured there.") in p.explain
