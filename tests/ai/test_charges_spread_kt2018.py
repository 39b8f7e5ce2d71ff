"""Kill Team 2018: the models of a unit that charge one target plan different end spots, as a
player declaring those charges would, so a later charger does not fall short on a mate's base
(004 Charge: "the model must finish its move within 1" of at least one of the target
models"). They all used to make for the one cheapest spot."""

from __future__ import annotations

import math
from pathlib import Path

from solo_ops.ai.planner import plan_activation
from solo_ops.game.engine import new_game
from solo_ops.io.scenario import load_scenario
from tests.support.scenario_files import AXE, TROOPER, prof, scenario


def test_three_chargers_plan_three_spots_within_1_inch(tmp_path: Path) -> None:
    """Three brutes (Melee command 3, Charge Yes) 6" from a trooper: three declared charges,
    each route ending within 1" of the trooper, no two ends closer than two bases."""
    path = scenario(tmp_path, [("u1", 3, [("e1", prof(AXE), (10, 11)), ("e2", prof(AXE), (10, 13)),
                                          ("e3", prof(AXE), (10, 9))])],
                    [("kell", TROOPER, (16, 11))], edition="kt2018")
    game, state = new_game(load_scenario(path), 1)
    plan = plan_activation(game.context(state), state, "u1", "movement")
    ends = [a.route[-1] for a in plan.actions if a.kind == "charge"]
    assert len(ends) == 3
    for end in ends:
        assert math.dist(end, (16, 11)) - 1.0 <= 1.0 + 1e-9
    assert all(math.dist(a, b) >= 1.0 - 1e-9 for i, a in enumerate(ends) for b in ends[i + 1:])
