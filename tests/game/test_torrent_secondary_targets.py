"""Torrent's other targets are valid targets of their own (002 Torrent "other valid targets"):
the killzone's own test refuses them as it refuses a shot at them (Bheta-Decima: "If 4" of more
distance crosses hazardous then target is not valid"), and each is shot with its own cover:
Vantage's Accurate is for Engaged targets, so a Concealed one gets none from the primary's.

a1 (3, 9.5 or 10) has a flamer (Range 12", Torrent 2"); e1 and e2 stand 2" apart, 11" away.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from solo_ops.core.dice import ScriptedDice
from solo_ops.core.errors import RuleError
from solo_ops.game.engine import new_game, step
from solo_ops.io.scenario import parse_scenario
from tests.support import small_table as st


def _game(board: dict[str, Any], a1_at: list[float], hit: int, faces: list[int]) -> tuple:
    flamer = copy.deepcopy(st.TROOPER)
    flamer["weapons"].insert(0, {"name": "flamer", "type": "special", "range": 12,
                                 "attacks": 4, "hit": hit, "damage": [2, 2],
                                 "rules": ["torrent=2"]})
    doc = {"name": "t", "edition": "kt2024",
           "board": {"name": "b", "width": 30, "depth": 22, **board,
                     "zones": st.BOARD["zones"], "objectives": st.BOARD["objectives"]},
           "roster": {"name": "r", "profiles": {"trooper": copy.deepcopy(st.TROOPER)},
                      "table": dict.fromkeys(range(1, 7), "trooper")},
           "engagement": 1, "seed": 1,
           "squads": [{"player": "Ana", "models": [
               {"id": "a1", "profile": flamer, "at": a1_at},
               {"id": "a2", "profile": copy.deepcopy(st.TROOPER), "at": [1, 20]}]}],
           "enemies": [{"id": "u1", "command": 5, "models": [
               {"id": "e1", "profile": "trooper", "at": [14 if hit == 2 else 12, 10]},
               {"id": "e2", "profile": "trooper", "at": [14 if hit == 2 else 12, 12]}]}],
           "settings": {"turns": 2, "cp_rerolls": "never"}}
    game, state = new_game(parse_scenario(doc, "t.yaml"), 1)
    state.counters.clear()
    state.dice = ScriptedDice(faces=faces)
    step(game, state, {"type": "engine"})
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    return game, state


def test_a_target_the_killzone_refuses_is_no_torrent_target_either() -> None:
    # hazardous slag from (6, 10.4) to (13, 13): the line to e2 crosses 6.2" of it, to e1 none
    slag = {"killzone": "bheta-decima", "features": [
        {"id": "slag", "traits": ["hazardous"],
         "polygon": [[6, 10.4], [13, 10.4], [13, 13], [6, 13]]}]}
    game, state = _game(slag, [3, 9.5], 2, [6, 1] + [6] * 8 + [1] * 12)
    for o in ("e1", "e2"):
        state.operatives[o].stance = "engage"
    with pytest.raises(RuleError, match=r'6\.2" of the line crosses hazardous areas'):
        step(game, state, {"type": "shoot", "target": "e2", "weapon": "flamer", "roll": True})
    record = step(game, state, {"type": "shoot", "target": "e1", "weapon": "flamer",
                                "roll": True})
    assert not any(e["type"] == "secondary_hit" for e in record["events"])
    assert state.operatives["e2"].wounds == 8 and state.operatives["e1"].wounds < 8


def test_a_concealed_torrent_target_gets_no_vantage_accurate() -> None:
    # a1 up on a 4" deck: Accurate 2 against the Engaged e1; the Concealed e2 in the open
    # (a valid target) is rolled with no Accurate at all (all 1s: four misses)
    deck = {"features": [{"id": "deck", "traits": ["heavy", "accessible", "vantage"],
                          "height": 4, "polygon": [[1, 8], [5, 8], [5, 12], [1, 12]]}]}
    game, state = _game(deck, [3, 10], 4, [6, 1] + [1] * 40)
    state.operatives["e1"].stance, state.operatives["e2"].stance = "engage", "conceal"
    record = step(game, state, {"type": "shoot", "target": "e1", "weapon": "flamer",
                                "roll": True})
    attack = next(e for e in record["events"] if e["type"] == "attack")
    lines = attack["lines"]
    assert lines[0] == "Accurate 2: 2 dice retained as normal hits without rolling."
    e2_lines = lines[lines.index("Torrent: e2.") + 1:]
    assert e2_lines[0] == "Attack dice (4+, crit 6+): 1 1 1 1."
    assert state.operatives["e2"].wounds == 8
