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

import pytest

from tests.support.log_audit import table_audit
from tests.support.players import cli_here


@pytest.fixture(scope="module")
def encounter(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("enc")
    run = cli_here("new", "--seed", "490892361", "--out", str(folder / "enc.yaml"), "--picture",
              str(folder / "enc.png"), cwd=folder)
    assert run.returncode == 0, run.stderr
    return folder / "enc.yaml"


@pytest.mark.parametrize("policy", ["objective", "cautious", "aggressive"])
def test_the_seed_490892361_mission_puts_no_base_on_another(encounter: Path, policy: str
                                                             ) -> None:
    audit = table_audit(encounter, 490892361, policy)
    assert audit.steps > 20 and audit.bases > 200 and audit.moves > 5
    assert audit.problems == []
