"""The compiled single-distance loops (``solo_ops.geometry.jit.distance``) answer exactly what
the numpy code answers (issue 13, fifth pass).

``PairQuery`` runs three numba kernels when :data:`solo_ops.geometry.jit.ENABLED`: the straight
segment test (``direct``), the corners each point sees (``seen``) and the best pair of corners
(``best_pair``); the numpy code is the reference and the fallback (a segment through an
obstacle vertex is settled by it). Here two separate :class:`Routes` on each board, one with
the kernels and one without, are asked the same pairs -- cold, again and reversed -- at random
points, wall corners, nudged graph corners, points on wall faces and 1e-12 off them, and every
answer (length and route) must be the same float.
``tests/geometry/test_routes_single_distance.py`` compares the default path (the kernels, when
numba is installed) with a frozen copy of the numpy code too.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("numba")

from solo_ops.geometry import routes as R
from solo_ops.geometry.jit import distance as jd
from tests.support.budget import examples
from tests.support.distance_boards import BOARD_LIST, CHECKED_IDS, CHECKED_K, special_points
from tests.support.jit_switch import compiled

_ROUTES: dict[int, tuple[R.Routes, R.Routes]] = {}
_SEEN: Counter[str] = Counter()  # what the kernels said (test_the_fallbacks_were_exercised)


def routes_for(k: int) -> tuple[R.Routes, R.Routes]:
    """(a Routes asked with the kernels, a separate one asked without) for board ``k``."""
    if k not in _ROUTES:
        _ROUTES[k] = (R.Routes(BOARD_LIST[k]), R.Routes(BOARD_LIST[k]))
    return _ROUTES[k]


@pytest.fixture(autouse=True)
def _count_kernel_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Count the kernels' answers, so a test can check the fallbacks really ran."""
    direct, seen = R.common.jd.direct, R.common.jd.seen

    def counted_direct(*args: Any) -> int:
        state = direct(*args)
        _SEEN[{jd.CLEAR: "clear", jd.BLOCKED: "blocked", jd.ON_VERTEX: "on-vertex"}[state]] += 1
        return state

    def counted_seen(*args: Any) -> Any:
        out = seen(*args)
        _SEEN["seen-touch" if out[3] else "seen"] += 1
        return out

    monkeypatch.setattr(R.common.jd, "direct", counted_direct)  # the object routes calls
    monkeypatch.setattr(R.common.jd, "seen", counted_seen)


def ask_both(k: int, pairs: list[tuple[Any, Any, float, float]]) -> tuple[int, int]:
    """Ask every pair of both Routes (cold, again, reversed) and compare the answers exactly.
    Returns (pairs with a route, routes that bend)."""
    fast, slow = routes_for(k)
    found = bent = 0
    for a, b, ra, rb in pairs:
        for _ in range(2):
            with compiled(False):
                want, want_back = slow.distance(a, b, ra, rb), slow.distance(b, a, rb, ra)
            with compiled(True):
                got, back = fast.distance(a, b, ra, rb), fast.distance(b, a, rb, ra)
            assert (got.distance, got.points) == (want.distance, want.points), (k, a, b)
            assert (back.distance, back.points) == (want_back.distance, want_back.points)
        found += want.distance is not None
        bent += len(want.points) > 2
    return found, bent


@pytest.mark.parametrize("k", CHECKED_K, ids=CHECKED_IDS)
def test_compiled_distances_equal_numpy_distances(k: int) -> None:
    board = BOARD_LIST[k]
    fast, _ = routes_for(k)
    rng = np.random.default_rng(31 + k)
    rand = np.stack([rng.uniform(0, board.width, 160), rng.uniform(0, board.depth, 160)], axis=1)
    grid = np.stack([rng.integers(0, int(board.width) + 1, 60),
                     rng.integers(0, int(board.depth) + 1, 60)], axis=1).astype(float)
    special = special_points(fast)
    pick = special[rng.integers(0, len(special), 200)]
    pts = np.concatenate([rand, grid, pick])
    rng.shuffle(pts)
    radii = [0.0, R.EPS, 0.5, 32 / 25.4 / 2]
    pairs = [(tuple(pts[i]), tuple(pts[-1 - i]), radii[i % 4], radii[(i * 3) % 4])
             for i in range(len(pts) // 2)]
    pairs += [(tuple(pts[0]), tuple(q), 0.0, 0.0) for q in pts[1:60]]
    found, bent = ask_both(k, pairs)
    if fast.no_walls:
        assert found == len(pairs) and bent == 0
    else:
        assert found > len(pairs) // 4 and bent > 10


def _through_vertices(routes: R.Routes, rng: np.random.Generator, n: int) -> list[Any]:
    """Pairs whose segment passes exactly through an obstacle vertex: the vertex plus and minus
    a multiple of a small integer step (exact in binary for the boards' round coordinates), and
    pairs along a wall face's line beyond its ends."""
    r = routes.graph.rings
    out: list[Any] = []
    if len(r) == 0:
        return out
    for _ in range(n):
        v = r.v[rng.integers(0, len(r))]
        step = np.array([rng.integers(-4, 5), rng.integers(-4, 5)], dtype=float) * 0.25
        if not step.any():
            continue
        s, t = int(rng.integers(1, 9)), int(rng.integers(1, 9))
        out.append((tuple(v + s * step), tuple(v - t * step), 0.0, 0.0))
        e = int(rng.integers(0, len(r)))
        out.append((tuple(r.v[e] - 0.5 * r.f[e]), tuple(r.nxt[e] + 0.75 * r.f[e]), 0.0, 0.0))
    b = routes.board
    return [p for p in out if all(0 <= c[0] <= b.width and 0 <= c[1] <= b.depth for c in p[:2])]


@pytest.mark.parametrize("k", CHECKED_K, ids=CHECKED_IDS)
def test_segments_through_vertices_take_the_numpy_path_and_agree(k: int) -> None:
    fast, _ = routes_for(k)
    if fast.no_walls:
        pytest.skip("no walls")
    pairs = _through_vertices(fast, np.random.default_rng(k), 120)
    found, _ = ask_both(k, pairs)
    assert found > 0


def test_the_fallbacks_were_exercised() -> None:
    """Over the boards, the kernels met segments through a vertex (the numpy path settled
    them) as well as clear and blocked ones -- so the tests above compared every branch. It
    counts only its own questions (the other tests may run in another worker)."""
    _SEEN.clear()
    for k in range(len(BOARD_LIST)):
        fast, _ = routes_for(k)
        if fast.no_walls:
            continue
        rng = np.random.default_rng(100 + k)
        b = fast.board
        rand = [((float(rng.uniform(0, b.width)), float(rng.uniform(0, b.depth))),
                 (float(rng.uniform(0, b.width)), float(rng.uniform(0, b.depth))), 0.0, 0.0)
                for _ in range(20)]
        ask_both(k, rand + _through_vertices(fast, rng, 40))
    assert _SEEN["clear"] > 0 and _SEEN["blocked"] > 0 and _SEEN["on-vertex"] > 0, _SEEN
    assert _SEEN["seen"] > 0 and _SEEN["seen-touch"] > 0, _SEEN


@pytest.mark.parametrize("k", CHECKED_K, ids=CHECKED_IDS)
def test_seen_kernel_equals_numpy_seen(k: int) -> None:
    """The corners each point sees and their distances, record by record."""
    fast, _ = routes_for(k)
    pair = fast.pair_query
    if pair.n == 0:
        pytest.skip("no corners")
    rng = np.random.default_rng(50 + k)
    special = special_points(fast)
    pts = np.concatenate([special[rng.integers(0, len(special), 40)],
                          np.stack([rng.uniform(0, fast.board.width, 40),
                                    rng.uniform(0, fast.board.depth, 40)], axis=1)])
    for i in range(0, len(pts) - 1, 2):
        a, b = (float(pts[i][0]), float(pts[i][1])), (float(pts[i + 1][0]), float(pts[i + 1][1]))
        Y = np.array([a, b]) @ pair.M + pair.c
        got: list[list[Any]] = [[Y[0], None], [Y[1], None]]
        want: list[list[Any]] = [[Y[0], None], [Y[1], None]]
        with compiled(True):
            pair.seen(got, [a, b], Y)
        with compiled(False):
            pair.seen(want, [a, b], Y)
        for g, w in zip(got, want, strict=True):
            assert np.array_equal(g[1][0], w[1][0]) and np.array_equal(g[1][2], w[1][2])
            assert g[1][2].dtype == w[1][2].dtype == np.float64


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_best_pair_is_numpys_argmin(data: Any) -> None:
    """Row-major, the first of equal totals, inf where no route: numpy's ``argmin``."""
    n = data.draw(st.integers(1, 6))
    vals = st.sampled_from([0.0, 1.0, 1.5, 2.0, 0.1 + 0.2, 0.3, math.inf])
    D = np.array([[data.draw(vals) for _ in range(n)] for _ in range(n)])
    ia = np.array(sorted(data.draw(st.sets(st.integers(0, n - 1), min_size=1))), dtype=np.int64)
    jb = np.array(sorted(data.draw(st.sets(st.integers(0, n - 1), min_size=1))), dtype=np.int64)
    da = np.array([data.draw(vals.filter(math.isfinite)) for _ in ia])
    db = np.array([data.draw(vals.filter(math.isfinite)) for _ in jb])
    tot = (da[:, None] + D[ia][:, jb]) + db
    k = int(tot.argmin())
    ka, kb, best = jd.best_pair(ia, da, jb, db, D)
    assert (ka, kb) == divmod(k, len(jb))
    assert best == tot.flat[k] or (math.isinf(best) and math.isinf(tot.flat[k]))


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_hypothesis_points_agree(data: Any) -> None:
    k = data.draw(st.integers(0, len(BOARD_LIST) - 1), label="board")
    board = BOARD_LIST[k]
    special = special_points(routes_for(k)[0])

    def point() -> tuple[float, float]:
        if data.draw(st.booleans()):
            p = special[data.draw(st.integers(0, len(special) - 1))]
            return float(p[0]), float(p[1])
        return (data.draw(st.floats(0, board.width)), data.draw(st.floats(0, board.depth)))

    ask_both(k, [(point(), point(), 0.0, 0.0) for _ in range(6)])


def test_inside_is_shapelys_answer_away_from_the_edges() -> None:
    """Whether a point is inside a wall: the kernel's even-odd count decides it more than
    1e-4" from every edge, and then agrees with shapely on the shrunk walls; nearer, it
    says so and shapely decides. Random points and the special points of every board."""
    decided: Counter[str] = Counter()
    for k in range(len(BOARD_LIST)):
        fast, _ = routes_for(k)
        if fast.no_walls:
            continue
        r = fast.graph.rings
        rng = np.random.default_rng(70 + k)
        b = fast.board
        special = special_points(fast)
        deep = []  # points in the walls' own boxes: some inside them, some beside
        for poly in R.shapes.polygons_of(fast.walls):
            x0, y0, x1, y1 = poly.bounds
            deep.append(np.stack([rng.uniform(x0, x1, 30), rng.uniform(y0, y1, 30)], axis=1))
        pts = np.concatenate([np.stack([rng.uniform(0, b.width, 300),
                                        rng.uniform(0, b.depth, 300)], axis=1),
                              special[rng.integers(0, len(special), 300)], *deep])
        want = R.shapely.contains_xy(fast.walls_eroded, pts[:, 0], pts[:, 1])
        for p, w in zip(pts, want, strict=True):
            x, y = float(p[0]), float(p[1])
            got, again = jd.inside(x, y, x, y, r.v, r.nxt, 1e3 * R.EPS)
            assert got == again
            if got == jd.NEAR_EDGE:
                decided["near"] += 1
            else:
                assert bool(got) == bool(w), (k, (x, y))
                decided["inside" if got else "outside"] += 1
    assert decided["inside"] > 100 and decided["outside"] > 1000 and decided["near"] > 20, decided
