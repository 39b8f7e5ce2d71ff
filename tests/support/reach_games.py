"""Shared by the tests: moved from rules/test_reach.py."""

from __future__ import annotations

from typing import Any

# A thin wall along x = 15 from y = 4 to y = 16.
THIN = {"id": "w1", "traits": ["wall"], "line": [[15, 4], [15, 16]]}


# A wall along x = 15 that ends at y = 10 and runs north to the board edge.
END = {"id": "w1", "traits": ["wall"], "line": [[15, 10], [15, 22]]}


# -- every query that decides control range asks reach ------------------------------------------
GRUNT = {"movement": 6, "wounds": 8, "save": 5, "leadership": 6, "toughness": 3,
         "base_mm": 25.4, "apl": 2,
         "weapons": [{"name": "gun", "type": "rapid", "range": 24, "attacks": 4, "hit": 4,
                      "damage": [3, 4]}]}


BRUTE = dict(GRUNT, weapons=[{"name": "blade", "type": "melee", "attacks": 4, "hit": 3,
                              "damage": [4, 5]}])


def game_with(features: tuple[dict[str, Any], ...], player_at: tuple[float, float],
              enemy_at: tuple[float, float], *, edition: str = "kt2024",
              objective: tuple[float, float] | None = None, command: int = 3
              ) -> tuple[Any, Any]:
    """p1 (a gunner) at ``player_at``, the enemy e1 (a melee brute, Melee command 3: towards
    the closest enemy, charge "Yes") at ``enemy_at``; no hidden counters."""
    from solo_ops.game.engine import new_game
    from solo_ops.io.scenario import parse_scenario

    board: dict[str, Any] = {"name": "T", "width": 30, "depth": 22, "features": list(features)}
    if objective is not None:
        board["objectives"] = [{"id": "obj-1", "at": list(objective)}]
    doc = {"name": "t", "edition": edition, "board": board, "engagement": 1, "seed": 1,
           "roster": {"name": "R", "profiles": {"grunt": GRUNT},
                      "table": {i: "grunt" for i in range(1, 7)}},
           "squads": [{"player": "Ana", "models": [{"id": "p1", "profile": GRUNT,
                                                    "at": list(player_at)}]}],
           "enemies": [{"id": "u1", "command": command,
                        "models": [{"id": "e1", "profile": BRUTE, "at": list(enemy_at)}]}]}
    game, state = new_game(parse_scenario(doc, "t.yaml"), 1)
    state.counters.clear()
    return game, state
