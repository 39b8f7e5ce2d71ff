"""What a move costs beyond its length, by the Kill Team 2024 card (001).

* Climbing and dropping: "MINIMUM climb cost of 2". Measure vertical distance, rounding UP to
  nearest 1", and subtract from Move stat." and "When dropping, or jumping off, Ignore 2"
  vertical drop PER activation".
* Razor wire: "Obstructing Terrain: Any move within 1" of this terrain costs additional 2"."

Walks, their advance along the route and the reachable points all pay them
(:mod:`solo_ops.geometry.routes.costs`). Reading: docs/rules.md, "Movement: climbing,
dropping, obstructing terrain, line walls".
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from solo_ops.geometry.routes import Routes
from tests.support.wall_boards import board as route_board


def test_climbing_and_dropping_by_the_card() -> None:
    """001 "MINIMUM climb cost of 2". Measure vertical distance, rounding UP to nearest 1", and
    subtract from Move stat." and "When dropping, or jumping off, Ignore 2" vertical drop PER
    activation". A 3" gantry (accessible, vantage) across the table at x 5-7: climbing on
    costs 3", dropping off 3 - 2 = 1"; a 1.2" platform costs the minimum 2" and no drop."""
    from solo_ops.geometry.routes import climb_cost, drop_cost

    assert [climb_cost(h) for h in (0.5, 1.2, 2.0, 2.1, 3.0)] == [2, 2, 2, 3, 3]
    assert [drop_cost(h) for h in (1.2, 2.0, 3.0, 4.5)] == [0, 0, 1, 3]
    gantry = {"traits": ["accessible", "vantage"], "height": 3,
              "polygon": [[5, 0], [7, 0], [7, 10], [5, 10]]}
    r = Routes(route_board(20, 10, gantry))
    on = r.walk((2, 5), (6, 5), 0.5)
    assert on is not None and on.length == pytest.approx(4.0) and on.cost == pytest.approx(7.0)
    over = r.walk((2, 5), (10, 5), 0.5)
    assert over is not None and over.cost == pytest.approx(8.0 + 3.0 + 1.0)
    # the move stops just short of the gantry's edge (0.05", on the floor, whatever the
    # rounding) when it cannot pay the climb
    end, spent = r.advance(over, 5.0)
    assert end == pytest.approx((4.95, 5.0)) and spent == pytest.approx(2.95)
    # ... and a move off the top that cannot pay the drop stops just short of it, on the top
    down = r.walk((6, 5), (2, 5), 0.5)
    assert down is not None and down.cost == pytest.approx(4.0 + 1.0)
    end, spent = r.advance(down, 1.5)
    assert end == pytest.approx((5.05, 5.0)) and spent == pytest.approx(0.95)
    low = {"traits": ["vantage"], "height": 1.2, "polygon": [[5, 0], [7, 0], [7, 10], [5, 10]]}
    w = Routes(route_board(20, 10, low)).walk((2, 5), (10, 5), 0.5)
    assert w is not None and w.cost == pytest.approx(8.0 + 2.0)


GANTRY = {"traits": ["accessible", "vantage"], "height": 3,
          "polygon": [[5, 0], [7, 0], [7, 10], [5, 10]]}
"""A 3" gantry across the table at x 5-7: 3" to climb on, 1" to drop off."""
SLOPE = {"traits": ["heavy", "accessible", "vantage"], "height": 4,
         "polygon": [[12, 1], [17, 6], [12, 6]]}
"""A 4" block with a diagonal side from (12, 1) to (17, 6): 4" to climb on, 2" to drop off."""


@pytest.mark.parametrize(("floor", "edge", "top", "climb", "drop"), [
    ((2.0, 5.0), (5.0, 5.0), (6.0, 5.0), 3.0, 1.0),  # the gantry's side, on the 0.01" grid
    ((15.5, 3.0), (14.5, 3.5), (13.5, 4.5), 4.0, 2.0),  # the block's diagonal side
])
def test_a_walk_split_on_an_outline_pays_its_climb_and_drop_once(
        floor: tuple[float, float], edge: tuple[float, float], top: tuple[float, float],
        climb: float, drop: float) -> None:
    """A model standing on a footprint's outline is beside it, on the floor: the walk that
    brought it there paid no climb, so the next walk up pays it; a walk from the top that
    ends on the outline pays the drop. Before, a move stopped on the outline (as ``advance``
    stops a move that cannot pay the climb) and the next went up for nothing, and the same
    on the way down: a climb split in two cost nothing at all."""
    r = Routes(route_board(20, 10, GANTRY, SLOPE))

    def surcharge(*pts: tuple[float, float]) -> float:
        walk = r.walk_through(list(pts), 0.5)
        return walk.cost - walk.length

    assert surcharge(floor, edge) == 0.0 and surcharge(edge, floor) == 0.0
    assert surcharge(edge, top) == pytest.approx(climb)
    assert surcharge(top, edge) == pytest.approx(drop)
    assert surcharge(floor, edge, top) == pytest.approx(climb)  # the whole walk, the same
    assert surcharge(top, edge, floor) == pytest.approx(drop)
    planned = r.walk(edge, top, 0.5)  # the walking graph prices it the same
    assert planned is not None and planned.cost == pytest.approx(planned.length + climb)
    reach = r.reachable(edge, 0.5, 2.0)  # 2": not enough to climb from the outline
    assert not any(abs(x - top[0]) < 1e-9 and abs(y - top[1]) < 1e-9
                   for x, y in reach.points.tolist())


def test_razor_wire_costs_any_move_within_one_inch() -> None:
    """001 Razor Wire: "Obstructing Terrain: Any move within 1" of this terrain costs
    additional 2"." A wire along y = 5 from x 4 to 6; bases of radius 0.5. A move ending at
    y = 6.4 (the base's edge 0.89" from the 0.02" strip) pays 2" (before: only a centre
    entering the strip paid); along y = 6.6 (1.09" away) it pays nothing; a move starting
    within 1" of it pays 2" however it leaves."""
    wire = {"traits": ["obstructing"], "line": [[4, 5], [6, 5]]}
    r = Routes(route_board(20, 10, wire))
    near = r.walk((5, 9), (5, 6.4), 0.5)
    assert near is not None
    assert near.length == pytest.approx(2.6) and near.cost == pytest.approx(4.6)
    end, spent = r.advance(near, 3.0)  # it stops just short of where the base comes within 1"
    assert end == pytest.approx((5, 6.56)) and spent == pytest.approx(2.44)  # 0.05" short
    far = r.walk((1, 6.6), (9, 6.6), 0.5)
    assert far is not None and far.cost == pytest.approx(8.0) and far.length == pytest.approx(8)
    away = r.walk((5, 6.2), (5, 9.5), 0.5)
    assert away is not None and away.cost == pytest.approx(3.3 + 2.0)
    reach_ = r.reachable((5, 6.2), 0.5, 3.0, spacing=0.5)
    assert all(c == 0.0 or c >= 2.0 for c in reach_.cost)  # 2" paid before the first step


def test_advance_many_answers_each_move_as_advance_does() -> None:
    """``Routes.advance_many`` (one walk, many movements: the placement rule's steps back)
    gives each movement exactly what ``advance`` gives it alone, surcharges included. The
    wire along y = 5 from x 4 to 6, a walk starting 1.2" from it (its base within 1"): 001
    "Any move within 1" of this terrain costs additional 2"", so a movement under 2" stays at
    the start having spent nothing, 2.5" walk 0.5" and 3" walk 1"."""
    wire = {"traits": ["obstructing"], "line": [[4, 5], [6, 5]]}
    away = Routes(route_board(20, 10, wire)).walk((5, 6.2), (5, 9.5), 0.5)
    assert away is not None
    moves = [0.5, 1.99, 2.5, 3.0, 5.3, 9.0]
    many = Routes(route_board(20, 10, wire)).advance_many(away, moves)
    alone = [Routes(route_board(20, 10, wire)).advance(away, m) for m in moves]
    assert many == alone
    assert many[0] == ((5.0, 6.2), 0.0) and many[1] == ((5.0, 6.2), 0.0)
    assert many[2][0] == pytest.approx((5.0, 6.7)) and many[2][1] == 2.5
    assert many[3][0] == pytest.approx((5.0, 7.2))
    assert many[5][0] == (5.0, 9.5) and many[5][1] == pytest.approx(5.3)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 30), st.floats(0.0, 1.0)), min_size=1, max_size=40))
def test_crossing_groups_are_numpys_unique_and_minimum(pairs: list[tuple[int, float]]) -> None:
    """The surcharge's grouping of crossings by (segment, footprint) gives what
    ``np.unique(..., return_inverse=True, return_counts=True)`` with ``np.minimum.at`` gave
    (the code before it), exactly: keys ascending, the count and the first crossing of each."""
    from solo_ops.geometry.routes.costs import crossing_groups

    key = np.array([k for k, _ in pairs], dtype=np.int64)
    t = np.array([x for _, x in pairs])
    keys, inv, counts = np.unique(key, return_inverse=True, return_counts=True)
    first = np.full(len(keys), np.inf)
    np.minimum.at(first, inv, t)
    got = crossing_groups(key, t)
    assert np.array_equal(got[0], keys) and np.array_equal(got[1], counts)
    assert np.array_equal(got[2], first)


def test_a_dash_s_board_climbs_nothing_but_walks_the_top_and_drops() -> None:
    """001 Dash: "cannot be used to climb". The board a Dash walks on (``(id, "no-climb")``,
    :data:`~solo_ops.geometry.board.NO_CLIMB`) prices a climb beyond any move, so the walk
    goes round or is refused; walking along the top and dropping off cost as before."""
    from solo_ops.geometry.routes.costs import UNCLIMBABLE

    b = route_board(20, 10, GANTRY)
    dash = Routes(b.with_changes([("f0", "no-climb")]))

    def surcharge(r: Routes, *pts: tuple[float, float]) -> float:
        walk = r.walk_through(list(pts), 0.5)
        return walk.cost - walk.length

    assert surcharge(Routes(b), (4.0, 5.0), (6.0, 5.0)) == pytest.approx(3.0)
    assert surcharge(dash, (4.0, 5.0), (6.0, 5.0)) >= UNCLIMBABLE
    assert surcharge(dash, (5.0, 5.0), (6.0, 5.0)) >= UNCLIMBABLE  # from the outline too
    assert surcharge(dash, (6.0, 2.0), (6.0, 8.0)) == 0.0  # along the top
    assert surcharge(dash, (6.0, 5.0), (8.0, 5.0)) == pytest.approx(1.0)  # the drop


TOWER = {"traits": ["accessible", "vantage"], "height": 4,
         "polygon": [[20, 7], [23, 7], [23, 10], [20, 10]]}
"""A 4" tower, 3" square: 4" to climb on, 4 - 2 = 2" to drop off."""


@pytest.mark.parametrize(("pts", "surcharge"), [
    ([(25.0, 5.0), (21.0, 9.0)], 4.0),  # in through the corner (23, 7), ends on top
    ([(35.0, 1.0), (19.0, 9.0)], 6.0),  # in through the corner, out across the west side
    ([(21.0, 9.0), (25.0, 5.0)], 2.0),  # off the top through the corner
    ([(22.0, 6.0), (24.0, 8.0)], 0.0),  # grazes the corner: never on the tower
    ([(19.0, 6.0), (24.0, 11.0)], 6.0),  # corner to corner across the top: on and off
])
def test_a_leg_through_a_corner_pays_as_any_other(pts: list[tuple[float, float]],
                                                   surcharge: float) -> None:
    """A straight leg that goes onto a footprint exactly through one of its corners climbs it
    as a leg a hair beside the corner does: a corner is where two sides meet, so the leg
    crosses neither side properly and the count of crossings missed the climb (the referee
    audit's flag, Manufactorum, Kill Team 2018, seed 1: an enemy's move onto tower-1 through
    its corner (23, 4) cost its 5.8" length where a player's walk paid 9.8"). A leg that only
    grazes the corner pays nothing."""
    r = Routes(route_board(40, 16, TOWER))
    walk = r.walk_through(pts, 0.5)
    assert walk is not None and walk.cost - walk.length == pytest.approx(surcharge)


def test_a_reachable_point_through_a_corner_costs_its_walk() -> None:
    """The planner's reachable points and the walk a player's move is judged by agree on a
    leg onto the tower through its corner (23, 7): 4" of climb on the 5.66" leg, both ways
    (one referee: the enemy may not reach for less than a player would pay)."""
    r = Routes(route_board(40, 16, TOWER))
    start, end = (25.0, 5.0), (21.0, 9.0)
    walk = r.walk(start, end, 0.5)
    reach = r.reachable(start, 0.5, 12.0)
    at = np.flatnonzero(np.hypot(*(reach.points - end).T) < 1e-9)
    assert walk is not None and walk.cost == pytest.approx(4 * 2 ** 0.5 + 4.0)
    assert len(at) == 1 and reach.cost[at[0]] == pytest.approx(walk.cost)


@settings(max_examples=60, deadline=None)
@given(corner=st.sampled_from([(20.0, 7.0), (23.0, 7.0), (23.0, 10.0), (20.0, 10.0)]),
       angle=st.floats(0.0, 2 * np.pi), before=st.floats(0.3, 6.0), after=st.floats(0.3, 6.0))
def test_legs_through_a_corner_pay_what_shapely_says(corner: tuple[float, float], angle: float,
                                                     before: float, after: float) -> None:
    """Any straight leg through a corner of the tower pays the climb if it goes inside from
    outside and the drop if it comes out, by an independent reading: shapely's overlap of the
    leg with the tower shrunk by a hair (the tower is convex: in at most once). Legs that run
    along a side (within 0.01 rad of one) are left out: they are beside it, by a tolerance."""
    from shapely.geometry import LineString, Point, Polygon

    d = np.array([np.cos(angle), np.sin(angle)])
    sides = np.mod(angle, np.pi / 2)
    assume(min(sides, np.pi / 2 - sides) >= 0.01)
    a, b = np.array(corner) - before * d, np.array(corner) + after * d
    core = Polygon(TOWER["polygon"]).buffer(-1e-6)
    over = LineString([a, b]).intersection(core).length > 1e-6
    climbs = over and not core.contains(Point(a))
    drops = over and not core.contains(Point(b))
    walk = Routes(route_board(40, 16, TOWER)).walk_through([tuple(a), tuple(b)], 0.5)
    assert walk is not None
    assert walk.cost - walk.length == pytest.approx(4.0 * climbs + 2.0 * drops)
