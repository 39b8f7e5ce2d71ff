"""The planner's fast paths choose exactly what the full computation chooses (issue #13).

The planner and the autopilot skip work whose answer cannot change the choice: they ask cover
of the best candidates first and stop at the first protected one (``pick_where``), score end
points exactly only where a straight-line lower bound leaves them a chance
(``lazy_scores``), find no end points when the start already answers the move order
(``stays_put``, ``joined_already``), measure routes to a rallying unit only when a straight
line is short enough (``unit_gap``), and stop the search for the closest valid target at the
first distance with a shot (``choose_shot``). Each is checked here against the full
computation: random inputs for the pure helpers, and whole enemy turns on a shipped Gallowdark
board with every fast path switched off, which must give the same plans, word for word.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solo_ops.ai import allies as ai_allies
from solo_ops.ai import candidates as ai_candidates
from solo_ops.ai import context as ai_context
from solo_ops.ai import cover as ai_cover
from solo_ops.ai import shooting as ai_shooting
from solo_ops.game.engine import new_game
from tests.support.budget import examples
from tests.support.paths import SCENARIOS
from tests.support.planner_patches import RAID, patch_ai, raid, turns


# -- the pure helpers ---------------------------------------------------------------------------
@st.composite
def candidate_points(draw: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    n = draw(st.integers(1, 60))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    # coarse values so that ties of score and cost happen
    scores = rng.integers(0, 6, n).astype(float) * 0.5
    cost = rng.integers(0, 4, n).astype(float)
    cost[0] = 0.0
    pts = np.unique(rng.integers(0, 40, (n * 3, 2)).astype(float) * 0.5, axis=0)
    pts = rng.permutation(pts)[:n]
    if len(pts) < n:
        pts = np.concatenate([pts, 100.0 + np.arange(2 * (n - len(pts))).reshape(-1, 2)])
    mask = rng.random(n) < 0.7
    return scores, cost, pts, mask


@settings(max_examples=examples(200))
@given(candidate_points(), st.integers(0, 2**32 - 1), st.booleans(), st.integers(1, 20))
def test_pick_where_equals_pick_of_the_whole_mask(case: Any, seed: int, masked: bool,
                                                  chunk: int) -> None:
    scores, cost, pts, mask = case
    passes = np.random.default_rng(seed).random(len(scores)) < 0.3
    asked: list[int] = []

    def test(idx: np.ndarray) -> np.ndarray:
        asked.extend(idx.tolist())
        return passes[idx]

    use = mask if masked else None
    full = ai_candidates.pick(scores, cost, pts, (mask if masked else True) & passes)
    assert ai_candidates.pick_where(scores, cost, pts, use, test, chunk=chunk) == full
    assert len(asked) == len(set(asked))  # nothing asked twice
    if full is not None:  # nothing asked that ranks after the choice
        order = ai_candidates.pick_order(scores, cost, pts, use).tolist()
        assert max(order.index(k) for k in asked) < order.index(full) + max(chunk, 1) * 2 ** 6


@settings(max_examples=examples(300))
@given(candidate_points(), st.integers(0, 2**32 - 1), st.sampled_from([0.0, 0.5, 2.0]),
       st.booleans())
def test_lazy_scores_choose_as_the_exact_scores(case: Any, seed: int, slack: float,
                                                masked: bool) -> None:
    exact, cost, pts, mask = case
    n = len(exact)
    rng = np.random.default_rng(seed)
    exact = exact + rng.random(n) * 1e-7  # rounding to 6 decimals decides some ties
    exact[rng.random(n) < 0.1] = 1e9  # out of reach / in control range
    bound = np.maximum(0.0, exact - rng.random(n) * rng.choice([0.0, 1.0, 5.0], n))
    batches: list[int] = []

    def score(idx: np.ndarray) -> np.ndarray:
        batches.append(len(idx))
        return exact[idx]

    use = mask if masked else None
    lazy = ai_candidates.lazy_scores(bound, score, use, slack)
    assert lazy[0] == exact[0]  # the start is always scored
    known = np.isfinite(lazy)
    assert (lazy[known] == exact[known]).all()
    pool = np.arange(n) if use is None else np.flatnonzero(use)
    if len(pool):
        best = exact[pool].min()
        near = pool[exact[pool] <= best + slack + 1e-9]
        assert known[near].all()  # every candidate within the slack of the best is exact
    assert ai_candidates.pick(lazy, cost, pts, use) == ai_candidates.pick(exact, cost, pts, use)
    if n > 1:
        assert min(batches) >= 2  # never a batch of one point


def _terrain() -> Any:
    from solo_ops.io.scenario import load_scenario

    game, _ = new_game(load_scenario(RAID), 1)
    return game.terrains.get()


def test_route_and_hold_answers_do_not_depend_on_the_batch() -> None:
    """The lazy scores ask the geometry about subsets of the end points: each point's answer
    must be the one it gets in the batch of all of them (batches of two or more)."""
    terrain = _terrain()
    pts = terrain.routes.free_points(None, 0.5, spacing=1.0)
    rng = np.random.default_rng(7)
    for _ in range(6):
        a = pts[rng.integers(len(pts))]
        batch = pts[rng.choice(len(pts), 120, replace=False)]
        full = terrain.routes.distances(a, 0.5, batch, 0.5)
        for size in (2, 3, 17):
            idx = rng.choice(len(batch), size, replace=False)
            part = terrain.routes.distances(a, 0.5, batch[idx], 0.5)
            assert np.array_equal(part, full[idx])
        enemies = pts[rng.choice(len(pts), 3, replace=False)]
        dist = terrain.routes.distance_matrix(enemies, 0.5, batch, 0.5)
        vis = terrain.sight.visibility_matrix(enemies, 0.5, batch, 0.5)
        idx = rng.choice(len(batch), 9, replace=False)
        assert np.array_equal(terrain.routes.distance_matrix(enemies, 0.5, batch[idx], 0.5),
                              dist[:, idx])
        assert np.array_equal(terrain.sight.visibility_matrix(enemies, 0.5, batch[idx], 0.5),
                              vis[:, idx])
        two = np.array([batch[0], batch[0]])
        assert np.array_equal(terrain.routes.distance_matrix(enemies, 0.5, two, 0.5)[:, 0],
                              dist[:, 0])


def test_firing_lines_of_some_points_are_theirs_in_the_batch_of_all() -> None:
    """To cover with a firing line counts lines only at the protected end points."""
    game, state = raid(6, 2)
    ctx = game.context(state)
    pos = ai_context.WorkingBoard(state).pos
    enemies = [o for o in state.living("player") if o.id in pos]
    pts = ctx.terrain.routes.free_points(None, 0.5, spacing=1.0)
    rng = np.random.default_rng(5)
    batch = pts[rng.choice(len(pts), 80, replace=False)]
    tp = np.array([pos[t.id] for t in enemies])
    tr = np.array([t.radius for t in enemies])
    cm = ctx.terrain.sight.cover_matrix(batch, 0.5, tp, tr, edition=ctx.edition)
    dist = ctx.terrain.routes.distance_matrix(tp, tr, batch, 0.5).T
    for reach_in in (math.inf, 24.0, 8.0):
        full = ai_cover.firing_lines(ctx, batch, 0.5, reach_in, enemies, pos)
        # the whole computation: visible, not obscured and within range, every pair
        good = cm.visible & ~cm.obscured & (dist <= reach_in + 1e-9)
        assert np.array_equal(full, good.sum(axis=1))
        assert full.max() > 0
        for size in (2, 5, 31):
            idx = rng.choice(len(batch), size, replace=False)
            part = ai_cover.firing_lines(ctx, batch[idx], 0.5, reach_in, enemies, pos)
            assert np.array_equal(part, full[idx])
        one = ai_cover.firing_lines(ctx, batch[[7, 7]], 0.5, reach_in, enemies, pos)
        assert list(one) == [full[7], full[7]]


def test_prefetched_covers_are_what_sight_cover_answers() -> None:
    """The batch of covers the autopilot's shots put into the answer cache: for each pair the
    very answer of ``sight.cover`` (visible, in cover, obscured, valid target), with and
    without Seek / Seek Light, from a fresh terrain so that no answer is remembered."""
    game, state = raid(6, 2)
    ctx = game.context(state)
    pos = ai_context.WorkingBoard(state).pos
    terrain = ctx.terrain
    rng = np.random.default_rng(3)
    spots = terrain.routes.free_points(None, 0.5, spacing=1.0)
    enemies = [o for o in state.living("player") if o.id in pos]
    asked = 0
    for shooter in [state.operatives[u.models[0]] for u in state.units.values()]:
        for weapon in shooter.profile.ranged_weapons:
            for _ in range(4):
                point = tuple(float(v) for v in spots[rng.integers(len(spots))])
                ai_shooting.prefetch_covers(ctx, shooter, point, weapon, enemies, pos)
                memo = ai_context.answer_memo(ctx)
                for target in enemies:
                    key = ("c", point, pos[target.id], float(shooter.radius),
                           float(target.radius), weapon.has("seek"), weapon.has("seek_light"),
                           ctx.edition)
                    if key in memo:
                        asked += 1
                        assert memo[key] == terrain.sight.cover(
                            point, pos[target.id], shooter.radius, target.radius,
                            seek=weapon.has("seek"), seek_light=weapon.has("seek_light"),
                            edition=ctx.edition)
    assert asked > 20




def _full_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """Switch every fast path off: the full computation the planner made before them."""
    pick = ai_candidates.pick

    def pick_where(scores: Any, cost: Any, pts: Any, mask: Any, test: Any,
                   chunk: int = 4) -> int | None:
        every = np.arange(len(scores))
        ok = np.asarray(test(every), dtype=bool)
        return pick(scores, cost, pts, ok if mask is None else ok & mask)

    gap = ai_allies.unit_gap

    def unit_gap(*args: Any, **kw: Any) -> Any:
        kw.pop("limit", None)
        return gap(*args[:6])

    def choose_shot(ctx: Any, shooter: Any, point: Any, targets: Any, pos: Any, *,
                    moved: bool, moved_how: Any) -> Any:
        """The full search over every weapon and target, then the shot of the fast one."""
        best = None
        for weapon in ai_shooting.ranged(shooter.profile):
            if ai_shooting.used_up(ctx, shooter, weapon):
                continue
            # 001 Heavy is Kill Team 2024's: a 2018 Heavy weapon fires after a move (-1 to hit)
            if ctx.edition == "kt2024" and ai_shooting.is_heavy(weapon) and moved:
                allowed = weapon.rule("heavy")
                if not (allowed is not None and allowed.value == "dash"
                        and moved_how == "dash"):
                    continue
            for target in targets:
                ok, cover, dist = ai_shooting.valid_shot(ctx, shooter, point, weapon, target, pos)
                if not ok:
                    continue
                expected = (float(ctx.odds(weapon, shooter, target, cover, distance=dist))
                            if ctx.odds else 0.0)
                key = (round(dist, 6), -expected, target.id)
                if best is None or key < best[0]:
                    best = (key, weapon.name)
        shot, notes = fast_shot(ctx, shooter, point, targets, pos, moved=moved,
                                moved_how=moved_how)
        assert (best is None) == (shot is None)
        if shot is not None and best is not None:
            assert (shot.target, shot.weapon) == (best[0][2], best[1])
        return shot, notes

    fast_shot = ai_shooting.choose_shot
    patch_ai(monkeypatch, "pick_where", pick_where)
    patch_ai(monkeypatch, "lazy_scores",
              lambda bound, exact, mask, slack: exact(np.arange(len(bound))))
    patch_ai(monkeypatch, "stays_put", lambda *a, **k: False)
    patch_ai(monkeypatch, "joined_already", lambda score: False)
    patch_ai(monkeypatch, "unit_gap", unit_gap)
    patch_ai(monkeypatch, "choose_shot", choose_shot)
    patch_ai(monkeypatch, "prefetch_covers", lambda *a, **k: None)




def test_enemy_turns_are_the_same_with_and_without_the_fast_paths(
        monkeypatch: pytest.MonkeyPatch) -> None:
    fast = turns(12, 2)
    with monkeypatch.context() as m:
        _full_search(m)
        full = turns(12, 2)
    assert len(fast) == len(full) > 12
    assert fast == full  # same moves, routes, targets, order and explanations
    kinds = {a["kind"] for p in fast for a in p["actions"]}
    assert {"reposition", "dash", "shoot"} <= kinds


def test_unit_gap_limit_only_drops_gaps_beyond_it() -> None:
    game, state = raid(8, 1)
    ctx = game.context(state)
    board = ai_context.WorkingBoard(state)
    units = list(state.units.values())
    for unit in units:
        mine = [board.pos[m] for m in unit.models if m in board.pos]
        for other in units:
            if other.id == unit.id:
                continue
            full = ai_allies.unit_gap(ctx, board, state, mine, 0.5, other)
            for limit in (3.0, 6.0, 9.0):
                got = ai_allies.unit_gap(ctx, board, state, mine, 0.5, other, limit)
                assert got == full or (got == math.inf and full is not None
                                       and full > limit)


@pytest.mark.parametrize(("name", "policy"), [("gallowdark-cloister-purge", "objective"),
                                              ("crypt-objective-ultima", "objective"),
                                              ("gallowdark-cloister-purge", "cautious"),
                                              ("gallowdark-cloister-purge", "aggressive")])
def test_autopilot_games_are_the_same_with_and_without_the_fast_paths(
        monkeypatch: pytest.MonkeyPatch, name: str, policy: str) -> None:
    """Whole missions (the enemy planner and the player autopilot; Kill Team 2024 and 2018;
    every policy): the same log, every action, event and die roll,
    with the fast paths and without."""
    from solo_ops.io.scenario import load_scenario
    from solo_ops.sim import autopilot

    scenario = load_scenario(SCENARIOS / f"{name}.yaml")

    def play() -> list[dict[str, Any]]:
        game, state = new_game(scenario, 2)
        autopilot.play(game, state, policy)
        return state.log

    fast = play()
    with monkeypatch.context() as m:
        _full_search(m)
        full = play()
    assert len(fast) > 10
    assert fast == full
