"""Shared by the tests: moved from geometry/test_routes_fast_paths.py."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from solo_ops.geometry.board import Board, parse_board
from solo_ops.io.yamlio import read_document
from tests.support.budget import FULL
from tests.support.paths import BOARDS
from tests.support.shipped_terrains import is_sampled

R32 = 32 / 25.4 / 2


def shipped_boards() -> list[Board]:
    """The shipped boards, fresh objects at each call, their files read as solo-ops reads them
    (``read_document``: each text parsed once in a process and its data handed out as a copy;
    four test modules ask at import, so each xdist worker parsed the seven files four times,
    about 2.4 s of CPU a worker)."""
    return [parse_board(read_document(path), str(path)) for path in sorted(BOARDS.glob("*.yaml"))]


def random_board(seed: int, n: int = 12) -> Board:
    """Random wall panels, about half continuing from the previous one's end, some on the
    0.5" grid (so that points of the move grid line up with wall ends)."""
    rng = np.random.default_rng(seed)
    features: list[dict[str, Any]] = []
    prev = None
    for k in range(n):
        if prev is not None and rng.random() < 0.5:
            a = prev
        else:
            a = (float(rng.integers(2, 56)) / 2, float(rng.integers(2, 40)) / 2)
        if rng.random() < 0.5:
            ang = float(rng.integers(0, 4)) * math.pi / 2
            length = float(rng.integers(4, 14)) / 2
        else:
            ang = float(rng.uniform(0, 2 * math.pi))
            length = float(rng.uniform(2, 7))
        b = (min(29.5, max(0.5, a[0] + length * math.cos(ang))),
             min(21.5, max(0.5, a[1] + length * math.sin(ang))))
        if math.dist(a, b) < 0.5:
            continue
        features.append({"id": f"w{k}", "traits": ["wall"], "line": [list(a), list(b)]})
        prev = b
    return parse_board({"name": f"random-{seed}", "width": 30, "depth": 22,
                        "features": features}, "<random>")


BOARD_LIST = [*shipped_boards(), *(random_board(s) for s in range(3))]


IDS = [b.name for b in BOARD_LIST]


CHECKED_LIST = BOARD_LIST if FULL else [b for b in BOARD_LIST
                                        if is_sampled(b) or b.name == "random-0"]
"""The boards the per-board ``slow`` tests check: :data:`BOARD_LIST` with the full budget,
else the shipped boards of :data:`~tests.support.shipped_terrains.SAMPLED` (every trait the
shipped boards use) and the first random board (wall panels at any angle, some meeting)."""

CHECKED_IDS = [b.name for b in CHECKED_LIST]
