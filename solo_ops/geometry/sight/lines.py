"""Line of sight between points: :class:`_SightLines`, whose :meth:`clear` Sight inherits.

A batch of segments runs in chunks of :data:`CHUNK`; each chunk is prefiltered and clipped
against the blockers' convex pieces (:mod:`~solo_ops.geometry.sight.blockers`), and the rare
segment the pieces leave unsure (grazing a corner, running along a wall) is decided by shapely
against the eroded blockers. One segment at a time goes through :class:`Scalar` instead.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from solo_ops.geometry import jit
from solo_ops.geometry.sight import blockers
from solo_ops.geometry.sight.blockers import Pieces, _Edges
from solo_ops.geometry.sight.common import _as_points
from solo_ops.geometry.sight.scalar import Scalar

CHUNK = 1024
"""Segments handled per vectorised pass of :meth:`Sight.clear`: small enough that the working
arrays stay in cache (fresh large arrays cost far more than the arithmetic)."""
SMALL_BATCH = 32
"""Batches of at most this many segments test every piece at once: for them the fixed cost of
each block's numpy calls outweighs what dropping blocked segments saves."""


class _SightLines:
    """Whether sight segments between points are clear of the blockers (the pieces, edges and
    eroded blockers are built by :class:`~solo_ops.geometry.sight.query.Sight`)."""

    pieces: Pieces
    edges: _Edges
    _block: BaseGeometry
    _scalar_parts: Scalar | None

    @property
    def scalar(self) -> Scalar:
        """The pieces and edges as Python floats (built on first use)."""
        if self._scalar_parts is None:
            self._scalar_parts = Scalar(self.pieces, self.edges)
        return self._scalar_parts

    def clear_one(self, px: float, py: float, qx: float, qy: float) -> bool:
        """:meth:`clear` of one segment, in Python floats (the same answer)."""
        if px == qx and py == qy:
            return not bool(shapely.contains_xy(self._block, px, py))
        found = self.scalar.segment(px, py, qx, qy)
        if found is None:
            line = shapely.linestrings([[px, py], [qx, qy]])
            return not bool(shapely.intersects(self._block, line))
        return found

    # -- point to point ---------------------------------------------------------------------
    def clear(self, P: Any, Q: Any) -> np.ndarray:
        """(n,) True where the sight segment from ``P[i]`` to ``Q[i]`` is clear.

        ``P`` and ``Q`` are (n, 2) arrays (or single points). A zero-length segment is clear
        unless its point lies inside a blocker.
        """
        p = _as_points(P)
        q = _as_points(Q)
        if p.shape != q.shape:
            raise ValueError(f"P and Q differ in shape: {p.shape} vs {q.shape}")
        n = len(p)
        out = np.ones(n, dtype=bool)
        if n == 0 or self.pieces.count == 0:
            return out
        for start in range(0, n, CHUNK):
            stop = min(n, start + CHUNK)
            out[start:stop] = self._clear_chunk(p[start:stop], q[start:stop])
        return out

    def _clear_chunk(self, p: np.ndarray, q: np.ndarray) -> np.ndarray:
        """:meth:`clear` for one chunk of segments."""
        px, py, qx, qy = p[:, 0], p[:, 1], q[:, 0], q[:, 1]
        n = len(px)
        vx, vy = qx - px, qy - py
        blocks: list[tuple[int, int]] = []
        if jit.ENABLED:
            blocked, unsure = self.pieces.hit_masks(px, py, vx, vy)
        elif n * self.pieces.count <= blockers.DIRECT_PAIRS:
            blocked, unsure = self.pieces.hits_all(px, py, vx, vy)
            unsure &= ~blocked
        else:
            blocked = np.zeros(n, dtype=bool)
            unsure = np.zeros(n, dtype=bool)
            blocks = self.pieces.blocks if n > SMALL_BATCH else [(0, self.pieces.count)]
        # Pieces come largest first, in blocks: a segment blocked by an early (large) piece
        # is not tested against the later ones.
        active = np.arange(n)
        for lo, hi in blocks:
            if lo:
                active = active[~blocked[active]]
                if len(active) == 0:
                    break
                sub = (px[active], py[active], vx[active], vy[active])
            else:
                sub = (px, py, vx, vy)
            inner, outer = self.pieces.hits(*sub, lo, hi)
            blocked[active[inner]] = True
            unsure[active[outer]] = True
        unsure &= ~blocked
        point = (vx == 0) & (vy == 0)
        if point.any():
            idx = np.flatnonzero(point)
            blocked[idx] = shapely.contains_xy(self._block, px[idx], py[idx])
            unsure[idx] = False
        idx = np.flatnonzero(unsure)
        if len(idx):
            lines = shapely.linestrings(np.stack([p[idx], q[idx]], axis=1))
            blocked[idx] = shapely.intersects(self._block, lines)
        return ~blocked
