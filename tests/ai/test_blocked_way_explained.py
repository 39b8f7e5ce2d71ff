"""An enemy model whose way is blocked by another base says what blocks it and where (the
planner's note), so the players can move it on the real table as the game did. Reading:
docs/rules.md, "Bases on the table: the one placement rule".
"""

from __future__ import annotations


def test_an_enemy_blocked_in_a_corridor_says_what_blocks_it() -> None:
    from tests.support.order_boards import BRUTE, GRUNT, plan, setup

    walls = ({"id": "w-south", "traits": ["wall"], "line": [[0, 10], [20, 10]]},
             {"id": "w-north", "traits": ["wall"], "line": [[0, 12], [20, 12]]})
    # e1 (melee, command 3: towards the closest enemy) behind e2 in a 2" corridor
    game, state = setup([("u1", 3, [("e1", BRUTE, (3, 11))]),
                         ("u2", 1, [("e2", GRUNT, (5.5, 11))])],
                        [("p1", GRUNT, (25, 11))], features=walls)
    p = plan(game, state, "u1")
    notes = " ".join(a.note for a in p.actions if a.model == "e1")
    # e2's base (radius 0.5) leaves e1 (radius 0.5) at most 5.5 - 1 - 3 = 1.5" of the way
    assert "Its way to p1 is blocked by e2's base at (5.5, 11.0)" in notes
