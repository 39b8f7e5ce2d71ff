"""Shared by the tests: moved from view/test_answers.py."""

from __future__ import annotations

import json
from pathlib import Path


# -- relative answers, ids and weapons through the real command ------------------------------
def table_scenario(folder: Path, enemy_at: tuple[float, float] = (27, 11),
                    units: str = "in") -> Path:
    """The hand-made board of tests.game.test_engine as a scenario file: a1 at (3, 10), a2 at
    (1, 20), e1 at ``enemy_at``; seed 2 gives the players the initiative and seeds both hidden
    counters on the enemy's side of the wall (by the keyed dice), out of the way."""
    from tests.support.small_table import BOARD, TROOPER

    doc = {"name": "answers test", "edition": "kt2024", "board": BOARD,
           "roster": {"name": "r", "profiles": {"trooper": TROOPER},
                      "table": {i: "trooper" for i in range(1, 7)}},
           "engagement": 1, "seed": 2,
           "squads": [{"player": "Ana", "models": [
               {"id": "a1", "profile": TROOPER, "at": [3, 10]},
               {"id": "a2", "profile": TROOPER, "at": [1, 20]}]}],
           "enemies": [{"id": "u1", "command": 5, "models": [
               {"id": "e1", "profile": "trooper", "at": list(enemy_at)}]}],
           # no CP re-roll questions: whatever the dice, the answers are the ones typed here
           "settings": {"turns": 1, "units": units, "cp_rerolls": "never"}}
    path = folder / "table.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def play(folder: Path, scenario: Path, *answers: str) -> tuple[str, dict]:
    from tests.support.players import cli_here

    args = ["play", str(scenario), "--save", str(folder / "s.json")]
    for a in answers:
        args += ["--answer", a]
    run = cli_here(*args, cwd=folder)
    assert run.returncode == 0, run.stderr
    save = json.loads((folder / "s.json").read_text(encoding="utf-8"))
    return run.stdout, save
