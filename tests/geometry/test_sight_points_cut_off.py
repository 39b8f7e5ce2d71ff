"""The numpy form of ``Sight.points_cut_off`` (the single-edge proof that a sample point of one
base cannot see any of another base, worked out for whole groups of points at once) gives each
point the answer the one-pair proof ``Scalar.cut_off`` gives it in plain Python floats, and the
answer of the compiled loop, bit for bit.

The numpy form is what every command runs until the compiled loops are compiled (the first run
after an install), so its answers must be the compiled ones: the games may not change.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solo_ops.geometry.sight import Sight, circles
from tests.support.jit_switch import compiled
from tests.support.shipped_terrains import door_states

_SIGHT: list[Sight] = []


def _sight() -> Sight:
    """The Volkus stronghold's sight (many wall edges), built once."""
    if not _SIGHT:
        _SIGHT.append(Sight(door_states("volkus-stronghold")[0].board))
    return _SIGHT[0]


def _per_point(sight: Sight, pts: np.ndarray, c: np.ndarray, r: np.ndarray) -> np.ndarray:
    """The reference: ``Scalar.cut_off`` of each point (a base of radius 0) and its group's
    base, one by one in Python floats."""
    out = np.zeros(pts.shape[:2], dtype=bool)
    for g in range(pts.shape[0]):
        for i in range(pts.shape[1]):
            out[g, i] = sight.scalar.cut_off(float(pts[g, i, 0]), float(pts[g, i, 1]), 0.0,
                                             float(c[g, 0]), float(c[g, 1]), float(r[g]))
    return out


_COORD = st.floats(-2.0, 32.0, allow_nan=False)
_RADIUS = st.sampled_from([0.0, 0.5, 0.63, 16 / 25.4, 1.0, 1.5])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(_COORD, _COORD, _RADIUS, _COORD, _COORD, _RADIUS), min_size=1,
                max_size=6))
def test_groups_of_sample_points_equal_one_pair_proofs(rows: list[tuple[float, ...]]) -> None:
    """Groups of base sample points (the centre and 24 points on the edge, as the visibility
    search makes them) against another base anywhere on the board: the numpy answer of every
    point is the Python one and the compiled one."""
    sight = _sight()
    arr = np.array(rows, dtype=float)
    pts = circles.samples(arr[:, 0:2], arr[:, 2], circles.BASE_COS, circles.BASE_SIN)
    c, r = np.ascontiguousarray(arr[:, 3:5]), np.ascontiguousarray(arr[:, 5])
    with compiled(False):
        got = sight.points_cut_off(pts, c, r)
        want = _per_point(sight, pts, c, r)
    assert got.tobytes() == want.tobytes()
    with compiled(True):
        assert sight.points_cut_off(pts, c, r).tobytes() == got.tobytes()


def _across_edges(sight: Sight) -> tuple[Any, ...]:
    """Bases facing each other across the middle of each wall edge (most of their sample
    points cut off, some not), and pairs with a point on the other base's centre."""
    rows = sight.scalar.edge_rows
    a, c = [], []
    for row in rows.tolist():
        nx, ny, x0, y0, tdx, tdy, length = row[4], row[5], row[7], row[8], row[9], row[10], \
            row[11]
        mx, my = x0 + tdx * length / 2, y0 + tdy * length / 2
        for d, e in ((1.5, 0.7), (0.7, 3.0), (0.3, 0.3), (2.0, 6.0)):
            a.append((mx + d * nx, my + d * ny))
            c.append((mx - e * nx, my - e * ny))
    a += [(10.0, 10.0), (5.0, 5.0)]
    c += [(10.0, 10.0), (5.0 + 0.63 * 0.999999, 5.0)]  # a sample point on the centre
    ca = np.array(a)
    ra = np.resize([0.5, 0.63, 1.0], len(a))
    rc = np.resize([0.63, 0.0, 0.5, 1.5], len(a))
    return circles.samples(ca, ra, circles.BASE_COS, circles.BASE_SIN), np.array(c), rc


def test_bases_across_every_wall_edge_equal_one_pair_proofs() -> None:
    """Bases on either side of every wall edge of the stronghold, all groups in one call (the
    largest batches the search makes): the numpy answers are the Python and compiled ones,
    and both answers occur."""
    sight = _sight()
    pts, c, r = _across_edges(sight)
    with compiled(False):
        got = sight.points_cut_off(pts, c, r)
        want = _per_point(sight, pts, c, r)
    assert got.tobytes() == want.tobytes()
    assert got.any() and not got.all()
    with compiled(True):
        assert sight.points_cut_off(pts, c, r).tobytes() == got.tobytes()
