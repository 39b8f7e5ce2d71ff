"""An enemy move planned from where an earlier move of the same activation was to end, when
that move stopped short (a base in its way), starts where the model stands: its route begins
there and its cost is that route's, within its allowance. (Found by the table audit in a
Gallowdark night raid: a Reposition stopped by a friend's base, then a Dash planned from the
Reposition's planned end.)"""

from __future__ import annotations

import math

from solo_ops.ai.context import Action, Plan
from solo_ops.core.tables import order_table
from solo_ops.game import enemy
from tests.support.order_boards import GUN, prof, setup


def test_a_dash_after_a_reposition_stopped_by_a_base_walks_from_where_the_model_stands() -> None:
    """e1 (a 1" base) plans a Reposition 6" east to (11, 11), where e2 stands, then a Dash
    3" north from there. The Reposition stops with the bases touching, 1" short of e2's
    centre: (10, 11) after 5". The Dash walks from (10, 11) towards (11, 14), 3.16" away in a
    straight line: it ends on that way, its 3" spent."""
    game, state = setup([("u1", 5, [("e1", prof(), (5, 11)), ("e2", prof(), (11, 11))])],
                        [("kell", prof(weapons=[GUN]), (25, 3))])
    plan = Plan("u1", 5, "support", order_table("support")[5], "idle")
    plan.actions = [
        Action("reposition", "e1", start=(5, 11), to=(11, 11), route=((5, 11), (11, 11)),
               cost=6.0),
        Action("dash", "e1", start=(11, 11), to=(11, 14), route=((11, 11), (11, 14)), cost=3.0)]
    moves = [e for e in enemy.apply_plan(game, state, plan) if e["type"] == "moved"]
    reposition, dash = moves
    assert reposition["how"] == "reposition" and reposition["to"] == [10.0, 11.0]
    assert reposition["cost"] == 5.0 and reposition["blocked_by"] == "e2's base is there"
    assert dash["how"] == "dash" and dash["from"] == reposition["to"]
    assert dash["route"][0] == dash["from"] and dash["route"][-1] == dash["to"]
    assert dash["cost"] == 3.0
    assert "It starts from (10.0, 11.0), where its last move stopped." in dash["note"]
    # it ends on the way to (11, 14): at most 3" from (10, 11), short of the planned end
    end = tuple(dash["to"])
    assert math.dist(end, (10.0, 11.0)) <= 3.0 + 0.01 and math.dist(end, (11, 14)) > 0.1
    assert state.operatives["e1"].at == end
