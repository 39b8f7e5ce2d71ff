"""001 Reposition: "Cannot move within Control Range of an enemy unless they are already in
Control Range of a friendly and cannot finish the move within Control Range of an enemy" --
the same for the players' moves and the enemy's (``reach.keep_out``'s ``engaged``), under
the ``engaged_control_range`` setting (``pass``, the default; ``block``, the older reading).

The hand-made 30" x 22" table of ``tests.support.portal_board``, west of its wall. An enemy
stands 1.5" north of a friend (their 25 mm bases 0.52" apart: in each other's control range).
The mover walks 6.0" due east 1.05" north of that enemy's centre: clear of its base (0.98") but
inside its control range (1.98" between centres) all along the middle of the way; going round
that range costs more than the 6" Move allows.
"""

from __future__ import annotations

import pytest

from solo_ops.ai.candidates import candidate_points
from solo_ops.ai.context import WorkingBoard
from solo_ops.game.engine import step
from tests.support.portal_board import refused, start

ENGAGED_AT = (5.0, 12.5)  # the enemy the friend holds
FRIEND_AT = (5.0, 11.0)
FROM, TO = (1.5, 13.55), (7.5, 13.55)  # 6.0" apart, 1.05" north of ENGAGED_AT


@pytest.mark.parametrize("setting", ["pass", "block"])
def test_a_player_passes_through_an_engaged_enemys_control_range(setting: str) -> None:
    game, state = start({"a1": FRIEND_AT, "a2": FROM}, enemy_at=ENGAGED_AT,
                        settings={"engaged_control_range": setting})
    step(game, state, {"type": "activate", "operative": "a2", "stance": "engage"})
    move = {"type": "move", "how": "reposition", "to": list(TO)}
    if setting == "block":
        refused(game, state, move, "around the walls; a2 can reposition 6.0\"")
        return
    record = step(game, state, move)
    moved = next(e for e in record["events"] if e["type"] == "moved")
    assert moved["cost"] == pytest.approx(6.0, abs=0.01)
    assert state.operatives["a2"].at == TO


def test_no_move_ends_in_an_engaged_enemys_control_range() -> None:
    """Passing through is not ending in it: 1.05" north of the enemy is refused."""
    game, state = start({"a1": FRIEND_AT, "a2": FROM}, enemy_at=ENGAGED_AT)
    step(game, state, {"type": "activate", "operative": "a2", "stance": "engage"})
    refused(game, state, {"type": "move", "how": "reposition", "to": [5.0, 13.55]},
            "a move cannot end within an enemy's control range")


def test_without_a_friend_holding_it_the_enemy_blocks_the_way() -> None:
    """The friend stands 2" farther off: the enemy is in no friendly control range, and its
    own blocks the straight walk (the way round is over 6")."""
    game, state = start({"a1": (5.0, 9.0), "a2": FROM}, enemy_at=ENGAGED_AT)
    step(game, state, {"type": "activate", "operative": "a2", "stance": "engage"})
    refused(game, state, {"type": "move", "how": "reposition", "to": list(TO)},
            "a2 can reposition 6.0\"")


@pytest.mark.parametrize("setting", ["pass", "block"])
def test_the_enemy_passes_where_a_player_may(setting: str) -> None:
    """The mirror, for the enemy's planner: e2 walks past the player model a1 that e1 holds.
    Its end point east is reached for 6.0" exactly when a player's move would be, and none of
    its end points is in a1's control range."""
    import numpy as np

    game, state = start({"a1": ENGAGED_AT}, enemy_at=FRIEND_AT, more_enemies={"e2": FROM},
                        settings={"engaged_control_range": setting})
    ctx = game.context(state)
    e2 = state.operatives["e2"]
    found = candidate_points(ctx, e2, FROM, 6.0, WorkingBoard(state), kind="reposition")
    gaps = np.hypot(found.points[:, 0] - TO[0], found.points[:, 1] - TO[1])
    east = int(np.argmin(gaps))
    if setting == "pass":
        assert gaps[east] < 0.01 and found.cost[east] == pytest.approx(6.0, abs=0.01)
    else:
        assert gaps[east] > 0.25  # not reached: the way round costs more than 6"
    held = np.hypot(found.points[:, 0] - ENGAGED_AT[0], found.points[:, 1] - ENGAGED_AT[1])
    assert (held > 2 * 0.492 + 1.0 - 1e-6).all()


def test_a_relative_move_plans_round_the_same_bases() -> None:
    """A relative move (``move to X``, ``move behind X``...) plans its walk round the bases
    ``move_goals.move_blockers`` gives: under ``pass`` the engaged enemy's base is not grown
    by its control range (the point move's rule), the other enemy's is; under ``block``
    both are."""
    from solo_ops.game import move_goals

    for setting, grown in (("pass", {"e2"}), ("block", {"e1", "e2"})):
        game, state = start({"a1": FRIEND_AT, "a2": FROM}, enemy_at=ENGAGED_AT,
                            more_enemies={"e2": (20.0, 20.0)},
                            settings={"engaged_control_range": setting})
        a2 = state.operatives["a2"]
        held = move_goals.engaged_foes(game, state, a2, "reposition")
        assert held == ({"e1"} if setting == "pass" else set())
        bases = move_goals.move_blockers(state, a2, "reposition", None, held)
        assert {b.ident for b in bases if b.r > a2.radius + 0.5} == grown
