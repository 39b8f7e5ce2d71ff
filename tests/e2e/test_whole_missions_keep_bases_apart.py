"""Whole missions, played by the autopilots to their end, can be set up on a real table:
no two bases ever overlap, no base stands in terrain or off the board, and every enemy move costs
what its route costs (:mod:`tests.support.log_audit` audits every step of the log).

001 puts models on the killzone and no rule lets two stand in one place; 002 Gallowdark
"Distances not measured through walls – shortest route instead." The cases: the encounter of
``solo-ops new --seed 490892361`` under each policy (a fallen carrier's friend once lay under
him, a berserker once ended on both), and a move after one that stopped short, which starts
where the model stands. Readings: docs/rules.md, "Bases on the table: the one placement
rule".
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support.log_audit import SCENARIOS, table_audit
from tests.support.players import cli


@pytest.fixture(scope="module")
def encounter(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("enc")
    run = cli("new", "--seed", "490892361", "--out", str(folder / "enc.yaml"), "--picture",
              str(folder / "enc.png"), cwd=folder)
    assert run.returncode == 0, run.stderr
    return folder / "enc.yaml"


@pytest.mark.parametrize("policy", ["objective", "cautious", "aggressive"])
def test_the_seed_490892361_mission_puts_no_base_on_another(encounter: Path, policy: str
                                                             ) -> None:
    audit = table_audit(encounter, 490892361, policy)
    assert audit.steps > 20 and audit.bases > 200 and audit.moves > 5
    assert audit.problems == []


def test_a_move_after_one_that_stopped_short_starts_where_the_model_stands(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Found by the table audit (seeds 1-20): gallowdark-night-raid, seed 11, the aggressive
    policy in Kill Team 2024. At step 39 stubber-gunner-11's Reposition stops at (4.0, 15.5),
    acolyte-8's base in the way; its Dash had been planned from the Reposition's planned end
    (3.75, 14.75). The Dash now walks from where the model stands: its route starts there, and
    its cost is that route's, within the Dash's 3"."""
    seen: list[dict[str, Any]] = []
    from tests.support import log_audit

    original = log_audit.check_move_costs

    def spy(game: Any, state: Any, record: dict[str, Any], audit: Any, doors: Any) -> None:
        if record["n"] == 39:
            seen.extend(e for e in record["events"] if e.get("type") == "moved"
                        and e.get("operative") == "stubber-gunner-11")
        original(game, state, record, audit, doors)

    monkeypatch.setattr(log_audit, "check_move_costs", spy)
    audit = table_audit(SCENARIOS / "gallowdark-night-raid.yaml", 11, "aggressive", "kt2024",
                        dice_scheme="splitmix64")  # the game the audit found (an older save's)
    assert audit.costs == [] and audit.overlaps == []
    reposition, dash = seen
    assert reposition["blocked_by"] == "acolyte-8's base is there"
    assert dash["how"] == "dash" and dash["from"] == reposition["to"] == [3.99, 15.51]
    assert dash["route"][0] == dash["from"] and dash["route"][-1] == dash["to"]
    assert dash["cost"] <= 3.0
    assert "where its last move stopped" in dash["note"]
