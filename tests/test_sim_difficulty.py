"""Difficulty words: the level search (solo_ops.sim.difficulty), ``new --difficulty`` and the
campaign's difficulty setting."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from solo_ops.campaign import CampaignSettings
from solo_ops.cli import main
from solo_ops.io.scenario import load_scenario
from solo_ops.sim import difficulty, rating, sequential
from tests.conftest import SCENARIOS
from tests.test_play_e2e import small_scenario


def fake_runs(monkeypatch: pytest.MonkeyPatch, rates: dict[int, float]) -> list[int]:
    """Replace the missions by fixed results per level: of every 20 missions of a level (by
    index), the first ``round(20 * rate)`` are wins, so each look's win rate is the level's
    rate whenever the look is a multiple of 20 and close to it otherwise. Returns the levels
    rated, in the order first asked."""
    asked: list[int] = []

    class Runner:
        def __init__(self, scenario: Any, *, jobs: int = 1, executor: Any = None) -> None:
            pass

        def __enter__(self) -> Runner:
            return self

        def __exit__(self, *exc: object) -> None:
            pass

        def play(self, todo: Any, progress: Any = None, finished: Any = None
                 ) -> list[rating.MissionResult]:
            out = []
            for level, i, seed, _ in todo:
                if level not in asked:
                    asked.append(level)
                win = i % 20 < round(20 * rates[level])
                out.append(rating.MissionResult(i, seed, level, "win" if win else "loss", 0,
                                                0, 0, 4, 9))
            return out

    monkeypatch.setattr(rating, "Runner", Runner)
    return asked


@pytest.mark.parametrize(("word", "level", "rated"), [
    ("easy", 1, [1]),  # 50% at level 1 is clearly under 80%: nothing higher can be nearer
    ("normal", 2, [1, 2]),  # 95%, then 55%: clearly nearer
    ("hard", 3, [1, 2, 3, 4]),  # 45% at 3, then 15% at 4: |45-40| < |15-40|, certain
    ("brutal", 6, [1, 2, 3, 4, 5, 6]),  # still 30% at 6: the hardest there is
])
def test_the_level_nearest_the_target_stopping_once_under_it(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, word: str, level: int,
        rated: list[int]) -> None:
    rates = {1: 0.50, 2: 0.55, 3: 0.45, 4: 0.15, 5: 0.30, 6: 0.30}
    if word != "easy":
        rates = {1: 0.95, 2: 0.55, 3: 0.45, 4: 0.15, 5: 0.30, 6: 0.30}
    if word == "brutal":
        rates = {1: 1.0, 2: 0.9, 3: 0.8, 4: 0.7, 5: 0.6, 6: 0.30}
    asked = fake_runs(monkeypatch, rates)
    scenario = load_scenario(small_scenario(tmp_path))
    found = difficulty.choose_level(scenario, word, missions=200, seed=1)
    assert found.level == level
    assert asked == rated
    n = found.summary["missions"]
    assert n in sequential.looks(200)
    wins = sum(i % 20 < round(20 * rates[level]) for i in range(n))
    z = sequential.z_for(len(sequential.looks(200)))
    lo, hi = rating.wilson(wins, n, z)
    assert found.summary["win_rate_ci95"] == [round(lo, 4), round(hi, 4)]
    assert found.line().startswith(f"rated: you win {100 * wins / n:.0f}% ± "
                                   f"{100 * (hi - lo) / 2:.0f}% ({n} simulated missions at level "
                                   f"{level}")


def test_level_one_under_the_target_is_known_at_the_first_look(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """0 wins in 16: the interval [0, 0.32] (z of six looks) is wholly under 60%."""
    fake_runs(monkeypatch, {lv: 0.0 for lv in range(1, 7)})
    scenario = load_scenario(small_scenario(tmp_path))
    found = difficulty.choose_level(scenario, "normal", missions=96, seed=1)
    assert found.level == 1 and found.missions == 16 and found.rated.keys() == {1}


def test_a_tie_goes_to_the_easier_level(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """70% and 50% around 60%: never apart, so both are played to their last look (or within
    ±8 points) and the tie goes to the easier."""
    fake_runs(monkeypatch, {1: 0.70, 2: 0.50})
    scenario = load_scenario(small_scenario(tmp_path))
    found = difficulty.choose_level(scenario, "normal", missions=40, seed=1)
    assert found.level == 1
    assert found.rated[1]["missions"] == found.rated[2]["missions"] == 40


def test_new_with_a_difficulty_writes_the_rated_level_and_says_so(tmp_path: Path) -> None:
    out = tmp_path / "enc.yaml"
    result = CliRunner().invoke(main, ["new", "--seed", "3", "--board", "gallowdark-cloister",
                                       "--difficulty", "brutal", "--rate-missions", "4",
                                       "--out", str(out), "--json"])
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    rated = doc["rating"]
    assert rated["difficulty"] == "brutal" and rated["target"] == 0.2
    assert doc["engagement"] == rated["level"] == yaml.safe_load(out.read_text())["engagement"]
    assert rated["missions"] == 4
    # the level chosen is the nearest of those rated to 20%, the easier on a tie
    levels = {int(k): v for k, v in rated["levels"].items()}
    assert rated["level"] == min(levels, key=lambda k: (abs(levels[k] - 0.2), k))
    assert any(line.startswith(f"Engagement level {rated['level']} (brutal)") and
               "rated: you win" in line for line in doc["briefing"])
    both = CliRunner().invoke(main, ["new", "--difficulty", "easy", "--engagement", "2",
                                     "--out", str(tmp_path / "x.yaml")])
    assert both.exit_code == 2 and "not both" in both.stderr


def test_campaign_difficulty_is_saved_and_rates_the_next_mission(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert CampaignSettings.from_dict({"difficulty": "hard"}).difficulty == "hard"
    assert "difficulty" not in CampaignSettings().to_dict()
    runner = CliRunner()
    saves = tmp_path / "saves"
    made = runner.invoke(main, ["campaign", "new", "Rated", "--squad",
                                str(SCENARIOS / "squads" / "vesper.yaml"), "--difficulty",
                                "hard", "--saves", str(saves), "--json"])
    assert made.exit_code == 0, made.stderr
    assert json.loads(made.stdout)["settings"]["difficulty"] == "hard"
    from solo_ops.campaign import Campaign
    from solo_ops.cli import campaign as cli_campaign

    current = Campaign.from_dict(json.loads((saves / "Rated.json").read_text()))
    asked = fake_runs(monkeypatch, {1: 0.9, 2: 0.5, 3: 0.35, 4: 0.1, 5: 0.0, 6: 0.0})
    files = cli_campaign.mission_paths(saves / "Rated.json", 1)
    doc, notes = cli_campaign._generate_mission(current, files, 1, 5, "gallowdark-cloister",
                                                None, None, None)
    assert asked == [1, 2, 3] and doc["engagement"] == 3
    assert any("Engagement level 3 (hard)" in line for line in notes)
    assert yaml.safe_load(files["scenario"].read_text().split("\n", 1)[1])["engagement"] == 3
