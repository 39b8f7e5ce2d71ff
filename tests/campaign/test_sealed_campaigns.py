"""Campaign saves sealed like game saves (issue #41, items 9 and 10).

The issue's forgeries — a fallen model brought back, 99 wounds, a 12-attack weapon, a survival
roll rewritten, a cloned model, ``missions_played: 0`` (which made ``campaign play`` record
mission 1 a second time) — were all accepted. A campaign is now sealed over its whole content
(its squads, and its history as a hash chain): each forgery is refused in one line naming the
field, with the backup to restore; ``missions_played`` is the history's, so the two cannot
disagree; a save of schema 2 is sealed on first load. The fuzz and kill -9 of game saves, for
campaigns: no mutant is an internal error, a kill leaves the old or the new campaign and no
leftover; a mission whose recording command was cut short gets its map on the next open."""

from __future__ import annotations

import copy
import json
import os
import random
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from solo_ops.campaign import record_mission, result_from_state
from solo_ops.campaign.storage import SCHEMA_VERSION, SEAL_DEPTH
from solo_ops.cli import main
from solo_ops.cli.campaign_files import finish_last_mission, load_campaign
from solo_ops.core.dice import KeyedDice
from solo_ops.core.seal import sealed
from solo_ops.game.engine import new_game
from solo_ops.io.opening import mission_paths
from solo_ops.io.scenario import load_scenario
from solo_ops.session.table import GameTable
from solo_ops.sim import autopilot
from tests.support.budget import examples
from tests.support.paths import SCENARIOS
from tests.support.players import small_scenario

VESPER = SCENARIOS / "squads" / "vesper.yaml"
RESULT = {"mission": "Night raid", "outcome": "win",
          "models": [{"id": "kell", "wounds_lost": 3}, {"id": "rask", "down": True}]}


def invoke(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """A campaign with one mission recorded and its survival tests rolled (a seed under
    which Rask, down, falls): the save's and its backup's bytes."""
    for seed in range(1, 60):
        folder = tmp_path_factory.mktemp("campaign")
        (folder / "result.yaml").write_text(yaml.safe_dump(RESULT), encoding="utf-8")
        saves = str(folder / "saves")
        assert invoke("campaign", "new", "C", "--squad", str(VESPER), "--saves",
                      saves).exit_code == 0
        done = invoke("campaign", "survival", "C", "--saves", saves, "--seed", str(seed),
                      "--mission-result", str(folder / "result.yaml"))
        assert done.exit_code == 0, done.output
        doc = json.loads((folder / "saves" / "C.json").read_text(encoding="utf-8"))
        if doc["squads"][0]["models"][1]["state"] == "fallen":
            return {"save": (folder / "saves" / "C.json").read_bytes(),
                    "bak": (folder / "saves" / "C.json.bak").read_bytes()}
    raise AssertionError("no seed of 1-59 lets Rask fall")


def lay_out(played: dict[str, bytes], folder: Path, save: bytes | None = None) -> Path:
    saves = folder / "saves"
    saves.mkdir(parents=True)
    (saves / "C.json").write_bytes(played["save"] if save is None else save)
    (saves / "C.json.bak").write_bytes(played["bak"])
    return saves


def forge(played: dict[str, bytes], edit: Callable[[dict[str, Any]], None],
          seal_again: bool = False) -> bytes:
    doc = json.loads(played["save"])
    edit(doc)
    if seal_again:
        sealed(doc, SEAL_DEPTH)
    return json.dumps(doc, indent=2).encode()


def cloned(doc: dict[str, Any]) -> None:
    twin = copy.deepcopy(doc["squads"][0]["models"][0])
    twin["id"] = "kell-2"
    doc["squads"][0]["models"].append(twin)


FORGERIES: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "a fallen model brought back": (
        lambda d: d["squads"][0]["models"][1].update(state="active"), "squads[0].models[1].state"),
    "99 wounds": (lambda d: d["squads"][0]["models"][0]["profile"].update(wounds=99),
                  "squads[0].models[0].profile"),
    "a 12-attack weapon": (
        lambda d: d["squads"][0]["models"][0]["profile"]["weapons"][0].update(attacks=12),
        "squads[0].models[0].profile"),
    "a survival roll rewritten": (
        lambda d: d["history"][0]["survival_tests"][0].update(roll=1),
        "history[0].survival_tests[0].roll"),
    "a cloned model": (cloned, "squads[0].models[4]"),
    "missions_played: 0": (lambda d: d.update(missions_played=0), "missions_played"),
}


@pytest.mark.parametrize("name", FORGERIES)
def test_each_forgery_of_the_issue_is_refused_naming_the_field(
        played: dict[str, bytes], tmp_path: Path, name: str) -> None:
    edit, field = FORGERIES[name]
    forged = forge(played, edit)
    saves = lay_out(played, tmp_path, forged)
    save = saves / "C.json"
    for command in (["campaign", "show", "C"], ["campaign", "play", "C"],
                    ["campaign", "survival", "C"]):
        result = invoke(*command, "--saves", str(saves))
        assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.output
        why = "was added" if name == "a cloned model" else "was edited"
        assert result.stderr.startswith(f"solo-ops: error: {save}: {field}: {why} after it "
                                        "was saved (it does not match the file's seal); a "
                                        f"backup is at {save}.bak (the version before the "
                                        "last change) — restore it with: cp "), result.stderr
    assert save.read_bytes() == forged  # refused, left as it was (nothing recorded twice)
    assert not (saves / "C-missions").exists()
    # restored as told, the campaign is the one before its last change
    command = result.stderr.rsplit("restore it with: ", 1)[1].strip()
    subprocess.run(shlex.split(command), check=True)
    shown = invoke("campaign", "show", "C", "--saves", str(saves), "--json")
    assert shown.exit_code == 0 and json.loads(shown.stdout)["missions_played"] == 0


def test_missions_played_is_the_historys_even_for_a_forger_with_the_source(
        played: dict[str, bytes], tmp_path: Path) -> None:
    """Sealed again, ``missions_played: 0`` still disagrees with the history (one mission), and
    a history whose missions skip a number is no campaign's: each one line naming the field."""
    cases = [(lambda d: d.update(missions_played=0), "missions_played: says 0 missions were "
                                                     "played, the history records 1"),
             (lambda d: d["history"][0].update(mission=2), "history[0].mission: mission 2 "
                                                           "follows mission 0")]
    for i, (edit, message) in enumerate(cases):
        saves = lay_out(played, tmp_path / str(i), forge(played, edit, seal_again=True))
        result = invoke("campaign", "show", "C", "--saves", str(saves))
        assert result.exit_code == 2 and f"C.json: {message}" in result.stderr
        assert "restore it with: cp " in result.stderr


def test_a_schema_2_campaign_is_sealed_on_first_load(played: dict[str, bytes],
                                                     tmp_path: Path) -> None:
    doc = json.loads(played["save"])
    del doc["seal"]
    doc["schema_version"] = 2
    saves = lay_out(played, tmp_path, json.dumps(doc).encode())
    assert invoke("campaign", "show", "C", "--saves", str(saves)).exit_code == 0
    after = json.loads((saves / "C.json").read_text(encoding="utf-8"))
    assert after["schema_version"] == SCHEMA_VERSION and "seal" in after
    assert json.loads((saves / "C.json.bak").read_text())["schema_version"] == 2  # kept
    after["squads"][0]["models"][0]["state"] = "wounded"
    (saves / "C.json").write_text(json.dumps(after), encoding="utf-8")
    edited = invoke("campaign", "show", "C", "--saves", str(saves))
    assert edited.exit_code == 2 and "squads[0].models[0].state: was edited" in edited.stderr
    # an edited schema 2 save (no seal to find it) is still refused where it cannot be a game's
    doc["missions_played"] = 0
    saves = lay_out(played, tmp_path / "old", json.dumps(doc).encode())
    refused = invoke("campaign", "show", "C", "--saves", str(saves))
    assert refused.exit_code == 2 and "missions_played: says 0 missions were played, the " \
        "history records 1" in refused.stderr


# -- fuzz ---------------------------------------------------------------------------------------
def _mutant(doc: Any, rng: random.Random) -> Any:
    paths: list[tuple[Any, ...]] = []

    def walk(node: Any, path: tuple[Any, ...]) -> None:
        paths.append(path)
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, (*path, k))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, (*path, i))

    walk(doc, ())
    path = rng.choice(paths[1:])
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = rng.choice([None, True, -1, 0, 99, 10**12, 2.5, "", "x" * 2000, [], {},
                                 "fallen", "active", "kell", [1, 2], {"a": 1}])
    return doc


def test_mutated_campaigns_are_refused_in_one_line_never_an_internal_error(
        played: dict[str, bytes], tmp_path: Path) -> None:
    """Each mutant of one value, sealed again half the time (a forger with the source): a
    campaign shown (exit 0, a value a campaign may hold) or one line (exit 2); an unsealed
    change is always refused."""
    rng = random.Random(41)
    codes: dict[int, int] = {}
    for case in range(examples(80)):
        doc = _mutant(json.loads(played["save"]), rng)
        if case % 2:
            sealed(doc, SEAL_DEPTH)
        saves = lay_out(played, tmp_path / str(case), json.dumps(doc).encode())
        started = time.process_time()
        result = invoke("campaign", "show", "C", "--saves", str(saves), "--json")
        assert time.process_time() - started < 10
        assert result.exit_code in (0, 2) and "internal error" not in result.output, (
            case, result.output[-300:])
        content = {k: v for k, v in doc.items() if k != "seal"}  # the seal proves the rest
        assert result.exit_code == 2 or case % 2 or content == {
            k: v for k, v in json.loads(played["save"]).items() if k != "seal"}
        assert result.exit_code == 0 or result.stderr.count("\n") == 1
        codes[result.exit_code] = codes.get(result.exit_code, 0) + 1
    assert codes.get(2, 0) > len(range(examples(80))) // 2


# -- kill -9 ------------------------------------------------------------------------------------
def test_a_campaign_killed_while_it_records_is_the_old_or_the_new_one(tmp_path: Path) -> None:
    """``campaign survival --mission-result`` killed with SIGKILL at random moments: each time
    the campaign loads, sealed, with no mission or one (never half of one), and the next
    command leaves no temporary file beside it."""
    saves = tmp_path / "saves"
    assert invoke("campaign", "new", "C", "--squad", str(VESPER), "--saves",
                  str(saves)).exit_code == 0
    result = tmp_path / "result.yaml"
    result.write_text(yaml.safe_dump(RESULT), encoding="utf-8")
    rng = random.Random(9)
    for _ in range(examples(12, 3)):
        proc = subprocess.Popen([sys.executable, "-m", "solo_ops", "campaign", "survival", "C",
                                 "--saves", str(saves), "--seed", "5", "--mission-result",
                                 str(result)], cwd=tmp_path, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, env=dict(os.environ))
        time.sleep(rng.uniform(0.2, 1.6))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        campaign = load_campaign(saves / "C.json", "C")  # sealed, read, checked
        assert campaign.missions_played in (0, 1)
        if campaign.missions_played == 1:  # recorded: start again from none
            (saves / "C.json").unlink()
            assert invoke("campaign", "new", "C", "--squad", str(VESPER), "--saves",
                          str(saves)).exit_code == 0
    assert invoke("campaign", "show", "C", "--saves", str(saves)).exit_code == 0
    assert [p.name for p in saves.iterdir() if p.name.endswith(".tmp")] == []


# -- a mission's end completed on the next open ---------------------------------------------------
def _ended_mission(tmp_path: Path, record: bool) -> tuple[Path, dict[str, Path]]:
    """Campaign C (saves in ``tmp_path/saves``) whose mission 1 (a small game of its squad,
    named as its mission 1) was played to its end by the autopilot and saved; with ``record``
    also recorded (the map of its end never drawn: the command was stopped between the
    two)."""
    saves = tmp_path / "saves"
    assert invoke("campaign", "new", "C", "--squad", str(VESPER), "--saves",
                  str(saves)).exit_code == 0
    path = saves / "C.json"
    files = mission_paths(path, 1)
    files["folder"].mkdir(parents=True)
    scenario = small_scenario(tmp_path, turns=1)  # named as campaign C's mission 1 is named
    scenario.write_text(scenario.read_text().replace("name: Small test", "name: 'C: mission 1'"))
    game, state = new_game(load_scenario(scenario), 3)
    autopilot.play(game, state)
    table = GameTable(game, state, files["save"], files["log"])
    table.start()  # the mission's save, ended
    if record:
        from solo_ops.cli.campaign_files import save_campaign

        campaign = load_campaign(path, "C")
        record_mission(campaign, result_from_state(state, mission="m"), KeyedDice(seed=1))
        save_campaign(path, campaign)  # recorded; the map never drawn
    return path, files


def test_new_never_throws_away_a_mission_that_has_hurt_the_squad(tmp_path: Path) -> None:
    """003 asks a survival test of every model that suffered a wound, so ``--new`` may not
    throw away a mission in progress once a squad model has gone down or lost wounds (a group
    could otherwise start again until a mission went their way): refused in one line naming
    who, the files untouched. Before anyone was hurt, --new moves the mission aside."""
    from solo_ops.game.engine import step

    saves = tmp_path / "saves"
    assert invoke("campaign", "new", "C", "--squad", str(VESPER), "--saves",
                  str(saves)).exit_code == 0
    path = saves / "C.json"
    files = mission_paths(path, 1)
    files["folder"].mkdir(parents=True)
    scenario = small_scenario(tmp_path, turns=2)
    scenario.write_text(scenario.read_text().replace("name: Small test", "name: 'C: mission 1'"))
    game, state = new_game(load_scenario(scenario), 3)
    step(game, state, {"type": "engine"})
    table = GameTable(game, state, files["save"], files["log"])
    table.start()
    unhurt = invoke("campaign", "play", "C", "--new", "--saves", str(saves), "--answer", "quit")
    assert unhurt.exit_code == 0, unhurt.output
    assert "moved aside" in unhurt.stdout
    game, state = new_game(load_scenario(scenario), 3)
    step(game, state, {"type": "engine"})
    step(game, state, {"type": "down", "operative": "oro"})
    GameTable(game, state, files["save"], files["log"]).start()
    before = files["save"].read_bytes()
    run = invoke("campaign", "play", "C", "--new", "--saves", str(saves))
    assert run.exit_code == 2
    assert run.stderr.strip() == (
        "solo-ops: error: --new: mission 1 of campaign C has already cost the squads wounds "
        "(Medic Oro down): 003 asks a survival test of each of them, so --new would throw "
        "that away; play it on with `solo-ops campaign play C`")
    assert files["save"].read_bytes() == before


def test_a_mission_recorded_without_its_map_gets_it_on_the_next_open(tmp_path: Path) -> None:
    """The command that recorded mission 1 was stopped before it drew the map of the end (and
    so before it printed the after-action report): the next ``campaign play`` (or ``serve``)
    draws the map from the mission's save and shows the report the players never saw, then
    stops there (as the command that recorded it would have: recruits come between
    missions)."""
    path, files = _ended_mission(tmp_path, record=True)
    assert not files["map"].exists()
    report = load_campaign(path, "C").history[-1]["report"]
    assert report and report[0].startswith("Mission 1: m")
    said = finish_last_mission(path, load_campaign(path, "C"))
    assert said == [f"The map of mission 1's end was never drawn (the command that recorded "
                    f"it was stopped first); it is drawn now: {files['map']}.",
                    "The after-action report of mission 1, recorded then but not shown:",
                    *(f"  {line}" for line in report)]
    assert files["map"].read_bytes()[:4] == b"\x89PNG"
    assert finish_last_mission(path, load_campaign(path, "C")) == []  # once
    assert load_campaign(path, "C").missions_played == 1


def test_the_next_play_shows_the_report_never_shown_and_stops(tmp_path: Path) -> None:
    path, _files = _ended_mission(tmp_path, record=True)
    run = invoke("campaign", "play", "C", "--saves", str(path.parent), "--answer", "quit")
    assert run.exit_code == 0, run.output
    assert "The after-action report of mission 1, recorded then but not shown:" in run.stdout
    assert "Run `solo-ops campaign play C` again for mission 2" in run.stdout
    assert not mission_paths(path, 2)["scenario"].exists()  # mission 2 not set up yet


def test_new_never_throws_away_an_ended_mission_not_recorded(tmp_path: Path) -> None:
    """``campaign play --new`` moves a mission in progress aside; one that has ended but is
    not recorded yet (the command was stopped before recording it) is refused in one line,
    its files untouched: without --new it is recorded."""
    path, files = _ended_mission(tmp_path, record=False)
    before = files["save"].read_bytes()
    run = invoke("campaign", "play", "C", "--new", "--saves", str(path.parent))
    assert run.exit_code == 2
    assert run.stderr.strip() == (
        "solo-ops: error: --new: mission 1 of campaign C has ended but is not recorded yet: "
        "run `solo-ops campaign play C` without --new to record it (--new would throw its "
        "result away)")
    assert files["save"].read_bytes() == before
    assert load_campaign(path, "C").missions_played == 0
    recorded = invoke("campaign", "play", "C", "--saves", str(path.parent))
    assert recorded.exit_code == 0, recorded.output
    assert "ended but was not recorded yet; recording it now" in recorded.stdout
    assert load_campaign(path, "C").missions_played == 1


def test_a_flesh_wound_is_a_hurt_that_new_may_not_throw_away() -> None:
    """A Kill Team 2018 flesh wound leaves a model its 1 wound, so its wounds alone do not
    show it; the save's checkpoint counts the wounds lost over the mission, which do."""
    from solo_ops.cli.campaign_files import hurt_so_far
    from solo_ops.game import checkpoint
    from solo_ops.game.downed import apply_damage

    game, state = new_game(load_scenario(SCENARIOS / "crypt-objective-ultima.yaml"), 1)
    rask = state.operatives["rask"]
    assert hurt_so_far({"checkpoint": checkpoint.dump(state)}) == []
    apply_damage(game, state, rask, 1, "a test", outcome="flesh_wound")
    assert rask.wounds == rask.profile.wounds and not rask.down  # back on its 1 wound
    assert hurt_so_far({"checkpoint": checkpoint.dump(state)}) == [
        "Gunner Rask lost 1 wound(s)"]
