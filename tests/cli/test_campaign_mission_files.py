"""A campaign's mission files through the real commands: a mission save copied in from
another campaign is refused, and ``replay`` finds a mission's save beside its event log."""

from __future__ import annotations

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
