"""The speed-ups of :class:`solo_ops.geometry.sight.Sight` change no answer.

* Answers remembered per base pair, per circle and per target (``Sight._vis_memo``,
  ``_circle_memo``, ``_region_memo``) are the answers a fresh ``Sight`` gives, whatever was
  asked before and in whatever batch (answers of one pair never depend on the others).
* The circles of bases and 1" zones built from a table of cosines are GEOS's buffered points bit
  for bit, and the buffer fallback (another GEOS) gives the same answers.
* Where the centres cannot see each other (the probes, then every sample segment not cut off,
  the cover points tried all at once or in rounds), the answers equal the slow reference's.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solo_ops.geometry import sight as sight_mod
from solo_ops.geometry.board import parse_board
from solo_ops.geometry.sight import Sight, circles, cover
from solo_ops.io.yamlio import read_document
from tests.support.budget import examples
from tests.support.geometry_oracle import OracleSight
from tests.support.paths import BOARDS
from tests.support.shipped_terrains import CHECKED, door_states

R = 32 / 25.4 / 2  # a 32 mm base
_PATH = BOARDS / "gallowdark-corridors.yaml"
BOARD = parse_board(read_document(_PATH), str(_PATH))
SHARED = Sight(BOARD)  # asked across examples: its memos fill up as a game's would

coord_x = st.floats(0.5, BOARD.width - 0.5, allow_nan=False).map(lambda v: round(v, 2))
coord_y = st.floats(0.5, BOARD.depth - 0.5, allow_nan=False).map(lambda v: round(v, 2))
point = st.tuples(coord_x, coord_y)
radius = st.sampled_from([0.0, 0.5, R, 1.0])
PROPS = settings(max_examples=examples(40), deadline=None, derandomize=True,
                 suppress_health_check=[HealthCheck.too_slow])


def _cover(s: Sight, A: Any, ra: Any, B: Any, rb: Any, **kw: Any) -> list[Any]:
    cm = s.cover_matrix(A, ra, B, rb, **kw)
    return [cm.visible.tolist(), cm.in_cover.tolist(), cm.obscured.tolist()]


@PROPS
@given(st.lists(point, min_size=2, max_size=7), st.lists(point, min_size=1, max_size=7),
       st.lists(radius, min_size=7, max_size=7), st.lists(radius, min_size=7, max_size=7),
       st.randoms(use_true_random=False))
def test_visibility_does_not_depend_on_what_was_asked_before(
        a: list[Any], b: list[Any], ra: list[float], rb: list[float], rnd: Any) -> None:
    A, B = np.array(a), np.array(b)
    ra_, rb_ = np.array(ra[:len(a)]), np.array(rb[:len(b)])
    want = Sight(BOARD).visibility_matrix(A, ra_, B, rb_).tolist()
    # part of it first (so some pairs are remembered and some not), then all, shuffled
    SHARED.visibility_matrix(A[::2], ra_[::2], B, rb_)
    assert SHARED.visibility_matrix(A, ra_, B, rb_).tolist() == want
    order = list(range(len(a)))
    rnd.shuffle(order)
    got = SHARED.visibility_matrix(A[order], ra_[order], B, rb_)
    assert got.tolist() == [want[i] for i in order]
    for i in range(len(a)):  # one pair at a time, as the planner asks
        for j in range(len(b)):
            assert SHARED.visible(a[i], b[j], ra_[i], rb_[j]) is want[i][j]


@PROPS
@given(st.lists(point, min_size=1, max_size=4), st.lists(point, min_size=1, max_size=12),
       radius, radius, st.booleans(), st.booleans())
def test_cover_does_not_depend_on_what_was_asked_before(
        a: list[Any], b: list[Any], ra: float, rb: float, seek: bool, light: bool) -> None:
    A, B = np.array(a), np.array(b)
    kw = {"seek": seek, "seek_light": light}
    want = _cover(Sight(BOARD), A, ra, B, rb, **kw)
    SHARED.cover_matrix(A, ra, B[::2], rb, seek_light=not light)  # other regions first
    assert _cover(SHARED, A, ra, B, rb, **kw) == want
    # one target at a time (few pairs: every attacker point at once) and all together
    # (many pairs: the centre first, then rounds of edge points) agree
    for j in range(len(b)):
        col = _cover(Sight(BOARD), A, ra, B[j:j + 1], rb, **kw)
        assert col == [[row[j:j + 1] for row in m] for m in want]


@PROPS
@given(st.lists(point, min_size=1, max_size=3), st.lists(point, min_size=1, max_size=6),
       radius, radius)
def test_buffered_circles_give_the_same_answers(a: list[Any], b: list[Any], ra: float,
                                                rb: float) -> None:
    A, B = np.array(a), np.array(b)
    want = _cover(Sight(BOARD), A, ra, B, rb)
    saved = circles.FAST_RINGS
    try:
        circles.FAST_RINGS = False  # as with a GEOS that builds circles otherwise
        assert _cover(Sight(BOARD), A, ra, B, rb) == want
    finally:
        circles.FAST_RINGS = saved


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.floats(-5e3, 5e3), st.floats(-5e3, 5e3),
                          st.floats(1e-7, 40.0)), min_size=1, max_size=20))
def test_circle_rings_are_geos_buffers_bit_for_bit(discs: list[tuple[float, float, float]]
                                                   ) -> None:
    if not sight_mod.circles.fast_rings():
        pytest.skip("this GEOS builds circles otherwise: Sight buffers them (tested above)")
    arr = np.array(discs)
    got = sight_mod.circles.ring_coords(arr[:, :2], arr[:, 2])
    want = sight_mod.circles.buffered_rings(arr[:, :2], arr[:, 2])
    assert np.array_equal(got, want)


def _hidden_centres(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """``n`` pairs of points whose centre-to-centre line is blocked (where sampling matters),
    mostly a few inches apart (near the walls between them)."""
    a: list[np.ndarray] = []
    b: list[np.ndarray] = []
    lo, hi = np.array([0.5, 0.5]), np.array([BOARD.width - 0.5, BOARD.depth - 0.5])
    while len(a) < n:
        p = rng.uniform(lo, hi)
        q = np.clip(p + rng.normal(0.0, 4.0, 2), lo, hi)
        if not SHARED.clear(p[None], q[None])[0]:
            a.append(p)
            b.append(q)
    return np.array(a), np.array(b)


@pytest.mark.parametrize("seed", range(6))
def test_hidden_centres_equal_the_oracle(seed: int) -> None:
    rng = np.random.default_rng(seed)
    A, B = _hidden_centres(rng, 8)
    ra, rb = [0.0, 0.5, R, 1.0][seed % 4], [R, 1.0, 0.5, R][seed % 4]
    oracle = OracleSight(BOARD)
    got = np.diag(SHARED.visibility_matrix(A, ra, B, rb))
    want = [oracle.visible(tuple(p), tuple(q), ra, rb) for p, q in zip(A, B, strict=True)]
    assert got.tolist() == want
    for p, q in list(zip(A, B, strict=True))[:3]:  # cover, the attacker picking its point
        fast, slow = SHARED.cover(p, q, ra, rb), oracle.cover(tuple(p), tuple(q), ra, rb)
        assert (fast.visible, fast.in_cover, fast.obscured) == (
            slow.visible, slow.in_cover, slow.obscured)


@pytest.mark.parametrize(("name", "k"), CHECKED)
def test_cover_region_prefilter_changes_no_answer(name: str, k: int,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A cover line's triangle clearly apart from a cover region's bounding box is not asked
    of shapely: in-cover answers of many pairs on every shipped terrain are the same as with
    every (triangle, region) pair asked of shapely (the separating-axis test made to settle
    nothing). Some pairs must be in cover and some not, for the comparison to mean anything."""
    terrain = door_states(name)[k]
    b = terrain.board
    rng = np.random.default_rng(150 + k)
    A = rng.uniform(0, 1, (30, 2)) * [b.width, b.depth]
    B = rng.uniform(0, 1, (30, 2)) * [b.width, b.depth]
    ra = np.full(30, R)
    fast = Sight(b).cover_matrix(A, ra, B, ra)
    real = sight_mod.cover.triangle_meets_box

    def unsure(tri: np.ndarray, box: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        meets, _ = real(tri, box)
        return np.ones_like(meets), np.zeros_like(meets)

    with monkeypatch.context() as m:
        m.setattr(cover, "triangle_meets_box", unsure)
        slow = Sight(b).cover_matrix(A, ra, B, ra)
    for field in ("visible", "in_cover", "obscured"):
        assert getattr(fast, field).tobytes() == getattr(slow, field).tobytes(), field
    if any(f.gives_cover for f in b.features):
        assert fast.in_cover.any() and not fast.in_cover[fast.visible].all()


@pytest.mark.parametrize(("name", "k"), CHECKED)
def test_remembered_zone_touches_are_shapely_answers(name: str, k: int) -> None:
    """``Sight.zones_touch`` (does a base's 1" zone meet a Heavy feature, remembered per exact
    circle and feature) gives shapely's answer for every circle and feature, asked fresh, asked
    again, and with circles not kept."""
    terrain = door_states(name)[k]
    sight = Sight(terrain.board)
    nf = len(sight.heavy_parts)
    if nf == 0:
        pytest.skip("no Heavy terrain")
    rng = np.random.default_rng(170 + k)
    b = terrain.board
    n = 400
    centres = rng.uniform(0, 1, (n, 2)) * [b.width, b.depth]
    radii = rng.choice([1.0, 1.0 + R, 1.5], n)
    feats = rng.integers(0, nf, n)
    want = sight_mod.shapely.intersects(sight_mod.circles.circle_polygons(centres, radii),
                                        sight.heavy_parts[feats])
    assert want.any() and not want.all()
    first = sight.zones_touch(centres, radii, feats)
    again = sight.zones_touch(centres, radii, feats)
    loose = sight.zones_touch(centres[::-1], radii[::-1], feats[::-1], keep_circles=False)
    fresh = Sight(terrain.board).zones_touch(centres, radii, feats, keep_circles=False)
    for got in (first, again, loose[::-1], fresh):
        assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize(("name", "k"), CHECKED)
def test_remembered_cover_pairs_are_a_fresh_sights_answers(name: str, k: int) -> None:
    """``Sight._cover_memo`` (each visible pair's cover answer per mode, by its exact centres
    and radii): on every shipped terrain, one Sight asked in the three modes (plain, Seek,
    Seek Light), in overlapping batches and pair by pair, answers exactly as a fresh Sight
    asked once per mode; the memo really answers (the second asking computes nothing)."""
    terrain = door_states(name)[k]
    b = terrain.board
    rng = np.random.default_rng(190 + k)
    A = rng.uniform(0, 1, (12, 2)) * [b.width, b.depth]
    B = rng.uniform(0, 1, (25, 2)) * [b.width, b.depth]
    ra, rb = np.full(12, R), rng.choice([0.5, R, 1.0], 25)
    modes = [{}, {"seek": True}, {"seek_light": True}]
    want = [_cover(Sight(b), A, ra, B, rb, **kw) for kw in modes]
    shared = Sight(b)
    for kw in modes[::-1]:  # other modes and part of the pairs first
        shared.cover_matrix(A[::3], ra[::3], B[1::2], rb[1::2], **kw)
    for kw, w in zip(modes, want, strict=True):
        assert _cover(shared, A, ra, B, rb, **kw) == w
        for i in range(0, 12, 5):  # a row at a time, as the planner asks
            assert _cover(shared, A[i:i + 1], ra[i:i + 1], B, rb, **kw) == [
                m[i:i + 1] for m in w]
    calls: list[int] = []
    real = sight_mod.cover.CoverJob.run

    def counted(job: Any) -> Any:
        calls.append(len(job.pi))
        return real(job)

    sight_mod.cover.CoverJob.run = counted  # type: ignore[method-assign]
    try:
        assert _cover(shared, A, ra, B, rb) == want[0]
    finally:
        sight_mod.cover.CoverJob.run = real  # type: ignore[method-assign]
    assert calls == []
    vis = np.array(want[0][0])
    assert vis.any()
    if any(f.gives_cover for f in b.features):  # Seek takes cover away somewhere
        assert np.array(want[0][1])[vis].any() and not np.array(want[1][1]).any()
