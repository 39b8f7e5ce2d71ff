"""Texts name an enemy model by its id (the id on the map: several models share a profile
name) and a player's operative by its name, where they are made: the planner's explanations,
shot and fight notes, the dice lines of attacks and fights, damage reasons
(``Operative.label``). Reading: docs/rules.md, "Playing a mission".
"""

from __future__ import annotations

from typing import Any

from solo_ops.core.dice import ScriptedDice, SeededDice
from solo_ops.game.engine import new_game, step
from solo_ops.io.scenario import parse_scenario


def _gunners(kell_at: list[float]) -> tuple[Any, Any]:
    import copy

    import tests.support.guard_board as tg

    doc = {"name": "ids", "edition": "kt2024",
           "board": {"name": "open", "width": 30, "depth": 22},
           "roster": {"name": "r", "profiles": {"gunner": copy.deepcopy(tg.GUNNER)},
                      "table": {i: "gunner" for i in range(1, 7)}},
           "engagement": 1, "seed": 1,
           "squads": [{"player": "Ana", "models": [
               {"id": "kell", "name": "Sgt Kell", "profile": copy.deepcopy(tg.GUNNER),
                "at": kell_at}]}],
           "enemies": [{"id": "u1", "command": 1, "models": [
               {"id": f"gunner-{k}", "name": "Gunner", "profile": copy.deepcopy(tg.GUNNER),
                "at": [15, 8 + 2 * k]} for k in (1, 2)]}],
           "settings": {"cp_rerolls": "never"}}  # no CP re-roll questions (test_cp_rerolls)
    game, state = new_game(parse_scenario(doc, "ids.yaml"), 1)
    state.counters.clear()
    return game, state


def test_the_planner_and_the_dice_lines_name_enemy_models_by_id() -> None:
    """Two enemy models share the profile name "Gunner": the planner's explanation, the shot
    notes and the damage's why name each by its id (the id on the map), the player's operative
    by its name; narration prints them as they are."""
    game, state = _gunners([5, 10])
    state.dice = ScriptedDice(faces=[1, 6])  # initiative: solo-ops
    step(game, state, {"type": "engine"})
    state.dice = SeededDice(seed=2)
    record = step(game, state, {"type": "engine"})
    (activation,) = [e for e in record["events"] if e["type"] == "enemy_activation"]
    assert activation["explain"][2] == ("gunner-1 at (15.0, 10.0): closest enemy with line of "
                                        "sight is Sgt Kell, 9.0\" away.")
    assert not any("Gunner" in line for line in activation["explain"])
    shots = [e for e in record["events"] if e["type"] == "attack"]
    assert [e["note"].split(" with ")[0] for e in shots] == ["gunner-1 shoots Sgt Kell",
                                                             "gunner-2 shoots Sgt Kell"]
    whys = [e["why"] for e in record["events"] if e["type"] == "damage"]
    assert whys and all(w in ("shot by gunner-1", "shot by gunner-2") for w in whys)


def test_a_rolled_fight_names_the_enemy_by_id_in_its_dice_lines() -> None:
    """The player's rolled fight: both sides' dice lines carry the enemy's id and the
    operative's name."""
    game, state = _gunners([13.8, 10])  # 0.2" from gunner-1's base
    state.dice = ScriptedDice(faces=[6, 1])  # initiative: the players
    step(game, state, {"type": "engine"})
    step(game, state, {"type": "activate", "operative": "kell", "stance": "engage"})
    state.dice = SeededDice(seed=4)
    record = step(game, state, {"type": "fight", "target": "gunner-1", "roll": True})
    (fight,) = [e for e in record["events"] if e["type"] == "fight"]
    assert any(line.startswith("Sgt Kell: Attack dice") for line in fight["lines"])
    assert any(line.startswith("gunner-1: Attack dice") for line in fight["lines"])
    assert not any("Gunner" in line for line in fight["lines"])
