"""How well the end points are protected from the enemy, and their firing lines.

``cover_levels`` grades a point against one threat (``HIDDEN``, ``COVER_AND_OBSCURED``,
``IN_COVER``, ``NOT_IN_COVER``: the "To cover" order's scale); ``protected`` says whether it
is hidden from, in cover from or obscured to each threat; ``_first_in_cover`` finds the "To
cover" end point; ``firing_lines`` counts the enemies a point can shoot unobscured. The
answers are kept in the terrain's answer cache per (threat, point) and the questions not yet
answered asked in batches.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from solo_ops.ai.context import Context, _key_pt, answer_memo
from solo_ops.game.state import Operative

HIDDEN, COVER_AND_OBSCURED, IN_COVER, NOT_IN_COVER = 3, 2, 1, 0
COVER_TIE = 0.05  # "To cover" end points this close in cost are equally near (a tie)


def protected(ctx: Context, points: np.ndarray, radius: float,
              threats: list[Operative], pos: dict[str, tuple[float, float]]) -> np.ndarray:
    """(t, k) True where candidate k is hidden from, in cover from or obscured to threat t.

    Answers are kept in the terrain's answer cache per (threat, point): the same end points
    are asked about again (the chosen end, the unit's models after the move); only the pairs
    not yet known go to ``cover_matrix``, in one batch per threat."""
    if not threats or len(points) == 0:
        return np.zeros((len(threats), len(points)), dtype=bool)
    points = np.asarray(points, dtype=float)
    out = np.zeros((len(threats), len(points)), dtype=bool)
    if len(threats) > 1:
        prefetch_cover_answers(ctx, threats, points, radius, pos)
    for row, t in enumerate(threats):
        out[row] = _cover_answers(ctx, "p", t, points, radius, pos, _judge_protected)
    return out


def _judge_protected(vis: np.ndarray, cov: np.ndarray, obs: np.ndarray) -> np.ndarray:
    """:func:`protected`'s answer: hidden from, in cover from or obscured to the threat."""
    return ~vis | cov | obs  # type: ignore[no-any-return]


def _judge_level(vis: np.ndarray, cov: np.ndarray, obs: np.ndarray) -> np.ndarray:
    """:func:`cover_levels`' answer: how well protected (``HIDDEN`` ... ``NOT_IN_COVER``)."""
    return np.where(~vis, HIDDEN, np.where(cov & obs, COVER_AND_OBSCURED,
                                           np.where(cov, IN_COVER, NOT_IN_COVER)))


def _cover_keys(ctx: Context, tag: str, threat: Operative, points: np.ndarray, radius: float,
                pos: dict[str, tuple[float, float]]) -> list[tuple[Any, ...]]:
    """The answer cache's keys of ``threat``'s cover answers about ``points``."""
    tp = _key_pt(pos[threat.id])
    return [(tag, tp, float(threat.radius), x, y, float(radius), ctx.edition)
            for x, y in points.tolist()]


def prefetch_cover_answers(ctx: Context, threats: list[Operative], points: np.ndarray,
                           radius: float, pos: dict[str, tuple[float, float]]) -> None:
    """Put into the answer cache :func:`protected`'s and :func:`cover_levels`' answers of
    every (threat, point) pair not known yet, in one ``cover_matrix`` batch (threats x
    points) instead of one per threat: each pair's answer is the one it gets in any batch
    (``Sight`` answers a pair by its own centres and radii), so only the time changes."""
    memo = answer_memo(ctx)
    keys = [_cover_keys(ctx, "p", t, points, radius, pos) for t in threats]
    rows = [r for r, ks in enumerate(keys) if any(k not in memo for k in ks)]
    cols = sorted({c for r in rows for c, k in enumerate(keys[r]) if k not in memo})
    if len(rows) < 2 or not cols:
        return
    tp = np.array([pos[threats[r].id] for r in rows], dtype=float)
    tr = np.array([float(threats[r].radius) for r in rows])
    cm = ctx.terrain.sight.cover_matrix(tp, tr, points[cols], radius, edition=ctx.edition)
    vis, cov, obs = (np.asarray(cm.visible), np.asarray(cm.in_cover), np.asarray(cm.obscured))
    prot = _judge_protected(vis, cov, obs).tolist()
    level = _judge_level(vis, cov, obs).tolist()
    for a, r in enumerate(rows):
        lkeys = _cover_keys(ctx, "L", threats[r], points[cols], radius, pos)
        for b, c in enumerate(cols):
            memo[keys[r][c]] = prot[a][b]
            memo[lkeys[b]] = level[a][b]


def _cover_answers(ctx: Context, tag: str, threat: Operative, points: np.ndarray,
                   radius: float, pos: dict[str, tuple[float, float]],
                   judge: Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]
                   ) -> list[Any]:
    """``judge(visible, in_cover, obscured)`` of each candidate point seen from ``threat``,
    kept in the terrain's answer cache under ``tag`` per (threat, point): only the points not
    yet known go to ``cover_matrix``, in one batch."""
    memo = answer_memo(ctx)
    tp = _key_pt(pos[threat.id])
    keys = _cover_keys(ctx, tag, threat, points, radius, pos)
    known = [memo.get(k) for k in keys]
    todo = [k for k, v in enumerate(known) if v is None]
    if todo:
        cm = ctx.terrain.sight.cover_matrix(np.array([tp]), np.array([float(threat.radius)]),
                                            points[todo], radius, edition=ctx.edition)
        got = judge(np.asarray(cm.visible)[0], np.asarray(cm.in_cover)[0],
                    np.asarray(cm.obscured)[0])
        for k, v in zip(todo, got.tolist(), strict=True):
            known[k] = v
            memo[keys[k]] = v
    return known


def cover_levels(ctx: Context, points: np.ndarray, radius: float, threat: Operative,
                 pos: dict[str, tuple[float, float]]) -> np.ndarray:
    """(k,) how well candidate k is protected from ``threat`` for a "To cover" order:
    ``HIDDEN`` (out of its sight), ``COVER_AND_OBSCURED``, ``IN_COVER`` (terrain within 1" on
    the cover lines, as ``solo-ops geom cover`` says ``in_cover``) or ``NOT_IN_COVER``
    (obscured alone is not cover: issue #14). Cached per (threat, point) like
    :func:`protected`."""
    points = np.asarray(points, dtype=float).reshape(-1, 2)
    if len(points) == 0:
        return np.zeros(0, dtype=int)
    return np.array(_cover_answers(ctx, "L", threat, points, radius, pos, _judge_level),
                    dtype=int)


def _first_in_cover(ctx: Context, pts: np.ndarray, cost: np.ndarray, radius: float,
                    threat: Operative, pos: dict[str, tuple[float, float]],
                    mask: np.ndarray | None, chunk: int = 8) -> int | None:
    """The "To cover" end point: the cheapest candidate in cover from (or hidden from)
    ``threat`` (``mask`` limiting them): 003 "Unit will move to the nearest cover". Being also
    obscured (or hidden) only breaks a tie: among candidates as near as the nearest (within
    ``COVER_TIE``, less than the tenth of an inch a player reads), the best protected. None
    when no candidate in the mask is in cover."""
    idx = np.arange(len(pts)) if mask is None else np.flatnonzero(mask)
    order = idx[np.lexsort((pts[idx, 1], pts[idx, 0], np.round(cost[idx], 6)))]
    first = None
    k = 0
    while k < len(order):  # cheapest first, a growing chunk at a time
        part = order[k:k + chunk]
        hit = part[cover_levels(ctx, pts[part], radius, threat, pos) >= IN_COVER]
        if len(hit):
            first = int(hit[0])
            break
        k += len(part)
        chunk *= 2
    if first is None:
        return None
    near = order[cost[order] <= cost[first] + COVER_TIE]
    levels = cover_levels(ctx, pts[near], radius, threat, pos)
    return int(near[int(np.argmax(levels))]) if len(near) else first


def firing_lines(ctx: Context, points: np.ndarray, radius: float, reach: float,
                 targets: list[Operative], pos: dict[str, tuple[float, float]]) -> np.ndarray:
    """(k,) how many enemies are visible, unobscured and in range from each candidate."""
    if not targets or len(points) == 0:
        return np.zeros(len(points), dtype=int)
    tp = np.array([pos[t.id] for t in targets], dtype=float)
    tr = np.array([t.radius for t in targets], dtype=float)
    cm = ctx.terrain.sight.cover_matrix(points, radius, tp, tr, edition=ctx.edition)
    good = np.asarray(cm.visible) & ~np.asarray(cm.obscured)
    if math.isfinite(reach):
        # the range only of the points with a line to some target (never a batch of one)
        rows = np.flatnonzero(good.any(axis=1))
        if len(rows):
            ask = rows if len(rows) > 1 else np.r_[rows, rows]
            d = ctx.terrain.routes.distance_matrix(tp, tr, points[ask], radius).T
            good[rows] &= d[:len(rows)] <= reach + 1e-9
    return good.sum(axis=1)


PROTECTED_BATCH = 8
"""Threats whose cover answers :func:`protected_all` fetches in its first batch (then 16, 32,
...): every threat of a small game in one batch."""


def protected_all(ctx: Context, points: np.ndarray, radius: float, threats: list[Operative],
                  pos: dict[str, tuple[float, float]]) -> Any:
    """A ``test`` for :func:`pick_where`: candidate k is protected (:func:`protected`) from
    every threat; each threat is asked only about the candidates all earlier ones passed.
    The threats' answers are fetched in batches of :data:`PROTECTED_BATCH`, then twice as
    many, and so on, each about the candidates still protected (a few threats: one batch; a
    large game's many: most candidates are ruled out by the first ones, and the rest are
    never asked about them). Only the time changes: each pair's answer is its own."""

    def test(idx: np.ndarray) -> np.ndarray:
        ok = np.ones(len(idx), dtype=bool)
        start, size = 0, PROTECTED_BATCH
        while start < len(threats) and ok.any():
            group = threats[start:start + size]
            if len(group) > 1:
                prefetch_cover_answers(ctx, group, points[idx[ok]], radius, pos)
            for t in group:
                live = np.flatnonzero(ok)
                if len(live) == 0:
                    break
                ok[live] = protected(ctx, points[idx[live]], radius, [t], pos)[0]
            start, size = start + size, 2 * size
        return ok

    return test


def _in_cover_all(ctx: Context, points: np.ndarray, radius: float, threats: list[Operative],
                  pos: dict[str, tuple[float, float]]) -> Any:
    """A ``test`` for :func:`pick_where`: candidate k is in cover from (or hidden from) every
    threat, by :func:`cover_levels` -- the "To cover" order's own test: obscured alone is not
    cover (001 In Cover: "within 1" of intervening terrain"; ``solo-ops geom cover`` says the
    same), so "Use cover if possible" and "To cover" agree."""

    def test(idx: np.ndarray) -> np.ndarray:
        ok = np.ones(len(idx), dtype=bool)
        for t in threats:
            live = np.flatnonzero(ok)
            if len(live) == 0:
                break
            ok[live] = cover_levels(ctx, points[idx[live]], radius, t, pos) >= IN_COVER
        return ok

    return test
