"""A campaign mission quit at its first question has begun: the engine's first steps (the
initiative, the enemy's first activations) are played and saved, counters may have been seen.
``campaign play`` goes on with it and never sets it up again (``level N`` / ``enemy NAME``
would have thrown away what was played: a play-tester lost a turning point and Medic Oro's
wounds that way). The rating's missions are fixed results (tests/support/proposals.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from solo_ops.cli import main
from tests.support.paths import SCENARIOS
from tests.support.proposals import fake_missions


def test_a_mission_quit_at_its_first_question_goes_on_and_keeps_its_files(
        runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake_missions(monkeypatch, lambda enemy, level: 0.5)
    saves = tmp_path / "saves"
    made = runner.invoke(main, ["campaign", "new", "Vesper", "--squad",
                                str(SCENARIOS / "squads" / "vesper.yaml"), "--saves",
                                str(saves), "--target-win", "50%"])
    assert made.exit_code == 0, made.output
    play = ["campaign", "play", "Vesper", "--saves", str(saves)]
    first = runner.invoke(main, [*play, "--seed", "7", "--answer", "ready", "--answer", "quit"])
    assert first.exit_code == 0, first.output
    folder = saves / "Vesper-missions"
    save, log = folder / "mission-1.save.json", folder / "mission-1.log.jsonl"
    played = json.loads(save.read_text(encoding="utf-8"))["actions"]
    assert played and {a["type"] for a in played} == {"engine"}  # no answer of the players yet
    log_before = log.read_bytes()
    second = runner.invoke(main, [*play, "--answer", "level 1", "--answer", "quit"])
    assert second.exit_code == 0, second.output
    assert "Campaign Vesper: going on with mission 1" in second.stdout
    assert "set up and waiting" not in second.stdout
    assert "The group's choice" not in second.stdout
    # `level 1` is answered for what it is, not as an operative's name
    assert ("✗ mission 1 has begun, so its threat stands; to set it up afresh with another, "
            "quit and add --new (its files are moved aside)") in second.stdout
    assert "no operative called 'level'" not in second.stdout
    # nothing played was thrown away: the same steps, the log as it was
    assert json.loads(save.read_text(encoding="utf-8"))["actions"] == played
    assert log.read_bytes() == log_before


def test_a_served_mission_begun_at_ready_opens_as_a_mission_after_a_restart(
        tmp_path: Path) -> None:
    """``campaign serve``: everyone ready, the engine's first steps played, the server stops
    before any player answers; opened again it is the mission under way, not its set-up
    (whose ``next`` with a level would set the mission up again)."""
    from solo_ops.web.app import create_app
    from solo_ops.web.campaign import ROUTES
    from tests.support.api import ApiClient
    from tests.support.campaign_desk import new_campaign, open_desk

    saves = new_campaign(tmp_path)
    desk = open_desk(saves)
    with ApiClient(create_app(None, desk=desk, extra=ROUTES), "http://127.0.0.1:8765") as c:
        c.post("/api/campaign", json={"do": "next"})
        assert c.post("/api/campaign", json={"do": "ready"}).json()["phase"] == "mission"
    desk.close()
    save = saves / "Vesper-missions" / "mission-1.save.json"
    played = json.loads(save.read_text(encoding="utf-8"))["actions"]
    assert played and {a["type"] for a in played} == {"engine"}
    again = open_desk(saves)
    try:
        assert again.phase == "mission"
    finally:
        again.close()
    assert json.loads(save.read_text(encoding="utf-8"))["actions"] == played
