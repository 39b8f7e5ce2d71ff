"""Turning points and command points by the Kill Team 2024 card (001): "Players gain 2CP
each."; "Each TP player get 1 CP. The player without initiative gets 1 extra CP (2 total)."; and
"7. BATTLE END": "After 4 TPs, even if a Team is incapacitated." Reading: docs/rules.md,
"Command points" and "Playing a mission".
"""

from __future__ import annotations

from solo_ops.core.dice import SeededDice
from solo_ops.game.engine import pending, step
from tests.support.duel_board import duel


def test_turning_point_one_command_points_as_the_card_gives_them() -> None:
    """001: "Players gain 2CP each." (selecting operatives) and "Each TP player get 1 CP. The
    player without initiative gets 1 extra CP (2 total)." -- so after TP1's strategy phase the
    side with initiative has 3 CP and the other 4."""
    game, state = duel([6, 1])  # initiative: the players
    record = step(game, state, {"type": "engine"})
    assert state.cp == {"player": 3, "enemy": 4}
    assert {"type": "command_points", "cp": {"player": 3, "enemy": 4}} in record["events"]


def test_the_battle_lasts_four_turning_points_even_when_the_players_are_wiped_out() -> None:
    """001, "7. BATTLE END": "After 4 TPs, even if a Team is incapacitated." Both player
    operatives go down in TP1; the battle still runs to the end of TP4 and the enemy keeps its
    turning points (the engine needs no player answer)."""
    game, state = duel([6, 1])
    state.dice = SeededDice(seed=3)
    step(game, state, {"type": "engine"})
    step(game, state, {"type": "down", "operative": "a1"})
    step(game, state, {"type": "down", "operative": "a2"})
    for _ in range(200):
        prompt = pending(game, state)
        if prompt.kind == "ended":
            break
        assert prompt.kind == "engine"
        step(game, state, {"type": "engine"})
    assert state.ended and state.turn == 4
    ends = [e for r in state.log for e in r["events"] if e["type"] == "turn_end"]
    assert [e["turn"] for e in ends] == [1, 2, 3, 4]
