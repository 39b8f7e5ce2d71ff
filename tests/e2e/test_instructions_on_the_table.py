"""Issue #27's reproductions: every instruction can be carried out on the real table.

* the encounter of ``solo-ops new --seed 490892361`` played to its end (turning point 4) by
  each autopilot policy: no two bases ever overlap, no base stands in terrain or off the
  board, every enemy move costs what its route costs (before the fix the dropped friend of a
  fallen carrier lay under him and a berserker ended on both);
* ``move behind vent-1`` never ends in view of an enemy without cover (before: the nearest
  point "visible, obscured" to it);
* carrying Gunner Rask by relative answers only, then ``evacuate rask`` (the way to the edge
  proposed, then made);
* downed operatives on the map and in ``status``; a blocked enemy says what blocks it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from solo_ops.core.errors import RuleError
from solo_ops.game import intent
from solo_ops.game.engine import new_game, pending, step
from solo_ops.game.state import ENEMY, Operative, Unit
from solo_ops.io.scenario import load_scenario
from tests.support.log_audit import SCENARIOS, table_audit
from tests.support.players import cli


@pytest.fixture(scope="module")
def encounter(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("enc")
    run = cli("new", "--seed", "490892361", "--out", str(folder / "enc.yaml"), "--picture",
              str(folder / "enc.png"), cwd=folder)
    assert run.returncode == 0, run.stderr
    return folder / "enc.yaml"


@pytest.mark.parametrize("policy", ["objective", "cautious", "aggressive"])
def test_the_seed_490892361_mission_puts_no_base_on_another(encounter: Path, policy: str
                                                             ) -> None:
    audit = table_audit(encounter, 490892361, policy)
    assert audit.steps > 20 and audit.bases > 200 and audit.moves > 5
    assert audit.problems == []


def _vent_game() -> tuple[Any, Any]:
    """Volkus manufactorum: Sgt Kell active at (2.5, 13.5), an ork boy at (12, 13), nobody
    else on the table (no counters)."""
    sc = load_scenario(SCENARIOS / "volkus-manufactorum-sweep.yaml")
    game, state = new_game(sc, 1)
    state.counters.clear()
    step(game, state, {"type": "engine"})
    profile = sc.roster.profiles[sc.roster.table[1]].for_edition("kt2024")
    for o in list(state.operatives.values()):
        if o.side == ENEMY:
            del state.operatives[o.id]
        elif o.id != "kell":
            o.at, o.down, o.carried_to_safety = None, True, True
    state.units.clear()
    state.operatives["boy-1"] = Operative("boy-1", profile.name, ENEMY, "u1", profile,
                                          (12.0, 13.0), profile.wounds)
    state.units["u1"] = Unit("u1", ["boy-1"], "fire-teams", 3, 7, fsm="idle")
    state.operatives["kell"].at = (2.5, 13.5)
    assert pending(game, state).kind == "activate"
    step(game, state, {"type": "activate", "operative": "kell", "stance": "engage"})
    return game, state


def test_behind_vent_1_ends_out_of_sight_or_in_cover() -> None:
    game, state = _vent_game()
    terrain = game.terrain(state)
    kell, boy = state.operatives["kell"], state.operatives["boy-1"]
    # what the old reading chose: the cheapest point next to the vent "obscured" to the boy,
    # which `geom cover` calls "Visible, obscured" (not in cover: he could be shot)
    old = terrain.sight.cover(boy.at, (4.25, 15.25), boy.radius, kell.radius)
    assert old.visible and old.obscured and not old.in_cover
    found = intent.propose(game, state, {"type": "move", "how": "reposition",
                                         "relation": "behind", "ref": "vent-1"})
    now = terrain.sight.cover(boy.at, found.to, boy.radius, kell.radius)
    assert (not now.visible) or now.in_cover
    assert found.to != (4.25, 15.25)
    step(game, state, found.action)  # and the engine takes it
    assert state.operatives["kell"].at == found.to


def test_behind_with_no_such_point_is_refused_naming_who_sees_and_from_where() -> None:
    from tests.support.small_table import BOARD, game_at

    board: dict[str, Any] = json.loads(json.dumps(BOARD))
    # a tuft of grass: exposed, it hides nothing and gives no cover
    board["features"].append({"id": "grass-1", "traits": ["light", "exposed"],
                              "polygon": [[6, 9], [7, 9], [7, 11], [6, 11]]})
    game, state = game_at(enemy_at=(12, 10), board=board)
    with pytest.raises(RuleError, match=re.escape(
            "still sees the nearest one")) as refused:
        intent.propose(game, state, {"type": "move", "how": "reposition", "relation": "behind",
                                     "ref": "grass-1"})
    assert "e1 at (12.0, 10.0)" in str(refused.value)


SQUAD = {"player": "Ana", "models": [
    {"id": "kell", "name": "Sgt Kell", "at": [3.5, 10]},
    {"id": "rask", "name": "Gunner Rask", "at": [5.0, 10]}]}


def _carry_scenario(folder: Path) -> Path:
    from tests.support.small_table import BOARD, TROOPER

    profile = dict(TROOPER)
    doc = {"name": "carry test", "edition": "kt2024", "board": BOARD,
           "roster": {"name": "r", "profiles": {"trooper": TROOPER},
                      "table": {i: "trooper" for i in range(1, 7)}},
           "engagement": 1, "seed": 4,
           "squads": [{"player": "Ana", "models": [
               {**m, "profile": profile} for m in SQUAD["models"]]}],
           "enemies": [{"id": "u1", "command": 5, "models": [
               {"id": "e1", "profile": "trooper", "at": [27, 20]}]}],
           "counters": [],
           "settings": {"turns": 2, "counteract": "off", "cp_rerolls": "never"}}
    path = folder / "carry.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_carrying_rask_by_relative_answers_only_then_evacuate_rask(tmp_path: Path) -> None:
    scenario = _carry_scenario(tmp_path)
    save = tmp_path / "s.json"
    answers = ["down rask", "status", "kell engage", "move kell into base contact with rask",
               "yes", "carry rask", "kell", "evacuate rask", "yes"]
    args = ["play", str(scenario), "--save", str(save), "--seed", "1"]  # (no counter near)
    for a in answers:
        args += ["--answer", a]
    run = cli(*args, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    # status lists the downed operative where he lies
    assert "rask (5.0, 10.0) 0/8W conceal DOWN (lying here: its base stays on the table)" in out
    # base contact: due east to 2r + 0.02" from Rask's centre: 5 - 1.0043 = 3.9957 -> 4.0
    assert "in base contact with rask" in out
    doc = json.loads(save.read_text(encoding="utf-8"))
    acts = [a for a in doc["actions"] if a["type"] in ("move", "carry", "evacuate")]
    assert acts[0] == {"type": "move", "how": "reposition", "to": [4.0, 10.0],
                       "operative": "kell"}
    assert acts[1]["type"] == "carry" and acts[1]["target"] == "rask"
    # evacuate rask: the cheapest point within 1" of an edge is due west, its centre
    # r + 1 - 0.05 = 1.4421" from the west edge, 2.56" away: proposed, then made
    assert "within 1\" of the table edge, then carries Gunner Rask off the table" in out
    assert acts[2]["type"] == "move" and acts[2]["to"] == [1.44, 10.0]
    assert acts[3] == {"type": "evacuate", "operative": "kell"}
    assert "Sgt Kell carries Gunner Rask off the table to safety." in out
    snap = {o["id"]: o for o in doc["snapshot"]["operatives"]}
    assert snap["rask"]["carried_to_safety"] and snap["kell"]["at"] is None


def test_a_downed_operative_keeps_its_base_blocks_moves_and_is_drawn(tmp_path: Path) -> None:
    from tests.support.small_table import active

    game, state = active()
    state.operatives["a2"].at = (6.0, 10.0)
    step(game, state, {"type": "down", "operative": "a2"})
    a2 = state.operatives["a2"]
    assert a2.down and a2.lying and a2.at == (6.0, 10.0)
    # a move onto him is refused with the reason and the nearest free point: 2r = 0.984"
    # from his centre, on the 0.05" grid through 6.2: 7.0 east (0.8" away; west, 5.0, is 1.2")
    with pytest.raises(RuleError, match=re.escape(
            "a1's base does not fit at 6.2,10: downed a2's base is there; the nearest point "
            "where it fits is 7,10")):
        step(game, state, {"type": "move", "how": "reposition", "to": [6.2, 10]})
    # the map draws him crossed and says so in the legend
    from solo_ops.cli.maps import view_scene
    from solo_ops.view import drawing

    svg = drawing.svg_text(view_scene(game, state))
    assert 'class="base player down"' in svg and "a2 (down)" in svg
    assert "downed: its base stays" in svg


def test_an_enemy_blocked_in_a_corridor_says_what_blocks_it() -> None:
    from tests.support.order_boards import BRUTE, GRUNT, plan, setup

    walls = ({"id": "w-south", "traits": ["wall"], "line": [[0, 10], [20, 10]]},
             {"id": "w-north", "traits": ["wall"], "line": [[0, 12], [20, 12]]})
    # e1 (melee, command 3: towards the closest enemy) behind e2 in a 2" corridor
    game, state = setup([("u1", 3, [("e1", BRUTE, (3, 11))]),
                         ("u2", 1, [("e2", GRUNT, (5.5, 11))])],
                        [("p1", GRUNT, (25, 11))], features=walls)
    p = plan(game, state, "u1")
    notes = " ".join(a.note for a in p.actions if a.model == "e1")
    # e2's base (radius 0.5) leaves e1 (radius 0.5) at most 5.5 - 1 - 3 = 1.5" of the way
    assert "Its way to p1 is blocked by e2's base at (5.5, 11.0)" in notes


def test_a_scenario_that_puts_a_model_on_another_is_refused_in_one_line(tmp_path: Path
                                                                         ) -> None:
    from tests.support.small_table import BOARD, TROOPER

    doc = {"name": "bad", "edition": "kt2024", "board": BOARD, "engagement": 1, "seed": 4,
           "roster": {"name": "r", "profiles": {"trooper": TROOPER},
                      "table": {i: "trooper" for i in range(1, 7)}},
           "squads": [{"player": "Ana", "models": [
               {"id": "a1", "profile": TROOPER, "at": [3, 10]},
               {"id": "a2", "profile": TROOPER, "at": [3.5, 10]}]}],
           "enemies": [{"id": "u1", "command": 5, "models": [
               {"id": "e1", "profile": "trooper", "at": [27, 11]}]}]}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    run = cli("play", str(path), "--save", str(tmp_path / "s.json"), "--answer", "quit",
              cwd=tmp_path)
    assert run.returncode != 0
    # 2r = 0.984": the nearest free point on the 0.05" grid through 3.5 is 4.0
    assert run.stderr.strip().splitlines() == [
        "solo-ops: error: a2's base does not fit at 3.5,10: a1's base is there; the nearest "
        "point where it fits is 4,10"]
    assert not (tmp_path / "s.json").exists()


def test_a_move_after_one_that_stopped_short_starts_where_the_model_stands(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Found by the table audit (seeds 1-20): gallowdark-night-raid, seed 11, the aggressive
    policy in Kill Team 2024. At step 39 stubber-gunner-11's Reposition stops at (4.0, 15.5),
    acolyte-8's base in the way; its Dash had been planned from the Reposition's planned end
    (3.75, 14.75). The Dash now walks from where the model stands: its route starts there, and
    its cost is that route's, within the Dash's 3"."""
    seen: list[dict[str, Any]] = []
    from tests.support import log_audit

    original = log_audit.check_move_costs

    def spy(game: Any, state: Any, record: dict[str, Any], audit: Any, doors: Any) -> None:
        if record["n"] == 39:
            seen.extend(e for e in record["events"] if e.get("type") == "moved"
                        and e.get("operative") == "stubber-gunner-11")
        original(game, state, record, audit, doors)

    monkeypatch.setattr(log_audit, "check_move_costs", spy)
    audit = table_audit(SCENARIOS / "gallowdark-night-raid.yaml", 11, "aggressive", "kt2024")
    assert audit.costs == [] and audit.overlaps == []
    reposition, dash = seen
    assert reposition["blocked_by"] == "acolyte-8's base is there"
    assert dash["how"] == "dash" and dash["from"] == reposition["to"] == [3.99, 15.51]
    assert dash["route"][0] == dash["from"] and dash["route"][-1] == dash["to"]
    assert dash["cost"] <= 3.0
    assert "where its last move stopped" in dash["note"]


def test_the_table_view_offers_carry_and_evacuate_only_when_the_rules_allow() -> None:
    """``open_actions`` (what the page offers): ``carry`` once a downed friend lies on the
    table and the operative carries nothing; ``evacuate`` only while it carries a friend."""
    from solo_ops.game.actions import open_actions
    from tests.support.small_table import active

    game, state = active()
    a1 = state.operatives["a1"]
    assert open_actions(game, state)["carry"] == "no downed friend lies on the table"
    assert open_actions(game, state)["evacuate"] == f"{a1.name} is not carrying anyone"
    state.operatives["a2"].at = (6.0, 10.0)
    step(game, state, {"type": "down", "operative": "a2"})
    assert open_actions(game, state)["carry"] is None  # how far: the action's own question
    a1.carrying, state.operatives["a2"].carried_by = "a2", "a1"
    assert open_actions(game, state)["carry"] == f"{a1.name} is already carrying a2"
    assert open_actions(game, state)["evacuate"] is None


def test_the_legend_names_who_acts_whole_and_cuts_a_long_name_not_the_words() -> None:
    """The map's legend line for the numbered steps of the activation shown names who acts
    and what the numbers are, within the legend's width: a long id is cut, never the words
    (it read "this activation (vale): numbe…" on a 30-character legend line)."""
    import xml.etree.ElementTree as ET

    from solo_ops.cli.maps import view_scene
    from solo_ops.view import drawing
    from solo_ops.view.picture_style import LEGEND_CHARS
    from tests.support.pictures import texts_with_class
    from tests.support.small_table import active

    game, state = active()
    step(game, state, {"type": "move", "how": "reposition", "to": [5, 10]})
    legend = texts_with_class(ET.fromstring(drawing.svg_text(view_scene(game, state))),
                              "legend-text")
    assert "a1: steps in order" in legend
    assert all(len(text) <= LEGEND_CHARS and not text.endswith("…") for text in legend)
    long = "a" * 20
    for record in state.log:
        for event in record.get("events", []):
            if event.get("operative") == "a1":
                event["operative"] = long
    legend = texts_with_class(ET.fromstring(drawing.svg_text(view_scene(game, state))),
                              "legend-text")
    assert "a" * 13 + "…: steps in order" in legend, legend
