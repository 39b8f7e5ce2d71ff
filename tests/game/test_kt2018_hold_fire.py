"""Kill Team 2018: ``pass`` at "which of your models shoots now?" — the asked player's models
not picked yet hold their fire this shooting phase, in one answer (004 Ready, Fire!: players
"choose a ... model from their kill team to shoot with ..., or pass"). Before, each model with
nothing in sight had to be picked and then ``done``: two answers (two taps on a phone) a model
every battle round. Reading: docs/rules.md, "Kill Team 2018 (Pariah Nexus): phases and
reactions"."""

from __future__ import annotations

import pytest

from solo_ops.core.errors import RuleError
from solo_ops.game import turns
from solo_ops.game.engine import pending, step
from solo_ops.view import answers, narrate
from tests.support.phases import to_phase
from tests.support.portal_board import refused, start


def test_pass_holds_the_rest_fire_in_one_answer() -> None:
    """a1, a2 and a3 are asked which shoots; a1 is picked and done, then ``pass``: a2 and a3
    hold their fire (said by name), none of them is asked again this phase, and the game goes
    on to the enemy's side of the phase as after an activation."""
    game, state = start({"a1": (3, 11), "a2": (3, 14), "a3": (3, 17)}, edition="kt2018")
    to_phase(game, state, "shooting")
    prompt = pending(game, state)
    assert prompt.kind == "activate" and prompt.data == {"pass": "pass"}
    assert answers.parse("pass", "activate", edition="kt2018") == {"type": "hold_fire"}
    first = prompt.options[0]
    step(game, state, {"type": "activate", "operative": first})
    step(game, state, {"type": "done"})
    while pending(game, state).kind != "activate":
        step(game, state, {"type": "engine"})
    rest = pending(game, state).options
    assert sorted(rest) == sorted({"a1", "a2", "a3"} - {first})
    record = step(game, state, answers.parse("pass", "activate", edition="kt2018"))
    held = record["events"][0]
    assert held == {"type": "held_fire", "player": "Ana", "operatives": rest}
    assert narrate.lines_for({"events": [held]}, edition="kt2018") == [
        f"Ana passes: {', '.join(rest)} hold their fire this shooting phase."]
    one = {**held, "operatives": rest[:1]}
    assert narrate.lines_for({"events": [one]}, edition="kt2018") == [
        f"Ana passes: {rest[0]} holds its fire this shooting phase."]
    assert turns.player_ready(game, state, "Ana") == []
    assert all(state.operatives[m].activated and not state.operatives[m].shot for m in rest)


def test_pass_is_no_answer_outside_the_shooting_phase() -> None:
    """In the movement phase ``pass`` is refused (each model moves, Readies or stays as its
    own answer says), and the prompt offers no pass; in Kill Team 2024 it is not an answer to
    "which operative do you activate?" at all."""
    game, state = start({"a1": (3, 11)}, edition="kt2018")
    assert state.phase == "movement" and pending(game, state).data == {}
    refused(game, state, {"type": "hold_fire"}, "'pass' answers \"which of your models shoots")
    with pytest.raises(RuleError, match="first say which operative acts"):
        answers.parse("pass", "activate", edition="kt2024")
