"""Grouping with a leader and answering a rally are measured along the routes around walls:
003 Allies "Group with leaders" / "Rally" -- a unit moves to join the leader, so a point just
across a wall from it is no nearer. (A unit used to walk to the wall's near side, further
from its leader by the route.)"""

from __future__ import annotations

from pathlib import Path

from solo_ops.game.engine import new_game
from solo_ops.io.scenario import load_scenario
from tests.support.scenario_files import GUN, KNIFE, ai_plan, prof, scenario

WALL = ({"id": "wall", "traits": ["wall"], "line": [[15, 0], [15, 14]]},)


def test_a_unit_groups_with_its_leader_round_the_wall(tmp_path: Path) -> None:
    """A Fire Teams unit (command 2: To Cover, Group with leaders; Leadership 6) east of a
    wall; a leader (Leadership 8, command radius 8") 4" away west of it in a straight line,
    6.3" by the route round the wall's north end. Its move ends nearer the leader by the
    route than it started -- round the wall, not against its near side."""
    leader = {**prof(GUN, KNIFE), "leadership": 8}
    trooper = prof(GUN, KNIFE)
    path = scenario(tmp_path, [("u1", 2, [("e1", trooper, (17, 10))]),
                               ("u2", 1, [("nob", leader, (13, 12))])],
                    [("kell", prof(GUN), (27, 3))], features=WALL)
    plan = ai_plan(path)
    assert any("u2 is a leader (Leadership 8 against 6)" in line for line in plan["explain"])
    move = next(a for a in plan["actions"] if a["model"] == "e1")
    game, state = new_game(load_scenario(path), 1)
    routes = game.terrain(state).routes

    def by_route(p: list[float] | tuple[float, float]) -> float:
        d = routes.distance(tuple(p), (13.0, 12.0), 0.5, 0.5).distance
        assert d is not None
        return d

    assert by_route(move["to"]) < by_route((17.0, 10.0)) - 3.0
    assert move["to"][1] > 14.0  # round the wall's north end
