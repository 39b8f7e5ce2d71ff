"""Each edition's turns by their own name wherever a command names one: Kill Team 2024's
turning points, Kill Team 2018's battle rounds ("Resuming ... (turn 3)" said nothing of
either). The commands run in this process, through click's runner."""

from __future__ import annotations

from pathlib import Path

import pytest

from solo_ops.rules.editions import turn_name, turns_phrase
from tests.support.players import cli_here, small_scenario
from tests.support.saves import default_save


def test_the_names_and_their_plurals() -> None:
    assert [turn_name("kt2024"), turn_name("kt2018"), turn_name(None)] == [
        "turning point", "battle round", "turning point"]
    assert [turns_phrase(1, "kt2018"), turns_phrase(4, "kt2024"), turns_phrase(0, "kt2018")] \
        == ["1 battle round", "4 turning points", "0 battle rounds"]


@pytest.mark.parametrize(("edition", "name"), [("kt2018", "battle round"),
                                               ("kt2024", "turning point")])
def test_resuming_and_drawing_name_the_editions_turn(tmp_path: Path, edition: str,
                                                     name: str) -> None:
    scenario = small_scenario(tmp_path, edition)
    played = cli_here("play", str(scenario), "--answer", "status", cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    save = default_save(tmp_path, scenario)
    again = cli_here("play", "--resume", str(save), "--answer", "status", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert f"Resuming Small test from {save} ({name} 1)." in again.stdout
    drawn = cli_here("map", str(save), "--out", "map.png", cwd=tmp_path)
    assert drawn.stdout.strip() == f"Drew {save} ({name} 1) to map.png."
