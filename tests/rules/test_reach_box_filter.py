"""``reach.maybe_within`` rules bases out of a "within" only by their centres' distance along x
or y alone: it must never rule out a pair whose straight gap is within the distance (the
first thing :func:`solo_ops.rules.reach.within` measures), whatever the rounding."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from solo_ops.rules import reach

coord = st.floats(-40.0, 40.0, allow_nan=False)
radius = st.floats(0.0, 4.0, allow_nan=False)


@given(ax=coord, ay=coord, ra=radius, distance=st.sampled_from([0.0, 1.0, 2.0, 6.0]),
       others=st.lists(st.tuples(coord, coord, radius), max_size=30),
       jitter=st.floats(-1e-9, 1e-9))
def test_never_rules_out_a_pair_within_the_distance(ax: float, ay: float, ra: float,
                                                    distance: float, others: list,
                                                    jitter: float) -> None:
    # a pair set exactly at the distance (and a hair either side) must be kept
    others = [*others, (ax + ra + distance + 0.5 + jitter, ay, 0.5)]
    xy = np.array([(x, y) for x, y, _ in others], dtype=float)
    radii = np.array([r for _, _, r in others], dtype=float)
    kept = set(reach.maybe_within((ax, ay), ra, xy, radii, distance).tolist())
    for k, (x, y, r) in enumerate(others):
        gap = reach.straight_gap((ax, ay), ra, (x, y), r)
        if gap <= distance + reach.TOLERANCE:
            assert k in kept, (k, gap)


def test_by_hand() -> None:
    xy = np.array([[2.6, 0.0], [1.9, 1.9], [1.5, 0.0], [-3.0, 0.2]])
    radii = np.full(4, 0.5)
    # from (0, 0), radius 0.5, within 1": the box reaches 2.000001" from the centre
    # 2.6" along x: out; (1.9, 1.9): its box is not ruled out (straight gap 1.69", measured
    # by within, which then refuses it); 1.5": gap 0.5", kept; -3.0": out
    assert reach.maybe_within((0.0, 0.0), 0.5, xy, radii, 1.0).tolist() == [1, 2]
    assert math.isclose(reach.straight_gap((0, 0), 0.5, (1.9, 1.9), 0.5),
                        math.hypot(1.9, 1.9) - 1.0)
    assert reach.maybe_within((0.0, 0.0), 0.5, np.zeros((0, 2)), np.zeros(0), 1.0).tolist() == []


def test_engaged_with_any_is_any_pair_engaged() -> None:
    """``engaged_with_any`` (a 2018 engagement or combat-shooting check over many bases) says
    the same as :func:`reach.engaged_2018` asked of every base in turn, through a wall too:
    hand-placed bases across the thin wall at x 15 (0.2" gap, but the route round its end is
    about 12"), one on open ground 0.2" away, and far ones the box test rules out."""
    from solo_ops.geometry.board import parse_board
    from solo_ops.geometry.terrain import Terrain
    from tests.support.reach_games import THIN

    t = Terrain(parse_board({"name": "T", "width": 30, "depth": 22, "features": [THIN]}, "t"))
    r = 0.5
    here = (14.4, 10.0)
    across = [(15.6, 10.0), (15.6, 9.0), (25.0, 20.0), (2.0, 2.0)]
    assert not reach.engaged_with_any(t, here, r, across, [r] * len(across))
    assert not any(reach.engaged_2018(t, here, r, b, r) for b in across)
    beside = [*across, (14.4, 11.2)]  # 1.2" centre to centre, same side: 0.2" gap
    assert reach.engaged_with_any(t, here, r, beside, [r] * len(beside))
    assert reach.engaged_2018(t, here, r, beside[-1], r)
    assert not reach.engaged_with_any(t, here, r, [], [])
