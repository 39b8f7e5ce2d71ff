"""The public sight queries for one board: :class:`Sight`.

:class:`Sight` builds the board's blockers and terrain shapes once and answers
:meth:`~Sight.clear` (from :class:`~solo_ops.geometry.sight.lines._SightLines`),
:meth:`~Sight.visible` / :meth:`~Sight.visibility_matrix` (the search of
:class:`~solo_ops.geometry.sight.visibility._BaseToBase`) and :meth:`~Sight.cover` /
:meth:`~Sight.cover_matrix` (:class:`~solo_ops.geometry.sight.cover.CoverJob` over the
shapes of :class:`~solo_ops.geometry.sight.regions._CoverShapes`), remembering answers per
exact arguments.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from solo_ops.geometry import shapes
from solo_ops.geometry.board import Board
from solo_ops.geometry.sight.blockers import Pieces, _Edges
from solo_ops.geometry.sight.circles import BASE_COS, BASE_SIN, samples
from solo_ops.geometry.sight.common import (
    COVER_MEMO_LIMIT,
    ERODE,
    PAIR_MEMO_LIMIT,
    _as_points,
    _as_radii,
    _row_keys,
)
from solo_ops.geometry.sight.cover import CoverJob
from solo_ops.geometry.sight.partial import _Partial
from solo_ops.geometry.sight.perches import Decks, Perches, is_deck, is_perch, scatter
from solo_ops.geometry.sight.regions import _CoverShapes, _eroded_parts, ragged
from solo_ops.geometry.sight.results import CoverMatrix, CoverResult
from solo_ops.geometry.sight.scalar import Scalar
from solo_ops.geometry.sight.visibility import _BaseToBase


def _pair_rows(A: np.ndarray, ra_: np.ndarray, B: np.ndarray, rb_: np.ndarray) -> np.ndarray:
    """One row (ax, ay, ra, bx, by, rb) per pair of ``A`` and ``B``, row-major over (A, B)."""
    na, nb = len(A), len(B)
    rows = np.empty((na, nb, 6))
    rows[:, :, 0:2] = A[:, None, :]
    rows[:, :, 2] = ra_[:, None]
    rows[:, :, 3:5] = B[None, :, :]
    rows[:, :, 5] = rb_[None, :]
    return rows.reshape(na * nb, 6)


class Sight(_BaseToBase, _CoverShapes):
    """Compiled sight queries for one board (one state of its doors and hatches).

    Building one splits the blockers into pieces and prepares the terrain shapes once; keep it (the
    :class:`~solo_ops.geometry.terrain.TerrainCache` does) rather than rebuilding per query.

    Beside the questions a game asks, a Sight shows the parts it answers them with, each a unit
    the geometry's tests check against a plain reference: :attr:`pieces` (the blockers' convex
    pieces) and :attr:`edges` (their boundary edges), :attr:`scalar` (both in Python floats),
    :attr:`cover_parts` and :attr:`heavy_parts` (the eroded cover and Heavy features, with
    :attr:`heavy_box`, :attr:`heavy_is_box` and :attr:`heavy_ragged`), and the visibility
    search's stages :meth:`compute_visible_pairs` (:meth:`numpy_visible_pairs` without the
    compiled loop), :meth:`cut_off`, :meth:`cut_off_dense`, :meth:`points_cut_off`,
    :meth:`clear_one` and :meth:`zones_touch`.
    """

    def __init__(self, board: Board) -> None:
        self.board = board
        blockers = shapes.sight_blockers(board)
        self.edges = _Edges(blockers)
        self.pieces = Pieces(blockers, [f for f in board.features if f.blocks_visibility])
        self._block = (shapely.buffer(blockers, -ERODE) if not blockers.is_empty
                       else shapely.GeometryCollection())
        shapely.prepare(self._block)
        cover_feats = [f for f in board.features if f.gives_cover]
        self.cover_parts = _eroded_parts(cover_feats)
        self._cover_light = np.array([f.is_light_only for f in cover_feats], dtype=bool)
        self._cover_tree = shapely.STRtree(self.cover_parts)
        # the cover-giving features in use, per mode (plain, Seek, Seek Light)
        self._cover_use = (np.ones(len(cover_feats), dtype=bool),
                           np.zeros(len(cover_feats), dtype=bool), ~self._cover_light)
        for use in self._cover_use:  # shared by every cover job of this Sight: read only
            use.setflags(write=False)
        heavy = [f for f in board.features if f.obscures]
        self.heavy_parts = _eroded_parts(heavy)
        # The eroded features' boxes, and which features are exactly their box.
        self.heavy_box = shapely.bounds(self.heavy_parts).reshape(-1, 4)
        box_area = ((self.heavy_box[:, 2] - self.heavy_box[:, 0])
                    * (self.heavy_box[:, 3] - self.heavy_box[:, 1]))
        area = shapely.area(self.heavy_parts) if len(self.heavy_parts) else np.zeros(0)
        self.heavy_is_box = np.abs(box_area - area) <= 1e-9 * np.maximum(box_area, 1e-12)
        # their outlines as flat arrays, for the compiled triangle test (None: shapely only)
        self.heavy_ragged = ragged(self.heavy_parts)
        # Single-pair answers by their exact arguments: a Sight never changes, and the engine
        # asks the same pair again and again (spotting after every move, the players' shots,
        # the autopilot), each costing a whole matrix computation of one pair.
        self._pair_memo: dict[tuple[Any, ...], Any] = {}
        self._vis_memo: dict[bytes, bool] = {}
        self._circle_memo: dict[bytes, BaseGeometry] = {}
        # whether a base's 1" zone meets a Heavy feature, per exact (x, y, r) and feature
        self._touch_memo: dict[tuple[bytes, int], bool] = {}
        self._region_memo: dict[bytes, np.ndarray] = {}
        # each visible pair's cover answer (2 * obscured + in cover) by its exact centres and
        # radii, one memo per mode (plain, Seek, Seek Light): the planner, the autopilot and
        # the engine ask the same pairs in different batches and under different names
        self._cover_memo: tuple[dict[bytes, int], ...] = ({}, {}, {})
        self._scalar_parts: Scalar | None = None
        self._partial: _Partial | None = None  # Kill Team 2018 obstacles (first use)
        self._partial_memo: dict[bytes, bool] = {}
        found = [f for f in board.features if is_perch(f)]
        self.perches = Perches(found) if found else None
        decks = [f for f in board.features if is_deck(f)]
        self.decks = Decks(decks) if decks else None
        """The vantage terrain models stand up on, for Vantage's cover from below, or None."""
        """The terrain models stand on top of (:mod:`~solo_ops.geometry.sight.perches`), or
        None: a board without any answers every question as it is."""
        self._without: dict[tuple[int, ...], Sight] = {}

    def without(self, left_out: tuple[int, ...]) -> Sight:
        """The sight of this board with the perches ``left_out`` (indices into
        :attr:`perches`) taken off: how the lines from or to a model standing on them are
        read. Built at the first question and kept; ``()`` is this sight itself."""
        if not left_out:
            return self
        found = self._without.get(left_out)
        if found is None:
            assert self.perches is not None
            gone = {id(self.perches.features[k]) for k in left_out}
            board = replace(self.board, features=tuple(
                f for f in self.board.features if id(f) not in gone))
            found = self._without[left_out] = Sight(board)
        return found

    def _pair_sight(self, a: Any, b: Any) -> Sight:
        """The sight that answers for the pair of models at ``a`` and ``b`` (this one, or one
        without the perches either stands on)."""
        if self.perches is None:
            return self
        on = self.perches.under(np.array([a, b], dtype=float)).any(axis=0)
        return self.without(tuple(int(k) for k in np.nonzero(on)[0]))

    # -- Kill Team 2018 ------------------------------------------------------------------------
    @property
    def partial(self) -> _Partial:
        """The board's obstacles for the 2018 "obscured", built on first use."""
        if self._partial is None:
            self._partial = _Partial(self.board)
        return self._partial

    def _cover_2018(self, attacker: Any, target: Any, ra: float, rb: float,
                    others: Sequence[tuple[float, float, float]]) -> CoverResult:
        """:meth:`cover` by Kill Team 2018 (remembered per exact arguments, the other bases
        included)."""
        key = ("c18", float(attacker[0]), float(attacker[1]), float(target[0]),
               float(target[1]), float(ra), float(rb),
               tuple((float(x), float(y), float(r)) for x, y, r in others))
        found = self._pair_memo.get(key)
        if found is None:
            vis = self.visible(attacker, target, ra, rb)
            partial = self._pair_sight(attacker, target).partial
            hidden = vis and partial.obscured(attacker, ra, target, rb, others)
            found = self._remember(key, CoverResult(vis, hidden, hidden, vis))
        return replace(found)

    def _partial_pairs(self, A: np.ndarray, ra: np.ndarray, B: np.ndarray, rb: np.ndarray
                       ) -> np.ndarray:
        """The 2018 "obscured" (terrain only) of each pair (A[k], B[k]), remembered per pair."""
        rows = np.ascontiguousarray(np.column_stack([A, ra, B, rb]), dtype=float)
        keys = _row_keys(rows)
        found = [self._partial_memo.get(k) for k in keys]
        miss = [k for k, v in enumerate(found) if v is None]
        if miss:
            fresh = self.partial.obscured_many(rows[miss])
            if len(self._partial_memo) + len(miss) > COVER_MEMO_LIMIT:
                self._partial_memo.clear()
            for k, value in zip(miss, fresh.tolist(), strict=True):
                found[k] = self._partial_memo[keys[k]] = bool(value)
        return np.array(found, dtype=bool)

    def _remember(self, key: tuple[Any, ...], value: Any) -> Any:
        if len(self._pair_memo) >= PAIR_MEMO_LIMIT:
            self._pair_memo.clear()
        self._pair_memo[key] = value
        return value

    # -- base to base -----------------------------------------------------------------------
    def visible(self, a: Any, b: Any, ra: float = 0.0, rb: float = 0.0) -> bool:
        """Whether a base of radius ``ra`` at ``a`` and one of radius ``rb`` at ``b`` can see
        each other (some clear segment between sample points of the two; see the package
        docstring for the sampling). Answers are remembered per exact arguments."""
        key = ("v", float(a[0]), float(a[1]), float(b[0]), float(b[1]), float(ra), float(rb))
        found = self._pair_memo.get(key)
        if found is None:
            found = self._remember(key, bool(self.visibility_matrix([a], ra, [b], rb)[0, 0]))
        return bool(found)

    def sight_line(self, a: Any, b: Any, ra: float = 0.0, rb: float = 0.0
                   ) -> tuple[tuple[float, float], tuple[float, float]] | None:
        """A clear line between the bases at ``a`` and ``b`` to draw a shot along: the centres'
        segment when it is clear, else the clear segment between the two bases' sample points
        (those :meth:`visible` tries) nearest the centres (the least sum of its ends' offsets
        from them; the first in sample order on a tie). None when they do not see each other.
        A picture drawn centre to centre would show a shot that sees past a wall's end going
        through the wall."""
        if not self.visible(a, b, ra, rb):
            return None
        own = self._pair_sight(a, b)  # without a perch either stands on, as visible reads it
        pa, pb = (float(a[0]), float(a[1])), (float(b[0]), float(b[1]))
        if own.clear(np.array([pa]), np.array([pb]))[0]:
            return pa, pb
        P = samples(np.array([pa]), np.array([float(ra)]), BASE_COS, BASE_SIN)[0]
        Q = samples(np.array([pb]), np.array([float(rb)]), BASE_COS, BASE_SIN)[0]
        PP, QQ = np.repeat(P, len(Q), axis=0), np.tile(Q, (len(P), 1))
        ok = np.flatnonzero(own.clear(PP, QQ))
        if len(ok) == 0:  # (visible by a test this sampling does not repeat)
            return pa, pb
        off = (np.hypot(PP[ok, 0] - pa[0], PP[ok, 1] - pa[1])
               + np.hypot(QQ[ok, 0] - pb[0], QQ[ok, 1] - pb[1]))
        k = int(ok[int(np.argmin(off))])
        return (float(PP[k, 0]), float(PP[k, 1])), (float(QQ[k, 0]), float(QQ[k, 1]))

    def visibility_matrix(self, A: Any, ra: Any, B: Any, rb: Any) -> np.ndarray:
        """(len(A), len(B)) bool: :meth:`visible` for every pair; radii scalars or arrays.
        A pair with a model up on a perch is answered without that perch."""
        A, B = _as_points(A), _as_points(B)
        ra_, rb_ = _as_radii(ra, len(A)), _as_radii(rb, len(B))
        groups = self.perches.groups(A, B) if self.perches is not None else None
        if groups is None:
            return self._visibility_plain(A, ra_, B, rb_)
        out = np.zeros((len(A), len(B)), dtype=bool)
        for left_out, rows, cols, sel in groups:
            part = self.without(left_out)._visibility_plain(A[rows], ra_[rows], B[cols],
                                                            rb_[cols])
            scatter(out, rows, cols, sel, part)
        return out

    def _visibility_plain(self, A: np.ndarray, ra_: np.ndarray, B: np.ndarray,
                          rb_: np.ndarray) -> np.ndarray:
        """:meth:`visibility_matrix` with every feature of this board counted."""
        return self._visible_rows(_pair_rows(A, ra_, B, rb_)).reshape(len(A), len(B))

    # -- cover ------------------------------------------------------------------------------
    def cover(self, attacker: Any, target: Any, ra: float = 0.0, rb: float = 0.0, *,
              seek: bool = False, seek_light: bool = False, edition: str = "kt2024",
              others: Sequence[tuple[float, float, float]] = ()) -> CoverResult:
        """Whether ``target`` is visible to ``attacker``, in cover and obscured (2024 reading,
        see the package docstring). ``seek``: cover-giving terrain gives no cover;
        ``seek_light``: light-only terrain gives none. Not visible gives all False.

        ``edition="kt2018"``: obscured as Kill Team 2018 defines it, "even partially obscured
        from the best point of view of the firing model" (:mod:`.partial`), by the terrain and
        the bases ``others`` ((x, y, radius) of the other models, either side: "Other models
        (even friendly models) and terrain may hide a target"); 2018 has no cover apart from
        being obscured, so ``in_cover`` is the same answer.
        """
        if edition == "kt2018":
            return self._cover_2018(attacker, target, ra, rb, others)
        key = ("c", float(attacker[0]), float(attacker[1]), float(target[0]), float(target[1]),
               float(ra), float(rb), bool(seek), bool(seek_light), edition)
        found = self._pair_memo.get(key)
        if found is None:
            cm = self.cover_matrix([attacker], ra, [target], rb, seek=seek,
                                   seek_light=seek_light, edition=edition)
            vis = bool(cm.visible[0, 0])
            found = self._remember(key, CoverResult(vis, bool(cm.in_cover[0, 0]),
                                                    bool(cm.obscured[0, 0]), vis))
        return replace(found)  # a copy: a caller may change its own

    def cover_matrix(self, A: Any, ra: Any, B: Any, rb: Any, *, edition: str = "kt2024",
                     seek: bool = False, seek_light: bool = False) -> CoverMatrix:
        """:meth:`cover` from every attacker in ``A`` (rows) to every target in ``B`` (columns);
        radii are scalars or arrays. ``edition="kt2018"``: the 2018 "obscured" by the
        terrain (see :meth:`cover`), ``in_cover`` the same. A pair with a model up on a perch
        is answered without that perch."""
        A, B = _as_points(A), _as_points(B)
        ra_, rb_ = _as_radii(ra, len(A)), _as_radii(rb, len(B))
        groups = self.perches.groups(A, B) if self.perches is not None else None
        if groups is None:
            out = self._cover_plain(A, ra_, B, rb_, edition, seek, seek_light)
        else:
            shape = (len(A), len(B))
            out = CoverMatrix(np.zeros(shape, dtype=bool), np.zeros(shape, dtype=bool),
                              np.zeros(shape, dtype=bool))
            for left_out, rows, cols, sel in groups:
                part = self.without(left_out)._cover_plain(A[rows], ra_[rows], B[cols],
                                                           rb_[cols], edition, seek, seek_light)
                for name in ("visible", "in_cover", "obscured"):
                    scatter(getattr(out, name), rows, cols, sel, getattr(part, name))
        # Kill Team 2024 Vantage: "Provides Cover from shooters over 2" below", as all cover
        # only from a shooter more than 2" away (Seek: "VISIBLE Operatives cannot use terrain
        # for Cover")
        if edition == "kt2024" and not seek and self.decks is not None and out.visible.any():
            gap = (np.hypot(A[:, None, 0] - B[None, :, 0], A[:, None, 1] - B[None, :, 1])
                   - ra_[:, None] - rb_[None, :])
            out.in_cover |= out.visible & (gap > 2.0) & self.decks.from_below(A, B)
        return out

    def _cover_plain(self, A: np.ndarray, ra_: np.ndarray, B: np.ndarray, rb_: np.ndarray,
                     edition: str, seek: bool, seek_light: bool) -> CoverMatrix:
        """:meth:`cover_matrix` with every feature of this board counted."""
        shape = (len(A), len(B))
        # One row (ax, ay, ra, bx, by, rb) per pair, and its exact bits: the key of both the
        # visibility and the cover answers of the pair.
        rows = _pair_rows(A, ra_, B, rb_)
        every = _row_keys(rows) if len(rows) and self.pieces.count else None
        vis = self._visible_rows(rows, every).reshape(shape)
        in_cover = np.zeros(shape, dtype=bool)
        obscured = np.zeros(shape, dtype=bool)
        pi, pj = np.nonzero(vis)
        if len(pi) == 0:
            return CoverMatrix(vis, in_cover, obscured)
        if edition == "kt2018":
            hidden = self._partial_pairs(A[pi], ra_[pi], B[pj], rb_[pj])
            obscured[pi, pj] = hidden
            return CoverMatrix(vis, obscured.copy(), obscured)
        # A pair's answer depends on its own centres and radii only (never on the other pairs
        # of a job), so the pairs answered before are read back and only the rest computed.
        mode = 1 if seek else 2 if seek_light else 0
        if every is None:
            keys = _row_keys(rows[pi * len(B) + pj])
        elif len(pi) == len(every):
            keys = every
        else:
            keys = [every[f] for f in (pi * len(B) + pj).tolist()]
        memo = self._cover_memo[mode]
        found = [memo.get(k) for k in keys]
        miss = [i for i, v in enumerate(found) if v is None]
        if miss:
            m = np.array(miss, dtype=np.intp)
            obs, cov = CoverJob(self, A, ra_, B, rb_, pi[m], pj[m], self._cover_use[mode]).run()
            if len(memo) + len(miss) > COVER_MEMO_LIMIT:
                memo.clear()
            for i, code in zip(miss, (2 * obs.astype(np.int8) + cov).tolist(), strict=True):
                found[i] = memo[keys[i]] = code
        codes = np.array(found, dtype=np.int8)
        obscured[pi, pj] = codes >= 2
        in_cover[pi, pj] = codes % 2 == 1
        return CoverMatrix(vis, in_cover, obscured)
