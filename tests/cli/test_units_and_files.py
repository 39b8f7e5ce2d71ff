"""Answers with units and files given to the wrong command (issue 28 item 6).

``move 4" toward obj-1``, ``4in``, ``10cm`` and ``10 cm`` are distances wherever one is asked,
whatever the game's ``units`` setting; a file given where another kind is read is named, with
the command that reads it, instead of being called damaged or refused by a field name.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from solo_ops.core.errors import RuleError
from solo_ops.view.answers import parse
from tests.support.answers import play, table_scenario
from tests.support.players import cli_here, small_scenario


@pytest.mark.parametrize(("typed", "units", "inches"), [
    ('move 4" toward obj-1', "in", 4.0), ('move 4" toward obj-1', "cm", 4.0),
    ("move 4in toward obj-1", "cm", 4.0), ("move 4 inches toward obj-1", "cm", 4.0),
    ("move 4” toward obj-1", "in", 4.0),  # a phone's quote mark
    ("move 10cm toward obj-1", "in", 3.937), ("move 10 cm toward obj-1", "in", 3.937),
    ("move 10 toward obj-1", "cm", 3.937), ("move 4 toward obj-1", "in", 4.0),
    ("dash kell 2.54 cm toward hatch-3", "in", 1.0)])
def test_a_distance_with_its_unit_in_either_setting(typed: str, units: str,
                                                    inches: float) -> None:
    """10 cm is 10 / 2.54 = 3.937 inches (to four places, as the cm setting has always
    rounded); a bare number is in the game's units."""
    action = parse(typed, "act", units)
    assert action["amount"] == inches and action["relation"] == "toward"


def test_a_point_with_units_and_a_bad_one() -> None:
    assert parse("move 25cm,10cm", "act", "in")["to"] == [9.8425, 3.937]
    assert parse("move 25 cm, 10 cm", "act", "in")["to"] == [9.8425, 3.937]
    assert parse('move 10",4"', "act", "cm")["to"] == [10.0, 4.0]
    assert parse("move 10,4", "act", "in")["to"] == [10.0, 4.0]
    with pytest.raises(RuleError, match="expected a point x,y"):
        parse("move 10kg,4", "act", "in")
    # no distance: as far as the move allows (issue #27's reading, docs/rules.md)
    assert "distance" not in parse("move toward obj-1", "act", "in")


def test_play_takes_a_distance_with_inches_and_centimetres(tmp_path: Path) -> None:
    """Through the real command on the hand-made board (a1 at (3, 10); the route to e1 goes
    round the wall's south end): ``move 1" toward e1`` and, in a cm game, the same inch typed
    as ``2.54 cm``."""
    scenario = table_scenario(tmp_path, enemy_at=(27, 11))
    out, _save = play(tmp_path, scenario, "a1 engage", 'move 1" toward e1', "yes")
    assert 'a1 would reposition from (3.0, 10.0) 1.0" south-east to (3.9, 9.5)' in out
    folder = tmp_path / "cm"
    folder.mkdir()
    scenario = table_scenario(folder, enemy_at=(27, 11), units="cm")
    out, _save = play(folder, scenario, "a1 engage", "move 2.54 cm toward e1", "yes")
    assert "a1 would reposition from (7.6, 25.4) 2.5 cm south-east to (9.9, 24.2)" in out


def test_a_scenario_given_to_resume_and_a_save_given_as_a_scenario(tmp_path: Path) -> None:
    scenario = small_scenario(tmp_path)
    save = tmp_path / "saves" / "x.json"
    made = cli_here("play", str(scenario), "--save", str(save), "--answer", "quit", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    wrong = cli_here("play", "--resume", str(scenario), cwd=tmp_path)
    assert wrong.returncode == 2 and wrong.stderr.count("\n") == 1
    assert (f"{scenario}: is a scenario, not a save: start a game of it with `solo-ops play "
            f"{scenario}`") in wrong.stderr
    wrong = cli_here("play", str(save), cwd=tmp_path)
    assert wrong.returncode == 2 and wrong.stderr.count("\n") == 1
    assert (f"{save}: is a saved game, not a scenario: go on with it with `solo-ops play "
            f"--resume {save}`") in wrong.stderr
    log = save.with_name("x.log.jsonl")
    wrong = cli_here("play", "--resume", str(log), cwd=tmp_path)
    assert wrong.returncode == 2
    assert (f"is an event log, not a save: check it with `solo-ops replay {log}`; go on with "
            f"its game with `solo-ops play --resume {save}`") in wrong.stderr
    # nothing was harmed: the save still resumes
    assert json.loads(save.read_text(encoding="utf-8"))["kind"] == "solo-ops-game"
    again = cli_here("play", "--resume", str(save), "--answer", "quit", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
