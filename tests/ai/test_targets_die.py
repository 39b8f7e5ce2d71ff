"""Issue #11 item 3, targets that die: when a target is incapacitated part-way through an
enemy activation, the rest of that activation is planned again (another target, or the move
the order asks for); no enemy shoots, charges or fights a model no longer on the table.

Boards are 30" x 22" and open; bases are 25.4 mm (radius 0.5"). Dice are scripted: all 6s,
so a shot with the 4-dice gun is four critical hits, of which the target's three defence
dice (all 6s: critical saves) cancel three; one critical hit of 4 damage gets through.
"""

from __future__ import annotations

from typing import Any

from solo_ops.ai.context import Action
from solo_ops.ai.planner import plan_activation, replan_model
from solo_ops.core.dice import ScriptedDice
from solo_ops.game.enemy import apply_plan
from tests.support.order_boards import BRUTE, GRUNT, setup


def attacks_on(events: list[dict[str, Any]], target: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] in ("attack", "fight", "charged", "attack_pending")
            and e.get("target") == target]


def test_the_second_gunner_shoots_another_target_when_the_first_kills_its_own() -> None:
    # Fire Teams command 1: remain stationary, fire at will. e1 and e2 both see p1 (closest,
    # 6" away) and p2 (10" away); both plan to shoot p1, who has 1 wound left.
    game, state = setup([("u1", 1, [("e1", GRUNT, (10, 11)), ("e2", GRUNT, (10, 13))])],
                        [("p1", GRUNT, (16, 11)), ("p2", GRUNT, (20, 13))])
    state.operatives["p1"].wounds = 1
    state.counters.clear()  # no hidden enemies to spot
    plan = plan_activation(game.context(state), state, "u1")
    assert [(a.model, a.kind, a.target) for a in plan.actions] == [
        ("e1", "shoot", "p1"), ("e2", "shoot", "p1")]
    state.dice = ScriptedDice(faces=[6] * 40)
    events = apply_plan(game, state, plan)
    assert state.operatives["p1"].down
    assert [e["attacker"] for e in attacks_on(events, "p1")] == ["e1"]
    replanned = [e for e in events if e["type"] == "replanned"]
    assert len(replanned) == 1
    assert replanned[0]["operative"] == "e2" and replanned[0]["dropped"] == "shoot"
    assert replanned[0]["why"] == "p1 is down"  # (its base stays on the table: issue #27)
    assert [a["kind"] for a in replanned[0]["actions"]] == ["shoot"]
    assert replanned[0]["actions"][0]["target"] == "p2"
    shots = attacks_on(events, "p2")
    assert [e["attacker"] for e in shots] == ["e2"]
    assert shots[0]["damage"] == 4  # one critical hit of the gun's 4
    # no attack of any kind names p1 after it went down
    down_at = next(i for i, e in enumerate(events) if e["type"] == "down"
                   and e["operative"] == "p1")
    assert attacks_on(events[down_at:], "p1") == []


def test_with_no_other_target_the_order_takes_over() -> None:
    # Melee command 3 (towards the closest enemy, charge "Yes"): e1 and e2 both plan to charge
    # p1 and fight it. e1 kills it; p2 is out of e2's sight behind a wall, so e2 does what its
    # order asks with no one to charge: it moves towards the closest enemy, p2.
    wall = ({"id": "w1", "traits": ["wall"], "line": [[22, 0], [22, 18]]},)
    game, state = setup([("u1", 3, [("e1", BRUTE, (10, 11)), ("e2", BRUTE, (10, 13))])],
                        [("p1", GRUNT, (14, 12)), ("p2", GRUNT, (26, 12))], wall)
    state.operatives["p1"].wounds = 1
    state.counters.clear()  # no hidden enemies to spot
    plan = plan_activation(game.context(state), state, "u1")
    assert [(a.model, a.kind, a.target) for a in plan.actions] == [
        ("e1", "charge", "p1"), ("e1", "fight", "p1"),
        ("e2", "charge", "p1"), ("e2", "fight", "p1")]
    state.dice = ScriptedDice(faces=[6] * 40)
    events = apply_plan(game, state, plan)
    assert state.operatives["p1"].down
    assert [e["operative"] for e in events if e["type"] == "charged"] == ["e1"]
    assert [e["attacker"] for e in events if e["type"] == "fight"] == ["e1"]
    replanned = [e for e in events if e["type"] == "replanned"]
    assert [(e["operative"], e["dropped"], e["target"]) for e in replanned] == [
        ("e2", "charge", "p1")]
    moves = replanned[0]["actions"]
    assert moves and all(a["kind"] in ("reposition", "dash") for a in moves)
    assert attacks_on(events, "p2") == []
    e2 = state.operatives["e2"]
    assert e2.at is not None and e2.at[0] > 10  # it moved east, towards p2


def test_a_model_that_has_moved_shoots_after_a_re_plan_rather_than_dash() -> None:
    # Fire Teams command 4: Hold 12" from enemy, Unhindered Move. e1 has made its Reposition
    # (1 AP left) when the target of its planned shot went down; p2 stands 18" away in the
    # open: still beyond the order's 12", well within the gun's 24". 003 Unhindered move "will
    # fire at the closest enemy within range if also allowing its self to complete the other
    # action unhindered": its order's move is made, so its last AP is the shot, not a Dash of
    # 3" that leaves none to shoot with (found in a play-test: seed 7 of the stronghold).
    game, state = setup([("u1", 4, [("e1", GRUNT, (10, 11))])],
                        [("p2", GRUNT, (28, 11))])
    state.counters.clear()
    state.operatives["e1"].stance = "engage"  # its activation's order, chosen as it began
    spent = [Action("reposition", "e1", start=(4.0, 11.0), to=(10.0, 11.0), cost=6.0)]
    plan = replan_model(game.context(state), state, "u1", "e1", "firefight", spent)
    assert [(a.kind, a.target) for a in plan.actions] == [("shoot", "p2")]
    assert "Unhindered move: it moved first, then fires." in " ".join(plan.explain)


def test_the_same_model_fresh_makes_its_order_s_move_then_shoots() -> None:
    # The same order, model and target from where e1 started (24" from p2), nothing spent:
    # the order's move first (a Reposition of 6" towards p2's 12"), then the shot from its
    # end; the Dash that would bring it 3" nearer is not made.
    game, state = setup([("u1", 4, [("e1", GRUNT, (4, 11))])],
                        [("p2", GRUNT, (28, 11))])
    state.counters.clear()
    plan = plan_activation(game.context(state), state, "u1")
    assert [(a.kind, a.target) for a in plan.actions] == [("reposition", None),
                                                          ("shoot", "p2")]
