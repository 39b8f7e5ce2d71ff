"""Shared by the tests: moved from ai/test_order_fields.py."""

from __future__ import annotations

from typing import Any

from solo_ops.ai.planner import Plan, plan_activation
from solo_ops.game.engine import new_game
from solo_ops.io.scenario import parse_scenario

GUN = {"name": "gun", "type": "rapid", "range": 24, "attacks": 4, "hit": 4, "damage": [3, 4]}


BLADE = {"name": "blade", "type": "melee", "attacks": 4, "hit": 3, "damage": [4, 5]}


def prof(m: float = 6, ld: int = 6, weapons: list[dict[str, Any]] | None = None,
         base_mm: float = 25.4) -> dict[str, Any]:
    return {"movement": m, "wounds": 8, "save": 5, "leadership": ld, "toughness": 3,
            "base_mm": base_mm, "apl": 2, "weapons": weapons or [GUN]}


GRUNT = prof()


BRUTE = prof(weapons=[BLADE])


def setup(enemies: list[tuple[str, int, list[tuple[str, dict[str, Any], tuple[float, float]]]]],
          players: list[tuple[str, dict[str, Any], tuple[float, float]]],
          features: tuple[dict[str, Any], ...] = (), edition: str = "kt2024",
          settings: dict[str, Any] | None = None) -> tuple[Any, Any]:
    board = {"name": "T", "width": 30, "depth": 22, "features": list(features)}
    roster = {"name": "R", "profiles": {"grunt": GRUNT}, "table": {i: "grunt" for i in range(1, 7)}}
    doc: dict[str, Any] = {
        "name": "t", "edition": edition, "board": board, "roster": roster, "engagement": 1,
        "seed": 1,
        "squads": [{"player": "Ana", "models": [{"id": pid, "profile": p, "at": list(at)}
                                                 for pid, p, at in players]}],
        "enemies": [{"id": uid, "command": cmd,
                     "models": [{"id": mid, "profile": p, "at": list(at)} for mid, p, at in ms]}
                    for uid, cmd, ms in enemies],
    }
    if settings:
        doc["settings"] = settings
    return new_game(parse_scenario(doc, "t.yaml"), 1)


def plan(game: Any, state: Any, uid: str, phase: str = "firefight") -> Plan:
    return plan_activation(game.context(state), state, uid, phase)


def kinds(p: Plan) -> list[str]:
    return [a.kind for a in p.actions]
