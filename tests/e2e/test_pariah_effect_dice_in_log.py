"""A Pariah Nexus effect in force shows in the dice the event log records, for both sides,
played through the real ``solo-ops play`` command on the shipped scenario that has one.

004 Environment effect 3, Auto-reactive Foundations: "When making an Advance or charge roll,
roll one additional D6 and discard the highest result." So an Advance roll is 2D6 with the
higher die discarded (004 Advancing: "make an Advance roll by rolling a D6") and a charge roll
3D6 with the highest discarded (004 Charge Move: "make a charge roll by rolling 2D6").
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.support.paths import SCENARIOS
from tests.support.players import cli, write_answers

SCENARIO = SCENARIOS / "crypt-auto-reactive-foundations.yaml"

# Sgt Kell Advances; the Flayed One that charges Medic Oro next gets no Reaction from her.
ANSWERS = ["kell", "advance", "move 4,10", "done", "no"]


def _rolls(log: Path) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for line in log.read_text(encoding="utf-8").splitlines():
        out.extend(json.loads(line).get("rolls", []))
    return out


def test_advance_and_charge_rolls_in_the_log_discard_the_highest_die(tmp_path: Path) -> None:
    run = cli("play", str(SCENARIO), "--answers", str(write_answers(tmp_path, ANSWERS)),
              cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "✗" not in run.stdout  # every answer was taken
    assert "Effect in force — Auto-reactive Foundations" in run.stdout
    [log] = (tmp_path / "saves").glob("*.log.jsonl")
    rolls = _rolls(log)
    dice = {r["seq"]: r for r in rolls if "(Auto-reactive Foundations)" in r["purpose"]}
    totals = [r for r in rolls if r.get("ref") in dice]
    seen = {"Advance roll: Sgt Kell": 2, "charge roll: flayed-one-4": 3}
    for who, count in seen.items():
        [total] = [r for r in totals if r["purpose"].startswith(who)]
        faces = dice[total["ref"]]["faces"]
        assert len(faces) == count  # one additional D6
        assert total["value"] == sum(faces) - max(faces)  # the highest result discarded
        assert total["modifiers"][-1] == [
            "the highest die discarded: Auto-reactive Foundations", -max(faces)]
    # the player reads the same dice: Sgt Kell's 2D6 1, 2 keep the 1
    assert ("Sgt Kell's Advance roll: 2D6: 1, 2, the highest (2) discarded "
            "(Auto-reactive Foundations) = 1") in run.stdout
    assert ("flayed-one-4 rolls 4 for the charge (3D6: 3, 2, 2, the highest (3) discarded "
            "(Auto-reactive Foundations) = 4)") in run.stdout
