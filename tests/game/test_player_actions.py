"""The players' reported actions: each check refuses with its reason and leaves the state
untouched; accepted actions change exactly what they say."""

from __future__ import annotations

import copy

import pytest

from solo_ops.core.dice import ScriptedDice
from solo_ops.game.engine import pending, step
from solo_ops.game.state import ENEMY
from tests.support.small_table import BOARD, active, refused, start


def test_a_point_inside_a_wall_or_off_the_board_is_refused() -> None:
    game, state = active()
    refused(game, state, {"type": "move", "how": "reposition", "to": [15, 10]},
            "a1's base does not fit at 15,10: wall-1 is there; the nearest point where it "
            "fits is 14.45,10")
    refused(game, state, {"type": "move", "how": "reposition", "to": [-1, 10]}, "off the board")
    refused(game, state, {"type": "move", "how": "reposition", "to": ["x", 1]},
            "expected a point")


def test_a_move_is_measured_around_the_walls() -> None:
    game, state = active(enemy_at=(27, 2))
    # 9" straight, and the wall (x 15, y 4-18) is not in the way: too far, on open ground
    # (no "around the walls": the way does not bend)
    refused(game, state, {"type": "move", "how": "reposition", "to": [12, 10]},
            "that is 9.0\" of movement; a1 can reposition 6.0\"")
    step(game, state, {"type": "move", "how": "reposition", "to": [9, 10]})
    moved = state.log[-1]["events"][0]
    assert moved["type"] == "moved" and moved["cost"] == pytest.approx(6.0, abs=0.01)
    assert state.operatives["a1"].at == (9, 10)
    # a second Reposition in the same activation is refused (each action once)
    refused(game, state, {"type": "move", "how": "reposition", "to": [10, 10]},
            "already done reposition")
    step(game, state, {"type": "move", "how": "dash", "to": [12, 10]})
    # APL 2 spent
    refused(game, state, {"type": "shoot", "target": "e1"}, "has 0 AP left")


def test_a_refused_move_says_what_the_terrain_adds() -> None:
    """A move that climbs says so: the players read how much was walked and what the rest
    paid for, not "around the walls" (a board without a wall in the way). A 4" deck at x 8-12:
    from (3, 10) to its top at (10, 10) is 7" walked and 4" of climb."""
    board = {**copy.deepcopy(BOARD), "features": [
        {"id": "deck-1", "traits": ["heavy", "accessible", "vantage"], "height": 4,
         "polygon": [[8, 8], [12, 8], [12, 12], [8, 12]]}]}
    game, state = active(enemy_at=(27, 2), board=board)
    refused(game, state, {"type": "move", "how": "reposition", "to": [10, 10]},
            "that is 11.0\" of movement: 7.0\" walked, climbing onto deck-1; a1 can "
            "reposition 6.0\"")


def test_shooting_checks_order_sight_and_range_then_applies_damage() -> None:
    game, state = active(enemy_at=(10, 10), stance="conceal")
    refused(game, state, {"type": "shoot", "target": "e1", "weapon": "lasgun", "damage": 3},
            "Conceal order")
    game, state = active(enemy_at=(27, 11))
    refused(game, state, {"type": "shoot", "target": "e1", "damage": 3},
            "not visible to a1")
    refused(game, state, {"type": "shoot", "target": "a2"}, "not an enemy")
    refused(game, state, {"type": "shoot", "target": "nobody"}, "no target called 'nobody'")
    game, state = active(enemy_at=(10, 10))
    refused(game, state, {"type": "shoot", "target": "e1", "weapon": "plasma"},
            "has no weapon 'plasma'")
    step(game, state, {"type": "shoot", "target": "e1", "weapon": "lasgun", "damage": 3})
    assert state.operatives["e1"].wounds == 5
    assert state.operatives["a1"].shot


def test_rolled_shot_uses_the_logged_dice() -> None:
    game, state = active(enemy_at=(10, 10))
    # 4 attack dice hitting on 4+, then the target's 3 defence dice saving on 4+
    state.dice = ScriptedDice(faces=[6, 4, 1, 2, 1, 1, 1])
    record = step(game, state, {"type": "shoot", "target": "e1", "weapon": "lasgun",
                                "roll": True})
    assert [r["faces"] for r in record["rolls"]] == [[6, 4, 1, 2], [1, 1, 1]]
    assert state.operatives["e1"].wounds == 8 - 3 - 2  # one crit (3) and one normal (2)


def test_charge_must_end_in_control_range_and_counts_the_extra_2_inches() -> None:
    game, state = active(enemy_at=(10.5, 10))
    refused(game, state, {"type": "move", "how": "charge", "target": "e1", "to": [6, 10]},
            "must end within 1\" of e1")
    step(game, state, {"type": "move", "how": "charge", "target": "e1", "to": [9.3, 10]})
    assert state.operatives["a1"].charged
    refused(game, state, {"type": "move", "how": "fall_back", "to": [3, 3]},
            "cannot Fall Back after a Charge .*'fall-back-after-reposition-or-charge'")


def test_a_conceal_order_refuses_a_charge_at_the_table_and_in_the_offers() -> None:
    """Kill Team 2024: a Charge needs an Engage order (docs/rules.md), for the players as for
    the enemy (one referee). The table's offers say why before the charge is tried; the order
    can still be changed before the first action."""
    from solo_ops.game.player_moves import open_moves

    game, state = active(enemy_at=(10.5, 10), stance="conceal")
    why = "a1 has a Conceal order: it cannot charge \\(a Charge needs an Engage order\\)"
    refused(game, state, {"type": "move", "how": "charge", "target": "e1", "to": [9.3, 10]},
            why)
    offers = open_moves(game, state)
    assert offers["charge"] is not None and "Conceal order" in offers["charge"]
    assert offers["reposition"] is None and offers["dash"] is None
    step(game, state, {"type": "order", "stance": "engage"})
    assert open_moves(game, state)["charge"] is None
    step(game, state, {"type": "move", "how": "charge", "target": "e1", "to": [9.3, 10]})
    assert state.operatives["a1"].charged


def test_fight_and_damage_reports() -> None:
    game, state = active(enemy_at=(4.1, 10))
    refused(game, state, {"type": "move", "how": "reposition", "to": [3, 8]},
            "in control range of e1: it can only fall back or fight")
    step(game, state, {"type": "fight", "target": "e1", "dealt": 8, "taken": 2})
    assert state.operatives["e1"].down and state.operatives["a1"].wounds == 6
    assert state.incapacitated_total[ENEMY] == 1
    refused(game, state, {"type": "damage", "operative": "e1", "amount": 1}, "already down")
    refused(game, state, {"type": "damage", "operative": "a2", "amount": -1}, "negative")


def test_activation_rules() -> None:
    game, state = start(faces=[6, 1])
    step(game, state, {"type": "engine"})
    refused(game, state, {"type": "move", "how": "reposition", "to": [4, 10]},
            "activate an operative first")
    refused(game, state, {"type": "activate", "operative": "e1"}, "e1 cannot act now")
    refused(game, state, {"type": "activate", "operative": "a1", "stance": "hide"},
            "stance must be engage or conceal")
    step(game, state, {"type": "activate", "operative": "a1"})
    refused(game, state, {"type": "activate", "operative": "a2"}, "already active")
    step(game, state, {"type": "done"})
    assert pending(game, state).kind == "engine"


def test_mines_go_off_under_the_first_operative() -> None:
    game, state = active(equipment=[{"kind": "mines", "at": [6, 10]}])
    state.dice = ScriptedDice(faces=[2])  # D3 = 2 -> 2 + 3 damage
    step(game, state, {"type": "move", "how": "reposition", "to": [5, 10]})
    mine = next(e for e in state.log[-1]["events"] if e["type"] == "mines")
    assert mine["damage"] == 5 and state.operatives["a1"].wounds == 3
    assert [r["dice"] for r in state.log[-1]["rolls"]] == ["d3"]


def test_mines_go_off_under_an_operative_that_walks_past_them() -> None:
    """002 Mines: "The first time ANY Operative is within Control Range": on its way too. a1
    repositions from (3, 10) straight over the mine at (6, 10) to (9, 10), 2.5" beyond it."""
    game, state = active(equipment=[{"kind": "mines", "at": [6, 10]}])
    state.dice = ScriptedDice(faces=[2])
    step(game, state, {"type": "move", "how": "reposition", "to": [9, 10]})
    mine = next(e for e in state.log[-1]["events"] if e["type"] == "mines")
    assert mine["damage"] == 5 and state.operatives["a1"].wounds == 3
    assert state.spent_markers == [mine["marker"]]


def test_a_concealed_enemy_in_cover_is_not_a_valid_target() -> None:
    # a light barricade standing north-south at x = 9, 0.75" in front of e1 (10, 10): e1 is in
    # cover from a1 (3, 10), 7" away
    barricade = [{"kind": "light-barricade", "at": [9, 10], "angle": 90}]
    game, state = active(enemy_at=(10, 10), equipment=barricade)
    state.operatives["e1"].stance = "conceal"
    refused(game, state, {"type": "shoot", "target": "e1", "weapon": "lasgun", "damage": 3},
            "Concealed and in cover")
    state.operatives["e1"].stance = "engage"  # Engaged, the same position may be shot
    step(game, state, {"type": "shoot", "target": "e1", "weapon": "lasgun", "damage": 3})
    assert state.operatives["e1"].wounds == 5


def test_kt2018_a_model_moves_once_in_the_movement_phase() -> None:
    game, state = active(edition="kt2018")
    step(game, state, {"type": "move", "operative": "a1", "to": [5, 10]})
    refused(game, state, {"type": "move", "operative": "a1", "to": [7, 10]},
            "already moved this battle round")


def test_a_heavy_weapon_cannot_shoot_after_a_move() -> None:
    from dataclasses import replace

    from solo_ops.core.model import parse_weapon_rule

    game, state = active(enemy_at=(10, 10))
    a1 = state.operatives["a1"]
    heavy = tuple(replace(w, rules=(parse_weapon_rule("heavy"),)) if w.name == "lasgun" else w
                  for w in a1.profile.weapons)
    a1.profile = replace(a1.profile, weapons=heavy)
    step(game, state, {"type": "move", "operative": "a1", "to": [4, 10]})
    refused(game, state, {"type": "shoot", "target": "e1", "weapon": "lasgun", "damage": 3},
            "is Heavy")


def test_a_shot_that_names_no_weapon_is_checked_with_the_weapons_there_are() -> None:
    """A shot reported without its weapon is judged as the enemy's always is: by the weapons
    that could make it. Heavy after a move or out of range, no weapon can: refused, saying
    why; a model with no ranged weapon cannot shoot at all; the one weapon that can is the
    shot's weapon (a Heavy one then bars moving after it)."""
    from dataclasses import replace

    from solo_ops.core.model import parse_weapon_rule

    game, state = active(enemy_at=(10, 10))
    a1 = state.operatives["a1"]
    ranged = next(w for w in a1.profile.weapons if w.name == "lasgun")
    heavy = tuple(replace(w, rules=(parse_weapon_rule("heavy"),)) if w is ranged else w
                  for w in a1.profile.weapons)
    a1.profile = replace(a1.profile, weapons=heavy)
    step(game, state, {"type": "move", "operative": "a1", "to": [4, 10]})
    refused(game, state, {"type": "shoot", "target": "e1", "damage": 3},
            "no weapon of a1 can make this shot: lasgun is Heavy")
    game, state = active(enemy_at=(10, 10))
    a1 = state.operatives["a1"]
    a1.profile = replace(a1.profile, weapons=tuple(w for w in a1.profile.weapons
                                                   if w.is_melee))
    refused(game, state, {"type": "shoot", "target": "e1", "damage": 3},
            "a1 has no ranged weapon to shoot with")
    game, state = active(enemy_at=(10, 10))
    a1 = state.operatives["a1"]
    a1.profile = replace(a1.profile, weapons=heavy)
    step(game, state, {"type": "shoot", "target": "e1", "damage": 3})
    assert a1.heavy_shot == "lasgun" and state.operatives["e1"].wounds == 5


def test_control_range_does_not_reach_through_a_wall() -> None:
    # a1 and e1 stand 1.2" apart (centres), either side of the wall at x = 15: within 1" as
    # the crow flies, but neither can see the other, so neither is in the other's control range
    game, state = active(enemy_at=(15.6, 10))
    state.operatives["a1"].at = (14.4, 10.0)
    refused(game, state, {"type": "fight", "target": "e1", "dealt": 3, "taken": 0},
            "not within 1\"")
    step(game, state, {"type": "move", "operative": "a1", "to": [14.4, 13.0]})
    assert state.operatives["a1"].at == (14.4, 13.0)


def test_kt2024_no_charge_from_control_range() -> None:
    game, state = active(enemy_at=(4.5, 10))  # 0.52" from a1: in its control range
    refused(game, state, {"type": "move", "how": "charge", "operative": "a1", "target": "e1",
                          "to": [3.5, 11]}, "cannot charge")


def test_charge_is_not_open_with_no_enemy_on_the_table() -> None:
    """The page offers only what the game takes now: with every enemy still a hidden counter
    (none standing on the table) a charge is refused before a point is tapped, with the
    reason the tap gave; once an enemy stands there, it is open again."""
    from solo_ops.game.actions import open_actions

    game, state = active(enemy_at=(27, 11))
    state.operatives["e1"].at = None  # off the table: nobody to charge
    assert open_actions(game, state)["charge"] == "there is no enemy on the table to charge"
    state.operatives["e1"].at = (27.0, 11.0)
    assert open_actions(game, state)["charge"] is None


def test_a_dash_cannot_climb_and_goes_round_when_it_can() -> None:
    """001 Dash: "cannot be used to climb". A 4" deck at x 8-12 (heavy, climbable): a1, at
    its foot, may not Dash onto it (a Reposition may, paying the climb). One rule for both
    sides: the enemy's Dash walks the same board (``Game.moving_terrain``)."""
    board = {**copy.deepcopy(BOARD), "features": [
        {"id": "deck-1", "traits": ["heavy", "accessible", "vantage"], "height": 4,
         "polygon": [[8, 8], [12, 8], [12, 12], [8, 12]]}]}
    game, state = active(enemy_at=(27, 2), board=board)
    state.operatives["a1"].at = (7.4, 10.0)
    refused(game, state, {"type": "move", "how": "dash", "to": [8.6, 10]},
            "a Dash cannot be used to climb \\(001 Dash\\), and there it would be climbing "
            "onto deck-1")
    step(game, state, {"type": "move", "how": "reposition", "to": [8.6, 10]})  # 1.2" + 4"
    assert state.operatives["a1"].at == (8.6, 10.0)
