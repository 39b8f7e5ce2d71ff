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
from solo_ops.sim import difficulty, rating
from tests.conftest import SCENARIOS
from tests.test_play_e2e import small_scenario


def fake_runs(monkeypatch: pytest.MonkeyPatch, rates: dict[int, float]) -> list[int]:
    """Replace the simulation by fixed win rates per level; returns the levels rated."""
    asked: list[int] = []

    def run(scenario: Any, missions: int, seed: int, *, engagements: list[int], **_: Any
            ) -> list[rating.MissionResult]:
        level = engagements[0]
        asked.append(level)
        wins = round(rates[level] * missions)
        return [rating.MissionResult(i, i, level, "win" if i < wins else "loss", 0, 0, 0, 4, 9)
                for i in range(missions)]

    monkeypatch.setattr(rating, "run", run)
    return asked


@pytest.mark.parametrize(("word", "level", "rated"), [
    ("easy", 1, [1]),  # 70% at level 1 is already under 80%: nothing higher can be nearer
    ("normal", 2, [1, 2]),  # 70%, then 55%: |55-60| < |70-60|
    ("hard", 3, [1, 2, 3, 4]),  # 45% at 3, then 30% at 4: |45-40| < |30-40| -> 3
    ("brutal", 5, [1, 2, 3, 4, 5]),  # 30% at 4, 20% at 5 (exactly the target) -> 5
])
def test_the_level_nearest_the_target_stopping_once_under_it(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, word: str, level: int,
        rated: list[int]) -> None:
    rates = {1: 0.70, 2: 0.55, 3: 0.45, 4: 0.30, 5: 0.20, 6: 0.05}
    asked = fake_runs(monkeypatch, rates)
    scenario = load_scenario(small_scenario(tmp_path))
    found = difficulty.choose_level(scenario, word, missions=20, seed=1)
    assert found.level == level
    assert asked == rated
    assert found.summary["win_rate"] == rates[level]
    lo, hi = rating.wilson(round(rates[level] * 20), 20)
    assert found.line().startswith(f"rated: you win {100 * rates[level]:.0f}% ± "
                                   f"{100 * (hi - lo) / 2:.0f}% (20 simulated missions at level "
                                   f"{level}")


def test_a_tie_goes_to_the_easier_level(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    fake_runs(monkeypatch, {1: 0.70, 2: 0.50})
    scenario = load_scenario(small_scenario(tmp_path))
    assert difficulty.choose_level(scenario, "normal", missions=10, seed=1).level == 1


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
    from solo_ops.io.opening import mission_paths

    files = mission_paths(saves / "Rated.json", 1)
    doc, notes = cli_campaign._generate_mission(current, files, 1, 5, "gallowdark-cloister",
                                                None, None, None)
    assert asked == [1, 2, 3] and doc["engagement"] == 3
    assert any("Engagement level 3 (hard)" in line for line in notes)
    assert yaml.safe_load(files["scenario"].read_text().split("\n", 1)[1])["engagement"] == 3
