"""The position searches (nearest cover, firing positions, hidden points) on small boards,
with hand-computed expectations and, independently, a brute-force answer from the slow oracle
geometry of ``tests/support/geometry_oracle.py``."""

from __future__ import annotations

import math

import numpy as np
import pytest
from shapely.geometry import box

from solo_ops.geometry.board import parse_board
from solo_ops.geometry.search import (
    firing_positions,
    hidden_points,
    nearest_cover,
    protected_from,
)
from solo_ops.geometry.terrain import Terrain
from tests.support.geometry_oracle import OracleTerrain

R = 0.5  # a 25 mm-ish base, in inches

# One wall across the table at x = 12 from y = 0 to y = 14; a light barricade at x = 20.
BOARD = parse_board({
    "name": "search yard", "width": 30, "depth": 22,
    "features": [
        {"id": "wall", "traits": ["wall"], "line": [[12, 0], [12, 14]]},
        {"id": "barricade", "traits": ["light"],
         "polygon": [[20, 16], [20.4, 16], [20.4, 20], [20, 20]]},
    ],
}, "search.yaml")


@pytest.fixture(scope="module")
def terrain() -> Terrain:
    return Terrain(BOARD)


@pytest.fixture(scope="module")
def oracle() -> OracleTerrain:
    return OracleTerrain(BOARD)


def test_protected_from_wall_and_open_ground(terrain: Terrain) -> None:
    threat = [(6.0, 17.0, R)]  # west of the wall, north of its end (y 14)
    pts = np.array([[18.0, 5.0],    # behind the wall: the line crosses x = 12 at y = 11
                    [8.0, 5.0],     # in the open on the threat's side: seen
                    [18.0, 18.0]])  # past the wall's end, the barricade beyond it: seen
    prot = protected_from(terrain, pts, R, threat)
    assert prot.shape == (1, 3)
    assert prot[0].tolist() == [True, False, False]


def test_nearest_cover_is_the_cheapest_protected_point(terrain: Terrain,
                                                        oracle: OracleTerrain) -> None:
    # a model at (14, 5) just east of the wall, the threat west of it past the wall's end
    # looking round at (8, 17): the wall hides the ground close under its east face
    threat = [(8.0, 17.0, R)]
    start = (14.0, 5.0)
    spot = nearest_cover(terrain, start, R, threat, 6.0, spacing=0.5)
    assert spot is not None
    # the start itself is hidden by the wall (the threat sees round the end only to y > 14)
    assert spot.at == start and spot.cost == 0.0
    # from further north, the cheapest protected point is found; brute force with the oracle
    start = (16.0, 16.0)
    spot = nearest_cover(terrain, start, R, threat, 6.0, spacing=0.5)
    assert spot is not None
    reach = terrain.routes.reachable(start, R, 6.0, spacing=0.5)

    def protected(p: tuple[float, float]) -> bool:
        if not oracle.sight.visible(threat[0][:2], p, threat[0][2], R):
            return True
        seen = oracle.sight.cover(threat[0][:2], p, threat[0][2], R)
        return seen.in_cover or seen.obscured

    prot = [protected(tuple(p)) for p in reach.points]
    best = min(c for c, ok in zip(reach.cost, prot, strict=True) if ok)
    assert spot.cost == pytest.approx(best, abs=1e-9)
    assert oracle.sight.cover(threat[0][:2], spot.at, R, R).in_cover or \
        not oracle.sight.visible(threat[0][:2], spot.at, R, R)
    assert spot.route[0] == start and spot.route[-1] == spot.at


def test_nearest_cover_none_when_nothing_within_the_move(terrain: Terrain) -> None:
    # in the middle of open ground far from anything, 1" of movement
    assert nearest_cover(terrain, (25.0, 6.0), R, [(25.0, 2.0, R)], 1.0) is None


def test_firing_positions_behind_the_barricade(terrain: Terrain) -> None:
    # targets east of the barricade; the model west of it: the best spots are right behind
    # the barricade (in cover from both targets, within 1"), seeing both
    targets = [(26.0, 17.0, R), (26.0, 19.0, R)]
    spots = firing_positions(terrain, (17.0, 18.0), R, targets, 6.0, 24.0)
    assert spots
    best = spots[0]
    assert best.targets == (0, 1)
    # in cover: the barricade is within 1" of the spot and between it and the targets
    assert 19.0 <= best.at[0] <= 20.0 - R + 1e-9
    for tx, ty, tr in targets:
        c = terrain.sight.cover((tx, ty), best.at, tr, R)
        assert c.visible and c.in_cover
    # ranked: no later spot sees more targets, and equal counts come cheaper first
    counts = [len(s.targets) for s in spots]
    assert counts == sorted(counts, reverse=True)


def test_firing_positions_respect_range_around_walls(terrain: Terrain) -> None:
    targets = [(26.0, 18.0, R)]
    assert firing_positions(terrain, (17.0, 18.0), R, targets, 3.0, 2.0) == []


def test_hidden_points_of_a_sector(terrain: Terrain, oracle: OracleTerrain) -> None:
    # sector 2 (x 10-20, y 0-11); the observer stands west of the wall
    observer = [(5.0, 5.0, R)]
    sector = BOARD.sector_box(2)
    pts = hidden_points(terrain, sector, observer, R, 1.0)
    assert len(pts) > 0
    assert all(p[0] > 12.0 for p in pts)  # only east of the wall is out of sight
    for p in pts:
        assert not oracle.sight.visible((5.0, 5.0), tuple(p), R, R)
    # and every free point of the sector east of the wall is found
    free = terrain.routes.free_points(sector, R, 1.0)
    east = [tuple(p) for p in free if p[0] > 12.0 + R + 0.1]
    found = {tuple(p) for p in pts}
    assert all(p in found for p in east)


def test_hidden_points_avoid_other_bases(terrain: Terrain) -> None:
    region = box(14, 2, 18, 6)
    pts = hidden_points(terrain, region, [(5.0, 5.0, R)], R, 1.0, avoid=[(16.0, 4.0, 1.0)])
    assert all(math.hypot(p[0] - 16.0, p[1] - 4.0) >= 1.0 + R for p in pts)
    assert len(pts) > 0
