"""Movement surcharges: :class:`_Soft` (footprints that cost extra to enter or leave) and
the climbing and dropping costs (:func:`climb_cost`, :func:`drop_cost`).

Accessible features cost :data:`ACCESSIBLE_COST` to enter, obstructing ones (razor wire)
:data:`OBSTRUCTING_COST` when the base comes within :data:`OBSTRUCTING_REACH` of them, and a
vantage feature with a height its climb and drop (see the package notes).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Polygon

from solo_ops.geometry import jit, shapes
from solo_ops.geometry.board import NO_CLIMB, Board, Feature
from solo_ops.geometry.routes.common import DISC_SEGMENTS, TOL, Point2, jw
from solo_ops.geometry.routes.rings import Rings, crossings, touches

ACCESSIBLE_COST = 1.0  # inches added for entering an accessible feature
OBSTRUCTING_COST = 2.0  # inches added for entering an obstructing feature
MIN_CLIMB = 2  # inches: the least a climb costs (001)
DROP_IGNORED = 2  # inches of a drop that cost nothing (001)
OBSTRUCTING_REACH = 1.0  # inches: a move whose base comes this close to it pays (001 razor wire)
UNCLIMBABLE = 1000.0
"""Inches: the climb onto a feature no move may climb (a Dash's board, :data:`NO_CLIMB`),
more than any move's allowance, so a walk goes round it or is refused."""
TOUCHING = shapes.OUTLINE  # inches: a walk this close to a footprint's outline is beside it
FOOTPRINT_MARGIN = 1e-6
"""Inches: how much each footprint's box is grown for :meth:`_Soft.near_footprints` (and the
outline margin of the compiled ``jit.walls.soft_near``), more
than :data:`TOUCHING` and the crossing test's ``TOL``: a segment whose box stays farther from
every footprint's crosses, passes and ends on no outline."""


# -- soft terrain: movement surcharges -------------------------------------------------------------
def crossing_groups(key: np.ndarray, t: np.ndarray) -> tuple[np.ndarray, np.ndarray,
                                                                 np.ndarray]:
    """Group crossings by ``key`` (segment x footprint): the distinct keys ascending, how many
    crossings each has and the least ``t`` (where along the segment) of each -- what
    ``np.unique(key, return_inverse=True, return_counts=True)`` and ``np.minimum.at`` gave,
    with one sort and one ``reduceat`` (a minimum is exact in any order: the same floats)."""
    order = np.argsort(key, kind="stable")
    ks = key[order]
    starts = np.flatnonzero(np.concatenate([[True], ks[1:] != ks[:-1]]))
    counts = np.diff(np.append(starts, len(ks)))
    return ks[starts], counts, np.minimum.reduceat(t[order], starts)


def surcharged_parts(f: Feature, radius: float
                     ) -> list[tuple[Polygon, float, float, bool, Rings]]:
    """One feature's part of :meth:`_Soft.of`: each surcharged footprint with its amount,
    its cost on leaving, whether it is razor wire's reach, and its rings (worked from the
    feature alone, so kept with it: :func:`~solo_ops.geometry.shapes.per_feature`)."""
    out: list[tuple[Polygon, float, float, bool, Rings]] = []
    t = f.effective_traits
    height = float(f.height or 0.0) if ("vantage" in t and not f.is_line) else 0.0
    entry = climb_cost(height) if height > 0 else (ACCESSIBLE_COST if "accessible" in t else 0.0)
    if height > 0 and NO_CLIMB in t:  # a Dash: no climbing (more than any move allows)
        entry = UNCLIMBABLE
    for amount, leave, grow, wire in (
            (entry, drop_cost(height), 0.0, False),
            (OBSTRUCTING_COST if "obstructing" in t else 0.0, 0.0,
             OBSTRUCTING_REACH + radius, True)):
        if amount <= 0 and leave <= 0:
            continue
        area = shapes.feature_area(f)
        if grow > 0:
            area = area.buffer(grow, DISC_SEGMENTS)
        for poly in shapes.polygons_of(area):
            out.append((poly, amount, leave, wire, Rings.of([poly])))
    return out


@dataclass
class _Soft:
    """Footprints that cost extra movement to enter (accessible, obstructing)."""

    polys: list[Polygon]
    amounts: list[float]
    rings: list[Rings]
    exits: list[float] = field(default_factory=list)  # paid on leaving (dropping), per poly
    obstructing: list[bool] = field(default_factory=list)  # razor wire's reach, per poly
    ev: np.ndarray = field(init=False, repr=False)  # every footprint's edges, start
    en: np.ndarray = field(init=False, repr=False)  # and end
    owner: np.ndarray = field(init=False, repr=False)  # the footprint of each edge
    box: np.ndarray = field(init=False, repr=False)  # (4,) bounds of all footprints
    boxes: np.ndarray = field(init=False, repr=False)  # (F, 4) each footprint's, grown
    edge_starts: np.ndarray = field(init=False, repr=False)  # (F + 1,) its edges in ev

    def __post_init__(self) -> None:
        self.exits = self.exits or [0.0] * len(self.polys)
        self.obstructing = self.obstructing or [False] * len(self.polys)
        parts = [r for r in self.rings if len(r)]
        if parts:
            self.ev = np.concatenate([r.v for r in self.rings])
            self.en = np.concatenate([r.nxt for r in self.rings])
            self.owner = np.repeat(np.arange(len(self.rings)), [len(r) for r in self.rings])
            self.box = np.r_[self.ev.min(axis=0), self.ev.max(axis=0)]
        else:
            self.ev = self.en = np.zeros((0, 2))
            self.owner = np.zeros(0, dtype=int)
            self.box = np.zeros(4)
        # where each footprint's edges start in ev (they come footprint by footprint)
        self.edge_starts = np.concatenate([[0], np.cumsum([len(r) for r in self.rings])]
                                          ).astype(np.int64)
        # each footprint's box grown by FOOTPRINT_MARGIN (an empty ring's meets nothing)
        self.boxes = np.array([[*(r.v.min(axis=0) - FOOTPRINT_MARGIN),
                                *(r.v.max(axis=0) + FOOTPRINT_MARGIN)] if len(r)
                               else [np.inf, np.inf, -np.inf, -np.inf] for r in self.rings],
                              dtype=float).reshape(-1, 4)

    @staticmethod
    def of(board: Board, radius: float = 0.0) -> _Soft:
        """The surcharged footprints for a base of ``radius``: an accessible feature as drawn
        (its centre enters it), an obstructing one grown by :data:`OBSTRUCTING_REACH` plus the
        radius (001 Razor Wire: "Any move within 1" of this terrain costs additional 2"":
        the base's edge within 1" of it), and a ``vantage`` feature with a ``height`` climbed
        onto and dropped from (:func:`climb_cost`, :func:`drop_cost`) instead of its
        accessible 1"."""
        parts = [part for f in board.features
                 for part in shapes.per_feature(f, ("soft", radius),
                                                functools.partial(surcharged_parts, f, radius))]
        return _Soft([p[0] for p in parts], [p[1] for p in parts], [p[4] for p in parts],
                     [p[2] for p in parts], [p[3] for p in parts])

    def start_cost(self, a: Point2) -> float:
        """The obstructing surcharge a move starting at ``a`` pays at once: it starts within
        reach of the razor wire, so the move is "within 1"" of it whatever its path."""
        if not self.polys:
            return 0.0
        return float(sum(amount for poly, amount, wire in zip(self.polys, self.amounts,
                                                              self.obstructing, strict=True)
                         if wire and poly.covers(shapely.Point(a))))

    def __bool__(self) -> bool:
        return bool(self.polys)

    def near_footprints(self, P: np.ndarray, Q: np.ndarray) -> np.ndarray:
        """(S,) whether segment ``P->Q``'s box meets some footprint's box grown by
        :data:`FOOTPRINT_MARGIN`: the segments that may cross, pass a corner of or end on a
        footprint's outline. Every other one costs nothing (:meth:`cost_near` adds nothing to
        its 0.0)."""
        b = self.boxes
        lo, hi = np.minimum(P, Q), np.maximum(P, Q)
        m = hi[:, None, 0] >= b[None, :, 0]
        m &= lo[:, None, 0] <= b[None, :, 2]
        m &= hi[:, None, 1] >= b[None, :, 1]
        m &= lo[:, None, 1] <= b[None, :, 3]
        return m.any(axis=1)

    def near_outlines(self, P: np.ndarray, Q: np.ndarray) -> np.ndarray:
        """(S,) whether segment ``P->Q`` may come within :data:`FOOTPRINT_MARGIN` of a
        footprint's outline: with the compiled loops, by each edge near its box (a segment
        farther from every outline crosses none, passes no corner and has no end on one, so
        :meth:`cost_near` adds nothing to its 0.0, even inside a footprint); else
        :meth:`near_footprints`."""
        if not jit.ENABLED:
            return self.near_footprints(P, Q)
        found: np.ndarray = jw.soft_near(np.ascontiguousarray(P, dtype=float),
                                         np.ascontiguousarray(Q, dtype=float), self.ev,
                                         self.en, self.edge_starts, self.boxes,
                                         FOOTPRINT_MARGIN)
        return found

    def cost(self, P: np.ndarray, Q: np.ndarray) -> np.ndarray:
        """(S,) :meth:`cost_near` of the segments ``P->Q``, worked out only for those near a
        footprint's outline (:meth:`near_outlines`; most legs of a walking graph are far from
        every one): each segment's surcharge is its own, whatever others are asked with it,
        and the others' is 0.0, so the answer is :meth:`cost_near`'s, float for float."""
        if len(P) == 0 or len(self.ev) == 0:
            return np.zeros(len(P))
        near = self.near_outlines(P, Q)
        if near.all():
            return self.cost_near(P, Q)
        total = np.zeros(len(P))
        idx = np.flatnonzero(near)
        if len(idx):
            total[idx] = self.cost_near(P[idx], Q[idx])
        return total

    def cost_near(self, P: np.ndarray, Q: np.ndarray) -> np.ndarray:
        """(S,) the surcharge for walking each segment ``P->Q``: per footprint, the entries
        into it times its entry cost and the exits times its exit cost. The segment's pieces
        between crossings are read in their middles, and its two ends where they stand: an end
        on a footprint's outline (within :data:`TOUCHING` inside it) is beside it, so a
        segment from there into the footprint enters it and one from inside ending there
        leaves it (:meth:`end_changes`), as :meth:`events` reads a whole walk. A walk split at
        a point of an outline costs what it costs whole: its climb is paid once, on the leg
        that goes in (issue #27)."""
        total = np.zeros(len(P))
        if len(P) == 0 or len(self.ev) == 0:
            return total
        # a segment that crosses no edge of a footprint pays nothing for it unless an end
        # stands on its outline: test all the footprints' edges at once, then count the
        # crossings per (segment, footprint)
        lo, hi = np.minimum(P, Q), np.maximum(P, Q)
        x0, y0, x1, y1 = self.box
        active = ((hi[:, 0] >= x0 - TOL) & (lo[:, 0] <= x1 + TOL)
                  & (hi[:, 1] >= y0 - TOL) & (lo[:, 1] <= y1 + TOL))
        si, ei, t = crossings(P, Q, self.ev, self.en, active)
        n = len(self.polys)
        amounts, leaving = self._charges
        # a segment through a footprint's corner (rare) is read piece by piece for it
        vs, vv, vt = touches(P, Q, self.ev, active, TOUCHING)
        touched = np.unique(vs * n + self.owner[vv]) if len(vs) else _NO_KEYS
        if len(touched):
            ck = si * n + self.owner[ei]
            sel = np.isin(ck, touched)
            self.by_pieces(P, Q, touched, np.concatenate([ck[sel], vs * n + self.owner[vv]]),
                           np.concatenate([t[sel], vt]), total)
            si, ei, t = si[~sel], ei[~sel], t[~sel]
        # ends on an outline (rare): one test of every end against every outline at once
        banded = self.in_band(np.concatenate([P, Q]), np.concatenate([active, active]))
        p_band, q_band = banded[:len(P)], banded[len(P):]
        if len(si):
            keys, k, first = crossing_groups(si * n + self.owner[ei], t)
            seg, pid = np.divmod(keys, n)
            mid = P[seg] + (Q[seg] - P[seg]) * (first / 2.0)[:, None]
            # each first piece's middle in its own footprint's core, all in one call
            inside_all = shapely.contains_xy(self.core_array()[pid], mid[:, 0], mid[:, 1])
            out = (k + np.where(inside_all, 0, 1)) // 2
            extra = np.zeros(len(keys))
            for j in np.unique(pid[p_band[seg] | q_band[seg]]).tolist():
                sel = pid == j
                inside = inside_all[sel]
                # an end on the outline is beside the footprint: the first piece inside
                # entered it there, the last piece inside (k even: as the first) leaves it
                last_inside = inside == (k[sel] % 2 == 0)
                extra[sel] = (self.on_edge(j, P[seg[sel]]) & inside) * amounts[j] \
                    + (self.on_edge(j, Q[seg[sel]]) & last_inside) * leaving[j]
            np.add.at(total, seg, out * amounts[pid] + (k - out) * leaving[pid] + extra)
            crossed = np.concatenate([keys, touched])
        else:
            crossed = touched
        if p_band.any() or q_band.any():
            self.end_changes(P, Q, p_band | q_band, crossed, total)
        return total

    def by_pieces(self, P: np.ndarray, Q: np.ndarray, keys: np.ndarray, cut_keys: np.ndarray,
                  cut_t: np.ndarray, total: np.ndarray) -> None:
        """Add to ``total`` what :meth:`cost` owes for the (segment * footprints + footprint)
        pairs ``keys``, each read piece by piece between its cuts (``cut_t`` where
        ``cut_keys`` names it: its crossings and the corners it passes, :func:`touches`):
        each end where it stands, each piece at its middle, every step from outside to inside
        an entry and back an exit, as :meth:`events` reads a walk. A segment through a
        corner may go in there, or only graze it: the count of crossings cannot tell."""
        n = len(self.polys)
        cores = self.cores()
        for key in keys.tolist():
            seg, j = divmod(key, n)
            (px, py), (qx, qy) = P[seg].tolist(), Q[seg].tolist()
            cut = sorted([0.0, *cut_t[cut_keys == key].tolist(), 1.0])
            pts = [(px, py)]
            for ta, tb in itertools.pairwise(cut):
                if tb - ta > 1e-12:
                    tm = (ta + tb) / 2
                    pts.append((px + (qx - px) * tm, py + (qy - py) * tm))
            pts.append((qx, qy))
            inside = shapely.contains_xy(cores[j], *np.array(pts).T).tolist()
            steps = list(itertools.pairwise(inside))
            total[seg] += (sum(now and not was for was, now in steps) * self.amounts[j]
                           + sum(was and not now for was, now in steps) * self.exits[j])

    @cached_property
    def _band(self) -> Any:
        """Every footprint's outline strip (in it but not :data:`TOUCHING` inside it), joined
        and prepared: where an end of a walk stands beside a footprint."""
        band = shapely.union_all([poly.difference(core)
                                  for poly, core in zip(self.polys, self.cores(), strict=True)])
        shapely.prepare(band)
        return band

    def in_band(self, pts: np.ndarray, active: np.ndarray) -> np.ndarray:
        """Whether each point (of the ``active`` segments) stands on some footprint's outline
        (:meth:`on_edge` of any footprint), in one test."""
        out = np.zeros(len(pts), dtype=bool)
        idx = np.flatnonzero(active)
        if len(idx):
            out[idx] = shapely.intersects_xy(self._band, pts[idx, 0], pts[idx, 1])
        return out

    def on_edge(self, j: int, pts: np.ndarray) -> np.ndarray:
        """Whether each point is on footprint ``j``'s outline: in the footprint but not more
        than :data:`TOUCHING` inside it (a model's centre there stands beside it)."""
        if len(pts) == 0:
            return np.zeros(0, dtype=bool)
        return (shapely.intersects_xy(self.polys[j], pts[:, 0], pts[:, 1])
                & ~shapely.contains_xy(self.cores()[j], pts[:, 0], pts[:, 1]))

    def end_changes(self, P: np.ndarray, Q: np.ndarray, banded: np.ndarray,
                    crossed: np.ndarray, total: np.ndarray) -> None:
        """Add to ``total`` what :meth:`cost` owes for the segments that cross no outline of
        a footprint but start or end on it (:meth:`on_edge`; rare: a model standing where a
        route's corner was rounded to the table's 0.01" grid). Such an end is beside the
        footprint: a segment from it that runs inside enters, one from inside that ends on it
        leaves. ``banded``: the segments with an end on some outline (:meth:`in_band`);
        ``crossed``: the (segment * footprints + footprint) pairs :meth:`cost` counted by
        their crossings."""
        n = len(self.polys)
        cores = self.cores()
        for j, poly in enumerate(self.polys):
            bx0, by0, bx1, by1 = poly.bounds
            near = banded & (((P[:, 0] >= bx0 - TOL) & (P[:, 0] <= bx1 + TOL)
                              & (P[:, 1] >= by0 - TOL) & (P[:, 1] <= by1 + TOL))
                             | ((Q[:, 0] >= bx0 - TOL) & (Q[:, 0] <= bx1 + TOL)
                                & (Q[:, 1] >= by0 - TOL) & (Q[:, 1] <= by1 + TOL)))
            idx = np.flatnonzero(near)
            if len(idx) == 0:
                continue
            p_edge, q_edge = self.on_edge(j, P[idx]), self.on_edge(j, Q[idx])
            keep = (p_edge | q_edge) & ~np.isin(idx * n + j, crossed)
            if not keep.any():
                continue
            m = (P[idx[keep]] + Q[idx[keep]]) / 2.0
            inside = shapely.contains_xy(cores[j], m[:, 0], m[:, 1])
            owed = (p_edge[keep] & inside) * self.amounts[j] \
                + (q_edge[keep] & inside) * self.exits[j]
            np.add.at(total, idx[keep], owed)

    @cached_property
    def _charges(self) -> tuple[np.ndarray, np.ndarray]:
        """The entry and exit costs of each footprint as arrays (built once, not per call)."""
        return np.asarray(self.amounts, dtype=float), np.asarray(self.exits, dtype=float)

    @cached_property
    def _cores(self) -> dict[float, list[Any]]:
        return {}

    @cached_property
    def _core_array(self) -> np.ndarray:
        arr = np.empty(len(self.polys), dtype=object)
        arr[:] = self.cores()
        return arr

    def core_array(self) -> np.ndarray:
        """:meth:`cores` (at :data:`TOUCHING`) as an object array, built once: one geometry
        per footprint, for the tests that ask each point about its own footprint at once."""
        return self._core_array

    def cores(self, touching: float = TOUCHING) -> list[Any]:
        """Each footprint shrunk by ``touching`` (:data:`TOUCHING`): a piece of a walk that
        runs along an outline (round the grown razor wire, along a crate's side) is beside
        it, not in it. Built once per amount."""
        got = self._cores.get(touching)
        if got is None:
            got = self._cores[touching] = [poly.buffer(-touching) for poly in self.polys]
        return got

    def path_cost(self, pts: list[Point2], touching: float = TOUCHING) -> float:
        """The surcharge of walking the polyline ``pts`` (a walk's points): for each
        footprint, the entries into it times its entry cost plus the exits times its exit cost
        (the sum of :meth:`events`). ``touching``: how far into a footprint a walk may stray
        and still be beside it (0.01" for a route read back from the record, its points
        rounded to 0.01")."""
        return float(sum(amount for _, amount in self.events(pts, touching)))

    def events(self, pts: Sequence[Point2], touching: float = TOUCHING
               ) -> list[tuple[float, float]]:
        """(distance along the polyline ``pts``, surcharge) of each entry into a footprint
        and each exit from one, in order: what :meth:`path_cost` adds up and
        :meth:`~solo_ops.geometry.routes.query.Routes.advance` pays on the way. Whether the
        walk is inside is read between crossings (the middle of each piece), never at a
        point on the outline, so a route that turns at a corner of a footprint (its points on
        the outline) pays for going in as a route beside the corner does: the same cost the
        walking graph found for it (issue #27: a move's reported cost is its route's); an
        entry or exit is where the first piece on its new side begins."""
        if not self.polys or len(pts) < 2:
            return []
        P, Q = np.array(pts[:-1], float), np.array(pts[1:], float)
        lo, hi = np.minimum(P, Q).min(axis=0), np.maximum(P, Q).max(axis=0)
        lengths = np.hypot(*(Q - P).T).tolist()
        # where each leg starts along the walk: the running sum numpy's cumsum makes (one
        # addition after another, the same floats)
        offsets = [0.0, *itertools.accumulate(lengths[:-1])]
        out: list[tuple[float, float]] = []
        for poly, core, amount, leave, rings in zip(self.polys, self.cores(touching),
                                                    self.amounts, self.exits, self.rings,
                                                    strict=True):
            x0, y0, x1, y1 = poly.bounds
            if x1 < lo[0] - TOL or x0 > hi[0] + TOL or y1 < lo[1] - TOL or y0 > hi[1] + TOL:
                continue
            si, _, t = crossings(P, Q, rings.v, rings.nxt)
            vs, _, vt = touches(P, Q, rings.v, None, touching)
            si, t = np.concatenate([si, vs]), np.concatenate([t, vt])
            mids: list[tuple[float, float]] = []
            begins: list[float] = []
            # each leg's crossings (the same floats, as Python floats: the same arithmetic)
            cuts: dict[int, list[float]] = {}
            for k, tk in zip(si.tolist(), t.tolist(), strict=True):
                cuts.setdefault(k, []).append(tk)
            for k, ((px, py), (qx, qy), at, length) in enumerate(zip(
                    P.tolist(), Q.tolist(), offsets, lengths, strict=True)):
                got = cuts.get(k)
                cut = _WHOLE if got is None else sorted([0.0, *got, 1.0])
                for ta, tb in itertools.pairwise(cut):
                    if tb - ta <= 1e-12:
                        continue
                    tm = (ta + tb) / 2
                    mids.append((px + (qx - px) * tm, py + (qy - py) * tm))
                    begins.append(at + length * ta)
            if not mids:
                continue
            # the walk's two ends where they stand (an end on the outline is beside the
            # footprint, :meth:`cost`), its pieces between them
            ends = np.array([pts[0], pts[-1]], dtype=float)
            at_ends = shapely.contains_xy(core, ends[:, 0], ends[:, 1]).tolist()
            inside = [at_ends[0], *shapely.contains_xy(core, *np.array(mids).T).tolist(),
                      at_ends[1]]
            where = [0.0, *begins, offsets[-1] + lengths[-1]]
            for j, (was, now) in enumerate(itertools.pairwise(inside)):
                if now and not was:
                    out.append((where[j + 1], float(amount)))
                elif was and not now:
                    out.append((where[j + 1], float(leave)))
        return sorted(out)


_NO_KEYS = np.zeros(0, dtype=np.int64)
"""No (segment, footprint) pair: what :meth:`_Soft.cost` reads piece by piece when no segment
passes a corner (the usual case, so no ``np.unique`` of nothing)."""

_WHOLE = (0.0, 1.0)
"""The cut of a leg that crosses no outline of a footprint: the leg itself."""


def climb_cost(height: float) -> float:
    """Climbing onto terrain ``height`` inches tall (001 "MINIMUM climb cost of 2". Measure
    vertical distance, rounding UP to nearest 1", and subtract from Move stat.")."""
    return float(max(MIN_CLIMB, math.ceil(height - 1e-9))) if height > 0 else 0.0


def drop_cost(height: float) -> float:
    """Dropping from terrain ``height`` inches tall (001 "When dropping, or jumping off,
    Ignore 2" vertical drop PER activation"): the vertical distance rounded up as for
    climbing, less the 2" ignored (every drop is read as the activation's first)."""
    return float(max(0, math.ceil(height - 1e-9) - DROP_IGNORED)) if height > 0 else 0.0
