"""Kill Team 2018: the enemy Advances when its order moves it on and the Advance costs it
nothing. 004 Advance: "instead of making a normal move with that model you can declare that
it will Advance ... make an Advance roll by rolling a D6. Add the result to the model's Move
characteristic ... A model that Advances cannot charge, React or shoot later that battle
round." """

from __future__ import annotations

from pathlib import Path

from solo_ops.ai.planner import plan_activation
from solo_ops.core.dice import ScriptedDice
from solo_ops.game import enemy
from solo_ops.game.engine import new_game
from solo_ops.io.scenario import load_scenario
from tests.support.scenario_files import AXE, PISTOL, TROOPER, ai_plan, kinds, prof, scenario, text


def test_a_melee_model_out_of_charge_range_advances(tmp_path: Path) -> None:
    """A melee-only brute (Melee command 3: Towards closest enemy, Charge Yes) 17.7" from a
    trooper: no charge can reach (2D6 rolls at most 12"), it has no shot to lose: it
    Advances, and the engine rolls the D6 as it moves (a 3: 6" + 3" = 9")."""
    path = scenario(tmp_path, [("u1", 3, [("e1", prof(AXE), (5.3, 11))])],
                    [("kell", TROOPER, (24, 11))], edition="kt2018")
    plan = ai_plan(path, phase="movement")
    assert kinds(plan) == ["advance"]
    assert "It Advances (its Move and a D6, rolled as it moves)" in text(plan)
    game, state = new_game(load_scenario(path), 1)
    state.phase = "movement"
    state.dice = ScriptedDice(faces=[3])
    moving = plan_activation(game.context(state), state, "u1", "movement")
    events = enemy.apply_plan(game, state, moving)
    moved = next(e for e in events if e["type"] == "moved")
    assert moved["how"] == "advance" and moved["cost"] == 9.0
    assert "It rolls 3 to Advance: 9.0\" in all." in moved["note"]
    e1 = state.operatives["e1"]
    assert e1.advanced and e1.at == (14.3, 11.0)
    state.phase = "shooting"
    assert plan_activation(game.context(state), state, "u1", "shooting").actions == []


def test_a_model_whose_gun_may_reach_makes_a_normal_move(tmp_path: Path) -> None:
    """The same brute with a pistol of Range 12" (17.7" away, 11.7" after a 6" move): the
    normal move keeps the shot the Advance would cost, so it makes a normal move."""
    pistol = {**PISTOL, "range": 12}
    path = scenario(tmp_path, [("u1", 3, [("e1", prof(AXE, pistol), (5.3, 11))])],
                    [("kell", TROOPER, (24, 11))], edition="kt2018")
    assert kinds(ai_plan(path, phase="movement")) == ["normal"]
