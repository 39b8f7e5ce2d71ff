"""Shared by the tests: small scenario files written for a test, and ``solo-ops ai plan`` on
them (moved from ai/test_orders_as_written.py).

Boards are 30" x 22" and open unless a test adds terrain; bases are 25.4 mm (radius 0.5"), so
a centre distance D is an edge distance of D - 1" and open-ground routes are straight lines.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from click.testing import CliRunner

from solo_ops.cli import main

GUN = {"name": "gun", "type": "rapid", "range": 24, "attacks": 4, "hit": 4, "damage": [3, 4],
       "strength": 3, "ap": 0, "damage_2018": 1, "shots": 1}
KNIFE = {"name": "knife", "type": "melee", "attacks": 3, "hit": 4, "damage": [2, 3],
         "strength": 3, "ap": 0, "damage_2018": 1}
PISTOL = {"name": "pistol", "type": "pistol", "range": 8, "attacks": 4, "hit": 4,
          "damage": [2, 3], "strength": 3, "ap": 0, "damage_2018": 1, "shots": 1}
AXE = {"name": "axe", "type": "melee", "attacks": 4, "hit": 3, "damage": [4, 5],
       "strength": 4, "ap": -1, "damage_2018": 1}
STUBBER = {"name": "stubber", "type": "heavy", "attacks": 5, "hit": 4, "damage": [3, 4],
           "rules": ["heavy=dash"], "range_2018": 36}


def prof(*weapons: dict[str, Any], m: float = 6, wounds: int = 8) -> dict[str, Any]:
    return {"movement": m, "wounds": wounds, "save": 5, "leadership": 6, "toughness": 3,
            "base_mm": 25.4, "apl": 2, "ws": 4, "bs": 4, "strength": 3, "attacks": 1,
            "weapons": list(weapons), "kt2018": {"wounds": 1}}


TROOPER = prof(GUN, KNIFE)
BRUTE = prof(AXE, PISTOL)
GUNNER = prof(STUBBER)


def scenario(folder: Path, enemies: list[tuple[str, int, list[tuple[str, dict, tuple]]]],
             players: list[tuple[str, dict, tuple]], *, edition: str = "kt2024",
             features: tuple[dict, ...] = (), name: str = "s.yaml", **extra: Any) -> Path:
    """A scenario file: the enemy units (id, command, models) and Ana's models."""
    doc: dict[str, Any] = {
        "name": "issue 29", "edition": edition, "seed": 1, "engagement": 0,
        "board": {"name": "T", "width": 30, "depth": 22, "features": list(features)},
        "roster": {"name": "R", "profiles": {"trooper": TROOPER},
                   "table": {i: "trooper" for i in range(1, 7)}},
        "squads": [{"player": "Ana", "models": [{"id": pid, "profile": p, "at": list(at)}
                                                 for pid, p, at in players]}],
        "enemies": [{"id": uid, "command": cmd,
                     "models": [{"id": mid, "profile": p, "at": list(at)} for mid, p, at in ms]}
                    for uid, cmd, ms in enemies],
        **extra,
    }
    path = folder / name
    path.write_text(yaml.safe_dump(doc), encoding="utf-8")
    return path


def ai_plan(path: Path, unit: str = "u1", phase: str | None = None) -> dict[str, Any]:
    """``solo-ops ai plan PATH --unit UNIT --json`` through click's runner."""
    args = ["ai", "plan", str(path), "--unit", unit, "--json"]
    if phase:
        args += ["--phase", phase]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def kinds(plan: dict[str, Any]) -> list[str]:
    return [a["kind"] for a in plan["actions"]]


def text(plan: dict[str, Any]) -> str:
    return "\n".join(plan["explain"])
