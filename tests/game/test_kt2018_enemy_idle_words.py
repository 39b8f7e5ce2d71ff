"""Kill Team 2018: when every enemy unit has had its turn in the shooting phase, the players
are told so in words that hold for a unit that did not shoot (one that Advanced or charged
has its turn and fires nothing: 004 "A model that Advances cannot ... shoot later that battle
round"), never that every unit "has shot"."""

from __future__ import annotations

from solo_ops.game.turns import enemy_idle
from tests.support.order_boards import GUN, prof, setup


def test_every_unit_had_its_turn_to_shoot() -> None:
    _game, state = setup([("u1", 1, [("e1", prof(), (5, 11))])],
                         [("kell", prof(weapons=[GUN]), (20, 11))], edition="kt2018")
    state.phase = "shooting"
    for unit in state.active_units():
        unit.activated = True
    state.counters.clear()
    assert enemy_idle(state) == [{"type": "enemy_idle", "why": (
        "every enemy unit on the table has had its turn to shoot this phase")}]
