"""The one placement rule (:mod:`solo_ops.geometry.placement`, issue #27), against an
independent oracle: shapely circles and the walking obstacles as the board draws them.

A base may stand at a point when it lies wholly on the board, its circle keeps the base's
radius from every obstacle a base cannot walk through, and it overlaps no other base (the
exact circles). The oracle below says the same thing with shapely's own distances, one point
at a time, without the placement module or the routes' grown obstacles.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shapely.geometry import Point

from solo_ops.geometry import placement
from solo_ops.geometry.board import parse_board
from solo_ops.geometry.placement import Base
from solo_ops.geometry.routes.common import DISC_SEGMENTS
from solo_ops.geometry.routes.walker import walk_obstacle_features
from solo_ops.geometry.terrain import Terrain
from tests.support.budget import examples

BOARD = parse_board({
    "name": "placement test", "width": 20, "depth": 14,
    "features": [
        {"id": "wall-1", "traits": ["wall"], "line": [[10, 2], [10, 12]]},
        {"id": "crate-1", "traits": ["heavy"], "polygon": [[3, 3], [5, 3], [5, 5], [3, 5]]},
        {"id": "deck-1", "traits": ["accessible", "light"],
         "polygon": [[14, 8], [17, 8], [17, 11], [14, 11]]},
    ]}, "test")
TERRAIN = Terrain(BOARD)
SOLID = walk_obstacle_features(BOARD)
R = 25 / 25.4 / 2  # a 25 mm base


CHORD = 1 - math.cos(math.pi / (4 * DISC_SEGMENTS))
"""How far inside a circle of radius 1 the chords of a shapely buffer with DISC_SEGMENTS
segments a quarter circle reach: the rule's reach around a feature's corner is that polygon, so
a base it allows may graze a corner by up to ``radius * CHORD`` (0.0024" for a 25 mm base, well
inside the 0.01" the table audit allows)."""


def oracle_legal(p: tuple[float, float], radius: float, others: list[Base], *,
                 graze: bool = False) -> bool:
    """The rule in shapely's words (see the module docstring); ``graze``: allowing a feature's
    corner the polygon's :data:`CHORD` (to check a point the rule chose; a point the oracle
    allows strictly, the rule allows too)."""
    x, y = p
    if not (radius - 1e-6 <= x <= BOARD.width - radius + 1e-6
            and radius - 1e-6 <= y <= BOARD.depth - radius + 1e-6):
        return False
    if SOLID.distance(Point(x, y)) < radius - 1e-6 - (radius * CHORD if graze else 0.0):
        return False
    return all(math.hypot(x - b.x, y - b.y) >= radius + b.r - 1e-6 for b in others)


points = st.tuples(st.floats(0.0, 20.0, allow_nan=False), st.floats(0.0, 14.0, allow_nan=False))
radii = st.sampled_from([R, 32 / 25.4 / 2, 40 / 25.4 / 2])


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(points, radii), min_size=1, max_size=8), points, radii)
def test_random_bases_placed_by_the_rule_never_overlap_and_the_nearest_point_is_nearest(
        wanted: list[tuple[tuple[float, float], float]], ask: tuple[float, float],
        radius: float) -> None:
    """Bases put down one after another at the nearest legal point to random wanted points
    all obey the oracle; asked for one more random point, the rule's nearest point obeys it,
    is the asked point itself when the oracle allows that, and no point of its search grid
    nearer to the asked point is allowed by the oracle."""
    placed: list[Base] = []
    for k, (want, r) in enumerate(wanted):
        spot = placement.nearest(TERRAIN, want, r, placed, limit=25.0)
        if spot is None:
            continue
        assert oracle_legal(spot.at, r, placed, graze=True), (spot, placed)
        placed.append(Base(spot.at[0], spot.at[1], r, f"m{k}", f"m{k}"))
    assert placement.overlaps(placed, tolerance=0.0) == []
    rounded = (round(ask[0], 2), round(ask[1], 2))
    spot = placement.nearest(TERRAIN, ask, radius, placed, limit=25.0)
    if oracle_legal(rounded, radius, placed):
        assert spot is not None and spot.at == rounded
        assert placement.why_not(TERRAIN, rounded, radius, placed) is None
        return
    assert placement.why_not(TERRAIN, rounded, radius, placed) is not None
    assert spot is not None  # a 20" x 14" table always has room for one more base
    assert oracle_legal(spot.at, radius, placed, graze=True)
    # the grid through the asked point, STEP apart: none nearer is legal by the oracle
    d = math.dist(spot.at, rounded)
    n = math.ceil(d / placement.STEP) + 1
    for i in range(-n, n + 1):
        for j in range(-n, n + 1):
            q = (round(rounded[0] + i * placement.STEP, 2),
                 round(rounded[1] + j * placement.STEP, 2))
            if math.dist(q, rounded) < d - 1e-9:
                assert not oracle_legal(q, radius, placed), (q, spot)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(points, points, st.floats(0.5, 12.0))
def test_along_a_walk_the_end_is_legal_and_a_step_further_is_not(
        start: tuple[float, float], goal: tuple[float, float], budget: float) -> None:
    """A move cut short by the rule ends at a legal point on its walk, as far as the budget
    allows, and the next step along the walk (within the budget) is not legal: a base stands
    in the way there (said by ``blocked_by``)."""
    others = [Base(6.0, 7.0, R, "kell", "kell"), Base(7.5, 9.0, 0.63, "counter c1", "c1"),
              Base(12.0, 6.0, R, "downed Rask", "rask")]
    start = (round(start[0], 2), round(start[1], 2))
    if not oracle_legal(start, R, others) or not oracle_legal(goal, R, []):
        return
    walk = TERRAIN.routes.walk(start, goal, R)
    if walk is None or walk.cost < 0.1:
        return
    stop = placement.along(TERRAIN, walk, budget, R, others)
    if stop is None:
        return
    assert oracle_legal(stop.at, R, others, graze=True)
    assert stop.walk.cost <= min(budget, walk.cost) + 0.02
    assert TERRAIN.routes.walk_through(stop.walk.points, R).cost == pytest.approx(
        stop.walk.cost)
    if stop.blocked_by is not None:
        # the rule tries the budget, then STEP less at a time, each end on the record's grid:
        # the end tried just before the one taken is not legal
        top = min(budget, walk.cost)

        def tried(k: int) -> tuple[float, float]:
            p, _ = TERRAIN.routes.advance(walk, top - k * placement.STEP)
            return (round(float(p[0]), 2), round(float(p[1]), 2))

        k = next(k for k in range(math.floor(top / placement.STEP) + 1) if tried(k) == stop.at)
        if k > 0:
            assert not oracle_legal(tried(k - 1), R, others), (tried(k - 1), stop)


def test_the_reasons_name_what_is_there_and_the_nearest_free_point() -> None:
    kell = Base(6.0, 7.0, R, "Sgt Kell", "kell")
    downed = Base(8.0, 7.0, R, "downed Gunner Rask", "rask")
    assert placement.why_not(TERRAIN, (6.3, 7.0), R, [kell]) == "Sgt Kell's base is there"
    assert placement.why_not(TERRAIN, (8.2, 7.1), R, [kell, downed]) == \
        "downed Gunner Rask's base is there"
    assert placement.why_not(TERRAIN, (4.0, 4.0), R) == "crate-1 is there"
    assert placement.why_not(TERRAIN, (10.0, 7.0), R) == "wall-1 is there"
    assert placement.why_not(TERRAIN, (0.2, 7.0), R) == "the base would go off the board"
    # on an accessible deck a base may stand
    assert placement.why_not(TERRAIN, (15.5, 9.5), R) is None
    # the nearest point to (6.3, 7) clear of Kell: due east, 2r from his centre, on the
    # 0.05" grid through the asked point: 6 + 0.984 = 6.984 -> 7.0
    assert placement.nearest(TERRAIN, (6.3, 7.0), R, [kell]).at == (7.0, 7.0)
    assert placement.refusal(TERRAIN, (6.3, 7.0), R, [kell], "Vale") == (
        "Vale's base does not fit at 6.3,7: Sgt Kell's base is there; the nearest point "
        "where it fits is 7,7")
    # a hidden counter keeps off solid terrain even where a model may stand (the deck is
    # light terrain a model may climb onto; a counter stands on the floor beside it)
    assert placement.why_not(TERRAIN, (15.5, 9.5), 0.63) is None
    assert placement.why_not(TERRAIN, (15.5, 9.5), 0.63, floor=True) == "deck-1 is there"
    assert placement.why_not(TERRAIN, (5.4, 4.0), 0.63) == "crate-1 is there"


def test_overlaps_measures_the_circles() -> None:
    a, b, c = Base(0, 0, 1, "a"), Base(1.5, 0, 1, "b"), Base(5, 5, 1, "c")
    # centres 1.5 apart, radii 1 + 1: 0.5" deep
    assert placement.overlaps([a, b, c]) == [("a", "b", pytest.approx(0.5))]
    assert placement.overlaps([a, Base(1.995, 0, 1, "d")]) == []  # within the 0.01"
    assert placement.overlaps([a, Base(1.985, 0, 1, "d")]) == [("a", "d", pytest.approx(0.015))]


def test_legal_agrees_with_the_oracle_on_a_grid() -> None:
    others = [Base(6.0, 7.0, R, "kell"), Base(12.0, 6.0, 0.63, "c1")]
    xs, ys = np.meshgrid(np.arange(0.25, 20, 0.37), np.arange(0.25, 14, 0.41))
    pts = np.stack([xs.ravel(), ys.ravel()], axis=1)
    got = placement.legal(TERRAIN, pts, R, others)
    want = np.array([oracle_legal((float(x), float(y)), R, others) for x, y in pts])
    assert got.tolist() == want.tolist()
    assert 0 < got.sum() < len(pts)


def test_a_move_through_an_open_hatchway_says_it_pays_the_hatchways_inch() -> None:
    """002 Gallowdark "Hatchway: … Accessible … while open"; 001 "Accessible - Costs 1" to move
    through". A wall across the board at x = 10 with an open hatchway between y = 6 and 8:
    straight through it from (8, 7) to (12, 7) is 4" long and costs 5"; the words say the
    hatchway costs the inch (they said "climbing" before, with nothing to climb). From
    (8, 3) to (12, 11) the walk bends round the wall's ends at the hatchway and pays it too."""
    board = parse_board({
        "name": "hatchway", "width": 20, "depth": 14,
        "features": [
            {"id": "wall-1", "traits": ["wall"], "line": [[10, 0], [10, 6]]},
            {"id": "hatch-1", "traits": ["hatch"], "line": [[10, 6], [10, 8]], "open": True},
            {"id": "wall-2", "traits": ["wall"], "line": [[10, 8], [10, 14]]},
        ]}, "test")
    terrain = Terrain(board)
    straight = terrain.routes.walk_through([(8.0, 7.0), (12.0, 7.0)], R)
    assert straight.length == pytest.approx(4.0) and straight.cost == pytest.approx(5.0)
    assert placement.detour(terrain, [(8.0, 7.0), (12.0, 7.0)], R) == "crossing hatch-1"
    walk = terrain.routes.walk((8.0, 3.0), (12.0, 11.0), R)
    words = placement.detour(terrain, walk.points, R)
    assert words is not None and words.endswith(", crossing hatch-1"), words
    assert words.startswith("around wall-"), words
