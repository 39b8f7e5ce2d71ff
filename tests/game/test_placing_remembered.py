"""The walks and first contacts :mod:`solo_ops.game.placing` remembers are the geometry's own
answers for the same inputs: a base moved, another radius or budget, another terrain is asked
afresh, and the memory, kept on the terrain (it dies with it), stays bounded."""

from __future__ import annotations

import pytest

from solo_ops.game import placing
from solo_ops.geometry import placement
from solo_ops.geometry.placement import Base
from solo_ops.geometry.terrain import Terrain
from solo_ops.io.scenario import parse_board

BOARD = {"name": "open", "width": 30, "depth": 22,
         "features": [{"id": "wall-n", "traits": ["wall"], "line": [[5, 12], [25, 12]]}]}
ROUTE = ((2.0, 11.0), (14.0, 11.0))


def _terrain() -> Terrain:
    return Terrain(parse_board(BOARD, "open.yaml"))


def test_a_remembered_answer_is_the_geometrys_for_the_same_inputs() -> None:
    terrain = _terrain()
    walk = placing.walk_along(terrain, ROUTE, 0.5)
    assert walk == terrain.routes.walk_through(ROUTE, 0.5)
    assert placing.walk_along(terrain, list(ROUTE), 0.5) is walk  # the same points, remembered
    for others in ([Base(8.0, 11.0, 0.5, "e2")], [Base(8.0, 13.5, 0.5, "e2")], []):
        for budget in (walk.cost, 4.0, 7.0):
            want = placement.first_contact(terrain, walk, budget, 0.5, others)
            assert placing.first_contact(terrain, walk, budget, 0.5, others) == want
            assert placing.first_contact(terrain, walk, budget, 0.5, others) == want
    # (its base runs into e2's past the touch: 5.05" on, the first 0.05" step beyond 5")
    assert placing.first_contact(terrain, walk, walk.cost, 0.5,
                                 [Base(8.0, 11.0, 0.5)]) == pytest.approx(5.05)
    assert placing.first_contact(terrain, walk, 4.0, 0.5, [Base(8.0, 11.0, 0.5)]) is None
    other = placing.walk_along(_terrain(), ROUTE, 0.5)  # another terrain: asked afresh
    assert other == walk and other is not walk


def test_the_memory_is_bounded() -> None:
    terrain = _terrain()
    for k in range(placing.WALKS_KEPT + 5):
        walk = placing.walk_along(terrain, ((2.0, 11.0), (3.0 + k / 100, 11.0)), 0.5)
        placing.first_contact(terrain, walk, walk.cost, 0.5, [Base(8.0, 11.0, 0.5)])
    assert len(terrain.walk_answers) <= placing.WALKS_KEPT
    assert len(_terrain().walk_answers) == 0  # each terrain its own: none kept elsewhere
