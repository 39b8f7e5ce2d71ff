"""Carrying a downed friend to safety through the real ``solo-ops play``, with relative
answers only: ``move kell into base contact with rask``, ``carry rask``, ``evacuate rask`` (the
way to the table edge proposed, then made). The supplement's "Carrying models to safety"; 001
evacuating "within 1" of the table edge". Readings: docs/rules.md, "Playing a mission" and
"Answers at the table".
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.players import cli_here

SQUAD = {"player": "Ana", "models": [
    {"id": "kell", "name": "Sgt Kell", "at": [3.5, 10]},
    {"id": "rask", "name": "Gunner Rask", "at": [5.0, 10]}]}


def _carry_scenario(folder: Path) -> Path:
    from tests.support.small_table import BOARD, TROOPER

    profile = dict(TROOPER)
    doc = {"name": "carry test", "edition": "kt2024", "board": BOARD,
           "roster": {"name": "r", "profiles": {"trooper": TROOPER},
                      "table": {i: "trooper" for i in range(1, 7)}},
           "engagement": 1, "seed": 4,
           "squads": [{"player": "Ana", "models": [
               {**m, "profile": profile} for m in SQUAD["models"]]}],
           "enemies": [{"id": "u1", "command": 5, "models": [
               {"id": "e1", "profile": "trooper", "at": [27, 20]}]}],
           "counters": [],
           "settings": {"turns": 2, "counteract": "off", "cp_rerolls": "never"}}
    path = folder / "carry.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_carrying_rask_by_relative_answers_only_then_evacuate_rask(tmp_path: Path) -> None:
    scenario = _carry_scenario(tmp_path)
    save = tmp_path / "s.json"
    answers = ["down rask", "status", "kell engage", "move kell into base contact with rask",
               "yes", "carry rask", "kell", "evacuate rask", "yes"]
    args = ["play", str(scenario), "--save", str(save), "--seed", "2"]  # (no counter near)
    for a in answers:
        args += ["--answer", a]
    run = cli_here(*args, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    # status lists the downed operative where he lies
    assert "rask (5.0, 10.0) 0/8W conceal DOWN (lying here: its base stays on the table)" in out
    # base contact: due east to 2r + 0.02" from Rask's centre: 5 - 1.0043 = 3.9957 -> 4.0
    assert "in base contact with rask" in out
    doc = json.loads(save.read_text(encoding="utf-8"))
    acts = [a for a in doc["actions"] if a["type"] in ("move", "carry", "evacuate")]
    assert acts[0] == {"type": "move", "how": "reposition", "to": [4.0, 10.0],
                       "operative": "kell"}
    assert acts[1]["type"] == "carry" and acts[1]["target"] == "rask"
    # evacuate rask: the cheapest point within 1" of an edge is due west, its centre
    # r + 1 - 0.05 = 1.4421" from the west edge, 2.56" away: proposed, then made
    assert "within 1\" of the table edge, then carries Gunner Rask off the table" in out
    assert acts[2]["type"] == "move" and acts[2]["to"] == [1.44, 10.0]
    assert acts[3] == {"type": "evacuate", "operative": "kell"}
    assert ("Sgt Kell carries Gunner Rask off the table to safety; both leave the table for "
            "the rest of the mission.") in out
    snap = {o["id"]: o for o in doc["snapshot"]["operatives"]}
    assert snap["rask"]["carried_to_safety"] and snap["kell"]["at"] is None
