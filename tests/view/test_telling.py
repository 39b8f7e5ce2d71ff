"""The order of telling (issue 28 item 5): what the enemy did before a question is told before
it, with its header, once; and the enemy having nothing to activate is said, with why.

The question here is a CP re-roll of the players' defence dice (card 001, "Re-Roll
Attack/Defence Dice for 1CP"), asked in the middle of an enemy counteract (card 001
"Counteract") and of an enemy's Guard interrupt (002 "On Guard"). Dice are scripted.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from solo_ops.core.dice import ScriptedDice
from solo_ops.game.engine import new_game, pending, step
from solo_ops.io.scenario import parse_scenario
from solo_ops.session.table import GameTable
from tests.support.cp_games import document
from tests.support.guard_board import start as guard_start


def counteract_game(tmp_path: Path) -> GameTable:
    """e1 (command 1, fire at will) shoots a1 first (1 1 1 1: no hit); a1 activates and is
    done; a2 is still ready and e1 has nothing to activate: it counteracts, shooting a1 (6 4
    4 2: a crit and two normal hits); a1's defence dice 2 1 5 have failures: the re-roll
    question."""
    doc = document()
    doc["engagement"] = 0
    doc["squads"][0]["models"].append(
        {"id": "a2", "profile": copy.deepcopy(doc["squads"][0]["models"][0]["profile"]),
         "at": [2, 2]})
    game, state = new_game(parse_scenario(doc, "c.yaml"), 1)
    state.dice = ScriptedDice(faces=[1, 6, 1, 1, 1, 1, 6, 4, 4, 2, 2, 1, 5])
    table = GameTable(game, state, tmp_path / "c.json", tmp_path / "c.log.jsonl")
    table.start()
    table.advance()
    assert table.answer("Ana", "a1 engage").ok
    return table


def test_a_counteract_is_told_before_the_question_it_asks_and_not_again(
        tmp_path: Path) -> None:
    table = counteract_game(tmp_path)
    outcome = table.answer("Ana", "done")
    assert outcome.ok, outcome.message
    paused = outcome.records[-1]
    assert table.prompt().kind == "reroll"
    told = table.lines_of(paused)
    assert told[0].startswith("⚡ e1 counteracts: e1 shoots a1 with autogun")
    after = table.answer("Ana", "keep")
    assert after.ok, after.message
    said = [line for record in after.records for line in table.lines_of(record)]
    assert not any("counteracts" in line for line in said)  # told once, before the question
    assert any(line.startswith("  ✸ e1 attacks a1 with autogun") for line in said)


def test_an_enemy_guard_interrupt_is_told_before_the_question_it_asks(tmp_path: Path) -> None:
    """test_guard's table with CP re-rolls asked: e1 goes On Guard; a1 moves into its sight;
    the interrupt's shot (5 1 1 1: a normal hit) meets a1's defence dice 1 1 1: the question
    comes after "a1 repositions" and "⚑ e1 is On Guard and interrupts"."""
    game, state = guard_start([1, 6, 5, 1, 1, 1, 1, 1, 1])
    from dataclasses import replace

    game.scenario = replace(game.scenario, settings=replace(game.settings, cp_rerolls="ask"))
    table = GameTable(game, state, tmp_path / "g.json", tmp_path / "g.log.jsonl")
    table.start()
    table.advance()
    assert table.answer("Ana", "a1 engage").ok
    outcome = table.answer("Ana", "move 12,20")
    assert outcome.ok, outcome.message
    assert table.prompt().kind == "reroll"
    told = table.lines_of(outcome.records[-1])
    assert told[0].startswith("a1 repositions from (12.0, 14.5)")
    assert "  ⚑ e1 is On Guard and interrupts: it shoots a1." in told
    after = table.answer("Ana", "keep")
    said = [line for record in after.records for line in table.lines_of(record)]
    assert not any("repositions" in line or "interrupts" in line for line in said)
    assert any(line.startswith("  ✸ e1 attacks a1 with autogun") for line in said)


def hidden_only() -> tuple[Any, Any]:
    """Two player operatives, no pre-placed enemy, two hidden counters (engagement 1), a
    blocking screen across the table at x 18-19 to hide them behind; seed 29 hides both
    where neither operative sees them, and gives the enemy the initiative. (On the open table
    no counter can hide: each is resolved in the first turn, and a false alarm sent back into
    sight is resolved again at once.)"""
    doc = document(settings={"cp_rerolls": "never"})
    doc["enemies"] = []
    doc["board"]["features"] = [{"id": "screen", "traits": ["blocking"],
                                 "polygon": [[18, 0], [19, 0], [19, 22], [18, 22]]}]
    doc["squads"][0]["models"].append(
        {"id": "a2", "profile": copy.deepcopy(doc["squads"][0]["models"][0]["profile"]),
         "at": [2, 2]})
    game, state = new_game(parse_scenario(doc, "h.yaml"), 29)
    return game, state


def test_the_enemy_having_nothing_to_activate_is_said_with_why_once_a_turning_point() -> None:
    """Seed 29 gives the enemy the initiative, but it has nothing to activate: said at the
    start of the turning point, with why, and not again when the turn would pass to it
    after each of the players' activations."""
    from solo_ops.view.narrate import lines_for

    game, state = hidden_only()
    while pending(game, state).kind == "engine":
        step(game, state, {"type": "engine"})
    assert state.initiative == "enemy" and pending(game, state).kind == "activate"
    counters = sum(1 for c in state.counters.values() if c.active)
    why = (f"every enemy is still hidden ({counters} counters not yet revealed; counters are "
           "revealed when your operatives see them)")
    start = state.log[-1]
    assert {"type": "enemy_idle", "why": why} in start["events"]
    assert f"solo-ops has nothing to activate: {why}. Over to you." in lines_for(start)
    for op in ("a1", "a2"):
        step(game, state, {"type": "activate", "operative": op, "stance": "conceal"})
        record = step(game, state, {"type": "done", "operative": op})
        assert not any(e["type"] == "enemy_idle" for e in record["events"])  # once a TP


def test_the_cp_a_re_roll_cost_is_told_with_its_attack(tmp_path: Path) -> None:
    """The counteract's shot: a1 re-rolls defence die 2 (a 1) for 1 CP and gets a 5; the CP
    spent is told right after the attack, not at the end of the step."""
    table = counteract_game(tmp_path)
    table.state.dice.faces.append(5)  # the re-rolled die
    assert table.answer("Ana", "done").ok
    assert table.answer("Ana", "reroll 2").ok  # die 1 (a 2) still fails: asked again
    after = table.answer("Ana", "keep")
    assert after.ok, after.message
    kinds = [e["type"] for e in after.records[0]["events"]]
    assert kinds[kinds.index("attack") + 1] == "cp_spent"
