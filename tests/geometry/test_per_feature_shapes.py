"""What is worked out from one terrain feature alone (a line wall's strip, a footprint's
surcharged areas and their rings) is made once per feature object and shared by every board
that keeps that object: the planner's open-doors terrain (``Context.all_open``) and a Kill Team
2018 effect's changed board rebuild only the features that changed. The shared shapes must
give exactly what a fresh build gives."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from solo_ops.geometry import shapes
from solo_ops.geometry.board import Board, parse_board
from solo_ops.geometry.routes import Routes, costs
from solo_ops.io.yamlio import read_document
from tests.support.paths import BOARDS

STRONGHOLD = BOARDS / "volkus-stronghold.yaml"  # upper floors: climbs surcharged; doors


def load_board(path: object) -> Board:
    """A shipped board, parsed afresh (new feature objects each time)."""
    return parse_board(read_document(path), str(path))


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


def test_an_opened_door_rebuilds_only_the_changed_features(
        monkeypatch: pytest.MonkeyPatch) -> None:
    board = load_board(STRONGHOLD)
    Routes(board)  # every feature's parts made once
    doors = [f for f in board.features if f.closed_portal]
    opened = board.with_open({f.id: True for f in doors})
    kept = [f for f in opened.features if f.id not in {d.id for d in doors}]
    assert all(any(f is g for g in board.features) for f in kept)  # the same objects
    made: list[str] = []
    real = costs.surcharged_parts

    def counted(f: Any, radius: float) -> Any:
        made.append(f.id)
        return real(f, radius)

    monkeypatch.setattr(costs, "surcharged_parts", counted)
    Routes(opened)
    assert sorted(made) == sorted(f.id for f in doors)  # the opened doors alone


def test_the_shared_shapes_give_what_a_fresh_build_gives() -> None:
    """The open-doors routes built after the closed board's (the features' parts shared) and
    built from a board parsed afresh (every part made anew) answer the same, to the bit: the
    corner distances, walks over the surcharged upper floors and a reach's costs."""
    shared_board = load_board(STRONGHOLD)
    Routes(shared_board)
    shared = Routes(shared_board.with_open({f.id: True for f in shared_board.portals()}))
    fresh_board = load_board(STRONGHOLD)
    fresh = Routes(fresh_board.with_open({f.id: True for f in fresh_board.portals()}))
    assert np.array_equal(shared.corner_distances, fresh.corner_distances)
    pts = np.array([[3.0, 3.0], [15.0, 11.0], [27.0, 19.0], [10.0, 20.0], [3.5, 14.5]])
    assert np.array_equal(shared.distance_matrix(pts, 0.5, pts, 0.5),
                          fresh.distance_matrix(pts, 0.5, pts, 0.5))
    climbed = 0
    for a in pts:
        for b in pts:
            w1, w2 = shared.walk(a, b, 0.5), fresh.walk(a, b, 0.5)
            assert (w1 is None) == (w2 is None)
            if w1 is not None and w2 is not None:
                assert (w1.points, w1.length, w1.cost) == (w2.points, w2.length, w2.cost)
                climbed += w1.cost > w1.length + 1e-9
        r1, r2 = shared.reachable(a, 0.5, 6.0), fresh.reachable(a, 0.5, 6.0)
        assert np.array_equal(r1.points, r2.points) and np.array_equal(r1.cost, r2.cost)
    assert climbed > 0  # some walk paid a surcharge: the shared parts were used
