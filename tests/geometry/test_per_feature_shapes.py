"""What is worked out from one terrain feature alone (a line wall's strip, a footprint's
surcharged areas and their rings) is made once per feature object and shared by every board
that keeps that object: the planner's open-doors terrain (``Context.all_open``) and a Kill Team
2018 effect's changed board rebuild only the features that changed. The shared shapes must
give exactly what a fresh build gives."""

from __future__ import annotations

import numpy as np

from solo_ops.geometry import shapes
from solo_ops.geometry.board import Board, parse_board
from solo_ops.geometry.routes import Routes
from solo_ops.geometry.routes.costs import _Soft
from solo_ops.io.yamlio import read_document
from tests.support.paths import BOARDS

STRONGHOLD = BOARDS / "volkus-stronghold.yaml"


def load_board(path: object) -> Board:
    """A shipped board, parsed afresh (new feature objects each time)."""
    return parse_board(read_document(path), str(path))


def _fresh_soft(board: Board, radius: float) -> _Soft:
    """``_Soft.of`` with the per-feature memo bypassed (every feature's parts made anew)."""
    from solo_ops.geometry.routes import costs

    parts = [p for f in board.features for p in costs._soft_parts(f, radius)]
    return _Soft([p[0] for p in parts], [p[1] for p in parts], [p[4] for p in parts],
                 [p[2] for p in parts], [p[3] for p in parts])


def test_a_line_walls_strip_is_made_once_per_feature_and_thickness() -> None:
    board = load_board(STRONGHOLD)
    line = next(f for f in board.features if f.is_line)
    strip = shapes.feature_area(line)
    assert shapes.feature_area(line) is strip
    thin = shapes.feature_area(line, shapes.MEASURE_THICKNESS)
    assert thin is not strip and thin.area < strip.area
    # the strip is the wall's line grown by half the thickness, square ends: its area is
    # (length + thickness) * thickness
    assert abs(strip.area - (line.shape.length + 0.02) * 0.02) < 1e-12


def test_an_opened_door_keeps_the_other_features_shapes_and_gets_its_own() -> None:
    board = load_board(STRONGHOLD)
    door = next(f for f in board.features if f.closed_portal)
    opened = board.with_open({door.id: True})
    kept = [f for f in opened.features if f.id != door.id]
    assert all(any(f is g for g in board.features) for f in kept)  # the same objects
    new_door = opened.feature(door.id)
    assert new_door is not door and new_door.open
    before = _Soft.of(board, 0.5)
    after = _Soft.of(opened, 0.5)
    # the upper floors' surcharges are the very same objects on both boards
    shared = {id(p) for p in before.polys} & {id(p) for p in after.polys}
    assert len(shared) == len(before.polys) > 0


def test_the_shared_shapes_give_what_a_fresh_build_gives() -> None:
    board = load_board(STRONGHOLD)
    Routes(board)  # fills the memo for every feature of the closed board
    opened = board.with_open({f.id: True for f in board.portals()})
    for radius in (0.0, 0.5, 0.63):
        memo, fresh = _Soft.of(opened, radius), _fresh_soft(opened, radius)
        assert [p.wkb for p in memo.polys] == [p.wkb for p in fresh.polys]
        assert memo.amounts == fresh.amounts and memo.exits == fresh.exits
        assert memo.obstructing == fresh.obstructing
        assert np.array_equal(memo.ev, fresh.ev) and np.array_equal(memo.owner, fresh.owner)
    a, b = Routes(opened), Routes(opened)
    assert np.array_equal(a.corner_distances, b.corner_distances)
    pts = np.array([[3.0, 3.0], [15.0, 11.0], [27.0, 19.0], [10.0, 20.0]])
    assert np.array_equal(a.distance_matrix(pts, 0.5, pts, 0.5),
                          b.distance_matrix(pts, 0.5, pts, 0.5))
