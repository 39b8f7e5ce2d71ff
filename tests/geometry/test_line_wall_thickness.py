"""A wall drawn as a line has no thickness for measuring (002 Gallowdark "Distances not
measured through walls – shortest route instead."): a route round its end is the straight-line
geometry to a few millionths of an inch, while a walking base keeps its clearance. Reading:
docs/rules.md, "Movement: climbing, dropping, obstructing terrain, line walls".
"""

from __future__ import annotations

import math

import pytest

from solo_ops.geometry.routes import Routes
from tests.support.wall_boards import board as route_board
from tests.support.wall_boards import wall


def test_a_point_route_round_the_end_of_a_line_wall_is_the_straight_line_geometry() -> None:
    """002 Gallowdark "Distances not measured through walls – shortest route instead." A wall
    from (10, 0) to (10, 6): from (5, 2) to (15, 2) the route bends at the wall's end (10, 6):
    2 * hypot(5, 4) exactly (to a few millionths), not a few hundredths more."""
    r = Routes(route_board(20, 10, wall((10, 0), (10, 6))))
    exact = 2 * math.hypot(5, 4)
    assert r.distance((5, 2), (15, 2)).distance == pytest.approx(exact, abs=1e-5)
    # bases: the same route less the two radii
    assert r.distance((5, 2), (15, 2), 0.5, 0.5).distance == pytest.approx(exact - 1, abs=1e-5)
    # a walking base keeps its clearance: it walks round the 0.02" strip grown by its radius
    w = r.walk((5, 2), (15, 2), 0.5)
    assert w is not None and w.length > exact + 0.01
