"""Shared by the tests: moved from geometry/test_routes_wall_tests.py."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from solo_ops.geometry import routes as R
from tests.support.route_boards import R32


# -- the references: the computations the fast paths replaced -------------------------------------
def blocked_dense_ref(P: np.ndarray, Q: np.ndarray, rings: R.rings.Rings) -> np.ndarray:
    """``blocked``'s dense branch as it was: every quantity for every (segment, edge)."""
    S, E = len(P), len(rings)
    if S == 0 or E == 0:
        return np.zeros(S, dtype=bool)
    return _blocked_grid(P, Q, np.broadcast_to(rings.v, (S, E, 2)),
                         np.broadcast_to(rings.prv, (S, E, 2)),
                         np.broadcast_to(rings.nxt, (S, E, 2)), rings.f[None], rings.lf[None, :])


# (the own-ring forms the rows forms replaced, moved here from the rings module)
def blocked_own(P: np.ndarray, Q: np.ndarray, V: np.ndarray, prv: np.ndarray, nxt: np.ndarray
                ) -> np.ndarray:
    """(S,) ``blocked`` of each segment ``P[k]->Q[k]`` against its own ring ``V[k]``
    (vertices (S, n, 2), with their neighbours): the same arithmetic, edge by edge."""
    f = nxt - V
    return _blocked_grid(P, Q, V, prv, nxt, f, np.hypot(f[..., 0], f[..., 1]))


def _blocked_grid(P: np.ndarray, Q: np.ndarray, U: np.ndarray, prv: np.ndarray, W: np.ndarray,
                  f: np.ndarray, lf: np.ndarray) -> np.ndarray:
    """(S,) whether segment ``P[k]->Q[k]`` goes into the rings whose edges run from ``U[k]``
    to ``W[k]`` (vertices (S, n, 2), before them ``prv``; edge vectors ``f`` and lengths
    ``lf``, broadcast against them): a proper crossing of an edge, or a vertex on the segment
    where it goes into the obstacle -- every quantity for every (segment, edge)."""
    d = Q - P
    ld = np.hypot(d[:, 0], d[:, 1])[:, None]
    dx, dy = d[:, 0:1], d[:, 1:2]
    ux = U[..., 0] - P[:, 0:1]
    uy = U[..., 1] - P[:, 1:2]
    wx = W[..., 0] - P[:, 0:1]
    wy = W[..., 1] - P[:, 1:2]
    o1 = dx * uy - dy * ux
    o2 = dx * wy - dy * wx
    tl = R.TOL * ld
    side = ((o1 > tl) & (o2 < -tl)) | ((o1 < -tl) & (o2 > tl))
    fx, fy = f[..., 0], f[..., 1]
    o3 = fy * ux - fx * uy
    o4 = o3 + (fx * dy - fy * dx)
    tf = R.TOL * lf
    hit = side & (((o3 > tf) & (o4 < -tf)) | ((o3 < -tf) & (o4 > tf)))
    out = hit.any(axis=1)
    touch = np.abs(o1) < tl
    if touch.any():
        along = (ux * dx + uy * dy) / np.where(ld > 0, ld, 1.0)
        touch &= (along > R.END) & (along < ld - R.END) & ~out[:, None]
        si, ei = touch.nonzero()
        if len(si):
            enters = R.rings.wedge_enters(d[si], U[si, ei], prv[si, ei], W[si, ei])
            out[si[enters]] = True
    return out


def sees_own(x: np.ndarray, T: np.ndarray, V: np.ndarray, prv: np.ndarray, nxt: np.ndarray
             ) -> np.ndarray:
    """(len(T),) ``sees`` of each point ``T[k]`` from ``x`` against its own ring ``V[k]``
    (vertices (m, n, 2), with their neighbours): the same arithmetic, the edges facing ``x``
    kept by a mask instead of by index."""
    fx, fy = nxt[..., 0] - V[..., 0], nxt[..., 1] - V[..., 1]
    lf = np.hypot(fx, fy)
    o3 = fy * (x[0] - V[..., 0]) - fx * (x[1] - V[..., 1])
    front = o3 > R.TOL * lf
    ux, uy = V[..., 0] - x[0], V[..., 1] - x[1]
    wx, wy = nxt[..., 0] - x[0], nxt[..., 1] - x[1]
    d = T - x
    ld = np.hypot(d[:, 0], d[:, 1])
    tl = (R.TOL * ld)[:, None]
    dx, dy = d[:, 0:1], d[:, 1:2]
    o1 = dx * uy - dy * ux
    o2 = dx * wy - dy * wx
    p1, n1 = o1 > tl, o1 < -tl
    p2, n2 = o2 > tl, o2 < -tl
    c = fx * V[..., 1] - fy * V[..., 0]
    o4 = T[:, 1:2] * fx - T[:, 0:1] * fy - c
    beyond = o4 > R.TOL * lf
    hit = ((p1 & n2) | (n1 & p2)) & beyond & front
    out = ~hit.any(axis=1)
    n = V.shape[1]
    for on, rx, ry, shift in ((~(p1 | n1), ux, uy, 0), (~(p2 | n2), wx, wy, 1)):
        on &= front
        if not on.any():
            continue
        along = (dx * rx + dy * ry) / np.where(ld > 0, ld, 1.0)[:, None]
        on &= (along > R.END) & (along < ld[:, None] - R.END) & out[:, None]
        ti, ei = on.nonzero()
        if len(ti):
            vi = (ei + shift) % n
            enters = R.rings.wedge_enters(d[ti], V[ti, vi], prv[ti, vi], nxt[ti, vi])
            out[ti[enters]] = False
    return out


def passing_ref(discs: R.discs.Discs, P: np.ndarray, Q: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray]:
    """``Discs.passing`` as it was: the gap of every segment to every disc's centre."""
    d = Q - P
    ld2 = np.maximum((d * d).sum(axis=1), 1e-300)
    rel = discs.centres[None, :, :] - P[:, None, :]
    t = np.clip((rel * d[:, None, :]).sum(axis=2) / ld2[:, None], 0.0, 1.0)
    gap = np.hypot(rel[..., 0] - d[:, None, 0] * t, rel[..., 1] - d[:, None, 1] * t)
    si, ki = np.nonzero(gap < discs.radii[None, :] + 1e-6)
    return si, ki


def blocks_ref(discs: R.discs.Discs, P: np.ndarray, Q: np.ndarray) -> np.ndarray:
    """``Discs.blocks`` as it was: ``blocked_own`` on every passing (segment, disc)."""
    out = np.zeros(len(P), dtype=bool)
    if len(discs) == 0 or len(P) == 0:
        return out
    si, ki = passing_ref(discs, P, Q)
    if len(si):
        V = discs.verts[ki]
        cut = blocked_own(P[si], Q[si], V, np.roll(V, 1, axis=1), np.roll(V, -1, axis=1))
        out[si[cut]] = True
    return out


def blocked_ref(P: np.ndarray, Q: np.ndarray, rings: R.rings.Rings) -> np.ndarray:
    """``blocked`` as it was, by its definition: the dense form (the old boxed chunks gave
    its answers, segment by segment)."""
    return blocked_dense_ref(P, Q, rings)


def graph_blocked_ref(g: R.graph.Graph, P: np.ndarray, Q: np.ndarray) -> np.ndarray:
    out = blocked_ref(P, Q, g.rings)
    if g.discs is not None and len(g.discs) and len(P):
        live = np.flatnonzero(~out)
        if len(live):
            out[live[blocks_ref(g.discs, P[live], Q[live])]] = True
    return out


def tangent_grid_ref(X: np.ndarray, v: np.ndarray, up: np.ndarray, un: np.ndarray
                     ) -> np.ndarray:
    """``tangent_grid`` as it was (fresh temporaries, one expression per quantity)."""
    dx = v[None, :, 0] - X[:, None, 0]
    dy = v[None, :, 1] - X[:, None, 1]
    s1 = dx * up[None, :, 1] - dy * up[None, :, 0]
    s2 = dx * un[None, :, 1] - dy * un[None, :, 0]
    tol = 1e-9 * (np.abs(dx) + np.abs(dy))
    return ((s1 >= -tol) & (s2 >= -tol)) | ((s1 <= tol) & (s2 <= tol))


def with_discs_ref(walker: R.walker.Walker, discs: R.discs.Discs, centre: Any = None,
                   reach: float = math.inf, within: Any = None) -> R.graph.Graph:
    """``Walker.with_discs`` as it was (the bases' corners from their joined rings, every
    static pair's gap to every base), with the reference kernels."""
    g = walker.graph
    nodes = np.arange(len(g.pos))
    rings = g.rings
    pair = np.ones(len(g.pi), dtype=bool)
    if centre is not None and math.isfinite(reach):
        c = np.asarray(centre, float)
        near = np.hypot(*(g.pos - c).T) <= reach + 1e-9
        nodes = nodes[near]
        if within is not None:
            near &= within(g.pos)
        pair = near[g.pi] & near[g.pj]
        lo, hi = c - reach - 1e-6, c + reach + 1e-6
        emin, emax = np.minimum(rings.v, rings.nxt), np.maximum(rings.v, rings.nxt)
        ekeep = np.all((emax >= lo) & (emin <= hi), axis=1)
        rings = rings.take(ekeep)
        if len(discs):
            dk = np.hypot(*(discs.centres - c).T) <= reach + discs.radii + 1e-6
            discs = discs.subset(dk)
    if len(discs) == 0:
        sub = R.graph.Graph(rings, g.box, g.pos, g.real, g.prv, g.nxt, g.pi[pair], g.pj[pair],
                            g.pw[pair], g.soft, units=(g.up, g.un))
        sub.active = nodes
        return sub
    nodes = nodes[discs.depth(g.pos[nodes]) <= 0]
    disc_rings = discs.rings()
    convex, nudged = disc_rings.corners()
    dpos = nudged[convex]
    dkeep = g.in_box(dpos, 0.0) & ~walker.inside(dpos) & (discs.depth(dpos) <= 0)
    if centre is not None and math.isfinite(reach):
        dkeep &= np.hypot(*(dpos - np.asarray(centre, float)).T) <= reach + 1e-9
        if within is not None:
            dkeep &= within(dpos)
    n0 = len(g.pos)
    pos = np.concatenate([g.pos, dpos[dkeep]])
    dreal = disc_rings.v[convex][dkeep]
    dprv, dnxt = disc_rings.prv[convex][dkeep], disc_rings.nxt[convex][dkeep]
    real = np.concatenate([g.real, dreal])
    prv = np.concatenate([g.prv, dprv])
    nxt = np.concatenate([g.nxt, dnxt])
    up = np.concatenate([g.up, R.common.unit_vectors(dprv - dreal)])
    un = np.concatenate([g.un, R.common.unit_vectors(dnxt - dreal)])
    alive = np.zeros(len(pos), dtype=bool)
    alive[nodes] = True
    alive[n0:] = True
    pair &= alive[g.pi] & alive[g.pj]
    pi, pj, pw = g.pi[pair], g.pj[pair], g.pw[pair]
    a, b = g.pos[pi], g.pos[pj]
    si, _ = passing_ref(discs, a, b)
    near_pair = np.zeros(len(pi), dtype=bool)
    near_pair[si] = True
    if near_pair.any():
        cut = blocks_ref(discs, a[near_pair], b[near_pair])
        keep = np.ones(len(pi), dtype=bool)
        keep[np.flatnonzero(near_pair)[cut]] = False
        pi, pj, pw = pi[keep], pj[keep], pw[keep]
    sub = R.graph.Graph(rings, g.box, pos, real, prv, nxt, pi, pj, pw, g.soft, discs=discs,
                        units=(up, un))
    new = np.arange(n0, len(pos))
    others = np.concatenate([nodes, new])
    m = tangent_grid_ref(sub.real[new], sub.real[others], sub.up[others], sub.un[others])
    m &= new[:, None] != others[None, :]
    i, j = np.nonzero(m)
    ai, bj = new[i], others[j]
    keep = R.rings.tangent_u(sub.real[bj], sub.real[ai], sub.up[ai], sub.un[ai])
    ai, bj = ai[keep], bj[keep]
    ok = ~graph_blocked_ref(sub, sub.pos[ai], sub.pos[bj])
    ai, bj = ai[ok], bj[ok]
    w = sub.weight(sub.pos[ai], sub.pos[bj])
    keep = (bj < n0) | (ai < bj)
    sub.pi = np.concatenate([pi, ai[keep]])
    sub.pj = np.concatenate([pj, bj[keep]])
    sub.pw = np.concatenate([pw, w[keep]])
    sub.active = others
    return sub


# -- inputs ----------------------------------------------------------------------------------------
def grazing_segments(rings: R.rings.Rings, rng: np.random.Generator, n: int
                     ) -> tuple[np.ndarray, np.ndarray]:
    """Segments that live where the tolerances matter: through vertices (both ways), along
    edges, from one vertex to another, on the 0.5" grid, and random ones."""
    v, nxt = rings.v, rings.nxt
    k = rng.integers(0, len(v), n)
    m = rng.integers(0, len(v), n)
    ang = rng.uniform(0, 2 * np.pi, n)
    ray = np.stack([np.cos(ang), np.sin(ang)], axis=1) * rng.uniform(0.5, 6.0, (n, 1))
    parts_p = [v[k] - ray, v[k] - 2 * (nxt[k] - v[k]), v[k], v[k] + 1e-12 * ray,
               np.round(v[k] * 2 + ray) / 2, rng.uniform(0, 30, (n, 2))]
    parts_q = [v[k] + ray, nxt[k] + 2 * (nxt[k] - v[k]), v[m], v[m] - 1e-12 * ray,
               np.round(v[m] * 2 - ray) / 2, rng.uniform(0, 30, (n, 2))]
    return np.concatenate(parts_p), np.concatenate(parts_q)


def disc_blockers(routes: R.Routes, rng: np.random.Generator, n: int) -> list[tuple]:
    pts = routes.free_points(None, R32, 0.5)
    picks = pts[rng.choice(len(pts), min(n, len(pts)), replace=False)]
    return [(float(x), float(y), R32 + (0.5 if j % 3 == 0 else 0.0))
            for j, (x, y) in enumerate(picks)]


def same_graph(a: R.graph.Graph, b: R.graph.Graph) -> None:
    for name in ("pos", "real", "prv", "nxt", "up", "un", "pi", "pj", "pw", "active"):
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and x.shape == y.shape, name
        assert x.tobytes() == y.tobytes(), name
    assert a.rings.v.tobytes() == b.rings.v.tobytes()
    assert (a.discs is None) == (b.discs is None)
    if a.discs is not None and b.discs is not None:
        assert a.discs.verts.tobytes() == b.discs.verts.tobytes()
