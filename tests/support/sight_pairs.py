"""Shared by the tests: moved from geometry/test_sight_memos.py."""

from __future__ import annotations

import numpy as np

from solo_ops.geometry.sight import Sight

R = 32 / 25.4 / 2  # a 32 mm base


def hidden_pairs(s: Sight, rng: np.random.Generator, n: int
                  ) -> tuple[np.ndarray, np.ndarray]:
    """``n`` pairs of points whose centre line is blocked (where sampling and cut-offs
    matter), a few inches apart."""
    a: list[np.ndarray] = []
    b: list[np.ndarray] = []
    lo = np.array([0.7, 0.7])
    hi = np.array([s.board.width - 0.7, s.board.depth - 0.7])
    for _ in range(4000):
        if len(a) == n:
            break
        p = rng.uniform(lo, hi)
        q = np.clip(p + rng.normal(0.0, 4.0, 2), lo, hi)
        if not s.clear(p[None], q[None])[0]:
            a.append(p)
            b.append(q)
    return np.array(a).reshape(-1, 2), np.array(b).reshape(-1, 2)
