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
