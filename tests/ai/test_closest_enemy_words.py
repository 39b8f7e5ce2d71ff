"""The planner's first line about a model says how far its closest enemy is, and says "around
the walls" only when the way bends round terrain; across open ground the enemy is simply
"away" (a play-tester read "around the walls" of two models facing each other in the open).
"""

from __future__ import annotations

import copy
import math
import re
from typing import Any

import tests.support.guard_board as tg
from solo_ops.core.dice import ScriptedDice, SeededDice
from solo_ops.game.engine import new_game, step
from solo_ops.io.scenario import parse_scenario

GUNNER_AT = (15.0, 10.0)
KELL_AT = (5.0, 10.0)


def _first_line(features: list[dict[str, Any]]) -> str:
    """The first line the planner says about gunner-1, on a 30" x 22" board with
    ``features``, Sgt Kell 10" to its west."""
    doc = {"name": "words", "edition": "kt2024",
           "board": {"name": "b", "width": 30, "depth": 22, "features": features},
           "roster": {"name": "r", "profiles": {"gunner": copy.deepcopy(tg.GUNNER)},
                      "table": {i: "gunner" for i in range(1, 7)}},
           "engagement": 1, "seed": 1,
           "squads": [{"player": "Ana", "models": [
               {"id": "kell", "name": "Sgt Kell", "profile": copy.deepcopy(tg.GUNNER),
                "at": list(KELL_AT)}]}],
           "enemies": [{"id": "u1", "command": 1, "models": [
               {"id": "gunner-1", "name": "Gunner", "profile": copy.deepcopy(tg.GUNNER),
                "at": list(GUNNER_AT)}]}],
           "settings": {"cp_rerolls": "never"}}
    game, state = new_game(parse_scenario(doc, "words.yaml"), 1)
    state.counters.clear()
    state.dice = ScriptedDice(faces=[1, 6])  # initiative: solo-ops
    step(game, state, {"type": "engine"})
    state.dice = SeededDice(seed=2)
    record = step(game, state, {"type": "engine"})
    (activation,) = [e for e in record["events"] if e["type"] == "enemy_activation"]
    (line,) = [s for s in activation["explain"] if s.startswith("gunner-1 at (15.0, 10.0)")]
    return line


def _inches(line: str) -> float:
    return float(re.search(r", (\d+\.\d)\" ", line).group(1))


def test_open_ground_is_away_at_the_straight_distance() -> None:
    line = _first_line([])
    edge = math.dist(GUNNER_AT, KELL_AT) - 2 * tg.GUNNER["base_mm"] / 2 / 25.4
    assert line.endswith("is Sgt Kell, " + f"{edge:.1f}" + "\" away.")
    assert "around the walls" not in line


def test_a_wall_between_is_around_the_walls_and_farther_than_the_straight_line() -> None:
    wall = {"id": "w", "traits": ["wall"], "line": [[10, 2], [10, 18]]}
    line = _first_line([wall])
    assert line.endswith("\" around the walls.")
    # no sight through the wall: the nearest by route, and the way round its end is longer
    # than the straight 10" (centre to centre, less the two bases)
    assert "(none is in sight: the nearest by route)" in line
    straight = math.dist(GUNNER_AT, KELL_AT)
    round_end = math.dist(GUNNER_AT, (10, 18)) + math.dist((10, 18), KELL_AT)
    radius = tg.GUNNER["base_mm"] / 2 / 25.4
    assert straight - 2 * radius + 1 < _inches(line) <= round_end - 2 * radius + 0.5


def test_a_way_that_bends_by_less_than_the_bases_is_still_around_the_walls() -> None:
    """The wall ends at y = 11, 1" above the line between the centres: the way round its end
    is 2 * hypot(5, 1) = 10.198" centre to centre, 0.198" longer than the straight line (less
    than the two bases' 0.984" together, so the straight line is measured base to base too)."""
    wall = {"id": "w", "traits": ["wall"], "line": [[10, 2], [10, 11]]}
    line = _first_line([wall])
    radius = tg.GUNNER["base_mm"] / 2 / 25.4
    round_end = 2 * math.hypot(5, 1) - 2 * radius
    assert line.endswith(f"is Sgt Kell, {round_end:.1f}\" around the walls.")
