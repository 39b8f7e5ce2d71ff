"""A terrain builds its sight queries at the first sight question, not before: the planner's
open-doors terrain (:meth:`solo_ops.ai.context.Context.all_open`) only ever asks it where a
route would go, and building the sight queries it never used cost about a tenth of the enemy's
first turn of ``bench/bench_ai.py``."""

from __future__ import annotations

from solo_ops.geometry.sight import Sight
from solo_ops.geometry.terrain import Terrain, TerrainCache
from tests.support.wall_boards import board, wall

BOARD = board(30, 22, wall((15, 4), (15, 18)))


def test_routes_alone_build_no_sight() -> None:
    terrain = Terrain(BOARD)
    route = terrain.routes.distance((10, 11), (20, 11), 0.5, 0.5)
    assert route.distance is not None and route.distance > 15  # round the wall's end, not 9"
    assert "sight" not in vars(terrain)


def test_the_first_sight_question_builds_it_once_with_the_same_answers() -> None:
    terrain = Terrain(BOARD)
    first = terrain.sight
    assert terrain.sight is first  # built once, then kept
    fresh = Sight(BOARD)
    for a, b in [((10, 11), (20, 11)), ((10, 2), (20, 2)), ((10, 20), (20, 11))]:
        assert first.visible(a, b, 0.5, 0.5) == fresh.visible(a, b, 0.5, 0.5)
    assert not first.visible((10, 11), (20, 11), 0.5, 0.5)  # the wall between them
    assert first.visible((10, 2), (20, 2), 0.5, 0.5)  # below the wall's end


def test_a_cached_door_state_builds_sight_only_when_asked() -> None:
    cache = TerrainCache(BOARD)
    terrain = cache.get()
    assert "sight" not in vars(terrain)
    assert terrain.sight is cache.get().sight
