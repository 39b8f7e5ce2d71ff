"""``campaign play`` at the terminal with a target win chance: the next mission proposed with
its interval, ``level N`` to play another, a model starting hurt said before the first turn,
the autopilot playing it out, and ``campaign show`` keeping the prediction beside the result.
The rating's missions are fixed results (tests/support/proposals.py); the mission itself is
real."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from solo_ops.campaign import MissionResult, ModelOutcome, record_mission
from solo_ops.cli import main
from solo_ops.cli.campaign_files import campaign_path, change_campaign, load_campaign
from solo_ops.core.dice import ScriptedDice
from tests.support.paths import SCENARIOS
from tests.support.proposals import fake_missions

RATES = {1: 0.875, 2: 0.625, 3: 0.5, 4: 0.375, 5: 0.25, 6: 0.125}


def test_propose_choose_play_and_show(runner: CliRunner, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    fake_missions(monkeypatch, lambda enemy, level: RATES[level])
    saves = tmp_path / "saves"
    made = runner.invoke(main, ["campaign", "new", "Vesper", "--squad",
                                str(SCENARIOS / "squads" / "vesper.yaml"), "--saves",
                                str(saves), "--target-win", "50%"])
    assert made.exit_code == 0, made.output
    path = campaign_path("Vesper", saves)
    change_campaign(path, "Vesper", lambda c: record_mission(  # Kell keeps 3 wounds
        c, MissionResult(models=(ModelOutcome("kell", wounds_lost=3),), outcome="win"),
        ScriptedDice(faces=[6])))
    play = ["campaign", "play", "Vesper", "--saves", str(saves)]
    first = runner.invoke(main, [*play, "--seed", "7", "--board", "gallowdark-corridors",
                                 "--answer", "level 9", "--answer", "level 2", "--answer",
                                 "quit"])
    assert first.exit_code == 0, first.output
    out = first.stdout
    # from level 3 (50%: on the target) the dice's enemy is kept, measured to the budget
    assert ("Proposed: ork-mob at level 3: you win 50% (95% interval 38-62%, rated on 64 "
            "simulated missions); target 50%.") in out
    assert "for another threat type level N (1-6) or enemy NAME" in out
    assert "✗ level 9: the engagement levels are 1 to 6" in out
    assert ("The group's choice: ork-mob at level 2: you win 63% (95% interval 50-73%, "
            "rated on 64 simulated missions); target 50%.") in out
    assert out.count("Sgt Kell (kell) starts hurt: 5 of 8 wounds (a wound not healed).") == 2
    assert out.count("kell (1.8, 10.8) (hurt: 5/8 wounds)") == 2
    threat = load_campaign(path, "Vesper").threat
    assert threat is not None and (threat["mission"], threat["level"], threat["by"]) == (
        2, 2, "group")
    assert threat["proposed"]["level"] == 3 and threat["asked"]["board"] == \
        "gallowdark-corridors"
    # the save keeps the set-up mission's seed; what players are shown never holds it (with
    # the mission file it would place every hidden counter and roll every die to come)
    assert threat["seed"] == 7
    live = json.loads(runner.invoke(main, ["campaign", "show", "Vesper", "--saves",
                                           str(saves), "--json"]).stdout)["threat"]
    assert "seed" not in live and (live["mission"], live["level"]) == (2, 2)
    # the table set up and waiting: the autopilot accepts it and plays it out
    second = runner.invoke(main, [*play, "--autopilot", "objective"])
    assert second.exit_code == 0, second.output
    assert "The autopilot (objective) played the mission out" in second.stdout
    assert ("Threat: ork-mob at level 2: you win 63% (95% interval 50-73%, rated on 64 "
            "simulated missions); target 50% (the group's choice)") in second.stdout
    assert "Sgt Kell (kell, Ana) " in second.stdout  # tested again: went in hurt
    assert "(went in hurt, with 5 of 8 wounds)" in second.stdout
    shown = json.loads(runner.invoke(main, ["campaign", "show", "Vesper", "--saves",
                                            str(saves), "--json"]).stdout)
    record = shown["history"][-1]
    assert record["mission"] == 2 and record["threat"]["predicted"]["win_rate"] == 0.625
    assert record["outcome"] in ("win", "loss", "draw")
    assert "threat" not in shown  # the next mission is not set up yet
    calibration = shown["calibration"]
    assert calibration["missions"] == 1 and calibration["expected_wins"] == 0.625
    assert calibration["won"] == (1 if record["outcome"] == "win" else 0)
    assert calibration["brier"] == pytest.approx((0.625 - calibration["won"]) ** 2, abs=1e-4)
    text = runner.invoke(main, ["campaign", "show", "Vesper", "--saves", str(saves)]).stdout
    assert (f"threat: ork-mob at level 2: you win 63% (95% interval 50-73%, rated on 64 "
            f"simulated missions); target 50% — result: {record['outcome']}") in text
    assert "Predictions: 1 mission(s), 0.6 win(s) expected" in text
