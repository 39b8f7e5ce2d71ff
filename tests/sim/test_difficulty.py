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
from tests.support.paths import SCENARIOS
from tests.support.players import small_scenario
from tests.support.proposals import FakeRunner, wins


def fake_runs(monkeypatch: pytest.MonkeyPatch, rates: dict[int, float]) -> list[int]:
    """Replace the missions by fixed results per level, spread evenly (the first ``n``
    missions of a level hold ``wins(n, rate)`` wins: tests/support/proposals.py), so every
    look (16, 24, 32, 48 ... of ``new --difficulty``, 12, 24, 48 ... of a proposal) sees its
    rate as nearly as its missions allow. Returns the levels rated, in the order first asked."""
    asked: list[int] = []

    def win(key: Any, i: int) -> bool:
        level = key[1] if isinstance(key, tuple) else key  # (enemy, level): a proposal
        if level not in asked:
            asked.append(level)
        return wins(i + 1, rates[level]) > wins(i, rates[level])

    monkeypatch.setattr(rating, "Runner", FakeRunner(win))
    return asked


@pytest.mark.parametrize(("word", "level", "rated", "rates"), [
    # 50% at level 1 is clearly under 80% at the first look: nothing higher can be nearer
    ("easy", 1, [1], {1: 0.5}),
    # 87.5%, then 50%: the crossing between 1 and 2; |50-60| < |87.5-60|
    ("normal", 2, [1, 2], {1: 0.875, 2: 0.5}),
    # 100%, 87.5%, 50% (still above 40%), then 12.5%: |50-40| < |12.5-40| -> 3
    ("hard", 3, [1, 2, 3, 4], {1: 1.0, 2: 0.875, 3: 0.5, 4: 0.125}),
    # still 37.5% at 6 (wholly above 20% once settled): the hardest there is
    ("brutal", 6, [1, 2, 3, 4, 5, 6], {1: 1.0, 2: 0.875, 3: 0.75, 4: 0.625, 5: 0.5, 6: 0.375}),
])
def test_the_level_nearest_the_target(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                      word: str, level: int, rated: list[int],
                                      rates: dict[int, float]) -> None:
    asked = fake_runs(monkeypatch, rates)
    scenario = load_scenario(small_scenario(tmp_path))
    found = difficulty.choose_level(scenario, word, missions=96, seed=1)
    assert found.level == level
    assert asked == rated
    n = found.summary["missions"]
    assert n in sequential.looks(96)
    z = sequential.z_for(len(sequential.looks(96)))
    lo, hi = rating.wilson(round(rates[level] * n), n, z)
    assert found.summary["win_rate"] == rates[level]
    assert found.summary["win_rate_ci95"] == [round(lo, 4), round(hi, 4)]
    assert found.line().startswith(f"rated: you win {100 * rates[level]:.0f}% ± "
                                   f"{100 * (hi - lo) / 2:.0f}% ({n} simulated missions at level "
                                   f"{level}")


def test_level_one_under_the_target_is_known_at_the_first_look(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """0 wins in 16: the interval [0, 0.30] (z of six looks) is wholly under 60%."""
    fake_runs(monkeypatch, {lv: 0.0 for lv in range(1, 7)})
    scenario = load_scenario(small_scenario(tmp_path))
    found = difficulty.choose_level(scenario, "normal", missions=96, seed=1)
    assert found.level == 1 and found.missions == 16 and found.rated.keys() == {1}


def test_a_tie_goes_to_the_easier_level(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """75% and 50% around a target of 62.5%: never apart in 16 missions (the most allowed),
    so the nearer by win rate is chosen, and on a tie the easier."""
    monkeypatch.setitem(difficulty.TARGETS, "normal", 0.625)
    fake_runs(monkeypatch, {1: 0.75, 2: 0.5})
    scenario = load_scenario(small_scenario(tmp_path))
    found = difficulty.choose_level(scenario, "normal", missions=16, seed=1)
    assert found.level == 1
    assert found.rated[1]["missions"] == found.rated[2]["missions"] == 16


def test_a_crossing_found_elsewhere_moves_the_search(monkeypatch: pytest.MonkeyPatch,
                                                     tmp_path: Path) -> None:
    """Level 1 at 62.5%; level 2 looks under 40% by its first 16 results only (5 wins): the
    crossing seems to lie between 1 and 2, neither certainly nearer, so both are refined, and
    at 32 missions level 2 (21 wins) is wholly above 40%: the search goes on to 3 (50%) and 4
    (12.5%), and 3 is nearer."""
    def run_rates(level: int, i: int) -> bool:
        if level == 2:  # 5 of the first 16 (31%), then every one
            return i < 5 or i >= 16
        return i % 8 < {1: 5, 3: 4, 4: 1}.get(level, 0)

    asked: list[int] = []

    def win(level: int, i: int) -> bool:
        if level not in asked:
            asked.append(level)
        return run_rates(level, i)

    monkeypatch.setattr(rating, "Runner", FakeRunner(win))
    found = difficulty.choose_level(load_scenario(small_scenario(tmp_path)), "hard",
                                    missions=96, seed=1)
    assert asked == [1, 2, 3, 4]
    assert found.level == 3  # 50% against 12.5%: |50-40| < |12.5-40|


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
    doc, notes, threat = cli_campaign.generate_mission(current, files, 1, 5,
                                                       "gallowdark-cloister", None, None, None)
    # 'hard' aims at 40% (the proposal of solo_ops.sim.proposal): from level 3 (4 of 12,
    # below 40%) down to level 2 (6 of 12): the crossing; after 24 missions each 3 is nearer
    # by win rate (8 of 24: |33.3-40| < |50-40|)
    assert asked == [3, 2] and doc["engagement"] == 3
    assert threat is not None and threat["target"] == 0.4 and threat["level"] == 3
    assert any(line.startswith("Engagement level 3: 6 hidden counters; proposed: ") and
               "target 40%" in line for line in notes)
    assert yaml.safe_load(files["scenario"].read_text().split("\n", 1)[1])["engagement"] == 3
