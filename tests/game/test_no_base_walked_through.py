"""No base is walked through: a planned move whose way a base now closes, with no way round
the bases left, stops before the first base on it (issue #27: "no base is walked through";
001: a model is placed on the killzone, and no rule lets one move through another's base --
the players' route check goes round every base)."""

from __future__ import annotations

from solo_ops.ai.planner import Action, Plan
from solo_ops.core.tables import order_table
from solo_ops.game.enemy import apply_plan
from solo_ops.game.engine import new_game
from solo_ops.io.scenario import parse_scenario
from solo_ops.sim.referee_audit import players_refusal
from tests.support.reach_games import BRUTE, GRUNT

# a corridor 2" wide (y 10-12) from its closed west end at x = 5 to x = 25; 25.4 mm bases
# (1" across) cannot pass one another in it
CORRIDOR = ({"id": "wall-n", "traits": ["wall"], "line": [[5, 12], [25, 12]]},
            {"id": "wall-s", "traits": ["wall"], "line": [[5, 10], [25, 10]]},
            {"id": "wall-w", "traits": ["wall"], "line": [[5, 10], [5, 12]]})


def _game() -> tuple:
    doc = {"name": "corridor", "edition": "kt2024",
           "board": {"name": "c", "width": 30, "depth": 22, "features": list(CORRIDOR)},
           "engagement": 1, "seed": 1,
           "roster": {"name": "R", "profiles": {"grunt": GRUNT},
                      "table": {i: "grunt" for i in range(1, 7)}},
           "squads": [{"player": "Ana", "models": [{"id": "p1", "profile": GRUNT,
                                                    "at": [2, 2]}]}],
           "enemies": [{"id": "u1", "command": 3, "models": [
               {"id": "e1", "profile": BRUTE, "at": [8, 11]},
               {"id": "e2", "profile": BRUTE, "at": [11, 11]}]}]}
    game, state = new_game(parse_scenario(doc, "c.yaml"), 1)
    state.counters.clear()
    return game, state


def test_a_move_stops_before_the_base_that_closes_the_corridor() -> None:
    """e1 (8, 11) was planned 6" east along the corridor to (14, 11); e2 stands at (11, 11)
    in its way and the corridor leaves no way round it. e1 stops touching e2: its centre 1"
    from e2's (two 0.5" radii), at (10, 11) -- 2" moved, on the record's 0.01" grid -- and
    says what stopped it (it used to walk through e2 to (14, 11)). The players' own check
    accepts the move as made."""
    game, state = _game()
    e1 = state.operatives["e1"]
    move = Action("reposition", "e1", start=(8.0, 11.0), to=(14.0, 11.0),
                  route=((8.0, 11.0), (14.0, 11.0)), cost=6.0)
    assert players_refusal(game, state, e1, move, []) is None  # as the audit judges it
    plan = Plan("u1", 3, "melee", order_table("melee")[3], "idle", actions=[move])
    moved = next(e for e in apply_plan(game, state, plan) if e["type"] == "moved")
    assert moved["to"] == [10.0, 11.0]
    assert moved["cost"] == 2.0
    assert moved["blocked_by"] == "e2's base is there"
    assert e1.at == (10.0, 11.0)
