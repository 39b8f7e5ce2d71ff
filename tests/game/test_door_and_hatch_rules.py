"""Who may open or close a door or hatch, when, and what it costs, in each edition.

* Kill Team 2024, 002 Gallowdark: "Operate Hatch 1AP: Open/Close hatch within Control Range.
  Can be performed during a Reposition or Dash." and "Not while within Control Range of an
  enemy or while the hatch is within Control Range of an enemy." An operative does it: never
  between activations.
* Kill Team 2018, 004 "Doors": "In the Movement phase, at any point when an INFANTRY model is
  making a normal move or Falling Back, it can open a door that is within 1" of it."; and
  ACCESS OVERRIDE (1 CP): "Use this Tactic at the end of the Movement phase. If you control an
  objective marker that is a Command Node, you can open one door", "Starting from the second
  battle round".

The rules are :func:`solo_ops.rules.portals.operate` and ``access_override``; the engine asks
them for every answer. Readings: docs/rules.md, "Doors and hatches".
"""

from __future__ import annotations

import copy
import json

import pytest

from solo_ops.core.dice import ScriptedDice
from solo_ops.core.errors import RuleError
from solo_ops.game import checkpoint
from solo_ops.game.engine import new_game, pending, step
from solo_ops.io.scenario import parse_scenario
from solo_ops.rules import portals
from tests.support.phases import to_phase
from tests.support.portal_board import refused, start


def test_operate_hatch_costs_one_ap_even_during_a_move() -> None:
    """002 Gallowdark: "Operate Hatch 1AP: Open/Close hatch within Control Range. Can be
    performed during a Reposition or Dash." The action costs 1 AP; "during" is timing."""
    v = portals.operate("kt2024", opening=True, phase="firefight", gap=0.5,
                        in_enemy_control=False, portal_guarded=False, moved_how="reposition",
                        word="hatch")
    assert v == portals.Verdict(True, 1)
    game, state = start({"a1": (13.6, 11)}, kind="hatch")
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    step(game, state, {"type": "move", "how": "reposition", "to": [13.7, 11]})
    step(game, state, {"type": "portal", "feature": "portal-1", "open": True})
    a1 = state.operatives["a1"]
    assert a1.ap_used == 2 and a1.actions_taken == ["reposition", "portal"]
    # nor is it closed again: each hatch once an activation (and no AP is left for it)
    refused(game, state, {"type": "portal", "feature": "portal-1", "open": False},
            r"already operated portal-1 this activation \(each hatch once an activation\)")


def test_a_hatch_guarded_by_an_enemy_cannot_be_operated() -> None:
    """002: "Not while within Control Range of an enemy or while the hatch is within Control
    Range of an enemy." The enemy stands 0.5" beyond the hatch, out of a1's reach."""
    game, state = start({"a1": (13.6, 11)}, kind="hatch", portal_open=True,
                        enemy_at=(15 + 0.492 + 0.5, 11))
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    refused(game, state, {"type": "portal", "feature": "portal-1", "open": False},
            "within control range of an enemy")


def test_no_door_without_an_operative_in_reach_in_2024() -> None:
    """002 "Open/Close hatch within Control Range": an operative does it. The players may not
    open a door between activations (Access Override is a Kill Team 2018 tactic only)."""
    game, state = start({"a1": (3, 11)})
    assert pending(game, state).kind == "activate"
    refused(game, state, {"type": "portal", "feature": "portal-1", "open": True},
            "activate one first")


def test_2018_doors_only_in_the_movement_phase_by_a_moving_model() -> None:
    """004 "Doors": "In the Movement phase, at any point when an INFANTRY model is making a
    normal move or Falling Back, it can open a door that is within 1" of it." """
    assert portals.operate("kt2018", opening=True, phase="shooting", gap=0.2,
                           in_enemy_control=False, portal_guarded=False).why == \
        "doors are opened in the movement phase only (2018)"
    assert not portals.operate("kt2018", opening=True, phase="movement", gap=0.2,
                               in_enemy_control=False, portal_guarded=False,
                               readied=True).ok
    assert not portals.operate("kt2018", opening=True, phase="movement", gap=0.2,
                               in_enemy_control=False, portal_guarded=False,
                               moved_how="advance").ok
    assert not portals.operate("kt2018", opening=False, phase="movement", gap=0.2,
                               in_enemy_control=False, portal_guarded=False).ok
    assert portals.operate("kt2018", opening=True, phase="movement", gap=0.2,
                           in_enemy_control=False, portal_guarded=False,
                           moved_how="fall_back") == portals.Verdict(True, 0)
    game, state = start({"a1": (13.6, 11)}, edition="kt2018")
    assert state.phase == "movement"
    step(game, state, {"type": "activate", "operative": "a1"})
    step(game, state, {"type": "portal", "feature": "portal-1", "open": True})
    assert state.doors["portal-1"] is True and state.operatives["a1"].ap_used == 0


def test_access_override_only_as_the_2018_source_gives_it() -> None:
    """004 "ACCESS OVERRIDE": "Use this Tactic at the end of the Movement phase. If you control
    an objective marker that is a Command Node, you can open one door on the battlefield."
    and "Starting from the second battle round, a player gains one Command Point if they
    control the Command Node objective marker, and they can also use the Access Override
    Tactic." One command point."""
    ok = dict(phase="movement", turn=2, players_left_to_move=False,
              controls_command_node=True, cp=1, used_this_round=False)
    assert portals.access_override("kt2018", **ok) == portals.Verdict(True, 1)
    assert not portals.access_override("kt2024", **ok).ok
    for change in ({"phase": "shooting"}, {"players_left_to_move": True}, {"turn": 1},
                   {"controls_command_node": False}, {"cp": 0}, {"used_this_round": True}):
        assert not portals.access_override("kt2018", **{**ok, **change}).ok, change


def test_2018_door_between_activations_is_refused_without_the_command_node() -> None:
    """004 Access Override needs the Command Node: the portal table has none."""
    game, state = start({"a1": (13.6, 11)}, edition="kt2018")
    with pytest.raises(RuleError, match="end of the movement phase"):
        step(game, state, {"type": "portal", "feature": "portal-1", "open": True})


def test_access_override_in_play_with_the_command_node() -> None:
    """004 Command Nodes: "Starting from the second battle round, a player gains one Command
    Point if they control the Command Node objective marker, and they can also use the Access
    Override Tactic." ACCESS OVERRIDE (1 CP): "Use this Tactic at the end of the Movement
    phase. If you control an objective marker that is a Command Node, you can open one door".
    a1 stands by the node (1" from it; 2018 control: within 2"); the door is 10" away."""
    import copy

    from solo_ops.core.dice import ScriptedDice
    from solo_ops.game.engine import new_game
    from solo_ops.io.scenario import parse_scenario
    from tests.support.portal_board import TROOPER, board

    b = board("door", False)
    b["objectives"] = [{"id": "node", "at": [3, 11], "command_node": True}]
    doc = {"name": "t", "edition": "kt2018", "board": b,
           "roster": {"name": "r", "profiles": {"trooper": copy.deepcopy(TROOPER)},
                      "table": {i: "trooper" for i in range(1, 7)}},
           "engagement": 0, "seed": 1,
           "squads": [{"player": "Ana", "models": [
               {"id": "a1", "profile": copy.deepcopy(TROOPER), "at": [4.5, 11]}]}],
           "enemies": [{"id": "u1", "command": 1, "models": [
               {"id": "e1", "profile": "trooper", "at": [28, 2]}]}],
           "settings": {"turns": 3}}
    game, state = new_game(parse_scenario(doc, "t.yaml"), 1)
    state.dice = ScriptedDice(faces=[6, 1] * 6)
    step(game, state, {"type": "engine"})
    door = {"type": "portal", "feature": "portal-1", "open": True}
    refused(game, state, door, "end of the movement phase")  # turn 1, a1 still to move
    step(game, state, {"type": "activate", "operative": "a1"})
    step(game, state, {"type": "done"})
    to_phase(game, state, "shooting")
    refused(game, state, door, "from the second battle round")  # the window, but turn 1
    while state.turn < 2:
        prompt = pending(game, state)
        if prompt.kind == "activate":
            step(game, state, {"type": "activate", "operative": prompt.options[0]})
            step(game, state, {"type": "done"})
        else:
            step(game, state, {"type": "engine"})
    assert state.cp.get("player") == 1  # gained for holding the node at the round's start
    assert state.phase == "movement"
    refused(game, state, door, "end of the movement phase")  # a1 has not moved yet
    step(game, state, {"type": "activate", "operative": "a1"})
    step(game, state, {"type": "done"})
    to_phase(game, state, "shooting")
    record = step(game, state, door)  # the players' first answer after the movement phase
    assert state.doors["portal-1"] is True and state.cp["player"] == 0
    assert record["events"][0]["access_override"] is True


def test_access_override_used_this_round_survives_a_checkpoint() -> None:
    """004 Command Nodes: "they can also use the Access Override Tactic"; ACCESS OVERRIDE "Use
    this Tactic at the end of the Movement phase" -- once a battle round (the project's reading,
    docs/rules.md). The use is a State field, not read from the log: a game going on from a
    checkpoint (past steps are stubs without events) still refuses a second Access Override
    in the same round."""
    from tests.support.phases import to_phase
    from tests.support.portal_board import TROOPER as T18
    from tests.support.portal_board import board as portal_board

    b = portal_board("door", False)
    b["features"].append({"id": "door-2", "traits": ["door"], "line": [[25, 5], [25, 7]],
                          "open": False})
    b["objectives"] = [{"id": "node", "at": [3, 11], "command_node": True}]
    doc = {"name": "t", "edition": "kt2018", "board": b,
           "roster": {"name": "r", "profiles": {"trooper": copy.deepcopy(T18)},
                      "table": {i: "trooper" for i in range(1, 7)}},
           "engagement": 0, "seed": 1,
           "squads": [{"player": "Ana", "models": [
               {"id": "a1", "profile": copy.deepcopy(T18), "at": [4.5, 11]}]}],
           "enemies": [{"id": "u1", "command": 1, "models": [
               {"id": "e1", "profile": "trooper", "at": [28, 2]}]}],
           "settings": {"turns": 3}}
    game, state = new_game(parse_scenario(doc, "t.yaml"), 1)
    state.dice = ScriptedDice(faces=[6, 1] * 6)
    while state.turn < 2:
        prompt = pending(game, state)
        if prompt.kind == "activate":
            step(game, state, {"type": "activate", "operative": prompt.options[0]})
            step(game, state, {"type": "done"})
        else:
            step(game, state, {"type": "engine"})
    state.cp["player"] = 3
    step(game, state, {"type": "activate", "operative": "a1"})
    step(game, state, {"type": "done"})
    to_phase(game, state, "shooting")
    step(game, state, {"type": "portal", "feature": "portal-1", "open": True})
    assert state.override_used and state.cp["player"] == 2
    again = checkpoint.load(json.loads(json.dumps(checkpoint.dump(state))), game)
    assert all(not record["events"] for record in again.log)  # stubs: no past events
    with pytest.raises(RuleError, match="already been used this battle round"):
        step(game, again, {"type": "portal", "feature": "door-2", "open": True})
    assert again.cp["player"] == 2 and again.doors["door-2"] is False
