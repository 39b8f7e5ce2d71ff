"""Single distances on the measuring graph: :class:`PairQuery`, the graph precomputed so
that one query between two points is a few dense array operations (each point's part
remembered, at most :data:`POINT_LIMIT` points, read from this module at every use).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from solo_ops.geometry import jit
from solo_ops.geometry.routes.common import END, TOL, Point2, jd, unit_vectors
from solo_ops.geometry.routes.graph import Graph, side_table
from solo_ops.geometry.routes.rings import wedge_enters

POINT_LIMIT = 512  # points whose measuring rows a Routes keeps for single distances (bound)


class PairQuery:
    """The measuring graph precomputed for fast single queries between two points.

    Every per-query quantity that is bilinear in the query point is split into a static table
    and a cheap per-query term: ``cross(T - x, U - x) = cross(T, U) - cross(T, x) - cross(x, U)``
    for corners T and obstacle vertices U, so one query is a few dense array operations."""

    def __init__(self, g: Graph, D: np.ndarray, nxt: np.ndarray) -> None:
        self.g, self.D, self.nxt = g, D, nxt
        r = g.rings
        T, U = g.pos, r.v
        self.n, self.e = len(T), len(r)
        self.C = T[:, 0:1] * U[None, :, 1] - T[:, 1:2] * U[None, :, 0]  # cross(T, U)
        self.s4 = side_table(T, r)
        tp, tn = unit_vectors(g.prv - g.real), unit_vectors(g.nxt - g.real)
        # tangent sides cross(V - x, e) = cross(V, e) - (x_x e_y - x_y e_x), both neighbours
        e = np.concatenate([tp, tn])
        V = np.concatenate([g.real, g.real])
        self.tan_m = np.stack([-e[:, 1], e[:, 0]])  # (2, 2N): x @ tan_m = -(x_x e_y - x_y e_x)
        self.tan_c = V[:, 0] * e[:, 1] - V[:, 1] * e[:, 0]
        front_m = np.stack([r.f[:, 1], -r.f[:, 0]])  # x @ front_m + front_c = -cross(f,x-u)
        front_c = r.f[:, 0] * U[:, 1] - r.f[:, 1] * U[:, 0]
        xu_m = np.stack([U[:, 1], -U[:, 0]])  # x @ xu_m = cross(x, U)
        tx_m = np.stack([-T[:, 1], T[:, 0]])  # x @ tx_m = cross(T, x)
        # one matrix product gives every per-query term: [tangent sides | front | xu | tx]
        self.M = np.concatenate([self.tan_m, front_m, xu_m, tx_m], axis=1)
        self.c = np.concatenate([self.tan_c, front_c, np.zeros(self.e + self.n)])
        n, ne = self.n, self.e
        self.cuts = (2 * n, 2 * n + ne, 2 * n + 2 * ne)
        self.front_tol = TOL * r.lf
        self.neg_front_tol = -self.front_tol
        # per point: its row of ``X @ M + c`` and, once needed, the corners it sees with their
        # distances. A row does not depend on the other point of the product (one element is
        # one point's dot product), so a remembered row is the float the query would compute.
        self.points: dict[Point2, list[Any]] = {}
        # the corners as Python floats, for the route points (``float(real[k, 0])`` each time)
        self.real_xy: list[list[float]] = g.real.tolist()

    def point_rows(self, a: Point2, b: Point2
                   ) -> tuple[list[Any], list[Any], np.ndarray | None]:
        """The remembered records ``[row, seen, inside, front, behind]`` of both points (the
        last four None until first needed: ``seen`` by :meth:`seen`, ``inside`` by
        :meth:`Routes.distance`, ``front``/``behind`` -- the edges the point faces / is
        strictly behind -- by :meth:`query` as the start / the end of a pair), computing the
        rows as the query always has: one ``(2, 2)`` product for the pair. Bounded: emptied
        when :data:`POINT_LIMIT` points are kept. The product is returned too when both
        records are new."""
        memo = self.points
        ra, rb = memo.get(a), memo.get(b)
        if ra is not None and rb is not None:
            return ra, rb, None
        Y = np.array([a, b]) @ self.M + self.c
        if len(memo) >= POINT_LIMIT:
            memo.clear()
        both = ra is None and rb is None
        if ra is None:
            ra = [Y[0], None, None, None, None]
            memo[a] = ra
        if rb is None:
            rb = [Y[1], None, None, None, None]
            memo[b] = rb
        return ra, rb, Y if both else None

    def seen(self, recs: list[list[Any]], pts: list[Point2], Y: np.ndarray | None = None
             ) -> None:
        """Fill ``seen`` of the records (points ``pts``): the tangent corners each point sees
        (ascending) and their straight distances, the rows of all of them tested at once with
        the arithmetic of the dense query, row by row (``Y``: their rows stacked, if at hand).
        """
        n, (k1, k2, k3) = self.n, self.cuts
        r = self.g.rings
        if Y is None:
            Y = np.stack([rec[0] for rec in recs]) if len(recs) > 1 else recs[0][0][None, :]
        if jit.ENABLED:
            tt, dn, cut, touch = jd.seen(Y, np.array(pts), n, k1, k2, self.C, self.s4, r.succ,
                                         self.g.pos, self.front_tol, TOL)
            if not touch:  # else a vertex on a seen corner's line: the numpy code settles it
                if len(recs) == 1:
                    recs[0][1] = [tt, None, dn, None]
                else:
                    recs[0][1] = [tt[:cut], None, dn[:cut], None]
                    recs[1][1] = [tt[cut:], None, dn[cut:], None]
                return
        kk, tt = (Y[:, :n] * Y[:, n:2 * n] >= -1e-12).nonzero()
        dn = np.zeros(0)
        if len(kk):
            X = np.array(pts)
            o1 = self.C[tt]  # minus the rest in place: cross(T - x, U - x), the same floats
            o1 -= Y[kk, k3 + tt][:, None]
            o1 -= Y[kk, k2:k3]
            Xr, Tr = X[kk], self.g.pos[tt]
            dd = Tr - Xr
            dn = np.hypot(dd[:, 0], dd[:, 1])
            tl2 = (TOL * (dn + 10.0))[:, None]
            s1 = (o1 > tl2).view(np.int8) - (o1 < -tl2).view(np.int8)
            s2 = s1[:, r.succ]
            front = Y[:, k1:k2] > self.front_tol
            hit = (s1 * s2 == -1) & self.s4[tt] & front[kk]
            seen = ~np.logical_or.reduce(hit, axis=1)  # hit.any(axis=1) without its wrapper
            if np.count_nonzero(s1) < s1.size:  # a vertex on a row's line
                on = s1 == 0
                on &= seen[:, None]
                if on.any():
                    seen &= ~self.touch_rows(Xr, Tr, on)
            kk, tt, dn = kk[seen], tt[seen], dn[seen]
        # [corners, distances as a column and as a row, their rows of D (when first needed);
        # the compiled path leaves the column to be made when the numpy path needs it]
        if len(recs) == 1:
            recs[0][1] = [tt, dn[:, None], dn, None]
            return
        cut = int(kk.searchsorted(1))
        recs[0][1] = [tt[:cut], dn[:cut, None], dn[:cut], None]
        recs[1][1] = [tt[cut:], dn[cut:, None], dn[cut:], None]

    def query(self, a: Point2, b: Point2,
              rows: tuple[list[Any], list[Any], np.ndarray | None] | None = None
              ) -> tuple[float, list[int]] | None:
        """The centre-to-centre shortest route: (length, corners used; empty when a sees b),
        or None when there is none. Both points must be on the board and outside walls.

        The per-point part (the point's row of the product, the corners it sees) is
        remembered per point; the answer is the dense computation's float and corners: the
        best pair is taken among the corners seen in the dense argmin's order (row-major over
        ascending corners, the first of equal totals). ``rows``: :meth:`point_rows` of the
        pair when the caller has it."""
        ra, rb, Y = self.point_rows(a, b) if rows is None else rows
        ya, yb = ra[0], rb[0]
        r = self.g.rings
        k1, k2, k3 = self.cuts
        # a to b directly: the edges facing a that b is beyond
        dab = math.dist(a, b)
        tl = TOL * (dab + 10.0)
        if jit.ENABLED:
            state = jd.direct(ya, yb, k1, k2, k3, b[0] * a[1] - b[1] * a[0], tl, r.succ,
                              self.front_tol)
            if state == jd.CLEAR or (state == jd.ON_VERTEX
                                     and self._straight(ra, rb, a, b, tl)):
                return dab, []
        elif self._straight(ra, rb, a, b, tl):
            return dab, []
        if self.n == 0:
            return None
        if ra[1] is None and rb[1] is None and ra is not rb:
            self.seen([ra, rb], [a, b], Y)
        elif ra[1] is None:
            self.seen([ra], [a])
        elif rb[1] is None:
            self.seen([rb], [b])
        sa, sb = ra[1], rb[1]
        ia, jb = sa[0], sb[0]
        if len(ia) == 0 or len(jb) == 0:
            return None
        if jit.ENABLED:
            ka, kb, best = jd.best_pair(ia, sa[2], jb, sb[2], self.D)
        else:
            Da = sa[3]
            if Da is None:
                Da = sa[3] = self.D[ia]
            col = sa[1]
            if col is None:
                col = sa[1] = sa[2][:, None]
            tot = (col + Da[:, jb]) + sb[2]
            k = int(tot.argmin())
            ka, kb = divmod(k, len(jb))
            best = float(tot[ka, kb])
        if not math.isfinite(best):
            return None
        i, j = int(ia[ka]), int(jb[kb])
        chain = [i]
        nxt = self.nxt
        while chain[-1] != j:
            chain.append(int(nxt[chain[-1], j]))
        return best, chain

    def _straight(self, ra: list[Any], rb: list[Any], a: Point2, b: Point2, tl: float) -> bool:
        """Whether a sees b: no edge facing a (and b beyond it) is crossed, and the segment
        goes into no obstacle at a vertex it passes exactly through (numpy; ``ra``, ``rb``:
        the points' records, whose ``front``/``behind`` it fills)."""
        r = self.g.rings
        k1, k2, k3 = self.cuts
        ya, yb = ra[0], rb[0]
        front = ra[3]
        if front is None:
            front = ra[3] = ya[k1:k2] > self.front_tol
        behind = rb[4]
        if behind is None:
            behind = rb[4] = yb[k1:k2] < self.neg_front_tol
        o1 = yb[k2:k3] - ya[k2:k3]
        o1 -= b[0] * a[1] - b[1] * a[0]  # cross(b - a, U - a), the same floats
        # an edge hides b when it faces a, b is behind it and its ends are strictly on either
        # side of the line: the side test only for the few edges facing a with b behind
        fb = (front & behind).nonzero()[0]
        if len(fb):
            o, os = o1[fb], o1[r.succ[fb]]
            if (((o > tl) & (os < -tl)) | ((o < -tl) & (os > tl))).any():
                return False
        on = np.abs(o1) <= tl  # a vertex on the line: neither > tl nor < -tl
        return not on.any() or not self.touch_enters(
            np.array([a]), np.array([b]), on[None, None, :]).any()

    def touch_rows(self, S: np.ndarray, T: np.ndarray, on: np.ndarray) -> np.ndarray:
        """(len(S),) :meth:`touch_enters` of segments ``S[k] -> T[k]`` (``on[k, v]``)."""
        r = self.g.rings
        out = np.zeros(len(S), dtype=bool)
        ki, vi = np.nonzero(on)
        d = T[ki] - S[ki]
        ld = np.hypot(d[:, 0], d[:, 1])
        along = ((r.v[vi] - S[ki]) * d).sum(axis=1) / np.where(ld > 0, ld, 1.0)
        inner = (along > END) & (along < ld - END)
        ki, vi, d = ki[inner], vi[inner], d[inner]
        enters = wedge_enters(d, r.v[vi], r.prv[vi], r.nxt[vi])
        out[ki[enters]] = True
        return out

    def touch_enters(self, S: np.ndarray, T: np.ndarray, on: np.ndarray) -> np.ndarray:
        """(len(S), len(T)) for segments S[k] -> T[t] with a vertex on them (``on[k, t, v]``):
        whether they go into the obstacle at such a vertex (away from their ends)."""
        r = self.g.rings
        out = np.zeros(on.shape[:2], dtype=bool)
        ki, ti, vi = np.nonzero(on)
        d = T[ti] - S[ki]
        ld = np.hypot(d[:, 0], d[:, 1])
        along = ((r.v[vi] - S[ki]) * d).sum(axis=1) / np.where(ld > 0, ld, 1.0)
        inner = (along > END) & (along < ld - END)
        ki, ti, vi, d = ki[inner], ti[inner], vi[inner], d[inner]
        enters = wedge_enters(d, r.v[vi], r.prv[vi], r.nxt[vi])
        out[ki[enters], ti[enters]] = True
        return out
