"""``Sight.sight_line``: the line a picture draws a shot along. A shot that sees past a wall's
end was drawn centre to centre, through the wall (a play-tester's phone showed cultist-1
shooting Scout Tam through wall-1); the line drawn is now a clear one between the two bases,
checked here against shapely directly."""

from __future__ import annotations

import math

import pytest
from shapely.geometry import LineString

from solo_ops.geometry.sight import Sight
from tests.support.wall_boards import board, wall

R = 0.5
WALL = ((10.0, 2.0), (10.0, 12.0))


def _sight() -> Sight:
    return Sight(board(20, 20, wall(*WALL)))


def _on_base(p: tuple[float, float], centre: tuple[float, float]) -> bool:
    return math.dist(p, centre) <= R + 1e-9


def test_a_clear_centre_line_is_drawn_as_it_is() -> None:
    a, b = (8.0, 15.0), (12.0, 15.0)
    assert _sight().sight_line(a, b, R, R) == (a, b)


def test_bases_that_do_not_see_each_other_have_no_line() -> None:
    assert _sight().sight_line((8.0, 7.0), (12.0, 7.0), R, R) is None


@pytest.mark.parametrize("y", [11.6, 11.8, 11.95])
def test_a_line_past_the_wall_end_keeps_off_the_wall(y: float) -> None:
    """Centres level just below the wall's end at y = 12: the centre line hits the wall, the
    bases' upper edges see past it. The line drawn joins the two bases and misses the wall."""
    sight = _sight()
    a, b = (8.0, y), (12.0, y)
    assert LineString([a, b]).intersects(LineString(WALL))  # the centre line hits the wall
    assert sight.visible(a, b, R, R)
    line = sight.sight_line(a, b, R, R)
    assert line is not None and line != (a, b)
    p, q = line
    assert _on_base(p, a) and _on_base(q, b)
    assert not LineString([p, q]).intersects(LineString(WALL))
    # it passes the wall's end (x = 10) above y = 12, where the sight is
    t = (10.0 - p[0]) / (q[0] - p[0])
    assert p[1] + t * (q[1] - p[1]) > 12.0
