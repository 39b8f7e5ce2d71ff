"""A proposal is said once, the same way, wherever it is shown: the enemy and level, the win
chance rated for them with its 95% interval and the simulated missions *of theirs* it rests on,
the group's target apart — and, only in the briefing, what the whole rating cost (every
candidate's missions). A play-tester read "(64 simulated missions …)" beside "(96 simulated
missions)" and "Engagement level 2 (50% to win)" over a proposal rated 55%.

The proposal here rates three levels (the rating's missions are fixed results:
tests/support/proposals.py), so the chosen one rests on fewer missions than were played. At a
40% target, from level 3 (6 of 12): one level harder, level 4 (5 of 12) is still above the
target, level 5 (3 of 12) crosses it; levels 4 and 5 are compared (12 missions each, then 24:
their intervals still overlap) and level 4 is nearer (9 of 24, 2.5 points against 15). Its
look of 48 then gets the 4 missions left of the budget (64): level 4 rests on 28 missions,
11 wins, whose Wilson interval at z = 1.96 (the proposal's plain 95%) is 23.6-57.6%."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from solo_ops.cli import main
from solo_ops.cli.campaign_serve import threat_doc
from tests.support.paths import SCENARIOS
from tests.support.proposals import fake_missions

RATES = {1: 0.875, 2: 0.625, 3: 0.5, 4: 0.375, 5: 0.25, 6: 0.125}
STATEMENT = ("ork-mob at level 4: you win 39% (95% interval 24-58%, rated on 28 simulated "
             "missions); target 40%")


def _first_mission(runner: CliRunner, saves: list[str], *how: str) -> Any:
    """Campaign Vesper (a 40% target) and its first mission, an ork mob proposed on the
    corridors: ``how`` it is played (the autopilot, or answers)."""
    made = runner.invoke(main, ["campaign", "new", "Vesper", "--squad",
                                str(SCENARIOS / "squads" / "vesper.yaml"), "--target-win",
                                "40%", *saves])
    assert made.exit_code == 0, made.output
    played = runner.invoke(main, ["campaign", "play", "Vesper", "--seed", "7", "--board",
                                  "gallowdark-corridors", "--roster", "ork-mob", *how, *saves])
    assert played.exit_code == 0, played.output
    return played


def test_the_proposal_is_one_statement_everywhere(runner: CliRunner, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    batches = fake_missions(monkeypatch, lambda enemy, level: RATES[level])
    saves = ["--saves", str(tmp_path / "saves")]
    played = _first_mission(runner, saves, "--autopilot", "objective")
    assert [(level, n) for _, level, n in batches] == [(3, 12), (4, 12), (5, 12), (4, 12),
                                                       (5, 12), (4, 4)]
    out = played.stdout
    # the briefing: the level and its counters, the statement, what the rating cost in all
    briefing = next(line for line in out.splitlines() if "Engagement level" in line)
    assert briefing.startswith(f"• Engagement level 4: 8 hidden counters; proposed: "
                               f"{STATEMENT}; its win chance not yet known to ± 8 points when "
                               "the rating's budget ran out; the rating played 64 simulated "
                               "missions in all, over 3 candidates, in ")
    assert briefing.endswith(" s of CPU.")
    assert "to win)" not in out
    assert f"Proposed: {STATEMENT}." in out  # the set-up
    assert f"Threat: {STATEMENT}" in out  # the after-action report
    shown = runner.invoke(main, ["campaign", "show", "Vesper", *saves]).stdout
    assert f"threat: {STATEMENT} — result: " in shown
    record = json.loads(runner.invoke(main, ["campaign", "show", "Vesper", "--json",
                                             *saves]).stdout)["history"][-1]
    assert record["threat"]["predicted"]["missions"] == 28 and record["threat"]["played"] == 64
    assert threat_doc(record["threat"])["line"] == STATEMENT  # the page's set-up card
    chronicle = tmp_path / "chronicle.md"
    told = runner.invoke(main, ["campaign", "chronicle", "Vesper", "--out", str(chronicle),
                                *saves])
    assert told.exit_code == 0, told.output
    assert f"*{STATEMENT}.*" in chronicle.read_text()


def test_a_rating_stopped_by_ctrl_c_says_so_not_that_its_budget_ran_out(
        runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C during a proposal: the best so far is proposed, and the briefing (kept in the
    save, shown again by `campaign show` and the chronicle) says the rating was stopped, not
    that its budget ran out (a tester stopped one after 12 missions and read the latter)."""
    looks: list[int] = []

    def stop_at_the_second_look() -> None:
        looks.append(1)
        if len(looks) == 2:
            raise KeyboardInterrupt

    fake_missions(monkeypatch, lambda enemy, level: RATES[level],
                  during=stop_at_the_second_look)
    played = _first_mission(runner, ["--saves", str(tmp_path / "saves")], "--answer", "quit")
    assert "Rating stopped by Ctrl-C after 12 missions" in played.stderr
    briefing = next(line for line in played.stdout.splitlines() if "Engagement level" in line)
    assert ("its win chance not yet known to ± 8 points when the rating was stopped (Ctrl-C)"
            in briefing)
    assert "budget ran out" not in played.stdout
