"""A hidden counter's move names its hidden-enemy row in the supplement's words with its
typos mended: 003 prints row 6 as "Moves towards enemy using cover, rally hidden enemy units
within 12'" (' for inches); the players read 12" (``tables show --source`` keeps the print)."""

from __future__ import annotations

import copy

from solo_ops.game.engine import new_game, pending, step
from solo_ops.io.scenario import parse_scenario
from tests.support.scenario_files import TROOPER


def test_row_6_reads_inches() -> None:
    doc = {"name": "rows", "edition": "kt2024", "seed": 1, "engagement": 0,
           "board": {"name": "T", "width": 30, "depth": 22, "features": [
               {"id": "wall-1", "traits": ["wall"], "line": [[15, 0], [15, 18]]}]},
           "roster": {"name": "R", "profiles": {"trooper": copy.deepcopy(TROOPER)},
                      "table": {i: "trooper" for i in range(1, 7)}},
           "squads": [{"player": "Ana", "models": [
               {"id": "kell", "profile": copy.deepcopy(TROOPER), "at": [2, 11]}]}],
           "counters": [{"id": "c1", "at": [26, 11], "hidden_order": 6}],
           "settings": {"turns": 2, "cp_rerolls": "never"}}
    game, state = new_game(parse_scenario(doc, "rows.yaml"), 1)
    moved = []
    for _ in range(20):
        if state.ended:
            break
        prompt = pending(game, state)
        if prompt.kind == "activate":
            step(game, state, {"type": "activate", "operative": "kell", "stance": "conceal"})
            record = step(game, state, {"type": "done"})
        else:
            record = step(game, state, {"type": "engine"})
        moved += [e for e in record["events"] if e["type"] == "counter_moved"]
        if moved:
            break
    assert moved and moved[0]["row"] == 6
    assert moved[0]["row_text"] == ("Moves towards enemy using cover, rally hidden enemy "
                                    "units within 12\"")
