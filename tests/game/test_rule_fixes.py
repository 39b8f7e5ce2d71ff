"""Rule fixes the rules audit found: each with the source line it follows.

Seeds: ``003`` the solo supplement, ``001``/``002`` the Kill Team 2024 card, ``004`` Kill Team
2018. Every reading is listed in ``docs/rules.md`` under the rule it reads (ids under "Playing a
mission", the main weapon under "Orders and units", To Cover under "Carrying out the orders",
the fog's rows under "Fog of war", Guard under "Guard").
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from shapely.geometry import Point, Polygon

from solo_ops.core.dice import ScriptedDice, SeededDice
from solo_ops.core.settings import parse_settings
from solo_ops.core.tables import TroopType
from solo_ops.game import fog
from solo_ops.game.engine import new_game, pending, step
from solo_ops.game.state import Counter
from solo_ops.geometry.board import parse_board
from solo_ops.io.roster import load_roster
from solo_ops.io.scenario import parse_scenario
from solo_ops.rules.orders import form_units, main_weapon, troop_type
from tests.support.fog_boards import OPEN, SPLIT, R, make
from tests.support.order_boards import GRUNT, plan, setup
from tests.support.paths import ROSTERS

MILITARUM = load_roster(ROSTERS / "militarum-platoon.yaml")


def _militarum(*keys: str) -> list:
    return [MILITARUM.profiles[k].for_edition("kt2024") for k in keys]


# -- item 2: the troop type counts each model's main weapon ---------------------------------------
def test_a_guardsman_squad_with_a_heavy_bolter_is_a_fire_team() -> None:
    """003: "Troop types are decided by the most common type of weapons a unit carries."
    Two guardsmen (lasgun, bayonet) and a heavy bolter gunner (heavy bolter, fists): main
    weapons are 2 rapid + 1 heavy, so Fire Teams; counting every weapon (the older reading) it
    was 3 melee, 2 rapid, 1 heavy: Melee, and the gunner charged."""
    squad = _militarum("guardsman", "guardsman", "heavy-bolter")
    assert troop_type(squad) is TroopType.FIRE_TEAMS
    assert troop_type(squad, "every_weapon") is TroopType.MELEE
    units = form_units([("g1", squad[0]), ("g2", squad[1]), ("hb", squad[2])], 3)
    assert [(u.models, u.troop) for u in units] == [(("g1", "g2", "hb"), TroopType.FIRE_TEAMS)]


def test_main_weapon_is_the_best_ranged_one_else_melee() -> None:
    """003 (troop types): a sergeant with a laspistol and a chainsword fights in melee (a pistol
    is never a main weapon when the model has another); the gunner's main weapon is its heavy
    bolter, not its fists."""
    guard, gunner, sergeant = _militarum("guardsman", "heavy-bolter", "sergeant")
    assert main_weapon(guard).name == "lasgun"
    assert main_weapon(gunner).name == "heavy bolter"
    assert main_weapon(sergeant).name == "chainsword"
    assert troop_type([sergeant]) is TroopType.MELEE


def test_troop_count_is_a_named_setting() -> None:
    """The older reading stays available as ``settings: {troop_count: every_weapon}``."""
    assert parse_settings(None, "s.yaml").troop_count == "main_weapon"
    assert parse_settings({"troop_count": "every_weapon"}, "s.yaml").troop_count == \
        "every_weapon"


# -- item 3: "then remain stationary", the ambush without a spotter, sectors, false alarms --------
CRATE = {"id": "crate", "traits": ["heavy"], "polygon": [[14, 10], [15, 10], [15, 11], [14, 11]]}


def test_a_to_cover_unit_that_reached_cover_stays_put() -> None:
    """003: "To Cover: Unit will move to the nearest cover and then remain stationary." e1
    (Fire Teams command 2: To Cover) already reached cover (state ``in_cover``); p1 has since
    moved so that e1 is no longer in cover from it: e1 does not move again."""
    game, state = setup([("u1", 2, [("e1", GRUNT, (17.0, 10.5))])], [("p1", GRUNT, (3, 10.5))],
                        features=(CRATE,))
    assert [a.to for a in plan(game, state, "u1").moves()] == [(16.0, 10.5)]  # idle: it moves
    state.units["u1"].fsm = "in_cover"
    p = plan(game, state, "u1")
    assert p.moves() == []
    assert ("e1 stays where it is: the unit reached cover and then remains stationary "
            "(To Cover).") in p.explain


def test_an_ambush_without_a_spotting_model_still_goes_6_inches_from_a_player_model() -> None:
    """003, enemy count 6: "Ambush! Take a second counter and move it and the original counter
    to 6' away from the player unit that spotted the hidden enemy force". Resolved with no
    spotting model (a first-turn resolution, a row-3 join), both counters still go 6" from a
    player model: the one nearest the counter (p2 here, not p1)."""
    game, state = make(OPEN, [(5.0, 10.0), (25.0, 10.0)])
    counter = Counter("c1", (32.0, 10.0), 3, 6)
    state.counters["c1"] = counter
    state.counter_seq = 1
    # ambush; the two positions; c1: 3 -> 2 enemies (grunts), order 2; c2: 2 -> 1 grunt, order 3
    state.dice = ScriptedDice(faces=[6, 1, 1, 3, 1, 1, 2, 2, 1, 3])
    res = fog.resolve_counter(game.terrain(state), state, counter, None, game.scenario.roster,
                              state.dice, game.settings, edition="kt2024")
    assert [r.outcome for r in res] == ["ambush", "ambush"]
    terrain = game.terrain(state)
    for cid in ("c1", "c2"):
        d = terrain.routes.distance((25.0, 10.0), state.counters[cid].at, R, R).distance
        assert 5.5 <= d <= 6.5


def test_sectors_are_thirds_along_the_long_edge_whatever_the_orientation() -> None:
    """003: "the game table is divided into six sectors, with imaginary lines by dividing it
    into thirds along a long table edge, and then in half along a short table edge"."""
    wide = parse_board({"name": "wide", "width": 30, "depth": 22}, "b.yaml")
    tall = parse_board({"name": "tall", "width": 22, "depth": 30}, "b.yaml")
    assert [wide.sector_of(x, 5) for x in (5, 15, 25)] == [1, 2, 3]
    assert [wide.sector_of(x, 15) for x in (5, 15, 25)] == [4, 5, 6]
    assert [tall.sector_of(5, y) for y in (5, 15, 25)] == [1, 2, 3]
    assert [tall.sector_of(15, y) for y in (5, 15, 25)] == [4, 5, 6]
    assert tall.sector_box(2).bounds == (0.0, 10.0, 11.0, 20.0)
    assert tall.sector_centre(6) == (16.5, 25.0)


def test_a_false_alarm_goes_out_of_sight_in_its_new_sector() -> None:
    """003, enemy count 1: "False Alarm. Move counter to random table sector and roll for new
    hidden enemy order." -- placed like a seeded counter, out of sight when a point of the new
    sector is: sector 3 of the split board is behind the wall, and the counter lands there out of
    p1's sight."""
    game, state = make(SPLIT, [(2.0, 2.0)])
    counter = Counter("c1", (6.0, 9.0), 4, 4)
    state.counters["c1"] = counter
    state.dice = ScriptedDice(faces=[1, 3, 1, 5])  # false alarm, sector 3, first point, order 5
    (res,) = fog.resolve_counter(game.terrain(state), state, counter, None,
                                 game.scenario.roster, state.dice, game.settings,
                                 edition="kt2024")
    assert res.outcome == "false_alarm"
    assert counter.sector == 3 and counter.hidden_order == 5
    assert not counter.resolve_first_turn
    assert fog.spotted_by(game.terrain(state), state, counter) is None


# -- item 4: "To cover" ends in cover --------------------------------------------------------------
def test_to_cover_ends_in_cover_not_merely_obscured() -> None:
    """003: "To Cover: Unit will move to the nearest cover". e1 stands 1.5" from a heavy crate:
    obscured from p1 but not in cover (no terrain within 1" on the cover lines). It moves 1" to
    a spot both in cover and obscured, and the explanation says exactly that."""
    game, state = setup([("u1", 2, [("e1", GRUNT, (17.0, 10.5))])], [("p1", GRUNT, (3, 10.5))],
                        features=(CRATE,))
    sight = game.terrain(state).sight
    start = sight.cover((3, 10.5), (17.0, 10.5), 0.5, 0.5)
    assert (start.visible, start.in_cover, start.obscured) == (True, False, True)
    p = plan(game, state, "u1")
    (move,) = p.moves()
    assert move.to == (16.0, 10.5) and move.cost == pytest.approx(1.0)
    end = sight.cover((3, 10.5), move.to, 0.5, 0.5)
    assert (end.visible, end.in_cover, end.obscured) == (True, True, True)
    assert ("e1 repositions 1.0\" to the nearest cover from p1, to (16.0, 10.5). It is in cover "
            "from p1 and obscured there.") in p.explain


# -- item 5: counters are never placed inside terrain ----------------------------------------------
def test_a_counter_is_never_placed_inside_a_terrain_feature() -> None:
    """003: "These counters are to be placed so that the player can not draw a line of sight to
    them" -- on the table, not inside a feature: a 1" x 1" light crate (which does not block
    movement) sits on the centre of an open sector; neither a hidden point nor the sector-centre
    fallback lands on it."""
    crate = {"id": "lc", "traits": ["light"], "polygon": [[4.5, 5.5], [5.5, 5.5], [5.5, 6.5],
                                                         [4.5, 6.5]]}
    board = {"name": "crate", "width": 30, "depth": 20, "features": [crate]}
    game, state = make(board, [(15.0, 2.0)])
    terrain = game.terrain(state)
    assert terrain.board.sector_centre(1) == (5.0, 5.0)  # the crate's centre is (5, 6)
    place = fog.place_in_sector(terrain, 1, fog.player_observers(state), ScriptedDice([]),
                                game.settings, "c1")
    assert place.resolve_first_turn  # the whole open sector is in p1's sight
    poly = Polygon(crate["polygon"])
    assert poly.distance(Point(place.at)) >= R - 1e-9
    pts = np.array([(x + 0.5, y + 0.5) for x in range(10) for y in range(10)], dtype=float)
    kept = fog.off_features(terrain, pts, R)
    assert all(poly.distance(Point(p)) >= R - 1e-9 for p in kept)
    # the grid points on the crate's corners (4.5|5.5, 5.5|6.5) are dropped; the next ones are
    # 1" from its edges, more than a counter's radius (0.63")
    assert len(kept) == 100 - 4


# -- item 6: Guard is a Gallowdark action ----------------------------------------------------------
@pytest.mark.parametrize(("killzone", "guards"), [("gallowdark", True), ("volkus", False),
                                                  (None, False)])
def test_guard_is_a_gallowdark_killzone_action_only(killzone: str | None, guards: bool) -> None:
    """002: "Killzone: Gallowdark has the following additional rules: ... ACTIONS: ... Guard
    1AP: Treated as a Shoot action." The same enemy with no target in sight and range goes On
    Guard on a Gallowdark board, and not on Volkus or an open board."""
    import copy

    import tests.support.guard_board as tg

    board = copy.deepcopy(tg.BOARD)
    board.pop("killzone", None)
    if killzone:
        board["killzone"] = killzone
    old = tg.BOARD
    tg.BOARD = board
    try:
        game, state = tg.start([1, 6])
    finally:
        tg.BOARD = old
    tg.enemy_goes_first(game, state)
    assert state.operatives["e1"].on_guard is guards


# -- extra 9: an operative incapacitated in its own activation does nothing more -------------------
def _duel(faces: list[int]) -> tuple[Any, Any]:
    import copy

    import tests.support.guard_board as tg

    doc = {"name": "duel", "edition": "kt2024",
           "board": {"name": "open", "width": 30, "depth": 22, "killzone": "gallowdark"},
           "roster": {"name": "r", "profiles": {"gunner": copy.deepcopy(tg.GUNNER)},
                      "table": {i: "gunner" for i in range(1, 7)}},
           "engagement": 1, "seed": 1,
           "squads": [{"player": "Ana", "models": [
               {"id": "a1", "name": "Sgt Kell", "profile": copy.deepcopy(tg.GUNNER),
                "at": [10, 10]},
               {"id": "a2", "profile": copy.deepcopy(tg.GUNNER), "at": [3, 3]}]}],
           "enemies": [{"id": "u1", "command": 1, "models": [
               {"id": "e1", "profile": copy.deepcopy(tg.GUNNER), "at": [11.2, 10]}]}]}
    game, state = new_game(parse_scenario(doc, "duel.yaml"), 1)
    state.counters.clear()
    state.dice = ScriptedDice(faces=faces)
    return game, state


def test_an_operative_killed_in_its_own_fight_ends_its_activation() -> None:
    """001: "Pick Order and do valid actions up to APL." -- an incapacitated operative has no
    valid action left. Sgt Kell fights e1 and is struck back for more than its wounds: its
    activation ends there, and the game does not ask "what did Sgt Kell do?"."""
    game, state = _duel([6, 1])  # initiative: the players 6, solo-ops 1
    step(game, state, {"type": "engine"})
    assert pending(game, state).kind == "activate"
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    assert pending(game, state).text == "Ana: what did Sgt Kell do?"
    record = step(game, state, {"type": "fight", "target": "e1", "dealt": 0, "taken": 99})
    assert state.operatives["a1"].down
    assert state.active_operative is None
    assert any(e == {"type": "activation_end", "operative": "a1"} for e in record["events"])
    prompt = pending(game, state)
    assert "Sgt Kell" not in prompt.text


# -- item 7: turning points and command points (card 001) -----------------------------------------
def test_turning_point_one_command_points_as_the_card_gives_them() -> None:
    """001: "Players gain 2CP each." (selecting operatives) and "Each TP player get 1 CP. The
    player without initiative gets 1 extra CP (2 total)." -- so after TP1's strategy phase the
    side with initiative has 3 CP and the other 4."""
    game, state = _duel([6, 1])  # initiative: the players
    record = step(game, state, {"type": "engine"})
    assert state.cp == {"player": 3, "enemy": 4}
    assert {"type": "command_points", "cp": {"player": 3, "enemy": 4}} in record["events"]


def test_the_battle_lasts_four_turning_points_even_when_the_players_are_wiped_out() -> None:
    """001, "7. BATTLE END": "After 4 TPs, even if a Team is incapacitated." Both player
    operatives go down in TP1; the battle still runs to the end of TP4 and the enemy keeps its
    turning points (the engine needs no player answer)."""
    game, state = _duel([6, 1])
    state.dice = SeededDice(seed=3)
    step(game, state, {"type": "engine"})
    step(game, state, {"type": "down", "operative": "a1"})
    step(game, state, {"type": "down", "operative": "a2"})
    for _ in range(200):
        prompt = pending(game, state)
        if prompt.kind == "ended":
            break
        assert prompt.kind == "engine"
        step(game, state, {"type": "engine"})
    assert state.ended and state.turn == 4
    ends = [e for r in state.log for e in r["events"] if e["type"] == "turn_end"]
    assert [e["turn"] for e in ends] == [1, 2, 3, 4]


# -- extra 8: texts name enemy models by id at the source ------------------------------------------
def _gunners(kell_at: list[float]) -> tuple[Any, Any]:
    import copy

    import tests.support.guard_board as tg

    doc = {"name": "ids", "edition": "kt2024",
           "board": {"name": "open", "width": 30, "depth": 22},
           "roster": {"name": "r", "profiles": {"gunner": copy.deepcopy(tg.GUNNER)},
                      "table": {i: "gunner" for i in range(1, 7)}},
           "engagement": 1, "seed": 1,
           "squads": [{"player": "Ana", "models": [
               {"id": "kell", "name": "Sgt Kell", "profile": copy.deepcopy(tg.GUNNER),
                "at": kell_at}]}],
           "enemies": [{"id": "u1", "command": 1, "models": [
               {"id": f"gunner-{k}", "name": "Gunner", "profile": copy.deepcopy(tg.GUNNER),
                "at": [15, 8 + 2 * k]} for k in (1, 2)]}],
           "settings": {"cp_rerolls": "never"}}  # no CP re-roll questions (test_cp_rerolls)
    game, state = new_game(parse_scenario(doc, "ids.yaml"), 1)
    state.counters.clear()
    return game, state


def test_the_planner_and_the_dice_lines_name_enemy_models_by_id() -> None:
    """Two enemy models share the profile name "Gunner": the planner's explanation, the shot
    notes and the damage's why name each by its id (the id on the map), the player's operative
    by its name; narration prints them as they are."""
    game, state = _gunners([5, 10])
    state.dice = ScriptedDice(faces=[1, 6])  # initiative: solo-ops
    step(game, state, {"type": "engine"})
    state.dice = SeededDice(seed=2)
    record = step(game, state, {"type": "engine"})
    (activation,) = [e for e in record["events"] if e["type"] == "enemy_activation"]
    assert activation["explain"][2] == ("gunner-1 at (15.0, 10.0): closest enemy with line of "
                                        "sight is Sgt Kell, 9.0\" around the walls.")
    assert not any("Gunner" in line for line in activation["explain"])
    shots = [e for e in record["events"] if e["type"] == "attack"]
    assert [e["note"].split(" with ")[0] for e in shots] == ["gunner-1 shoots Sgt Kell",
                                                             "gunner-2 shoots Sgt Kell"]
    whys = [e["why"] for e in record["events"] if e["type"] == "damage"]
    assert whys and all(w in ("shot by gunner-1", "shot by gunner-2") for w in whys)


def test_a_rolled_fight_names_the_enemy_by_id_in_its_dice_lines() -> None:
    """The player's rolled fight: both sides' dice lines carry the enemy's id and the
    operative's name."""
    game, state = _gunners([13.8, 10])  # 0.2" from gunner-1's base
    state.dice = ScriptedDice(faces=[6, 1])  # initiative: the players
    step(game, state, {"type": "engine"})
    step(game, state, {"type": "activate", "operative": "kell", "stance": "engage"})
    state.dice = SeededDice(seed=4)
    record = step(game, state, {"type": "fight", "target": "gunner-1", "roll": True})
    (fight,) = [e for e in record["events"] if e["type"] == "fight"]
    assert any(line.startswith("Sgt Kell: Attack dice") for line in fight["lines"])
    assert any(line.startswith("gunner-1: Attack dice") for line in fight["lines"])
    assert not any("Gunner" in line for line in fight["lines"])
