"""Shared by the tests: moved from game/test_player_portals.py."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from solo_ops.core.dice import ScriptedDice
from solo_ops.core.errors import RuleError
from solo_ops.game.engine import Game, new_game, pending, step
from solo_ops.game.state import State
from solo_ops.io.scenario import parse_scenario

TROOPER = {"name": "Trooper", "movement": 6, "leadership": 7, "toughness": 3, "wounds": 8,
           "save": 4, "base_mm": 25, "apl": 2,
           "weapons": [{"name": "lasgun", "type": "rapid", "range": 24, "attacks": 4, "hit": 4,
                        "damage": [2, 3]}],
           "kt2018": {"wounds": 1, "save": 5}}


RADIUS = 25 / 25.4 / 2


PORTAL = {"id": "portal-1", "line": [[15, 10], [15, 12]]}  # its middle is (15, 11)


def board(kind: str, portal_open: bool) -> dict[str, Any]:
    return {"name": "portal table", "width": 30, "depth": 22,
            "features": [{"id": "wall-n", "traits": ["wall"], "line": [[15, 12], [15, 22]]},
                         {"id": "wall-s", "traits": ["wall"], "line": [[15, 0], [15, 10]]},
                         {**copy.deepcopy(PORTAL), "traits": [kind], "open": portal_open},
                         # the enemy's corner, walled off: x 25-30, y 0-5
                         {"id": "wall-e", "traits": ["wall"], "line": [[25, 0], [25, 5]]},
                         {"id": "wall-f", "traits": ["wall"], "line": [[25, 5], [30, 5]]}],
            "zones": {"player": [[0, 0], [6, 0], [6, 22], [0, 22]],
                      "enemy": [[24, 0], [30, 0], [30, 22], [24, 22]]}}


def start(models: dict[str, tuple[float, float]], *, kind: str = "door",
          portal_open: bool = False, edition: str = "kt2024", turns: int = 2,
          enemy_at: tuple[float, float] = (28, 2),
          more_enemies: dict[str, tuple[float, float]] | None = None,
          settings: dict[str, Any] | None = None) -> tuple[Game, State]:
    """A game at the players' first activation (the players won the initiative): the
    players' ``models``, the enemy trooper e1 at ``enemy_at`` (and ``more_enemies`` in its
    unit), ``settings`` beside the turns."""
    doc = {"name": "portal test", "edition": edition, "board": board(kind, portal_open),
           "roster": {"name": "r", "profiles": {"trooper": copy.deepcopy(TROOPER)},
                      "table": {i: "trooper" for i in range(1, 7)}},
           "engagement": 0, "seed": 1,
           "squads": [{"player": "Ana", "models": [
               {"id": mid, "profile": copy.deepcopy(TROOPER), "at": list(at)}
               for mid, at in models.items()]}],
           "enemies": [{"id": "u1", "command": 1, "models": [
               {"id": "e1", "profile": "trooper", "at": list(enemy_at)},
               *({"id": mid, "profile": "trooper", "at": list(at)}
                 for mid, at in (more_enemies or {}).items())]}],
           "settings": {"turns": turns, **(settings or {})}}
    game, state = new_game(parse_scenario(doc, "portal.yaml"), 1)
    state.dice = ScriptedDice(faces=[6, 1] * 4)
    step(game, state, {"type": "engine"})
    assert pending(game, state).kind == "activate"
    return game, state


def snapshot(state: State) -> str:
    """Everything a refused answer must leave as it was."""
    return json.dumps([state.to_dict(secrets=True), len(state.log),
                       {o.id: (o.ap_used, o.actions_taken) for o in state.operatives.values()}])


def refused(game: Game, state: State, action: dict[str, Any], match: str) -> None:
    before = snapshot(state)
    with pytest.raises(RuleError, match=match):
        step(game, state, action)
    assert snapshot(state) == before
