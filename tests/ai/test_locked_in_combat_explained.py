"""Every enemy activation says what each model does and why, also a model locked in combat.

* Kill Team 2018, movement phase: 004 Falling Back "When you pick a model to move, if that
  model started the Movement phase within 1" of an enemy model, it cannot make a normal move.
  Instead, it can either remain stationary or Fall Back." A model that stays says so and why.
* Either edition: a player's model that moves up to a hidden counter reveals enemies placed
  within its reach (the placement rule puts them on the counter's spot); their activation says
  they were revealed there and fight (2018: wait for the Fight phase)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from solo_ops.game.engine import new_game, pending, step
from solo_ops.io.scenario import parse_scenario
from tests.support.portal_board import RADIUS, start
from tests.support.scenario_files import BRUTE, TROOPER


def activation_explain(state: Any) -> list[str]:
    """The explanation of the last enemy activation in the log."""
    found = [e for record in state.log for e in record["events"]
             if e["type"] == "enemy_activation"]
    assert found, "the enemy never activated"
    return list(found[-1]["explain"])


def engine_steps(game: Any, state: Any) -> None:
    while pending(game, state).kind == "engine":
        step(game, state, {"type": "engine"})


def test_a_2018_model_within_1_inch_says_why_it_stays() -> None:
    """e1 (a trooper with a lasgun: not a melee fighter) stands 0.5" from a1 when its unit
    moves: no normal move for it (004), and it does not Fall Back out of a fight it did not
    start (own_charge_fight); the plan says so instead of nothing."""
    game, state = start({"a1": (10, 11)}, edition="kt2018",
                        enemy_at=(10 + 2 * RADIUS + 0.5, 11))
    step(game, state, {"type": "activate", "operative": "a1"})
    step(game, state, {"type": "done"})
    engine_steps(game, state)
    explain = activation_explain(state)
    assert state.operatives["e1"].at == (10 + 2 * RADIUS + 0.5, 11)  # it stayed
    assert ("e1 is within 1\" of a1: it cannot make a normal move (004: it \"can either remain "
            "stationary or Fall Back\"). It remains stationary, to fight in the Fight phase: "
            "the enemy's models Fall Back only out of a fight their own charge started, under "
            "own_charge_fight: fall_back.") in explain


def test_a_2018_model_charged_this_phase_quotes_the_rule_that_holds_it() -> None:
    """The same e1, but a1 charged it this phase: it is held by 004's "A model cannot Fall
    Back if an enemy model finished a charge move within 1" of it in the same phase", not by
    the rule of a model that began the phase within 1" (which lets it Fall Back: a tester read
    that quoted of a model that could not)."""
    game, state = start({"a1": (10, 11)}, edition="kt2018",
                        enemy_at=(10 + 2 * RADIUS + 0.5, 11))
    step(game, state, {"type": "activate", "operative": "a1"})
    step(game, state, {"type": "done"})
    state.operatives["a1"].charged = True  # (its charge ended there this phase)
    engine_steps(game, state)
    explain = [line for record in state.log for e in record["events"]
               if e["type"] == "enemy_activation" for line in e["explain"]]
    assert ("e1 is within 1\" of a1: a1 charged it this phase, so it can neither move nor Fall "
            "Back (004 \"A model cannot Fall Back if an enemy model finished a charge move "
            "within 1\" of it in the same phase\"). It remains stationary, to fight in the "
            "Fight phase: ") in "\n".join(explain)
    assert not any("can either remain stationary or Fall Back" in line for line in explain)


def revealed_game(edition: str) -> tuple[Any, Any]:
    """kell walks round the end of a wall (x 10, y 6-14) to (11.4, 12.2), 0.34" from a hidden
    counter at (10.8, 11) that the wall hid from it: three brutes (a Melee unit, command 5 by
    seed 1) are revealed, the first on the counter's spot, within 1" of kell."""
    doc = {"name": "reveal", "edition": edition, "seed": 1, "engagement": 0,
           "board": {"name": "T", "width": 30, "depth": 22, "features": [
               {"id": "wall-1", "traits": ["wall"], "line": [[10, 6], [10, 14]]}]},
           "roster": {"name": "R", "profiles": {"brute": copy.deepcopy(BRUTE)},
                      "table": {i: "brute" for i in range(1, 7)}},
           "squads": [{"player": "Ana", "models": [
               {"id": "kell", "profile": copy.deepcopy(TROOPER), "at": [8, 14.5]}]}],
           "counters": [{"id": "c1", "at": [10.8, 11], "hidden_order": 1}],
           "settings": {"turns": 1, "cp_rerolls": "never", "fight_choices": "auto"}}
    game, state = new_game(parse_scenario(doc, "reveal.yaml"), 1)
    engine_steps(game, state)
    step(game, state, {"type": "activate", "operative": "kell",
                       **({"stance": "engage"} if edition == "kt2024" else {})})
    step(game, state, {"type": "move", "how": "reposition" if edition == "kt2024" else "normal",
                       "to": [11.4, 12.2], "route": [[8, 14.5], [10.5, 14.5], [11.4, 12.2]]})
    assert state.operatives["brute-1"].at == (10.8, 11.0)
    step(game, state, {"type": "done"})
    engine_steps(game, state)
    return game, state


@pytest.mark.parametrize(("edition", "near", "does"), [
    ("kt2024", "in control range of",
     "brute-1 is in control range of kell and fights (a Melee unit)."),
    ("kt2018", "within 1\" of",
     "brute-1 is within 1\" of kell: it cannot make a normal move (004: it \"can either remain "
     "stationary or Fall Back\"). It remains stationary, to fight in the Fight phase: a Melee "
     "unit fights.")])
def test_an_enemy_revealed_in_contact_says_so(edition: str, near: str, does: str) -> None:
    _, state = revealed_game(edition)
    explain = activation_explain(state)
    assert explain[1] == (f"State: in melee (revealed from counter c1, where brute-1 is {near} "
                          "kell).")
    first = explain.index("brute-1 at (10.8, 11.0): closest enemy with line of sight is kell, "
                          "0.3\" away.")
    assert explain[first + 1:first + 3] == [
        f"brute-1 was revealed from counter c1 {near} kell: it starts in melee.", does]


def test_a_2018_model_out_of_combat_in_the_fight_phase_says_so() -> None:
    """The Fight phase: e1 (0.5" from a1) fights; e2 of the same unit, 8" away, says it does
    not fight rather than nothing."""
    from solo_ops.ai.planner import plan_activation
    from tests.support.pariah_table import RADIUS as BASE
    from tests.support.pariah_table import start as pariah_start

    game, state = pariah_start({}, a1=(10, 11), a2=(1, 20), e1=(10 + 2 * BASE + 0.5, 11),
                               e2=(19, 11))
    state.phase = "fight"
    explain = plan_activation(game.context(state), state, "u1", "fight").explain
    assert "e1 is within 1\" of a1 and fights (a Melee unit)." in explain
    assert "e2 is not within 1\" of an enemy model: it does not fight this phase." in explain
