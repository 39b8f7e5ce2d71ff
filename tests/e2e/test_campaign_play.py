"""``solo-ops campaign play``: a three-mission co-op campaign through the real command, as the
README tells players to run it, with the squads' state carried from mission to mission."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.support.paths import ROOT
from tests.support.players import cli_here

SQUADS = [ROOT / "scenarios" / "squads" / "vesper.yaml",
          ROOT / "scenarios" / "squads" / "ashen-blades.yaml"]
IDS = ["kell", "rask", "vale", "oro", "corvin", "idris", "tam"]


def solo_ops(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``solo-ops ARGS`` in ``cwd``: the command group itself, run in this process (what the
    commands do is under test, not their processes; tests/e2e/test_play.py starts real
    processes)."""
    return cli_here(*args, cwd=cwd)


def answers_file(folder: Path) -> Path:
    """Every player activates each operative in turn and reports it did nothing. Answers
    naming an operative that is not ready are refused and the next line is read, which is
    what makes one file work whatever the turn order turns out to be."""
    lines = ["ready"]  # the set-up is on the table
    for _ in range(120):
        for model in IDS:  # "keep": a CP re-roll question, "auto all": a fight's die
            lines += [model, "keep", "auto all", "done", "keep", "auto all"]  # (or refused)
    path = folder / "answers.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_three_mission_coop_campaign(tmp_path: Path) -> None:
    made = solo_ops("campaign", "new", "Vesper", *[a for s in SQUADS for a in ("--squad", str(s))],
                    "--target-win", "off", "--json", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert [s["player"] for s in json.loads(made.stdout)["squads"]] == ["Ana", "Ben"]
    answers = answers_file(tmp_path)
    boards = ["gallowdark-corridors", "volkus-stronghold", "crypt-of-cynosure"]
    for number, board in enumerate(boards, start=1):
        played = solo_ops("campaign", "play", "Vesper", "--seed", str(40 + number),
                          "--board", board, "--engagement", "1", "--answers", str(answers),
                          cwd=tmp_path)
        assert played.returncode == 0, played.stderr
        assert "After-action report" in played.stdout
        assert f"Mission {number}:" in played.stdout
        folder = tmp_path / "campaign_saves" / "Vesper-missions"
        assert (folder / f"mission-{number}.png").stat().st_size > 0
        assert (folder / f"mission-{number}.save.json").exists()
        # every die of the mission is in its event log
        log = [json.loads(line) for line in
               (folder / f"mission-{number}.log.jsonl").read_text().splitlines()]
        assert log[0]["kind"] and all("rolls" in r for r in log[1:])
    shown = solo_ops("campaign", "show", "Vesper", "--json", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    data = json.loads(shown.stdout)
    assert data["missions_played"] == 3
    assert len(data["history"]) == 3
    assert [h["mission"] for h in data["history"]] == [1, 2, 3]
    # each mission is called what the chronicle calls it (its mission on its board), once:
    # never "Mission 1: Vesper: mission 1"
    for h in data["history"]:
        assert h["name"] == h["title"] and " on " in h["title"], h
        assert not h["name"].startswith("Vesper: mission"), h
    # a fourth `play` starts mission 4, it does not replay mission 3
    assert not (tmp_path / "campaign_saves" / "Vesper-missions" / "mission-4.yaml").exists()


def test_play_unknown_campaign_is_one_line(tmp_path: Path) -> None:
    result = solo_ops("campaign", "play", "Nobody", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "no campaign 'Nobody'" in result.stderr


def test_interrupted_mission_goes_on_where_it_stopped(tmp_path: Path) -> None:
    made = solo_ops("campaign", "new", "Solo", "--squad", str(SQUADS[0]), "--target-win", "off",
                    cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    first = solo_ops("campaign", "play", "Solo", "--seed", "3", "--board",
                     "gallowdark-corridors", "--engagement", "1", "--answer", "ready",
                     "--answer", "kell",
                     "--answer", "done", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    # one way to go on, said once (issue 28 item 8)
    assert "Continue with `solo-ops campaign play Solo`." in first.stdout
    assert "play --resume" not in first.stdout
    save = tmp_path / "campaign_saves" / "Solo-missions" / "mission-1.save.json"
    steps_before = len(json.loads(save.read_text())["actions"])
    again = solo_ops("campaign", "play", "Solo", "--answer", "rask", "--answer", "done",
                     cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "going on with mission 1" in again.stdout
    assert len(json.loads(save.read_text())["actions"]) > steps_before
    shown = json.loads(solo_ops("campaign", "show", "Solo", "--json", cwd=tmp_path).stdout)
    assert shown["missions_played"] == 0
