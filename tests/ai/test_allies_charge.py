"""A unit answering allies still makes the charge its own Charge order allows (setting
``allies_charge``, default ``charge``): 003 gives Charge an instruction of its own -- "Charge:
Unit will seek to charge the closest enemy with line of sight or will only charge if the enemy
falls within a range" -- and Allies say where a unit moves ("they will try and move into
coherency"). Four Orks ordered "Charge: Yes" used to answer a rally every round and never
charge."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.scenario_files import AXE, TROOPER, ai_plan, kinds, prof, scenario, text


@pytest.mark.parametrize(("setting", "expected"), [("charge", ["charge", "fight"]),
                                                   ("join", ["reposition"])])
def test_a_rallied_unit_charges_first(tmp_path: Path, setting: str, expected: list[str]) -> None:
    """u1 (Melee command 5: Towards closest enemy, Charge Yes, Group with leaders) 4" from a
    trooper, inside the command radius of u2 (Melee command 6, Rally, Leadership 8): with
    ``allies_charge: charge`` it charges and fights; with ``join`` it moves to join u2."""
    boss = {**prof(AXE), "leadership": 8}
    path = scenario(tmp_path, [("u1", 5, [("e1", prof(AXE), (10, 11))]),
                               ("u2", 6, [("nob", boss, (5, 15))])],
                    [("kell", TROOPER, (14, 11))], settings={"allies_charge": setting})
    plan = ai_plan(path)
    assert kinds(plan) == expected
    assert "u2 rallies lower-command Melee units" in text(plan)
    charged_first = "e1 makes the charge its order allows before answering its allies"
    assert (charged_first in text(plan)) == (setting == "charge")
