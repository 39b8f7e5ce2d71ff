"""Shared by the tests: moved from game/test_fog.py."""

from __future__ import annotations

from typing import Any

from solo_ops.core.dice import ScriptedDice
from solo_ops.game import fog
from solo_ops.game.engine import Game, new_game
from solo_ops.game.state import Counter, State
from solo_ops.io.scenario import parse_scenario

R = fog.COUNTER_RADIUS  # 0.6299"


SGT = {"movement": 6, "wounds": 12, "save": 3, "base_mm": 32,
       "weapons": [{"name": "boltgun", "type": "rapid", "range": 24}]}


ROSTER = {
    "name": "Cult",
    "profiles": {
        "grunt": {"movement": 6, "wounds": 7, "save": 5, "base_mm": 32, "leadership": 7,
                  "weapons": [{"name": "autogun", "type": "rapid", "range": 24}]},
        "brute": {"movement": 6, "wounds": 9, "save": 4, "base_mm": 32, "leadership": 8,
                  "weapons": [{"name": "axe", "type": "melee"}]},
        "gunner": {"movement": 6, "wounds": 8, "save": 4, "base_mm": 32, "leadership": 8,
                   "weapons": [{"name": "lascannon", "type": "heavy", "range": 36}]},
    },
    # the mission's roster table: 1-3 grunt, 4 gunner, 5-6 brute
    "table": {1: "grunt", 2: "grunt", 3: "grunt", 4: "gunner", 5: "brute", 6: "brute"},
}


# 24 x 12: sectors are 8" x 6". A full-height wall at x = 16 hides sectors 3 and 6 from a
# player standing in sector 1; every other sector is open ground in plain sight.
SPLIT = {"name": "split", "width": 24, "depth": 12,
         "features": [{"id": "w", "traits": ["wall"], "line": [[16, 0], [16, 12]]}]}


OPEN = {"name": "open", "width": 36, "depth": 20, "features": []}


# The same with a closed room in the corner (x 31-36, y 0-5): a player model inside it sees no
# counter outside, so hidden movement can be watched without anything being spotted.
BOXED = {"name": "boxed", "width": 36, "depth": 20, "features": [
    {"id": "r1", "traits": ["wall"], "line": [[31, 0], [31, 5]]},
    {"id": "r2", "traits": ["wall"], "line": [[31, 5], [36, 5]]}]}


IN_ROOM = (34.0, 2.0)


def make(board: dict[str, Any], players: list[tuple[float, float]],
         counters: list[tuple[str, tuple[float, float], int]] = (),  # type: ignore[assignment]
         faces: list[int] | None = None, settings: dict[str, Any] | None = None,
         enemies: list[dict[str, Any]] | None = None) -> tuple[Game, State]:
    """A game on ``board`` with player models at ``players`` (32 mm bases), no seeded
    counters, the given counters placed by hand and scripted dice."""
    doc: dict[str, Any] = {
        "name": "fog test", "edition": "kt2024", "board": board, "roster": ROSTER,
        "engagement": 0,
        "squads": [{"player": "Ana", "models": [
            {"id": f"p{i + 1}", "profile": SGT, "at": list(at)} for i, at in enumerate(players)]}],
    }
    if settings:
        doc["settings"] = settings
    if enemies:
        doc["enemies"] = enemies
    game, state = new_game(parse_scenario(doc, "fog.yaml"), 1)
    for cid, at, order in counters:
        state.counters[cid] = Counter(cid, at, order, game.scenario.board.sector_of(*at))
    state.counter_seq = len(state.counters)
    state.dice = ScriptedDice(faces=list(faces or []))
    return game, state
