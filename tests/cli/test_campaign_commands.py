"""``solo-ops campaign``: new, show, survival and replace through click's runner."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from solo_ops.campaign import SCHEMA_VERSION
from solo_ops.campaign.storage import SEAL_DEPTH
from solo_ops.cli import campaign as campaign_module
from solo_ops.core.seal import sealed
from solo_ops.io.writing import backup_path
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
    assert save["schema_version"] == SCHEMA_VERSION and save["kind"] == "solo-ops-campaign"
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
                 "The Ashen Blades", "fit"):
        assert word in text.stdout
    data = json.loads(invoke(runner, "show", "Gallowdark", "--saves", str(tmp_path),
                             "--json").stdout)
    assert data["missions_played"] == 0
    assert [m["state"] for s in data["squads"] for m in s["models"]] == ["active"] * 7
    assert data["history"] == [] and data["pending_survival_tests"] == []


def test_show_json_names_who_has_a_link_and_gives_no_token(runner: CliRunner,
                                                           tmp_path: Path) -> None:
    """The campaign page's tokens answer for a player (the host's for everyone): `show --json`
    says whether the host has one and which players do, never the tokens themselves."""
    from solo_ops.cli.campaign_files import load_campaign, save_campaign
    from solo_ops.session.links import new_links

    start(runner, tmp_path)
    path = tmp_path / "Gallowdark.json"
    campaign = load_campaign(path, "Gallowdark")
    campaign.links = new_links(["Ana", "Ben"])
    save_campaign(path, campaign)
    shown = invoke(runner, "show", "Gallowdark", "--saves", str(tmp_path), "--json").stdout
    assert json.loads(shown)["links"] == {"id": campaign.links["id"], "host": True,
                                          "players": ["Ana", "Ben"]}
    tokens = [campaign.links["host"], *campaign.links["players"].values()]
    assert not any(token in shown for token in tokens)


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
    assert none.exit_code == 2 and none.stderr.count("\n") == 1
    # it names no option that was not given
    assert "survival: campaign 'Gallowdark' has no survival test waiting to be rolled: they " \
        "are rolled when a mission is recorded" in none.stderr
    assert "--mission-result:" not in none.stderr


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


def test_a_result_file_cannot_lose_more_wounds_than_a_model_has(runner: CliRunner,
                                                                  tmp_path: Path) -> None:
    """Sgt Kell has 8 wounds: a result file saying he lost 99 is one line naming the field,
    and nothing is written (it used to be taken, the notes then disagreeing with the wounds he
    starts with); all 8 are taken."""
    start(runner, tmp_path)
    _kell_refused_then_taken(runner, tmp_path, 99, "Sgt Kell (kell) has 8 wounds: it cannot "
                             "have lost 99", 8)


def _kell_refused_then_taken(runner: CliRunner, saves: Path, lost: int, why: str,
                             most: int) -> None:
    """A result file saying Sgt Kell lost ``lost`` wounds is one line (``why``, naming the
    field) and writes nothing; one saying ``most`` is taken."""
    path = saves / "Gallowdark.json"
    before = path.read_bytes()
    bad = write(saves / "bad.yaml", {"models": [{"id": "kell", "wounds_lost": lost}]})
    out = invoke(runner, "survival", "Gallowdark", "--mission-result", bad, "--seed", "1",
                 "--saves", str(saves))
    assert out.exit_code == 2 and out.stderr.count("\n") == 1
    assert f"bad.yaml: models[0].wounds_lost: {why}" in out.stderr
    assert path.read_bytes() == before
    taken = write(saves / "most.yaml", {"models": [{"id": "kell", "wounds_lost": most}]})
    out = invoke(runner, "survival", "Gallowdark", "--mission-result", taken, "--seed", "1",
                 "--saves", str(saves), "--json")
    assert out.exit_code == 0, out.output


def test_a_model_that_went_in_hurt_cannot_lose_more_than_it_had(runner: CliRunner,
                                                                 tmp_path: Path) -> None:
    """Sgt Kell (8 wounds) keeps 3 wounds not healed from mission 1 and goes into mission 2
    with 5: a result file saying he lost 7 there is one line naming the field (it used to be
    sealed into his history: "lost 7 wound(s) (went in hurt, with 5 of 8 wounds)"), and
    nothing is written; 5 are taken."""
    from solo_ops.campaign import MissionResult, ModelOutcome, record_mission
    from solo_ops.cli.campaign_files import campaign_path, change_campaign
    from solo_ops.core.dice import ScriptedDice

    start(runner, tmp_path)
    path = campaign_path("Gallowdark", tmp_path)
    change_campaign(path, "Gallowdark", lambda c: record_mission(  # a 6: not healed
        c, MissionResult(models=(ModelOutcome("kell", wounds_lost=3),), outcome="win"),
        ScriptedDice(faces=[6])))
    shown = json.loads(invoke(runner, "show", "Gallowdark", "--saves", str(tmp_path),
                              "--json").stdout)
    kell = next(m for s in shown["squads"] for m in s["models"] if m["id"] == "kell")
    assert kell["state"] == "injured"
    assert path == tmp_path / "Gallowdark.json"
    _kell_refused_then_taken(runner, tmp_path, 7, "Sgt Kell (kell) has 8 wounds, and went in "
                             "hurt with 5 of them (a wound not healed): it cannot have lost 7",
                             5)


def test_a_model_down_without_wounds_lost_lost_them_all(runner: CliRunner,
                                                        tmp_path: Path) -> None:
    """``{id: kell, down: true}`` records Sgt Kell (8 wounds) as having lost all 8, as a played
    game records a model taken down (it used to record 0: the chronicle's "wounds lost" then
    said he lost none); a loss given with it is kept."""
    start(runner, tmp_path)
    result_file = write(tmp_path / "r.yaml", {"models": [{"id": "kell", "down": True},
                                                         {"id": "rask", "down": True,
                                                          "wounds_lost": 5}]})
    out = invoke(runner, "survival", "Gallowdark", "--mission-result", result_file, "--seed",
                 "1", "--saves", str(tmp_path), "--json")
    assert out.exit_code == 0, out.output
    assert [(t["model"], t["wounds_lost"]) for t in json.loads(out.stdout)["tests"]] == [
        ("kell", 8), ("rask", 5)]
    shown = json.loads(invoke(runner, "show", "Gallowdark", "--saves", str(tmp_path),
                              "--json").stdout)
    assert [(m["id"], m["wounds_lost"], m["down"]) for m in shown["history"][0]["models"]] == [
        ("kell", 8, True), ("rask", 5, True)]


def test_down_with_no_wounds_lost_is_refused(runner: CliRunner, tmp_path: Path) -> None:
    """``down: true`` with ``wounds_lost: 0`` cannot both be true: one line naming the file and
    the field, exit 2, the campaign save untouched."""
    start(runner, tmp_path)
    before = (tmp_path / "Gallowdark.json").read_bytes()
    bad = write(tmp_path / "bad.yaml", {"models": [{"id": "kell", "down": True,
                                                    "wounds_lost": 0}]})
    out = invoke(runner, "survival", "Gallowdark", "--mission-result", bad, "--seed", "1",
                 "--saves", str(tmp_path))
    assert out.exit_code == 2 and out.stdout == ""
    assert out.stderr == (f"solo-ops: error: {bad}: models[0].wounds_lost: is 0, but the model "
                          "went down (down: true), which takes every wound it had: give the "
                          "wounds it lost, or leave wounds_lost out (all it went in with)\n")
    assert (tmp_path / "Gallowdark.json").read_bytes() == before


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


def test_the_same_result_file_is_not_recorded_twice(runner: CliRunner, tmp_path: Path) -> None:
    """Running ``survival --mission-result`` again with the same file (thinking the first run
    failed, say) would count the mission twice: it is refused, naming the earlier mission, and
    the save is left as it was; ``--again`` records it when the group really played another
    mission with exactly that result."""
    start(runner, tmp_path)
    first = {"mission": "Night raid", "outcome": "win", "models": [{"id": "rask",
                                                                    "wounds_lost": 1}]}
    result_file = write(tmp_path / "r.yaml", first)
    assert invoke(runner, "survival", "Gallowdark", "--mission-result", result_file,
                  "--seed", "1", "--saves", str(tmp_path)).exit_code == 0
    save = tmp_path / "Gallowdark.json"
    before = save.read_bytes()
    # the same content written differently (keys in another order, flow style) is the same
    reordered = tmp_path / "copy.yaml"
    reordered.write_text("models: [{wounds_lost: 1, id: rask}]\noutcome: win\n"
                         "mission: Night raid\n")
    from solo_ops.campaign import parse_mission_result, result_key

    two = [{"id": "rask", "wounds_lost": 1}, {"id": "kell", "down": True}]
    assert result_key(parse_mission_result({"models": two}, None)) == result_key(
        parse_mission_result({"models": two[::-1]}, None))  # the models in another order
    for path in (result_file, str(reordered)):
        out = invoke(runner, "survival", "Gallowdark", "--mission-result", path,
                     "--seed", "2", "--saves", str(tmp_path))
        assert out.exit_code == 2
        assert out.stderr.count("\n") == 1
        assert "already recorded as mission 1 (Night raid)" in out.stderr
        assert "--again" in out.stderr and path in out.stderr
        assert save.read_bytes() == before
    # a different result is a new mission
    other = write(tmp_path / "other.yaml", {**first, "outcome": "loss"})
    assert invoke(runner, "survival", "Gallowdark", "--mission-result", other,
                  "--seed", "3", "--saves", str(tmp_path)).exit_code == 0
    again = invoke(runner, "survival", "Gallowdark", "--mission-result", result_file,
                   "--again", "--seed", "4", "--saves", str(tmp_path), "--json")
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["mission"] == 3
    shown = json.loads(invoke(runner, "show", "Gallowdark", "--saves", str(tmp_path),
                              "--json").stdout)
    assert [h.get("outcome") for h in shown["history"] if "mission" in h] == [
        "win", "loss", "win"]


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


def _set_up_next(runner: CliRunner, saves: Path, name: str, number: int) -> Path:
    """``campaign play NAME`` sets up mission ``number`` (seed 3, the corridors, engagement 1)
    and is left waiting at "ready" (quit): the mission's save."""
    from solo_ops.cli import main

    played = runner.invoke(main, ["campaign", "play", name, "--seed", "3", "--board",
                                  "gallowdark-corridors", "--engagement", "1", "--saves",
                                  str(saves), "--answer", "quit"])
    assert played.exit_code == 0, played.output
    save = saves / f"{name}-missions" / f"mission-{number}.save.json"
    assert save.is_file()
    return save


def test_set_up_options_on_a_mission_in_progress_are_said_to_be_ignored(
        runner: CliRunner, tmp_path: Path) -> None:
    """The mission in progress goes on as it was set up: options that would set up another
    (--edition, --engagement, --seed ...) are named as ignored, not silently dropped."""
    from solo_ops.cli import main

    start(runner, tmp_path, "--target-win", "off")
    _set_up_next(runner, tmp_path, "Gallowdark", 1)
    again = runner.invoke(main, ["campaign", "play", "Gallowdark", "--saves", str(tmp_path),
                                 "--edition", "kt2018", "--engagement", "2", "--answer",
                                 "quit"])
    assert again.exit_code == 0, again.output
    assert ("Mission 1 is in progress and goes on as it was set up: --edition, --engagement "
            "are for a new mission (ignored; --new starts it afresh while nobody is hurt)."
            ) in again.stdout
    quiet = runner.invoke(main, ["campaign", "play", "Gallowdark", "--saves", str(tmp_path),
                                 "--answer", "quit"])
    assert "goes on as it was set up" not in quiet.stdout


def test_a_recruit_waits_while_a_mission_is_set_up(runner: CliRunner, tmp_path: Path) -> None:
    """A recruit added while ``campaign play`` had mission 2 set up was recorded as having
    fought it (the squads had been deployed without it). Now it is refused in one line, exit
    2, the campaign save untouched; once that mission's files are moved aside, it joins.
    (No target win chance: the mission is set up without a proposal's simulated missions.)"""

    start(runner, tmp_path, "--target-win", "off")
    _kill(runner, tmp_path, "vale")
    save = _set_up_next(runner, tmp_path, "Gallowdark", 2)
    campaign = tmp_path / "Gallowdark.json"
    before = campaign.read_bytes()
    recruit = write(tmp_path / "recruit.yaml", {
        "id": "nix", "name": "Trooper Nix",
        "profile": {"movement": 6, "toughness": 3, "wounds": 7, "save": 5,
                    "weapons": [{"name": "lasgun", "type": "rapid", "range": 24}]}})
    out = invoke(runner, "replace", "Gallowdark", "--player", "Ana", "--model", "vale",
                 "--with", recruit, "--saves", str(tmp_path))
    assert out.exit_code == 2 and out.stdout == "" and out.stderr.count("\n") == 1
    assert (f"mission 2 of campaign Gallowdark is set up with the squads as they were "
            f"({save}): the recruit joins once it is recorded") in out.stderr
    assert campaign.read_bytes() == before
    aside = tmp_path / "aside"
    aside.mkdir()
    for path in save.parent.glob("mission-2*"):
        path.rename(aside / path.name)
    out = invoke(runner, "replace", "Gallowdark", "--player", "Ana", "--model", "vale",
                 "--with", recruit, "--saves", str(tmp_path))
    assert out.exit_code == 0, out.output


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
    host = write(tmp_path / "host-squad.yaml", {
        "player": "host", "models": [{"id": "x", "profile": {"movement": 6, "save": 4,
                                                            "wounds": 8}}]})
    taken = invoke(runner, "new", "C", "--squad", host, "--saves", str(tmp_path))
    assert taken.exit_code == 2 and taken.stderr.strip().splitlines() == [
        f"solo-ops: error: {host}: player: 'host' is the name of the host's link in a served "
        "game; choose another name"]


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


def test_a_schema_version_written_as_text_is_named(runner: CliRunner, tmp_path: Path) -> None:
    """A campaign save whose ``schema_version`` is the text ``"4"`` is refused in one line
    saying so (it used to say "no schema_version", as if the key were missing); the file is
    left as it was."""
    start(runner, tmp_path)
    path = tmp_path / "Gallowdark.json"
    data = json.loads(path.read_text())
    data["schema_version"] = str(data["schema_version"])
    path.write_text(json.dumps(data))
    before = path.read_bytes()
    out = invoke(runner, "show", "Gallowdark", "--saves", str(tmp_path))
    assert out.exit_code == 2 and out.stdout == ""
    assert out.stderr == (f"solo-ops: error: {path} is damaged (schema_version must be a whole "
                          f"number, got '{SCHEMA_VERSION}'); no backup exists\n")
    assert path.read_bytes() == before


def test_valid_json_with_bad_fields_names_the_field(runner: CliRunner, tmp_path: Path) -> None:
    start(runner, tmp_path)
    path = tmp_path / "Gallowdark.json"
    data = json.loads(path.read_text())
    data["squads"][0]["models"][0]["state"] = "sleeping"
    path.write_text(json.dumps(data))
    out = invoke(runner, "show", "Gallowdark", "--saves", str(tmp_path))
    assert out.exit_code == 2  # the seal finds the edit first
    assert "squads[0].models[0].state: was edited after it was saved" in out.stderr
    path.write_text(json.dumps(sealed(data, SEAL_DEPTH)))  # a forger with the source code
    out = invoke(runner, "show", "Gallowdark", "--saves", str(tmp_path))
    assert out.exit_code == 2 and out.stderr.count("\n") == 1
    assert "squads[0].models[0].state: unknown value 'sleeping'" in out.stderr


def test_settings_options_are_saved(runner: CliRunner, tmp_path: Path) -> None:
    data = start(runner, tmp_path, "--down-failure", "injured", "--wounded-failure", "none",
                 "--injured-failure", "play", "--default-toughness", "4", "--target-win",
                 "40%")
    assert data["settings"] == {"down_failure": "injured", "wounded_failure": "none",
                                "injured_failure": "play", "default_toughness": 4,
                                "target_win": 0.4}
    shown = invoke(runner, "show", "Gallowdark", "--saves", str(tmp_path))
    assert ("down → injured, wounded → none, injured again → play; default Toughness 4; "
            "target win chance 40%") in shown.stdout


def test_default_settings_carry_the_wound_and_aim_at_half(runner: CliRunner,
                                                          tmp_path: Path) -> None:
    data = start(runner, tmp_path)
    assert data["settings"] == {"down_failure": "fallen", "wounded_failure": "carry",
                                "injured_failure": "rest", "default_toughness": 3,
                                "target_win": 0.5}


@pytest.mark.parametrize(("given", "saved"), [("40%", 0.4), ("0.4", 0.4), ("65", 0.65),
                                              ("12.5%", 0.125), ("off", None)])
def test_target_win_is_a_chance(runner: CliRunner, tmp_path: Path, given: str,
                                saved: float | None) -> None:
    assert start(runner, tmp_path, "--target-win", given)["settings"]["target_win"] == saved


@pytest.mark.parametrize("given", ["0", "100%", "1.0", "-5%", "half", "150"])
def test_a_target_win_that_is_no_chance_is_one_line(runner: CliRunner, tmp_path: Path,
                                                    given: str) -> None:
    out = invoke(runner, "new", "C", "--squad", VESPER, "--saves", str(tmp_path),
                 "--target-win", given)
    assert out.exit_code == 2 and "--target-win" in out.stderr
    assert not (tmp_path / "C.json").exists()


def test_difficulty_and_target_win_are_one_choice(runner: CliRunner, tmp_path: Path) -> None:
    out = invoke(runner, "new", "C", "--squad", VESPER, "--saves", str(tmp_path),
                 "--target-win", "40%", "--difficulty", "hard")
    assert out.exit_code == 2 and "not both" in out.stderr
    data = start(runner, tmp_path, "--difficulty", "hard")
    assert data["settings"]["difficulty"] == "hard" and data["settings"]["target_win"] is None


def test_a_result_file_is_refused_while_the_mission_is_set_up_with_solo_ops(
        runner: CliRunner, tmp_path: Path) -> None:
    """A mission ``campaign play`` has set up (or is playing) is not recorded over by a result
    file: its game would be thrown away when it ends ("Mission 1 was already recorded", no
    survival test for what happened). One line, exit 2, the campaign save untouched; once the
    mission's files are moved aside, the result file is recorded."""
    from solo_ops.cli import main

    made = invoke(runner, "new", "Duo", "--squad", VESPER, "--target-win", "off",
                  "--saves", str(tmp_path))
    assert made.exit_code == 0, made.output
    save = _set_up_next(runner, tmp_path, "Duo", 1)
    campaign = tmp_path / "Duo.json"
    before = campaign.read_bytes()
    result_file = write(tmp_path / "result.yaml", {"mission": "Paper raid", "outcome": "win"})
    out = invoke(runner, "survival", "Duo", "--mission-result", result_file, "--seed", "1",
                 "--saves", str(tmp_path))
    assert out.exit_code == 2 and out.stdout == ""
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    assert (f"mission 1 of campaign Duo is set up to be played with solo-ops ({save}): go on "
            "with `solo-ops campaign play Duo`") in out.stderr
    assert campaign.read_bytes() == before
    aside = tmp_path / "aside"
    aside.mkdir()
    for path in save.parent.glob("mission-1*"):
        path.rename(aside / path.name)
    out = invoke(runner, "survival", "Duo", "--mission-result", result_file, "--seed", "1",
                 "--saves", str(tmp_path), "--json")
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["mission"] == 1
    # `play --resume` on that mission's save (now recorded) says so, and sets nothing up
    for path in aside.glob("mission-1*"):
        path.rename(save.parent / path.name)
    recorded = campaign.read_bytes()
    resumed = runner.invoke(main, ["play", "--resume", str(save)])
    assert resumed.exit_code == 0, resumed.output
    assert resumed.stdout.strip() == (
        f"{save} is mission 1 of campaign Duo, which has ended and is recorded; nothing was "
        f"changed (`solo-ops campaign show Duo --saves {tmp_path}` tells the campaign so far, "
        f"`solo-ops campaign play Duo --saves {tmp_path}` goes on to mission 2)")
    assert campaign.read_bytes() == recorded
    assert not (save.parent / "mission-2.save.json").exists()
