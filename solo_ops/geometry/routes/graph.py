"""The reduced visibility graph: :class:`Graph` (corners, tangent visible pairs, links from
points), :func:`_build_graph` (the graph of a set of obstacles within a box) and
:func:`best_links` (the corner step of a reach: the end points a walk through a corner reaches
more cheaply).

A graph's walls are rings (:mod:`~solo_ops.geometry.routes.rings`); a walking graph may carry
other bases apart from them (:class:`~solo_ops.geometry.routes.discs.Discs`), tested only by
the segments that pass near them, and soft terrain (:mod:`~solo_ops.geometry.routes.costs`)
that adds to each pair's cost.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import InitVar, dataclass, field

import numpy as np
from shapely.geometry import Polygon

from solo_ops.geometry import jit
from solo_ops.geometry.routes.common import END, EPS, TOL, jw, unit_vectors
from solo_ops.geometry.routes.costs import _Soft
from solo_ops.geometry.routes.discs import Discs, _disc_arrays
from solo_ops.geometry.routes.rings import (
    Rings,
    blocked,
    run_boxes,
    sees,
    tangent_grid,
    tangent_u,
)


# -- a visibility graph -----------------------------------------------------------------------
@dataclass
class Graph:
    """Obstacles (as rings), the free box, graph corners and the tangent visible pairs."""

    rings: Rings  # hard obstacle vertices/edges
    box: tuple[float, float, float, float]
    pos: np.ndarray  # (N, 2) nudged corners
    real: np.ndarray  # (N, 2) the corners themselves
    prv: np.ndarray
    nxt: np.ndarray
    pi: np.ndarray  # visible pairs
    pj: np.ndarray
    pw: np.ndarray  # their cost
    soft: _Soft
    active: np.ndarray | None = None  # the corners in use (None: all)
    s4: np.ndarray | None = None  # side_table of the corners (measuring graph only)
    discs: Discs | None = None  # other bases, kept apart from ``rings`` (walking graphs)
    pb: np.ndarray | None = None  # the pairs' cost the other way, pj -> pi (see ``back``)
    up: np.ndarray = field(init=False, repr=False)  # unit directions corner -> prv
    un: np.ndarray = field(init=False, repr=False)  # unit directions corner -> nxt
    units: InitVar[tuple[np.ndarray, np.ndarray] | None] = None  # (up, un) when known
    _adj: tuple[list[int], list[int], list[float]] | None = field(default=None, init=False,
                                                                   repr=False)

    def __post_init__(self, units: tuple[np.ndarray, np.ndarray] | None) -> None:
        # with_discs gives them (each row is its own corner's, computed once per walker)
        if units is None:
            self.up = unit_vectors(self.prv - self.real)
            self.un = unit_vectors(self.nxt - self.real)
        else:
            self.up, self.un = units

    @property
    def back(self) -> np.ndarray:
        """The pairs' cost walked the other way (``pj`` -> ``pi``): the same as ``pw`` but where
        a surcharge is paid one way only (climbing onto a vantage costs more than dropping
        from it), so a walk's cost is the same whichever way the search found it (issue #27:
        the cost a move reports is its route's). Found once per graph."""
        if self.pb is None or len(self.pb) != len(self.pw):
            self.pb = (self.weight(self.pos[self.pj], self.pos[self.pi])
                       if self.soft and len(self.pw) else self.pw)
        return self.pb

    def adjacency(self) -> tuple[list[int], list[int], list[float]]:
        """The visible pairs as adjacency lists (row starts, neighbours, costs each way), built
        once."""
        if self._adj is None:
            n = len(self.pos)
            a = np.concatenate([self.pi, self.pj])
            order = np.argsort(a, kind="stable")
            b = np.concatenate([self.pj, self.pi])[order].tolist()
            ww = np.concatenate([self.pw, self.back])[order].tolist()
            starts = np.searchsorted(a[order], np.arange(n + 1)).tolist()
            self._adj = (starts, b, ww)
        return self._adj

    def blocked(self, P: np.ndarray, Q: np.ndarray) -> np.ndarray:
        """The rings' :func:`~solo_ops.geometry.routes.rings.blocked` against the obstacles and
        the bases: the same answer as against their joined rings (a segment is blocked by one
        edge or vertex at a time), but a base's edges are only tested by the segments that pass
        near it."""
        out = blocked(P, Q, self.rings)
        discs = self.discs
        if discs is not None and len(discs) and len(P):
            live = (~out).nonzero()[0]
            if len(live):
                out[live[discs.blocks(P[live], Q[live])]] = True
        return out

    def sees(self, x: np.ndarray, T: np.ndarray, s4: np.ndarray | None = None) -> np.ndarray:
        """The rings' :func:`~solo_ops.geometry.routes.rings.sees` against the obstacles and the
        bases (see :meth:`blocked`)."""
        ok = sees(x, T, self.rings, s4)
        discs = self.discs
        if discs is not None and len(discs) and len(T):
            live = ok.nonzero()[0]
            if len(live):
                ok[live[discs.hides(x, T[live])]] = False
        return ok

    def in_box(self, X: np.ndarray, tol: float = EPS) -> np.ndarray:
        x0, y0, x1, y1 = self.box
        return ((X[:, 0] >= x0 - tol) & (X[:, 0] <= x1 + tol)
                & (X[:, 1] >= y0 - tol) & (X[:, 1] <= y1 + tol))

    def weight(self, P: np.ndarray, Q: np.ndarray) -> np.ndarray:
        w = np.hypot(Q[:, 0] - P[:, 0], Q[:, 1] - P[:, 1])
        return w + self.soft.cost(P, Q) if self.soft else w

    def links(self, X: np.ndarray, nodes: np.ndarray | None = None,
              bound: np.ndarray | None = None, base: np.ndarray | None = None,
              batch: bool = False, costed: bool = True
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Visible tangent links from points X to graph corners: (point, node, cost).
        ``nodes`` restricts the corners; with ``bound`` (per point) and ``base`` (per node),
        links with ``base[node] + |X - corner| > bound[point]`` are dropped. One point is
        tested by :meth:`sees`, several (or one with ``batch``) by :meth:`blocked`; each
        point's links are the same whatever other points come with it. ``costed`` False: each
        link's length without its surcharge (the caller adds it)."""
        if len(X) == 0 or len(self.pos) == 0 or (nodes is not None and len(nodes) == 0):
            return np.zeros(0, int), np.zeros(0, int), np.zeros(0)
        if len(X) == 1 and bound is None and not batch:
            x = X[0]
            if nodes is None:
                real, up, un, pos = self.real, self.up, self.un, self.pos
                nj = np.arange(len(pos))
            else:
                real, up, un = self.real[nodes], self.up[nodes], self.un[nodes]
                pos, nj = self.pos[nodes], nodes
            keep = tangent_u(x, real, up, un).nonzero()[0]
            s4 = None
            if self.s4 is not None:
                s4 = self.s4[nj[keep]]
            ok = keep[self.sees(x, pos[keep], s4)]
            nj = nj[ok]
            w = np.hypot(pos[ok, 0] - x[0], pos[ok, 1] - x[1])
            if self.soft and costed:
                w = w + self.soft.cost(np.repeat(x[None, :], len(ok), axis=0), pos[ok])
            return np.zeros(len(nj), dtype=int), nj, w
        nodes = np.arange(len(self.pos)) if nodes is None else nodes
        xi, k = tangent_grid(X, self.real[nodes], self.up[nodes], self.un[nodes]).nonzero()
        nj = nodes[k]
        if bound is not None and base is not None:
            d = np.hypot(*(X[xi] - self.pos[nj]).T)
            keep = base[nj] + d <= bound[xi] + 1e-9
            xi, nj = xi[keep], nj[keep]
        ok = ~self.blocked(X[xi], self.pos[nj])
        xi, nj = xi[ok], nj[ok]
        P, Q = X[xi], self.pos[nj]
        if costed:
            return xi, nj, self.weight(P, Q)
        return xi, nj, np.hypot(Q[:, 0] - P[:, 0], Q[:, 1] - P[:, 1])

    def pairs_among(self, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray,
                                                                np.ndarray]:
        """Visible bitangent pairs between node sets a and b (i < j when the sets overlap)."""
        m = tangent_grid(self.real[a], self.real[b], self.up[b], self.un[b])
        m &= a[:, None] != b[None, :]
        i, j = m.nonzero()
        ai, bj = a[i], b[j]
        keep = tangent_u(self.real[bj], self.real[ai], self.up[ai], self.un[ai])
        ai, bj = ai[keep], bj[keep]
        ok = ~self.blocked(self.pos[ai], self.pos[bj])
        ai, bj = ai[ok], bj[ok]
        return ai, bj, self.weight(self.pos[ai], self.pos[bj])


    def weight_both(self, P: np.ndarray, Q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`weight` of each segment ``P->Q`` and of the way back ``Q->P`` (what
        :meth:`Walker.with_discs` wants of its new pairs), the surcharges of both found by
        one ``soft.cost`` call: each segment's surcharge is its own, and each length is
        computed as :meth:`weight` computes it, so both are :meth:`weight`'s floats."""
        w = np.hypot(Q[:, 0] - P[:, 0], Q[:, 1] - P[:, 1])
        wb = np.hypot(P[:, 0] - Q[:, 0], P[:, 1] - Q[:, 1])
        if not self.soft:
            return w, wb
        c = self.soft.cost(np.concatenate([P, Q]), np.concatenate([Q, P]))
        return w + c[:len(P)], wb + c[len(P):]

    def add_pairs_new(self, nodes: np.ndarray, new: np.ndarray, pb: np.ndarray) -> None:
        """Add to this graph's pairs (whose costs the other way are ``pb``) the pairs
        :meth:`Walker.with_discs` gains (:meth:`pairs_new_index` of ``nodes`` and ``new``),
        with their costs both ways; the corners in use become ``nodes`` then ``new``."""
        ai, bj = self.pairs_new_index(nodes, new)
        self.pi = np.concatenate([self.pi, ai])
        self.pj = np.concatenate([self.pj, bj])
        if self.soft:  # the new pairs' cost both ways (climbs and drops differ)
            w, wb = self.weight_both(self.pos[ai], self.pos[bj])
            self.pb = np.concatenate([pb, wb])
        else:
            w = self.weight(self.pos[ai], self.pos[bj])
        self.pw = np.concatenate([self.pw, w])
        self.active = np.concatenate([nodes, new])

    def pairs_new(self, nodes: np.ndarray, new: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``pairs_among(new, others)`` with ``others = [nodes, new]`` (``nodes`` below
        ``new[0]``, ``new`` ascending), keeping the pairs with a node of ``nodes`` or ``i < j``
        -- what :meth:`Walker.with_discs` adds: :meth:`pairs_new_index` and the pairs'
        costs."""
        ai, bj = self.pairs_new_index(nodes, new)
        return ai, bj, self.weight(self.pos[ai], self.pos[bj])

    def pairs_new_index(self, nodes: np.ndarray, new: np.ndarray
                        ) -> tuple[np.ndarray, np.ndarray]:
        """The pairs of :meth:`pairs_new` without their costs. The same pairs in the same
        order as ``pairs_among``, found with less work: among ``new`` the reverse tangent test
        is the grid's transpose, and the pairs ``i > j`` are dropped before the wall and base
        tests (each segment's answer is its own)."""
        a = new
        others = np.concatenate([nodes, new])
        ns = len(nodes)
        if jit.ENABLED:  # pair by pair, in the same order
            rings = self.rings
            cs, cl, rlo, rhi = run_boxes(rings)[1:5]
            p, q = jw.pairs_new(a, others, ns, self.real, self.up, self.un, self.pos, rings.v,
                                rings.prv, rings.nxt, rings.f, rings.lf, cs, cl, rlo, rhi,
                                *_disc_arrays(self.discs), TOL, END)
            return a[p], others[q]
        m = tangent_grid(self.real[a], self.real[others], self.up[others], self.un[others])
        block = m[:, ns:]
        np.logical_and(block, block.T, out=block)  # both ways tangent (a square block)
        r = np.arange(len(a))
        block &= r[:, None] < r  # i < j (and i != j): np.triu's mask, in one comparison
        i, j = m.nonzero()
        ai, bj = a[i], others[j]
        static = j < ns
        if static.any():
            k = static.nonzero()[0]
            keep = np.ones(len(ai), dtype=bool)
            keep[k] = tangent_u(self.real[bj[k]], self.real[ai[k]], self.up[ai[k]],
                                self.un[ai[k]])
            ai, bj = ai[keep], bj[keep]
        ok = ~self.blocked(self.pos[ai], self.pos[bj])
        return ai[ok], bj[ok]


def side_table(T: np.ndarray, rings: Rings) -> np.ndarray:
    """(len(T), E) whether each point lies strictly inside the half-plane of each edge (the
    ``s4`` of :func:`sees`)."""
    if len(T) == 0 or len(rings) == 0:
        return np.zeros((len(T), len(rings)), dtype=bool)
    f, u = rings.f, rings.v
    c = f[:, 0] * u[:, 1] - f[:, 1] * u[:, 0]
    o4 = T[:, 1:2] * f[None, :, 0] - T[:, 0:1] * f[None, :, 1] - c[None, :]
    return o4 > TOL * rings.lf[None, :]


def _build_graph(polys: list[Polygon], inside: Callable[[np.ndarray], np.ndarray],
                 frame: tuple[float, float, float, float], soft: _Soft) -> Graph:
    """The reduced visibility graph of ``polys`` (hard) and ``soft`` footprints within the box
    ``frame``; ``inside(X)`` says which points are inside a hard obstacle."""
    rings = Rings.of(polys)
    parts = [rings, *soft.rings] if soft else [rings]
    corner_rings = Rings.join(*parts) if len(parts) > 1 else rings
    convex, nudged = corner_rings.corners()
    pos, real = nudged[convex], corner_rings.v[convex]
    prv, nxt = corner_rings.prv[convex], corner_rings.nxt[convex]
    x0, y0, x1, y1 = frame
    keep = ((pos[:, 0] >= x0) & (pos[:, 0] <= x1) & (pos[:, 1] >= y0) & (pos[:, 1] <= y1)
            & ~inside(pos))
    pos, real, prv, nxt = pos[keep], real[keep], prv[keep], nxt[keep]
    # drop duplicates (soft corners on hard ones)
    _, first = np.unique(np.round(pos, 12), axis=0, return_index=True)
    first = np.sort(first)
    g = Graph(rings, frame, pos[first], real[first], prv[first], nxt[first],
              np.zeros(0, int), np.zeros(0, int), np.zeros(0), soft)
    n = np.arange(len(g.pos))
    ai, bj, w = g.pairs_among(n, n)
    half = ai < bj
    g.pi, g.pj, g.pw = ai[half], bj[half], w[half]
    return g


# -- the corner step of a reach ---------------------------------------------------------------
def best_links(g: Graph, C: np.ndarray, s: np.ndarray, clear: np.ndarray, cost: np.ndarray,
               live: np.ndarray, dist: np.ndarray, move: float
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For :meth:`~solo_ops.geometry.routes.query.Routes.reachable` (which looks it up through
    its own module at every call): the end points ``C`` that a walk through a corner reaches
    more cheaply than ``cost`` (the straight walk from ``s``, inf where blocked), the corner
    and that cost: (point, corner, cost).

    The answer is, per point, the cheapest of its tangent, visible links ``dist[corner] + w``
    (``w`` the link's cost, within ``move``), ties to the lower corner, when it beats ``cost``
    by more than 1e-12 -- what ``g.links`` over every pair gave. Faster, same answer: a point
    the straight walk reaches at its plain length is skipped (a route through a corner is no
    shorter: the triangle inequality, with the sums' rounding far below 1e-12), links that
    cannot beat ``cost`` are dropped, and the rest are tested for walls (the compiled loops
    link by link, each point's cheapest first until one is clear; numpy all at once, one call
    costing less than rounds of a link per point: :func:`blocked` answers each segment
    alone), each point's first clear link in order its answer."""
    none = (np.zeros(0, int), np.zeros(0, int), np.zeros(0))
    plain = np.hypot(C[:, 0] - s[0], C[:, 1] - s[1])
    todo = (~(clear & (cost <= plain))).nonzero()[0]
    if len(todo) == 0:
        return none
    i, k = tangent_grid(C[todo], g.real[live], g.up[live], g.un[live]).nonzero()
    xi, nj = todo[i], live[k]
    d = np.hypot(*(C[xi] - g.pos[nj]).T)
    plain_tot = dist[nj] + d
    keep = plain_tot <= move + 1e-9
    if g.soft:  # a surcharge only adds (d + s >= d): a link its length alone cannot make
        keep &= plain_tot < cost[xi] - 1e-12  # beat the straight walk is dropped below anyway
    xi, nj, d = xi[keep], nj[keep], d[keep]
    w = d + g.soft.cost(g.pos[nj], C[xi]) if g.soft else d  # walked corner -> end point
    tot = dist[nj] + w
    keep = tot < cost[xi] - 1e-12
    xi, nj, tot = xi[keep], nj[keep], tot[keep]
    if len(xi) == 0:
        return none
    order = np.lexsort((tot, xi))
    xi, nj, tot = xi[order], nj[order], tot[order]
    if jit.ENABLED:  # link by link, each point's cheapest first until one is clear
        rings = g.rings
        cs, cl, rlo, rhi = run_boxes(rings)[1:5]
        k = jw.first_clear(xi, nj, np.ascontiguousarray(C, dtype=float), g.pos, rings.v,
                           rings.prv, rings.nxt, rings.f, rings.lf, cs, cl, rlo, rhi,
                           *_disc_arrays(g.discs), TOL, END)
        return xi[k], nj[k], tot[k]
    k = (~g.blocked(C[xi], g.pos[nj])).nonzero()[0]
    if len(k) == 0:
        return none
    first = np.concatenate(([True], xi[k][1:] != xi[k][:-1]))
    k = k[first]
    return xi[k], nj[k], tot[k]


def start_costs(g: Graph, S: np.ndarray, C: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The start's part of :meth:`Routes.reachable` in the walking graph ``g``: its links to
    the corners in use (corner, cost: ``g.links``), whether the straight walk to each end
    point ``C`` is clear, and that walk's cost (inf where it is not). The surcharges of the
    links and of the clear straight walks are found by one ``soft.cost`` call (each segment's
    surcharge is its own), added to the lengths as ``g.links`` and ``g.weight`` add them."""
    active = np.arange(len(g.pos)) if g.active is None else g.active
    _, sj, sw = g.links(S, active, costed=False)
    cost = np.full(len(C), np.inf)
    clear = ~g.blocked(np.repeat(S, len(C), axis=0), C)
    ends = C[clear]
    P = np.repeat(S, len(ends), axis=0)
    straight = np.hypot(ends[:, 0] - P[:, 0], ends[:, 1] - P[:, 1])
    if g.soft and len(sj) + len(ends):
        extra = g.soft.cost(np.repeat(S, len(sj) + len(ends), axis=0),
                            np.concatenate([g.pos[sj], ends]))
        sw = sw + extra[:len(sj)]
        straight = straight + extra[len(sj):]
    cost[clear] = straight
    return sj, sw, clear, cost
