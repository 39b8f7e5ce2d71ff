"""Counteract, for the players and for the enemy: 001 "Counteract - When you would activate an
Operative, but have no ready Operatives left, and your opponent still has ready Operatives to
activate: you can select a expended friendly Operative with an ENGAGE order to perform a 1AP
action for free."; "Cannot move greater than 2" while counteracting."; "Only once per Operative
per TP until your opponent has no active Operatives left to activate."

The offer (prompt ``counteract``), the free 1 AP action, the ``counteract`` setting, the
enemy's and the autopilot's choice, and a whole counteract through ``solo-ops play``. Readings:
docs/rules.md, "Counteract".
"""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import pytest

from solo_ops.ai import counteract as ai_counteract
from solo_ops.core.dice import ScriptedDice
from solo_ops.core.errors import InputError
from solo_ops.game.engine import Game, new_game, pending, step
from solo_ops.game.state import ENEMY, PLAYER, State
from solo_ops.io.scenario import parse_scenario
from tests.support.ops_table import (
    RADIUS,
    players_first_seed,
    refused,
    scenario_doc,
    start,
    write_scenario,
)
from tests.support.players import cli, cli_here


def test_counteract_is_offered_to_expended_engage_operatives_with_the_enemy_still_ready(
) -> None:
    """001 Counteract: "When you would activate an Operative, but have no ready Operatives
    left, and your opponent still has ready Operatives to activate: you can select a expended
    friendly Operative with an ENGAGE order to perform a 1AP action for free." a1 (Engage) and
    a2 (Conceal) have acted; the enemy has two units: after u1, u2 is still ready."""
    game, state = start({"a1": (3, 10), "a2": (3, 13)})
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    step(game, state, {"type": "done"})
    step(game, state, {"type": "engine"})  # u1
    step(game, state, {"type": "activate", "operative": "a2", "stance": "conceal"})
    step(game, state, {"type": "done"})
    step(game, state, {"type": "engine"})  # u2
    # nothing is left for the enemy either: no offer, the turning point ends
    assert pending(game, state).kind == "engine" and state.next_side is None

    game, state = start({"a1": (3, 10), "a2": (3, 13)}, units=3)
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    step(game, state, {"type": "done"})
    step(game, state, {"type": "engine"})  # u1
    step(game, state, {"type": "activate", "operative": "a2", "stance": "conceal"})
    step(game, state, {"type": "done"})
    step(game, state, {"type": "engine"})  # u2; u3 is still ready
    prompt = pending(game, state)
    assert prompt.kind == "counteract" and prompt.player == "Ana"
    assert prompt.data == {"operatives": ["a1"]}  # a2 has a Conceal order
    assert prompt.options == ["counteract a1", "pass"]
    refused(game, state, {"type": "activate", "operative": "a1"}, "first counteract or pass")
    refused(game, state, {"type": "counteract", "operative": "a2"}, "a2 cannot counteract now")


def three_units_one_left() -> tuple[Game, State]:
    """a1 (Engage) has acted, u1 has: the players have nothing ready, u2 and u3 are."""
    game, state = start({"a1": (3, 10)}, units=3)
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    step(game, state, {"type": "move", "to": [7, 10]})
    step(game, state, {"type": "done"})
    step(game, state, {"type": "engine"})  # u1
    assert pending(game, state).kind == "counteract"
    return game, state


def test_a_counteract_is_one_free_1ap_action_moving_at_most_2_inches() -> None:
    """001 Counteract: "perform a 1AP action for free" ... "Cannot move greater than 2" while
    counteracting." a1 used both AP moving in its activation; the counteract spends none.
    A Fall Back (2 AP) is not a 1 AP action; a 2.5" Reposition is refused, 2" taken."""
    game, state = three_units_one_left()
    a1 = state.operatives["a1"]
    ap_before = a1.ap_used
    record = step(game, state, {"type": "counteract", "operative": "a1"})
    assert record["events"][0]["type"] == "counteract" and state.counteracting
    prompt = pending(game, state)
    assert prompt.kind == "act" and "Counteract" in prompt.text
    assert "fallback X,Y" not in prompt.options and "pickup MARKER" in prompt.options
    refused(game, state, {"type": "move", "how": "fall_back", "to": [8, 10]},
            "a counteract is one 1 AP action: fall back costs 2")
    refused(game, state, {"type": "move", "how": "reposition", "to": [9.5, 10]},
            "that is 2.5\" of movement; a1 can reposition 2.0\"")
    refused(game, state, {"type": "move", "how": "dash", "to": [9.5, 10]},
            "a1 can dash 2.0\"")
    record = step(game, state, {"type": "move", "how": "reposition", "to": [9, 10]})
    kinds = [e["type"] for e in record["events"]]
    assert kinds[0] == "moved" and "activation_end" in kinds
    end = next(e for e in record["events"] if e["type"] == "activation_end")
    assert end == {"type": "activation_end", "operative": "a1", "counteract": True}
    assert a1.at == (9.0, 10.0) and a1.ap_used == ap_before  # free: no AP spent
    assert not state.counteracting and state.active_operative is None
    assert state.counteracted == ["a1"]
    assert pending(game, state).kind == "engine"  # the enemy's turn: u2


def test_once_per_operative_per_turning_point() -> None:
    """001 Counteract: "Only once per Operative per TP until your opponent has no active
    Operatives left to activate." After u2, u3 is still ready, but a1 has counteracted: no
    second offer this turning point; the next turning point it may again."""
    game, state = three_units_one_left()
    step(game, state, {"type": "counteract", "operative": "a1"})
    step(game, state, {"type": "done"})  # a counteract may also do nothing
    assert state.counteracted == ["a1"]
    step(game, state, {"type": "engine"})  # u2
    assert state.next_side == ENEMY  # no offer: a1 has counteracted this turning point
    step(game, state, {"type": "engine"})  # u3
    step(game, state, {"type": "engine"})  # end of TP 1, start of TP 2 (initiative 6 v 1)
    assert state.turn == 2 and state.counteracted == []


def test_pass_hands_the_turn_to_the_enemy_and_the_offer_comes_back() -> None:
    """001 Counteract "you can select": a pass gives the turn to the enemy; after its next
    activation, with a unit still ready, the offer is made again."""
    game, state = three_units_one_left()
    record = step(game, state, {"type": "counteract", "pass": True})
    assert record["events"] == [{"type": "counteract_pass", "side": PLAYER, "player": "Ana"}]
    step(game, state, {"type": "engine"})  # u2
    assert pending(game, state).kind == "counteract"


def test_the_counteract_setting() -> None:
    """``counteract: off`` never offers it (the TP goes on as before: the enemy's units one
    after the other); ``players``: the players only (the enemy never counteracts)."""
    game, state = start({"a1": (3, 10)}, units=3, settings={"counteract": "off"})
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    step(game, state, {"type": "done"})
    step(game, state, {"type": "engine"})
    assert pending(game, state).kind == "engine" and state.next_side == ENEMY
    with pytest.raises(InputError, match="counteract"):
        parse_scenario(scenario_doc({"a1": (3, 10)}, settings={"counteract": "sometimes"}),
                       "ops.yaml")


def enemy_first_game() -> tuple[Game, State]:
    """The enemy has the initiative (1 against 6; every later die a 1: misses). g (command 1,
    the unit nearer an enemy) acts first: g1 at (20, 11) shoots a1 (5, 11), 15" away, in the
    open, and takes Engage. a2 acts; u1 (the corner) acts; the enemy has nothing ready, the
    players have a1 and a3."""
    doc = scenario_doc({"a1": (5, 11), "a2": (5, 15), "a3": (5, 19)}, units=1,
                       gunner_at=(20, 11))
    game, state = new_game(parse_scenario(doc, "ops.yaml"), 1)
    state.dice = ScriptedDice(faces=[1, 6] + [1] * 80)
    step(game, state, {"type": "engine"})
    assert state.initiative == ENEMY
    record = step(game, state, {"type": "engine"})
    assert record["events"][0]["unit"] == "g"
    step(game, state, {"type": "activate", "operative": "a2", "stance": "engage"})
    step(game, state, {"type": "done"})
    step(game, state, {"type": "engine"})  # u1
    return game, state


def test_the_enemy_counteracts_with_its_shot() -> None:
    """001 Counteract, for the enemy too (``counteract: both``): "When you would activate an
    Operative, but have no ready Operatives left, and your opponent still has ready Operatives
    to activate". After a1's activation (a3 still ready) the enemy's expended Engage g1 makes
    one free action: the planner's shot, the closest valid target (a1, 15" away). Once this
    turning point: after a3 the turning point ends."""
    game, state = enemy_first_game()
    g1 = state.operatives["g1"]
    assert g1.activated and g1.stance == "engage"
    step(game, state, {"type": "activate", "operative": "a1", "stance": "conceal"})
    step(game, state, {"type": "done"})
    assert pending(game, state).kind == "engine" and state.next_side == ENEMY
    record = step(game, state, {"type": "engine"})
    first = record["events"][0]
    assert first["type"] == "counteract" and first["side"] == ENEMY
    assert first["operative"] == "g1" and first["action"]["kind"] == "shoot"
    assert first["action"]["target"] == "a1" and first["note"].startswith("g1 counteracts: ")
    assert record["events"][1]["type"] == "attack"
    assert state.counteracted == ["g1"] and state.next_side == PLAYER
    step(game, state, {"type": "activate", "operative": "a3", "stance": "engage"})
    step(game, state, {"type": "done"})
    assert state.next_side is None  # nobody ready: the turning point ends


def test_counteract_players_only_keeps_the_enemy_from_counteracting() -> None:
    """``counteract: players``: the enemy never counteracts (a1's activation is followed by
    a3's prompt)."""
    game, state = enemy_first_game()
    object.__setattr__(game.scenario, "settings",
                       replace(game.scenario.settings, counteract="players"))
    step(game, state, {"type": "activate", "operative": "a1", "stance": "conceal"})
    step(game, state, {"type": "done"})
    assert pending(game, state).kind == "activate"


def test_the_enemy_counteract_decision_fights_first_then_moves_at_most_2_inches() -> None:
    """The enemy's documented choice (:mod:`solo_ops.ai.counteract`): in a player's control
    range it fights; with no target it moves at most 2" by its order (card 001: "Cannot move
    greater than 2" while counteracting")."""
    game, state = start({"a1": (3, 10)}, units=1, gunner_at=(20, 11))
    g1 = state.operatives["g1"]
    g1.activated, g1.stance = True, "engage"
    a1 = state.operatives["a1"]
    a1.at = (20, 12.5)  # 0.52" between the bases: in control range
    action = ai_counteract.choose(game.context(state), state, [g1])
    assert action is not None and (action.kind, action.target) == ("fight", "a1")
    # a1 out of sight (behind the corner's wall) and a move order towards the enemy: 2" at most
    state.units["g"].troop, state.units["g"].command = "melee", 3  # towards closest enemy
    a1.at = (28.5, 6.2)
    g1.at = (22, 1)
    assert not game.terrain(state).sight.visible(g1.at, a1.at, RADIUS, RADIUS)
    action = ai_counteract.choose(game.context(state), state, [g1])
    assert action is not None and action.kind == "reposition"
    assert action.cost <= 2.0 + 1e-9 and math.dist(action.start, action.to) <= 2.0 + 1e-9
    assert "at most 2" in action.note


def test_the_autopilot_counteracts_with_a_shot_else_passes() -> None:
    """The autopilot's documented choice (``sim/autopilot.py``): counteract with the
    candidate that has the best shot, which shoots; with no shot, pass."""
    from solo_ops.sim import autopilot

    game, state = three_units_one_left()  # the enemy is walled off: no shot
    prompt = pending(game, state)
    assert list(autopilot.answers(game, state, prompt)) == [{"type": "counteract",
                                                             "pass": True}]
    game, state = start({"a1": (3, 10)}, units=3, gunner_at=(20, 11),
                        faces=[6, 1] + [1] * 80,
                        settings={"cp_rerolls": "never"})  # no CP re-roll question (cp)
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    step(game, state, {"type": "done"})
    step(game, state, {"type": "engine"})  # g first (nearest an enemy): g1 shoots, misses
    prompt = pending(game, state)
    assert prompt.kind == "counteract"
    first = next(autopilot.answers(game, state, prompt))
    assert first == {"type": "counteract", "operative": "a1"}
    step(game, state, first)
    shot = next(autopilot.answers(game, state, pending(game, state)))
    assert shot == {"type": "shoot", "operative": "a1", "target": "g1", "weapon": "lasgun",
                    "roll": True}
    record = step(game, state, shot)
    assert record["events"][-1]["type"] == "activation_end"
    assert not state.counteracting and state.counteracted == ["a1"]


def test_counteract_end_to_end(tmp_path: Path) -> None:
    """Through the real ``solo-ops play``: a1 acts, u1 acts, the offer comes (u2, u3 ready):
    ``counteract a1`` then a 2" move; a 3" move is refused first. The same answers give the
    same save and log byte for byte (played again in the test's own process: another
    interpreter, with its own hash seed, all the same)."""
    doc = scenario_doc({"a1": (3, 10)}, units=3)
    seed = players_first_seed(doc)
    scenario = write_scenario(tmp_path, doc, seed)
    lines = ["a1 engage", "move 7,10", "done", "counteract a1", "move 10,10", "move 9,10"]
    outputs = []
    for run_dir in ("one", "two"):
        folder = tmp_path / run_dir
        folder.mkdir()
        args = ["play", str(scenario), "--seed", str(seed), "--save", str(folder / "s.json")]
        for line in lines:
            args += ["--answer", line]
        run = (cli if run_dir == "one" else cli_here)(*args, cwd=folder)
        assert run.returncode == 0, run.stderr
        outputs.append((run.stdout, (folder / "s.json").read_bytes()))
    out, save = outputs[0]
    assert outputs[1][1] == save
    assert "Counteract" in out and "Can counteract: a1." in out
    assert "a1 can reposition 2.0\"" in out  # the 3" move refused
    doc_save = json.loads(save)
    acts = [a for a in doc_save["actions"] if a["type"] != "engine"]
    assert {"type": "counteract", "operative": "a1"} in acts
    assert acts[-1]["to"] == [9.0, 10.0]
