"""Shared by the sight modules: the kernels' handle, tolerances, memo bounds, exact keys.

The compiled loops (:mod:`solo_ops.geometry.jit.sight`) are reached through the one handle
``_js`` held here, so a test that replaces a kernel replaces it for every sight module. Also
here: the erosion tolerance :data:`ERODE`, the bounds of a :class:`Sight`'s memos, the exact
bits of float rows as dictionary keys, the coercion of points and radii, a feature's area.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
from shapely.geometry.base import BaseGeometry

from solo_ops.geometry import jit, shapes
from solo_ops.geometry.board import Feature

# the compiled loops (numba), loaded when first used; the sight modules' numpy code is the
# reference
_js = jit.kernels("sight")

ERODE = 1e-7
"""How far blockers and terrain are shrunk before testing, so touching is not crossing."""

PAIR_MEMO_LIMIT = 50_000
"""Single-pair answers (:meth:`Sight.visible`, :meth:`Sight.cover`) a :class:`Sight` keeps; the
memo is emptied when it grows past this."""
VIS_MEMO_LIMIT = 100_000
"""Base-pair visibility answers (inside :meth:`Sight.visibility_matrix`) a :class:`Sight` keeps;
emptied when it grows past this (about 15 MB)."""
COVER_MEMO_LIMIT = 100_000
"""Base-pair cover answers (inside :meth:`Sight.cover_matrix`) a :class:`Sight` keeps for each of
its three modes (plain, Seek, Seek Light); each emptied when it grows past this (about 15 MB)."""
SHAPE_MEMO_LIMIT = 2048
"""Circle polygons, and targets' cover regions, a :class:`Sight` keeps (each memo emptied when
it grows past this: some 10-20 MB at most); a mission's models stand at a few hundred places."""


_VOIDS: dict[int, np.dtype[np.void]] = {}
"""The void dtype of each row width in bytes :func:`_row_keys` has met (made once each)."""


def _row_keys(rows: np.ndarray) -> list[bytes]:
    """The exact bits of each row of a C-contiguous float64 array, as dictionary keys."""
    width = rows.shape[1] * rows.itemsize
    void = _VOIDS.get(width)
    if void is None:
        void = _VOIDS[width] = np.dtype((np.void, width))
    return cast(list[bytes], rows.view(void).ravel().tolist())


def _as_points(points: Any) -> np.ndarray:
    arr = np.asarray(points, dtype=float)
    if arr.size == 0:
        return arr.reshape(0, 2)
    return np.atleast_2d(arr).reshape(-1, 2)


def _as_radii(radii: Any, n: int) -> np.ndarray:
    r = np.asarray(radii, dtype=float)
    if r.ndim == 0:  # a scalar (the usual case): no broadcasting machinery
        return np.full(n, r)
    if r.shape == (n,):  # one per point already: a copy
        return r.copy()
    return np.array(np.broadcast_to(r, (n,)), dtype=float)


def _area(feature: Feature) -> BaseGeometry:
    return shapes.feature_area(feature)
