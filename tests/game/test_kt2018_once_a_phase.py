"""Kill Team 2018 at the table: a model shoots once in the shooting phase and fights once in
the fight phase (004: a model is "picked" to shoot and "chosen to fight"); a second shot or
fight in the same phase is refused in one line and changes nothing. A tester found both taken
as often as typed."""

from __future__ import annotations

import json

import pytest

from solo_ops.core.errors import RuleError
from solo_ops.game.engine import step
from tests.support.pariah_table import TROOPER, shooting_phase


def _refused(game: object, state: object, action: dict[str, object], words: str) -> None:
    before = json.dumps(state.to_dict(secrets=True)), len(state.log)  # type: ignore[attr-defined]
    with pytest.raises(RuleError, match=words):
        step(game, state, action)  # type: ignore[arg-type]
    assert (json.dumps(state.to_dict(secrets=True)),  # type: ignore[attr-defined]
            len(state.log)) == before  # type: ignore[attr-defined]


def test_a_second_shot_in_the_shooting_phase_is_refused() -> None:
    game, state = shooting_phase(TROOPER, 9.0)
    step(game, state, {"type": "activate", "operative": "a1"})
    step(game, state, {"type": "shoot", "target": "e1", "weapon": "lasgun", "roll": True})
    _refused(game, state, {"type": "shoot", "target": "e1", "weapon": "laspistol",
                           "roll": True},
             r"a1 has already shot in this shooting phase: a model shoots once a phase \(004\)")


def test_a_second_fight_in_the_fight_phase_is_refused() -> None:
    game, state = shooting_phase(TROOPER, 0.2)  # base to base, within 1"
    state.phase = "fight"
    step(game, state, {"type": "activate", "operative": "a1"})
    step(game, state, {"type": "fight", "target": "e1", "dealt": 0, "taken": 0})
    _refused(game, state, {"type": "fight", "target": "e1", "dealt": 1, "taken": 0},
             r"a1 has already fought in this fight phase: a model fights once a phase \(004\)")
