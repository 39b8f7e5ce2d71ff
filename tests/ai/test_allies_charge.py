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


def test_a_fire_at_will_model_answering_allies_fires_first(tmp_path: Path) -> None:
    """003 "Fire at Will: ... Firing will take priority over movement and charging": e1
    (Support command 5: To firing range, Fire at will, Group with leaders) inside u2's command
    radius (Leadership 9) fires its stubber at kell from where it stands before answering the
    call -- and, the stubber being Heavy (Dash only), it does not reposition to join after (it
    used to join first and lose the shot)."""
    from tests.support.scenario_files import GUN, STUBBER

    leader = {**prof(GUN), "leadership": 9}
    path = scenario(tmp_path, [("u1", 5, [("e1", prof({**STUBBER, "range": 24}), (12, 11))]),
                               ("u2", 1, [("boss", leader, (12, 17))])],
                    [("kell", TROOPER, (4, 11))])
    plan = ai_plan(path)
    assert kinds(plan) == ["shoot"]
    assert "Fire at will: firing takes priority over moving. e1 shoots kell with stubber" in \
        text(plan)
    assert "e1 fired a Heavy weapon, so it does not move to join its allies." in text(plan)


def test_with_a_weapon_it_may_move_after_it_fires_then_joins(tmp_path: Path) -> None:
    """The same with a special gun (no Heavy): the shot, then the Reposition to join u2."""
    from tests.support.scenario_files import GUN

    leader = {**prof(GUN), "leadership": 9}
    melta = {**GUN, "name": "melta", "type": "special", "range": 12}
    path = scenario(tmp_path, [("u1", 5, [("e1", prof(melta), (12, 11))]),
                               ("u2", 1, [("boss", leader, (12, 17))])],
                    [("kell", TROOPER, (4, 11))])
    plan = ai_plan(path)
    assert kinds(plan) == ["shoot", "reposition"]
    assert "e1 repositions to (12.0, 14.0) to join u2." in text(plan)
