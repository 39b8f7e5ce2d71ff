"""Base-to-base visibility: :class:`_BaseToBase`, the staged search behind Sight's matrices.

Two bases see each other when some segment between their sample points is clear. The stages,
cheapest first (the order changes only the time): the centre-to-centre segment; the proof
that one blocker edge cuts across the whole hull of both bases (:meth:`cut_off`); the two
probes parallel to the centre line; then every sample pair not provably cut
(:meth:`points_cut_off`). A few pairs run the first stages in Python floats
(:data:`SCALAR_PAIRS`, :class:`~solo_ops.geometry.sight.scalar.Scalar`). Answers are
remembered per exact pair. The tunable :data:`DIRECT_EDGES` lives here and is read from here.
"""

from __future__ import annotations

import math
from typing import cast

import numpy as np

from solo_ops.geometry import jit
from solo_ops.geometry.sight.blockers import NEAR, SEPARATE_MARGIN
from solo_ops.geometry.sight.circles import (
    BASE_COS,
    BASE_SAMPLES,
    BASE_SIN,
    SHRINK,
    STEP,
    samples,
)
from solo_ops.geometry.sight.common import VIS_MEMO_LIMIT, _js, _row_keys
from solo_ops.geometry.sight.lines import _SightLines

DIRECT_EDGES = 1024
"""Cut-off tests of at most this many (pair, blocker edge) combinations work on every
combination at once (:meth:`Sight.cut_off_dense`)."""
_BASE_COS, _BASE_SIN = np.array(BASE_COS), np.array(BASE_SIN)
"""The base samples' cosines and sines as arrays, for the compiled loop."""
SCALAR_PAIRS = 10
"""Visibility computations of at most this many base pairs run their first stages (centre
segment, single-edge cut-off, the two probes) pair by pair in plain Python floats
(:class:`Scalar`): for so few pairs the fixed cost of each numpy call outweighs the work."""


class _BaseToBase(_SightLines):
    """Visibility of base pairs given by centres and radii (memo ``_vis_memo`` made by
    :class:`~solo_ops.geometry.sight.query.Sight`)."""

    _vis_memo: dict[bytes, bool]

    def _visible_rows(self, rows: np.ndarray, keys: list[bytes] | None = None) -> np.ndarray:
        """(m,) visibility of m base pairs given by centres and radii, remembered per pair.

        A pair's answer depends only on its own centres and radii (never on the other pairs of
        the batch), so answers are kept per :class:`Sight` keyed by the exact bits of the six
        numbers, and only the pairs not seen before are computed. The engine asks the same
        pairs again and again: spotting after every move, the cover of the same targets from
        many candidate points, the planner's and the autopilot's questions. ``keys``: the rows'
        :func:`_row_keys` when the caller has them already."""
        m = len(rows)
        a, ra, b, rb = rows[:, 0:2], rows[:, 2], rows[:, 3:5], rows[:, 5]
        if m == 0 or self.pieces.count == 0:
            return self.compute_visible_pairs(a, ra, b, rb)
        if keys is None:
            keys = _row_keys(rows)
        memo = self._vis_memo
        known = [memo.get(k) for k in keys]
        miss = [i for i, v in enumerate(known) if v is None]
        if not miss:
            return np.array(known, dtype=bool)
        if len(miss) == m:
            vis = self.compute_visible_pairs(a, ra, b, rb)
            fresh = vis.tolist()
        else:
            idx = np.array(miss, dtype=np.intp)
            fresh = self.compute_visible_pairs(a[idx], ra[idx], b[idx], rb[idx]).tolist()
            for i, v in zip(miss, fresh, strict=True):
                known[i] = v
            vis = np.array(known, dtype=bool)
        if len(memo) + len(miss) > VIS_MEMO_LIMIT:
            memo.clear()
        memo.update(zip([keys[i] for i in miss], fresh, strict=True))
        return vis

    def compute_visible_pairs(self, a: np.ndarray, ra: np.ndarray, b: np.ndarray,
                              rb: np.ndarray) -> np.ndarray:
        """(m,) visibility of m base pairs given by centres and radii (no memo)."""
        m = len(a)
        vis = np.zeros(m, dtype=bool)
        if m == 0:
            return vis
        if self.pieces.count == 0:
            vis[:] = True
            return vis
        if jit.ENABLED:
            return self._compiled_visible_pairs(a, ra, b, rb)
        return self.numpy_visible_pairs(a, ra, b, rb)

    def _compiled_visible_pairs(self, a: np.ndarray, ra: np.ndarray, b: np.ndarray,
                                rb: np.ndarray) -> np.ndarray:
        """:meth:`compute_visible_pairs` by the compiled loop (every stage of a pair in one
        call: the same segments, the same tests); the rare pair with a segment too close to call
        and none surely clear goes the numpy way, shapely deciding."""
        sc = self.scalar
        a, b = np.ascontiguousarray(a, dtype=float), np.ascontiguousarray(b, dtype=float)
        ra, rb = np.ascontiguousarray(ra, dtype=float), np.ascontiguousarray(rb, dtype=float)
        with np.errstate(invalid="ignore"):
            phi = np.arctan2(b[:, 1] - a[:, 1], b[:, 0] - a[:, 0])  # numpy's angles
        code = _js.visible_pairs(a, ra, b, rb, phi, sc.boxes, sc.sides, sc.counts, NEAR,
                                 sc.edge_rows, SEPARATE_MARGIN, _BASE_COS, _BASE_SIN, SHRINK,
                                 STEP)
        vis = code == 1
        left = np.flatnonzero(code < 0)
        if len(left):
            vis[left] = self.numpy_visible_pairs(a[left], ra[left], b[left], rb[left])
        return vis

    def numpy_visible_pairs(self, a: np.ndarray, ra: np.ndarray, b: np.ndarray,
                             rb: np.ndarray) -> np.ndarray:
        """:meth:`compute_visible_pairs` by the numpy stages (the centre segments, the
        cut-offs, the probes, every sample segment; the other kernels when on): what the
        compiled loop is checked against, and how it answers a pair it cannot settle."""
        if len(a) <= SCALAR_PAIRS:
            return self._few_visible_pairs(a, ra, b, rb)
        vis = self.clear(a, b)
        todo = np.flatnonzero(~vis & ((ra > 0) | (rb > 0)))
        if len(todo) == 0:
            return vis
        todo = todo[~self.cut_off(a[todo], ra[todo], b[todo], rb[todo])]
        if len(todo) == 0:
            return vis
        return self._probe_and_sample(vis, todo, a, ra, b, rb)

    def _few_visible_pairs(self, a: np.ndarray, ra: np.ndarray, b: np.ndarray,
                           rb: np.ndarray) -> np.ndarray:
        """:meth:`compute_visible_pairs` of a few pairs: the centre segment, the single-edge
        cut-off and the two probes pair by pair in Python floats (:class:`Scalar`), then the
        sample segments of the pairs still open as for many pairs."""
        m = len(a)
        vis = np.zeros(m, dtype=bool)
        scalar = self.scalar
        open_: list[int] = []
        for i, (ax, ay, r0, bx, by, r1) in enumerate(zip(
                a[:, 0].tolist(), a[:, 1].tolist(), ra.tolist(), b[:, 0].tolist(),
                b[:, 1].tolist(), rb.tolist(), strict=True)):
            if self.clear_one(ax, ay, bx, by):
                vis[i] = True
                continue
            if not (r0 > 0 or r1 > 0) or scalar.cut_off(ax, ay, r0, bx, by, r1):
                continue
            # The probes: the sample segments parallel to the centre line (see
            # _probe_and_sample; the same sample points, in the same floats).
            phi = float(np.arctan2(by - ay, bx - ax))
            for side in (phi + math.pi / 2, phi - math.pi / 2):
                k = round(side / STEP) % BASE_SAMPLES  # halves to even, as np.rint
                cos, sin = BASE_COS[k], BASE_SIN[k]
                if self.clear_one(ax + r0 * cos * SHRINK, ay + r0 * sin * SHRINK,
                                  bx + r1 * cos * SHRINK, by + r1 * sin * SHRINK):
                    vis[i] = True
                    break
            else:
                open_.append(i)
        if open_:
            todo = np.array(open_, dtype=np.intp)
            vis[todo] = self._sample_all(a[todo], ra[todo], b[todo], rb[todo])
        return vis

    def _probe_and_sample(self, vis: np.ndarray, todo: np.ndarray, a: np.ndarray,
                          ra: np.ndarray, b: np.ndarray, rb: np.ndarray) -> np.ndarray:
        """The last stages of :meth:`compute_visible_pairs` for pairs ``todo`` (neither seen
        along the centre line nor cut off): the two probes, then every sample segment."""
        sa = samples(a[todo], ra[todo], BASE_COS, BASE_SIN)
        sb = samples(b[todo], rb[todo], BASE_COS, BASE_SIN)
        # Probes first: the two sample segments parallel to the centre line, one on each side
        # (where the end of a wall hides the centres, one of them usually passes it). The
        # answer is whether any sample segment is clear, so the order they are tried in
        # changes nothing but the time.
        k = len(todo)
        d = b[todo] - a[todo]
        phi = np.arctan2(d[:, 1], d[:, 0])
        side = np.concatenate([phi + math.pi / 2, phi - math.pi / 2])
        col = np.rint(side / STEP).astype(np.intp) % BASE_SAMPLES + 1
        row = np.tile(np.arange(k), 2)
        ok = self.clear(sa[row, col], sb[row, col])
        seen = np.bincount(row[ok], minlength=k) > 0
        vis[todo[seen]] = True
        todo = todo[~seen]
        if len(todo) == 0:
            return vis
        vis[todo] = self._sample_all(a[todo], ra[todo], b[todo], rb[todo], sa[~seen],
                                     sb[~seen])
        return vis

    def _sample_all(self, a: np.ndarray, ra: np.ndarray, b: np.ndarray, rb: np.ndarray,
                    sa: np.ndarray | None = None, sb: np.ndarray | None = None
                    ) -> np.ndarray:
        """(k,) whether some sample segment of each pair is clear (every pair of sample
        points, skipping those one blocker edge provably cuts); ``sa`` / ``sb`` are the pairs'
        sample points when already made."""
        if sa is None or sb is None:
            sa = samples(a, ra, BASE_COS, BASE_SIN)
            sb = samples(b, rb, BASE_COS, BASE_SIN)
        # Then every sample segment, skipping those one blocker edge provably cuts: from a
        # sample point of one base to the whole of the other base. (Most pairs left here are
        # blind, so a coarse pass first would only add work.)
        k = len(a)
        cut = self.points_cut_off(np.concatenate([sa, sb]), np.concatenate([b, a]),
                                  np.concatenate([rb, ra]))
        need = ~cut[:k, :, None] & ~cut[k:, None, :]
        pk, pa, pb = np.nonzero(need)
        ok = self.clear(sa[pk, pa], sb[pk, pb])
        return np.bincount(pk[ok], minlength=k) > 0

    def cut_off(self, a: np.ndarray, ra: np.ndarray, b: np.ndarray, rb: np.ndarray,
                group: int = 1) -> np.ndarray:
        """(m,) True where one blocker edge provably crosses every segment between the two
        bases: the bases lie on opposite sides of the edge's line and the edge spans the whole
        hull of the two bases where it meets that line. Rows come in runs of ``group`` that lie
        close together (one pair's sample points), which share a bounding-box prefilter."""
        e = self.edges
        m = len(a)
        out = np.zeros(m, dtype=bool)
        if len(e.x0) == 0 or m == 0:
            return out
        if jit.ENABLED:  # pair by pair: the box test is only a filter, the numbers the same
            return cast(np.ndarray, _js.cut_off_many(a, ra, b, rb, self.scalar.edge_rows,
                                                     SEPARATE_MARGIN))
        if group == 1 and m * len(e.x0) <= DIRECT_EDGES:
            return self.cut_off_dense(a, ra, b, rb)
        marg = SEPARATE_MARGIN
        # Only edges whose box meets the box around a run's bases can cut them off.
        lo = np.minimum(a - ra[:, None], b - rb[:, None]).reshape(m // group, group, 2).min(1)
        hi = np.maximum(a + ra[:, None], b + rb[:, None]).reshape(m // group, group, 2).max(1)
        near = ((lo[:, 0:1] <= e.maxx) & (hi[:, 0:1] >= e.minx)
                & (lo[:, 1:2] <= e.maxy) & (hi[:, 1:2] >= e.miny))
        gi, ei = np.nonzero(near)
        pi = (gi[:, None] * group + np.arange(group)).ravel()
        ei = np.repeat(ei, group)
        # Signed distances of the two centres from each edge's line.
        enx, eny, eoff = e.nx[ei], e.ny[ei], e.offset[ei]
        sa = a[pi, 0] * enx + a[pi, 1] * eny - eoff
        sb = b[pi, 0] * enx + b[pi, 1] * eny - eoff
        r0, r1 = ra[pi] + marg, rb[pi] + marg
        split = ((sa > r0) & (sb < -r1)) | ((sa < -r0) & (sb > r1))
        pi, ei = pi[split], ei[split]
        if len(pi) == 0:
            return out
        # The two outer common tangents of each row's bases are worked out once per row (a
        # row meets many edges), then each edge is met with them.
        need = np.zeros(m, dtype=bool)
        need[pi] = True
        rows = np.flatnonzero(need)
        back = (np.cumsum(need) - 1)[pi]
        ax, ay, bx, by = a[rows, 0], a[rows, 1], b[rows, 0], b[rows, 1]
        r0, r1 = ra[rows], rb[rows]
        dx, dy = bx - ax, by - ay
        dist = np.hypot(dx, dy)
        ux, uy = dx / dist, dy / dist
        alpha = (r1 - r0) / dist
        beta = np.sqrt(np.maximum(0.0, 1.0 - alpha * alpha))
        ex0, ey0 = e.x0[ei], e.y0[ei]
        tdx, tdy = e.tdx[ei], e.tdy[ei]
        ok = np.ones(len(pi), dtype=bool)
        for sign in (1.0, -1.0):
            # The outer common tangent with unit normal m: m.x >= k on the hull's side.
            mx = alpha * ux - sign * beta * uy
            my = alpha * uy + sign * beta * ux
            k = mx * ax + my * ay - r0
            mx, my, k = mx[back], my[back], k[back]
            denom = mx * tdx + my * tdy
            with np.errstate(divide="ignore", invalid="ignore"):
                t = (k - (mx * ex0 + my * ey0)) / denom
            ok &= np.isfinite(t) & (t > marg) & (t < e.length[ei] - marg)
        out[pi[ok]] = True
        return out

    def cut_off_dense(self, a: np.ndarray, ra: np.ndarray, b: np.ndarray, rb: np.ndarray
                      ) -> np.ndarray:
        """:meth:`cut_off` of a few pairs (``group`` 1), worked out for every (pair, edge) at
        once as (pair, edge) arrays: the same numbers for the pairs the box and side tests
        keep, with fewer numpy calls than picking those pairs out first."""
        e = self.edges
        marg = SEPARATE_MARGIN
        ax, ay, bx, by = a[:, 0:1], a[:, 1:2], b[:, 0:1], b[:, 1:2]
        ra1, rb1 = ra[:, None], rb[:, None]
        lo_x, lo_y = np.minimum(ax - ra1, bx - rb1), np.minimum(ay - ra1, by - rb1)
        hi_x, hi_y = np.maximum(ax + ra1, bx + rb1), np.maximum(ay + ra1, by + rb1)
        ok = (lo_x <= e.maxx) & (hi_x >= e.minx) & (lo_y <= e.maxy) & (hi_y >= e.miny)
        sa = ax * e.nx + ay * e.ny - e.offset
        sb = bx * e.nx + by * e.ny - e.offset
        r0, r1 = ra1 + marg, rb1 + marg
        ok &= ((sa > r0) & (sb < -r1)) | ((sa < -r0) & (sb > r1))
        if not ok.any():
            return np.zeros(len(a), dtype=bool)
        dx, dy = bx - ax, by - ay
        dist = np.hypot(dx, dy)
        with np.errstate(divide="ignore", invalid="ignore"):  # pairs with one centre: no edge
            ux, uy = dx / dist, dy / dist
            alpha = (rb1 - ra1) / dist
            beta = np.sqrt(np.maximum(0.0, 1.0 - alpha * alpha))
            for sign in (1.0, -1.0):
                mx = alpha * ux - sign * beta * uy
                my = alpha * uy + sign * beta * ux
                k = mx * ax + my * ay - ra1
                denom = mx * e.tdx + my * e.tdy
                t = (k - (mx * e.x0 + my * e.y0)) / denom
                ok &= np.isfinite(t) & (t > marg) & (t < e.length - marg)
        return cast(np.ndarray, ok.any(axis=1))

    def points_cut_off(self, pts: np.ndarray, c: np.ndarray, r: np.ndarray) -> np.ndarray:
        """(k, n) True where one blocker edge provably crosses every segment from the point
        ``pts[g, i]`` to the whole base of radius ``r[g]`` at ``c[g]``: :meth:`cut_off` of
        each point (radius 0) and its group's base, the same numbers computed once per group
        where they do not depend on the point."""
        e = self.edges
        k, n = pts.shape[0], pts.shape[1]
        out = np.zeros((k, n), dtype=bool)
        if len(e.x0) == 0 or k == 0:
            return out
        if jit.ENABLED:  # point by point, as cut_off of a base of radius 0
            return cast(np.ndarray, _js.points_cut_off(pts, c, r, self.scalar.edge_rows,
                                                       SEPARATE_MARGIN))
        marg = SEPARATE_MARGIN
        # Only edges whose box meets the box around a group's points and base can cut them off.
        lo = np.minimum(pts.min(axis=1), c - r[:, None])
        hi = np.maximum(pts.max(axis=1), c + r[:, None])
        near = ((lo[:, 0:1] <= e.maxx) & (hi[:, 0:1] >= e.minx)
                & (lo[:, 1:2] <= e.maxy) & (hi[:, 1:2] >= e.miny))
        gi, ei = np.nonzero(near)
        # The base's centre must lie clear of the edge's line (by its radius) for any point of
        # the group to be split from it: a test per (group, edge), before the points.
        sb = c[gi, 0] * e.nx[ei] + c[gi, 1] * e.ny[ei] - e.offset[ei]
        r1 = r[gi] + marg
        below, above = sb < -r1, sb > r1
        keep = np.flatnonzero(below | above)
        if len(keep) == 0:
            return out
        gi, ei, below, above = gi[keep], ei[keep], below[keep], above[keep]
        # (point, group-edge) arrays (points across, so that numpy's inner loops run along
        # the long axis): each point's signed distance from the edge's line, then whether the
        # edge crosses both tangents from the point to its base strictly inside itself (the
        # tangents worked out once per point, their columns taken per edge).
        px, py = np.ascontiguousarray(pts.T[0]), np.ascontiguousarray(pts.T[1])
        sa = px[:, gi] * e.nx[ei] + py[:, gi] * e.ny[ei] - e.offset[ei]
        ok = ((sa > marg) & below) | ((sa < -marg) & above)
        with np.errstate(divide="ignore", invalid="ignore"):  # a point on the centre: NaNs
            dx, dy = c[:, 0] - px, c[:, 1] - py
            dist = np.hypot(dx, dy)
            ux, uy = dx / dist, dy / dist
            alpha = r / dist
            beta = np.sqrt(np.maximum(0.0, 1.0 - alpha * alpha))
            ex0, ey0, tdx, tdy = e.x0[ei], e.y0[ei], e.tdx[ei], e.tdy[ei]
            top = e.length[ei] - marg
            for sign in (1.0, -1.0):
                mx = alpha * ux - sign * beta * uy
                my = alpha * uy + sign * beta * ux
                kk = mx * px + my * py
                mx, my, kk = mx[:, gi], my[:, gi], kk[:, gi]
                denom = mx * tdx + my * tdy
                t = (kk - (mx * ex0 + my * ey0)) / denom
                # (an infinite or NaN t fails one comparison or both)
                ok &= t > marg
                ok &= t < top
        # a point is cut off when one of its group's edges cuts it (gi comes sorted)
        counts = np.bincount(gi, minlength=k)
        groups = np.flatnonzero(counts)
        first = np.cumsum(counts[groups]) - counts[groups]
        out[groups] = np.logical_or.reduceat(ok, first, axis=1).T
        return out
