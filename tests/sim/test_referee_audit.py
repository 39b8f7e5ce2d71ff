"""The referee audit (``solo_ops/sim/referee_audit.py``): whole games in which every enemy
action is put through the players' own checks and every enemy plan is read against its
order's priority text (003). ``bench/audit_games.py --only referee`` sweeps every shipped
scenario x both editions x 3 policies x seeds 1-20; here a sample, and the proof that each
check flags what it exists for."""

from __future__ import annotations

from typing import Any

import pytest

from solo_ops.ai.context import Action, Plan
from solo_ops.core.tables import order_table
from solo_ops.game import enemy
from solo_ops.sim.referee_audit import audit_game, order_problems, players_refusal
from tests.support.order_boards import GUN, prof, setup
from tests.support.paths import SCENARIOS

HEAVY = {"name": "heavy bolter", "type": "heavy", "range": 24, "attacks": 5, "hit": 4,
         "damage": [4, 5], "rules": ["heavy"]}
FISTS = {"name": "fists", "type": "melee", "attacks": 3, "hit": 4, "damage": [3, 4]}


@pytest.mark.parametrize(("name", "edition", "policy"), [
    ("gallowdark-night-raid", "kt2024", "objective"),
    ("crypt-objective-ultima", "kt2018", "aggressive"),
])
def test_a_sample_of_games_has_nothing_flagged(name: str, edition: str, policy: str) -> None:
    """Seed 1 of a 2024 and a 2018 scenario played to the end: no enemy action a player
    would be refused, none stopped by the referee as it was carried out, no plan against its
    order's priority."""
    audit = audit_game(SCENARIOS / f"{name}.yaml", 1, policy, edition)
    assert audit.steps > 20 and audit.actions > 10 and audit.plans > 5
    assert audit.problems == []


def _game() -> tuple[Any, Any]:
    """A Support gunner (heavy bolter, fists) 4" from a trooper, both in the open (the
    trooper with 30 wounds: the heavy bolter's 5 dice, at most 25 damage, never take it down,
    whatever the dice)."""
    return setup([("u1", 1, [("e1", prof(weapons=[HEAVY, FISTS]), (5, 11))])],
                 [("kell", {**prof(weapons=[GUN]), "wounds": 30}, (9, 11))])


def test_the_players_checks_refuse_a_charge_after_a_heavy_shot() -> None:
    """001 Heavy: "cannot ... move after using this weapon": the audit asks the players'
    check of the charge as the enemy would make it, after its shot."""
    game, state = _game()
    state.operatives["e1"].stance = "engage"  # (set up concealed: its plan engages, 001)
    shot = Action("shoot", "e1", target="kell", weapon="heavy bolter")
    charge = Action("charge", "e1", start=(5, 11), to=(7.9, 11), route=((5, 11), (7.9, 11)),
                    target="kell")
    assert players_refusal(game, state, state.operatives["e1"], shot, []) is None
    e1 = state.operatives["e1"]
    assert players_refusal(game, state, e1, charge, [shot]) == (
        f"heavy bolter is Heavy: {e1.name} shot it this activation and cannot move after it")
    assert state.operatives["e1"].actions_taken == []  # put back as it was


def test_an_order_is_read_against_its_priority_text() -> None:
    """003 "Fire at Will: ... Firing will take priority over movement and charging": a plan
    that moves first with a valid shot where it stands is flagged; "Within 6"" never charges
    further."""
    game, state = _game()
    order = order_table("support")[1]
    plan = Plan("u1", 1, "support", order, "idle")
    plan.actions = [Action("dash", "e1", start=(5, 11), to=(5, 8)),
                    Action("shoot", "e1", target="kell", weapon="heavy bolter")]
    problems = order_problems(game, state, plan)
    assert problems == ["e1 does not fire first on a Fire at will order with heavy bolter at "
                        "kell valid from where it stands", "e1 moves on a Remain Stationary "
                        "order"]
    state.operatives["kell"].at = (13, 11)  # 7" away around nothing: beyond "Within 6""
    plan.actions = [Action("charge", "e1", start=(5, 11), to=(11.9, 11), target="kell")]
    assert "e1 charges kell 7.0\" away on a 'Within 6\"' order" in order_problems(
        game, state, plan)


def test_the_engine_refuses_what_the_referee_refuses() -> None:
    """The referee is asked again as a plan is carried out: a Charge after a Heavy shot is
    not made, and the ``enemy_refused`` event says why."""
    game, state = _game()
    order = order_table("support")[1]
    plan = Plan("u1", 1, "support", order, "idle")
    plan.actions = [Action("shoot", "e1", target="kell", weapon="heavy bolter"),
                    Action("charge", "e1", start=(5, 11), to=(7.9, 11),
                           route=((5, 11), (7.9, 11)), target="kell")]
    events = enemy.apply_plan(game, state, plan)
    refused = [e for e in events if e["type"] == "enemy_refused"]
    assert [(e["operative"], e["action"]) for e in refused] == [("e1", "charge")]
    assert refused[0]["why"].endswith("cannot move after it")
    assert state.operatives["e1"].at == (5, 11)


def test_a_step_that_pauses_is_audited_once() -> None:
    """A step paused for the players' answer (here Kill Team 2018 Reactions to the enemy's
    charges) runs again with it: the audit counts each enemy plan once, as many as the
    activations the same game (same seed and answers, no audit) records."""
    from solo_ops.game.engine import new_game, pending
    from solo_ops.io.scenario import load_scenario
    from solo_ops.sim import autopilot

    path = SCENARIOS / "crypt-objective-ultima.yaml"
    audit = audit_game(path, 2)
    game, state = new_game(load_scenario(path), 2)
    autopilot.play(game, state)
    kinds = [e["type"] for r in state.log for e in r["events"]]
    assert kinds.count("reaction_offered") >= 1
    assert pending(game, state).kind == "ended"
    assert audit.plans == kinds.count("enemy_activation")
    assert audit.problems == []
