"""The issue #13 item 5 speed-ups of sight, cover and the fog's bookkeeping change no answer.

Each fast path is checked against the way it was computed before (kept here, or reached by
switching the fast path off) on every shipped board, in both door states where there are doors,
with random inputs and with inputs placed on the blockers' corners and edges (where rounding
ties live):

* ``Sight.clear``: every piece clipped at once for small batches (``Pieces.hits_all``) equals
  the prefiltered path; base-to-base visibility and cover equal the slow reference's.
* ``Sight.cut_off_dense`` equals the sparse ``cut_off``; ``Sight.points_cut_off`` equals
  ``cut_off`` of each sample point (radius 0) against the other base; the cover triangles
  built for both tangents at once equal those built one tangent at a time.
* ``TerrainCache.get`` gives the same terrain whatever form a door state is asked in, and
  ``Board.door_state`` is a fresh dict each time.
* ``fog.off_features`` (one union per terrain, a box prefilter), ``Terrain.floor_points``,
  ``fog.hidden_points`` (cheap tests first, one observer at a time), ``ambush.ambush_band``
  (routes measured first where the straight line allows), ``hidden_moves.enemy_scores`` (only
  the points a straight-line bound leaves in contention) and ``clusters.cluster_spots`` (the
  nearest points measured first) equal the plain computations.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solo_ops.game import ambush, clusters, fog, hidden_moves
from solo_ops.geometry import search
from solo_ops.geometry import sight as sight_mod
from solo_ops.geometry.board import Board
from solo_ops.geometry.sight import Sight, blockers, circles, visibility
from solo_ops.geometry.terrain import Terrain, TerrainCache
from tests.support.geometry_oracle import OracleSight
from tests.support.shipped_terrains import BOARDS_LOADED, CHECKED, CHECKED_SCENARIOS, door_states
from tests.support.sight_pairs import R, hidden_pairs


def _sight(name: str, k: int) -> Sight:
    return door_states(name)[k].sight


def _corner_points(s: Sight, rng: np.random.Generator, n: int) -> np.ndarray:
    """Points on the blockers' corners and edges (and near them), where ties live."""
    e = s.edges
    if len(e.x0) == 0:
        return rng.uniform(0.0, 10.0, (n, 2))
    pick = rng.integers(0, len(e.x0), n)
    t = rng.choice([0.0, 0.5, 1.0, rng.uniform()], n)
    pts = np.stack([e.x0[pick] + t * e.dx[pick], e.y0[pick] + t * e.dy[pick]], axis=1)
    jitter = rng.choice([0.0, 1e-7, -1e-7, 1e-6, 0.01], (n, 2))
    return pts + jitter


def _segments(s: Sight, rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Segments mixing random points and points on the blockers' corners and edges."""
    w, d = s.board.width, s.board.depth
    p = rng.uniform((0, 0), (w, d), (n, 2))
    q = p + rng.normal(0.0, 5.0, (n, 2))
    third = n // 3
    p[:third] = _corner_points(s, rng, third)
    q[third:2 * third] = _corner_points(s, rng, third)
    q[:third // 4] = p[:third // 4]  # some zero-length segments
    return p, q


@pytest.mark.parametrize(("name", "k"), CHECKED)
def test_small_batches_clip_like_the_prefiltered_path(name: str, k: int,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    s = _sight(name, k)
    rng = np.random.default_rng(sum(name.encode()) + k)
    p, q = _segments(s, rng, 300)
    want_blocked = []
    for lo in range(0, len(p), 3):  # batches of 3: the direct path when switched on
        monkeypatch.setattr(blockers, "DIRECT_PAIRS", 0)
        slow = s.clear(p[lo:lo + 3], q[lo:lo + 3])
        monkeypatch.setattr(blockers, "DIRECT_PAIRS", 10**9)
        fast = s.clear(p[lo:lo + 3], q[lo:lo + 3])
        assert fast.tolist() == slow.tolist()
        want_blocked += (~slow).tolist()
    assert any(want_blocked) and not all(want_blocked)  # both kinds were met
    # the pieces' own answers too, not only the settled ones
    pc = s.pieces
    if pc.count:
        px, py, vx, vy = p[:, 0], p[:, 1], q[:, 0] - p[:, 0], q[:, 1] - p[:, 1]
        inner, outer = pc.hits_all(px, py, vx, vy)
        si, so = pc.hits(px, py, vx, vy, 0, pc.count)
        assert set(np.flatnonzero(inner)) == set(si.tolist())
        assert set(np.flatnonzero(outer & ~inner)) == set(so.tolist()) - set(si.tolist())


def _pairs(s: Sight, rng: np.random.Generator, n: int
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    w, d = s.board.width, s.board.depth
    a = rng.uniform((0.5, 0.5), (w - 0.5, d - 0.5), (n, 2))
    b = np.clip(a + rng.normal(0.0, 6.0, (n, 2)), 0.5, max(w, d))
    half = n // 2
    a[:half] = _corner_points(s, rng, half)
    ra = rng.choice([0.0, 0.5, R, 1.0], n)
    rb = rng.choice([0.0, 0.5, R, 1.0], n)
    return a, ra, b, rb


@pytest.mark.parametrize(("name", "k"), CHECKED)
def test_dense_cut_off_equals_the_sparse_one(name: str, k: int,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    s = _sight(name, k)
    rng = np.random.default_rng(7 + k)
    a, ra, b, rb = _pairs(s, rng, 400)
    cut = 0
    for lo in range(0, len(a), 4):
        sl = slice(lo, lo + 4)
        monkeypatch.setattr(visibility, "DIRECT_EDGES", 0)
        sparse = s.cut_off(a[sl], ra[sl], b[sl], rb[sl])
        dense = s.cut_off_dense(a[sl], ra[sl], b[sl], rb[sl])
        assert dense.tolist() == sparse.tolist()
        cut += int(sparse.sum())
    if len(s.edges.x0):
        assert 0 < cut < len(a)


@pytest.mark.parametrize(("name", "k"), CHECKED)
def test_points_cut_off_equals_cut_off_of_each_point(name: str, k: int) -> None:
    s = _sight(name, k)
    rng = np.random.default_rng(11 + k)
    a, ra, b, rb = _pairs(s, rng, 60)
    n = sight_mod.BASE_SAMPLES + 1
    pts = sight_mod.circles.samples(a, ra, sight_mod.circles.BASE_COS, sight_mod.circles.BASE_SIN)
    got = s.points_cut_off(pts, b, rb)
    want = s.cut_off(pts.reshape(-1, 2), np.zeros(len(a) * n), np.repeat(b, n, axis=0),
                     np.repeat(rb, n), group=n).reshape(len(a), n)
    assert got.tolist() == want.tolist()
    if len(s.edges.x0):
        assert want.any()




@pytest.mark.parametrize(("name", "k"), CHECKED)
def test_visibility_and_cover_equal_the_oracle_on_every_board(name: str, k: int) -> None:
    s = Sight(_sight(name, k).board)  # fresh: nothing remembered
    rng = np.random.default_rng(3 + k)
    A, B = hidden_pairs(s, rng, 6)
    if len(A) == 0:
        pytest.skip("no blocked lines on this board")
    oracle = OracleSight(s.board)
    ra, rb = R, [0.5, R, 1.0][k % 3]
    got = np.diag(s.visibility_matrix(A, ra, B, rb)).tolist()
    want = [oracle.visible(tuple(p), tuple(q), ra, rb) for p, q in zip(A, B, strict=True)]
    assert got == want
    # cover from one attacker to every target (a matrix job) and one pair at a time
    cm = s.cover_matrix(A[:1], ra, B, rb)
    for j, q in enumerate(B):
        slow = oracle.cover(tuple(A[0]), tuple(q), ra, rb)
        assert (bool(cm.visible[0, j]), bool(cm.in_cover[0, j]), bool(cm.obscured[0, j])) == (
            slow.visible, slow.in_cover, slow.obscured)


@settings(max_examples=5, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(BOARDS_LOADED)), st.integers(0, 2**32 - 1))
def test_cover_matrix_equals_the_oracle_on_random_layouts(name: str, seed: int) -> None:
    terrain = door_states(name)[seed % len(door_states(name))]
    s = Sight(terrain.board)
    rng = np.random.default_rng(seed)
    w, d = s.board.width, s.board.depth
    A = rng.uniform((0.7, 0.7), (w - 0.7, d - 0.7), (2, 2))
    B = rng.uniform((0.7, 0.7), (w - 0.7, d - 0.7), (4, 2))
    oracle = OracleSight(s.board)
    cm = s.cover_matrix(A, R, B, 0.5)
    for i in range(len(A)):
        for j in range(len(B)):
            slow = oracle.cover(tuple(A[i]), tuple(B[j]), R, 0.5)
            assert (bool(cm.visible[i, j]), bool(cm.in_cover[i, j]),
                    bool(cm.obscured[i, j])) == (slow.visible, slow.in_cover, slow.obscured)


def _triangles_plain(job: Any, p: np.ndarray, c: np.ndarray, r: np.ndarray, j: np.ndarray,
                     d: np.ndarray) -> np.ndarray:
    """``CoverJob.triangles`` as it was: one tangent at a time."""
    step = 2 * np.pi / sight_mod.RING
    phi = np.arctan2(p[:, 1] - c[:, 1], p[:, 0] - c[:, 0])
    half = np.arccos(np.clip(r / d, -1.0, 1.0))
    if sight_mod.circles.fast_rings():
        verts = None
    else:
        uj, inv = np.unique(j, return_inverse=True)
        verts = job.tdisc_coords(uj).reshape(-1, 2)
        base = (inv.ravel() * sight_mod.RING)[:, None]
    tx, ty = (c - p)[:, 0:1], (c - p)[:, 1:2]
    corners = []
    for sign in (1.0, -1.0):
        guess = np.rint(-(phi + sign * half) / step).astype(int)
        cand = (guess[:, None] + np.arange(-2, 3)[None, :]) % sight_mod.RING
        if verts is None:
            v = np.empty((*cand.shape, 2))
            v[..., 0] = c[:, 0:1] + r[:, None] * sight_mod.circles.RING_COS[cand]
            v[..., 1] = c[:, 1:2] + r[:, None] * sight_mod.circles.RING_SIN[cand]
        else:
            v = verts[base + cand]
        wx, wy = v[..., 0] - p[:, None, 0], v[..., 1] - p[:, None, 1]
        tan = (tx * wy - ty * wx) / (tx * wx + ty * wy)
        corners.append(v[np.arange(len(p)), np.argmax(np.abs(tan), axis=1)])
    return np.stack([p, corners[0], corners[1], p], axis=1)


@pytest.mark.parametrize("fast", [True, False])
def test_cover_triangles_equal_one_tangent_at_a_time(fast: bool,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    if fast and not sight_mod.circles.fast_rings():
        pytest.skip("this GEOS builds circles otherwise")
    monkeypatch.setattr(circles, "FAST_RINGS", fast)
    rng = np.random.default_rng(21)
    s = _sight("gallowdark-corridors", 0)
    B = rng.uniform(0, 30, (40, 2))
    rb = rng.choice([0.5, R, 1.0], 40)
    job = sight_mod.cover.CoverJob(s, np.zeros((1, 2)), np.zeros(1), B, rb, np.zeros(40, int),
                                   np.arange(40), np.ones(len(s.cover_parts), dtype=bool))
    j = rng.integers(0, 40, 500)
    c, r = B[j], job.t_radius[j]
    p = c + rng.normal(0, 6, (500, 2))
    p[:50] = c[:50] + np.array([0.0, 3.0])  # straight above and beside: exact angles
    p[50:100] = c[50:100] + np.array([-4.0, 0.0])
    d = np.hypot(*(p - c).T)
    got = job.triangles(p, c, r, j, d)
    assert np.array_equal(got, _triangles_plain(job, p, c, r, j, d))


# -- door states -------------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(BOARDS_LOADED))
def test_terrain_cache_gives_one_terrain_per_door_state(name: str) -> None:
    board = BOARDS_LOADED[name]
    cache = TerrainCache(board)
    state = board.door_state()
    assert state == {f.id: f.open for f in board.features if f.is_portal}
    state["not-a-door"] = True  # a caller's change to its copy ...
    assert "not-a-door" not in board.door_state()  # ... never reaches the board
    shipped = cache.get()
    assert cache.get(board.door_state()) is shipped
    assert cache.get({}) is shipped
    portals = board.portals()
    assert [f.id for f in portals] == [f.id for f in board.features if f.is_portal]
    if not portals:
        return
    first = portals[0]
    flipped = cache.get({first.id: not first.open})
    assert flipped is not shipped
    assert flipped.board.feature(first.id).open is (not first.open)
    whole = board.door_state()
    whole[first.id] = not first.open
    assert cache.get(whole) is flipped  # the whole state or only the change: one terrain
    assert cache.get(dict(reversed(list(whole.items())))) is flipped
    for _ in range(2):  # refused as before (the board has no such feature), never stored
        with pytest.raises(KeyError):
            cache.get({"no-such-door": True})


# -- the fog's bookkeeping ---------------------------------------------------------------------
def _off_features_plain(terrain: Terrain, pts: np.ndarray, radius: float) -> np.ndarray:
    """``fog.off_features`` as it was: the union of the solid footprints made per call and
    every point measured."""
    pts = np.asarray(pts, dtype=float).reshape(-1, 2)
    solid = [f.shape for f in terrain.board.features
             if not f.is_line and f.effective_traits & {"heavy", "light", "blocking", "wall",
                                                         "pitfall"}]
    if not solid or len(pts) == 0:
        return pts
    gap = shapely.distance(shapely.points(pts), shapely.union_all(solid))
    return pts[np.asarray(gap) >= radius - 1e-9]


@pytest.mark.parametrize(("name", "k"), CHECKED)
def test_off_features_equals_the_plain_computation(name: str, k: int) -> None:
    terrain = door_states(name)[k]
    rng = np.random.default_rng(5 + k)
    w, d = terrain.board.width, terrain.board.depth
    grid = np.stack(np.meshgrid(np.arange(0, w, 0.5), np.arange(0, d, 0.5)), -1).reshape(-1, 2)
    # points on the features' own corners and 1 radius out from them (distance ties)
    corners = np.concatenate([np.asarray(f.shape.exterior.coords) for f in terrain.board.features
                              if not f.is_line] or [np.zeros((0, 2))])
    near = corners + fog.COUNTER_RADIUS * np.array([1.0, 0.0])
    pts = np.concatenate([grid, rng.uniform((0, 0), (w, d), (300, 2)), corners, near])
    for radius in (fog.COUNTER_RADIUS, 0.5, 1.0):
        got = fog.off_features(terrain, pts, radius)
        want = _off_features_plain(terrain, pts, radius)
        assert np.array_equal(got, want)
    assert 0 < len(fog.off_features(terrain, grid, fog.COUNTER_RADIUS)) < len(grid)


@pytest.mark.parametrize(("name", "k"), CHECKED)
def test_hidden_points_equal_the_plain_computation(name: str, k: int) -> None:
    terrain = door_states(name)[k]
    rng = np.random.default_rng(9 + k)
    w, d = terrain.board.width, terrain.board.depth
    observers = [(float(x), float(y), R) for x, y in rng.uniform((1, 1), (w - 1, d - 1), (2, 2))]
    avoid = [(float(x), float(y), R) for x, y in rng.uniform((1, 1), (w - 1, d - 1), (3, 2))]
    hidden_somewhere = seen_somewhere = False
    for sector in range(1, 7):
        region = terrain.board.sector_box(sector)
        got = fog.hidden_points(terrain, region, observers, fog.COUNTER_RADIUS, 1.0, avoid)
        want = _off_features_plain(
            terrain, search.hidden_points(terrain, region, observers, fog.COUNTER_RADIUS, 1.0,
                                          avoid), fog.COUNTER_RADIUS)
        assert np.array_equal(got, want)  # the same points in the same order (dice pick them)
        for fewer in (avoid[1:], avoid[:1], []):  # the same observers again (remembered)
            again = fog.hidden_points(terrain, region, observers, fog.COUNTER_RADIUS, 1.0, fewer)
            assert np.array_equal(again, _off_features_plain(terrain, search.hidden_points(
                terrain, region, observers, fog.COUNTER_RADIUS, 1.0, fewer),
                fog.COUNTER_RADIUS))
        moved = [(x + 1.0, y, r) for x, y, r in observers]  # each input its own answer
        for seen_by, radius, spacing in ((observers[:1], fog.COUNTER_RADIUS, 1.0),
                                         (moved, fog.COUNTER_RADIUS, 1.0),
                                         ([(x, y, 2 * r) for x, y, r in observers],
                                          fog.COUNTER_RADIUS, 1.0),
                                         (observers, 0.5, 1.0), (observers, fog.COUNTER_RADIUS,
                                                                 0.5)):
            got_now = fog.hidden_points(terrain, region, seen_by, radius, spacing, avoid)
            assert np.array_equal(got_now, _off_features_plain(terrain, search.hidden_points(
                terrain, region, seen_by, radius, spacing, avoid), radius))
        hidden_somewhere |= len(got) > 0
        free = fog.hidden_points(terrain, region, [], fog.COUNTER_RADIUS, 1.0)
        assert np.array_equal(free, _off_features_plain(
            terrain, search.hidden_points(terrain, region, [], fog.COUNTER_RADIUS, 1.0),
            fog.COUNTER_RADIUS))
        seen_somewhere |= len(got) < len(fog.hidden_points(terrain, region, [],
                                                           fog.COUNTER_RADIUS, 1.0, avoid))
    assert hidden_somewhere and seen_somewhere


def _band_plain(terrain: Terrain, spotter: Any, pts: np.ndarray, want: float) -> np.ndarray:
    """``ambush.ambush_band`` as it was: every point measured."""
    d = terrain.routes.distances(spotter.at, spotter.radius, pts, fog.COUNTER_RADIUS)
    pts, d = pts[np.isfinite(d)], d[np.isfinite(d)]
    if len(pts) == 0:
        return pts
    off = np.abs(d - want)
    band = off <= 0.5
    if not band.any():
        band = off <= off.min() + 0.5
    return pts[band]


@pytest.mark.parametrize(("name", "k"), CHECKED)
def test_ambush_band_equals_the_plain_computation(name: str, k: int) -> None:
    terrain = door_states(name)[k]
    rng = np.random.default_rng(13 + k)
    w, d = terrain.board.width, terrain.board.depth
    pts = fog.off_features(terrain, terrain.routes.free_points(None, fog.COUNTER_RADIUS, 0.5),
                           fog.COUNTER_RADIUS)
    for x, y in rng.uniform((1, 1), (w - 1, d - 1), (3, 2)):
        spotter = SimpleNamespace(at=(float(x), float(y)), radius=R)
        for want in (6.0, 0.3, 40.0):  # the usual band, one next to it, one off the board
            got = ambush.ambush_band(terrain, spotter, pts, want)  # type: ignore[arg-type]
            assert np.array_equal(got, _band_plain(terrain, spotter, pts, want))
            assert len(got) > 0
        few = pts[:: max(1, len(pts) // 5)]  # few points: often none in the band
        assert np.array_equal(ambush.ambush_band(terrain, spotter, few, 6.0),  # type: ignore
                              _band_plain(terrain, spotter, few, 6.0))


@pytest.mark.parametrize(("name", "k"), CHECKED)
def test_floor_points_are_the_free_points_off_the_features(name: str, k: int) -> None:
    terrain = Terrain(door_states(name)[k].board)  # fresh: nothing remembered
    for radius, spacing in ((fog.COUNTER_RADIUS, 0.5), (1.0, 1.0)):
        want = _off_features_plain(terrain, terrain.routes.free_points(None, radius, spacing),
                                   radius)
        got = terrain.floor_points(radius, spacing)
        assert np.array_equal(got, want) and len(got) > 0
        assert terrain.floor_points(radius, spacing) is got  # remembered ...
        with pytest.raises(ValueError):
            got[0, 0] = -1.0  # ... and read-only, so no caller can spoil it


@pytest.mark.parametrize(("name", "k"), CHECKED)
def test_enemy_scores_measure_every_point_that_matters(name: str, k: int) -> None:
    terrain = door_states(name)[k]
    rng = np.random.default_rng(17 + k)
    w, d = terrain.board.width, terrain.board.depth
    for trial in range(3):
        start = rng.uniform((2, 2), (w - 2, d - 2))
        reach = terrain.routes.reachable(tuple(start), fog.COUNTER_RADIUS, 6.0, spacing=0.5)
        pts = np.asarray(reach.points, dtype=float)
        cost = np.asarray(reach.cost, dtype=float)
        players = [SimpleNamespace(at=(float(x), float(y)), radius=R)
                   for x, y in rng.uniform((1, 1), (w - 1, d - 1), (1 + trial, 2))]
        full = hidden_moves.enemy_score_values(terrain, pts, players)  # type: ignore[arg-type]
        for slack in (0.0, 2.0):
            got = hidden_moves.enemy_scores(terrain, pts, players, slack)  # type: ignore[arg-type]
            measured = np.isfinite(got)
            assert np.array_equal(got[measured], full[measured])
            best = full.min()
            assert measured[full <= best + slack + 1e-6].all()  # all that could matter
            keys = (pts[:, 1], pts[:, 0], np.round(cost, 6))
            assert (np.lexsort((*keys, np.round(got, 6)))[0]
                    == np.lexsort((*keys, np.round(full, 6)))[0])


def test_enemy_scores_leave_far_points_unmeasured_on_an_open_board() -> None:
    terrain = Terrain(Board("open", 30.0, 22.0))
    reach = terrain.routes.reachable((15.0, 11.0), fog.COUNTER_RADIUS, 6.0, spacing=0.5)
    pts = np.asarray(reach.points, dtype=float)
    players = [SimpleNamespace(at=(28.0, 11.0), radius=R)]
    got = hidden_moves.enemy_scores(terrain, pts, players, 0.0)  # type: ignore[arg-type]
    full = hidden_moves.enemy_score_values(terrain, pts, players)  # type: ignore[arg-type]
    measured = np.isfinite(got)
    assert 0 < measured.sum() < len(pts) // 2  # the far side of the reach is never measured
    assert np.array_equal(got[measured], full[measured])
    assert got.min() == full.min()


def _cluster_plain(terrain: Terrain, state: Any, at: tuple[float, float],
                   radii: list[float]) -> list[tuple[float, float]]:
    """``clusters.cluster_spots`` as it was: every nearby point measured."""
    placed = list(fog.occupied(state))
    out: list[tuple[float, float]] = []
    rmax = max(radii)
    pts = np.asarray(terrain.routes.free_points(
        shapely.Point(at).buffer(3.0 + rmax * 4), rmax, 0.5), dtype=float).reshape(-1, 2)
    if terrain.routes.fits(at, rmax):
        pts = np.concatenate([np.array([at], dtype=float), pts])
    if len(pts) == 0:
        pts = np.array([at], dtype=float)
    d = np.asarray(terrain.routes.distances(at, 0.0, pts, 0.0), dtype=float)
    keep = np.isfinite(d)
    pts, d = pts[keep], d[keep]
    pts = pts[np.lexsort((pts[:, 1], pts[:, 0], np.round(d, 9)))]
    for r in radii:
        chosen = None
        for p in pts:
            if all(np.hypot(p[0] - x, p[1] - y) >= r + rr + clusters.MODEL_GAP - 1e-9
                   for x, y, rr in placed):
                chosen = (float(p[0]), float(p[1]))
                break
        if chosen is None:  # none nearby: the placement rule's nearest point (issue #27)
            from solo_ops.geometry import placement

            spot = placement.nearest(terrain, at, r, placed,
                                     limit=max(terrain.board.width, terrain.board.depth))
            chosen = (float(at[0]), float(at[1])) if spot is None else spot.at
        placed.append((chosen[0], chosen[1], r))
        out.append(chosen)
    return out


@pytest.mark.parametrize("path", CHECKED_SCENARIOS, ids=lambda p: p.stem)
def test_cluster_equals_the_plain_computation(path: Path) -> None:
    from solo_ops.game.engine import new_game
    from solo_ops.io.scenario import load_scenario

    game, state = new_game(load_scenario(path), 3)
    terrain = game.terrain(state)
    rng = np.random.default_rng(len(path.stem))
    w, d = terrain.board.width, terrain.board.depth
    spots = [tuple(map(float, p)) for p in rng.uniform((0.5, 0.5), (w - 0.5, d - 0.5), (5, 2))]
    spots += [c.at for c in state.counters.values()]  # where counters really stand
    pruned = 0
    for at in spots:
        for radii in ([R], [R, R, 0.5, 1.0], [1.0] * 5):
            got = clusters.cluster_spots(terrain, state, at, radii)
            assert got == _cluster_plain(terrain, state, at, radii)
            pruned += all(np.hypot(x - at[0], y - at[1]) <= clusters.CLUSTER_FIRST for x, y in got)
    assert pruned > 0


def test_solids_are_the_solid_footprints_of_the_door_state() -> None:
    name = next(n for n, b in sorted(BOARDS_LOADED.items()) if b.portals())
    for terrain in door_states(name):
        solid = [f.shape for f in terrain.board.features if not f.is_line
                 and f.effective_traits & {"heavy", "light", "blocking", "wall", "pitfall"}]
        assert terrain.solids is not None
        assert terrain.solids.equals(shapely.union_all(solid))
        parts = shapely.get_parts(terrain.solids)
        assert np.array_equal(terrain.solid_boxes, shapely.bounds(parts).reshape(-1, 4))
