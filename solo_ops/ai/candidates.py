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

from solo_ops.ai.context import Context, WorkingBoard, _key_pt, answer_memo
from solo_ops.game.state import Operative
from solo_ops.geometry import placement
from solo_ops.geometry.routes import Reach
from solo_ops.rules import reach


# -- candidate evaluation --------------------------------------------------------------------------
@dataclass
class _Candidates:
    points: np.ndarray  # (k, 2)
    cost: np.ndarray  # (k,)
    reach: Any
    whole: bool = True  # every end point (False: only those in the discs asked for)


def held_by_friends(ctx: Context, op: Operative, board: WorkingBoard) -> frozenset[str]:
    """The ids of the enemies of ``op`` a friendly of its holds in control range, which a Kill
    Team 2024 Reposition, Dash or Charge may pass (001 Reposition "unless they are already in
    Control Range of a friendly"; Charge "IF that enemy Operative is not in Control Range of a
    friendly Operative"; setting ``engaged_control_range``): the rule the players' moves follow,
    :func:`solo_ops.game.move_goals.engaged_foes`."""
    if not reach.passes_engaged(ctx.edition, ctx.settings.engaged_control_range):
        return frozenset()
    ops = board.state.operatives
    foes = [oid for oid in board.pos if oid != op.id and ops[oid].side != op.side]
    friends = [(p[0], p[1], ops[oid].radius) for oid, p in board.pos.items()
               if oid != op.id and ops[oid].side == op.side]
    if not foes or not friends:
        return frozenset()
    held = reach.engaged_enemies(ctx.terrain, [(board.pos[f][0], board.pos[f][1],
                                                ops[f].radius) for f in foes], friends)
    return frozenset(foes[k] for k in held)


def candidate_points(ctx: Context, op: Operative, start: tuple[float, float], allowance: float,
                     board: WorkingBoard, *, avoid_enemies: bool = True, spacing: float = 0.5,
                     near: Sequence[tuple[float, float, float]] | None = None,
                     kind: str | None = None) -> _Candidates:
    """Where ``op`` can end a move (the start first). With ``avoid_enemies`` the walk keeps out
    of the enemies' control ranges (001 Reposition: "Cannot move within Control Range of an
    enemy ... cannot finish the move within Control Range of an enemy") by the one rule both
    sides walk by, :func:`solo_ops.rules.reach.keep_out`: round an enemy's 1" where nothing
    cuts it; where a wall cuts it, round it or through the part out of control range (each
    walk through it tested point by point, :func:`_through`), whichever is cheaper and keeps
    out; and no end point in an enemy's control range.

    ``near`` ``[(x, y, r), ...]``: only the end points within those discs (and the start), by
    ``Routes.reachable(..., near=)``: exactly the full answer's points there, with the same
    costs and walks, in the same order. When a cut control range has to be tested the full
    set is found instead (its control test measures the points near that enemy in one batch,
    which must be the batch of the full set): a caller gets either the points of its discs or
    all of them, and must work with both (``_Candidates.whole`` says which).

    ``kind``: the move, walked on the terrain an effect in force gives it (:meth:`Context.
    for_move`: a 2018 Advance through walls), its end points still where a base may stand on
    the table as it is (004 Dimensional Destabilisation "but cannot end the move within the
    wall")."""
    stand = ctx
    ctx = ctx.for_move(kind)
    foe_ids = [oid for oid in board.pos
               if oid != op.id and avoid_enemies and board.state.operatives[oid].side != op.side]
    foes = [(board.pos[oid][0], board.pos[oid][1], board.state.operatives[oid].radius)
            for oid in foe_ids]
    held = held_by_friends(ctx, op, board) if foes else frozenset()
    engaged = frozenset(k for k, oid in enumerate(foe_ids) if oid in held)
    keep = reach.keep_out(ctx.terrain, start, op.radius, foes, reach=allowance,
                          engaged=engaged)

    def blockers(round_cut: bool) -> list[tuple[float, float, float]]:
        out = []
        k = 0
        for oid, p in board.pos.items():
            if oid == op.id:
                continue
            other = board.state.operatives[oid]
            extra = 0.0
            if avoid_enemies and other.side != op.side:
                extra = keep.grown(k, round_cut=round_cut)
                k += 1
            out.append((p[0], p[1], other.radius + extra))
        return out + board.fixed  # the downed and the counters (the placement rule)

    if keep.cut or keep.engaged:  # their control ranges are tested at every end point
        near = None
    found = reachable(ctx, start, op.radius, allowance, blockers(True), spacing, near)
    if keep.loose:
        found = _kept_out(ctx, keep, found, op.radius)
    if keep.through:
        found = _through(ctx, keep, found, reachable(ctx, start, op.radius, allowance,
                                                      blockers(False), spacing, near),
                         op.radius)
    pts = np.asarray(found.points, dtype=float)
    cost = np.asarray(found.cost, dtype=float)
    whole = near is None
    # the placement rule on the exact circles (the walking discs are polygons inside them)
    drop = ~placement.clear_of_bases(pts, op.radius, board.bases(op.id))
    if ctx is not stand and len(pts) > 1:  # through a wall, never ending within it
        drop |= ~placement.legal(stand.terrain, pts, op.radius)
    if (keep.cut or keep.engaged) and len(pts) > 1:  # never ending in a control range
        for k in sorted(keep.cut | keep.engaged):
            x, y, r = keep.enemies[k]
            drop |= reach.control_mask(ctx.terrain, pts, op.radius, (x, y), r)
    if len(pts) > 1 and drop[1:].any():
        drop[0] = False  # the start stays first
        keep_idx = np.flatnonzero(~drop)
        return _Candidates(pts[keep_idx], cost[keep_idx], found.subset(keep_idx), whole)
    return _Candidates(pts, cost, found, whole)


def _kept_out(ctx: Context, keep: reach.KeepOut, found: Any, radius: float) -> Any:
    """``found`` (walks round the cut discs but the loose ones') without the end points whose
    walk goes into a loose enemy's control range."""
    walks = [found.path(i).points for i in range(1, len(found.points))]
    bad = keep.entered_many(ctx.terrain, walks, radius, round_cut=True)
    if not bad.any():
        return found
    return found.subset(np.r_[[0], 1 + np.flatnonzero(~bad)])


def _through(ctx: Context, keep: reach.KeepOut, round_: Any, through: Any, radius: float
             ) -> Reach:
    """The end points of ``round_`` (walks round the cut discs) and ``through`` (walks through
    them) together, each with the cheaper of its two walks that keeps out of every control
    range (a walk through is tested; one round them already is): the start first, then
    ``through``'s order, then any point only ``round_`` has."""
    at = {(float(x), float(y)): i for i, (x, y) in enumerate(np.asarray(round_.points))}
    b_pts = np.asarray(through.points, dtype=float)
    b_cost = np.asarray(through.cost, dtype=float)
    better = [j for j in range(1, len(b_pts))
              if (i := at.get((float(b_pts[j, 0]), float(b_pts[j, 1])))) is None
              or b_cost[j] < float(round_.cost[i]) - 1e-9]
    bad = keep.entered_many(ctx.terrain, [through.path(j).points for j in better], radius,
                            round_cut=False)
    good = {j for j, b in zip(better, bad, strict=True) if not b}
    pick: list[tuple[Any, int]] = [(round_, 0)]
    used = {0}
    for j in range(1, len(b_pts)):
        i = at.get((float(b_pts[j, 0]), float(b_pts[j, 1])))
        if j in good:
            pick.append((through, j))
        elif i is not None:
            pick.append((round_, i))
        if i is not None:
            used.add(i)
    pick += [(round_, i) for i in range(len(round_.points)) if i not in used]
    points = np.array([src.points[i] for src, i in pick], dtype=float).reshape(-1, 2)
    costs = np.array([src.cost[i] for src, i in pick], dtype=float)
    return Reach(points, costs, lambda n: pick[int(n)][0].path(pick[int(n)][1]))


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
