"""The "State:" line of an enemy activation is the table's, not what the unit's last
activation left in its state machine: a unit whose foe Fell Back is no longer "in melee"
(004 Falling Back: "If you choose to Fall Back, the model can move a distance equal to or
less than its Move characteristic, but must end its move more than 1" away from all enemy
models"), and a unit with a model within 1" of an enemy is in melee whatever it recorded."""

from __future__ import annotations

from solo_ops.game.engine import pending, step
from tests.support.portal_board import RADIUS, start

GAP = 2 * RADIUS + 0.5  # centre to centre: bases 0.5" apart, within 1"


def activation_explain(state: object) -> list[str]:
    """The explanation of the last enemy activation in the log."""
    found = [e for record in state.log for e in record["events"]  # type: ignore[attr-defined]
             if e["type"] == "enemy_activation"]
    assert found, "the enemy never activated"
    return list(found[-1]["explain"])


def enemy_moves_next(game: object, state: object) -> None:
    while pending(game, state).kind == "engine":  # type: ignore[arg-type]
        step(game, state, {"type": "engine"})  # type: ignore[arg-type]


def test_a_unit_whose_foe_fell_back_is_out_of_melee() -> None:
    """e1's unit fought a1 last battle round (its state machine says "in melee"); a1 Falls
    Back to (6, 11), 3.5" from e1: the enemy's activation that follows says it is out of
    melee, not "State: in melee."."""
    game, state = start({"a1": (10, 11)}, edition="kt2018", enemy_at=(10 + GAP, 11))
    state.units["u1"].fsm = "in_melee"  # as the fight of the battle round before left it
    step(game, state, {"type": "activate", "operative": "a1"})
    step(game, state, {"type": "move", "how": "fall_back", "to": [6, 11]})
    step(game, state, {"type": "done"})
    enemy_moves_next(game, state)
    explain = activation_explain(state)
    assert explain[1] == ("State: out of melee (no enemy is within 1\" of any of its models "
                          "any more).")
    assert "State: in melee." not in explain


def test_a_unit_within_1_inch_of_an_enemy_is_in_melee() -> None:
    """The same table with a1 staying where it is, 0.5" from e1, and e1's unit "idle" by its
    state machine: the line says it is in melee, and who is within 1" of whom."""
    game, state = start({"a1": (10, 11)}, edition="kt2018", enemy_at=(10 + GAP, 11))
    step(game, state, {"type": "activate", "operative": "a1"})
    step(game, state, {"type": "done"})
    enemy_moves_next(game, state)
    assert activation_explain(state)[1] == "State: in melee (e1 is within 1\" of a1)."


def test_a_charging_unit_with_no_enemy_near_is_not_in_melee() -> None:
    """e1's unit charged (its state machine says "charging") but no enemy is within 1" of it
    (a1 stands 4" away): the line says so rather than a bare "charging"."""
    game, state = start({"a1": (10, 11)}, edition="kt2018", enemy_at=(14, 11))
    state.units["u1"].fsm = "charging"
    step(game, state, {"type": "activate", "operative": "a1"})
    step(game, state, {"type": "done"})
    enemy_moves_next(game, state)
    assert activation_explain(state)[1] == ("State: charging, not in melee (no enemy is "
                                            "within 1\" of any of its models).")
