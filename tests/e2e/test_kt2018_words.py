"""A whole small Kill Team 2018 game through the real command reads as Kill Team 2018.

One vocabulary per edition (issue: "idris would normal from … (it can normal 6.0")",
"control range" and "conceal" in ``status``, "Shot 1" for melee, "hit roll -1 misses", a
``help`` of 2024 answers): the game is played once at a table to find a 2018 player's typed
answers (:mod:`tests.support.typed_2018`), then through ``solo-ops play --answers FILE``, and
every line the command prints is read for a word only Kill Team 2024 has ("AP" as action
points; a weapon's "AP -3", 2018's armour penetration, is its own). 004's own words
(Advance, charge roll, Readied, Battle round, phases) are there.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

from solo_ops.cli import main
from tests.support.pariah_table import BRUTE, TROOPER, board
from tests.support.typed_2018 import answers_for

ONLY_2024 = re.compile(
    r"\bReposition|\breposition|control range|\bConceal\b|\bconceal\b|\bEngage\b|\bengage\b|"
    r"\bAPL\b|\bAP\b(?!\s?[-+]?\d)|turning point|\bDash\b|\bdash\b|incapacitated|hit roll -\d|"
    r"\bcounteract\b|\bCounteract\b|\bOn Guard\b|\bTac Op\b|\bCrit Op\b|\bKill Op\b|"
    r"can normal|would normal|Shot \d+: .*\(melee\)|Enemies destroyed|squad is down|"
    r"\b[a-z0-9-]+ down[,.]|"
    # the Kill Team 2024 weapon rules as a card writes them (WeaponRule.text): a 2018 weapon
    # shows its 2018 profile and abilities only
    r"\b(?:accurate|blast|devastating|lethal|limited|piercing|torrent)=|"
    r"\b(?:brutal|balanced|ceaseless|relentless|rending|saturate|seek_light|punishing|"
    r"severe|piercing_crits)\b|; heavy\b|"
    # wrong in either edition: the supplement's ' for inches (not a quoted answer's
    # 'move 10,4'), a negative zero, the 2024 names of 2018 moves
    r"(?<![\d,.])\d+'(?![a-zA-Z])|-0\.0\b|\(advance\)|\(fall back\)")


def scenario(folder: Path) -> Path:
    """Two of the players' models against two enemy models across a small table, one battle
    round (a whole game, kept cheap), Auto-reactive Foundations and Internal Pressure Shift in
    force. The boys' choppa carries a Kill Team 2024 rule (Brutal) the output must never show."""
    melee = {**copy.deepcopy(BRUTE), "weapons": [{"name": "choppa", "type": "melee",
                                                   "rules": ["brutal"]}]}
    doc = {"name": "words test", "edition": "kt2018", "board": board(),
           "roster": {"name": "r", "profiles": {"brute": copy.deepcopy(BRUTE),
                                                 "boy": melee},
                      "table": {i: "brute" for i in range(1, 7)}},
           "engagement": 1, "seed": 3,
           "mission": {"name": "Objective Ultima", "pariah": "objective-ultima",
                       "effects": {"environment": 3, "killzone": 5}},
           "squads": [{"player": "Ana", "models": [
               {"id": "kell", "name": "Sgt Kell", "profile": copy.deepcopy(TROOPER),
                "at": [5, 9]},
               {"id": "vale", "name": "Vale", "profile": copy.deepcopy(TROOPER),
                "at": [5, 13]}]}],
           "enemies": [{"id": "u1", "command": 5, "models": [
               {"id": "boy-1", "profile": "boy", "at": [13, 11]},
               {"id": "boy-2", "profile": "boy", "at": [13, 14]}]}],
           "settings": {"turns": 1}}
    path = folder / "words.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_a_2018_game_speaks_2018_from_start_to_end(runner: Any, tmp_path: Path) -> None:
    path = scenario(tmp_path)
    typed = answers_for(path, 3, tmp_path)
    answers = tmp_path / "answers.txt"
    answers.write_text("\n".join(typed) + "\n", encoding="utf-8")
    result = runner.invoke(main, ["play", str(path), "--seed", "3", "--save",
                                  str(tmp_path / "game.json"), "--answers", str(answers)])
    assert result.exit_code == 0, result.output
    out = result.stdout
    bad = [line for line in out.splitlines() if ONLY_2024.search(line)]
    assert not bad, "\n".join(bad)
    for words in ("Battle round 1", "— Movement phase —", "— Shooting phase —", "Battle over",
                  "which of your models moves (or is Readied) now?", "Battle round 1 ("):
        assert words in out, words
    assert re.search(r"(Advance|charge) roll: \dD6: ", out)
