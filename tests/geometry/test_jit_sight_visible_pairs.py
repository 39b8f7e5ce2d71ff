"""The compiled visibility loop (``jit.sight.visible_pairs``, issue #39) answers exactly what the
numpy stages answer: ``Sight.compute_visible_pairs`` with the compiled loops on (the whole
search of a pair in one call) against the same Sight's numpy stages
(``Sight.numpy_visible_pairs``, the other kernels on) and against the numpy code with every
kernel off, on every shipped board in every door state, for random pairs, pairs whose centre
line is blocked (where the cut-offs, probes and sample segments decide), bases of radius 0,
pairs with one centre, and centres on the blockers' corners (where segments are too close
to call and shapely decides).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("numba")

from solo_ops.geometry.sight import Sight
from tests.support.jit_switch import compiled
from tests.support.shipped_terrains import ALL, door_states
from tests.support.sight_pairs import R, hidden_pairs


def _pairs(s: Sight, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Random pairs, hidden pairs, radius-0 and one-centre pairs, corner-to-corner pairs."""
    rng = np.random.default_rng(seed)
    size = np.array([s.board.width, s.board.depth])
    a = [rng.uniform(0, 1, (120, 2)) * size]
    b = [rng.uniform(0, 1, (120, 2)) * size]
    ha, hb = hidden_pairs(s, rng, 120)
    a.append(ha)
    b.append(hb)
    corners = s.scalar.boxes.reshape(-1, 2)[:40] + 2e-6  # the pieces' box corners, just in
    if len(corners):
        a.append(corners)
        b.append(corners[::-1] + rng.normal(0.0, 3.0, corners.shape))
    a.append(ha[:10])
    b.append(ha[:10])  # one centre: a zero-length centre segment
    A, B = np.concatenate(a), np.concatenate(b)
    ra = rng.choice([0.0, R, 0.5, 1.0, 20 / 25.4], len(A))
    rb = rng.choice([0.0, R, 0.63, 1.5], len(A))
    ra[-5:] = rb[-5:] = 0.0
    return A, ra, B, rb


def _both(s: Sight, A: np.ndarray, ra: np.ndarray, B: np.ndarray, rb: np.ndarray
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    with compiled(True):
        got = s.compute_visible_pairs(A, ra, B, rb)
        stages = s.numpy_visible_pairs(A, ra, B, rb)
    with compiled(False):
        want = s.compute_visible_pairs(A, ra, B, rb)
    return got, stages, want


@pytest.mark.parametrize(("name", "k"), ALL)
def test_compiled_visible_pairs_equal_numpy(name: str, k: int) -> None:
    s = Sight(door_states(name)[k].board)
    A, ra, B, rb = _pairs(s, 39 + k)
    got, stages, want = _both(s, A, ra, B, rb)
    assert got.tobytes() == stages.tobytes() == want.tobytes(), name
    for few in (1, 3, 10):  # the few-pairs (Python floats) path of the numpy stages too
        g, st_, w = _both(s, A[:few], ra[:few], B[:few], rb[:few])
        assert g.tobytes() == st_.tobytes() == w.tobytes()
    if s.pieces.count:
        assert want.any() and not want.all()


_SHIPPED = [door_states(name)[k].sight for name, k in ALL[::3]]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_hypothesis_compiled_visible_pairs_equal_numpy(data: st.DataObject) -> None:
    s = data.draw(st.sampled_from(_SHIPPED))
    grid = st.integers(0, 60).map(lambda v: v / 2)
    n = data.draw(st.integers(1, 14))
    pts = np.array([[data.draw(grid), data.draw(grid), data.draw(grid), data.draw(grid)]
                    for _ in range(n)])
    radius = st.sampled_from([0.0, R, 0.5, 1.0])
    ra = np.array([data.draw(radius) for _ in range(n)])
    rb = np.array([data.draw(radius) for _ in range(n)])
    got, stages, want = _both(s, pts[:, :2], ra, pts[:, 2:], rb)
    assert got.tobytes() == stages.tobytes() == want.tobytes()
