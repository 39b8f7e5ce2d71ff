"""The terrain a model stands on top of, which does not hide it: :class:`Perches`.

A *perch* is a polygon ``vantage`` feature with a ``height`` (a model whose centre is inside
its footprint is up on it, :func:`~solo_ops.geometry.shapes.stands_on`, as movement's climb,
:func:`solo_ops.game.shots.vantage_height` and the Bheta-Decima targeting read it) that would
otherwise block sight, obscure or give cover: ``blocking``, ``heavy`` or ``light`` (the
Bheta-Decima card's thermometric condenser, "Accessible and Vantage ... All other parts are
Heavy"; a gantry tower that is Heavy). A model standing up on it looks out over its edges and
is seen over them: for the lines from or to that model, the perch it stands on neither blocks
sight, obscures nor gives cover. Every other feature counts as it always does (the board is
flat apart from that: a 3" pipe stack still blocks the view from a 4" condenser).
``docs/rules.md`` records the reading.

:class:`Perches` finds which perches each point stands on, and splits a (rows, columns) job
into groups that share the perches to leave out, so each group is answered by the plain
queries of a board without them (:meth:`~solo_ops.geometry.sight.query.Sight.without`). A
board without perches costs nothing: it has no :class:`Perches`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import shapely

from solo_ops.geometry import shapes
from solo_ops.geometry.board import Feature

HIDING = frozenset({"blocking", "heavy", "light"})
"""The traits that make a ``vantage`` feature hide the model on it, were it not a perch."""


def is_perch(feature: Feature) -> bool:
    """Whether ``feature`` is a perch: a polygon ``vantage`` feature with a height that blocks
    sight, obscures or gives cover (see the module docstring)."""
    return (not feature.is_line and bool(feature.height) and feature.has("vantage")
            and bool(feature.effective_traits & HIDING))


class Perches:
    """The perches of one board, and which of them points stand on."""

    def __init__(self, features: list[Feature]) -> None:
        self.features = tuple(features)
        self.shapes = np.array([shapes.interior(f) for f in features], dtype=object)
        shapely.prepare(self.shapes)
        self.boxes = shapely.bounds(self.shapes).reshape(-1, 4)
        self.box = np.r_[self.boxes[:, :2].min(axis=0), self.boxes[:, 2:].max(axis=0)]
        """All the perches' box: most points are nowhere near one."""

    def under(self, points: np.ndarray) -> np.ndarray:
        """(n, perches) bool: whether each point (a model's centre) is up on each perch:
        inside its footprint by more than :data:`~solo_ops.geometry.shapes.OUTLINE`
        (:func:`~solo_ops.geometry.shapes.stands_on`: a centre on the outline is on the floor
        beside it, as movement reads it: it paid no climb)."""
        pts = np.asarray(points, dtype=float).reshape(-1, 2)
        out = np.zeros((len(pts), len(self.features)), dtype=bool)
        x0, y0, x1, y1 = self.box
        if not ((pts[:, 0] >= x0) & (pts[:, 0] <= x1) & (pts[:, 1] >= y0)
                & (pts[:, 1] <= y1)).any():
            return out
        for k, box in enumerate(self.boxes):
            near = ((pts[:, 0] >= box[0]) & (pts[:, 0] <= box[2])
                    & (pts[:, 1] >= box[1]) & (pts[:, 1] <= box[3]))
            if near.any():
                idx = np.nonzero(near)[0]
                out[idx, k] = shapely.contains_xy(self.shapes[k], pts[idx, 0], pts[idx, 1])
        return out

    def groups(self, A: np.ndarray, B: np.ndarray
               ) -> list[tuple[tuple[int, ...], np.ndarray, np.ndarray, np.ndarray]] | None:
        """The pairs of ``A`` (rows) and ``B`` (columns) grouped by the perches to leave out
        (those under either centre), or None when no point stands on a perch. Each group is
        (perch indices, its rows, its columns, (rows, columns) bool: the pairs of the group
        within that block); every pair is in exactly one group."""
        on_a, on_b = self.under(A), self.under(B)
        if not (on_a.any() or on_b.any()):
            return None
        n = len(self.features)
        kind: Any = np.int64 if n <= 62 else object  # a bit per perch
        weights = np.left_shift(np.ones(n, dtype=kind), np.arange(n, dtype=kind))
        code_a = (on_a.astype(kind) * weights).sum(axis=1, dtype=kind)
        code_b = (on_b.astype(kind) * weights).sum(axis=1, dtype=kind)
        pair = np.bitwise_or.outer(code_a, code_b)
        out = []
        for code in sorted(set(np.unique(pair).tolist())):
            sel = pair == code
            rows = np.nonzero(sel.any(axis=1))[0]
            cols = np.nonzero(sel.any(axis=0))[0]
            left_out = tuple(k for k in range(len(self.features)) if (code >> k) & 1)
            out.append((left_out, rows, cols, sel[np.ix_(rows, cols)]))
        return out


def scatter(out: Any, rows: np.ndarray, cols: np.ndarray, sel: np.ndarray, part: Any) -> None:
    """Write ``part`` (a (rows, columns) block) into ``out`` where ``sel`` holds."""
    block = out[np.ix_(rows, cols)]
    block[sel] = part[sel]
    out[np.ix_(rows, cols)] = block


VANTAGE_COVER = 2.0
"""Inches: a model up on ``vantage`` terrain is in cover from shooters more than this far below
it (001/002 Vantage "Provides Cover from shooters over 2" below"; Kill Team 2024)."""


def is_deck(feature: Feature) -> bool:
    """Whether a model can stand up on ``feature`` at a height: a polygon ``vantage`` feature
    with a ``height`` (a gantry's deck, a condenser's top; movement climbs onto it)."""
    return not feature.is_line and bool(feature.height) and feature.has("vantage")


class Decks:
    """The vantage terrain of one board models stand up on (:func:`is_deck`), and how high
    each point (a model's centre) stands: for the cover Vantage gives from below."""

    def __init__(self, features: list[Feature]) -> None:
        self.heights = np.array([float(f.height or 0.0) for f in features])
        self.shapes = np.array([shapes.interior(f) for f in features], dtype=object)
        shapely.prepare(self.shapes)

    def height_at(self, points: np.ndarray) -> np.ndarray:
        """(n,) the height of the highest deck each point stands up on (inside its footprint
        by more than :data:`~solo_ops.geometry.shapes.OUTLINE`, as movement's climb and
        :func:`solo_ops.game.shots.vantage_height` read it), 0 on the floor."""
        pts = np.asarray(points, dtype=float).reshape(-1, 2)
        out = np.zeros(len(pts))
        for k, shape in enumerate(self.shapes):
            up = shapely.contains_xy(shape, pts[:, 0], pts[:, 1])
            out = np.where(up, np.maximum(out, self.heights[k]), out)
        return out

    def from_below(self, A: np.ndarray, B: np.ndarray) -> np.ndarray:
        """(len(A), len(B)) bool: whether each target of ``B`` stands more than
        :data:`VANTAGE_COVER` above each shooter of ``A``."""
        return (self.height_at(B)[None, :] - self.height_at(A)[:, None]
                > VANTAGE_COVER + 1e-9)
