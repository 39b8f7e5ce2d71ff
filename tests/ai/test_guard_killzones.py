"""The enemy goes On Guard only on a Gallowdark board: 002 "Killzone: Gallowdark has the
following additional rules: ... ACTIONS: ... Guard 1AP: Treated as a Shoot action." Reading:
docs/rules.md, "Guard".
"""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(("killzone", "guards"), [("gallowdark", True), ("volkus", False),
                                                  (None, False)])
def test_guard_is_a_gallowdark_killzone_action_only(killzone: str | None, guards: bool) -> None:
    """002: "Killzone: Gallowdark has the following additional rules: ... ACTIONS: ... Guard
    1AP: Treated as a Shoot action." The same enemy with no target in sight and range goes On
    Guard on a Gallowdark board, and not on Volkus or an open board."""
    import copy

    import tests.support.guard_board as tg

    board = copy.deepcopy(tg.BOARD)
    board.pop("killzone", None)
    if killzone:
        board["killzone"] = killzone
    old = tg.BOARD
    tg.BOARD = board
    try:
        game, state = tg.start([1, 6])
    finally:
        tg.BOARD = old
    tg.enemy_goes_first(game, state)
    assert state.operatives["e1"].on_guard is guards
