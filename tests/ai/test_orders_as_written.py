"""Issue #29: the enemy follows every order of the supplement (003) in both editions, and
reacts as a real opponent would. Each test quotes the source line it holds the engine to and
plays the issue's reproduction through ``solo-ops ai plan`` or ``solo-ops play``.

Boards are 30" x 22" and open unless a test adds terrain; bases are 25.4 mm (radius 0.5"), so
a centre distance D is an edge distance of D - 1" and open-ground routes are straight lines.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from solo_ops.cli import main
from solo_ops.io.roster import parse_roster
from tests.support.paths import SCENARIOS
from tests.support.players import cli_here
from tests.support.scenario_files import (
    BRUTE,
    GUNNER,
    STUBBER,
    TROOPER,
    ai_plan,
    kinds,
    prof,
    scenario,
    text,
)


# -- item 1 ----------------------------------------------------------------------------------
def test_2018_fire_at_will_holds_its_ground_to_shoot(tmp_path: Path) -> None:
    """003 "Fire at Will: Unit will fire at the closest enemy that is within range. Firing will
    take priority over movement and charging." 004: a model that charged cannot shoot later in
    the battle round. A 2018 Fire Teams unit on command 1 (remain stationary, fire at will,
    charge within 6") 5" from a trooper: no charge in the movement phase, the shot in the
    shooting phase; under 2024 it shoots first, then charges."""
    setup = ([("u1", 1, [("e1", TROOPER, (5, 11))])], [("kell", TROOPER, (11, 11))])
    path = scenario(tmp_path, *setup, edition="kt2018")
    moving = ai_plan(path, phase="movement")
    assert moving["charge"] == [] and moving["actions"] == []
    assert "e1's sequence: stay put, then Shoot in the shooting phase." in text(moving)
    assert ("Rejected: Charge: its order ranks stay put to shoot above it (fire at will: "
            "firing takes priority over moving and charging (004: a model that charged cannot "
            "shoot later in the battle round)).") in text(moving)
    shooting = ai_plan(path, phase="shooting")
    assert shooting["shoot"] == [{"model": "e1", "target": "kell", "weapon": "gun",
                                  "expected_damage": shooting["shoot"][0]["expected_damage"]}]
    now = ai_plan(scenario(tmp_path, *setup, name="k24.yaml"))
    assert kinds(now) == ["shoot", "charge"]


def test_2018_a_charge_out_of_its_orders_reach_is_rejected_for_that(tmp_path: Path) -> None:
    """The same unit 8" from the trooper: its charge order (within 6") would not charge
    anyway, so the charge is rejected for that, not for a rank that never came into it (a
    play-tester read "its order ranks stay put to shoot above it" as the reason)."""
    setup = ([("u1", 1, [("e1", TROOPER, (5, 11))])], [("kell", TROOPER, (14, 11))])
    moving = ai_plan(scenario(tmp_path, *setup, edition="kt2018"), phase="movement")
    assert "e1's sequence: stay put, then Shoot in the shooting phase." in text(moving)
    rejected = [line for line in text(moving).splitlines() if line.startswith("Rejected")]
    assert len(rejected) == 1 and rejected[0].startswith("Rejected: Charge: ")
    assert rejected[0].endswith("away: its order charges only within 6.0\".")
    assert "ranks" not in rejected[0]


def test_2018_fire_at_will_that_moves_says_why_it_did_not_stay(tmp_path: Path) -> None:
    """A 2018 Fire Teams unit on command 6 (a move order, fire at will) 8" from a trooper
    moves, then shoots in the shooting phase; staying put to shoot is rejected in words that
    agree with "Fire at will": it shoots either way, so it moves first. Before, the reason was
    "fire at will: firing takes priority over moving", beside a plan that moved (a tester's
    "contradictory" explanation)."""
    setup = ([("u1", 6, [("e1", TROOPER, (5, 11))])], [("kell", TROOPER, (13, 11))])
    moving = ai_plan(scenario(tmp_path, *setup, edition="kt2018"), phase="movement")
    assert ("Rejected: stay put to shoot: its order ranks move, then Shoot above it (it shoots "
            "in the shooting phase either way, so it makes its order's move first).") in text(
        moving)
    assert "firing takes priority over moving" not in text(moving)


# -- item 2 ----------------------------------------------------------------------------------
def test_a_join_that_rolls_ambush_resolves_where_the_counter_stands(tmp_path: Path) -> None:
    """003 hidden-enemy row 3: "If joins with higher command unit, take on command"; the
    enemy count's Ambush moves the counters "6' away from the player unit that spotted the
    hidden enemy force". Nobody spotted a joining counter: its models (here an Ambush: seed 9
    rolls it) appear where it stands, beside the unit they join, not beside Ana's sealed-in
    model."""
    from tests.support.fog_boards import BOXED, IN_ROOM, ROSTER, SGT

    doc = {"name": "join", "edition": "kt2024", "board": BOXED, "roster": ROSTER,
           "engagement": 0, "seed": 9, "settings": {"turns": 2},
           "squads": [{"player": "Ana", "models": [{"id": "p1", "profile": SGT,
                                                    "at": list(IN_ROOM)}]}],
           "enemies": [{"id": "boss", "command": 5,
                        "models": [{"id": "boss-1", "profile": "brute", "at": [5, 10]}]}],
           "counters": [{"id": "c1", "at": [10, 10], "hidden_order": 3}]}
    path = tmp_path / "join.yaml"
    path.write_text(yaml.safe_dump(doc), encoding="utf-8")
    run = cli_here("play", str(path), "--save", "s.json", *["--answer", "p1 conceal",
              "--answer", "done"] * 2, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    save = json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))
    log = [json.loads(line) for line in (tmp_path / "s.log.jsonl").read_text().splitlines()]
    events = [e for record in log for e in record.get("events", [])]
    assert [e for e in events if e["type"] == "ambush"] == [
        {"type": "ambush", "counter": "c1", "second": "c2", "spotter": None}]
    boss = next(u for u in save["snapshot"]["units"] if u["id"] == "boss")
    assert len(boss["models"]) > 2  # both counters' models joined the boss's unit
    at = {o["id"]: o["at"] for o in save["snapshot"]["operatives"]}
    for model in boss["models"]:
        assert math.dist(at[model], at["boss-1"]) < 6.0, (model, at[model])
    assert not any(e["type"] == "counter_moved" and e.get("ambush") for e in events)


# -- item 3 ----------------------------------------------------------------------------------
def test_charge_yes_dashes_then_charges(tmp_path: Path) -> None:
    """003 "Charge: Unit will seek to charge the closest enemy ... Moving and/or charging will
    take priority over firing." A brute (M 6") 10.2" from a trooper: a Charge reaches 9"; a
    Dash of 3" then a Charge (8") reaches it (001: a Dash may come before a Charge, a
    Reposition may not). The plan says what it chose and what it rejected."""
    path = scenario(tmp_path, [("u1", 3, [("e1", BRUTE, (5, 11))])],
                    [("kell", TROOPER, (16.2, 11))])
    plan = ai_plan(path)
    assert kinds(plan) == ["dash", "charge"]
    dash, charge = plan["actions"]
    assert dash["to"] == [8.0, 11.0] and charge["target"] == "kell"
    assert math.dist(charge["to"], [16.2, 11]) - 1.0 <= 1.0  # in control range
    words = text(plan)
    # the charge ends on the 0.5" grid of end points, the first within 0.95" of kell: 14.5
    assert 'e1\'s sequence: Dash 3.0", then Charge 6.5" at kell.' in words
    assert 'Rejected: Charge: kell is 10.2" away: a Charge of 8.0" reaches 9.0".' in words
    assert ('Rejected: Reposition by its order, then Shoot: it would end 4.2" from kell, and '
            "no Charge may follow a Reposition (sequence rule "
            "'charge-after-reposition-or-fall-back').") in words


# -- item 4 ----------------------------------------------------------------------------------
COVER_CRATE = {"id": "crate", "traits": ["light"],
               "polygon": [[8.8, 9], [9.3, 9], [9.3, 13], [8.8, 13]]}


def test_a_heavy_dash_only_gunner_dashes_into_cover_and_fires(tmp_path: Path) -> None:
    """003 "Unhindered Move/charge: Unit will fire at the closest enemy within range if also
    allowing its self to complete the other action unhindered." 001 "Heavy (Dash only)". A
    Support gunner (command 2: to cover, unhindered move) 2.5" from cover: a Dash makes the
    same move as a Reposition and keeps its Heavy (Dash only) shot."""
    path = scenario(tmp_path, [("u1", 2, [("e1", GUNNER, (5.3, 11))])],
                    [("kell", TROOPER, (20, 11))], features=(COVER_CRATE,))
    plan = ai_plan(path)
    assert kinds(plan) == ["dash", "shoot"]
    assert plan["actions"][0]["to"] == [7.8, 11.0]
    assert "A Dash, not a Reposition: the same move" in text(plan)


def test_after_a_heavy_dash_only_shot_it_dashes_by_its_order(tmp_path: Path) -> None:
    """001 Heavy: "If the rule is Heavy (x), only (x) is allowed (e.g. Heavy (Dash only))."
    A Support gunner (command 4: to firing range, fire at will) with a Range 18" stubber:
    16.4" away it fires first, then Dashes 1.6" back to 18"; 19.6" away it Dashes 1.6" in and
    fires (a Reposition would forbid the shot)."""
    ranged = prof({**STUBBER, "rules": ["heavy=dash", "range=18"]})
    near = ai_plan(scenario(tmp_path, [("u1", 4, [("e1", ranged, (5, 11))])],
                            [("kell", TROOPER, (22.4, 11))]))
    assert kinds(near) == ["shoot", "dash"]
    assert near["actions"][1]["to"] == [3.4, 11.0]
    far = ai_plan(scenario(tmp_path, [("u1", 4, [("e1", ranged, (5, 11))])],
                           [("kell", TROOPER, (25.6, 11))], name="far.yaml"))
    assert kinds(far) == ["dash", "shoot"]
    assert far["actions"][0]["to"] == [6.6, 11.0]


# -- item 5 ----------------------------------------------------------------------------------
def test_2024_weapons_reach_any_visible_target_unless_range_x(tmp_path: Path) -> None:
    """001 "Range x - Only Operatives within x of the shooter can be valid targets": a 2024
    ranged weapon without it reaches any visible target. The shipped rosters keep a range only
    on the weapons whose card has Range x; a Fire Teams unit shoots a trooper 25" away."""
    shipped = SCENARIOS
    for path in [*shipped.glob("rosters/*.yaml")]:
        roster = parse_roster(yaml.safe_load(path.read_text()), str(path))
        for profile in roster.profiles.values():
            for w in profile.for_edition("kt2024").ranged_weapons:
                assert w.effective_range is None or w.type.value == "pistol" or \
                    w.name == "burna", (path.name, w.name)
                assert profile.for_edition("kt2018").weapons  # 2018 keeps its ranges
            for w in profile.for_edition("kt2018").ranged_weapons:
                assert w.effective_range is not None, (path.name, w.name)
    rifle = prof({"name": "rifle", "type": "rapid", "attacks": 4, "hit": 4, "damage": [3, 4]})
    plan = ai_plan(scenario(tmp_path, [("u1", 1, [("e1", rifle, (2, 11))])],
                            [("kell", TROOPER, (28, 11))]))
    assert plan["shoot"][0]["target"] == "kell"
    bad = scenario(tmp_path, [("u1", 1, [("e1", rifle, (2, 11))])],
                   [("kell", TROOPER, (28, 11))], edition="kt2018", name="bad.yaml")
    result = CliRunner().invoke(main, ["ai", "plan", str(bad), "--unit", "u1"])
    assert result.exit_code != 0
    assert "enemies[0].models[0].weapons[0]: 'rifle' has no range: a Kill Team 2018" in \
        result.output
    assert "Traceback" not in result.output


# -- items 6, 7 ------------------------------------------------------------------------------
def test_to_cover_takes_the_nearest_cover(tmp_path: Path) -> None:
    """003 "To Cover: Unit will move to the nearest cover and then remain stationary." A light
    crate gives cover 3.0" away; a heavy block gives cover and obscuring 3.4" away: the
    nearest comes first (obscured only breaks a tie)."""
    crate = {"id": "crate", "traits": ["light"],
             "polygon": [[9.2, 10], [9.6, 10], [9.6, 12], [9.2, 12]]}
    block = {"id": "block", "traits": ["heavy"],
             "polygon": [[9.5, 12.5], [12.5, 12.5], [12.5, 15.5], [9.5, 15.5]]}
    plan = ai_plan(scenario(tmp_path, [("u1", 2, [("e1", TROOPER, (5, 11))])],
                            [("kell", TROOPER, (25, 11))], features=(crate, block)))
    move = plan["actions"][0]
    assert (move["kind"], move["to"]) == ("reposition", [8.0, 11.0])
    assert 'repositions 3.0" to the nearest cover from kell' in text(plan)
    board = tmp_path / "board.yaml"
    board.write_text(yaml.safe_dump(yaml.safe_load((tmp_path / "s.yaml").read_text())["board"]))

    def cover(x: float, y: float) -> dict[str, bool]:
        got = CliRunner().invoke(main, ["geom", "cover", str(board), "--json", "--attacker",
                                        "25,11", "--target", f"{x},{y}", "--base-mm", "25.4"])
        assert got.exit_code == 0, got.output
        data = json.loads(got.stdout)
        return {k: data[k] for k in ("visible", "in_cover", "obscured")}

    assert cover(8, 11) == {"visible": True, "in_cover": True, "obscured": False}
    # the spot the old reading took, 3.4" away: in cover and obscured, but farther
    assert cover(8, 12.5) == {"visible": True, "in_cover": True, "obscured": True}


def test_hold_12_with_cover_ignore_goes_straight(tmp_path: Path) -> None:
    """003 "A unit that ignores cover will travel in a straight line towards the enemy." A
    Fire Teams unit (command 4: hold 12", cover ignore) 12.25" from a trooper moves 0.25"
    straight at it, not 4.6" around the arc of points 12" away."""
    plan = ai_plan(scenario(tmp_path, [("u1", 4, [("e1", TROOPER, (5, 11.2))])],
                            [("kell", TROOPER, (18.25, 11))]))
    move = plan["actions"][0]
    assert move["kind"] == "reposition"
    assert math.dist(move["from"], move["to"]) == pytest.approx(0.25, abs=0.02)
    assert 'straight towards kell' in text(plan)


# -- item 8 ----------------------------------------------------------------------------------
def test_a_charged_2018_enemy_fires_overwatch(tmp_path: Path) -> None:
    """004 "A model can React if it is the target of a charging model and it is more than 1"
    from an enemy model. A model can either fire Overwatch or Retreat"; 003: the enemy works
    "as per a normal game". Kell charges e1 (6" away): e1 fires Overwatch first (a 6 to hit),
    then the charge is rolled ("After all Reactions have been resolved, make a charge roll")."""
    path = scenario(tmp_path, [("u1", 6, [("e1", TROOPER, (10, 10))])],
                    [("kell", TROOPER, (3, 10))], edition="kt2018",
                    settings={"turns": 1})
    run = cli_here("play", str(path), "--save", "s.json", "--answer", "kell",
              "--answer", "charge e1 8.9,10", "--answer", "quit", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "e1 reacts to the charge: Overwatch at kell with gun (hits on 6s)." in out
    assert out.index("Overwatch at kell") < out.index("kell's charge roll")  # then rolled
    log = [json.loads(line) for line in (tmp_path / "s.log.jsonl").read_text().splitlines()]
    rolls = [r["purpose"] for record in log for r in record.get("rolls", [])]
    assert any("e1" in p and "kell" in p for p in rolls)  # the Overwatch was rolled


# -- item 9 ----------------------------------------------------------------------------------
def test_small_ones(tmp_path: Path) -> None:
    """003 prints "Hold 12' from enemy", "Towards closet enemy", "re,rolling": players read
    'Hold 12" from enemy'; `tables show --source` keeps the print. `fog seed --engagement 0`
    is refused (1-6)."""
    runner = CliRunner()
    shown = runner.invoke(main, ["tables", "show", "melee", "--json"])
    rows = json.loads(shown.stdout)["rows"]
    assert rows["5"]["text"]["move"] == "Towards closest enemy"
    assert rows["5"]["source"]["move"] == "Towards closet enemy"
    assert rows["1"]["text"]["charge"] == 'Within 6"'
    printed = runner.invoke(main, ["tables", "show", "enemy-count", "--source"])
    assert "re,rolling" in printed.stdout
    assert "re,rolling" not in runner.invoke(main, ["tables", "show", "enemy-count"]).stdout
    plan = ai_plan(scenario(tmp_path, [("u1", 4, [("e1", TROOPER, (5, 11))])],
                            [("kell", TROOPER, (25, 11))]))
    assert plan["explain"][0].startswith('u1 (Fire Teams, command 4): Move: Hold 12" from')
    refused = runner.invoke(main, ["fog", "seed", str(tmp_path / "s.yaml"), "--engagement",
                                   "0"])
    assert refused.exit_code == 2 and "0 is not in the range 1<=x<=6" in refused.output


def test_ambush_spots_are_hidden_or_in_cover_not_only_obscured() -> None:
    """003 Ambush: "next to a hidden position if possible, such as a building or trench"; the
    reading (docs/rules.md) is hidden from the spotter or in cover from it: a spot only
    obscured (behind a heavy block more than 1" away) is not taken while a covered one exists
    (a light crate 6" north of the spotter). Thirty seeded draws, every spot checked."""
    from solo_ops.core.dice import SeededDice
    from solo_ops.game import ambush, fog
    from tests.support.fog_boards import OPEN, make

    block = {"id": "block", "traits": ["heavy"], "polygon": [[7, 8], [9, 8], [9, 14], [7, 14]]}
    crate = {"id": "crate", "traits": ["light"],
             "polygon": [[5, 17.0], [7, 17.0], [7, 17.4], [5, 17.4]]}
    game, state = make({**OPEN, "features": [block, crate]}, [(5.0, 11.0)])
    terrain, spotter = game.terrain(state), state.operatives["p1"]
    obscured_only = 0
    for seed in range(30):
        for spot in ambush.ambush_spots(terrain, state, spotter, game.settings, ["x", "y"],
                                     SeededDice(seed=seed)):
            c = terrain.sight.cover(spotter.at, spot, spotter.radius, fog.COUNTER_RADIUS)
            assert not c.visible or c.in_cover, spot
            obscured_only += c.obscured and not c.in_cover
    assert obscured_only == 0
    # the board has obscured-only spots in the 6" band: the old reading drew 50 of 60 there
    assert terrain.sight.cover(spotter.at, (12.2, 11.0), spotter.radius,
                               fog.COUNTER_RADIUS).obscured
