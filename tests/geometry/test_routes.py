"""Distances around walls and walking paths (:mod:`solo_ops.geometry.routes`).

Hand-computed cases first, then property tests against the slow oracle
(``tests/support/geometry_oracle.py``) on small random boards.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString, Point, box

from solo_ops.geometry import shapes
from solo_ops.geometry.board import Board
from solo_ops.geometry.routes import Reach, Route, Routes, Walk
from solo_ops.geometry.routes.query import STOP_SHORT
from tests.support.budget import examples
from tests.support.geometry_oracle import OracleRoutes
from tests.support.wall_boards import board, wall

HALF = shapes.WALL_THICKNESS / 2  # a line wall reaches this far either side (and past its ends)
MHALF = shapes.MEASURE_THICKNESS / 2  # the same for measuring: zero thickness in effect
R32 = 32 / 25.4 / 2






# -- measuring ---------------------------------------------------------------------------------
def test_open_board_is_straight_and_subtracts_radii() -> None:
    r = Routes(board(20, 10))
    route = r.distance((2, 5), (12, 5), 0.5, 0.7)
    assert route.distance == pytest.approx(10 - 0.5 - 0.7)
    assert route.points == ((2.0, 5.0), (12.0, 5.0))
    assert r.distance((2, 5), (2.5, 5), 0.5, 0.7).distance == 0.0  # bases overlap
    assert r.distance((3, 3), (3, 3)).distance == 0.0


def test_route_through_gap_in_wall() -> None:
    # a wall along x = 10 with a gap between y = 4 and y = 6
    b = board(20, 10, wall((10, 0), (10, 4)), wall((10, 6), (10, 10)))
    r = Routes(b)
    route = r.distance((5, 8), (15, 8))
    # a line wall has no thickness for measuring (issue 14 item 13): round the gap's top end
    # at (10, 6) exactly, the straight-line geometry
    expected = 2 * math.hypot(5, 8 - 6)
    assert route.distance == pytest.approx(expected, abs=1e-5)
    assert route.points[0] == (5.0, 8.0) and route.points[-1] == (15.0, 8.0)
    np.testing.assert_allclose(route.points[1:-1], [(10 - MHALF, 6 - MHALF),
                                                    (10 + MHALF, 6 - MHALF)], atol=1e-6)
    # through the gap horizontally: straight
    assert r.distance((5, 5), (15, 5)).distance == pytest.approx(10.0)
    # bases' radii come off the route
    assert r.distance((5, 8), (15, 8), 1.0, 0.5).distance == pytest.approx(expected - 1.5)


def sealed_room(door_open: bool) -> Board:
    return board(
        20, 20,
        wall((5, 5), (15, 5), (15, 15), (5, 15), (5, 11)),
        {"traits": ["door"], "line": [[5, 11], [5, 9]], "open": door_open},
        wall((5, 9), (5, 5)),
    )


def test_closed_door_seals_room_and_open_door_is_straight() -> None:
    closed = Routes(sealed_room(False))
    route = closed.distance((10, 10), (2, 10))
    assert route == Route(None, ())
    assert math.isinf(closed.distances((10, 10), 0.0, [(2, 10)], 0.0)[0])
    assert closed.distance((10, 10), (12, 12)).distance == pytest.approx(math.hypot(2, 2))
    opened = Routes(sealed_room(True))
    assert opened.distance((10, 10), (2, 10)).distance == pytest.approx(8.0)
    # not in line with the door: round the jamb's end at (5, 9) exactly (no thickness)
    d = opened.distance((10, 6), (2, 6)).distance
    exp = math.hypot(10 - 5, 9 - 6) + math.hypot(5 - 2, 9 - 6)
    assert d == pytest.approx(exp, abs=1e-5)


def test_touching_panels_leave_no_seam() -> None:
    # two panels meeting at (10, 5) span the whole depth: no way through the seam
    b = board(20, 10, wall((10, 0), (10, 5)), wall((10, 5), (10, 10)))
    assert Routes(b).distance((5, 5), (15, 5)).distance is None
    # an L of two touching panels: the route goes round the end, not through the joint
    b = board(20, 10, wall((8, 2), (10, 5)), wall((10, 5), (10, 9)))
    d = Routes(b).distance((8, 6), (12, 4)).distance
    assert d is not None and d > math.hypot(4, 2) + 1.0
    assert d == pytest.approx(OracleRoutes(b).distance((8, 6), (12, 4)).distance, abs=1e-6)


def test_distances_and_matrix_agree_with_distance() -> None:
    b = board(20, 10, wall((10, 0), (10, 4)), wall((10, 6), (10, 10)), wall((3, 3), (6, 3)))
    r = Routes(b)
    A = np.array([[5.0, 8.0], [2.0, 1.0], [15.0, 2.0]])
    B = np.array([[15.0, 8.0], [4.5, 5.0], [12.0, 9.5], [2.0, 1.0]])
    m = r.distance_matrix(A, 0.3, B, [0.1, 0.2, 0.3, 0.4])
    for i, a in enumerate(A):
        row = r.distances(a, 0.3, B, [0.1, 0.2, 0.3, 0.4])
        assert row == pytest.approx(m[i])
        for j, q in enumerate(B):
            assert m[i, j] == pytest.approx(r.distance(a, q, 0.3, [0.1, 0.2, 0.3, 0.4][j])
                                            .distance, abs=1e-6)


def test_pitfall_blocks_walking_but_not_measuring() -> None:
    pit = {"traits": ["pitfall"], "polygon": [[8, 2], [12, 2], [12, 8], [8, 8]]}
    b = board(20, 10, pit)
    r = Routes(b)
    assert r.distance((5, 5), (15, 5)).distance == pytest.approx(10.0)
    walk = r.walk((5, 5), (15, 5), 0.5)
    assert walk is not None
    assert walk.length > 10.5
    assert not r.fits((10, 5), 0.5)
    assert r.fits((5, 5), 0.5)
    o = OracleRoutes(b).walk((5, 5), (15, 5), 0.5)
    assert o is not None and walk.length == pytest.approx(o.length, abs=1e-6)


def test_base_too_wide_for_gap() -> None:
    # a wall across the whole table with a 1" gap (0.98" between the strips)
    full = board(20, 10, wall((10, 0), (10, 4.5)), wall((10, 5.5), (10, 10)))
    r = Routes(full)
    assert r.walk((5, 5), (15, 5), R32) is None  # 32 mm base: 1.26" wide
    small = r.walk((5, 5), (15, 5), 0.4)  # a 0.8" base fits through
    assert small is not None and small.length == pytest.approx(10.0)
    # the wall stops short of both edges: the wide base walks round instead
    part = board(20, 10, wall((10, 2), (10, 4.5)), wall((10, 5.5), (10, 8)))
    walk = Routes(part).walk((5, 5), (15, 5), R32)
    assert walk is not None and walk.length > 11.0
    assert all(p[1] < 2 or p[1] > 8 for p in walk.points[1:-1])


def test_walk_keeps_clear_of_other_bases() -> None:
    r = Routes(board(20, 10))
    assert r.walk((2, 5), (18, 5), 0.5).length == pytest.approx(16.0)
    w = r.walk((2, 5), (18, 5), 0.5, blockers=[(10, 5, 0.5)])
    assert w is not None and w.length > 16.0
    assert not r.fits((10, 5.5), 0.5, blockers=[(10, 5, 0.5)])
    assert r.fits((10, 6.5), 0.5, blockers=[(10, 5, 0.5)])
    assert not r.fits((0.2, 5), 0.5)  # over the board edge
    np.testing.assert_array_equal(r.fits_many([(10, 5.5), (10, 6.5), (0.2, 5)], 0.5,
                                              blockers=[(10, 5, 0.5)]), [False, True, False])


def test_advance_along_bent_path() -> None:
    r = Routes(board(20, 10))
    walk = Walk(((0.0, 0.0), (3.0, 0.0), (3.0, 4.0)), 7.0, 7.0)
    end, spent = r.advance(walk, 5.0)
    assert end == pytest.approx((3.0, 2.0)) and spent == 5.0
    end, spent = r.advance(walk, 2.0)
    assert end == pytest.approx((2.0, 0.0)) and spent == 2.0
    end, spent = r.advance(walk, 10.0)
    assert end == (3.0, 4.0) and spent == pytest.approx(7.0)


def test_advance_pays_an_open_hatchway_met_at_a_bend_of_the_route() -> None:
    """002 "Hatchway: … Accessible … while open", 001 "Accessible - Costs 1" to move through":
    a wall along x = 10 with an open hatchway between y = 6 and 8. The walk from (8, 3) to
    (12, 11) bends round the hatchway's ends (its points on the hatchway's outline): it costs
    its length and 1". ``advance`` pays that 1" where the walk's cost counts it (it did not:
    a relative move ``move 6 toward`` past a hatchway was then refused as 7" of movement).
    Straight through from (8, 7): the strip starts at x = 10 - HALF, 2 - HALF" along; 3" of
    movement reach x = 10 (2 - HALF walked, 1" paid, HALF walked); 2.5" stop 0.05" before it
    (``STOP_SHORT``: the stop stays on the floor whatever the rounding)."""
    hatchway = {"traits": ["hatch"], "line": [[10, 6], [10, 8]], "open": True}
    r = Routes(board(20, 14, wall((10, 0), (10, 6)), hatchway, wall((10, 8), (10, 14))))
    straight = r.walk_through([(8.0, 7.0), (12.0, 7.0)], 0.5)
    assert straight.cost == pytest.approx(5.0)
    assert r.advance(straight, 3.0) == (pytest.approx((10.0, 7.0)), 3.0)
    end, spent = r.advance(straight, 2.5)  # 0.05" short of the strip, on its near side
    assert end == pytest.approx((10 - HALF - STOP_SHORT, 7.0))
    assert spent == pytest.approx(2 - HALF - STOP_SHORT)
    bent = r.walk((8.0, 3.0), (12.0, 11.0), 0.5)
    assert bent is not None and bent.cost == pytest.approx(bent.length + 1.0)
    for move in np.linspace(0.5, bent.cost + 1.0, 40):
        end, spent = r.advance(bent, float(move))
        part = r.walk_to(bent, end)
        assert part.cost == pytest.approx(spent, abs=1e-9) and spent <= move + 1e-9, move
    assert r.advance(bent, bent.cost)[0] == bent.points[-1]


def test_the_reported_move_through_hatch_9_costs_the_move() -> None:
    """Played in tmux (night raid, seed 23, turning point 2): Vale at (4.2, 15.17), Kell's
    base at (3.81, 16.28), ``move 6 toward obj-2`` (at 8, 16.5): the walk goes round Kell
    and through hatch-9. 6" of movement used to reach (6.23, 17.11), a point 7" of movement
    away (the hatchway's 1" not paid), so the game refused its own proposal; now they end
    where the walk there costs 6", just through the hatchway."""
    r = surcharged("gallowdark")
    radius = 25 / 25.4 / 2
    walk = r.walk((4.2, 15.17), (8.0, 16.5), radius, blockers=[(3.81, 16.28, radius)])
    assert walk is not None and walk.cost == pytest.approx(walk.length + 1.0)
    end, spent = r.advance(walk, 6.0)
    assert spent == 6.0 and r.walk_to(walk, end).cost == pytest.approx(6.0)
    assert 5.0 < end[0] < 5.5  # through the hatchway at x = 5, 1" short of where it was


@functools.cache
def surcharged(name: str) -> Routes:
    """A shipped board with surcharges (its routes built once per worker)."""
    from solo_ops.cli.board import load_board
    from tests.support.paths import BOARDS

    files = {"gallowdark": "gallowdark-corridors.yaml", "bheta": "bheta-decima-refinery.yaml"}
    return Routes(load_board(BOARDS / files[name]))


@settings(max_examples=examples(60), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(sx=st.floats(1, 29), sy=st.floats(1, 21), gx=st.floats(1, 29), gy=st.floats(1, 21),
       share=st.floats(0.0, 1.2), name=st.sampled_from(["gallowdark", "bheta"]))
def test_advance_spends_what_the_walk_to_its_end_costs(sx: float, sy: float, gx: float,
                                                       gy: float, share: float,
                                                       name: str) -> None:
    """On shipped boards with surcharges (Gallowdark's open hatchways, Bheta-Decima's
    gantries: climbs and drops): the point ``advance`` reaches with any movement is one that
    the walk to it costs exactly the movement it says it spent, never more than it had."""
    r = surcharged(name)
    walk = r.walk((sx, sy), (gx, gy), R32)
    assume(walk is not None and walk.length > 0)
    assert walk is not None
    move = share * walk.cost
    end, spent = r.advance(walk, move)
    assert spent <= move + 1e-9
    assert r.walk_to(walk, end).cost == pytest.approx(spent, abs=1e-6)


def test_accessible_and_obstructing_surcharges() -> None:
    # an accessible strip across the whole table at x = 5: +1" to cross
    acc = {"traits": ["accessible", "light"], "line": [[5, 0], [5, 10]]}
    r = Routes(board(20, 10, acc))
    w = r.walk((2, 5), (8, 5), 0.5)
    assert w is not None
    assert w.length == pytest.approx(6.0)
    assert w.cost == pytest.approx(7.0)
    # the move stops (0.05" short) where it cannot pay to enter
    end, spent = r.advance(w, 3.5)
    assert end == pytest.approx((5 - HALF - STOP_SHORT, 5.0))
    assert spent == pytest.approx(3 - HALF - STOP_SHORT)
    end, spent = r.advance(w, 5.0)
    assert end == pytest.approx((6.0, 5.0)) and spent == pytest.approx(5.0)
    # obstructing: +2" for a move whose base comes within 1" of it (the patch grown by
    # 1" + 0.5" for this base: y 3 to 7); walked round when that is cheaper (6 + 2 = 8)
    obs = {"traits": ["obstructing"], "polygon": [[5, 4.5], [5.5, 4.5], [5.5, 5.5], [5, 5.5]]}
    r = Routes(board(20, 10, obs))
    w = r.walk((2, 5), (8, 5), 0.5)
    assert w is not None
    assert w.cost == pytest.approx(w.length) and 2 * math.hypot(3, 2) < w.length < 8.0
    wide = {"traits": ["obstructing"], "polygon": [[5, 0], [5.5, 0], [5.5, 10], [5, 10]]}
    w = Routes(board(20, 10, wide)).walk((2, 5), (8, 5), 0.5)
    assert w is not None and w.cost == pytest.approx(8.0) and w.length == pytest.approx(6.0)
    # an open hatch is accessible: crossing it costs 1" more
    hatch = {"traits": ["hatch"], "line": [[5, 0], [5, 10]], "open": True}
    w = Routes(board(20, 10, hatch)).walk((2, 5), (8, 5), 0.5)
    assert w is not None and w.cost == pytest.approx(7.0)
    reach = Routes(board(20, 10, acc)).reachable((4, 5), 0.5, 3.0, spacing=0.5)
    ends = {tuple(p): c for p, c in zip(reach.points, reach.cost, strict=True)}
    assert ends[(6.0, 5.0)] == pytest.approx(3.0)
    assert (6.5, 5.0) not in ends  # 2.5" + 1" is over the move


def test_reachable_start_first_costs_within_move() -> None:
    b = board(20, 10, wall((10, 0), (10, 4)), wall((10, 6), (10, 10)))
    r = Routes(b)
    reach = r.reachable((8, 2), 0.5, 6.0, blockers=[(8, 5, 0.5)], spacing=0.5)
    assert isinstance(reach, Reach)
    assert tuple(reach.points[0]) == (8.0, 2.0) and reach.cost[0] == 0.0
    assert (reach.cost <= 6.0 + 1e-9).all()
    assert r.fits_many(reach.points[1:], 0.5, blockers=[(8, 5, 0.5)]).all()
    for i in range(len(reach.points)):
        w = reach.path(i)
        assert w.points[0] == (8.0, 2.0)
        assert w.points[-1] == pytest.approx(tuple(reach.points[i]))
        assert w.cost == pytest.approx(reach.cost[i], abs=1e-6)
    # beyond the wall only through the gap
    beyond = reach.points[:, 0] > 10.5
    assert beyond.any()
    assert (reach.cost >= np.hypot(*(reach.points - [8, 2]).T) - 1e-9).all()
    k = int(np.flatnonzero((reach.points == [11.0, 2.5]).all(axis=1))[0])
    assert reach.cost[k] > math.hypot(3, 0.5) + 1.0  # up through the gap and down again
    # same end points and costs as the oracle (which uses a 1" grid)
    coarse = r.reachable((8, 2), 0.5, 6.0, blockers=[(8, 5, 0.5)], spacing=1.0)
    o = OracleRoutes(b).reachable((8, 2), 0.5, 6.0, blockers=[(8, 5, 0.5)], spacing=1.0)
    np.testing.assert_allclose(coarse.points, o.points)
    np.testing.assert_allclose(coarse.cost, o.cost, atol=1e-6)


def test_free_points_match_oracle_grid() -> None:
    pit = {"traits": ["pitfall"], "polygon": [[8, 2], [12, 2], [12, 8], [8, 8]]}
    crate = {"traits": ["heavy"], "polygon": [[2, 2], [4, 2], [4, 4], [2, 4]]}
    b = board(16, 10, pit, crate, wall((5, 6), (7, 9)))
    r, o = Routes(b), OracleRoutes(b)
    np.testing.assert_allclose(r.free_points(None, 0.5), o.free_points(None, 0.5))
    region = box(1, 1, 9, 9)
    np.testing.assert_allclose(r.free_points(region, 0.6, 0.5), o.free_points(region, 0.6, 0.5))
    assert r.free_points(Point(10, 5).buffer(1.0), 0.5).shape == (0, 2)


# -- properties --------------------------------------------------------------------------------
W, D = 12.0, 8.0


@st.composite
def boards(draw: Any) -> Board:
    """Small boards with 1-4 random wall panels, some continuing from the previous one."""
    n = draw(st.integers(1, 4))
    coord = st.floats(0.5, 11.5).map(lambda v: round(v, 2))
    feats = []
    prev = None
    for _ in range(n):
        if prev is not None and draw(st.booleans()):
            a = prev
        else:
            a = (draw(coord), min(draw(coord), D - 0.5))
        b = (draw(coord), min(draw(coord), D - 0.5))
        assume(math.dist(a, b) > 0.5)
        feats.append(wall(a, b))
        prev = b
    return board(W, D, *feats)


def free_point(draw: Any, b: Board) -> tuple[float, float]:
    x = draw(st.floats(0.0, W))
    y = draw(st.floats(0.0, D))
    blk = shapes.measuring_blockers(b)
    assume(blk.is_empty or blk.distance(Point(x, y)) > 1e-3)
    return (x, y)


def centre(r: Routes, a: Any, b: Any) -> float:
    d = r.distance(a, b).distance
    return math.inf if d is None else d


@settings(max_examples=examples(40), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_distance_equals_oracle(data: Any) -> None:
    b = data.draw(boards())
    a, c = free_point(data.draw, b), free_point(data.draw, b)
    mine = Routes(b).distance(a, c)
    theirs = OracleRoutes(b).distance(a, c)
    if theirs.distance is None:
        assert mine.distance is None
    else:
        assert mine.distance == pytest.approx(theirs.distance, abs=1e-6)
        length = sum(math.dist(p, q) for p, q in zip(mine.points, mine.points[1:],
                                                     strict=False))
        assert length == pytest.approx(mine.distance, abs=1e-6)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.floats(0, 1), st.floats(0, 1))
def test_distance_symmetric_and_at_least_straight(data: Any, ra: float, rb: float) -> None:
    b = data.draw(boards())
    a, c = free_point(data.draw, b), free_point(data.draw, b)
    r = Routes(b)
    ab, ba = r.distance(a, c, ra, rb).distance, r.distance(c, a, rb, ra).distance
    if ab is None:
        assert ba is None
        return
    assert ba == pytest.approx(ab, abs=1e-9)
    assert ab >= max(0.0, math.dist(a, c) - ra - rb) - 1e-9


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_triangle_inequality(data: Any) -> None:
    b = data.draw(boards())
    p, q, s = (free_point(data.draw, b) for _ in range(3))
    r = Routes(b)
    pq, qs, ps = centre(r, p, q), centre(r, q, s), centre(r, p, s)
    if math.isfinite(pq) and math.isfinite(qs):
        assert ps <= pq + qs + 1e-9
    m = r.distance_matrix([p, q], 0.0, [q, s], 0.0)
    assert m[0, 0] == pytest.approx(pq) if math.isfinite(pq) else math.isinf(m[0, 0])
    assert m[1, 1] == pytest.approx(qs) if math.isfinite(qs) else math.isinf(m[1, 1])


@settings(max_examples=examples(6), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_walk_equals_oracle(data: Any) -> None:
    b = data.draw(boards())
    r, o = Routes(b), OracleRoutes(b)
    radius = 0.5
    grown = shapes.movement_blockers(b).buffer(radius, 8)
    pts = []
    for _ in range(2):
        x = data.draw(st.floats(radius + 0.01, W - radius - 0.01))
        y = data.draw(st.floats(radius + 0.01, D - radius - 0.01))
        assume(grown.is_empty or grown.distance(Point(x, y)) > 1e-3)
        pts.append((x, y))
    mine = r.walk(pts[0], pts[1], radius)
    theirs = o.walk(pts[0], pts[1], radius)
    if theirs is None:
        assert mine is None
    else:
        assert mine is not None
        assert mine.length == pytest.approx(theirs.length, abs=1e-6)
        assert mine.cost == pytest.approx(mine.length)


def _blockers(data: Any, radius: float, avoid: list[tuple[float, float]]
              ) -> list[tuple[float, float, float]]:
    """1-3 other bases on the board, clear of the points in ``avoid``."""
    out = []
    for _ in range(data.draw(st.integers(1, 3))):
        x = data.draw(st.floats(0.5, W - 0.5))
        y = data.draw(st.floats(0.5, D - 0.5))
        r = data.draw(st.sampled_from([0.5, R32, 1.5]))
        if all(math.dist((x, y), p) > r + radius + 0.05 for p in avoid):
            out.append((x, y, r))
    return out


@settings(max_examples=examples(12), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_walk_with_bases_equals_oracle(data: Any) -> None:
    """Walks around other bases (added to the static corner graph only when the route meets
    them) have the oracle's length, and that of the graph with every base added at once."""
    from solo_ops.geometry.routes.discs import Discs
    from solo_ops.geometry.routes.walker import shortest_route

    b = data.draw(boards())
    r, o = Routes(b), OracleRoutes(b)
    radius = 0.5
    grown = shapes.movement_blockers(b).buffer(radius, 8)
    pts = []
    for _ in range(2):
        x = data.draw(st.floats(radius + 0.01, W - radius - 0.01))
        y = data.draw(st.floats(radius + 0.01, D - radius - 0.01))
        assume(grown.is_empty or grown.distance(Point(x, y)) > 1e-3)
        pts.append((x, y))
    bases = _blockers(data, radius, pts)
    mine = r.walk(pts[0], pts[1], radius, blockers=bases)
    theirs = o.walk(pts[0], pts[1], radius, blockers=bases)
    walker = r.walker(radius)
    whole = shortest_route(walker.with_discs(Discs.of(bases, radius)), pts[0], pts[1])
    if theirs is None:
        assert mine is None and whole is None
    else:
        assert mine is not None and whole is not None
        assert mine.length == pytest.approx(theirs.length, abs=1e-6)
        assert mine.cost == pytest.approx(whole[0], abs=1e-6)
        line = LineString(mine.points)
        for x, y, br in bases:  # the route keeps clear of every base (drawn with 32 sides)
            assert line.distance(Point(x, y)) >= (br + radius) * math.cos(math.pi / 32) - 1e-6


@pytest.mark.parametrize(("walls", "start", "goal", "base", "length"), [
    # a wall above the start, the base to its right: the way under the base, between it and
    # the table's edge, is exactly the walker's width (the base's grown disc, 1.5 - 1.0, and
    # the edge's limit for a centre, 0.5, meet at y = 0.5); the oracle walks it
    ([((1, 2), (1.5, 2.54)), ((2.1, 3.05), (6.6, 7.5))], (1.0, 1.0), (4.0, 1.0), (3.0, 1.5),
     3.206412),
    # the way round the wall on the left is exactly as wide (0.5 to 0.5): shut; under the base
    # and up its right side is the only way
    ([((1, 2), (1, 3))], (1.0, 1.0), (1.0, 4.0), (2.0, 1.5), 5.970559),
])
def test_a_base_touching_the_edge_leaves_a_way_exactly_as_wide_as_the_walker(
        walls: list[Any], start: tuple[float, float], goal: tuple[float, float],
        base: tuple[float, float], length: float) -> None:
    """Found by the property test below (CI's full budget, 2026-11-30): a base whose grown
    disc touches the edge of the walker's box had its corner there, nudged a hair outside,
    dropped from the walking graph, so the walk went the long way round or found none. The
    length is the oracle's (to 6 places), and the walk keeps its corner on the edge."""
    from solo_ops.geometry.routes.discs import Discs
    from solo_ops.geometry.routes.walker import shortest_route

    b = board(W, D, *[wall(p, q) for p, q in walls])
    bases = [(*base, 0.5)]
    routes = Routes(b)
    mine = routes.walk(start, goal, 0.5, blockers=bases)
    theirs = OracleRoutes(b).walk(start, goal, 0.5, blockers=bases)
    whole = shortest_route(routes.walker(0.5).with_discs(Discs.of(bases, 0.5)), start, goal)
    assert mine is not None and theirs is not None and whole is not None
    assert mine.length == pytest.approx(length, abs=1e-6)
    assert mine.length == pytest.approx(theirs.length, abs=1e-9)
    assert whole[0] == pytest.approx(length, abs=1e-6)
    assert (base[0], 0.5) in mine.points  # the base's lowest corner, on the edge of the box


@settings(max_examples=examples(6), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_reachable_with_bases_equals_oracle(data: Any) -> None:
    b = data.draw(boards())
    r, o = Routes(b), OracleRoutes(b)
    radius = 0.5
    grown = shapes.movement_blockers(b).buffer(radius, 8)
    x = data.draw(st.floats(radius + 0.01, W - radius - 0.01))
    y = data.draw(st.floats(radius + 0.01, D - radius - 0.01))
    assume(grown.is_empty or grown.distance(Point(x, y)) > 1e-3)
    bases = _blockers(data, radius, [(x, y)])
    mine = r.reachable((x, y), radius, 2.5, blockers=bases, spacing=1.0)
    theirs = o.reachable((x, y), radius, 2.5, blockers=bases, spacing=1.0)
    a = {tuple(np.round(p, 9)): c for p, c in zip(mine.points, mine.cost, strict=True)}
    t = {tuple(np.round(p, 9)): c for p, c in zip(theirs.points, theirs.cost, strict=True)}
    assert a.keys() == t.keys()
    for k, c in t.items():
        assert a[k] == pytest.approx(c, abs=1e-6)
    for i in range(len(mine.points)):  # every walk ends where it says, at its cost
        w = mine.path(i)
        assert w.points[-1] == pytest.approx(tuple(mine.points[i]))
        assert w.cost == pytest.approx(mine.cost[i], abs=1e-6)
