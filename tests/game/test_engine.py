"""The game loop's exact behaviours: set-up, initiative and CP, alternation, phases, the end.

A tiny hand-made board (a 30" x 22" table with one wall across the middle and two objective
markers) and scripted dice, so every roll and every hand-over can be asserted exactly.
"""

from __future__ import annotations

import pytest

from solo_ops.core.dice import ScriptedDice
from solo_ops.core.errors import RuleError
from solo_ops.game.engine import new_game, pending, step
from solo_ops.game.state import ENEMY, PLAYER
from tests.support.small_table import scenario, start


def test_setup_deploys_in_the_drop_zone_and_logs_its_rolls() -> None:
    game, state = new_game(scenario(), 1)
    a2 = state.operatives["a2"]
    assert a2.at is not None and a2.at[0] <= 6 - a2.radius + 1e-9  # wholly in the zone
    assert state.operatives["a1"].at == (3, 10)
    assert state.phase == "setup" and state.turn == 0
    record = state.log[0]
    assert record["n"] == 0 and record["action"] == {"type": "setup", "seed": 1}
    assert [e["type"] for e in record["events"]][:2] == ["squad_deployed", "enemy_placed"]
    # the two counters' placement rolls are logged, their hidden orders marked secret
    assert any(r.get("secret") for r in record["rolls"])
    assert len(state.counters) == 2
    assert pending(game, state).kind == "engine"


def test_initiative_and_command_points_turn_one() -> None:
    game, state = start(faces=[4, 4, 2, 5])  # a tie is re-rolled in the first turning point
    record = step(game, state, {"type": "engine"})
    ini = next(e for e in record["events"] if e["type"] == "initiative")
    assert ini == {"type": "initiative", "side": ENEMY, "player_roll": 2, "enemy_roll": 5}
    # card 001: 2 CP each before the battle, then 1 each turning point, +1 without initiative
    assert state.cp == {PLAYER: 2 + 1 + 1, ENEMY: 2 + 1}
    assert state.turn == 1 and state.phase == "firefight" and state.next_side == ENEMY
    assert [r["value"] for r in record["rolls"]] == [4, 4, 2, 5]


def test_later_ties_alternate_initiative_and_cp_favours_the_other_side() -> None:
    game, state = start(faces=[6, 1], turns=3)
    step(game, state, {"type": "engine"})
    assert state.initiative == PLAYER
    # play turning point 1 out: the enemy sits (it sees no one), the players end at once
    state.dice = ScriptedDice(faces=[3, 3])  # turn 2: a tie -> initiative alternates
    while state.turn == 1:
        prompt = pending(game, state)
        if prompt.kind == "engine":
            step(game, state, {"type": "engine"})
        elif prompt.kind == "activate":
            step(game, state, {"type": "activate", "operative": prompt.options[0]})
        else:
            step(game, state, {"type": "done"})
    assert state.turn == 2 and state.initiative == ENEMY
    assert state.cp == {PLAYER: (2 + 1) + 2, ENEMY: (2 + 1 + 1) + 1}


def test_sides_alternate_and_the_engine_waits_for_the_player() -> None:
    game, state = start(faces=[6, 1])
    step(game, state, {"type": "engine"})
    prompt = pending(game, state)
    assert (prompt.kind, prompt.player) == ("activate", "Ana")
    assert prompt.text == "Ana: which operative do you activate?"
    assert prompt.options == ["a1", "a2"]
    before = len(state.log)
    with pytest.raises(RuleError, match="waiting for Ana"):
        step(game, state, {"type": "engine"})
    assert len(state.log) == before
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    act = pending(game, state)
    assert (act.kind, act.operative) == ("act", "a1")
    step(game, state, {"type": "done"})
    assert state.next_side == ENEMY
    assert pending(game, state).kind == "engine"
    record = step(game, state, {"type": "engine"})
    assert record["events"][0]["type"] == "enemy_activation"
    assert record["events"][0]["unit"] == "u1"
    assert state.units["u1"].activated
    # back to the players: only a2 is still ready
    assert pending(game, state).options == ["a2"]


def test_coop_players_take_turns_and_prompts_name_them() -> None:
    game, state = start(faces=[6, 1], coop=True)
    step(game, state, {"type": "engine"})
    seen = []
    for _ in range(3):
        while (prompt := pending(game, state)).kind == "engine":
            step(game, state, {"type": "engine"})
        seen.append(prompt.player)
        assert prompt.text.startswith(f"{prompt.player}: ")
        step(game, state, {"type": "activate", "operative": prompt.options[0]})
        step(game, state, {"type": "done"})
    assert seen == ["Ana", "Ben", "Ana"]


def test_the_battle_ends_after_the_last_turn_with_a_result() -> None:
    game, state = start(turns=1)
    state.dice = ScriptedDice(faces=[6, 1])
    while pending(game, state).kind != "ended":
        prompt = pending(game, state)
        if prompt.kind == "engine":
            step(game, state, {"type": "engine"})
        elif prompt.kind == "activate":
            step(game, state, {"type": "activate", "operative": prompt.options[0]})
        else:
            step(game, state, {"type": "done"})
    assert state.ended and state.phase == "ended"
    end = state.log[-1]["events"][-1]
    assert end["type"] == "battle_end"
    # a1 stands on obj-1 (within 1"): nothing scores in turning point 1 of 2024 ops
    assert state.result["vp"] == {PLAYER: 0, ENEMY: 0}
    assert state.result["outcome"] == "draw" and state.result["turns"] == 1
    with pytest.raises(RuleError, match="over"):
        step(game, state, {"type": "engine"})


def test_2018_battle_round_runs_movement_shooting_fight_and_morale() -> None:
    game, state = start("kt2018", turns=1)
    state.dice = ScriptedDice(faces=[6, 1])
    phases = []
    while pending(game, state).kind != "ended":
        prompt = pending(game, state)
        if state.phase not in phases and state.phase != "setup":
            phases.append(state.phase)
        if prompt.kind == "engine":
            step(game, state, {"type": "engine"})
        elif prompt.kind == "activate":
            assert prompt.text == f"Ana: which operative do you act with in the {state.phase}?"
            step(game, state, {"type": "activate", "operative": prompt.options[0]})
        else:
            step(game, state, {"type": "done"})
    assert phases[:3] == ["movement", "shooting", "fight"]
    kinds = [e.get("phase") for r in state.log for e in r["events"] if e["type"] == "phase"]
    assert kinds == ["movement", "shooting", "fight", "morale"]
    # Pariah Nexus (the 2018 default mission is Objective Ultima): a1's wound within 2" of
    # obj-1 controls it; e1 left obj-2 on its move order. 1 VP for holding one, 1 for more.
    score = next(e for r in state.log for e in r["events"] if e["type"] == "score")
    assert score["control"]["obj-1"] == PLAYER
    assert state.operatives["e1"].at != (27, 11) and score["control"]["obj-2"] is None
    assert state.result["vp"] == {PLAYER: 2, ENEMY: 0}


def test_a_2018_move_is_a_normal_move_and_only_in_the_movement_phase() -> None:
    game, state = start("kt2018", faces=[6, 1])
    step(game, state, {"type": "engine"})
    step(game, state, {"type": "activate", "operative": "a1"})
    step(game, state, {"type": "move", "how": "reposition", "to": [7, 10]})
    moved = state.log[-1]["events"][0]
    assert moved["how"] == "normal" and moved["to"] == [7.0, 10.0]
    with pytest.raises(RuleError, match="shooting phase"):
        step(game, state, {"type": "shoot", "target": "e1"})


def test_preplaced_counters_in_sight_are_resolved_in_the_first_turn() -> None:
    game, state = new_game(scenario(counters=[{"id": "c1", "at": [10, 10], "hidden_order": 1},
                                              {"id": "c2", "at": [20, 11], "hidden_order": 1}],
                                    engagement=0), 1)
    # c1 stands in the open before a1 (3, 10); c2 is behind the wall at x = 15
    assert state.counters["c1"].resolve_first_turn is True
    assert state.counters["c2"].resolve_first_turn is False
    record = step(game, state, {"type": "engine"})
    spotted = [e["counter"] for e in record["events"] if e["type"] == "counter_spotted"]
    assert spotted == ["c1"]


def test_pariah_nexus_supremacy_has_three_conditions_and_a_cap_of_9() -> None:
    from solo_ops.game.scoring import score_turn

    game, state = start("kt2018", enemy_at=(20, 11),
                        mission={"name": "Secure the Facility", "pariah": "secure-the-facility"})
    # a1 (3, 10) holds obj-1; nobody holds obj-2; an enemy model went out of action this round
    state.incapacitated_this_turn[ENEMY] = 1
    score_turn(game, state)
    assert state.vp[PLAYER] == 3  # one or more held + more than the enemy + a kill
    for _ in range(3):
        score_turn(game, state)
    assert state.vp[PLAYER] == 9  # 12 earned, at most 9 from Supremacy
