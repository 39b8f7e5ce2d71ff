"""A campaign's mission files through the real commands: a mission save copied in from
another campaign is refused, and ``replay`` finds a mission's save beside its event log."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from solo_ops.cli import main
from tests.support.paths import SCENARIOS

VESPER = str(SCENARIOS / "squads" / "vesper.yaml")


def _run(saves: Path, *args: str) -> tuple[int, str, str]:
    out = CliRunner().invoke(main, [*args, "--saves", str(saves)])
    return out.exit_code, out.stdout, out.stderr


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of campaign saves where campaign ``Alpha``'s mission 1 was played out by the
    autopilot (engagement 1, seed 3) and recorded, and campaign ``Bravo`` (the same squad) was
    started and has played nothing."""
    saves = tmp_path_factory.mktemp("campaigns")
    for name in ("Alpha", "Bravo"):
        code, _, err = _run(saves, "campaign", "new", name, "--squad", VESPER,
                            "--target-win", "off")
        assert code == 0, err
    code, _, err = _run(saves, "campaign", "play", "Alpha", "--autopilot", "objective",
                        "--engagement", "1", "--seed", "3")
    assert code == 0, err
    return saves


def test_a_mission_save_from_another_campaign_is_refused(played: Path, tmp_path: Path) -> None:
    """Alpha's ended mission 1, copied into Bravo's mission folder, is not recorded as Bravo's
    mission 1 (it used to be, Alpha's survival tests rolled for Bravo's models): one line
    naming the save and what is wrong, exit 2, and neither Bravo's save nor the copied files
    change."""
    saves = tmp_path / "saves"
    shutil.copytree(played, saves)
    folder = saves / "Bravo-missions"
    folder.mkdir()
    for suffix in (".save.json", ".log.jsonl", ".yaml"):
        shutil.copy(saves / "Alpha-missions" / f"mission-1{suffix}", folder)
    kept = {p: p.read_bytes() for p in [saves / "Bravo.json", *folder.iterdir()]}
    code, out, err = _run(saves, "campaign", "play", "Bravo")
    save = folder / "mission-1.save.json"
    assert (code, out) == (2, "")
    assert err == (f"solo-ops: error: {save}: is not mission 1 of campaign Bravo: its game is "
                   "'Alpha: mission 1', not 'Bravo: mission 1' (a save from another campaign, "
                   "or from another mission); nothing was recorded — put it back in its own "
                   "campaign's folder, or move it aside to set mission 1 up anew\n")
    assert {p: p.read_bytes() for p in kept} == kept
    assert sorted(p.name for p in folder.iterdir()) == [
        "mission-1.log.jsonl", "mission-1.save.json", "mission-1.yaml"]


def test_replay_finds_a_missions_save_beside_its_log(played: Path) -> None:
    """``replay mission-1.log.jsonl`` in a campaign's mission folder checks the log against
    ``mission-1.save.json`` beside it, as a game's log is checked against ``x.json`` (it used
    to find no save there and prove nothing)."""
    folder = played / "Alpha-missions"
    log, save = folder / "mission-1.log.jsonl", folder / "mission-1.save.json"
    out = CliRunner().invoke(main, ["replay", str(log), "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert (data["checked_against"], data["proven"], data["identical"]) == (str(save), True, True)
    text = CliRunner().invoke(main, ["replay", str(log)])
    assert text.exit_code == 0, text.output
    assert f"Every line is the one its save {save} recorded.\n" in text.stdout


def test_replay_without_the_missions_save_says_where_it_looked(played: Path,
                                                                tmp_path: Path) -> None:
    """With the save gone, the log is still replayed against the rules, and the line says
    which saves beside it were looked for."""
    log = tmp_path / "mission-1.log.jsonl"
    shutil.copy(played / "Alpha-missions" / "mission-1.log.jsonl", log)
    out = CliRunner().invoke(main, ["replay", str(log)])
    assert out.exit_code == 0, out.output
    assert ("(No save beside the log (mission-1.json or mission-1.save.json) to check it "
            "against: the dice and the rules agree with it, but only the save proves it is the "
            "log written at the table, whole; --save SAVE names it.)\n") in out.stdout
