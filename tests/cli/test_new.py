"""``solo-ops new``: the same seed gives the same encounter, and ``play`` accepts it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from solo_ops.cli import main
from solo_ops.core.dice import short_id
from solo_ops.io.scenario import load_scenario
from tests.support.paths import SCENARIOS
from tests.support.saves import default_save


def encounter(seed: int) -> str:
    """The stem of the scenario ``new --seed SEED`` writes by default: ``encounter-<id>``, six
    hex digits of a hash of the seed (never the seed itself)."""
    return f"encounter-{short_id(seed, 'encounter')}"


def new(runner, folder: Path, monkeypatch, *args: str):  # type: ignore[no-untyped-def]
    """Run ``solo-ops new`` in a fresh sub-folder; return the result and the files written."""
    where = folder / f"run-{len(list(folder.iterdir()))}"
    where.mkdir()
    monkeypatch.chdir(where)
    result = runner.invoke(main, ["new", *args])
    files = {p.name: p.read_bytes() for p in where.iterdir() if p.is_file()}
    return result, files


def test_same_seed_same_encounter(runner, tmp_path: Path,  # type: ignore[no-untyped-def]
                                  monkeypatch) -> None:
    one, files1 = new(runner, tmp_path, monkeypatch, "--seed", "11", "--json")
    two, files2 = new(runner, tmp_path, monkeypatch, "--seed", "11", "--json")
    assert one.exit_code == 0, one.output
    name = encounter(11)
    assert files1 == files2 and f"{name}.yaml" in files1 and f"{name}.png" in files1
    assert name != "encounter-11"  # the name never tells the seed
    assert one.stdout == two.stdout
    data = json.loads(one.stdout)
    assert data["seed"] == 11 and len(data["counters"]) == 2 * data["engagement"]
    _other, files3 = new(runner, tmp_path, monkeypatch, "--seed", "12", "--json")
    assert files3[f"{encounter(12)}.yaml"] != files1[f"{name}.yaml"]


@pytest.mark.parametrize("args", [
    ["--edition", "kt2018", "--mission", "purge", "--engagement", "1"],
    ["--board", "gallowdark-corridors", "--crit-op", "hold-the-line", "--tac-op",
     "hold-the-centre", "--engagement", "2"],
    ["--squad", str(SCENARIOS / "squads" / "vesper.yaml"), "--squad",
     str(SCENARIOS / "squads" / "ashen-blades.yaml"), "--engagement", "1"],
])
def test_options_are_taken_and_the_file_loads(runner, tmp_path: Path,  # type: ignore[no-untyped-def]
                                              args: list[str], monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(main, ["new", "--seed", "3", *args])
    assert result.exit_code == 0, result.output
    scenario = load_scenario(Path(f"{encounter(3)}.yaml"))
    assert f"Start with:  solo-ops play {encounter(3)}.yaml" in result.stdout
    if "--edition" in args:
        assert scenario.edition == "kt2018" and scenario.mission.pariah == "purge"
        assert "Pariah Nexus" in result.stdout
    if "--crit-op" in args:
        assert scenario.mission.crit_op == "hold-the-line"
        assert scenario.mission.tac_op == "hold-the-centre"
        assert scenario.board.name == "Gallowdark: corridors"
    if "--squad" in args:
        assert [s.player for s in scenario.squads] == ["Ana", "Ben"]
    # every squad model has its deployed position written down
    assert all(m.at is not None for s in scenario.squads for m in s.models)


def test_a_json_out_is_written_as_json_and_plays(runner, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                 monkeypatch) -> None:
    """``--out X.json`` writes the same scenario as JSON (JSON has no comment lines), and the
    command it prints, ``solo-ops play X.json``, starts the game (it once wrote YAML there, which
    ``play`` refused as malformed JSON)."""
    monkeypatch.chdir(tmp_path)
    as_yaml = runner.invoke(main, ["new", "--seed", "7", "--engagement", "1"])
    as_json = runner.invoke(main, ["new", "--seed", "7", "--engagement", "1", "--out", "g.json"])
    assert as_yaml.exit_code == 0 and as_json.exit_code == 0, as_json.output
    assert "Start with:  solo-ops play g.json" in as_json.stdout
    doc = json.loads(Path("g.json").read_text(encoding="utf-8"))
    assert doc == yaml.safe_load(Path(f"{encounter(7)}.yaml").read_text(encoding="utf-8"))
    assert load_scenario(Path("g.json")).name == load_scenario(
        Path(f"{encounter(7)}.yaml")).name
    played = runner.invoke(main, ["play", "g.json", "--json"], input="")
    assert "malformed" not in played.output
    lines = [json.loads(line) for line in played.stdout.splitlines()]
    assert lines[0]["record"]["action"] == {"type": "setup"}  # the seed is the save's only
    save = default_save(Path(), Path("g.json"))
    assert json.loads(save.read_text(encoding="utf-8"))["seed"] == 7
    assert any("prompt" in line and line["prompt"]["kind"] for line in lines)


@pytest.mark.parametrize(("args", "field"), [
    (["--crit-op", "nope"], "--crit-op"),
    (["--mission", "nope"], "--mission"),
    (["--board", "nope"], "--board"),
    (["--picture", "e7.gif"], "e7.gif: cannot draw to a .gif file"),
    (["--picture", "nowhere/e7.png"], "the folder 'nowhere' does not exist"),
])
def test_bad_options_are_one_line_errors(runner, tmp_path: Path,  # type: ignore[no-untyped-def]
                                         args: list[str], field: str, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(main, ["new", "--seed", "1", "--out", "e7.yaml", *args])
    assert result.exit_code == 2
    assert field in result.stderr and result.stderr.count("\n") == 1
    assert list(tmp_path.iterdir()) == []  # nothing half made: the same command can be mended


@pytest.mark.parametrize("edition", ["kt2024", "kt2018"])
def test_the_briefing_gives_each_mission_text_once(runner, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                   monkeypatch, edition: str) -> None:
    """What was rolled is named in the notes; the mission's rules are the briefing's, printed
    once (the notes used to repeat the crit op, the tac op or the Pariah Nexus mission's
    whole text just above it)."""
    result, _files = new(runner, tmp_path, monkeypatch, "--seed", "21", "--edition", edition,
                        "--out", "x.yaml")
    assert result.exit_code == 0, result.output
    scenario = load_scenario(tmp_path / "run-0" / "x.yaml")
    briefing = scenario.mission.briefing(edition)[1:]
    assert briefing and all(result.output.count(line) == 1 for line in briefing)
    # each rule's own words (a line's end: the notes named it otherwise) once in all
    assert all(result.output.count(line[-60:]) == 1 for line in briefing)
    (named,) = [line for line in result.output.splitlines() if line.startswith("• Mission: ")]
    assert scenario.mission.name in named
