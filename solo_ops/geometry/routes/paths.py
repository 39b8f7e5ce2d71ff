"""Shortest-path searches on the corner graphs: Floyd-Warshall, Dijkstra, A*.

:func:`floyd` gives the measuring graph's all-pairs distances and successors (once per board),
:func:`dijkstra` the distances from a start's links within a move (``reachable``), and
:func:`_astar` the cheapest walk to a goal (``walk``).
"""

from __future__ import annotations

import heapq
import math

import numpy as np

from solo_ops.geometry import jit
from solo_ops.geometry.routes.common import jm


def floyd(n: int, i: np.ndarray, j: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """All-pairs shortest distances and successors (``nxt[i, j]``: the node after i towards j)."""
    D = np.full((n, n), np.inf)
    np.fill_diagonal(D, 0.0)
    np.minimum.at(D, (i, j), w)
    np.minimum.at(D, (j, i), w)
    if jit.ENABLED:
        return jm.floyd(D)
    nxt = np.tile(np.arange(n), (n, 1))
    for k in range(n):
        alt = D[:, k:k + 1] + D[k:k + 1, :]
        better = alt < D - 1e-12
        if better.any():
            D = np.where(better, alt, D)
            nxt = np.where(better, nxt[:, k:k + 1], nxt)
    return D, nxt


def dijkstra(n: int, init: np.ndarray, src: np.ndarray, dst: np.ndarray, w: np.ndarray,
             limit: float = math.inf, back: np.ndarray | None = None
             ) -> tuple[np.ndarray, np.ndarray]:
    """Shortest distances from several sources (``init``: their starting distance, inf for
    none) over the edges ``src``-``dst``, walked either way (``w`` from ``src`` to ``dst``,
    ``back`` the other way, ``w`` when None); ``pred`` is -1 where the node is reached straight
    from the start. Nodes farther than ``limit`` are not expanded."""
    ends = np.concatenate([src, dst])
    order = np.argsort(ends, kind="stable")
    a = ends[order]
    both = np.concatenate([w, w if back is None else back])[order]
    if jit.ENABLED:
        return jm.dijkstra(n, np.ascontiguousarray(init, dtype=float),
                           np.searchsorted(a, np.arange(n + 1)),
                           np.concatenate([dst, src])[order].astype(np.int64),
                           both.astype(float), float(limit))
    b = np.concatenate([dst, src])[order].tolist()
    ww = both.tolist()
    starts = np.searchsorted(a, np.arange(n + 1)).tolist()
    dist = [math.inf] * n
    pred = [-1] * n
    ks = np.isfinite(init).nonzero()[0].tolist()
    heap = list(zip(init[ks].tolist(), ks, strict=True))
    for dk, k in heap:
        dist[k] = dk
    heapq.heapify(heap)
    pop, push = heapq.heappop, heapq.heappush
    # A node's entry is stale when its distance has dropped since (pushes only ever lower it,
    # by more than 1e-12, so each node has one current entry, popped once); a node farther
    # than the limit is not expanded.
    while heap:
        dk, k = pop(heap)
        if dk > dist[k] or dk > limit:
            continue
        for e in range(starts[k], starts[k + 1]):  # the edges in order, as before
            m = b[e]
            nd = dk + ww[e]
            if nd < dist[m] - 1e-12:
                dist[m] = nd
                pred[m] = k
                push(heap, (nd, m))
    return np.array(dist), np.array(pred, dtype=int)


def _astar(adj: tuple[list[int], list[int], list[float]], src: dict[int, float],
           goal: dict[int, float], h: list[float], bound: float = math.inf
           ) -> tuple[float, list[int]] | None:
    """The cheapest route from a start linked to nodes ``src`` (node: cost) to a goal linked
    from nodes ``goal`` (node: cost) over the undirected graph ``adj`` (see
    :meth:`Graph.adjacency`), cheaper than ``bound`` by more than 1e-12: (cost, the nodes in
    order), or None. ``h`` is a consistent lower bound of each node's cost to the goal (the
    straight distance), so the search stops as soon as no open node can beat the best."""
    starts, nb, ww = adj
    dist: dict[int, float] = {}
    pred: dict[int, int] = {}
    heap: list[tuple[float, float, int]] = []
    for k, w in src.items():
        dist[k] = w
        pred[k] = -1
        heap.append((w + h[k], w, k))
    heapq.heapify(heap)
    best, best_k = bound, -1
    inf = math.inf
    while heap:
        f, dk, k = heapq.heappop(heap)
        if dk > dist[k]:
            continue
        if f >= best:
            break
        gw = goal.get(k)
        if gw is not None and dk + gw < best - 1e-12:
            best, best_k = dk + gw, k
        for e in range(starts[k], starts[k + 1]):
            m = nb[e]
            nd = dk + ww[e]
            if nd < dist.get(m, inf) - 1e-12:
                dist[m] = nd
                pred[m] = k
                heapq.heappush(heap, (nd + h[m], nd, m))
    if best_k < 0:
        return None
    chain = [best_k]
    while pred[chain[-1]] >= 0:
        chain.append(pred[chain[-1]])
    chain.reverse()
    return best, chain
