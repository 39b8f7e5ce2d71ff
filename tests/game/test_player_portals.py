"""The players' door and hatch answers, evacuating a carried friend, and Kill Team 2018 Ready.

A hand-made 30" x 22" table: a wall runs north-south at x = 15 with one 2" gap (y 10-12)
closed by a door or a hatch (``PORTAL``); the enemy (e1, a fixed command of 1: it holds still)
stands in the far corner behind a second wall, so it neither sees nor reaches the squad and the
scripted dice are only the initiative roll-offs (6 against 1: the players go first).
Bases are 25 mm: radius 25 / 25.4 / 2 = 0.492".
"""

from __future__ import annotations

import pytest

from solo_ops.core.errors import RuleError
from solo_ops.game.engine import Game, pending, step
from solo_ops.game.state import State
from tests.support.portal_board import RADIUS, refused, start


def finish_turn(game: Game, state: State) -> None:
    """Let the enemy act and the turn end."""
    while pending(game, state).kind == "engine" and not state.ended:
        turn = state.turn
        step(game, state, {"type": "engine"})
        if state.turn != turn:
            return


# -- doors and hatches (Kill Team 2024) ---------------------------------------------------------
@pytest.mark.parametrize(("kind", "ap", "cost"), [("door", 1, 3.4), ("hatch", 1, 4.4)])
def test_opening_within_control_range_opens_the_way_and_costs_the_action(
        kind: str, ap: int, cost: float) -> None:
    """002 Operate Hatch 1AP "within Control Range" (1"): 1 AP, during a Reposition or Dash
    too (issue 14 item 8); doors cost 1 AP (docs/rules.md). Through the open portal the walk
    is straight: 3.4"; an open hatchway is Accessible (+1" to cross it), an open door is
    simply gone."""
    game, state = start({"a1": (13.6, 11)}, kind=kind)  # gap 1.4 - 0.492 = 0.908"
    assert game.terrain(state).routes.walk((13.6, 11), (17, 11), RADIUS) is None
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    record = step(game, state, {"type": "portal", "feature": "portal-1", "open": True})
    assert state.doors["portal-1"] is True
    assert record["events"][0] == {"type": "portal", "feature": "portal-1", "open": True,
                                   "note": "a1 opens portal-1."}
    a1 = state.operatives["a1"]
    assert a1.ap_used == ap
    walk = game.terrain(state).routes.walk((13.6, 11), (17, 11), RADIUS)
    assert walk is not None and walk.length == pytest.approx(3.4)  # straight through
    assert walk.cost == pytest.approx(cost)
    # not closed again in the same activation: each door or hatch once an activation (the
    # sequence table's once-per-activation row, docs/rules.md); the enemy's planner too
    # opens at most one (ai/portals)
    refused(game, state, {"type": "portal", "feature": "portal-1", "open": False},
            f"a1 has already operated portal-1 this activation \\(each {kind} once an "
            "activation\\)")
    assert state.doors["portal-1"] is True and a1.ap_used == ap


def test_a_door_out_of_control_range_is_refused_and_nothing_changes() -> None:
    game, state = start({"a1": (13.4, 11)})  # gap 1.6 - 0.492 = 1.108"
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    refused(game, state, {"type": "portal", "feature": "portal-1", "open": True},
            r'portal-1 is 1\.1" from a1: it must be within control range \(1"\)')


def test_a_door_already_open_or_unknown_is_refused() -> None:
    game, state = start({"a1": (13.6, 11)}, portal_open=True)
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    refused(game, state, {"type": "portal", "feature": "portal-1", "open": True},
            "portal-1 is already open")
    refused(game, state, {"type": "portal", "feature": "door-9", "open": True},
            r"no door or hatch called 'door-9' \(portal-1\)")
    refused(game, state, {"type": "portal", "feature": "wall-n", "open": True},
            "wall-n is not a door or hatch")


def test_no_door_while_in_an_enemys_control_range() -> None:
    """002 Operate Hatch: "Not while within Control Range of an enemy"."""
    game, state = start({"a1": (13.6, 11)}, enemy_at=(12.6, 11))  # bases 0.016" apart
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    refused(game, state, {"type": "portal", "feature": "portal-1", "open": True},
            "not while within control range of an enemy")


@pytest.mark.parametrize("kind", ["door", "hatch"])
def test_a_door_does_not_close_on_a_model_standing_in_the_doorway(kind: str) -> None:
    """a2 stands in the open doorway (its centre on the portal's line); a1, within 1" of the
    portal, tries to close it: refused, the portal stays open and a2 where it was."""
    game, state = start({"a1": (13.6, 11), "a2": (15, 11)}, kind=kind, portal_open=True)
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    refused(game, state, {"type": "portal", "feature": "portal-1", "open": False}, "a2")
    assert state.doors["portal-1"] is True


def test_a_door_does_not_close_on_the_model_that_closes_it() -> None:
    game, state = start({"a1": (15, 10.8)}, portal_open=True)
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    refused(game, state, {"type": "portal", "feature": "portal-1", "open": False}, "a1")


def test_a_door_closes_when_the_doorway_is_clear() -> None:
    """The control case for the two above: a2 stands beside the doorway, clear of it."""
    game, state = start({"a1": (13.6, 11), "a2": (15 - RADIUS - 0.05, 12.6)},
                        portal_open=True)
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    step(game, state, {"type": "portal", "feature": "portal-1", "open": False})
    assert state.doors["portal-1"] is False


# -- evacuate ---------------------------------------------------------------------------------
def carrying(a1: tuple[float, float], a2: tuple[float, float]) -> tuple[Game, State]:
    """a1 picks up the downed a2 (which ends its actions), and the turn passes."""
    game, state = start({"a1": a1, "a2": a2})
    step(game, state, {"type": "down", "operative": "a2"})
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    step(game, state, {"type": "carry", "target": "a2"})
    finish_turn(game, state)
    assert state.turn == 2 and pending(game, state).kind == "activate"
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    return game, state


def test_evacuate_carries_the_friend_off_the_table_to_safety() -> None:
    game, state = carrying((1.4, 10), (2.4, 10))  # a1's base 1.4 - 0.492 = 0.908" from the edge
    record = step(game, state, {"type": "evacuate"})
    a1, a2 = state.operatives["a1"], state.operatives["a2"]
    assert a1.at is None and a2.at is None
    assert a2.carried_to_safety and not a1.on_table
    assert [e["type"] for e in record["events"]][:2] == ["evacuated", "activation_end"]
    assert record["events"][0] == {
        "type": "evacuated", "operative": "a1", "carried": "a2",
        "note": "a1 carries a2 off the table to safety; both leave the table for the rest of "
                "the mission."}
    assert state.active_operative is None


def test_evacuate_needs_the_table_edge_within_one_inch() -> None:
    game, state = carrying((1.6, 10), (2.6, 10))  # 1.6 - 0.492 = 1.108"
    refused(game, state, {"type": "evacuate"},
            r'a1 must be within 1" of a table edge to carry a2 off \(1\.1" away; '
            r"'evacuate' alone proposes the way to the nearest edge\)")


def test_evacuate_needs_someone_carried() -> None:
    game, state = start({"a1": (1.0, 10)})
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    refused(game, state, {"type": "evacuate"}, "a1 is not carrying anyone")


# -- Kill Team 2018 Ready -----------------------------------------------------------------------
def test_ready_in_the_movement_phase_and_gone_next_battle_round() -> None:
    game, state = start({"a1": (3, 10)}, edition="kt2018")
    assert state.phase == "movement"
    step(game, state, {"type": "activate", "operative": "a1"})
    record = step(game, state, {"type": "ready"})
    assert record["events"][0]["type"] == "readied" and record["events"][0]["operative"] == "a1"
    assert "shoots in Ready, Fire!" in record["events"][0]["note"]  # 'ready' says what it did
    a1 = state.operatives["a1"]
    assert a1.readied and state.active_operative is None  # Readied instead of its move
    assert a1.readied and a1.at == (3, 10)
    while state.turn == 1 and not state.ended:
        prompt = pending(game, state)
        if prompt.kind == "engine":
            step(game, state, {"type": "engine"})
        elif prompt.kind == "activate":
            step(game, state, {"type": "activate", "operative": prompt.options[0]})
        else:
            step(game, state, {"type": "done"})
    assert state.turn == 2 and not a1.readied  # each battle round starts afresh


def test_ready_is_refused_after_a_move_outside_the_movement_phase_and_in_2024() -> None:
    game, state = start({"a1": (3, 10)}, edition="kt2018")
    step(game, state, {"type": "activate", "operative": "a1"})
    step(game, state, {"type": "move", "to": [5, 10]})
    refused(game, state, {"type": "ready"}, "a1 cannot be Readied: it has moved this phase")
    step(game, state, {"type": "done"})
    while state.phase == "movement":
        step(game, state, {"type": "engine"} if pending(game, state).kind == "engine"
             else {"type": "done"})
    assert state.phase == "shooting"
    assert pending(game, state).kind == "activate"
    step(game, state, {"type": "activate", "operative": "a1"})
    refused(game, state, {"type": "ready"}, "'ready' is a Kill Team 2018 movement-phase choice")
    game, state = start({"a1": (3, 10)})
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    refused(game, state, {"type": "ready"}, "'ready' is a Kill Team 2018 movement-phase choice")


# -- Door Fight and Hatchway Fight: one rule for both sides (Kill Team 2024) --------------------
TOUCHING = 15 - RADIUS - 0.05  # a base whose edge is 0.05" from the door (within 0.1": touching)


@pytest.mark.parametrize(("kind", "name"), [("hatch", "Hatchway Fight"), ("door", "Door Fight")])
def test_a_player_fights_across_the_door_it_touches(kind: str, name: str) -> None:
    """002 Volkus "Door Fight 1AP: When TOUCHING a door, fight enemy within 2" of the OTHER
    side of the door"; Gallowdark "Hatchway Fight 1AP: When TOUCHING an open hatchway, fight
    enemy within 2" of the OTHER side of the hatch". e1 stands 1.5" beyond: 1.55" from a1's
    base, out of its control range, so only the door's own fight reaches it; the fight is
    told as across the door."""
    game, state = start({"a1": (TOUCHING, 11)}, kind=kind, portal_open=kind == "hatch",
                        enemy_at=(15 + RADIUS + 1.5, 11))
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    record = step(game, state, {"type": "fight", "target": "e1", "dealt": 2, "taken": 1})
    fight = record["events"][0]
    assert fight["type"] == "fight" and fight["across"] == "portal-1"
    assert fight["note"] == f"across portal-1 ({name})"
    assert state.operatives["e1"].wounds == 6 and state.operatives["a1"].wounds == 7
    assert state.operatives["a1"].ap_used == 1


@pytest.mark.parametrize(("kind", "portal_open", "a1", "e1", "why"), [
    ("hatch", False, (TOUCHING, 11), (15 + RADIUS + 1.5, 11),
     "portal-1 is closed: a Hatchway Fight is across an open hatchway"),
    ("hatch", True, (TOUCHING, 11), (15 + RADIUS + 2.2, 11),
     'the target must be within 2" of the other side of portal-1'),
    ("door", False, (TOUCHING, 11), (15 + RADIUS + 2.2, 11),
     'the target must be within 2" of the other side of portal-1'),
])
def test_a_fight_across_is_refused_where_the_rule_is_not_met(
        kind: str, portal_open: bool, a1: tuple[float, float], e1: tuple[float, float],
        why: str) -> None:
    game, state = start({"a1": a1}, kind=kind, portal_open=portal_open, enemy_at=e1)
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    name = "Hatchway Fight" if kind == "hatch" else "Door Fight"
    refused(game, state, {"type": "fight", "target": "e1", "dealt": 2},
            f'e1 is not within 1" of a1 \\({name} across portal-1: {why}\\)')


def test_no_hatchway_fight_while_an_enemy_on_its_side_holds_it() -> None:
    """Gallowdark: "Cannot be performed if already in Control Range of enemy Operatives on
    the same side of the Hatch as the active Operative" -- e2 stands beside a1, on its side."""
    game, state = start({"a1": (TOUCHING, 11)}, kind="hatch", portal_open=True,
                        enemy_at=(15 + RADIUS + 1.5, 11),
                        more_enemies={"e2": (TOUCHING - 2 * RADIUS - 0.3, 11)})
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    refused(game, state, {"type": "fight", "target": "e1", "dealt": 2},
            'e1 is not within 1" of a1 \\(Hatchway Fight across portal-1: not while an enemy '
            "holds it in control range on its side of portal-1\\)")


def test_not_touching_the_door_is_a_plain_refusal() -> None:
    game, state = start({"a1": (TOUCHING - 0.5, 11)}, kind="hatch", portal_open=True,
                        enemy_at=(15 + RADIUS + 1.5, 11))
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    refused(game, state, {"type": "fight", "target": "e1", "dealt": 2},
            'e1 is not within 1" of a1$')


def test_the_enemy_fights_across_the_hatch_where_a_player_may() -> None:
    """The mirror: e1 touches the open hatch with a1 1.5" beyond. The players' check accepts
    e1's Hatchway Fight, and the referee that judges every enemy action as it is carried out
    (``enemy_checks.refusal``, the AI's ``_portal_fight`` asks the same rule,
    :func:`solo_ops.rules.portals.fight_across`) lets it through; with the hatch closed both
    refuse it."""
    from solo_ops.ai.planner import Action
    from solo_ops.game import enemy_checks
    from solo_ops.game.attack_checks import check_fight

    for portal_open in (True, False):
        game, state = start({"a1": (15 - RADIUS - 1.5, 11)}, kind="hatch",
                            portal_open=portal_open, enemy_at=(15 + RADIUS + 0.05, 11))
        e1, a1 = state.operatives["e1"], state.operatives["a1"]
        fight = Action("fight", "e1", target="a1", weapon=None, portal="portal-1")
        why = enemy_checks.refusal(game, state, e1, fight, [])
        if portal_open:
            assert check_fight(game, state, e1, a1) == "portal-1" and why is None
        else:
            assert why == ('a1 is not within 1" of Trooper (Hatchway Fight across portal-1: '
                           "portal-1 is closed: a Hatchway Fight is across an open hatchway)")
            with pytest.raises(RuleError, match="portal-1 is closed"):
                check_fight(game, state, e1, a1)
