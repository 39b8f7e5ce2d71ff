"""Compiled loops for line of sight and cover (``sight``).

Each function reproduces one numpy routine of the geometry element by element, with the same
IEEE operations in the same order (see :mod:`solo_ops.geometry.jit`); the numpy routine stays
the reference and the fallback. Imported only when a kernel is first used.
"""

from __future__ import annotations

import numpy as np

from solo_ops.geometry.jit import njit


@njit
def _sign(x: float) -> float:
    """``np.sign`` of one float: 1.0, -1.0, 0.0, or the NaN itself."""
    if x > 0:
        return 1.0
    if x < 0:
        return -1.0
    if x == 0:
        return 0.0
    return x


@njit
def triangle_meets_box(tri: np.ndarray, box: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``sight._triangle_meets_box``: separating-axis test of triangles (n, 3, 2) against boxes
    (n, 4) whose bounding boxes already overlap, along the triangles' outward edge normals:
    (may meet, the answer is clear of rounding ties)."""
    n = tri.shape[0]
    meets = np.empty(n, np.bool_)
    sure = np.empty(n, np.bool_)
    for i in range(n):
        cx, cy = (box[i, 0] + box[i, 2]) / 2, (box[i, 1] + box[i, 3]) / 2
        hx, hy = (box[i, 2] - box[i, 0]) / 2, (box[i, 3] - box[i, 1]) / 2
        v0x, v0y = tri[i, 0, 0], tri[i, 0, 1]
        v1x, v1y = tri[i, 1, 0], tri[i, 1, 1]
        v2x, v2y = tri[i, 2, 0], tri[i, 2, 1]
        turn = _sign((v1x - v0x) * (v2y - v0y) - (v1y - v0y) * (v2x - v0x))
        apart = False
        clearly = False
        tie = turn == 0
        for k in range(3):
            if k == 0:
                ax, ay, bx, by = v0x, v0y, v1x, v1y
            elif k == 1:
                ax, ay, bx, by = v1x, v1y, v2x, v2y
            else:
                ax, ay, bx, by = v2x, v2y, v0x, v0y
            ex, ey = (bx - ax) * turn, (by - ay) * turn
            gap = (ey * (cx - ax) - ex * (cy - ay)) - (abs(ey) * hx + abs(ex) * hy)
            scale = np.hypot(ex, ey) * 1e-9
            apart = apart or gap > 0
            clearly = clearly or gap > scale
            tie = tie or abs(gap) <= scale
        meets[i] = not apart
        sure[i] = clearly or not tie
    return meets, sure
