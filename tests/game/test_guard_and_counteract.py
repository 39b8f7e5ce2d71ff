"""Gallowdark On Guard and Counteract: a Guard interrupts "an enemy activation AFTER their
first action" (001); a counteract is no activation, so neither side's Guard interrupts the
other's counteract (the enemy's Guard waited for a player's counteract just as the players'
Guard waits for the enemy's: one referee)."""

from __future__ import annotations

import copy

from solo_ops.core.dice import ScriptedDice
from solo_ops.game.engine import new_game, pending, step
from solo_ops.io.scenario import parse_scenario
from tests.support.guard_board import BOARD, GUNNER


def test_an_enemy_on_guard_does_not_interrupt_a_players_counteract() -> None:
    """a1 (Engage) activates and does nothing; e1 (Remain Stationary, nothing in sight) goes
    On Guard; u2's e2 is still to activate, so a1 may counteract: its 2" move comes out from
    behind the wall into e1's sight, and e1 neither shoots nor leaves its Guard."""
    doc = {"name": "g", "edition": "kt2024", "board": copy.deepcopy(BOARD),
           "roster": {"name": "r", "profiles": {"gunner": copy.deepcopy(GUNNER)},
                      "table": {i: "gunner" for i in range(1, 7)}},
           "engagement": 1, "seed": 1,
           "squads": [{"player": "Ana", "models": [
               {"id": "a1", "profile": copy.deepcopy(GUNNER), "at": [13, 15.2]}]}],
           "enemies": [{"id": "u1", "command": 1, "models": [
                           {"id": "e1", "profile": copy.deepcopy(GUNNER), "at": [20, 11]}]},
                       {"id": "u2", "command": 1, "models": [
                           {"id": "e2", "profile": copy.deepcopy(GUNNER), "at": [28, 5]}]}],
           "settings": {"turns": 1, "cp_rerolls": "never", "fight_choices": "auto"}}
    game, state = new_game(parse_scenario(doc, "g.yaml"), 1)
    state.counters.clear()
    state.dice = ScriptedDice(faces=[6, 1] + [3] * 200)
    step(game, state, {"type": "engine"})
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    step(game, state, {"type": "done"})
    step(game, state, {"type": "engine"})
    assert state.operatives["e1"].on_guard
    assert pending(game, state).options == ["counteract a1", "pass"]
    step(game, state, {"type": "counteract", "operative": "a1"})
    record = step(game, state, {"type": "move", "to": [13, 17.2]})
    e1, a1 = state.operatives["e1"], state.operatives["a1"]
    assert game.terrain(state).sight.visible(e1.at, a1.at, e1.radius, a1.radius)
    assert [e["type"] for e in record["events"]
            if e["type"] in ("guard_interrupt", "attack")] == []
    assert e1.on_guard and a1.wounds == a1.profile.wounds
