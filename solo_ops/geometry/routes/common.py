"""What every routes module shares: tolerances, the memo bound, the compiled loops, vector helpers.

The tolerances (:data:`EPS`, :data:`NUDGE`, :data:`TOL`, :data:`END`) and the way bases and
grown obstacles are drawn (:data:`DISC_SEGMENTS`) hold for the whole package. :data:`MEMO_LIMIT`
bounds the memos of the walkers and of :class:`~solo_ops.geometry.routes.query.Routes` alike: they
read it from here at every use (``common.MEMO_LIMIT``), so one assignment (a test's
monkeypatch) changes every bound. ``jd`` and ``jm`` are the one handle each on the compiled
loops (numba), loaded when first used; the numpy code is the reference. A test that replaces a
kernel replaces it on these objects, which every routes module calls.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from solo_ops.geometry import jit

# the compiled loops (numba), loaded when first used; the numpy code is the reference
jd = jit.kernels("distance")
jm = jit.kernels("movement")
jb = jit.kernels("bases")
jw = jit.kernels("walls")

EPS = 1e-7  # inches: a point this deep inside an obstacle still counts as touching it
NUDGE = 1e-9  # inches: how far graph corners are moved off their obstacle
TOL = 1e-11  # inches: a point this close to a line counts as on it
END = 1e-8  # inches: touches this close to a segment's ends are the segment's own corner
DISC_SEGMENTS = 8  # shapely quad_segs used to draw bases and grown obstacles (as the oracle)
MEMO_LIMIT = 4096  # entries of a per-Routes memo before it is emptied (a long game's bound)

Point2 = tuple[float, float]


# -- vector helpers --------------------------------------------------------------------------------
def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]


def _radii(r: Any, n: int) -> np.ndarray:
    """``r`` (a radius, or one per point) as a read-only (n,) float array: the array itself
    when it already is one, else broadcast (a scalar filled: no broadcasting machinery)."""
    r = np.asarray(r, float)
    if r.shape == (n,):
        return r
    if r.ndim == 0:
        return np.full(n, r)
    return np.broadcast_to(r, (n,))


def unit_vectors(a: np.ndarray) -> np.ndarray:
    """Each vector of ``a`` (..., 2) divided by its length (a zero vector stays zero): the
    edge and bisector directions the wall tests and the corner nudges are worked from."""
    n = np.hypot(a[..., 0], a[..., 1])
    return a / np.where(n > 0, n, 1.0)[..., None]


def as_points(points: Any) -> np.ndarray:
    """Any point or sequence of points (``(x, y)``, ``(x, y, r)``, arrays) as an (n, 2) float
    array: what every query takes its points as."""
    arr = np.asarray(points, dtype=float)
    if arr.size == 0:
        return np.zeros((0, 2))
    return np.atleast_2d(arr)[:, :2]


def _triples(discs: Any) -> list[tuple[float, ...]]:
    """Each of ``discs`` ``[(x, y, r, ...), ...]`` as the tuple of its first three numbers as
    floats (``tuple(float(v) for v in tuple(d)[:3])``, without a generator per disc)."""
    out: list[tuple[float, ...]] = []
    for d in discs:
        t = tuple(d)
        out.append((float(t[0]), float(t[1]), float(t[2])) if len(t) >= 3
                   else tuple(float(v) for v in t))
    return out
