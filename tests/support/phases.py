"""Shared by the tests: moved from test_rule_readings.py."""

from __future__ import annotations

from solo_ops.game.engine import pending, step


def to_phase(game: object, state: object, phase: str) -> None:
    """Step the engine (and pass the players' remaining activations) until ``phase``."""

    for _ in range(50):
        if state.phase == phase and pending(game, state).kind == "activate":  # type: ignore
            return
        prompt = pending(game, state)
        if prompt.kind == "activate":
            step(game, state, {"type": "activate", "operative": prompt.options[0]})
            step(game, state, {"type": "done"})
        else:
            step(game, state, {"type": "engine"})
    raise AssertionError(f"never reached {phase}")
