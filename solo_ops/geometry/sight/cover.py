"""Cover and obscuring by the 2024 cover lines: :class:`CoverJob` over visible pairs.

The hull of a point and a convex target base is the base plus the triangle from the point to
the base polygon's two tangent vertices (:class:`_Triangles`), so every question becomes "does
this triangle meet this prepared region" (regions from
:mod:`~solo_ops.geometry.sight.regions`), asked after box and separating-axis prefilters.
:func:`triangle_meets_box` is looked up here at every call: replace it in this module.
"""

from __future__ import annotations

import math
from typing import cast

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from solo_ops.geometry import jit
from solo_ops.geometry.sight.circles import (
    _COVER_COS,
    _COVER_SIN,
    COVER_SAMPLES,
    RING,
    RING_COS,
    RING_SIN,
    TINY_BASE,
    _circle_rings,
    circle_polygons,
    fast_rings,
    samples,
)
from solo_ops.geometry.sight.common import _js
from solo_ops.geometry.sight.regions import _CoverShapes

SMALL_COVER_JOB = 8
"""Cover jobs with at most this many visible pairs try all of the attacker's points at once."""
_SIGNS = np.array([1.0, -1.0])
"""The two tangents of a cover-line triangle (see :meth:`CoverJob.triangles`)."""
NO_OUTLINES = (np.zeros((0, 2)), np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64),
                np.zeros(1, dtype=np.int64))
"""Empty ragged arrays, for the compiled loop of a board whose Heavy outlines it cannot read."""
_NEXT = np.array([1, 2, 0])
"""Each triangle corner's successor (the edges of :func:`triangle_meets_box`)."""
_AROUND = np.arange(-2, 3)
"""Offsets of the base polygon's vertices tried around a tangent's guessed vertex."""


def triangle_meets_box(tri: np.ndarray, box: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Separating-axis test of triangles (n, 3, 2) against axis-aligned boxes (n, 4) whose
    bounding boxes already overlap, so only the triangles' edge normals are left to try:
    (may meet, the answer is clear of rounding ties). Exact for the box itself."""
    cx, cy = (box[:, 0] + box[:, 2]) / 2, (box[:, 1] + box[:, 3]) / 2
    hx, hy = (box[:, 2] - box[:, 0]) / 2, (box[:, 3] - box[:, 1]) / 2
    v0, v1, v2 = tri[:, 0], tri[:, 1], tri[:, 2]
    turn = np.sign((v1[:, 0] - v0[:, 0]) * (v2[:, 1] - v0[:, 1])
                   - (v1[:, 1] - v0[:, 1]) * (v2[:, 0] - v0[:, 0]))
    # The three edges a -> b at once, (n, 3): (v0, v1), (v1, v2), (v2, v0).
    a, b = tri[:, :3], tri[:, _NEXT]
    t = turn[:, None]
    ex, ey = (b[..., 0] - a[..., 0]) * t, (b[..., 1] - a[..., 1]) * t
    # Distance (times the edge length) from each edge, along its outward normal (ey, -ex),
    # to the nearest corner of the box.
    gap = (ey * (cx[:, None] - a[..., 0]) - ex * (cy[:, None] - a[..., 1])
           - (np.abs(ey) * hx[:, None] + np.abs(ex) * hy[:, None]))
    scale = np.hypot(ex, ey) * 1e-9
    apart = (gap > 0).any(axis=1)  # some axis separates them
    clearly = (gap > scale).any(axis=1)  # ... by a clear margin
    tie = (turn == 0) | (np.abs(gap) <= scale).any(axis=1)  # some axis too close to call
    return ~apart, clearly | ~tie


class CoverJob:
    """One cover computation over a set of visible (attacker, target) pairs ``(pi[k], pj[k])``.

    Regions are per feature: for cover, a cover-giving feature's part within 1" of a target but
    outside its base; for obscuring, a Heavy feature's part more than 1" from both bases of a
    pair. Any region meeting a cover-line triangle settles the question for that triangle.
    """

    def __init__(self, sight: _CoverShapes, A: np.ndarray, ra: np.ndarray, B: np.ndarray,
                 rb: np.ndarray, pi: np.ndarray, pj: np.ndarray, cover_use: np.ndarray) -> None:
        self.s = sight
        self.A, self.ra, self.B, self.rb = A, ra, B, rb
        self.pi, self.pj = pi, pj
        self.t_radius = np.maximum(rb, TINY_BASE)
        self._near_a: np.ndarray | None = None
        self._have_a = np.zeros(0, dtype=bool)
        # Cover needs the bases more than 2" apart.
        gap = np.hypot(*(A[pi] - B[pj]).T) - ra[pi] - rb[pj]
        self.cover_ok = gap > 2.0
        self.cover_use = cover_use
        self._obscure_regions: dict[tuple[int, int], BaseGeometry] = {}

    def near_t(self, j: np.ndarray) -> np.ndarray:
        """The 1" zone around the base of each target ``j`` (a polygon as the reference's)."""
        return self.s._circles(self.B[j], self.rb[j] + 1.0)

    def near_a(self, i: np.ndarray) -> np.ndarray:
        """The 1" zone around the base of each attacker ``i``, built once per attacker a job
        needs (attackers are often many candidate points, few of them near Heavy terrain)."""
        if self._near_a is None:
            self._near_a = np.empty(len(self.A), dtype=object)
            self._have_a = np.zeros(len(self.A), dtype=bool)
        need = np.unique(i[~self._have_a[i]])
        if len(need):
            made = circle_polygons(self.A[need], self.ra[need] + 1.0)
            self._near_a[need] = made
            self._have_a[need] = True
        return cast(np.ndarray, self._near_a[i])

    def tdisc_coords(self, j: np.ndarray) -> np.ndarray:
        """(len(j), RING, 2): the vertices of the base polygon of each target ``j`` (as the
        reference's)."""
        return _circle_rings(self.B[j], self.t_radius[j])[:, :RING]

    def cover_regions(self, targets: np.ndarray) -> None:
        """Build, for the given targets, the regions where cover-giving terrain would put them
        in cover: ``self.c_start[j]:self.c_start[j + 1]`` index ``self.c_regions``."""
        nt = len(self.B)
        self.c_regions = np.zeros(0, dtype=object)
        self.c_bounds = np.zeros((0, 4))
        self.c_start = np.zeros(nt + 1, dtype=np.intp)
        if len(targets) == 0 or not self.cover_use.any():
            return
        per_target = self.s._cover_regions_of(self.B[targets], self.rb[targets],
                                              self.t_radius[targets], self.cover_use)
        counts = np.zeros(nt, dtype=np.intp)
        counts[targets] = [len(r) for r in per_target]
        if counts.sum() == 0:
            return
        self.c_regions = np.concatenate(per_target)  # targets come sorted (np.unique)
        self.c_start[1:] = np.cumsum(counts)
        self.c_bounds = shapely.bounds(self.c_regions)  # (minx, miny, maxx, maxy), exact

    def _heavy_near(self) -> np.ndarray:
        """(pairs,) whether any Heavy feature's box meets the box around the pair's bases."""
        hb = self.s.heavy_box
        if len(hb) == 0:
            return np.zeros(len(self.pi), dtype=bool)
        a, b = self.A[self.pi], self.B[self.pj]
        r_a, r_b = self.ra[self.pi], self.t_radius[self.pj]
        lo_x = np.minimum(a[:, 0] - r_a, b[:, 0] - r_b)[:, None]
        hi_x = np.maximum(a[:, 0] + r_a, b[:, 0] + r_b)[:, None]
        lo_y = np.minimum(a[:, 1] - r_a, b[:, 1] - r_b)[:, None]
        hi_y = np.maximum(a[:, 1] + r_a, b[:, 1] + r_b)[:, None]
        return ((lo_x <= hb[:, 2]) & (hi_x >= hb[:, 0])
                & (lo_y <= hb[:, 3]) & (hi_y >= hb[:, 1])).any(axis=1)

    def run(self) -> tuple[np.ndarray, np.ndarray]:
        """(obscured, in_cover) for every pair, the attacker choosing its best point."""
        npairs = len(self.pi)
        heavy_near = self._heavy_near()
        self.cover_regions(np.unique(self.pj[self.cover_ok]))
        counts = np.diff(self.c_start)
        cover_near = self.cover_ok & (counts[self.pj] > 0)
        # Best (obscured, in cover) so far, as 2 * obscured + in_cover (lower suits the attacker).
        best = np.zeros(npairs, dtype=np.int8)
        todo = np.flatnonzero(heavy_near | cover_near)
        if len(todo) == 0:
            return best >= 2, best % 2 == 1
        # The answer is the best of the attacker's centre and the 16 points of its base edge.
        # A few pairs: all 17 at once (each round of questions has a fixed cost). Many: first
        # the centre; then, where that leaves the target obscured or in cover, four points of
        # the edge, and the rest only if still needed (a point that leaves the target neither
        # obscured nor in cover is the best there is).
        if len(todo) <= SMALL_COVER_JOB:
            pts = samples(self.A[self.pi[todo]], self.ra[self.pi[todo]], _COVER_COS,
                          _COVER_SIN)
            rep = np.repeat(todo, COVER_SAMPLES + 1)
            obs, cov = self._evaluate(rep, pts.reshape(-1, 2), heavy_near, cover_near)
            key = (2 * obs + cov).astype(np.int8).reshape(len(todo), COVER_SAMPLES + 1)
            best[todo] = key.min(axis=1)
            return best >= 2, best % 2 == 1
        obs, cov = self._evaluate(todo, self.A[self.pi[todo]], heavy_near, cover_near)
        best[todo] = 2 * obs + cov
        edge = samples(self.A, self.ra, _COVER_COS, _COVER_SIN)[:, 1:]
        quarter = COVER_SAMPLES // 4
        first = np.arange(0, COVER_SAMPLES, quarter)
        for group in (first, np.setdiff1d(np.arange(COVER_SAMPLES), first)):
            todo = todo[(best[todo] > 0) & (self.ra[self.pi[todo]] > 0)]
            if len(todo) == 0:
                break
            pts = edge[self.pi[todo]][:, group]
            rep = np.repeat(todo, len(group))
            obs, cov = self._evaluate(rep, pts.reshape(-1, 2), heavy_near, cover_near)
            key = (2 * obs + cov).astype(np.int8).reshape(len(todo), len(group))
            best[todo] = np.minimum(best[todo], key.min(axis=1))
        return best >= 2, best % 2 == 1

    def _evaluate(self, pairs: np.ndarray, points: np.ndarray, heavy_near: np.ndarray,
                  cover_near: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(obscured, in_cover) of the cover lines from ``points[n]`` to pair ``pairs[n]``'s
        target."""
        n = len(pairs)
        obs = np.zeros(n, dtype=bool)
        cov = np.zeros(n, dtype=bool)
        j = self.pj[pairs]
        c = self.B[j]
        rel = points - c
        d = np.hypot(rel[:, 0], rel[:, 1])
        # Inside the target's 1" zone the whole hull is in that zone: neither applies.
        outside = d >= (self.rb[j] + 1.0) * math.cos(math.pi / RING) * (1 - 1e-9)
        live = np.flatnonzero(outside & (heavy_near[pairs] | cover_near[pairs]))
        if len(live) == 0:
            return obs, cov
        tri = _Triangles(self.triangles(points[live], c[live], self.t_radius[j[live]],
                                        j[live], d[live]))
        hv = np.flatnonzero(heavy_near[pairs[live]])
        if len(hv):
            obs[live[hv]] = self._obscured(tri, hv, pairs[live[hv]])
        cv = np.flatnonzero(cover_near[pairs[live]])
        if len(cv):
            jj = j[live[cv]]
            if jit.ENABLED:  # the same box tests, pair by pair in one call
                rep, idx = _js.cover_candidates(tri.ring, cv, jj, self.c_start, self.c_bounds)
                if len(rep):
                    hit = shapely.intersects(self.c_regions[idx], tri.polygons(cv[rep]))
                    cov[live[cv]] = np.bincount(rep[hit], minlength=len(cv)) > 0
                return obs, cov
            counts = self.c_start[jj + 1] - self.c_start[jj]
            rep = np.repeat(np.arange(len(cv)), counts)
            idx = np.repeat(self.c_start[jj] - np.cumsum(counts) + counts, counts)
            idx += np.arange(len(rep))
            # A triangle clearly apart from a region's bounding box misses the region: by
            # the boxes, then by the triangle's edges (exact for the box, ties left to shapely);
            # shapely answers the rest (about 40% of the pairs in a mission).
            corners = tri.ring[cv[rep], :3]
            lo, hi = corners.min(axis=1), corners.max(axis=1)
            bnd = self.c_bounds[idx]
            ask = ((lo[:, 0] <= bnd[:, 2]) & (hi[:, 0] >= bnd[:, 0])
                   & (lo[:, 1] <= bnd[:, 3]) & (hi[:, 1] >= bnd[:, 1]))
            near = np.flatnonzero(ask)
            meets, sure = triangle_meets_box(corners[near], bnd[near])
            ask[near] = meets | ~sure
            hit = np.zeros(len(rep), dtype=bool)
            hit[ask] = shapely.intersects(self.c_regions[idx[ask]], tri.polygons(cv[rep[ask]]))
            cov[live[cv]] = np.bincount(rep[hit], minlength=len(cv)) > 0
        return obs, cov

    def _obscured(self, tris: _Triangles, sub: np.ndarray, pairs: np.ndarray
                  ) -> np.ndarray:
        """(n,) whether Heavy terrain meets triangle ``sub[n]`` of ``tris`` more than 1" from
        both bases of pair ``pairs[n]``."""
        out = np.zeros(len(sub), dtype=bool)
        # The features whose boxes meet each triangle's box (as the tree of the features'
        # boxes would give them; empty features have NaN boxes and meet none); a
        # separating-axis test of each triangle against the feature's box (exact for
        # box-shaped features); shapely for the rest.
        corners = tris.ring[sub, :3]
        if jit.ENABLED:
            ti, fi, k = self._heavy_met(tris, sub, pairs, corners, out)
        else:
            hb = self.s.heavy_box
            lo, hi = corners.min(axis=1), corners.max(axis=1)
            ti, fi = np.nonzero((lo[:, 0:1] <= hb[:, 2]) & (hi[:, 0:1] >= hb[:, 0])
                                & (lo[:, 1:2] <= hb[:, 3]) & (hi[:, 1:2] >= hb[:, 1]))
            meets, sure = triangle_meets_box(corners[ti], hb[fi])
            sure &= self.s.heavy_is_box[fi]
            ask = np.flatnonzero(meets & ~sure)
            if len(ask):
                meets[ask] = shapely.intersects(self.s.heavy_parts[fi[ask]],
                                                tris.polygons(sub[ti[ask]]))
            ti, fi = ti[meets], fi[meets]
            k = pairs[ti]
        if len(ti) == 0:
            return out
        # Whether each feature reaches into either 1" zone, once per (pair, feature).
        nf = len(self.s.heavy_parts)
        uniq, back = np.unique(k * nf + fi, return_inverse=True)
        uk, uf = uniq // nf, uniq % nf
        tj = self.pj[uk]
        touch = self.s.zones_touch(self.B[tj], self.rb[tj] + 1.0, uf)
        ask = np.flatnonzero(~touch)  # the attacker's zone only where the target's misses
        ai = self.pi[uk[ask]]
        touch[ask] = self.s.zones_touch(self.A[ai], self.ra[ai] + 1.0, uf[ask],
                                        keep_circles=False)
        clean = ~touch[back.ravel()]
        out[ti[clean]] = True
        rest = np.flatnonzero(~clean & ~out[ti])
        if len(rest) == 0:
            return out
        keys = list(zip(k[rest].tolist(), fi[rest].tolist(), strict=True))
        missing = sorted({key for key in keys if key not in self._obscure_regions})
        if missing:
            mk = np.array([m[0] for m in missing], dtype=np.intp)
            mf = np.array([m[1] for m in missing], dtype=np.intp)
            regions = shapely.difference(self.s.heavy_parts[mf], self.near_t(self.pj[mk]))
            regions = shapely.difference(regions, self.near_a(self.pi[mk]))
            shapely.prepare(regions)
            self._obscure_regions.update(zip(missing, regions, strict=True))
        regions = np.array([self._obscure_regions[key] for key in keys], dtype=object)
        hit = shapely.intersects(regions, tris.polygons(sub[ti[rest]]))
        out[ti[rest[hit]]] = True
        return out

    def _heavy_met(self, tris: _Triangles, sub: np.ndarray, pairs: np.ndarray,
                   corners: np.ndarray, out: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The first stages of :meth:`_obscured` by the compiled loop: the (triangle, feature,
        pair) of each Heavy feature a triangle meets, less the triangles ``out`` marks as
        obscured already. With the features' outlines, most are settled edge by edge, and most
        triangles meeting a feature far from both 1" zones, where the feature less the zones
        is the feature itself, by a point of its outline in the triangle clearly outside both
        zones (with no zone test and no region built); shapely decides the rest."""
        tj, ai = self.pj[pairs], self.pi[pairs]
        zt = np.column_stack([self.B[tj], self.rb[tj] + 1.0])
        za = np.column_stack([self.A[ai], self.ra[ai] + 1.0])
        rag = self.s.heavy_ragged
        ti, fi, meets, sure, seen = _js.heavy_candidates(
            corners, self.s.heavy_box, self.s.heavy_is_box, zt, za,
            *(NO_OUTLINES if rag is None else rag), rag is not None)
        ask = np.flatnonzero(meets & ~sure)
        if len(ask):
            meets[ask] = shapely.intersects(self.s.heavy_parts[fi[ask]],
                                            tris.polygons(sub[ti[ask]]))
            met = ask[meets[ask]]
            if len(met) and rag is not None:  # the witness of a triangle shapely settled
                found = _js.obscure_witness(corners[ti[met]], fi[met], zt[ti[met]],
                                            za[ti[met]], *rag)
                seen[ti[met[found]]] = True
        out[seen] = True
        keep = meets & ~seen[ti]
        ti, fi = ti[keep], fi[keep]
        return ti, fi, pairs[ti]

    def triangles(self, p: np.ndarray, c: np.ndarray, r: np.ndarray, j: np.ndarray,
                  d: np.ndarray) -> np.ndarray:
        """Triangles from each point ``p`` to the two tangent vertices of its target's base
        polygon (with the base they make the cover lines' hull): their closed rings
        (n, 4, 2), the point first."""
        step = 2 * math.pi / RING
        phi = np.arctan2(p[:, 1] - c[:, 1], p[:, 0] - c[:, 0])
        half = np.arccos(np.clip(r / d, -1.0, 1.0))
        if fast_rings():  # the vertices straight from the table, no polygon needed
            if jit.ENABLED:  # the same arithmetic vertex by vertex (numpy's angles)
                return cast(np.ndarray, _js.cover_triangles(
                    np.ascontiguousarray(p), np.ascontiguousarray(c), r, phi, half, step,
                    RING, RING_COS, RING_SIN))
            verts = None
        else:
            uj, inv = np.unique(j, return_inverse=True)
            verts = self.tdisc_coords(uj).reshape(-1, 2)
            base = (inv.ravel() * RING)[:, None]
        n = len(p)
        tx, ty = (c - p)[:, 0:1, None], (c - p)[:, 1:2, None]
        # Both tangents at once, axis 1 the sign (+, -): base polygon vertex m sits at angle
        # -m * step; look around the true tangent.
        guess = np.rint(-(phi[:, None] + _SIGNS * half[:, None]) / step).astype(int)  # (n, 2)
        cand = (guess[:, :, None] + _AROUND) % RING  # (n, 2, 5)
        if verts is None:
            v = np.empty((*cand.shape, 2))  # (n, 2, 5, 2), as ring_coords computes them
            v[..., 0] = c[:, 0:1, None] + r[:, None, None] * RING_COS[cand]
            v[..., 1] = c[:, 1:2, None] + r[:, None, None] * RING_SIN[cand]
        else:
            v = verts[base[:, :, None] + cand]  # (n, 2, 5, 2)
        wx, wy = v[..., 0] - p[:, None, None, 0], v[..., 1] - p[:, None, None, 1]
        # tan of the angle between p->c and p->vertex; the tangent vertex has the largest.
        tan = (tx * wy - ty * wx) / (tx * wx + ty * wy)
        pick = np.argmax(np.abs(tan), axis=2)  # (n, 2)
        rows = np.arange(n)[:, None]
        corners = v[rows, np.arange(2)[None, :], pick]  # (n, 2, 2)
        ring = np.empty((n, 4, 2))
        ring[:, 0] = p
        ring[:, 1:3] = corners
        ring[:, 3] = p
        return ring


class _Triangles:
    """Cover-line triangles by their rings, made into shapely polygons only where a question
    needs one (most are settled by box tests alone)."""

    def __init__(self, ring: np.ndarray) -> None:
        self.ring = ring
        self._polys = np.empty(len(ring), dtype=object)
        self._made = np.zeros(len(ring), dtype=bool)

    def polygons(self, idx: np.ndarray) -> np.ndarray:
        """The polygons of triangles ``idx`` (an object array, built on first use)."""
        need = np.unique(idx[~self._made[idx]])
        if len(need):
            self._polys[need] = shapely.polygons(self.ring[need])
            self._made[need] = True
        return cast(np.ndarray, self._polys[idx])
