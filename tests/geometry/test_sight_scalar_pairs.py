"""The issue #13 fourth-pass speed-up of sight changes no answer.

Visibility computations of a few base pairs (:data:`solo_ops.geometry.sight.SCALAR_PAIRS`) now
run their first stages pair by pair in Python floats (``sight.Scalar``, ``sight.clip_one``,
``Sight.clear_one``, ``Sight._few_visible_pairs``). Each is checked here against a frozen copy
of the numpy code it replaced (kept in this file) on every shipped board, in both door states
where there are doors, with random inputs and with points on the blockers' corners and edges,
exactly on them and 1e-12 / 1e-7 off them (where rounding ties live), and against the slow
reference ``tests/geometry_oracle.OracleSight``.
"""

from __future__ import annotations

from typing import cast

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solo_ops.geometry import sight as sight_mod
from solo_ops.geometry.sight import Sight
from tests.support.budget import examples
from tests.support.geometry_oracle import OracleSight
from tests.support.shipped_terrains import CHECKED, door_states
from tests.support.sight_pairs import R, hidden_pairs


def _sight(name: str, k: int) -> Sight:
    return door_states(name)[k].sight


# -- frozen copies of the numpy code the scalar path replaces (f842457) ----------------------

def _clip_hits_old(num: np.ndarray, den: np.ndarray, margin: float
                   ) -> tuple[np.ndarray, np.ndarray]:
    """``sight._clip_hits`` as at f842457."""
    lower = (den < 0).astype(float)
    upper = (den > 0).astype(float)
    flat = den == 0
    m = num[None] + np.array([-margin, margin])[:, None, None]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        r = m / den
        enter = np.fmax.reduce(r * lower, axis=1)
        r -= 1.0
        r *= upper
        leave = np.fmin.reduce(r, axis=1)
        leave += 1.0
    outside = np.logical_or.reduce(flat & (m < 0), axis=1)
    meets = (enter <= leave) & ~outside
    return meets[0], meets[1]


def _hits_all_old(s: Sight, px: np.ndarray, py: np.ndarray, vx: np.ndarray, vy: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray]:
    """``Pieces.hits_all`` as at f842457, per (segment, piece): (n, pieces) bools."""
    pc = s.pieces
    n, k = len(px), pc.count
    num = pc.c[:, None, :] - (pc.nx[:, None, :] * px[None, :, None]
                              + pc.ny[:, None, :] * py[None, :, None])
    den = pc.nx[:, None, :] * vx[None, :, None] + pc.ny[:, None, :] * vy[None, :, None]
    inner, outer = _clip_hits_old(num.reshape(sight_mod.MAX_SIDES, n * k),
                                  den.reshape(sight_mod.MAX_SIDES, n * k), sight_mod.NEAR)
    return inner.reshape(n, k), outer.reshape(n, k)


def _cut_off_dense_old(s: Sight, a: np.ndarray, ra: np.ndarray, b: np.ndarray,
                       rb: np.ndarray) -> np.ndarray:
    """``Sight.cut_off_dense`` as at f842457."""
    e = s.edges
    marg = sight_mod.SEPARATE_MARGIN
    ax, ay, bx, by = a[:, 0:1], a[:, 1:2], b[:, 0:1], b[:, 1:2]
    ra1, rb1 = ra[:, None], rb[:, None]
    lo_x, lo_y = np.minimum(ax - ra1, bx - rb1), np.minimum(ay - ra1, by - rb1)
    hi_x, hi_y = np.maximum(ax + ra1, bx + rb1), np.maximum(ay + ra1, by + rb1)
    ok = (lo_x <= e.maxx) & (hi_x >= e.minx) & (lo_y <= e.maxy) & (hi_y >= e.miny)
    sa = ax * e.nx + ay * e.ny - e.offset
    sb = bx * e.nx + by * e.ny - e.offset
    r0, r1 = ra1 + marg, rb1 + marg
    ok &= ((sa > r0) & (sb < -r1)) | ((sa < -r0) & (sb > r1))
    if not ok.any():
        return np.zeros(len(a), dtype=bool)
    dx, dy = bx - ax, by - ay
    dist = np.hypot(dx, dy)
    with np.errstate(divide="ignore", invalid="ignore"):
        ux, uy = dx / dist, dy / dist
        alpha = (rb1 - ra1) / dist
        beta = np.sqrt(np.maximum(0.0, 1.0 - alpha * alpha))
        for sign in (1.0, -1.0):
            mx = alpha * ux - sign * beta * uy
            my = alpha * uy + sign * beta * ux
            k = mx * ax + my * ay - ra1
            denom = mx * e.tdx + my * e.tdy
            t = (k - (mx * e.x0 + my * e.y0)) / denom
            ok &= np.isfinite(t) & (t > marg) & (t < e.length - marg)
    return cast(np.ndarray, ok.any(axis=1))


def _visible_pairs_old(s: Sight, a: np.ndarray, ra: np.ndarray, b: np.ndarray,
                       rb: np.ndarray) -> np.ndarray:
    """``Sight.compute_visible_pairs`` as at f842457 (all numpy, any batch size)."""
    m = len(a)
    vis = np.zeros(m, dtype=bool)
    if m == 0:
        return vis
    if s.pieces.count == 0:
        vis[:] = True
        return vis
    vis[:] = s.clear(a, b)
    todo = np.flatnonzero(~vis & ((ra > 0) | (rb > 0)))
    if len(todo) == 0:
        return vis
    todo = todo[~_cut_off_dense_old(s, a[todo], ra[todo], b[todo], rb[todo])]
    if len(todo) == 0:
        return vis
    cos, sin = sight_mod.circles.BASE_COS, sight_mod.circles.BASE_SIN
    sa = sight_mod.circles.samples(a[todo], ra[todo], cos, sin)
    sb = sight_mod.circles.samples(b[todo], rb[todo], cos, sin)
    k = len(todo)
    d = b[todo] - a[todo]
    phi = np.arctan2(d[:, 1], d[:, 0])
    side = np.concatenate([phi + np.pi / 2, phi - np.pi / 2])
    col = np.rint(side / sight_mod.circles.STEP).astype(np.intp) % sight_mod.BASE_SAMPLES + 1
    row = np.tile(np.arange(k), 2)
    ok = s.clear(sa[row, col], sb[row, col])
    seen = np.bincount(row[ok], minlength=k) > 0
    vis[todo[seen]] = True
    todo, sa, sb = todo[~seen], sa[~seen], sb[~seen]
    if len(todo) == 0:
        return vis
    k = len(todo)
    cut = s.points_cut_off(np.concatenate([sa, sb]), np.concatenate([b[todo], a[todo]]),
                           np.concatenate([rb[todo], ra[todo]]))
    need = ~cut[:k, :, None] & ~cut[k:, None, :]
    pk, pa, pb = np.nonzero(need)
    ok = s.clear(sa[pk, pa], sb[pk, pb])
    vis[todo[np.bincount(pk[ok], minlength=k) > 0]] = True
    return vis


# -- inputs --------------------------------------------------------------------------------

JITTER = [0.0, 0.0, 1e-12, -1e-12, 1e-7, -1e-7, 1e-6, 0.01]


def _edge_points(s: Sight, rng: np.random.Generator, n: int) -> np.ndarray:
    """Points on the merged blockers' corners and edges, exactly or 1e-12 .. 0.01 off."""
    e = s.edges
    if len(e.x0) == 0:
        return rng.uniform(0.0, 10.0, (n, 2))
    pick = rng.integers(0, len(e.x0), n)
    t = rng.choice([0.0, 0.5, 1.0, rng.uniform()], n)
    pts = np.stack([e.x0[pick] + t * e.dx[pick], e.y0[pick] + t * e.dy[pick]], axis=1)
    return cast(np.ndarray, pts + rng.choice(JITTER, (n, 2)))


def _piece_points(s: Sight, rng: np.random.Generator, n: int) -> np.ndarray:
    """Corners of the convex pieces (where their sides meet), exactly or just off."""
    pc = s.pieces
    if pc.count == 0:
        return rng.uniform(0.0, 10.0, (n, 2))
    i = rng.integers(0, pc.count, n)
    corner = rng.integers(0, 4, (n, 2))
    x = np.where(corner[:, 0] < 2, pc.minx[i], pc.maxx[i]) + 2 * sight_mod.NEAR * (
        2 * (corner[:, 0] < 2) - 1)
    y = np.where(corner[:, 1] < 2, pc.miny[i], pc.maxy[i]) + 2 * sight_mod.NEAR * (
        2 * (corner[:, 1] < 2) - 1)
    return cast(np.ndarray, np.stack([x, y], axis=1) + rng.choice(JITTER, (n, 2)))


def _segments(s: Sight, rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Random segments, segments from / to / along blocker edges and piece corners, axis-
    parallel ones (parallel sides), zero-length ones."""
    w, d = s.board.width, s.board.depth
    p = rng.uniform((0, 0), (w, d), (n, 2))
    q = p + rng.normal(0.0, 5.0, (n, 2))
    f = n // 6
    p[:f] = _edge_points(s, rng, f)
    q[f:2 * f] = _edge_points(s, rng, f)
    p[2 * f:3 * f] = _piece_points(s, rng, f)
    q[2 * f:3 * f] = _piece_points(s, rng, f)
    q[3 * f:4 * f, 0] = p[3 * f:4 * f, 0]  # vertical
    q[4 * f:5 * f, 1] = p[4 * f:5 * f, 1]  # horizontal
    q[:f // 4] = p[:f // 4]  # zero-length
    return p, q


def _pairs(s: Sight, rng: np.random.Generator, n: int
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    w, d = s.board.width, s.board.depth
    a = rng.uniform((0.5, 0.5), (w - 0.5, d - 0.5), (n, 2))
    b = np.clip(a + rng.normal(0.0, 6.0, (n, 2)), 0.5, max(w, d))
    third = n // 3
    a[:third] = _edge_points(s, rng, third)
    b[third:2 * third] = _edge_points(s, rng, third)
    b[:third // 6] = a[:third // 6]  # one centre
    ra = rng.choice([0.0, 0.5, R, 1.0, 1e-12], n)
    rb = rng.choice([0.0, 0.5, R, 1.0], n)
    return a, ra, b, rb


# -- the tests ------------------------------------------------------------------------------

@pytest.mark.parametrize(("name", "k"), CHECKED)
def test_clip_one_equals_the_numpy_clip_for_every_piece(name: str, k: int) -> None:
    s = _sight(name, k)
    if s.pieces.count == 0:
        pytest.skip("no blockers")
    rng = np.random.default_rng(101 + k + len(name))
    p, q = _segments(s, rng, 180)
    px, py, vx, vy = p[:, 0], p[:, 1], q[:, 0] - p[:, 0], q[:, 1] - p[:, 1]
    inner, outer = _hits_all_old(s, px, py, vx, vy)
    scalar = s.scalar
    seen = set()
    for n in range(len(p)):
        for i, piece in enumerate(scalar.pieces):
            got = sight_mod.scalar.clip_one(float(px[n]), float(py[n]), float(vx[n]), float(vy[n]),
                                            piece[4])
            want = (bool(inner[n, i]), bool(outer[n, i]))
            assert got == want, (n, i)
            seen.add(want)
    assert {(True, True), (False, True), (False, False)} <= seen


@settings(max_examples=examples(300), deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.sampled_from([-1.0, 0.0, 1.0, 0.6, -0.8]),
                          st.sampled_from([-1.0, 0.0, 1.0, 0.8, 0.6]),
                          st.floats(-3.0, 3.0, allow_nan=False)), min_size=1, max_size=4),
       st.tuples(*[st.one_of(st.sampled_from([0.0, 1.0, -1.0, 1e-12, 3.0]),
                             st.floats(-4.0, 4.0, allow_nan=False)) for _ in range(4)]))
def test_clip_one_equals_the_numpy_clip_on_any_sides(
        sides: list[tuple[float, float, float]], seg: tuple[float, ...]) -> None:
    """Any half-planes, bounded or not, with segments parallel to sides, points, ties: the
    same (shrunk, grown) answers as the numpy clip (whose padding sides are (0, 0, 1))."""
    sides = [sd for sd in sides if sd[0] != 0.0 or sd[1] != 0.0]
    pad = [(0.0, 0.0, 1.0)] * (4 - len(sides))
    nx = np.array([sd[0] for sd in sides + pad])[:, None]
    ny = np.array([sd[1] for sd in sides + pad])[:, None]
    c = np.array([sd[2] for sd in sides + pad])[:, None]
    px, py, vx, vy = seg
    num = c - (nx * px + ny * py)
    den = nx * vx + ny * vy
    inner, outer = _clip_hits_old(num, den, sight_mod.NEAR)
    got = sight_mod.scalar.clip_one(px, py, vx, vy, tuple(sides))
    assert got == (bool(inner[0]), bool(outer[0]))


ALL_BUT_PARALLEL = [  # segments of a subnormal length: a side's t is infinite, and r * 0 NaN
    (((-1.0, -1.0, 0.0),), (0.0, 0.0, 0.0, 5e-324)),  # hypothesis's find: one side, from on it
    (((1.0, 0.0, 1.0), (-1.0, 0.0, 1.0), (0.0, 1.0, 1.0), (0.0, -1.0, 1.0)),
     (0.0, 0.0, 5e-324, 0.0)),  # inside a box
    (((1.0, 0.0, 1.0), (-1.0, 0.0, 1.0), (0.0, 1.0, 1.0), (0.0, -1.0, 1.0)),
     (5.0, 0.0, 5e-324, 0.0)),  # beside it
    (((1.0, 0.0, 1.0), (-1.0, 0.0, 1.0)), (0.5, 0.0, -1e-320, 1e-320)),
]
"""Degenerate segments where the numpy clip's masked-out terms become NaN rather than 0. Not
every answer is the geometry's: the point 4" beside the box "meets" it (enter and leave both
-inf), in the numpy clip and so in the other two. What is pinned is that the three paths agree
(so a game is the same on each); no game draws a segment 1e-320" long between two bases."""


@pytest.mark.parametrize(("sides", "seg"), ALL_BUT_PARALLEL)
def test_clip_one_equals_the_numpy_clip_on_segments_all_but_parallel(
        sides: tuple[tuple[float, float, float], ...], seg: tuple[float, ...]) -> None:
    """A segment of a subnormal length makes a side's ``t`` infinite, and the numpy clip's
    masked-out term (``inf * 0``) NaN, which its reductions skip: the scalar clip gives the
    numpy clip's answers there too (so the paths never part, whatever the segment)."""
    pad = [(0.0, 0.0, 1.0)] * (4 - len(sides))
    nx = np.array([sd[0] for sd in [*sides, *pad]])[:, None]
    ny = np.array([sd[1] for sd in [*sides, *pad]])[:, None]
    c = np.array([sd[2] for sd in [*sides, *pad]])[:, None]
    px, py, vx, vy = seg
    with np.errstate(over="ignore"):
        num = c - (nx * px + ny * py)
        den = nx * vx + ny * vy
        inner, outer = _clip_hits_old(num, den, sight_mod.NEAR)
    assert sight_mod.scalar.clip_one(px, py, vx, vy, sides) == (bool(inner[0]), bool(outer[0]))


@pytest.mark.parametrize(("name", "k"), CHECKED)
def test_scalar_segment_and_clear_one_equal_the_numpy_path(name: str, k: int) -> None:
    s = _sight(name, k)
    if s.pieces.count == 0:
        pytest.skip("no blockers")
    rng = np.random.default_rng(202 + k + len(name))
    p, q = _segments(s, rng, 600)
    px, py, vx, vy = p[:, 0], p[:, 1], q[:, 0] - p[:, 0], q[:, 1] - p[:, 1]
    inner, outer = _hits_all_old(s, px, py, vx, vy)
    want_clear = s.clear(p, q)  # the numpy path (600 segments: prefilter and blocks)
    kinds = set()
    for n in range(len(p)):
        a = (float(p[n, 0]), float(p[n, 1]), float(q[n, 0]), float(q[n, 1]))
        assert s.clear_one(*a) == bool(want_clear[n]), n
        assert s.clear_one(*a) == bool(s.clear(p[n:n + 1], q[n:n + 1])[0])
        if vx[n] == 0 and vy[n] == 0:
            continue
        want = False if inner[n].any() else (None if outer[n].any() else True)
        got = s.scalar.segment(*a)
        assert got == want, n
        kinds.add(got)
    assert kinds == {True, False, None}


@pytest.mark.parametrize(("name", "k"), CHECKED)
def test_scalar_cut_off_equals_the_dense_one(name: str, k: int) -> None:
    s = _sight(name, k)
    rng = np.random.default_rng(303 + k + len(name))
    a, ra, b, rb = _pairs(s, rng, 600)
    want = _cut_off_dense_old(s, a, ra, b, rb)
    got = [s.scalar.cut_off(float(a[i, 0]), float(a[i, 1]), float(ra[i]), float(b[i, 0]),
                            float(b[i, 1]), float(rb[i])) for i in range(len(a))]
    assert got == want.tolist()
    assert got == s.cut_off(a, ra, b, rb).tolist()  # the sparse numpy path too
    if len(s.edges.x0):
        assert 0 < sum(got) < len(got)


@pytest.mark.parametrize(("name", "k"), CHECKED)
def test_few_pairs_equal_the_numpy_computation(name: str, k: int) -> None:
    s = Sight(_sight(name, k).board)  # fresh: nothing remembered
    rng = np.random.default_rng(404 + k + len(name))
    a, ra, b, rb = _pairs(s, rng, 240)
    ha, hb = hidden_pairs(s, rng, 60)  # blocked centre lines: cut-offs, probes, samples
    a, b = np.concatenate([a, ha]), np.concatenate([b, hb])
    ra = np.concatenate([ra, rng.choice([0.5, R, 1.0], len(ha))])
    rb = np.concatenate([rb, rng.choice([0.0, R, 1.0], len(hb))])
    want = _visible_pairs_old(s, a, ra, b, rb)
    got = np.zeros(len(a), dtype=bool)
    lo, size = 0, 1
    while lo < len(a):  # batches of 1 .. SCALAR_PAIRS
        sl = slice(lo, lo + size)
        got[sl] = s.compute_visible_pairs(a[sl], ra[sl], b[sl], rb[sl])
        lo += size
        size = size % sight_mod.SCALAR_PAIRS + 1
    assert got.tolist() == want.tolist()
    # ... and through the public query, one pair at a time (a model up on a perch is seen
    # without it: tests/geometry/test_sight_perches.py)
    perched = (np.zeros(len(a), dtype=bool) if s.perches is None
               else s.perches.under(a).any(axis=1) | s.perches.under(b).any(axis=1))
    for i in range(0, len(a), 7):
        if not perched[i]:
            assert s.visible(a[i], b[i], ra[i], rb[i]) == bool(want[i])
    if s.pieces.count:
        hidden = want[-len(ha):] if len(ha) else want
        assert want.any() and not want.all()
        assert len(ha) == 0 or (hidden.any() and not hidden.all())


@pytest.mark.parametrize(("name", "k"), CHECKED)
def test_few_pairs_equal_the_oracle(name: str, k: int) -> None:
    s = Sight(_sight(name, k).board)
    rng = np.random.default_rng(505 + k)
    A, B = hidden_pairs(s, rng, 8)
    if len(A) == 0:
        pytest.skip("no blocked lines on this board")
    oracle = OracleSight(s.board)
    for ra, rb in ((R, R), (0.5, 1.0), (0.0, R)):
        got = [s.visible(p, q, ra, rb) for p, q in zip(A, B, strict=True)]
        want = [oracle.visible(tuple(p), tuple(q), ra, rb) for p, q in zip(A, B, strict=True)]
        assert got == want
