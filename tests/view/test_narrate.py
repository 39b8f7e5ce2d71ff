"""Narration's exact words (:mod:`solo_ops.view.narrate`) and the one way points and distances
are printed (:mod:`solo_ops.view.measure`)."""

from __future__ import annotations

import pytest
from shapely.geometry import LineString

from solo_ops.view import measure, narrate
from solo_ops.view.narrate import Table, lines_for
from tests.support.events import emitted_event_types


def record(*events: dict) -> dict:
    return {"n": 1, "action": {"type": "engine"}, "events": list(events), "rolls": []}


HATCH = {"hatch-9": LineString([(5, 16), (5, 18)]), "door-1": LineString([(20, 0), (20, 2)])}


def test_an_enemy_move_names_the_model_start_distance_direction_portal_and_end() -> None:
    move = {"type": "moved", "operative": "cultist-3", "how": "reposition",
            "from": [6.2, 15.8], "to": [4.7, 17.3], "route": [[6.2, 15.8], [4.7, 17.3]],
            "cost": 2.12, "note": "..."}
    t = Table(portals=HATCH)
    # 1.5" west and 1.5" north: sqrt(4.5) = 2.12", at 135 degrees: north-west (+y is north)
    assert lines_for(record(move), table=t) == [
        '  → cultist-3: from (6.2, 15.8) 2.1" north-west through hatch-9 to (4.7, 17.3).']
    dash = dict(move, how="dash", route=[[6.2, 15.8], [6.2, 13.8]], to=[6.2, 13.8], cost=2.0)
    assert lines_for(record(dash), table=t) == [
        '  → cultist-3: from (6.2, 15.8) 2.0" south to (6.2, 13.8) (dash).']


def test_an_enemy_charge_and_the_players_own_move() -> None:
    t = Table(names={"kell": "Sgt Kell"})
    charge = {"type": "charged", "operative": "neophyte-4", "target": "kell",
              "from": [10.25, 5.75], "to": [7.25, 9.75],
              "route": [[10.25, 5.75], [10.25, 9.75], [7.25, 9.75]], "note": "..."}
    # 4" north then 3" west: 7.0" in all; overall (-3, +4): 127 degrees, north-west, 5.0"
    # straight (said in brackets: the route is longer; the event gives no words why); the
    # bend at (10.25, 9.75) is shown; 10.25 reads 10.2 (an exact half goes to the even tenth)
    assert lines_for(record(charge), table=t) == [
        '  → neophyte-4: charge from (10.2, 5.8) 7.0" north-west (5.0" straight, 7.0" by the '
        'route) to (7.2, 9.8), via (10.2, 9.8), into control range of Sgt Kell.']
    around = dict(charge, cost=7.0, detour="around wall-3")
    assert lines_for(record(around), table=t) == [
        '  → neophyte-4: charge from (10.2, 5.8) 7.0" north-west (5.0" straight, 7.0" by the '
        'route around wall-3) to (7.2, 9.8), via (10.2, 9.8), into control range of Sgt Kell.']
    own = {"type": "moved", "operative": "kell", "how": "reposition", "from": [1.75, 10.75],
           "to": [5.75, 10.75], "route": [[1.75, 10.75], [5.75, 10.75]], "cost": 4.0}
    assert lines_for(record(own), table=t) == [
        'Sgt Kell repositions from (1.8, 10.8) 4.0" east to (5.8, 10.8).']


def test_centimetres_when_the_players_asked_for_them() -> None:
    t = Table(units="cm")
    move = {"type": "moved", "operative": "c1", "how": "reposition", "from": [0, 0],
            "to": [0, 2], "route": [[0, 0], [0, 2]], "cost": 2.0, "note": "..."}
    # 2" = 5.08 cm
    assert lines_for(record(move), table=t) == [
        "  → c1: from (0.0, 0.0) 5.1 cm north to (0.0, 5.1)."]


def test_on_guard_and_the_planners_explanation_are_printed_as_written() -> None:
    """The planner names enemy models by id itself (tested at the source in
    ``tests/game/test_enemy_models_named_by_id.py``): narration prints its lines as they are,
    even where a profile name appears, and rewrites nothing."""
    t = Table(names={"kell": "Sgt Kell"})
    activation = {
        "type": "enemy_activation", "unit": "u1",
        "explain": ["u1 (Fire teams, command 3): ...",
                    "cultist-1 at (5.0, 5.0): closest enemy is Sgt Kell, 7.0\" around the walls.",
                    "cultist-2's autogun is used up (Limited).",
                    "Cultist gunner-3 goes On Guard (Guard, 1 AP): no enemy in sight and range."],
        "plan": {"unit": "u1", "actions": [{"kind": "guard", "model": "gunner-3"}]}}
    guard = {"type": "on_guard", "operative": "gunner-3", "note": "..."}
    assert lines_for(record(activation, guard), table=t) == [
        "▶ Enemy u1 activates.",
        "  u1 (Fire teams, command 3): ...",
        "  cultist-1 at (5.0, 5.0): closest enemy is Sgt Kell, 7.0\" around the walls.",
        "  cultist-2's autogun is used up (Limited).",
        "  Cultist gunner-3 goes On Guard (Guard, 1 AP): no enemy in sight and range.",
        "  ⚑ gunner-3 is On Guard: it may interrupt one of your operatives' activations after "
        "its first action."]


@pytest.mark.parametrize(("value", "text"), [
    (6.24, "6.2"), (6.26, "6.3"), (10.25, "10.2"), (10.75, "10.8"), (-0.04, "0.0"), (0, "0.0")])
def test_one_rounding_rule(value: float, text: str) -> None:
    assert measure.tenth(value) == text


@pytest.mark.parametrize(("b", "word"), [
    ((1, 0), "east"), ((1, 1), "north-east"), ((0, 1), "north"), ((-1, 1), "north-west"),
    ((-1, 0), "west"), ((-1, -1), "south-west"), ((0, -1), "south"), ((1, -1), "south-east"),
    ((0.01, 0.01), "")])
def test_compass_words_with_north_up(b: tuple[float, float], word: str) -> None:
    assert measure.compass((0, 0), b) == word


def test_points_and_lengths_in_either_unit() -> None:
    assert measure.point((2.0, 10.0)) == "(2.0, 10.0)"
    assert measure.point((2.0, 10.0), "cm") == "(5.1, 25.4)"
    assert measure.point(None) == "off the table"
    assert measure.length(2.54, "cm") == "6.5 cm"
    assert measure.length(3.0) == '3.0"'
    assert measure.length(None) == "no route"
    assert measure.to_inches(25.4, "cm") == pytest.approx(10.0)




def test_every_event_type_has_words_or_is_deliberately_silent() -> None:
    types = emitted_event_types()
    assert {"moved", "charge_failed", "on_guard", "enemy_activation"} <= types  # the scan works
    missing = types - set(narrate.WORDS) - narrate.SILENT
    assert not missing, f"event types with no words and not marked silent: {sorted(missing)}"
    assert not set(narrate.WORDS) & narrate.SILENT


def test_the_engines_why_is_printed_with_the_id_it_carries() -> None:
    t = Table(names={"kell": "Sgt Kell"})
    attack = {"type": "fight", "attacker": "neophyte-2", "target": "kell", "damage": 4,
              "damage_taken": 0, "lines": ["neophyte-2: Attack dice (4+, crit 6+): 6 1."]}
    damage = {"type": "damage", "operative": "kell", "amount": 4, "wounds": 4,
              "why": "fought by neophyte-2"}
    assert lines_for(record(attack, damage), table=t) == [
        "  ✸ neophyte-2 fights Sgt Kell: deals 4, takes 0.",
        "    neophyte-2: Attack dice (4+, crit 6+): 6 1.",
        "  Sgt Kell loses 4 wound(s) (4 left) — fought by neophyte-2."]


def test_a_detour_that_rounds_to_the_straight_line_is_not_bracketed() -> None:
    """From (25.1, 14.4) to (23.1, 8.9): 5.85" straight, 5.93" by the route round a base --
    0.08" longer, but both read 5.9": the line gives the one distance, without "(5.9"
    straight, 5.9" by the route ...)" (issue #11's brackets are for a way that reads longer)."""
    move = {"type": "moved", "operative": "cultist-7", "how": "normal",
            "from": [25.1, 14.4], "to": [23.1, 8.9],
            "route": [[25.1, 14.4], [24.3, 10.8], [23.1, 8.9]], "cost": 5.93,
            "detour": "around berserker-3's base", "note": "..."}
    assert lines_for(record(move), table=Table(edition="kt2018")) == [
        '  → cultist-7: from (25.1, 14.4) 5.9" south to (23.1, 8.9), via (24.3, 10.8).']


def test_a_tied_initiative_roll_says_why_one_side_has_it() -> None:
    """After the first turn a tied roll-off is not rolled again: the initiative alternates
    (001 "Determine Initiative: From the second TP onwards, players roll for initiative. On a
    tie, alternate from the previous TP."); the line says so instead of "you rolled 4,
    solo-ops 4" alone."""
    tie = {"type": "initiative", "side": "enemy", "player_roll": 4, "enemy_roll": 4}
    assert lines_for(record(tie), edition="kt2018") == [
        "Initiative: solo-ops (you rolled 4, solo-ops 4: a tie, so it passes to the other "
        "side)."]
    won = dict(tie, side="player", enemy_roll=2)
    assert lines_for(record(won)) == ["Initiative: you (you rolled 4, solo-ops 2)."]
