"""Shared by the tests: moved from geometry/test_routes_single_distance.py."""

from __future__ import annotations

import importlib.util

import numpy as np

from solo_ops.geometry import routes as R
from solo_ops.geometry.board import Board
from tests.support.budget import FULL
from tests.support.paths import ROOT
from tests.support.route_boards import random_board, shipped_boards
from tests.support.shipped_terrains import is_sampled


def _bench_boards() -> list[Board]:
    """``bench/bench_distance.py``'s corridor board and two of its random boards."""
    path = ROOT / "bench" / "bench_distance.py"
    spec = importlib.util.spec_from_file_location("bench_distance_13", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    rng = np.random.default_rng(2)
    return [mod.corridor_board(), mod.random_board(rng), mod.random_board(rng)]


_SHIPPED_BOARDS = shipped_boards()
BOARD_LIST = [*_SHIPPED_BOARDS, *(random_board(s) for s in (0, 4, 9)), *_bench_boards()]


IDS = [f"{k}-{b.name}" for k, b in enumerate(BOARD_LIST)]

_SHIPPED = len(_SHIPPED_BOARDS)  # then the three random boards, then the benchmark's three
_DEFAULT = [k for k, b in enumerate(BOARD_LIST) if k < _SHIPPED and is_sampled(b)] + [
    _SHIPPED, _SHIPPED + 3, _SHIPPED + 4]
CHECKED_K = list(range(len(BOARD_LIST))) if FULL else _DEFAULT
"""The indices of the boards the per-board ``slow`` tests check: all of :data:`BOARD_LIST`
with the full budget, else the shipped boards of
:data:`~tests.support.shipped_terrains.SAMPLED` (every trait the shipped boards use), the first
random board, and the benchmark's corridor board and first random board."""

CHECKED_IDS = [IDS[k] for k in CHECKED_K]


# -- points worth asking about -----------------------------------------------------------------
def special_points(routes: R.Routes) -> np.ndarray:
    """Wall corners and nudged graph corners (and 1e-12 around them), points on wall faces and
    1e-12 / 1e-9 either side, points well inside walls, and the 0.5" grid's points."""
    g = routes.graph
    r = g.rings
    out = [g.real, g.pos, r.v]
    for nudge in ((1e-12, 0.0), (-1e-12, 0.0), (0.0, 1e-12), (0.0, -1e-12)):
        step = np.array(nudge)
        out += [r.v + step, g.pos + step]
    if len(r):
        for t in (0.5, 1 / 3, 0.0625):
            out.append(r.v + t * r.f)
        normal = np.stack([-r.f[:, 1], r.f[:, 0]], axis=1) / np.maximum(r.lf, 1e-300)[:, None]
        mid = r.v + 0.5 * r.f
        for eps in (1e-12, 1e-9):
            out += [mid + eps * normal, mid - eps * normal]  # inside (left) and outside
    for poly in R.shapes.polygons_of(routes.walls):
        p = poly.representative_point()
        out.append(np.array([[p.x, p.y]]))
    b = routes.board
    gx, gy = np.meshgrid(np.arange(0, b.width + 0.25, 0.5), np.arange(0, b.depth + 0.25, 0.5))
    out.append(np.stack([gx.ravel(), gy.ravel()], axis=1))
    pts = np.concatenate(out)
    keep = (pts[:, 0] >= -1e-6) & (pts[:, 0] <= b.width + 1e-6) & (pts[:, 1] >= -1e-6) & \
        (pts[:, 1] <= b.depth + 1e-6)
    return pts[keep]
