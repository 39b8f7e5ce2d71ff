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

from shapely import bounds as shapely_bounds

from solo_ops.geometry.sight import Sight
from tests.support.budget import examples
from tests.support.jit_switch import compiled
from tests.support.shipped_terrains import ALL, CHECKED, door_states
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


@pytest.mark.parametrize(("name", "k"), CHECKED)
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


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
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


@pytest.mark.parametrize(("name", "k"), CHECKED)
def test_heavy_candidates_with_outlines_equal_the_stages(name: str, k: int) -> None:
    """``heavy_candidates`` with the Heavy features' outlines (the pairs a box test leaves
    unsure settled edge by edge, the triangles with an obscuring witness marked) equals its
    stages run one after another: the box tests alone, ``triangles_meet`` on the pairs left
    unsure, ``obscure_witness`` on every pair that surely meets."""
    from solo_ops.geometry.jit import sight as js
    from solo_ops.geometry.sight import cover

    s = Sight(door_states(name)[k].board)
    if len(s.heavy_parts) == 0 or s.heavy_ragged is None:
        pytest.skip("no Heavy terrain")
    rng = np.random.default_rng(90 + k)
    n = 600
    b = s.heavy_box[rng.integers(0, len(s.heavy_parts), n)]
    tc = rng.uniform(b[:, 0:2] - 1.5, b[:, 2:4] + 1.5)
    ac = tc + rng.normal(0, 5.0, (n, 2))
    rt, ra = rng.choice([0.5, 0.63, 1.0], n), rng.choice([0.5, 0.63, 1.0], n)
    side = np.stack([-(ac - tc)[:, 1], (ac - tc)[:, 0]], axis=1)
    side /= np.maximum(np.hypot(*side.T), 1e-9)[:, None]
    tri = np.stack([ac, tc + rt[:, None] * side, tc - rt[:, None] * side], axis=1)
    tri[: n // 4] = np.round(tri[: n // 4] * 8) / 8  # grid ties with the outlines
    tri = np.ascontiguousarray(tri)
    zt, za = np.column_stack([tc, rt + 1.0]), np.column_stack([ac, ra + 1.0])
    box, is_box = s.heavy_box, s.heavy_is_box
    ti, fi, meets, sure, seen = js.heavy_candidates(tri, box, is_box, zt, za,
                                                    *s.heavy_ragged, True)
    wt, wf, wm, ws, _ = js.heavy_candidates(tri, box, is_box, zt, za, *cover.NO_OUTLINES,
                                            False)
    ask = np.flatnonzero(wm & ~ws)
    got, known = js.triangles_meet(tri[wt[ask]], wf[ask], *s.heavy_ragged)
    wm[ask[known]] = got[known]
    ws[ask[known]] = True
    assert ti.tobytes() == wt.tobytes() and fi.tobytes() == wf.tobytes()
    assert meets.tobytes() == wm.tobytes() and sure.tobytes() == ws.tobytes()
    sure_met = np.flatnonzero(wm & ws)
    found = js.obscure_witness(tri[wt[sure_met]], wf[sure_met], zt[wt[sure_met]],
                               za[wt[sure_met]], *s.heavy_ragged)
    want = np.zeros(n, dtype=bool)
    want[wt[sure_met[found]]] = True
    assert seen.tobytes() == want.tobytes()
    assert want.any() and (wm & ~ws).sum() < len(wm)


@pytest.mark.parametrize(("name", "k"), ALL[::2])
def test_cover_matrices_of_few_pairs_equal_numpy(name: str, k: int) -> None:
    """Cover answers of one attacker against a few targets at a time (the jobs a mission
    asks most, where the compiled box tests and Heavy stages replace the numpy code), near
    the Heavy and cover-giving terrain, with the loops on and off (separate Sights)."""
    terrain = door_states(name)[k].board
    probe = Sight(terrain)
    feats = np.concatenate([probe.heavy_box, shapely_bounds(probe.cover_parts)])
    feats = feats[np.isfinite(feats).all(axis=1)]
    if len(feats) == 0:
        pytest.skip("no terrain")
    out = []
    for on in (True, False):
        s = Sight(terrain)
        rng_ = np.random.default_rng(120 + k)
        answers = []
        for _ in range(25):
            f = feats[rng_.integers(0, len(feats))]
            A = rng_.uniform(f[0:2] - 6, f[2:4] + 6, (1, 2))
            B = rng_.uniform(f[0:2] - 1.2, f[2:4] + 1.2, (int(rng_.integers(1, 6)), 2))
            with compiled(on):
                cm = s.cover_matrix(A, R, B, rng_.choice([R, 0.5, 1.0]))
            answers.append(np.concatenate([cm.visible, cm.in_cover, cm.obscured]))
        out.append(np.concatenate(answers, axis=1))
    assert out[0].tobytes() == out[1].tobytes()
    assert out[1].any()
