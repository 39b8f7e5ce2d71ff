"""Other models' bases: :class:`Discs` (bases grown by the walker's radius, as the oracle
draws them, and the tests against them), how their polygons are drawn (buffered by GEOS, or
from a table of cosines when that gives GEOS's vertices bit for bit: :func:`fast_discs`), and
:func:`in_discs`.

:data:`FAST_DISCS` (whether the table may be used) is found once per process and lives here:
it is read and set in this module only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
import shapely
from shapely.geometry import Polygon
from shapely.geometry.polygon import orient

from solo_ops.geometry import jit
from solo_ops.geometry.routes.common import (
    DISC_SEGMENTS,
    END,
    TOL,
    as_points,
    jb,
    jm,
    unit_vectors,
)
from solo_ops.geometry.routes.rings import Rings, blocked, blocked_rows, sees_rows

GAP_PAIRS = 200
"""(segment, disc) pairs by their boxes above which numpy's :meth:`Discs.blocks` keeps only
those whose segment comes within the disc's circle before testing the polygons (for fewer,
the gaps' numpy calls cost more than the rows they drop). Read from this module at every
call."""


def _inradii(C: np.ndarray, V: np.ndarray, E: np.ndarray) -> np.ndarray:
    """(k,) how deep each centre ``C[i]`` is inside its polygon ``V[i]`` (unit edges ``E[i]``):
    :meth:`Discs.pair_depth` of the centres, row by row the same arithmetic."""
    rel = C[:, None, :] - V
    return (E[..., 0] * rel[..., 1] - E[..., 1] * rel[..., 0]).min(axis=1)


@dataclass
class Discs:
    """Other models' bases grown by the walker's radius, as the oracle draws them."""

    shapes: list[Polygon | None]  # each disc's polygon, None where not made yet (polys)
    verts: np.ndarray  # (k, 32, 2) counter-clockwise
    centres: np.ndarray
    radii: np.ndarray
    _ring: dict[int, Rings] = field(default_factory=dict, repr=False)
    edges: np.ndarray | None = field(default=None, repr=False)  # (k, 32, 2) unit edge vectors
    inner: np.ndarray | None = field(default=None, repr=False)  # each polygon's inradius
    _box: tuple[np.ndarray, ...] | None = field(default=None, repr=False)  # passing's boxes

    def __post_init__(self) -> None:
        if self.edges is None:
            self.edges = unit_vectors(np.roll(self.verts, -1, axis=1) - self.verts)

    @staticmethod
    def of(blockers: Sequence[Any], radius: float) -> Discs:
        """The bases ``[(x, y, r), ...]`` grown by a walking base's ``radius``, buffered by
        shapely afresh (what :meth:`Routes.discs` remembers and draws from a table)."""
        arr = np.asarray([tuple(b)[:3] for b in blockers], dtype=float).reshape(-1, 3)
        if len(arr) == 0:
            return Discs([], np.zeros((0, 32, 2)), np.zeros((0, 2)), np.zeros(0))
        geoms = shapely.buffer(shapely.points(arr[:, :2]), arr[:, 2] + radius,
                               quad_segs=DISC_SEGMENTS)
        polys = [orient(p, 1.0) for p in geoms]
        verts = np.stack([np.asarray(p.exterior.coords)[:-1, :2] for p in polys])
        return Discs(list[Polygon | None](polys), verts, arr[:, :2], arr[:, 2] + radius)

    def __len__(self) -> int:
        return len(self.shapes)

    @property
    def polys(self) -> list[Polygon]:
        """The disc polygons, each made from its vertices (closed) where it was not given: a
        walk needs only the vertices, so :meth:`Routes.discs` leaves them to be asked for."""
        missing = [k for k, p in enumerate(self.shapes) if p is None]
        if missing:
            V = self.verts[missing]
            made = cast(np.ndarray, shapely.polygons(np.concatenate([V, V[:, :1]], axis=1)))
            for k, poly in zip(missing, made, strict=True):
                self.shapes[k] = poly
        return cast(list[Polygon], self.shapes)

    def subset(self, keep: Any) -> Discs:
        """The discs selected by ``keep`` (a mask or indices)."""
        idx = np.arange(len(self))[keep]
        assert self.edges is not None
        return Discs([self.shapes[k] for k in idx], self.verts[idx], self.centres[idx],
                     self.radii[idx], edges=self.edges[idx],
                     inner=None if self.inner is None else self.inner[idx])

    def near(self, X: np.ndarray, pad: float = 1e-6) -> tuple[np.ndarray, np.ndarray]:
        """(point, disc) index pairs where the point is within a disc's circle (+ ``pad``);
        each polygon lies inside its circle, so every other point is outside it."""
        if len(self) == 0 or len(X) == 0:
            return np.zeros(0, int), np.zeros(0, int)
        if jit.ENABLED:
            found: tuple[np.ndarray, np.ndarray] = jm.near(X, self.centres, self.radii, pad)
            return found
        dx = X[:, None, 0] - self.centres[None, :, 0]
        dy = X[:, None, 1] - self.centres[None, :, 1]
        xi, ki = (dx * dx + dy * dy < (self.radii[None, :] + pad) ** 2).nonzero()
        return xi, ki

    def pair_depth(self, X: np.ndarray, xi: np.ndarray, ki: np.ndarray) -> np.ndarray:
        """(m,) how deep point ``X[xi]`` is inside disc polygon ``ki`` (<= 0: outside)."""
        assert self.edges is not None
        if jit.ENABLED and len(xi):
            return jm.pair_depth(np.ascontiguousarray(X, dtype=float), xi, ki, self.verts,
                                 self.edges)
        a = self.verts[ki]  # (m, 32, 2)
        e = self.edges[ki]  # each disc's own, the same per row as computed pair by pair
        rel = X[xi, None, :] - a
        return (e[..., 0] * rel[..., 1] - e[..., 1] * rel[..., 0]).min(axis=1)

    def depth(self, X: np.ndarray) -> np.ndarray:
        """(n,) how deep each point is inside the deepest disc polygon (<= 0: outside all;
        points outside every disc's circle get -inf)."""
        out = np.full(len(X), -np.inf)
        xi, ki = self.near(X)
        if len(xi):
            np.maximum.at(out, xi, self.pair_depth(X, xi, ki))
        return out

    def clear_of(self, X: np.ndarray, tol: float = 0.0) -> np.ndarray:
        """(n,) ``depth(X) <= tol`` (no disc polygon holds the point deeper than ``tol``).

        A point nearer a disc's centre than the polygon's inradius (its centre's depth) by
        more than ``tol`` + 1e-6 is deeper than ``tol`` whatever the edges' rounding (each
        edge line is at least inradius - distance away), so only the others need the edges."""
        out = np.ones(len(X), dtype=bool)
        if jit.ENABLED and len(self) and len(X):
            if self.inner is None:
                k = np.arange(len(self))
                self.inner = self.pair_depth(self.centres, k, k)
            assert self.edges is not None
            found: np.ndarray = jm.clear_of(np.ascontiguousarray(X, dtype=float),
                                            np.ascontiguousarray(self.centres), self.radii,
                                            self.inner, self.verts, self.edges, float(tol))
            return found
        xi, ki = self.near(X)
        if len(xi) == 0:
            return out
        if self.inner is None:
            k = np.arange(len(self))
            self.inner = self.pair_depth(self.centres, k, k)
        rho = np.hypot(X[xi, 0] - self.centres[ki, 0], X[xi, 1] - self.centres[ki, 1])
        deep = rho < self.inner[ki] - (tol + 1e-6)
        out[xi[deep]] = False
        xi, ki = xi[~deep], ki[~deep]
        if len(xi):
            out[xi[self.pair_depth(X, xi, ki) > tol]] = False
        return out

    def rings(self) -> Rings:
        """Every disc polygon as rings (counter-clockwise, inside on the left)."""
        return Rings(self.verts.reshape(-1, 2), np.roll(self.verts, 1, axis=1).reshape(-1, 2),
                     np.roll(self.verts, -1, axis=1).reshape(-1, 2))

    def ring(self, k: int) -> Rings:
        """Disc polygon ``k`` as rings (what ``subset([k]).rings()`` gives), built once."""
        r = self._ring.get(k)
        if r is None:
            v = self.verts[k]
            r = self._ring[k] = Rings(v, np.roll(v, 1, axis=0), np.roll(v, -1, axis=0))
        return r

    def _boxes(self) -> tuple[np.ndarray, ...]:
        """Each disc's box grown by 1e-5 more than its radius (x1, x0, y1, y0), once: the same
        sums as computed in the test each time."""
        box = self._box
        if box is None:
            c = self.centres
            grow = self.radii + 1e-5
            box = self._box = (c[:, 0] + grow, c[:, 0] - grow, c[:, 1] + grow, c[:, 1] - grow)
        return box

    def passing(self, P: np.ndarray, Q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(segment, disc) pairs where segment ``P->Q`` comes within a disc's circle (+1e-6);
        each polygon lies inside its circle, so no other segment can touch it."""
        # only the pairs whose boxes meet (each disc's grown by 1e-5 more) can be that close:
        # the gap is then computed for them alone, pair by pair as for all of them at once
        si, ki = self.boxed(P, Q)
        if len(si) == 0:
            return si, ki
        keep = self.within(P, Q, si, ki)
        return si[keep], ki[keep]

    def within(self, P: np.ndarray, Q: np.ndarray, si: np.ndarray, ki: np.ndarray
               ) -> np.ndarray:
        """Whether segment ``P[si]->Q[si]`` comes within the circle of disc ``ki`` (+1e-6),
        pair by pair: :meth:`passing`'s gap."""
        # the columns one by one (fewer numpy calls than the row sums and np.clip): the same
        # products and sums, so the same gaps (a zero's sign, all they could change, cannot
        # change a gap)
        c = self.centres
        px, py = P[:, 0].take(si), P[:, 1].take(si)
        dx, dy = Q[:, 0].take(si) - px, Q[:, 1].take(si) - py
        ld2 = dx * dx
        ld2 += dy * dy
        np.maximum(ld2, 1e-300, out=ld2)
        rx, ry = c[:, 0].take(ki) - px, c[:, 1].take(ki) - py
        t = rx * dx
        t += ry * dy
        t /= ld2
        np.maximum(t, 0.0, out=t)
        np.minimum(t, 1.0, out=t)
        dx *= t
        dy *= t
        gap = np.hypot(rx - dx, ry - dy)
        return cast(np.ndarray, gap < self.radii.take(ki) + 1e-6)

    def blocks(self, P: np.ndarray, Q: np.ndarray) -> np.ndarray:
        """(S,) whether segment ``P->Q`` goes into any disc polygon (:func:`blocked` against
        all of them, testing each disc's edges only with the segments passing near it). In
        numpy, near is by the boxes (:meth:`boxed`), and by the circles (:meth:`within`) only
        for more than :data:`GAP_PAIRS` pairs: the pairs :meth:`passing` would drop are more
        than 1e-6 from the polygon, which none of them goes into, and for a few testing them
        costs less than the gaps would (a few rows against a dozen numpy calls)."""
        out = np.zeros(len(P), dtype=bool)
        if len(self) == 0 or len(P) == 0:
            return out
        if jit.ENABLED:
            x1, x0, y1, y0 = self._boxes()
            return jm.passing_blocked(np.ascontiguousarray(P, dtype=float),
                                      np.ascontiguousarray(Q, dtype=float),
                                      np.ascontiguousarray(self.centres),
                                      self.radii, x1, x0, y1, y0, self.verts, TOL, END)
        si, ki = self.boxed(P, Q)
        if len(si) > GAP_PAIRS:  # many: the gaps first
            keep = self.within(P, Q, si, ki)
            si, ki = si[keep], ki[keep]
        if len(si):
            out[si[blocked_rows(P[si], Q[si], self.verts[ki])]] = True
        return out

    def boxed(self, P: np.ndarray, Q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(segment, disc) pairs where segment ``P->Q``'s box meets the disc's (grown by 1e-5
        more than its radius): every pair :meth:`passing` gives, and some more."""
        lo, hi = np.minimum(P, Q), np.maximum(P, Q)
        x1, x0, y1, y0 = self._boxes()
        m = lo[:, None, 0] <= x1
        m &= hi[:, None, 0] >= x0
        m &= lo[:, None, 1] <= y1
        m &= hi[:, None, 1] >= y0
        return m.nonzero()

    def hides(self, x: np.ndarray, T: np.ndarray) -> np.ndarray:
        """(len(T),) whether a disc polygon hides ``T`` from ``x`` (:func:`sees` negated,
        disc by disc as :meth:`blocks`)."""
        out = np.zeros(len(T), dtype=bool)
        if len(self) == 0 or len(T) == 0:
            return out
        if jit.ENABLED:  # disc by disc, sight line by sight line, the same arithmetic
            x1, x0, y1, y0 = self._boxes()
            found: np.ndarray = jb.hides(float(x[0]), float(x[1]),
                                         np.ascontiguousarray(T, dtype=float),
                                         np.ascontiguousarray(self.centres), self.radii, x1, x0,
                                         y1, y0, self.verts, TOL, END)
            return found
        # near by the boxes, as blocks: a sight line more than 1e-6 from a polygon crosses
        # none of its edges and passes none of its vertices
        si, ki = self.boxed(np.repeat(x[None, :], len(T), axis=0), T)
        if len(si):
            out[si[~sees_rows(x, T[si], self.verts[ki])]] = True
        return out

    def cutting(self, P: np.ndarray, Q: np.ndarray) -> np.ndarray:
        """(m, 2) (segment, disc) pairs where segment ``P->Q`` goes into the disc polygon
        (:func:`blocked` against that disc alone)."""
        if len(self) == 0 or len(P) == 0:
            return np.zeros((0, 2), dtype=int)
        d = Q - P
        ld2 = np.maximum((d * d).sum(axis=1), 1e-300)
        rel = self.centres[None, :, :] - P[:, None, :]  # (S, k, 2)
        t = np.clip((rel * d[:, None, :]).sum(axis=2) / ld2[:, None], 0.0, 1.0)
        gap = np.hypot(rel[..., 0] - d[:, None, 0] * t, rel[..., 1] - d[:, None, 1] * t)
        si, ki = (gap < self.radii[None, :] + 1e-6).nonzero()
        out: list[tuple[int, int]] = []
        for k in np.unique(ki).tolist():
            sel = si[ki == k]
            cut = blocked(P[sel], Q[sel], self.subset([k]).rings())
            out.extend((int(x), k) for x in sel[cut])
        return np.array(out, dtype=int).reshape(-1, 2)


def buffered_discs(centres: np.ndarray, radii: np.ndarray
                   ) -> tuple[list[Polygon], list[np.ndarray]]:
    """Bases as the oracle draws them: ``shapely.buffer`` of each centre (:data:`DISC_SEGMENTS`
    a quarter), counter-clockwise, and each polygon's vertices (the closing one left out)."""
    geoms = shapely.buffer(shapely.points(centres), radii, quad_segs=DISC_SEGMENTS)
    polys = [orient(geom, 1.0) for geom in geoms]
    return polys, [np.asarray(poly.exterior.coords)[:-1, :2] for poly in polys]


def _disc_table() -> tuple[np.ndarray, np.ndarray]:
    """Cosines and sines of the vertices of a buffered point turned counter-clockwise: GEOS
    puts vertex ``m`` at angle ``-2 pi m / n`` (the quarter points exact); turned, vertex ``k``
    is GEOS's ``-k mod n``."""
    n = 4 * DISC_SEGMENTS
    angles = [-2 * math.pi * m / n for m in range(n)]
    cos = np.array([math.cos(a) for a in angles])
    sin = np.array([math.sin(a) for a in angles])
    cos[n // 4] = cos[3 * n // 4] = 0.0
    sin[n // 2] = 0.0
    turn = (-np.arange(n)) % n
    return cos[turn], sin[turn]


_DISC_COS, _DISC_SIN = _disc_table()


def disc_coords(centres: np.ndarray, radii: np.ndarray) -> np.ndarray:
    """(k, 4 * DISC_SEGMENTS, 2): the bases' vertices by :func:`_disc_table`."""
    out = np.empty((len(centres), len(_DISC_COS), 2))
    out[:, :, 0] = centres[:, 0:1] + radii[:, None] * _DISC_COS
    out[:, :, 1] = centres[:, 1:2] + radii[:, None] * _DISC_SIN
    return out


FAST_DISCS: bool | None = None
"""Whether :func:`disc_coords` gives :func:`buffered_discs`'s vertices bit for bit: a fact
about the GEOS library in use, found once per process (not game state)."""


def fast_discs() -> bool:
    """Whether the bases' vertices may come from the table (checked once, on bases like the
    game's; with a GEOS that builds them differently, they are buffered)."""
    global FAST_DISCS
    if FAST_DISCS is None:
        rng = np.random.default_rng(20261124)
        centres = np.concatenate([rng.uniform(0, 30, (200, 2)),
                                  np.round(rng.uniform(0, 30, (56, 2)) * 2) / 2])
        radii = np.concatenate([rng.uniform(0.2, 3.0, 200),
                                np.resize([0.5, 0.63, 16 / 25.4, 1.0, 1.26, 1.5, 2 * 0.63,
                                           0.63 + 16 / 25.4], 56)])
        _, verts = buffered_discs(centres, radii)
        FAST_DISCS = bool(np.array_equal(disc_coords(centres, radii), np.stack(verts)))
    return FAST_DISCS


def _disc_arrays(discs: Discs | None) -> tuple[np.ndarray, ...]:
    """The bases as the compiled loops take them: centres, radii, the grown boxes (x1, x0, y1,
    y0) and the polygons' vertices; empty arrays for no bases."""
    if discs is None or len(discs) == 0:
        none = np.zeros(0)
        return np.zeros((0, 2)), none, none, none, none, none, np.zeros((0, 1, 2))
    return (np.ascontiguousarray(discs.centres), discs.radii, *discs._boxes(), discs.verts)


def in_discs(points: Any, discs: Any) -> np.ndarray:
    """(n,) whether each of ``points`` lies within (distance <= r) one of the discs
    ``[(x, y, r), ...]`` -- the points :meth:`Routes.reachable` keeps with ``near=``."""
    X = as_points(points)
    D = np.asarray([tuple(d)[:3] for d in discs], dtype=float).reshape(-1, 3)
    out = np.zeros(len(X), dtype=bool)
    for x, y, r in D:
        out |= np.hypot(X[:, 0] - x, X[:, 1] - y) <= r
    return out
