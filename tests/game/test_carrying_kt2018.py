"""003 Carrying models to safety in Kill Team 2018, where a battle round has phases: the
pick-up in the movement phase "ends all actions for this turn so the model can not shoot or
charge this turn" (no shot, no fight in that battle round's later phases), and a carrier
"always counts as having moved for terms of shooting" (004 Heavy: -1 to hit in later rounds
too, though it stood still)."""

from __future__ import annotations

import copy

import pytest

from solo_ops.core.dice import ScriptedDice
from solo_ops.core.errors import RuleError
from solo_ops.game.engine import Game, new_game, pending, step
from solo_ops.game.state import State
from solo_ops.game.turns import player_ready, why_not_ready
from solo_ops.io.scenario import parse_scenario

HEAVY_BOLTER = {"name": "heavy bolter", "type": "heavy", "type_2018": "heavy",
                "range_2018": 36, "attacks": 5, "hit": 3, "damage": [4, 5], "strength": 5,
                "ap": -1, "damage_2018": 1, "shots": 3}
LASGUN = {"name": "lasgun", "type": "rapid", "type_2018": "rapid", "range_2018": 24,
          "attacks": 4, "hit": 4, "damage": [2, 3], "strength": 3, "ap": 0,
          "damage_2018": 1, "shots": 1}


def _profile(weapon: dict) -> dict:
    return {"name": "T", "movement": 6, "leadership": 7, "toughness": 3, "wounds": 8,
            "save": 4, "base_mm": 25, "apl": 2, "ws": 4, "bs": 4, "strength": 3, "attacks": 1,
            "weapons": [copy.deepcopy(weapon)], "kt2018": {"wounds": 2}}


def _game() -> tuple[Game, State]:
    """a1 (a heavy bolter) beside a2 (down), an open table, e1 far off on Remain Stationary;
    the players win every roll-off (6 against 1, then 5 against 3), the other dice 5s and 3s."""
    board = {"name": "t", "width": 30, "depth": 22, "features": [],
             "zones": {"player": [[0, 0], [6, 0], [6, 22], [0, 22]],
                       "enemy": [[24, 0], [30, 0], [30, 22], [24, 22]]}}
    doc = {"name": "carry 2018", "edition": "kt2018", "board": board,
           "roster": {"name": "r", "profiles": {"t": _profile(LASGUN)},
                      "table": {i: "t" for i in range(1, 7)}},
           "engagement": 0, "seed": 1,
           "squads": [{"player": "Ana", "models": [
               {"id": "a1", "profile": _profile(HEAVY_BOLTER), "at": [3, 10]},
               {"id": "a2", "profile": _profile(LASGUN), "at": [4.2, 10]}]}],
           "enemies": [{"id": "u1", "command": 1, "models": [
               {"id": "e1", "profile": "t", "at": [27, 11]}]}],
           "settings": {"turns": 3, "enemy_attacks": "engine", "cp_rerolls": "never"}}
    game, state = new_game(parse_scenario(doc, "carry.yaml"), 1)
    state.counters.clear()
    state.dice = ScriptedDice(faces=[6, 1] * 2 + [5, 3] * 150)
    step(game, state, {"type": "engine"})
    step(game, state, {"type": "down", "operative": "a2"})
    step(game, state, {"type": "activate", "operative": "a1"})
    step(game, state, {"type": "carry", "operative": "a1", "target": "a2"})
    return game, state


def _engine_to(game: Game, state: State, turn: int, phase: str) -> None:
    for _ in range(60):
        if (state.turn, state.phase) == (turn, phase) and pending(game, state).kind != "engine":
            return
        if pending(game, state).kind == "engine":
            step(game, state, {"type": "engine"})
        else:
            prompt = pending(game, state)
            if prompt.kind == "activate":
                step(game, state, {"type": "activate", "operative": prompt.options[0]})
            step(game, state, {"type": "done"})
    raise AssertionError(f"never reached {phase} of round {turn}")


def test_the_carrier_has_no_shot_in_the_battle_round_it_picked_up() -> None:
    game, state = _game()
    for _ in range(20):  # through the rest of round 1
        if state.turn != 1:
            break
        if state.phase == "shooting" and pending(game, state).kind != "engine":
            a1 = state.operatives["a1"]
            assert a1 not in player_ready(game, state, "Ana")
            assert why_not_ready(game, state, a1) == (
                "a1 picked up a2 this battle round: that ended its actions, it cannot shoot")
            with pytest.raises(RuleError, match="picked up a2 this battle round"):
                step(game, state, {"type": "activate", "operative": "a1"})
                step(game, state, {"type": "shoot", "operative": "a1", "target": "e1",
                                   "weapon": "heavy bolter", "roll": True})
            break
        step(game, state, {"type": "engine"})
    else:
        raise AssertionError("the shooting phase of round 1 never asked the players")


def test_a_carrier_that_stood_still_still_fires_heavy_at_minus_one() -> None:
    game, state = _game()
    _engine_to(game, state, 2, "shooting")
    a1 = state.operatives["a1"]
    assert a1.carrying == "a2" and a1.moved_how is None  # it did not move in round 2
    step(game, state, {"type": "activate", "operative": "a1"})
    result = step(game, state, {"type": "shoot", "operative": "a1", "target": "e1",
                                "weapon": "heavy bolter", "roll": True})
    assert result["rolls"][0]["modifiers"] == [["Heavy, moved", -1]]


def test_a_carrier_cannot_react_in_the_battle_round_it_picked_up() -> None:
    """Overwatch is a shooting attack and a Retreat a move: a model whose pick-up "ends all
    actions for this turn" may do neither, so a charge at it that battle round asks nothing
    and says why."""
    game, state = _game()
    brute = {**_profile(LASGUN), "weapons": [{"name": "knife", "type": "melee", "attacks": 3,
                                               "hit": 4, "damage": [2, 3]}]}
    from dataclasses import replace

    from solo_ops.io.roster import parse_profile

    e1 = state.operatives["e1"]
    e1.profile = replace(parse_profile(brute, "t.yaml", "e1", "t").for_edition("kt2018"),
                         name=e1.profile.name)
    e1.at = (12.0, 10.0)
    unit = state.units[e1.owner]
    unit.troop, unit.command = "melee", 5  # Towards closest enemy, charge: Yes
    asked = []
    for _ in range(20):
        if state.turn != 1 or state.phase != "movement":
            break
        prompt = pending(game, state)
        if prompt.kind == "reaction":
            asked.append(prompt.text)
            break
        step(game, state, {"type": "engine"} if prompt.kind == "engine" else {"type": "done"})
    assert asked == []
    [why] = [e["why"] for record in state.log for e in record["events"]
             if e["type"] == "cannot_react"]
    assert why == ("a1 cannot React: it picked a friend up this battle round: that ended its "
                   "actions (003 Carrying)")
