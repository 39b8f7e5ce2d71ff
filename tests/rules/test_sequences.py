"""The Kill Team 2024 action sequence table (``rules/sequences.py``, issue #28 item 3), shared
by the players' checks and the enemy planner: each row refuses what its source line forbids,
and a refused player hears the row's name.

001 Reposition: "Cannot perform this action in the same activation that the Operative
performed a Fall Back or Charge". Dash: "See "Reposition" ... but can be used after Fall
Back". Charge: "See "Reposition" but add 2" to the "movement characteristic"" (Kill Team
2024: no Charge in an activation with a Reposition or Fall Back; a Dash before it is fine).
Place Down: "Cannot be performed in the same activation as a Pick Up action."
"""

from __future__ import annotations

from pathlib import Path

import pytest

from solo_ops.rules import sequences
from tests.support.answers import play, table_scenario


@pytest.mark.parametrize(("action", "done", "row"), [
    ("charge", ["reposition"], "charge-after-reposition-or-fall-back"),
    ("charge", ["fall_back"], "charge-after-reposition-or-fall-back"),
    ("reposition", ["charge"], "reposition-after-fall-back-or-charge"),
    ("reposition", ["fall_back"], "reposition-after-fall-back-or-charge"),
    ("dash", ["charge"], "dash-after-charge"),
    ("fall_back", ["reposition"], "fall-back-after-reposition-or-charge"),
    ("fall_back", ["charge"], "fall-back-after-reposition-or-charge"),
    ("placedown", ["pickup"], "place-down-after-pick-up"),
    ("shoot", ["shoot"], "once-per-activation"),
    ("dash", ["dash"], "once-per-activation"),
])
def test_each_row_refuses_what_its_source_forbids(action: str, done: list[str],
                                                  row: str) -> None:
    rule = sequences.refusal(action, done)
    assert rule is not None and rule.name == row
    assert rule.source.startswith("001 ")
    words = sequences.refusal_words("Kell", action, done)
    assert words is not None and f"sequence rule '{row}'" in words


@pytest.mark.parametrize(("action", "done"), [
    ("charge", ["dash"]),  # "a Dash before a Charge is allowed"
    ("dash", ["fall_back"]),  # "can be used after Fall Back"
    ("dash", ["reposition"]),
    ("shoot", ["charge"]),  # the sequence table has no row; control range refuses it
    ("charge", ["shoot"]),
    ("portal", ["portal"]),  # a door or hatch each
    ("fight", ["charge"]),
])
def test_what_the_card_allows_is_allowed(action: str, done: list[str]) -> None:
    assert sequences.allowed(action, done)
    assert sequences.refusal_words("Kell", action, done) is None


def test_the_sequences_of_two_action_points() -> None:
    """Every order of distinct actions an APL 2 operative may play: the planner's list."""
    found = sequences.sequences(("reposition", "dash", "charge", "shoot"), 2, lambda a: 1)
    pairs = {s for s in found if len(s) == 2}
    assert ("dash", "charge") in pairs and ("shoot", "charge") in pairs
    assert ("reposition", "shoot") in pairs and ("charge", "shoot") in pairs
    assert ("reposition", "charge") not in pairs and ("charge", "dash") not in pairs
    assert ("charge", "reposition") not in pairs
    assert len(pairs) == 4 * 3 - 3  # 12 ordered pairs less the three the table forbids
    assert [len(s) for s in found] == sorted(len(s) for s in found)
    # a Fall Back costs both AP: nothing follows it
    assert sequences.sequences(("fall_back", "dash"), 2, lambda a: 2 if a == "fall_back" else 1
                               ) == [("fall_back",), ("dash",)]


def test_reposition_then_charge_is_refused_naming_the_rule(tmp_path: Path) -> None:
    """Through ``solo-ops play --answer``: a1 at (3, 10) repositions to (8, 10), then tries to
    charge e1 at (13, 10) (3.5" away, within a Charge's 8"): refused with the row's name and
    its source; a Dash then the same Charge is played."""
    scenario = table_scenario(tmp_path, enemy_at=(13, 10))
    out, save = play(tmp_path, scenario, "a1 engage", "move 8,10", "charge e1 11.9,10",
                      "done")
    assert ("✗ a1 cannot Charge after a Reposition in the same activation (sequence rule "
            "'charge-after-reposition-or-fall-back': no Charge after a Reposition or Fall "
            "Back; 001 Charge:") in out
    moves = [a for a in save["actions"] if a["type"] == "move"]
    assert [m["how"] for m in moves] == ["reposition"]

    again = tmp_path / "again"
    again.mkdir()
    out, save = play(again, scenario, "a1 engage", "dash 6,10", "charge e1 11.9,10", "done")
    moves = [a for a in save["actions"] if a["type"] == "move"]
    assert [m["how"] for m in moves] == ["dash", "charge"]
    assert "✗" not in out
