"""Games made on the same board in one thread share its terrain (issue 39: the compiled
geometry and its remembered answers are built once, not at every game a test run, a served
table's replay or a campaign makes), and sharing changes no game."""

from __future__ import annotations

import json
import threading
from dataclasses import replace

import pytest

from solo_ops.game.engine import new_game
from solo_ops.game.state import State
from solo_ops.geometry.terrain import TerrainCache
from solo_ops.io.scenario import load_scenario
from solo_ops.rules import killzones
from solo_ops.sim import autopilot
from tests.support.paths import SCENARIOS

SWEEP = SCENARIOS / "volkus-manufactorum-sweep.yaml"
RAID = SCENARIOS / "gallowdark-night-raid.yaml"


def _log(state: State) -> str:
    return json.dumps(state.log, sort_keys=True, default=str)


def test_games_on_one_board_share_its_terrain_and_other_boards_do_not() -> None:
    first, at_first = new_game(load_scenario(SWEEP), 1)
    again, at_again = new_game(load_scenario(SWEEP), 2)  # the file read again: another Board
    other, _ = new_game(load_scenario(RAID), 1)
    assert again.scenario.board is not first.scenario.board
    assert again.terrains is first.terrains
    assert again.terrain(at_again) is first.terrain(at_first)  # the same compiled terrain
    assert other.terrains is not first.terrains


def test_a_board_changed_anywhere_is_another_board() -> None:
    board = load_scenario(SWEEP).board
    wall = board.features[0]
    taller = replace(board, features=(replace(wall, height=(wall.height or 0) + 1),
                                      *board.features[1:]))
    renamed = replace(board, name=board.name + " (copy)")
    zones_reversed = replace(board, zones=dict(reversed(list(board.zones.items()))))
    objective = board.objectives[0]
    moved = replace(board, objectives=(replace(objective, at=(objective.at[0] + 0.5,
                                                              objective.at[1])),
                                       *board.objectives[1:]))
    assert load_scenario(SWEEP).board.identity == board.identity
    assert len(board.zones) > 1 and list(zones_reversed.zones) != list(board.zones)
    for other in (taller, renamed, zones_reversed, moved):  # (zones are listed in their order)
        assert other.identity != board.identity
    assert TerrainCache.shared(taller) is not TerrainCache.shared(board)


def test_another_thread_keeps_its_own() -> None:
    board = load_scenario(SWEEP).board
    mine = TerrainCache.shared(board)
    theirs: list[TerrainCache] = []
    worker = threading.Thread(target=lambda: theirs.append(TerrainCache.shared(board)))
    worker.start()
    worker.join()
    assert theirs and theirs[0] is not mine and TerrainCache.shared(board) is mine


def test_a_game_on_a_warm_shared_terrain_is_the_game_on_a_fresh_one() -> None:
    scenario = load_scenario(SWEEP)
    warm, state = new_game(scenario, 11)
    autopilot.play(warm, state, "objective")  # fills the shared terrain's memos
    game, played = new_game(scenario, 12)
    assert game.terrains is warm.terrains
    autopilot.play(game, played, "objective")
    fresh = TerrainCache(killzones.board_in_play(scenario.board, scenario.edition))
    alone, oracle = new_game(scenario, 12, terrains=fresh)
    assert alone.terrains is fresh
    autopilot.play(alone, oracle, "objective")
    assert _log(played) == _log(oracle)
    assert len(played.log) > 10


def test_a_cache_of_the_same_board_read_again_is_shared_and_of_another_is_refused() -> None:
    """``new_game(..., terrains=)`` (a replay, the simulator) takes a cache of the same board
    even from another reading of the file, and refuses one of another board."""
    mine = TerrainCache(load_scenario(RAID).board)
    game, _ = new_game(load_scenario(RAID), 1, terrains=mine)
    assert game.terrains is mine
    with pytest.raises(ValueError, match="another board"):
        new_game(load_scenario(SWEEP), 1, terrains=mine)
