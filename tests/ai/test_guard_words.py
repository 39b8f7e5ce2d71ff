"""Why an enemy goes On Guard is said truly (Kill Team 2024, Gallowdark). The Guard line said
"no enemy in sight and range" of a model that could see a player's operative in range: the
operative was on a Conceal order and in cover, so not a valid target (001 Valid target; a
play-tester, Gallowdark night raid). The board: 30" x 22", no wall; a light crate from x 13 to
14, y 9 to 13; the enemy e1 (Fire Teams command 1: remain stationary, fire at will) at
(20, 11); the players' a1 at (12, 11), behind the crate, 8" from e1 in the open otherwise, a2
far off at (3, 20) behind a heavy block."""

from __future__ import annotations

import copy
from typing import Any

from solo_ops.core.dice import ScriptedDice
from solo_ops.game.engine import new_game, step
from solo_ops.io.scenario import parse_scenario
from tests.support.guard_board import GUNNER

CRATE = {"id": "crate-1", "traits": ["light"], "polygon": [[13, 9], [14, 9], [14, 13], [13, 13]]}
BLOCK = {"id": "block-1", "traits": ["heavy", "blocking"],
         "polygon": [[5, 15], [7, 15], [7, 22], [5, 22]]}


def _guard_line(stance: str) -> list[str]:
    doc = {"name": "guard words", "edition": "kt2024",
           "board": {"name": "guard words", "width": 30, "depth": 22, "killzone": "gallowdark",
                     "features": [copy.deepcopy(CRATE), copy.deepcopy(BLOCK)]},
           "roster": {"name": "r", "profiles": {"gunner": copy.deepcopy(GUNNER)},
                      "table": {i: "gunner" for i in range(1, 7)}},
           "engagement": 1, "seed": 1,
           "squads": [{"player": "Ana", "models": [
               {"id": "a1", "profile": copy.deepcopy(GUNNER), "at": [12, 11]},
               {"id": "a2", "profile": copy.deepcopy(GUNNER), "at": [3, 20]}]}],
           "enemies": [{"id": "u1", "command": 1, "models": [
               {"id": "e1", "profile": copy.deepcopy(GUNNER), "at": [20, 11]}]}],
           "settings": {"turns": 2, "cp_rerolls": "never"}}
    game, state = new_game(parse_scenario(doc, "guard-words.yaml"), 1)
    state.counters.clear()
    state.dice = ScriptedDice(faces=[1, 6] + [1] * 12)  # initiative 1 v 6: the enemy first
    for op in ("a1", "a2"):
        state.operatives[op].stance = stance
    step(game, state, {"type": "engine"})
    assert state.initiative == "enemy"
    record: dict[str, Any] = step(game, state, {"type": "engine"})
    activation = next(e for e in record["events"] if e["type"] == "enemy_activation")
    return [line for line in activation["explain"] if "goes On Guard" in line]


def test_a_concealed_operative_in_cover_is_named_as_not_a_valid_target() -> None:
    assert _guard_line("conceal") == [
        "e1 goes On Guard (Guard, 1 AP): no valid target: a1 is on a Conceal order and in "
        "cover; it will shoot (or fight) the first enemy operative that ends an action where "
        "it can, until it acts again or the next turning point."]


def test_an_engaged_operative_in_cover_is_shot_not_guarded_against() -> None:
    # the same place on an Engage order is a valid target: e1 shoots it instead
    assert _guard_line("engage") == []
