"""A 2018 enemy model that has an enemy in sight and range but may not shoot it says why: the
2018 Core Manual's shooting into combat (setting ``combat_shooting: core``): "Models cannot
target enemy models that are within 1" of friendly models" -- not "none in sight and range"."""

from __future__ import annotations

from solo_ops.ai.planner import plan_activation
from tests.support.pariah_table import RADIUS, start


def test_a_target_in_combat_with_a_friend_is_named() -> None:
    # a1 at (10, 11) with e2 0.5" from it; e1 (a laspistol, Range 12") 8" away in the open
    game, state = start({}, a1=(10, 11), a2=(1, 20), e1=(18, 11),
                        e2=(10 + 2 * RADIUS + 0.5, 11))
    state.phase = "shooting"
    explain = plan_activation(game.context(state), state, "u1", "shooting").explain
    assert ("e1 does not shoot a1: the target is within 1\" of a friendly model: models "
            "cannot target enemy models within 1\" of friendly models.") in explain
