"""Shared by the tests: moved from ai/test_enemy_guard.py."""

from __future__ import annotations

import copy
from typing import Any

from solo_ops.core.dice import ScriptedDice
from solo_ops.game.engine import new_game, step
from solo_ops.io.scenario import parse_scenario

GUNNER = {"name": "Gunner", "movement": 6, "leadership": 7, "toughness": 3, "wounds": 10,
          "save": 5, "base_mm": 25.4, "apl": 2,
          "weapons": [{"name": "autogun", "type": "rapid", "range": 24, "attacks": 4, "hit": 4,
                       "damage": [3, 4]},
                      {"name": "knife", "type": "melee", "attacks": 3, "hit": 4,
                       "damage": [2, 3]}]}


BOARD = {"name": "guard table", "width": 30, "depth": 22, "killzone": "gallowdark",
         "features": [{"id": "wall-1", "traits": ["wall"], "line": [[15, 4], [15, 16]]}]}


def start(faces: list[int], *, enemy_attacks: str = "engine", knife: bool = True
          ) -> tuple[Any, Any]:
    enemy = copy.deepcopy(GUNNER)
    if not knife:
        enemy["weapons"] = enemy["weapons"][:1]
    doc = {"name": "guard", "edition": "kt2024", "board": copy.deepcopy(BOARD),
           "roster": {"name": "r", "profiles": {"gunner": copy.deepcopy(GUNNER)},
                      "table": {i: "gunner" for i in range(1, 7)}},
           "engagement": 1, "seed": 1,
           "squads": [{"player": "Ana", "models": [
               {"id": "a1", "profile": copy.deepcopy(GUNNER), "at": [12, 14.5]},
               {"id": "a2", "profile": copy.deepcopy(GUNNER), "at": [3, 10]}]}],
           "enemies": [{"id": "u1", "command": 1, "models": [
               {"id": "e1", "profile": enemy, "at": [20, 11]}]}],
           # the scripted dice have no CP re-roll questions (tests/game/test_cp_rerolls.py does)
           "settings": {"turns": 2, "enemy_attacks": enemy_attacks, "cp_rerolls": "never"}}
    game, state = new_game(parse_scenario(doc, "guard.yaml"), 1)
    state.counters.clear()
    state.dice = ScriptedDice(faces=faces)
    return game, state


def enemy_goes_first(game: Any, state: Any) -> dict[str, Any]:
    step(game, state, {"type": "engine"})  # turning point 1: initiative 1 v 6, the enemy
    assert state.initiative == "enemy"
    return step(game, state, {"type": "engine"})  # u1 activates
