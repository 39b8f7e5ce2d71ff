"""Carrying the wounded during a real game (supplement "Carrying models to safety"): picking a
downed friend up ends the carrier's actions, a carrier moves at most 4" a turn and always counts
as having moved, and a friend still carried at the end is carried to safety — which the
campaign's survival test then rewards with +1 Toughness."""

from __future__ import annotations

import copy
import math
from typing import Any

import pytest

from solo_ops.campaign import (
    Campaign,
    CampaignSettings,
    Squad,
    SquadModel,
    record_mission,
    result_from_state,
)
from solo_ops.core.dice import ScriptedDice
from solo_ops.core.errors import RuleError
from solo_ops.game.engine import Game, new_game, pending, step
from solo_ops.game.state import State
from solo_ops.io.scenario import parse_scenario

TROOPER = {"name": "Trooper", "movement": 6, "leadership": 7, "toughness": 3, "wounds": 8,
           "save": 4, "base_mm": 25, "apl": 2,
           "weapons": [{"name": "lasgun", "type": "rapid", "range": 24, "attacks": 4, "hit": 4,
                        "damage": [2, 3]}]}
# A wall right across the middle: the enemy on the far side can neither see nor reach the
# squad, so nothing but the carrying rules moves the squad.
BOARD = {"name": "carry table", "width": 30, "depth": 22,
         "features": [{"id": "wall-1", "traits": ["wall"], "line": [[15, 0], [15, 22]]}],
         "zones": {"player": [[0, 0], [6, 0], [6, 22], [0, 22]],
                   "enemy": [[24, 0], [30, 0], [30, 22], [24, 22]]}}


def game_with_downed_friend(turns: int = 2) -> tuple[Game, State]:
    doc = {"name": "carry test", "edition": "kt2024", "board": copy.deepcopy(BOARD),
           "roster": {"name": "r", "profiles": {"trooper": copy.deepcopy(TROOPER)},
                      "table": {i: "trooper" for i in range(1, 7)}},
           "engagement": 0, "seed": 1,
           "squads": [{"player": "Ana", "models": [
               {"id": "a1", "profile": copy.deepcopy(TROOPER), "at": [3, 10]},
               {"id": "a2", "profile": copy.deepcopy(TROOPER), "at": [6, 10]}]}],
           "enemies": [{"id": "u1", "command": 1, "models": [
               {"id": "e1", "profile": "trooper", "at": [27, 11]}]}],
           "settings": {"turns": turns}}
    game, state = new_game(parse_scenario(doc, "carry.yaml"), 1)
    # players win the initiative roll-offs (6 against 1) in both turns
    state.dice = ScriptedDice(faces=[6, 1, 6, 1, 6, 1])
    step(game, state, {"type": "engine"})
    assert pending(game, state).kind == "activate"
    step(game, state, {"type": "down", "operative": "a2"})
    assert state.operatives["a2"].down
    return game, state


def finish_turn(game: Game, state: State) -> None:
    """Let the enemy act and the turn end (the enemy holds still: order row 1)."""
    while pending(game, state).kind == "engine" and not state.ended:
        turn = state.turn
        step(game, state, {"type": "engine"})
        if state.turn != turn:
            return


def carry_a2(game: Game, state: State) -> dict[str, Any]:
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    step(game, state, {"type": "move", "operative": "a1", "to": [4.5, 10]})
    return step(game, state, {"type": "carry", "operative": "a1", "target": "a2"})


def test_picking_up_a_downed_friend_ends_the_carriers_actions() -> None:
    game, state = game_with_downed_friend()
    record = carry_a2(game, state)
    a1, a2 = state.operatives["a1"], state.operatives["a2"]
    assert a1.carrying == "a2" and a2.carried_by == "a1"
    assert a1.ap_used >= a1.profile.apl
    assert a1.activated
    assert [e["type"] for e in record["events"]][:1] == ["carry"]
    with pytest.raises(RuleError):
        step(game, state, {"type": "activate", "operative": "a1"})


def test_carry_needs_the_friend_within_reach_and_down() -> None:
    game, state = game_with_downed_friend()
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    with pytest.raises(RuleError, match="must first move"):
        step(game, state, {"type": "carry", "operative": "a1", "target": "a2"})
    assert state.operatives["a1"].carrying is None


def test_a_carrier_moves_at_most_four_inches_a_turn_and_counts_as_moved() -> None:
    game, state = game_with_downed_friend()
    carry_a2(game, state)
    finish_turn(game, state)
    assert state.turn == 2
    a1 = state.operatives["a1"]
    assert a1.moved  # always counts as having moved, from the start of its turn
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    start = a1.at
    with pytest.raises(RuleError):
        step(game, state, {"type": "move", "operative": "a1", "to": [start[0], start[1] + 4.5]})
    assert a1.at == start
    step(game, state, {"type": "move", "operative": "a1", "to": [start[0], start[1] + 3.0]})
    assert math.dist(a1.at, start) == pytest.approx(3.0)
    assert state.operatives["a2"].at == a1.at  # the friend goes with the carrier
    with pytest.raises(RuleError):  # 3" used: only 1" more this turn, not 1.5"
        step(game, state, {"type": "move", "operative": "a1", "to": [a1.at[0], a1.at[1] + 1.5]})


def test_still_carried_at_the_end_counts_as_carried_to_safety_and_adds_one() -> None:
    game, state = game_with_downed_friend(turns=1)
    carry_a2(game, state)
    finish_turn(game, state)
    assert state.ended
    assert state.operatives["a2"].carried_to_safety
    result = result_from_state(state)
    outcome = {o.id: o for o in result.models}["a2"]
    assert outcome.went_down and outcome.carried
    campaign = Campaign(name="c", squads=[Squad("Ana", "A", [
        SquadModel("a1", "A1", copy.deepcopy(TROOPER)),
        SquadModel("a2", "A2", copy.deepcopy(TROOPER))])], settings=CampaignSettings())
    # Toughness 3 +1 (carried to safety) = 4: a roll of 4 heals him, without the carry it would
    # have been a loss (the enemy was not destroyed, so no other bonus)
    report = record_mission(campaign, result, ScriptedDice(faces=[4]))
    test = report.tests[0]
    assert (test.model, test.target, test.roll, test.passed) == ("a2", 4, 4, True)
    assert ("carried to safety" in " ".join(r for r, _ in test.bonuses))


def test_a_friend_carried_off_the_table_is_recorded_carried_off_not_still_carried() -> None:
    """``evacuate``: the carrier takes its friend off the table (003 Carrying) and keeps it;
    the campaign records the friend as carried off the table, not as still carried at the end
    (a tester saw the history say ``carried_off: false`` after "carries ... off the table")."""
    game, state = game_with_downed_friend(turns=2)
    carry_a2(game, state)
    finish_turn(game, state)
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    step(game, state, {"type": "move", "operative": "a1", "to": [1.0, 10]})
    step(game, state, {"type": "evacuate", "operative": "a1"})
    assert state.operatives["a2"].carried_to_safety and state.operatives["a2"].at is None
    finish_turn(game, state)
    assert state.ended
    outcome = {o.id: o for o in result_from_state(state).models}["a2"]
    assert outcome.went_down and outcome.carried_off and not outcome.carried
    assert outcome.carried_to_safety  # the survival test's +1 is the same either way


def test_the_table_view_offers_carry_and_evacuate_only_when_the_rules_allow() -> None:
    """``open_actions`` (what the page offers): ``carry`` once a downed friend lies on the
    table and the operative carries nothing; ``evacuate`` only while it carries a friend."""
    from solo_ops.game.actions import open_actions
    from tests.support.small_table import active

    game, state = active()
    a1 = state.operatives["a1"]
    assert open_actions(game, state)["carry"] == "no downed friend lies on the table"
    assert open_actions(game, state)["evacuate"] == f"{a1.name} is not carrying anyone"
    state.operatives["a2"].at = (6.0, 10.0)
    step(game, state, {"type": "down", "operative": "a2"})
    assert open_actions(game, state)["carry"] is None  # how far: the action's own question
    a1.carrying, state.operatives["a2"].carried_by = "a2", "a1"
    assert open_actions(game, state)["carry"] == f"{a1.name} is already carrying a2"
    assert open_actions(game, state)["evacuate"] is None
