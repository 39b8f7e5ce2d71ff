"""The placement rule's shortcuts against the computations they stand in for.

:func:`placement.first_contact` first asks whether any base can come near the walk's legs at
all (:func:`placement.may_touch`) and answers None at once when none can; the answers must be
the ones trying every step gives, exactly. The reference below is the old code, verbatim.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solo_ops.geometry import placement
from solo_ops.geometry.board import parse_board
from solo_ops.geometry.placement import GRAZE, STEP
from solo_ops.geometry.routes import Walk
from solo_ops.geometry.terrain import Terrain
from tests.support.budget import examples

BOARD = parse_board({
    "name": "prefilter test", "width": 20, "depth": 14,
    "features": [
        {"id": "wall-1", "traits": ["wall"], "line": [[10, 2], [10, 12]]},
        {"id": "crate-1", "traits": ["heavy"], "polygon": [[3, 3], [5, 3], [5, 5], [3, 5]]},
        {"id": "deck-1", "traits": ["accessible", "light"],
         "polygon": [[14, 8], [17, 8], [17, 11], [14, 11]]},
        {"id": "gantry-1", "traits": ["vantage", "accessible"], "height": 3,
         "polygon": [[12, 1], [16, 1], [16, 4], [12, 4]]},
        {"id": "razor-1", "traits": ["obstructing"], "line": [[6, 8], [8, 8]]},
    ]}, "test")
TERRAIN = Terrain(BOARD)
R = 25 / 25.4 / 2  # a 25 mm base


def contact_by_every_step(terrain: Terrain, walk: Walk, budget: float, radius: float,
                          others: Any) -> float | None:
    """``first_contact`` as it was: every step tried against every base."""
    top = min(float(budget), float(walk.cost))
    if not others or top <= 0:
        return None
    steps = [k * STEP for k in range(1, math.floor(top / STEP + 1e-9) + 1)] or [top]
    pts = np.array([p for p, _ in terrain.routes.advance_many(walk, steps)], dtype=float)
    arr = np.asarray(placement.discs(list(others)), dtype=float)
    gap = (np.hypot(pts[:, None, 0] - arr[None, :, 0], pts[:, None, 1] - arr[None, :, 1])
           - radius - arr[None, :, 2])
    hit = np.flatnonzero((gap < -GRAZE).any(axis=1))
    return None if not len(hit) else steps[int(hit[0])]


coord = st.floats(0.5, 19.5, allow_nan=False)
point = st.tuples(coord, st.floats(0.5, 13.5, allow_nan=False))
disc = st.tuples(coord, st.floats(0.5, 13.5, allow_nan=False),
                 st.sampled_from([0.3, R, 0.63, 1.0]))


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(point, min_size=1, max_size=5), st.lists(disc, min_size=0, max_size=8),
       st.floats(0.0, 30.0, allow_nan=False), st.sampled_from([0.3, R, 0.63]))
def test_first_contact_matches_every_step(pts: list, others: list, budget: float,
                                          radius: float) -> None:
    """Random walks (through surcharged footprints and razor wire too), bases and budgets:
    the same answer, float for float."""
    walk = TERRAIN.routes.walk_through(pts, radius)
    assert placement.first_contact(TERRAIN, walk, budget, radius, others) == \
        contact_by_every_step(TERRAIN, walk, budget, radius, others)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(point, point, st.lists(disc, min_size=1, max_size=6), st.floats(0.0, 25.0))
def test_first_contact_matches_on_found_walks(a: tuple, b: tuple, others: list,
                                              budget: float) -> None:
    """Walks the router finds round the walls: the same answer."""
    walk = TERRAIN.routes.walk(a, b, R)
    if walk is None:
        return
    assert placement.first_contact(TERRAIN, walk, budget, R, others) == \
        contact_by_every_step(TERRAIN, walk, budget, R, others)


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(point, min_size=1, max_size=5), st.lists(disc, min_size=1, max_size=8),
       st.floats(0.0, 30.0, allow_nan=False))
def test_prefilter_only_passes_walks_clear_by_far(pts: list, others: list, top: float) -> None:
    """When the prefilter says no base can be touched, every step's point is clear of every
    base by more than the radii (not merely by the graze)."""
    walk = TERRAIN.routes.walk_through(pts, R)
    top = min(top, walk.cost)
    arr = np.asarray(placement.discs(others), dtype=float)
    if top <= 0 or placement.may_touch(walk, top, R, arr):
        return
    steps = [k * STEP for k in range(1, math.floor(top / STEP + 1e-9) + 1)] or [top]
    at = np.array([p for p, _ in TERRAIN.routes.advance_many(walk, steps)], dtype=float)
    gap = np.hypot(at[:, None, 0] - arr[None, :, 0], at[:, None, 1] - arr[None, :, 1]) \
        - R - arr[None, :, 2]
    assert (gap > GRAZE).all()


def test_first_contact_by_hand() -> None:
    """A walk along y=1 from x=1 to x=8 and a 1" base at (5, 1.5): they touch once the centres
    are closer than R + 0.5 - GRAZE, i.e. once x > 5 - sqrt((R + 0.49)^2 - 0.25) = 4.1548,
    3.1548" along: the first step past it is the 64th (3.2"). A base 2" off the line is never
    reached (the prefilter's answer), nor is one beyond the budget."""
    walk = TERRAIN.routes.walk_through([(1, 1), (8, 1)], R)
    assert placement.first_contact(TERRAIN, walk, 7, R, [(5, 1.5, 0.5)]) == 64 * STEP
    assert placement.first_contact(TERRAIN, walk, 7, R, [(5, 3.0, 0.5)]) is None
    assert not placement.may_touch(walk, 7.0, R, np.array([(5, 3.0, 0.5)]))
    assert placement.first_contact(TERRAIN, walk, 2.5, R, [(5, 1.5, 0.5)]) is None
    assert placement.may_touch(walk, 7.0, R, np.array([(5, 2.0, 0.5)]))


def test_prefilter_proves_nothing_from_nan() -> None:
    """A base or walk that is not finite is left to the full test."""
    walk = TERRAIN.routes.walk_through([(1, 1), (8, 1)], R)
    assert placement.may_touch(walk, 7.0, R, np.array([(math.nan, 1.0, 0.5)]))
    odd = Walk(((1.0, 1.0), (math.nan, 1.0)), 7.0, 7.0, R)
    assert placement.may_touch(odd, 7.0, R, np.array([(5, 9.0, 0.5)]))


def nearest_by_whole_windows(terrain: Terrain, want: Any, radius: float, others: Any = (), *,
                             floor: bool = False, limit: float = 6.0,
                             keep: Any = None) -> placement.Spot | None:
    """``nearest`` as it was: every window tried whole."""
    first = (round(float(want[0]), placement.PLACES), round(float(want[1]), placement.PLACES))
    if placement.is_legal(terrain, first, radius, others, floor=floor) and (
            keep is None or bool(np.asarray(keep(np.array([first])))[0])):
        return placement.Spot(first, math.dist(first, (float(want[0]), float(want[1]))))
    inner = 0.0
    for reach in (*[w for w in placement.WINDOWS if w < limit], limit):
        pts = placement.window_grid(first, reach, STEP)
        d = np.hypot(pts[:, 0] - first[0], pts[:, 1] - first[1])
        pts = pts[d > inner - 1e-9]
        ok = placement.legal(terrain, pts, radius, others, floor=floor)
        idx = np.flatnonzero(ok)
        if len(idx) and keep is not None:
            idx = idx[np.asarray(keep(pts[idx]), dtype=bool)]
        if len(idx):
            p = pts[int(idx[0])]
            at = (float(p[0]), float(p[1]))
            return placement.Spot(at, math.dist(at, (float(want[0]), float(want[1]))))
        inner = reach
    return None


def _east_of(x: float) -> Any:
    """A pure ``keep``: points east of ``x``."""
    return lambda pts: np.asarray(pts, dtype=float).reshape(-1, 2)[:, 0] > x


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.tuples(st.floats(-1.0, 21.0), st.floats(-1.0, 15.0)),
       st.sampled_from([0.3, R, 0.63, 1.0]), st.lists(disc, max_size=8),
       st.sampled_from([0.0, 0.3, R, 0.63, 1.0]), st.booleans(),
       st.sampled_from([0.5, 1.0, 2.0, 3.0, 6.0, 8.0]), st.one_of(st.none(), coord))
def test_nearest_matches_whole_windows(want: tuple, radius: float, others: list,
                                       carrier: float, floor: bool, limit: float,
                                       east: float | None) -> None:
    """Random points, bases (a carrier's over the wanted point or none), floors, limits and
    further tests: the same spot, float for float."""
    bases = [*others, (want[0], want[1], carrier)] if carrier else others
    keep = None if east is None else _east_of(east)
    assert placement.nearest(TERRAIN, want, radius, bases, floor=floor, limit=limit,
                             keep=keep) == \
        nearest_by_whole_windows(TERRAIN, want, radius, bases, floor=floor, limit=limit,
                                 keep=keep)


def test_nearest_under_a_carrier_by_hand() -> None:
    """A 25 mm carrier over the 32 mm friend it dropped at (7, 7): the first window is
    covered (R + 0.63 > 1.01), the friend goes to the nearest grid point at least R + 0.63
    (less TOUCH) away: 0.05 * sqrt(505) (19^2 + 12^2 = 21^2 + 8^2 = 505; 504 is no sum of two
    squares), the lowest x of those, (-1.05, -0.4) from it, then the lower y."""
    carrier = np.array([(7.0, 7.0, R)])
    assert placement.window_covered((7.0, 7.0), 1.0, 0.63, carrier)
    assert not placement.window_covered((7.0, 7.0), 3.0, 0.63, carrier)
    spot = placement.nearest(TERRAIN, (7.0, 7.0), 0.63, [(7.0, 7.0, R, "carrier")])
    assert spot is not None
    assert spot.at == (5.95, 6.6)
    assert spot.moved == math.dist((5.95, 6.6), (7.0, 7.0))
    assert abs(spot.moved - 0.05 * math.sqrt(505)) < 1e-9
