"""Shared by the tests: moved from game/test_fight_choices.py."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

KNIFE = {"name": "knife", "type": "melee", "attacks": 3, "hit": 3, "damage": [3, 4],
         "rules": ["lethal=5"]}


CLAW = {"name": "claw", "type": "melee", "attacks": 3, "hit": 3, "damage": [3, 5],
        "rules": ["lethal=5"]}


SEED = 17


def profile(name: str, weapons: list[dict[str, Any]], wounds: int) -> dict[str, Any]:
    return {"name": name, "movement": 6, "leadership": 7, "toughness": 3, "wounds": wounds,
            "save": 5, "base_mm": 25.4, "apl": 2, "ws": 4, "bs": 4, "strength": 3,
            "attacks": 1, "weapons": weapons}


def document(**settings: Any) -> dict[str, Any]:
    """The scenario as a fresh document: a test may edit it (e.g. make the claw Brutal)
    without changing :data:`CLAW` or :data:`KNIFE` for the tests after it."""
    doc = {"name": "fights", "edition": "kt2024",
           "board": {"name": "open", "width": 30, "depth": 22, "features": []},
           "roster": {"name": "r", "profiles": {"immortal": profile("Immortal", [CLAW], 10)},
                      "table": {i: "immortal" for i in range(1, 7)}},
           "engagement": 0, "seed": SEED,
           "squads": [{"player": "Ana", "models": [
               {"id": "tam", "name": "Tam", "profile": profile("Trooper", [KNIFE], 4),
                "at": [10, 11]}]}],
           "enemies": [{"id": "u1", "command": 1, "models": [
               {"id": "e1", "profile": "immortal", "at": [11.2, 11]}]}],
           "settings": {"turns": 1, "cp_rerolls": "never", **settings}}
    return copy.deepcopy(doc)


def scenario_file(folder: Path, **settings: Any) -> Path:
    path = folder / "fights.json"
    path.write_text(json.dumps(document(**settings)), encoding="utf-8")
    return path
