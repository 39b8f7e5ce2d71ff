"""Shared by the tests: moved from game/test_cp_rerolls.py."""

from __future__ import annotations

from typing import Any

GUN = {"name": "autogun", "type": "rapid", "range": 24, "attacks": 4, "hit": 4,
       "damage": [3, 4], "strength": 3, "shots": 1}


def profile(name: str, weapons: list[dict[str, Any]]) -> dict[str, Any]:
    return {"name": name, "movement": 6, "leadership": 7, "toughness": 3, "wounds": 10,
            "save": 5, "base_mm": 25.4, "apl": 2, "ws": 4, "bs": 4, "strength": 3,
            "attacks": 1, "weapons": weapons}


def document(*, settings: dict[str, Any] | None = None,
             player_weapon: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"name": "cp re-rolls", "edition": "kt2024",
            "board": {"name": "open", "width": 30, "depth": 22, "killzone": "gallowdark",
                      "features": []},
            "roster": {"name": "r", "profiles": {"gunner": profile("Gunner", [GUN])},
                       "table": {i: "gunner" for i in range(1, 7)}},
            "engagement": 1, "seed": 1,
            "squads": [{"player": "Ana", "models": [
                {"id": "a1", "profile": profile("Trooper", [player_weapon or GUN]),
                 "at": [10, 11]}]}],
            "enemies": [{"id": "u1", "command": 1, "models": [
                {"id": "e1", "profile": profile("Gunner", [GUN]), "at": [20, 11]}]}],
            # the fights' dice by the policy: die-by-die fights are game/test_fight_choices.py's
            "settings": {"turns": 2, "fight_choices": "auto", **(settings or {})}}
