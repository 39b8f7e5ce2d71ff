"""A scenario whose set-up puts a model's base on another's is refused before play, in one
line naming the file and field, the model, the place and the nearest free point, and nothing
is saved (exit
non-zero). Reading: docs/rules.md, "Bases on the table: the one placement rule".
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.players import cli_here


def test_a_scenario_that_puts_a_model_on_another_is_refused_in_one_line(tmp_path: Path
                                                                         ) -> None:
    from tests.support.small_table import BOARD, TROOPER

    doc = {"name": "bad", "edition": "kt2024", "board": BOARD, "engagement": 1, "seed": 4,
           "roster": {"name": "r", "profiles": {"trooper": TROOPER},
                      "table": {i: "trooper" for i in range(1, 7)}},
           "squads": [{"player": "Ana", "models": [
               {"id": "a1", "profile": TROOPER, "at": [3, 10]},
               {"id": "a2", "profile": TROOPER, "at": [3.5, 10]}]}],
           "enemies": [{"id": "u1", "command": 5, "models": [
               {"id": "e1", "profile": "trooper", "at": [27, 11]}]}]}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    run = cli_here("play", str(path), "--save", str(tmp_path / "s.json"), "--answer", "quit",
              cwd=tmp_path)
    assert run.returncode != 0
    # 2r = 0.984": the nearest free point on the 0.05" grid through 3.5 is 4.0
    assert run.stderr.strip().splitlines() == [
        f"solo-ops: error: {path}: squads[0].models[1].at: a2's base does not fit at 3.5,10: "
        "a1's base is there; the nearest point where it fits is 4,10"]
    assert not (tmp_path / "s.json").exists()
