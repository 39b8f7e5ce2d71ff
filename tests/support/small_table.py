"""Shared by the tests: moved from game/test_engine.py."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from solo_ops.core.dice import ScriptedDice
from solo_ops.core.errors import RuleError
from solo_ops.game.engine import Game, new_game, step
from solo_ops.game.state import State
from solo_ops.io.scenario import parse_scenario

TROOPER = {"name": "Trooper", "movement": 6, "leadership": 7, "toughness": 3, "wounds": 8,
           "save": 4, "base_mm": 25, "apl": 2,
           "weapons": [{"name": "lasgun", "type": "rapid", "range": 24, "attacks": 4, "hit": 4,
                        "damage": [2, 3]},
                       {"name": "knife", "type": "melee", "attacks": 3, "hit": 4,
                        "damage": [2, 3]}],
           "kt2018": {"wounds": 1, "save": 5}}


BOARD = {"name": "test table", "width": 30, "depth": 22,
         "features": [{"id": "wall-1", "traits": ["wall"], "line": [[15, 4], [15, 18]]}],
         "zones": {"player": [[0, 0], [6, 0], [6, 22], [0, 22]],
                   "enemy": [[24, 0], [30, 0], [30, 22], [24, 22]]},
         "objectives": [{"id": "obj-1", "at": [4, 11]}, {"id": "obj-2", "at": [26, 11]}]}


def scenario(edition: str = "kt2024", *, turns: int = 2, coop: bool = False,
             enemy_at: tuple[float, float] = (27, 11), **extra: Any) -> Any:
    squads = [{"player": "Ana", "models": [{"id": "a1", "profile": copy.deepcopy(TROOPER),
                                            "at": [3, 10]},
                                           {"id": "a2", "profile": copy.deepcopy(TROOPER)}]}]
    if coop:
        squads.append({"player": "Ben", "models": [{"id": "b1", "profile":
                                                    copy.deepcopy(TROOPER), "at": [3, 14]}]})
    doc = {"name": "engine test", "edition": edition, "board": copy.deepcopy(BOARD),
           "roster": {"name": "r", "profiles": {"trooper": copy.deepcopy(TROOPER)},
                      "table": {i: "trooper" for i in range(1, 7)}},
           "engagement": 1, "seed": 1, "squads": squads,
           "enemies": [{"id": "u1", "command": 5, "models": [
               {"id": "e1", "profile": "trooper", "at": list(enemy_at)}]}],
           # the scripted dice have no CP re-roll questions (tests/game/test_cp_rerolls.py does)
           "settings": {"turns": turns, "cp_rerolls": "never"}, **extra}
    return parse_scenario(doc, "test.yaml")


def start(edition: str = "kt2024", faces: list[int] | None = None, **kw: Any
          ) -> tuple[Game, State]:
    """A game without hidden counters, its later dice scripted."""
    game, state = new_game(scenario(edition, **kw), 1)
    state.counters.clear()
    if faces is not None:
        state.dice = ScriptedDice(faces=faces)
    return game, state





def active(enemy_at: tuple[float, float] = (27, 11), edition: str = "kt2024",
           stance: str = "engage", **kw: Any) -> tuple[Any, Any]:
    """a1 (at 3,10) activated; the enemy e1 placed at ``enemy_at``."""
    game, state = start(edition, faces=[6, 1], enemy_at=enemy_at, **kw)
    step(game, state, {"type": "engine"})
    step(game, state, {"type": "activate", "operative": "a1", "stance": stance})
    return game, state


def refused(game: Any, state: Any, action: dict[str, Any], reason: str) -> None:
    before = json.dumps(state.to_dict(secrets=True)), len(state.log)
    with pytest.raises(RuleError, match=reason):
        step(game, state, action)
    assert (json.dumps(state.to_dict(secrets=True)), len(state.log)) == before




def game_at(enemy_at: tuple[float, float] = (27, 11), a2: tuple[float, float] = (1, 20),
            **kw: Any) -> tuple[Any, Any]:
    """a1 at (3, 10) active (Engage); a2 moved out of the way; e1 at ``enemy_at``."""
    game, state = active(enemy_at=enemy_at, **kw)
    state.operatives["a2"].at = a2
    return game, state
