"""``campaign rename``: a new id for a squad model. A campaign saved before ids had to be one
word and unique ignoring case (answers name models so) may hold an id no answer can name;
``campaign play`` refuses to set up a mission with it, naming the campaign file and the
command that mends it, and the rename changes the id everywhere the campaign names it."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from solo_ops.campaign import ModelOutcome, record_mission
from solo_ops.campaign.missions import MissionResult
from solo_ops.cli import main
from solo_ops.cli.campaign_files import load_campaign, save_campaign
from solo_ops.core.dice import ScriptedDice
from tests.support.paths import SCENARIOS

VESPER = str(SCENARIOS / "squads" / "vesper.yaml")


def _legacy(tmp_path: Path) -> Path:
    """Campaign C (Ana's Vesper) after one mission, its Sgt Kell then given the id ``Sgt
    Kell``, as a campaign saved before such ids were refused could hold."""
    saves = tmp_path / "saves"
    run = CliRunner().invoke(main, ["campaign", "new", "C", "--squad", VESPER, "--saves",
                                    str(saves), "--target-win", "off"])
    assert run.exit_code == 0, run.output
    path = saves / "C.json"
    campaign = load_campaign(path, "C")
    record_mission(campaign, MissionResult(models=(ModelOutcome("kell", wounds_lost=2),)),
                   ScriptedDice(faces=[1]))
    campaign.find("kell")[1].id = "Sgt Kell"
    for entry in campaign.history:
        for m in entry.get("models", []):
            m["id"] = "Sgt Kell" if m["id"] == "kell" else m["id"]
        for t in entry.get("survival_tests", []):
            t["model"] = "Sgt Kell" if t["model"] == "kell" else t["model"]
        entry["fought"] = ["Sgt Kell" if i == "kell" else i for i in entry.get("fought", [])]
    save_campaign(path, campaign)
    return path


def test_a_mission_waits_for_an_id_no_answer_can_name(tmp_path: Path) -> None:
    path = _legacy(tmp_path)
    before = path.read_bytes()
    run = CliRunner().invoke(main, ["campaign", "play", "C", "--saves", str(path.parent),
                                    "--answer", "quit"])
    assert run.exit_code == 2
    assert run.stderr.strip() == (
        f"solo-ops: error: {path}: id 'Sgt Kell' must be one word, without spaces or commas "
        "(answers name things by id, word by word): no answer could name that model in a "
        "mission; give it a new id first: solo-ops campaign rename C --model 'Sgt Kell' --to "
        "sgt-kell")
    assert path.read_bytes() == before


def test_rename_changes_the_id_everywhere_and_the_mission_plays(tmp_path: Path) -> None:
    path = _legacy(tmp_path)
    run = CliRunner().invoke(main, ["campaign", "rename", "C", "--saves", str(path.parent),
                                    "--model", "Sgt Kell", "--to", "sgt-kell"])
    assert run.exit_code == 0, run.output
    assert run.stdout.strip() == f"Sgt Kell is sgt-kell from now on. Saved to {path}."
    campaign = load_campaign(path, "C")
    assert campaign.find("sgt-kell")[1].name == "Sgt Kell"
    mission = campaign.history[0]
    assert "sgt-kell" in mission["fought"] and "Sgt Kell" not in mission["fought"]
    assert [t["model"] for t in mission["survival_tests"]] == ["sgt-kell"]
    assert campaign.history[-1] == {"event": "rename", "after_mission": 1, "old": "Sgt Kell",
                                    "new": "sgt-kell",
                                    "report": ["Sgt Kell (Sgt Kell) is sgt-kell from now on."]}
    played = CliRunner().invoke(main, ["campaign", "play", "C", "--saves", str(path.parent),
                                       "--answer", "quit"])
    assert played.exit_code == 0, played.output
    assert "Mission 2 is set up and saved" in played.stdout


def test_rename_refuses_an_id_taken_ignoring_case_or_not_one_word(tmp_path: Path) -> None:
    path = _legacy(tmp_path)
    before = path.read_bytes()
    for to, said in (("RASK", "model id 'RASK' is already used in the campaign as 'rask': ids "
                               "match ignoring case"),
                     ("sgt kell", "id 'sgt kell' must be one word"),
                     ):
        run = CliRunner().invoke(main, ["campaign", "rename", "C", "--saves", str(path.parent),
                                        "--model", "Sgt Kell", "--to", to])
        assert run.exit_code == 2 and said in run.stderr
        assert len(run.stderr.strip().splitlines()) == 1
    missing = CliRunner().invoke(main, ["campaign", "rename", "C", "--saves",
                                        str(path.parent), "--model", "nobody", "--to", "x"])
    assert missing.exit_code == 2 and "no model 'nobody' in campaign 'C'" in missing.stderr
    assert path.read_bytes() == before
