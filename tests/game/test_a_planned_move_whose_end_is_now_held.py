"""A planned enemy move whose end a player model now holds (it moved after the plan was made:
Kill Team 2018 alternates the models' moves in the movement phase) is planned again, as a
player's move there would be refused (001 Reposition "cannot finish the move within Control
Range of an enemy"; 004: a normal move or an Advance does not end within 1" of an enemy
model). Found by the referee audit (Volkus manufactorum sweep, 2018, aggressive, seed 10)."""

from __future__ import annotations

from solo_ops.ai.context import Action
from solo_ops.game.enemy_checks import stale_move
from tests.support.order_boards import GUN, prof, setup


def _planned(edition: str, kell_at: tuple[float, float]) -> str | None:
    """e1 at (5, 11) planned a move 5" east to (10, 11); Sgt Kell stands at ``kell_at``."""
    game, state = setup([("u1", 1, [("e1", prof(), (5, 11))])],
                        [("kell", prof(weapons=[GUN]), kell_at)], edition=edition)
    how = "normal" if edition == "kt2018" else "reposition"
    action = Action(how, "e1", start=(5, 11), to=(10, 11), route=((5, 11), (10, 11)), cost=5.0)
    return stale_move(game, state, state.operatives["e1"], action)


def test_an_end_within_1_inch_of_a_model_that_moved_there_is_planned_again() -> None:
    """Kell 1.9" east of the end, centre to centre: 0.9" between the 1" bases, in the open."""
    assert _planned("kt2018", (11.9, 11)) == (
        "kell now stands within 1\" of where its move was to end")
    assert _planned("kt2024", (11.9, 11)) == (
        "kell now holds where its move was to end in control range")


def test_an_end_further_away_stands() -> None:
    """Kell 2.1" east of the end: 1.1" between the bases, out of reach: the plan stands."""
    assert _planned("kt2018", (12.1, 11)) is None
    assert _planned("kt2024", (12.1, 11)) is None
