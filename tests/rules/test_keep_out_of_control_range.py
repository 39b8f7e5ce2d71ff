"""The one rule both sides walk by past an enemy (:func:`solo_ops.rules.reach.keep_out`).

001 Reposition: "Cannot move within Control Range of an enemy unless they are already in
Control Range of a friendly and cannot finish the move within Control Range of an enemy";
001 "Control Range Visible and within 1" of model base". A model round a wall's corner 0.9"
away as the crow flies, out of sight, is not in control range, so a walk may pass there.
"""

from __future__ import annotations

import math

import numpy as np

from solo_ops.geometry.terrain import Terrain
from solo_ops.rules import reach
from tests.support import wall_corner as wc
from tests.support.wall_boards import board

R = 0.5  # 25.4 mm bases


def _terrain() -> Terrain:
    return Terrain(board(30, 22, *({"traits": f["traits"], "line": f["line"]}
                                   for f in wc.WALLS)))


def test_an_enemy_a_wall_cuts_is_tested_one_in_the_open_is_walked_round() -> None:
    """The model at INSIDE has walls within 1" of its base: its control range is not the
    whole straight 1" (cut); one at (5, 5), 4" from any wall, is walked round as a disc (its
    control range is exactly the disc: nothing there stops sight or measuring)."""
    t = _terrain()
    keep = reach.keep_out(t, wc.PAST_START, R, [(*wc.INSIDE, R), (5.0, 5.0, R)])
    assert keep.cut == {0} and keep.loose == set()
    assert keep.blockers(round_cut=True) == [(*wc.INSIDE, R + 1.0), (5.0, 5.0, R + 1.0)]
    assert keep.blockers(round_cut=False) == [(*wc.INSIDE, R), (5.0, 5.0, R + 1.0)]
    assert keep.through
    # out of reach of a 2" move, nothing is tested: walking round its disc changes nothing
    assert reach.keep_out(t, wc.PAST_START, R, [(*wc.INSIDE, R)], reach=2.0).cut == set()


def test_a_mover_starting_within_1_inch_behind_the_wall_is_loose() -> None:
    """From BEHIND_A the enemy is 0.91" away as the crow flies (hypot(1.4, 1.3) - 1) and out
    of sight: no walk can go round its disc (the start is in it), so every walk is tested."""
    t = _terrain()
    assert math.isclose(reach.straight_gap(wc.BEHIND_A, R, wc.INSIDE, R),
                        math.hypot(1.4, 1.3) - 1.0)
    assert not reach.in_control_range(t, wc.BEHIND_A, R, wc.INSIDE, R)
    keep = reach.keep_out(t, wc.BEHIND_A, R, [(*wc.INSIDE, R)])
    assert keep.loose == {0} and keep.cut == {0} and not keep.through
    assert keep.blockers(round_cut=True) == [(*wc.INSIDE, R)]


def test_the_walk_past_the_corner_never_enters_its_control_range() -> None:
    """Along y = 13.2 the walk passes 0.9" from INSIDE as the crow flies (at x = 15.7) and
    is never in its control range, checked point by point every 0.01" by
    :func:`reach.in_control_range`; the one rule agrees. The walk round wall-a's south end
    from BEHIND_A to ROUND_THE_END (0.96" from it, in its sight) enters it."""
    t = _terrain()
    assert math.isclose(reach.straight_gap(wc.ABOVE, R, wc.INSIDE, R), 0.9)
    for x in np.arange(wc.PAST_START[0], wc.PAST_END[0] + 1e-9, 0.01):
        assert not reach.in_control_range(t, (float(x), 13.2), R, wc.INSIDE, R)
    keep = reach.keep_out(t, wc.PAST_START, R, [(*wc.INSIDE, R)])
    assert keep.entered(t, [wc.PAST_START, wc.PAST_END], R, round_cut=False) is None
    assert reach.in_control_range(t, wc.ROUND_THE_END, R, wc.INSIDE, R)
    round_the_end = [wc.BEHIND_A, (14.4, 8.4), (15.6, 8.4), wc.ROUND_THE_END]
    loose = reach.keep_out(t, wc.BEHIND_A, R, [(*wc.INSIDE, R)])
    assert loose.entered(t, round_the_end, R, round_cut=True) == 0
    assert list(loose.entered_many(t, [round_the_end, round_the_end[:2]], R,
                                   round_cut=True)) == [True, False]


def test_walk_samples_every_step_with_corners_and_end() -> None:
    """Points every 0.05" along each leg, the corners and the end included, none twice."""
    got = reach.walk_samples([(0, 0), (0.1, 0), (0.1, 0.12)])
    want = [(0, 0), (0.05, 0), (0.1, 0), (0.1, 0.04), (0.1, 0.08), (0.1, 0.12)]
    assert np.allclose(got, want)
