"""The compiled cover test (``solo_ops.geometry.jit.sight``) answers exactly what the numpy code
answers (issue 13, fifth pass): ``sight.triangle_meets_box``, the separating-axis test of a
cover line's triangle against a Heavy feature's box, compared with the numpy code on random,
touching, flat and tie-breaking triangles, and cover answers on the shipped boards both ways.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("numba")

from solo_ops.geometry import sight as S
from solo_ops.geometry.sight import blockers
from tests.support.budget import examples
from tests.support.jit_switch import compiled
from tests.support.shipped_terrains import CHECKED, door_states


def both(tri: np.ndarray, box: np.ndarray) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """The compiled separating-axis test of each triangle against its own box (as
    ``heavy_candidates`` answers it, every box box-shaped, for the pairs whose boxes meet) and
    ``cover.triangle_meets_box`` of the same pairs."""
    from solo_ops.geometry.jit import sight as js

    n = len(tri)
    zones = np.zeros((n, 3))
    ti, fi, meets, sure, _ = js.heavy_candidates(
        np.ascontiguousarray(tri, dtype=float), np.ascontiguousarray(box, dtype=float),
        np.ones(n, dtype=bool), zones, zones, *S.cover.NO_OUTLINES, False)
    own = ti == fi
    with compiled(False):
        want = S.cover.triangle_meets_box(tri[ti[own]], box[ti[own]])
    return (meets[own], sure[own]), want


def test_triangles_against_boxes_equal_numpy() -> None:
    rng = np.random.default_rng(4)
    n = 4000
    tri = rng.uniform(0, 10, (n, 3, 2))
    lo = rng.uniform(0, 9, (n, 2))
    box = np.concatenate([lo, lo + rng.uniform(0.01, 3, (n, 2))], axis=1)
    # flat triangles, a vertex on a box's corner or side, an edge along a box's side
    tri[:200, 2] = tri[:200, 0] + 0.5 * (tri[:200, 1] - tri[:200, 0])
    tri[200:400, 0] = box[200:400, 0:2]
    tri[400:600, 0, 0] = box[400:600, 2]
    tri[600:800, 0] = box[600:800, 0:2]
    tri[600:800, 1] = np.stack([box[600:800, 2], box[600:800, 1]], axis=1)
    tri = np.round(tri * 4) / 4  # on a quarter-inch grid: exact ties happen
    box = np.round(box * 4) / 4
    (gm, gs), (wm, ws) = both(tri, box)
    assert gm.tobytes() == wm.tobytes() and gs.tobytes() == ws.tobytes()
    assert wm.any() and not wm.all() and ws.any() and not ws.all()


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_hypothesis_triangles_equal_numpy(data: Any) -> None:
    coord = st.sampled_from([0.0, 1.0, 2.0, 0.5, -1.0, 3.0, 1e-12, 1.0 + 1e-9, 0.1 + 0.2])
    tri = np.array([[[data.draw(coord), data.draw(coord)] for _ in range(3)] for _ in range(4)])
    box = np.array([sorted([data.draw(coord), data.draw(coord)])
                    + sorted([data.draw(coord), data.draw(coord)]) for _ in range(4)])
    box = box[:, [0, 2, 1, 3]]  # x0, y0, x1, y1
    (gm, gs), (wm, ws) = both(tri, box)
    assert gm.tobytes() == wm.tobytes() and gs.tobytes() == ws.tobytes()


@pytest.mark.parametrize(("name", "k"), CHECKED)
def test_cover_answers_equal_numpy(name: str, k: int) -> None:
    """Obscured and in-cover answers of many attacker / target pairs on a shipped terrain,
    with the kernel and without (separate Sight objects: nothing remembered is shared)."""
    terrain = door_states(name)[k]
    b = terrain.board
    rng = np.random.default_rng(17 + k)
    A = rng.uniform(0, 1, (40, 2)) * [b.width, b.depth]
    B = rng.uniform(0, 1, (40, 2)) * [b.width, b.depth]
    ra = np.full(40, 0.63)
    out = []
    for on in (True, False):
        sight = S.Sight(terrain.board)
        with compiled(on):
            out.append(sight.cover_matrix(A, ra, B, ra))
    got, want = out
    for name_ in ("visible", "in_cover", "obscured"):
        assert getattr(got, name_).tobytes() == getattr(want, name_).tobytes(), name_
    assert want.visible.any()


@pytest.mark.parametrize(("name", "k"), CHECKED)
def test_segments_against_pieces_equal_python(name: str, k: int) -> None:
    """``Scalar.segment`` (a sight segment against every blocker piece: blocked, clear or
    for shapely), compiled and in Python floats, for random segments and ones from and
    through the pieces' corners and along their sides (1e-9 and 1e-12 off too)."""
    terrain = door_states(name)[k]
    scalar = S.Sight(terrain.board).scalar
    b = terrain.board
    rng = np.random.default_rng(60 + k)
    segs = [tuple(s) for s in rng.uniform(0, 1, (300, 4)) * [b.width, b.depth, b.width, b.depth]]
    corners = [(x, y) for x0, y0, x1, y1 in scalar.boxes.tolist()
               for x, y in ((x0, y0), (x1, y1), (x0, y1))]
    for (x, y) in corners[:60]:
        for dx, dy in ((3.0, 0.0), (0.0, 2.5), (1.5, 1.5), (1e-9, 4.0), (4.0, 1e-12)):
            segs += [(x - dx, y - dy, x + dx, y + dy), (x, y, x + dx, y - dy)]
    for box, sides, count in zip(scalar.boxes, scalar.sides, scalar.counts, strict=True):
        mx, my = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        for nx, ny, c in sides[:count].tolist():  # along each side, 5e-7 either side of it
            norm = float(np.hypot(nx, ny))
            ux, uy = nx / norm, ny / norm
            off = (c / norm - (ux * mx + uy * my))
            for d in (5e-7, -5e-7):
                x, y = mx + (off + d) * ux, my + (off + d) * uy
                segs.append((x - 3 * uy, y + 3 * ux, x + 3 * uy, y - 3 * ux))
    answers = {True: 0, False: 0, None: 0}
    for px, py, qx, qy in segs:
        if (px, py) == (qx, qy):
            continue
        with compiled(True):
            got = scalar.segment(px, py, qx, qy)
        with compiled(False):
            want = scalar.segment(px, py, qx, qy)
        assert got is want, (name, px, py, qx, qy)
        answers[want] += 1
    if len(scalar.pieces):  # blocked, clear and too close to call (shapely's) all compared
        assert answers[True] > 0 and answers[False] > 0 and answers[None] > 0, answers


@pytest.mark.parametrize("seg", [(0.0, 0.0, 0.0, 5e-324), (5.0, 0.0, 5e-324, 0.0),
                                 (0.0, 0.0, 5e-324, 0.0), (0.5, 0.0, -1e-320, 1e-320)])
def test_clip_one_equals_python_on_segments_all_but_parallel(seg: tuple[float, ...]) -> None:
    """A segment of a subnormal length (a side's t infinite): the kernel's answer is the
    Python's, against one side and against a box."""
    from solo_ops.geometry.jit import sight as js

    for sides in (((-1.0, -1.0, 0.0),),
                  ((1.0, 0.0, 1.0), (-1.0, 0.0, 1.0), (0.0, 1.0, 1.0), (0.0, -1.0, 1.0))):
        arr = np.zeros((S.MAX_SIDES, 3))
        arr[:len(sides)] = sides
        assert (js.clip_one(*seg, arr, len(sides), S.NEAR)
                == S.scalar.clip_one(*seg, sides)), (seg, sides)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_clip_one_equals_python(data: Any) -> None:
    """One segment against one piece's sides, parallel sides and all, against the Python."""
    from solo_ops.geometry.jit import sight as js

    num = st.sampled_from([0.0, 1.0, -1.0, 0.5, 2.0, 1e-7, -1e-7, 1e-6, 3.0, 0.1 + 0.2])
    n = data.draw(st.integers(1, S.MAX_SIDES))
    sides = tuple((data.draw(num), data.draw(num), data.draw(num)) for _ in range(n))
    px, py, vx, vy = (data.draw(num) for _ in range(4))
    arr = np.zeros((S.MAX_SIDES, 3))
    arr[:n] = sides
    assert js.clip_one(px, py, vx, vy, arr, n, S.NEAR) == S.scalar.clip_one(px, py, vx, vy, sides)


@pytest.mark.parametrize(("name", "k"), CHECKED)
def test_cut_off_equals_python(name: str, k: int) -> None:
    """``Scalar.cut_off`` (a wall edge that separates two bases entirely), compiled and in
    Python floats, for random pairs of bases and pairs on either side of each wall edge."""
    terrain = door_states(name)[k]
    scalar = S.Sight(terrain.board).scalar
    b = terrain.board
    rng = np.random.default_rng(80 + k)
    pairs = [(*rng.uniform(0, 1, 2) * [b.width, b.depth], r0, *rng.uniform(0, 1, 2)
              * [b.width, b.depth], r1)
             for r0, r1 in rng.choice([0.0, 0.5, 0.63, 1.0], (300, 2))]
    for row in scalar.edge_rows[:80].tolist():  # across each edge's middle, both ways
        nx, ny, x0, y0, tdx, tdy, length = row[4], row[5], row[7], row[8], row[9], row[10], \
            row[11]
        mx, my = x0 + tdx * length / 2, y0 + tdy * length / 2
        for d, r in ((1.5, 0.5), (0.7, 0.63), (3.0, 1.0), (0.3, 0.5)):
            pairs.append((mx + d * nx, my + d * ny, r, mx - d * nx, my - d * ny, r))
    found = {True: 0, False: 0}
    for ax, ay, ra, bx, by, rb in pairs:
        with compiled(True):
            got = scalar.cut_off(ax, ay, ra, bx, by, rb)
        with compiled(False):
            want = scalar.cut_off(ax, ay, ra, bx, by, rb)
        assert got is want, (name, ax, ay, ra, bx, by, rb)
        found[want] += 1
    if len(scalar.edge_rows):
        assert found[True] > 0 and found[False] > 0, found


def _numpy_masks(pieces: Any, px: np.ndarray, py: np.ndarray, vx: np.ndarray,
                 vy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(blocked, unsure) of segments against every piece by the numpy code, as
    ``Sight._clear_chunk`` forms them: ``hits_all`` for a few pairs, else ``hits`` over every
    piece (no block skipped)."""
    n = len(px)
    if n * pieces.count <= blockers.DIRECT_PAIRS:
        blocked, unsure = pieces.hits_all(px, py, vx, vy)
        return blocked, unsure & ~blocked
    blocked = np.zeros(n, dtype=bool)
    unsure = np.zeros(n, dtype=bool)
    inner, outer = pieces.hits(px, py, vx, vy, 0, pieces.count)
    blocked[inner] = True
    unsure[outer] = True
    return blocked, unsure & ~blocked


def _segments_near_pieces(pieces: Any, board: Any, rng: np.random.Generator) -> np.ndarray:
    """(n, 4) segments: random ones, ones from and through the pieces' box corners, and ones
    crossing each piece's sides 5e-7 either side of them (within NEAR's reach)."""
    segs = list(rng.uniform(0, 1, (400, 4)) * ([board.width, board.depth] * 2))
    corners = [(x, y) for x0, y0, x1, y1 in zip(pieces.minx, pieces.miny, pieces.maxx,
                                                pieces.maxy, strict=True)
               for x, y in ((x0, y0), (x1, y1), (x0, y1))]
    for x, y in corners[:60]:
        for dx, dy in ((3.0, 0.0), (0.0, 2.5), (1.5, 1.5), (1e-9, 4.0), (4.0, 1e-12)):
            segs += [(x - dx, y - dy, x + dx, y + dy), (x, y, x + dx, y - dy)]
    for g in range(pieces.count):
        mx, my = pieces.cx[g], pieces.cy[g]
        for nx, ny, c in zip(pieces.nx[:, g], pieces.ny[:, g], pieces.c[:, g], strict=True):
            if nx == 0 and ny == 0:
                continue  # padding
            off = c - (nx * mx + ny * my)
            for d in (5e-7, -5e-7, 2e-6, 0.0):
                x, y = mx + (off + d) * nx, my + (off + d) * ny
                segs.append((x - 3 * ny, y + 3 * nx, x + 3 * ny, y - 3 * nx))
    segs += [(1.0, 1.0, 1.0, 1.0), (2.5, 3.0, 2.5, 3.0)]  # points
    return np.array(segs, dtype=float)


@pytest.mark.parametrize(("name", "k"), CHECKED)
def test_segment_masks_equal_numpy(name: str, k: int) -> None:
    """``Pieces.hit_masks`` (every sight segment against every blocker piece: blocked, too
    close to call) compiled and by the numpy code, for a few segments at a time (no
    prefilter) and many (the float32 prefilter), and ``Sight.clear`` both ways."""
    terrain = door_states(name)[k]
    sight = S.Sight(terrain.board)
    pieces = sight.pieces
    if pieces.count == 0:
        pytest.skip("no blockers on this terrain")
    segs = _segments_near_pieces(pieces, terrain.board, np.random.default_rng(90 + k))
    px, py = segs[:, 0], segs[:, 1]
    vx, vy = segs[:, 2] - px, segs[:, 3] - py
    seen = np.zeros(3, dtype=int)
    for size in (1, 3, len(segs)):  # a few pairs and many
        for lo in range(0, len(segs), size):
            part = slice(lo, lo + size)
            with compiled(True):
                got = pieces.hit_masks(px[part], py[part], vx[part], vy[part])
            want = _numpy_masks(pieces, px[part], py[part], vx[part], vy[part])
            assert got[0].tobytes() == want[0].tobytes(), (name, lo, size)
            assert got[1].tobytes() == want[1].tobytes(), (name, lo, size)
            seen += [want[0].sum(), want[1].sum(), (~want[0] & ~want[1]).sum()]
    assert (seen > 0).all(), seen  # blocked, unsure and clear segments all compared
    out = []
    for on in (True, False):
        with compiled(on):
            out.append(S.Sight(terrain.board).clear(segs[:, :2], segs[:, 2:]))
    assert out[0].tobytes() == out[1].tobytes()


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_hypothesis_segment_masks_equal_numpy(data: Any) -> None:
    """Segments against made-up pieces (parallel sides, zero directions, sides through the
    segment's ends), compiled and by the numpy code, with and without the prefilter."""
    from types import SimpleNamespace

    num = st.sampled_from([0.0, 1.0, -1.0, 0.5, 2.0, 1e-7, -1e-7, 1e-6, 3.0, 0.1 + 0.2])
    count = data.draw(st.integers(1, 3))
    nx = np.array([[data.draw(num) for _ in range(count)] for _ in range(S.MAX_SIDES)])
    ny = np.array([[data.draw(num) for _ in range(count)] for _ in range(S.MAX_SIDES)])
    c = np.array([[data.draw(num) for _ in range(count)] for _ in range(S.MAX_SIDES)])
    centre = np.array([[data.draw(num) for _ in range(count)] for _ in range(2)])
    half = np.abs(np.array([[data.draw(num) for _ in range(count)] for _ in range(2)]))
    f32 = np.float32
    pieces = SimpleNamespace(
        count=count, nx=nx, ny=ny, c=c,
        cx32=centre[0].astype(f32)[:, None], cy32=centre[1].astype(f32)[:, None],
        hx32=(half[0] + S.PREFILTER_PAD).astype(f32)[:, None],
        hy32=(half[1] + S.PREFILTER_PAD).astype(f32)[:, None])
    pieces.flat32 = tuple(np.ascontiguousarray(a.ravel()) for a in
                          (pieces.cx32, pieces.cy32, pieces.hx32, pieces.hy32))
    n = data.draw(st.integers(1, 4))
    seg = np.array([[data.draw(num) for _ in range(n)] for _ in range(4)])
    from solo_ops.geometry.jit import sight as js

    for prefilter in (False, True):
        got = js.pieces_hits(*seg, *pieces.flat32, nx, ny, c, 0, count, S.NEAR, prefilter)
        if prefilter:
            inner, outer = S.blockers.Pieces.hits(pieces, *seg, 0, count)  # type: ignore[arg-type]
            blocked = np.zeros(n, dtype=bool)
            unsure = np.zeros(n, dtype=bool)
            blocked[inner] = True
            unsure[outer] = True
        else:
            blocked, unsure = S.blockers.Pieces.hits_all(pieces, *seg)  # type: ignore[arg-type]
        assert got[0].tobytes() == blocked.tobytes()
        assert got[1].tobytes() == (unsure & ~blocked).tobytes()


@pytest.mark.parametrize(("name", "k"), CHECKED)
def test_cut_off_arrays_equal_numpy(name: str, k: int) -> None:
    """``Sight.cut_off`` (pairs of bases, a few and many at once) and
    ``Sight.points_cut_off`` (sample points to a whole base), compiled pair by pair and by the
    numpy code, for random bases and ones on either side of each wall edge."""
    terrain = door_states(name)[k]
    sight = S.Sight(terrain.board)
    rows = sight.scalar.edge_rows
    if len(rows) == 0:
        pytest.skip("no blocker edges on this terrain")
    b = terrain.board
    rng = np.random.default_rng(120 + k)
    m = 300
    a = rng.uniform(0, 1, (m, 2)) * [b.width, b.depth]
    c = rng.uniform(0, 1, (m, 2)) * [b.width, b.depth]
    ra = rng.choice([0.0, 0.5, 0.63, 1.0], m)
    rb = rng.choice([0.0, 0.5, 0.63, 1.0], m)
    across = []
    for row in rows[:80].tolist():  # across each edge's middle, both ways
        nx, ny, x0, y0, tdx, tdy, length = row[4], row[5], row[7], row[8], row[9], row[10], \
            row[11]
        mx, my = x0 + tdx * length / 2, y0 + tdy * length / 2
        for d in (1.5, 0.7, 3.0, 0.3):
            across.append((mx + d * nx, my + d * ny, mx - d * nx, my - d * ny))
    xs = np.array(across)
    a = np.concatenate([a, xs[:, :2]])
    c = np.concatenate([c, xs[:, 2:]])
    ra = np.concatenate([ra, np.full(len(xs), 0.5)])
    rb = np.concatenate([rb, np.full(len(xs), 0.63)])
    for size in (2, len(a)):  # the dense form and the boxed one
        for lo in range(0, len(a), size):
            part = slice(lo, lo + size)
            with compiled(True):
                got = sight.cut_off(a[part], ra[part], c[part], rb[part])
            with compiled(False):
                want = sight.cut_off(a[part], ra[part], c[part], rb[part])
            assert got.tobytes() == want.tobytes(), (name, lo, size)
    with compiled(False):
        whole = sight.cut_off(a, ra, c, rb)
    assert whole.any() and not whole.all()
    pts = S.circles.samples(a, ra, S.circles.BASE_COS, S.circles.BASE_SIN)
    with compiled(True):
        got = sight.points_cut_off(pts, c, rb)
    with compiled(False):
        want = sight.points_cut_off(pts, c, rb)
    assert got.tobytes() == want.tobytes()
    assert want.any() and not want.all()


def test_heavy_candidates_equal_numpy() -> None:
    """The first stage of ``_obscured``: (triangle, feature) pairs whose boxes meet, with the
    separating-axis answers (sure only for box-shaped features), compiled and by the numpy
    code, including NaN boxes (empty features: they meet nothing) and boxes touching exactly."""
    from solo_ops.geometry.jit import sight as js

    rng = np.random.default_rng(9)
    tri = np.round(rng.uniform(0, 10, (300, 3, 2)) * 4) / 4
    lo = np.round(rng.uniform(0, 9, (25, 2)) * 4) / 4
    box = np.concatenate([lo, lo + np.round(rng.uniform(0.25, 3, (25, 2)) * 4) / 4], axis=1)
    box[3] = np.nan
    is_box = rng.random(25) < 0.5
    zones = np.zeros((len(tri), 3))
    ti, fi, meets, sure, seen = js.heavy_candidates(tri, box, is_box, zones, zones,
                                                    *S.cover.NO_OUTLINES, False)
    assert not seen.any()  # no outlines: no witness sought
    lo_, hi_ = tri.min(axis=1), tri.max(axis=1)
    wt, wf = np.nonzero((lo_[:, 0:1] <= box[:, 2]) & (hi_[:, 0:1] >= box[:, 0])
                        & (lo_[:, 1:2] <= box[:, 3]) & (hi_[:, 1:2] >= box[:, 1]))
    with compiled(False):
        wm, ws = S.cover.triangle_meets_box(tri[wt], box[wf])
    ws &= is_box[wf]
    assert ti.tobytes() == wt.astype(ti.dtype).tobytes()
    assert fi.tobytes() == wf.astype(fi.dtype).tobytes()
    assert meets.tobytes() == wm.tobytes() and sure.tobytes() == ws.tobytes()
    assert 3 not in fi and meets.any() and not meets.all() and sure.any() and not sure.all()


def _tri_both(p: np.ndarray, c: np.ndarray, r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``CoverJob.triangles`` (which reads nothing of its job on this path) compiled and in
    numpy, for points ``p`` outside bases of centre ``c`` and radius ``r``."""
    d = np.hypot(p[:, 0] - c[:, 0], p[:, 1] - c[:, 1])
    j = np.arange(len(p))
    out = []
    for on in (True, False):
        with compiled(on), np.errstate(all="ignore"):  # 0/0 where a vertex is straight ahead
            out.append(S.cover.CoverJob.triangles(None, p, c, r, j, d))  # type: ignore[arg-type]
    return out[0], out[1]


def test_cover_triangles_equal_numpy() -> None:
    """The cover lines' triangles (the point and the two tangent vertices of the target's base
    polygon) compiled and in numpy, bit for bit: random points and bases, points on the
    table's axes and diagonals (vertices tie for the tangent), grid points, far and near."""
    if not S.circles.fast_rings():
        pytest.skip("this GEOS builds circles otherwise: the numpy code answers")
    rng = np.random.default_rng(21)
    n = 3000
    c = rng.uniform(0, 30, (n, 2))
    r = rng.choice([1e-6, 0.5, 16 / 25.4, 1.0, 1.5, 2.5], n)
    ang = rng.uniform(0, 2 * np.pi, n)
    dist = r + rng.choice([1e-9, 1e-3, 0.5, 1.0, 3.0, 20.0], n)
    p = c + dist[:, None] * np.stack([np.cos(ang), np.sin(ang)], axis=1)
    # exactly along the axes and diagonals of the base (symmetric vertices tie)
    k = n // 4
    axis = rng.integers(0, 8, k)
    unit = np.stack([np.cos(axis * np.pi / 4), np.sin(axis * np.pi / 4)], axis=1)
    p[:k] = c[:k] + np.round(dist[:k, None] * unit * 8) / 8
    p[k:2 * k] = np.round(p[k:2 * k] * 4) / 4  # a quarter-inch grid
    c[k:2 * k] = np.round(c[k:2 * k] * 4) / 4
    out = np.hypot(*(p - c).T) > r
    got, want = _tri_both(p[out], c[out], r[out])
    assert got.shape == want.shape == (int(out.sum()), 4, 2)
    assert got.tobytes() == want.tobytes()


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.floats(-40, 40), st.floats(-40, 40), st.floats(1e-6, 3.0),
                          st.floats(1e-9, 30.0), st.floats(-7.0, 7.0)), min_size=1, max_size=6))
def test_hypothesis_cover_triangles_equal_numpy(rows: list[tuple[float, ...]]) -> None:
    if not S.circles.fast_rings():
        pytest.skip("this GEOS builds circles otherwise: the numpy code answers")
    arr = np.array(rows)
    c, r = arr[:, 0:2], arr[:, 2]
    p = c + (r + arr[:, 3])[:, None] * np.stack([np.cos(arr[:, 4]), np.sin(arr[:, 4])], axis=1)
    out = np.hypot(*(p - c).T) > r
    if not out.any():
        return
    got, want = _tri_both(p[out], c[out], r[out])
    assert got.tobytes() == want.tobytes()


def _meets_both(geoms: np.ndarray, gi: np.ndarray, tri: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The compiled triangle test's (meets, sure) and shapely's answer for each triangle
    ``tri[n]`` (n, 3, 2) against ``geoms[gi[n]]``."""
    from solo_ops.geometry.jit import sight as js

    rag = S.regions.ragged(geoms)
    assert rag is not None
    meets, sure = js.triangles_meet(np.ascontiguousarray(tri), gi.astype(np.int64), *rag)
    polys = S.shapely.polygons(np.concatenate([tri, tri[:, :1]], axis=1))
    return meets, sure, S.shapely.intersects(geoms[gi], polys)


def _triangles_near(geoms: np.ndarray, rng: np.random.Generator, n: int) -> tuple[np.ndarray,
                                                                                 np.ndarray]:
    """``n`` triangles about the geometries: random, on a quarter-inch grid (ties with the
    outlines' own grid), with a corner on an outline vertex, and flat."""
    gi = rng.integers(0, len(geoms), n)
    b = np.nan_to_num(S.shapely.bounds(geoms), nan=0.0)  # an empty one: about the origin
    tri = rng.uniform(b[gi, 0:2] - 1, b[gi, 2:4] + 1)[:, None, :] + rng.normal(0, 1.5, (n, 3, 2))
    q = n // 4
    tri[:q] = np.round(tri[:q] * 4) / 4
    for i in range(q, 2 * q):
        c = S.shapely.get_coordinates(geoms[gi[i]])
        if len(c):
            tri[i, 0] = c[rng.integers(len(c))]
    tri[2 * q:2 * q + q // 4, 2] = (tri[2 * q:2 * q + q // 4, 0] + tri[2 * q:2 * q + q // 4, 1]) / 2
    return gi, tri


def test_triangles_meet_outlines_as_shapely_says() -> None:
    """The compiled triangle test against polygons with rounded inner corners, holes, several
    parts and an empty one: wherever it is sure, shapely's answer; unsure only near touches."""
    L = S.shapely.Polygon([(0, 0), (4, 0), (4, 1), (1, 1), (1, 4), (0, 4)]).buffer(-0.05)
    hole = S.shapely.box(5, 5, 9, 9).difference(
        S.shapely.Polygon([(6, 6), (8, 6), (8, 8), (6, 8)]).buffer(0.3))
    parts = S.shapely.box(10, 0, 11, 1).union(S.shapely.box(12, 0, 13, 1))
    ring = S.shapely.Point(15, 5).buffer(2).difference(S.shapely.Point(15.5, 5).buffer(0.8))
    geoms = np.array([L, hole, parts, ring, S.shapely.box(2, 6, 3, 7), S.shapely.Polygon()],
                     dtype=object)
    gi, tri = _triangles_near(geoms, np.random.default_rng(8), 20000)
    meets, sure, want = _meets_both(geoms, gi, tri)
    assert (meets[sure] == want[sure]).all()
    assert sure.mean() > 0.7 and want[sure].any() and not want[sure].all()
    assert not meets[gi == 5].any() and not want[gi == 5].any()  # the empty one: nothing
    inside = np.array([[[6.9, 6.9], [7.1, 6.9], [7.0, 7.1]]])  # within the hole: no
    around = np.array([[[4.0, 4.0], [10.0, 4.0], [7.0, 10.0]]])  # holds the hole's ring: yes
    for t, w in ((inside, False), (around, True)):
        m, s_, _ = _meets_both(geoms, np.array([1]), t)
        assert s_[0] and bool(m[0]) is w


@pytest.mark.parametrize(("name", "k"), CHECKED)
def test_triangles_meet_heavy_features_as_shapely_says(name: str, k: int) -> None:
    """On every shipped terrain, triangles about its Heavy features' (eroded) outlines: the
    compiled answer is shapely's wherever it is sure, and it is sure for most."""
    sight = S.Sight(door_states(name)[k].board)
    if len(sight.heavy_parts) == 0:
        pytest.skip("no Heavy terrain")
    gi, tri = _triangles_near(sight.heavy_parts, np.random.default_rng(30 + k), 4000)
    meets, sure, want = _meets_both(sight.heavy_parts, gi, tri)
    assert (meets[sure] == want[sure]).all()
    assert sure.mean() > 0.6 and want[sure].any() and not want[sure].all()


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(-2, 6), st.integers(-2, 6)), min_size=3, max_size=3),
       st.sampled_from([0, 1, 2]))
def test_hypothesis_grid_triangles_meet_as_shapely_says(pts: list[tuple[int, int]],
                                                        which: int) -> None:
    """Triangles on a half-inch grid against outlines on the same grid (every touch, shared
    edge and flat triangle there is): sure answers are shapely's."""
    geoms = np.array([S.shapely.box(0, 0, 2, 2),
                      S.shapely.box(0, 0, 3, 3).difference(S.shapely.box(1, 1, 2, 2)),
                      S.shapely.Polygon([(0, 0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2)])],
                     dtype=object)
    tri = np.array([pts], dtype=float) / 2
    meets, sure, want = _meets_both(geoms, np.array([which]), tri)
    if sure[0]:
        assert bool(meets[0]) == bool(want[0])


def test_ragged_refuses_what_is_not_polygonal() -> None:
    lines = np.array([S.shapely.LineString([(0, 0), (1, 1)])], dtype=object)
    assert S.regions.ragged(lines) is None and S.regions.ragged(np.empty(0, dtype=object)) is None


@pytest.mark.parametrize(("name", "k"), CHECKED)
def test_obscuring_witnesses_are_shapely_answers(name: str, k: int) -> None:
    """``obscure_witness``: wherever it finds a point of a Heavy feature's outline in a cover
    line's triangle clearly outside both 1" zones, shapely finds the triangle meeting the
    feature less the two zones (the region the numpy code builds); it finds one for most of
    the triangles that do meet the region."""
    from solo_ops.geometry.jit import sight as js

    sight = S.Sight(door_states(name)[k].board)
    parts = sight.heavy_parts
    if len(parts) == 0 or sight.heavy_ragged is None:
        pytest.skip("no Heavy terrain")
    rng = np.random.default_rng(60 + k)
    n = 1500
    fi = rng.integers(0, len(parts), n)
    b = sight.heavy_box[fi]
    # a target beside the feature, an attacker some inches away, the triangle between them
    tc = rng.uniform(b[:, 0:2] - 1.5, b[:, 2:4] + 1.5)
    ac = tc + rng.normal(0, 5.0, (n, 2))
    rt, ra = rng.choice([0.5, 0.63, 1.0], n), rng.choice([0.5, 0.63, 1.0], n)
    side = np.stack([-(ac - tc)[:, 1], (ac - tc)[:, 0]], axis=1)
    side /= np.maximum(np.hypot(*side.T), 1e-9)[:, None]
    tri = np.stack([ac + ra[:, None] * rng.normal(0, 0.5, (n, 2)),
                    tc + rt[:, None] * side, tc - rt[:, None] * side], axis=1)
    tri[: n // 4] = np.round(tri[: n // 4] * 8) / 8  # grid ties with the outlines
    zt = np.column_stack([tc, rt + 1.0])
    za = np.column_stack([ac, ra + 1.0])
    seen = js.obscure_witness(np.ascontiguousarray(tri), fi.astype(np.int64), zt, za,
                              *sight.heavy_ragged)
    regions = S.shapely.difference(parts[fi], S.circles.circle_polygons(tc, rt + 1.0))
    regions = S.shapely.difference(regions, S.circles.circle_polygons(ac, ra + 1.0))
    want = S.shapely.intersects(regions, S.shapely.polygons(
        np.concatenate([tri, tri[:, :1]], axis=1)))
    assert want[seen].all()
    assert want.sum() > 20 and seen.sum() > 0.5 * want.sum()
