"""The table of the counteract, marker and Kill Op tests: a hand-made 30" x 22" board whose
enemy corner (x 25-30, y 0-5) is walled off, so the units there neither see nor reach the squad
and hold still (a fixed command 1: remain stationary; Conceal, with nothing to shoot). A gunner
outside it (``gunner_at``) stands in the open. Bases are 25 mm: radius 0.492". Dice are
scripted: the first two faces are the initiative roll-off (6 against 1: the players first).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from solo_ops.core.dice import ScriptedDice
from solo_ops.core.errors import RuleError
from solo_ops.game.engine import Game, new_game, pending, step
from solo_ops.game.state import PLAYER, State
from solo_ops.io.scenario import parse_scenario

TROOPER = {"name": "Trooper", "movement": 6, "leadership": 7, "toughness": 3, "wounds": 8,
           "save": 4, "base_mm": 25, "apl": 2,
           "weapons": [{"name": "lasgun", "type": "rapid", "range": 24, "attacks": 4, "hit": 4,
                        "damage": [2, 3]},
                       {"name": "knife", "type": "melee", "attacks": 3, "hit": 4,
                        "damage": [2, 3]}],
           "kt2018": {"wounds": 1, "save": 5}}
RADIUS = 25 / 25.4 / 2
CORNER = [(27.0, 1.5), (28.5, 3.5), (26.2, 3.8)]  # inside the walled-off corner


def board(objectives: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The ops table's board document, with ``objectives``."""
    return {"name": "ops table", "width": 30, "depth": 22,
            "features": [{"id": "wall-e", "traits": ["wall"], "line": [[25, 0], [25, 5]]},
                         {"id": "wall-f", "traits": ["wall"], "line": [[25, 5], [30, 5]]}],
            "zones": {"player": [[0, 0], [6, 0], [6, 22], [0, 22]],
                      "enemy": [[24, 0], [30, 0], [30, 22], [24, 22]]},
            "objectives": objectives or []}


def scenario_doc(squad: dict[str, tuple[float, float]], *, units: int = 2,
                 gunner_at: tuple[float, float] | None = None, turns: int = 2,
                 objectives: list[dict[str, Any]] | None = None,
                 settings: dict[str, Any] | None = None, edition: str = "kt2024"
                 ) -> dict[str, Any]:
    """A scenario: the squad's models at their points; ``units`` one-model units in the
    corner (u1, u2, ...); a gunner unit ``g`` (command 1: remain stationary, fire at will)."""
    enemies = [{"id": f"u{i + 1}", "command": 1, "models": [
        {"id": f"e{i + 1}", "profile": "trooper", "at": list(CORNER[i])}]}
        for i in range(units)]
    if gunner_at is not None:
        enemies.append({"id": "g", "command": 1, "models": [
            {"id": "g1", "profile": "trooper", "at": list(gunner_at)}]})
    return {"name": "ops test", "edition": edition, "board": board(objectives),
            "roster": {"name": "r", "profiles": {"trooper": copy.deepcopy(TROOPER)},
                       "table": {i: "trooper" for i in range(1, 7)}},
            "engagement": 0, "seed": 1,
            "squads": [{"player": "Ana", "models": [
                {"id": mid, "profile": copy.deepcopy(TROOPER), "at": list(at)}
                for mid, at in squad.items()]}],
            "enemies": enemies, "settings": {"turns": turns, **(settings or {})}}


def start(squad: dict[str, tuple[float, float]], *, faces: list[int] | None = None,
          **kw: Any) -> tuple[Game, State]:
    """A game of :func:`scenario_doc` at turning point 1, the players holding the initiative."""
    game, state = new_game(parse_scenario(scenario_doc(squad, **kw), "ops.yaml"), 1)
    state.dice = ScriptedDice(faces=faces if faces is not None else [6, 1] * 4)
    step(game, state, {"type": "engine"})  # turning point 1: the players have the initiative
    assert state.initiative == PLAYER
    return game, state


def refused(game: Game, state: State, action: dict[str, Any], reason: str) -> None:
    """``action`` is refused with ``reason`` and changes nothing: not the state, not the log."""
    before = json.dumps(state.to_dict(secrets=True)), len(state.log)
    with pytest.raises(RuleError, match=reason):
        step(game, state, action)
    assert (json.dumps(state.to_dict(secrets=True)), len(state.log)) == before


def engine_until_prompt(game: Game, state: State) -> Any:
    """Step the engine until a player must answer; that prompt."""
    while (prompt := pending(game, state)).kind == "engine":
        step(game, state, {"type": "engine"})
    return prompt


def write_scenario(folder: Path, doc: dict[str, Any], seed: int) -> Path:
    """``doc`` with ``seed``, written as ``ops.yaml`` in ``folder``."""
    path = folder / "ops.yaml"
    path.write_text(yaml.safe_dump({**doc, "seed": seed}, sort_keys=False), encoding="utf-8")
    return path


def players_first_seed(doc: dict[str, Any]) -> int:
    """A seed whose first initiative roll-off the players win (found, not assumed)."""
    for seed in range(1, 50):
        game, state = new_game(parse_scenario({**doc, "seed": seed}, "ops.yaml"), seed)
        step(game, state, {"type": "engine"})
        if state.initiative == PLAYER:
            return seed
    raise AssertionError("no seed gives the players the initiative")
