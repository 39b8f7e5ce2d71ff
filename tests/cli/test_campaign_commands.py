"""``solo-ops campaign``: new, show, survival and replace through click's runner."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from solo_ops.cli import campaign as campaign_module
from solo_ops.io.persistence import backup_path
from tests.support.paths import SCENARIOS

VESPER = str(SCENARIOS / "squads" / "vesper.yaml")
BLADES = str(SCENARIOS / "squads" / "ashen-blades.yaml")


def invoke(runner: CliRunner, *args: str) -> Any:
    return runner.invoke(campaign_module.campaign, list(args))


def start(runner: CliRunner, saves: Path, *extra: str) -> Any:
    result = invoke(runner, "new", "Gallowdark", "--squad", VESPER, "--squad", BLADES,
                    "--saves", str(saves), "--json", *extra)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def write(path: Path, data: Any) -> str:
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return str(path)


def test_new_writes_the_save_and_reports_json(runner: CliRunner, tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    data = start(runner, saves)
    assert {"campaign", "path", "squads"} <= set(data)
    assert data["campaign"] == "Gallowdark"
    assert data["path"] == str(saves / "Gallowdark.json")
    assert [s["player"] for s in data["squads"]] == ["Ana", "Ben"]
    save = json.loads((saves / "Gallowdark.json").read_text())
    assert save["schema_version"] == 2 and save["kind"] == "solo-ops-campaign"
    again = invoke(runner, "new", "Gallowdark", "--squad", VESPER, "--saves", str(saves))
    assert again.exit_code == 2 and "already exists" in again.stderr


def test_new_defaults_to_campaign_saves_in_the_current_folder(
        runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = invoke(runner, "new", "Solo", "--squad", VESPER)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "campaign_saves" / "Solo.json").exists()
    shown = invoke(runner, "show", "Solo", "--json")
    assert json.loads(shown.stdout)["name"] == "Solo"


def test_show_text_and_json(runner: CliRunner, tmp_path: Path) -> None:
    start(runner, tmp_path)
    text = invoke(runner, "show", "Gallowdark", "--saves", str(tmp_path))
    assert text.exit_code == 0, text.output
    for word in ("Gallowdark", "0 mission(s) played", "Kill team Vesper", "Sgt Kell",
                 "The Ashen Blades", "active"):
        assert word in text.stdout
    data = json.loads(invoke(runner, "show", "Gallowdark", "--saves", str(tmp_path),
                             "--json").stdout)
    assert data["missions_played"] == 0
    assert [m["state"] for s in data["squads"] for m in s["models"]] == ["active"] * 7
    assert data["history"] == [] and data["pending_survival_tests"] == []


def test_show_unknown_campaign(runner: CliRunner, tmp_path: Path) -> None:
    start(runner, tmp_path)
    result = invoke(runner, "show", "Nope", "--saves", str(tmp_path))
    assert result.exit_code == 2
    assert "no campaign 'Nope'" in result.stderr and "Gallowdark" in result.stderr


def test_survival_with_a_mission_result(runner: CliRunner, tmp_path: Path) -> None:
    start(runner, tmp_path)
    result_file = write(tmp_path / "result.yaml", {
        "mission": "Night raid", "outcome": "win", "all_enemies_destroyed": True,
        "models": [{"id": "kell", "wounds_lost": 3},
                   {"id": "vale", "down": True, "carried": True},
                   {"id": "tam", "down": True}]})
    out = invoke(runner, "survival", "Gallowdark", "--mission-result", result_file,
                 "--seed", "7", "--saves", str(tmp_path), "--json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["mission"] == 1
    tests = {t["model"]: t for t in data["tests"]}
    assert set(tests) == {"kell", "vale", "tam"}
    assert tests["kell"]["target"] == 4  # Toughness 3 +1
    assert tests["vale"]["target"] == 5  # +1 +1 carried
    assert tests["tam"]["target"] == 5  # Toughness 4 +1
    assert [d["purpose"] for d in data["dice"]] == [
        "survival test: Sgt Kell (kell, Ana)", "survival test: Trooper Vale (vale, Ana)",
        "survival test: Scout Tam (tam, Ben)"]
    for t in data["tests"]:
        assert t["passed"] == (t["roll"] <= t["target"])
    shown = json.loads(invoke(runner, "show", "Gallowdark", "--saves", str(tmp_path),
                              "--json").stdout)
    assert shown["missions_played"] == 1
    states = {m["id"]: m["state"] for s in shown["squads"] for m in s["models"]}
    expected_tam = "active" if tests["tam"]["passed"] else "fallen"
    assert states["tam"] == expected_tam and len(states) == 7
    # the same seed gives the same rolls
    again = invoke(runner, "new", "Copy", "--squad", VESPER, "--squad", BLADES, "--saves",
                   str(tmp_path))
    assert again.exit_code == 0
    copy = json.loads(invoke(runner, "survival", "Copy", "--mission-result", result_file,
                             "--seed", "7", "--saves", str(tmp_path), "--json").stdout)
    assert [t["roll"] for t in copy["tests"]] == [t["roll"] for t in data["tests"]]


def test_survival_text_and_nothing_pending(runner: CliRunner, tmp_path: Path) -> None:
    start(runner, tmp_path)
    result_file = write(tmp_path / "r.yaml", {"models": [{"id": "rask", "wounds_lost": 2}]})
    out = invoke(runner, "survival", "Gallowdark", "--mission-result", result_file,
                 "--seed", "1", "--saves", str(tmp_path))
    assert out.exit_code == 0, out.output
    assert "Mission 1" in out.stdout and "Gunner Rask" in out.stdout and "seed 1" in out.stdout
    none = invoke(runner, "survival", "Gallowdark", "--saves", str(tmp_path))
    assert none.exit_code == 2 and "no survival test to roll" in none.stderr


def test_survival_bad_result_file(runner: CliRunner, tmp_path: Path) -> None:
    start(runner, tmp_path)
    bad = write(tmp_path / "bad.yaml", {"models": [{"id": "ghost", "wounds_lost": 1}]})
    out = invoke(runner, "survival", "Gallowdark", "--mission-result", bad, "--seed", "1",
                 "--saves", str(tmp_path))
    assert out.exit_code == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "bad.yaml: models[0].id: no model 'ghost'" in lines[0]
    shown = json.loads(invoke(runner, "show", "Gallowdark", "--saves", str(tmp_path),
                              "--json").stdout)
    assert shown["missions_played"] == 0  # nothing was written


def _kill(runner: CliRunner, saves: Path, model: str) -> None:
    """Make ``model`` fall: went down, rolling a 6 (the seed is searched for a 6)."""
    result_file = write(saves / f"fall-{model}.yaml", {"models": [{"id": model, "down": True}]})
    for seed in range(200):
        probe = invoke(runner, "new", f"probe{seed}", "--squad", VESPER, "--squad", BLADES,
                       "--saves", str(saves / "probe"))
        assert probe.exit_code == 0
        data = json.loads(invoke(runner, "survival", f"probe{seed}", "--mission-result",
                                 result_file, "--seed", str(seed), "--saves",
                                 str(saves / "probe"), "--json").stdout)
        if data["tests"][0]["result"] == "fallen":
            out = invoke(runner, "survival", "Gallowdark", "--mission-result", result_file,
                         "--seed", str(seed), "--saves", str(saves), "--json")
            assert json.loads(out.stdout)["tests"][0]["result"] == "fallen"
            return
    raise AssertionError("no seed rolled a failure")


def test_replace_a_fallen_model(runner: CliRunner, tmp_path: Path) -> None:
    start(runner, tmp_path)
    _kill(runner, tmp_path, "vale")
    recruit = write(tmp_path / "recruit.yaml", {
        "id": "nix", "name": "Trooper Nix",
        "profile": {"movement": 6, "toughness": 3, "wounds": 7, "save": 5,
                    "weapons": [{"name": "lasgun", "type": "rapid", "range": 24}]}})
    out = invoke(runner, "replace", "Gallowdark", "--player", "Ana", "--model", "vale",
                 "--with", recruit, "--saves", str(tmp_path), "--json")
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["new"]["replaces"] == "vale"
    shown = json.loads(invoke(runner, "show", "Gallowdark", "--saves", str(tmp_path),
                              "--json").stdout)
    ana = shown["squads"][0]["models"]
    assert [(m["id"], m["state"]) for m in ana] == [
        ("kell", "active"), ("rask", "active"), ("vale", "fallen"), ("nix", "active"),
        ("oro", "active")]
    assert ana[2]["replaced_by"] == "nix"
    text = invoke(runner, "show", "Gallowdark", "--saves", str(tmp_path))
    assert "replaced by" in text.stdout and "Trooper Nix" in text.stdout
    twice = invoke(runner, "replace", "Gallowdark", "--player", "Ana", "--model", "kell",
                   "--with", recruit, "--saves", str(tmp_path))
    assert twice.exit_code == 2 and "not fallen" in twice.stderr


def test_bad_squad_file_is_one_line_exit_2(runner: CliRunner, tmp_path: Path) -> None:
    bad = write(tmp_path / "bad-squad.yaml", {
        "player": "Cy", "models": [{"id": "x", "profile": {"movement": 6, "save": 4}}]})
    out = invoke(runner, "new", "C", "--squad", bad, "--saves", str(tmp_path))
    assert out.exit_code == 2
    lines = out.stderr.strip().splitlines()
    assert lines == [f"solo-ops: error: {bad}: models[0].profile.wounds: is required"]
    assert not (tmp_path / "C.json").exists()
    missing = invoke(runner, "new", "C", "--squad", str(tmp_path / "none.yaml"), "--saves",
                     str(tmp_path))
    assert missing.exit_code == 2 and "file not found" in missing.stderr
    clash = invoke(runner, "new", "C", "--squad", VESPER, "--squad", VESPER, "--saves",
                   str(tmp_path))
    assert clash.exit_code == 2 and "two squads for player 'Ana'" in clash.stderr


def test_bad_campaign_name(runner: CliRunner, tmp_path: Path) -> None:
    out = invoke(runner, "new", "../escape", "--squad", VESPER, "--saves", str(tmp_path))
    assert out.exit_code == 2 and "NAME" in out.stderr


def test_damaged_save_names_the_file_and_backup(runner: CliRunner, tmp_path: Path) -> None:
    start(runner, tmp_path)
    result_file = write(tmp_path / "r.yaml", {"models": []})
    assert invoke(runner, "survival", "Gallowdark", "--mission-result", result_file,
                  "--saves", str(tmp_path)).exit_code == 0
    path = tmp_path / "Gallowdark.json"
    assert backup_path(path).exists()
    path.write_text('{"schema_version": 1, "kind": "solo-ops-campaign", "na')
    out = invoke(runner, "show", "Gallowdark", "--saves", str(tmp_path))
    assert out.exit_code == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1
    assert f"{path} is damaged" in lines[0] and f"{path}.bak" in lines[0]
    assert "restore it with" in lines[0]
    path.write_bytes(backup_path(path).read_bytes())
    restored = json.loads(invoke(runner, "show", "Gallowdark", "--saves", str(tmp_path),
                                 "--json").stdout)
    assert restored["missions_played"] == 0  # the backup is the version before the last save


def test_valid_json_with_bad_fields_names_the_field(runner: CliRunner, tmp_path: Path) -> None:
    start(runner, tmp_path)
    path = tmp_path / "Gallowdark.json"
    data = json.loads(path.read_text())
    data["squads"][0]["models"][0]["state"] = "sleeping"
    path.write_text(json.dumps(data))
    out = invoke(runner, "show", "Gallowdark", "--saves", str(tmp_path))
    assert out.exit_code == 2
    assert "squads[0].models[0].state: unknown value 'sleeping'" in out.stderr


def test_settings_options_are_saved(runner: CliRunner, tmp_path: Path) -> None:
    data = start(runner, tmp_path, "--down-failure", "injured", "--wounded-failure", "none",
                 "--default-toughness", "4")
    assert data["settings"] == {"down_failure": "injured", "wounded_failure": "none",
                                "default_toughness": 4}
    shown = invoke(runner, "show", "Gallowdark", "--saves", str(tmp_path))
    assert "down → injured, wounded → none; default Toughness 4" in shown.stdout
