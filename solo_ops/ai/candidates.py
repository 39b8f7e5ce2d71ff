"""Where a model can end a move, and picking the best end point by score, cost and place.

``candidate_points`` finds the end points a move reaches (keeping out of the enemies' control
ranges), ``reachable`` remembers the routes' answers per terrain, ``_coherent`` says which
keep coherency with the unit. ``pick`` (and its lazy forms ``pick_where`` and
``lazy_scores``, which ask only the questions the choice needs) chooses: lowest score, then
lowest cost, then position.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from solo_ops.ai.context import CONTROL_RANGE, Context, WorkingBoard, _key_pt, answer_memo
from solo_ops.game.state import Operative
from solo_ops.geometry import placement
from solo_ops.rules import reach


# -- candidate evaluation --------------------------------------------------------------------------
@dataclass
class _Candidates:
    points: np.ndarray  # (k, 2)
    cost: np.ndarray  # (k,)
    reach: Any
    whole: bool = True  # every end point (False: only those in the discs asked for)


def candidate_points(ctx: Context, op: Operative, start: tuple[float, float], allowance: float,
                     board: WorkingBoard, *, avoid_enemies: bool = True, spacing: float = 0.5,
                     near: Sequence[tuple[float, float, float]] | None = None) -> _Candidates:
    """Where ``op`` can end a move (the start first). With ``avoid_enemies`` the walk keeps out
    of the enemies' control ranges (001 Reposition: "Cannot move within Control Range of an
    enemy"): an enemy's 1" is a blocker, except for an enemy within 1" in a straight line that
    has no hold on ``op`` (behind a wall: not in control range); the points in its control
    range are then left out instead.

    ``near`` ``[(x, y, r), ...]``: only the end points within those discs (and the start), by
    ``Routes.reachable(..., near=)``: exactly the full answer's points there, with the same
    costs and walks, in the same order. When a loose enemy's control range has to be left out
    the full set is found instead (its control test measures the points near that enemy in
    one batch, which must be the batch of the full set): a caller gets either the points of
    its discs or all of them, and must work with both (``_Candidates.whole`` says which)."""
    blockers = []
    loose: list[tuple[tuple[float, float], float]] = []
    for oid, p in board.pos.items():
        if oid == op.id:
            continue
        other = board.state.operatives[oid]
        extra = 0.0
        if avoid_enemies and other.side != op.side:
            if (reach.straight_gap(start, op.radius, p, other.radius)
                    <= CONTROL_RANGE + reach.TOLERANCE
                    and not reach.in_control_range(ctx.terrain, start, op.radius, p,
                                                   other.radius)):
                loose.append((p, other.radius))
            else:
                extra = CONTROL_RANGE
        blockers.append((p[0], p[1], other.radius + extra))
    blockers += board.fixed  # the downed and the counters (the placement rule)
    if loose:
        near = None
    found = reachable(ctx, start, op.radius, allowance, blockers, spacing, near)
    pts = np.asarray(found.points, dtype=float)
    cost = np.asarray(found.cost, dtype=float)
    whole = near is None
    # the placement rule on the exact circles (the walking discs are polygons inside them)
    drop = ~placement.clear_of_bases(pts, op.radius, board.bases(op.id))
    if loose and len(pts) > 1:
        for p, r in loose:
            drop |= reach.control_mask(ctx.terrain, pts, op.radius, p, r)
    if len(pts) > 1 and drop[1:].any():
        drop[0] = False  # the start stays first
        keep = np.flatnonzero(~drop)
        return _Candidates(pts[keep], cost[keep], found.subset(keep), whole)
    return _Candidates(pts, cost, found, whole)


REACH_MEMO_LIMIT = 16  # walking answers kept per terrain (each holds its grid and walks)


def reachable(ctx: Context, start: tuple[float, float], radius: float, allowance: float,
              blockers: list[tuple[float, float, float]], spacing: float,
              near: Sequence[tuple[float, float, float]] | None) -> Any:
    """``routes.reachable`` remembered in the terrain's answer cache by its exact inputs (the
    autopilot asks the same move again after each of an activation's actions; a ``Reach``
    is only read). At most :data:`REACH_MEMO_LIMIT` are kept per terrain."""
    key = ("reach", _key_pt(start), float(radius), float(allowance),
           tuple((float(x), float(y), float(r)) for x, y, r in blockers), float(spacing),
           None if near is None else tuple((float(x), float(y), float(r)) for x, y, r in near))
    memo = answer_memo(ctx)
    found = memo.get(key)
    if found is None:
        found = ctx.terrain.routes.reachable(start, radius, allowance, blockers=blockers,
                                             spacing=spacing, near=near)
        for arr in (found.points, found.cost):
            if isinstance(arr, np.ndarray):
                arr.setflags(write=False)  # shared by every asker: never changed
        kept = memo.setdefault(("reach-keys",), [])
        kept.append(key)
        if len(kept) > REACH_MEMO_LIMIT:
            memo.pop(kept.pop(0), None)
        memo[key] = found
    return found


def _coherent(points: np.ndarray, mates: list[tuple[float, float, float]], radius: float,
              coherency: float) -> np.ndarray:
    if not mates or len(points) == 0:
        return np.ones(len(points), dtype=bool)
    m = np.array([(x, y) for x, y, _ in mates], dtype=float)
    mr = np.array([r for _, _, r in mates], dtype=float)
    d = np.linalg.norm(points[:, None, :] - m[None, :, :], axis=2) - radius - mr[None, :]
    return (d <= coherency + 1e-9).any(axis=1)


def pick(scores: np.ndarray, cost: np.ndarray, points: np.ndarray,
         mask: np.ndarray | None = None) -> int | None:
    """Index of the best candidate: lowest score, then lowest cost, then position (stable)."""
    idx = np.arange(len(scores))
    if mask is not None:
        idx = idx[mask]
    if len(idx) == 0:
        return None
    keys = np.lexsort((points[idx, 1], points[idx, 0], np.round(cost[idx], 6),
                       np.round(scores[idx], 6)))
    return int(idx[keys[0]])


def pick_order(scores: np.ndarray, cost: np.ndarray, points: np.ndarray,
               mask: np.ndarray | None = None) -> np.ndarray:
    """The candidates of ``mask`` in :func:`pick`'s order of preference (its first is
    ``pick``'s answer)."""
    idx = np.arange(len(scores)) if mask is None else np.flatnonzero(mask)
    keys = np.lexsort((points[idx, 1], points[idx, 0], np.round(cost[idx], 6),
                       np.round(scores[idx], 6)))
    return idx[keys]


def pick_where(scores: np.ndarray, cost: np.ndarray, points: np.ndarray,
               mask: np.ndarray | None, test: Any, chunk: int = 1) -> int | None:
    """``pick(scores, cost, points, mask & test(all))`` asking ``test`` (indices -> bool
    array, each answer independent of the others asked with it) only of candidates in the
    order of preference, a growing chunk at a time (1, 2, 4...), until one passes: the same
    choice for a fraction of the questions when a good candidate passes early. (The best
    candidate itself passes in about two moves of three, and a cover question about a visible
    pair costs far more than the call: the chunks start at one.)"""
    order = pick_order(scores, cost, points, mask)
    at = 0
    while at < len(order):
        part = order[at:at + chunk]
        hit = part[np.asarray(test(part), dtype=bool)]
        if len(hit):
            return int(hit[0])
        at += len(part)
        chunk *= 2
    return None


LAZY_FIRST = 32  # candidates scored exactly first by :func:`lazy_scores`
LAZY_MARGIN = 1e-5  # a lower bound must beat the threshold by this much to skip a candidate


def lazy_scores(bound: np.ndarray, exact: Any, mask: np.ndarray | None, slack: float
                ) -> np.ndarray:
    """The exact scores a choice needs, without scoring every candidate: ``exact(idx)`` gives
    the scores of candidates ``idx``; ``bound`` is a lower bound of every score (a straight
    line is never longer than the way around the walls). Candidate 0 (the start) and every
    candidate whose bound is within ``slack`` of the best score of ``mask`` get their exact
    score; the rest get +inf: they can neither be the lowest score in ``mask`` nor within
    ``slack`` of it (ties and rounding to 6 decimals included, by :data:`LAZY_MARGIN`).
    ``exact`` is always asked about at least two candidates at once (when there are two)."""
    n = len(bound)
    scores = np.full(n, np.inf)
    done = np.zeros(n, dtype=bool)
    pool = np.arange(n) if mask is None else np.flatnonzero(mask)

    def run(idx: np.ndarray) -> None:
        idx = idx[~done[idx]]
        if len(idx) == 0:
            return
        if len(idx) == 1 and n > 1:  # never a batch of one (the geometry's single path)
            other = np.flatnonzero(done)
            idx = np.r_[idx, other[:1]] if len(other) else np.r_[idx, (idx[0] + 1) % n]
        scores[idx] = exact(idx)
        done[idx] = True

    first = pool[np.argsort(bound[pool], kind="stable")[:LAZY_FIRST]]
    run(np.r_[[0], first].astype(int))
    while True:
        if len(pool) == 0:
            return scores
        best = float(scores[pool].min())
        limit = best + slack + LAZY_MARGIN
        todo = pool[~done[pool] & ~(bound[pool] > limit)]  # (a NaN bound is scored)
        if len(todo) == 0:
            return scores
        run(todo)


def _route_to(walk: Any, end: tuple[float, float]) -> tuple[tuple[float, float], ...]:
    """The walk's points up to ``end`` (the point where an advance stopped)."""
    pts = [tuple(map(float, p)) for p in walk.points]
    out = [pts[0]]
    for a, b in itertools.pairwise(pts):
        seg = np.subtract(b, a)
        length = float(np.hypot(*seg))
        if length <= 1e-12:
            continue
        t = float(np.dot(np.subtract(end, a), seg) / (length * length))
        off = np.hypot(*(np.add(a, seg * min(max(t, 0.0), 1.0)) - np.asarray(end)))
        if 0.0 <= t <= 1.0 + 1e-9 and off < 1e-6:
            out.append(end)
            return tuple(out)  # type: ignore[arg-type]
        out.append(b)
    return tuple(out)  # type: ignore[arg-type]
