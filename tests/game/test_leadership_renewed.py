"""A unit's Leadership is worked out again whenever its models change: 003 "Leaders are
simply units with higher leadership in comparison to other units" -- a unit whose only
Leadership 7 model is out of action no longer leads (it was told as a leader still)."""

from __future__ import annotations

from solo_ops.game.downed import take_down
from tests.support.order_boards import GUN, plan, prof, setup


def test_a_dead_nob_no_longer_leads() -> None:
    """u2: a nob (Leadership 7) and a boy (6); u1: a boy (6). The nob goes down: u2's
    Leadership is 6, the event says so, and the planner no longer calls u2 a leader."""
    game, state = setup([("u1", 2, [("b1", prof(ld=6), (10, 5))]),
                         ("u2", 5, [("nob", prof(ld=7), (10, 9)), ("b2", prof(ld=6), (11, 9))])],
                        [("kell", prof(weapons=[GUN]), (27, 11))])
    assert state.units["u2"].leadership == 7
    before = "\n".join(plan(game, state, "u1").explain)
    assert "u2 is a leader (Leadership 7 against 6)" in before
    events = take_down(state, state.operatives["nob"], "test", game)
    assert state.units["u2"].leadership == 6
    assert {"type": "unit_leadership", "unit": "u2", "leadership": 6,
            "why": "nob is out of action"} in events
    after = "\n".join(plan(game, state, "u1").explain)
    assert "is a leader" not in after
