"""A simulated mission leaves out the words only players read, and is the same game.

Nobody reads the simulator's missions (``rate``, ``new --difficulty``): only their results are
kept. So ``rating.play_one`` turns ``Game.words`` off, and the events leave out the words that
cost geometry to find (a move's ``detour``, "around crate-2"; what blocks an enemy's way). The
game must be the same: every step's answer and dice, and the final state with its secrets.
The night raid with seed 3 is a short game (some fifty steps) whose moves say both.
"""

from __future__ import annotations

import functools
import json
from typing import Any

from solo_ops.game.engine import new_game
from solo_ops.game.state import State
from solo_ops.io.scenario import load_scenario
from solo_ops.sim import autopilot, rating
from tests.support.paths import SCENARIOS

NIGHT_RAID = SCENARIOS / "gallowdark-night-raid.yaml"


@functools.cache
def played(words: bool) -> State:
    """The night raid, seed 3, played once each way by the autopilot (read only)."""
    game, state = new_game(autopilot.simulated(load_scenario(NIGHT_RAID)), 3)
    game.words = words
    return autopilot.play(game, state)


def the_game(state: State) -> Any:
    """Every step's number, answer and dice faces, and the final state with its secrets."""
    steps = [[r["n"], r["action"], [x["faces"] for x in r["rolls"]]] for r in state.log]
    return json.loads(json.dumps([steps, state.to_dict(secrets=True)], default=str))


def test_a_game_without_the_unread_words_is_the_same_game() -> None:
    read, unread = played(True), played(False)
    assert the_game(unread) == the_game(read)
    told, untold = json.dumps(read.log), json.dumps(unread.log)
    assert told.count('"detour"') >= 3 and "is blocked by" in told
    assert '"detour"' not in untold and "is blocked by" not in untold


def test_the_simulator_plays_its_missions_without_them() -> None:
    read = played(True)
    result = rating.play_one(load_scenario(NIGHT_RAID), 3, "objective")
    assert (result.outcome, result.vp_player, result.vp_enemy, result.steps) == (
        read.result["outcome"], read.result["vp"]["player"], read.result["vp"]["enemy"],
        len(read.log))
