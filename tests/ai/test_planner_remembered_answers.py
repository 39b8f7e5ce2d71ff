"""The planner's and the autopilot's second round of fast paths choose exactly what the full
computation chooses (issue #13, item 5).

Each fast path asks the geometry fewer or smaller questions and must give the same answers:

* ``reachable``: the walking answers remembered per terrain by their exact inputs (the
  autopilot asks the same move again after each action of an activation);
* ``autopilot.carry_discs``: the move next to a downed friend asks for the end points within
  the discs of ``control_mask``'s straight-line test only (``reachable(..., near=)``);
* ``ai_portals.no_shortcut``: the open-doors routes are not measured when the routes as the
  doors stand already show that no door can save ``PORTAL_SHORTCUT``;
* ``ai_cover.prefetch_cover_answers``: the cover of several threats asked in one
  ``cover_matrix`` batch instead of one per threat;
* ``planner.shared_commands``: the activation order measures only units whose command
  another ready unit shares, and the engine asks ``first_to_activate`` (the units of the
  highest command only) instead of the whole order;
* the autopilot asks the visibility of every enemy in one batch (``visible_targets``);
* ``ai_portals.feature_gap``: a base's gap to a door or hatch remembered per terrain;
* ``ai_candidates.pick_where`` asks its test of one candidate first (then 2, 4...), not four.

Each is checked against the full computation: on random positions of every shipped board for
the helpers, and whole enemy turns and whole missions (Kill Team 2024 and 2018; every policy)
with the new fast paths switched off, which must give the same plans and logs, word for word.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest

from solo_ops.ai import candidates as ai_candidates
from solo_ops.ai import combat as ai_combat
from solo_ops.ai import context as ai_context
from solo_ops.ai import cover as ai_cover
from solo_ops.ai import planner
from solo_ops.ai import portals as ai_portals
from solo_ops.game.engine import new_game
from solo_ops.io.scenario import load_scenario
from solo_ops.rules import reach
from solo_ops.sim import autopilot
from tests.support.budget import FULL
from tests.support.paths import SCENARIOS
from tests.support.planner_patches import patch_ai, raid, turns
from tests.support.shipped_terrains import CHECKED_SCENARIOS

SHIPPED = sorted(SCENARIOS.glob("*.yaml"))


def _game(path: Any, seed: int = 1) -> tuple[Any, Any]:
    return new_game(load_scenario(path), seed)


def _scatter(game: Any, state: Any, seed: int) -> None:
    """Move every operative on the table to a random free point (a random state)."""
    terrain = game.terrain(state)
    rng = np.random.default_rng(seed)
    ops = [o for o in state.operatives.values() if o.on_table and o.at is not None]
    pts = terrain.routes.free_points(None, max(o.radius for o in ops), spacing=0.5)
    chosen = pts[rng.choice(len(pts), len(ops), replace=False)]
    chosen = chosen + rng.uniform(-0.2, 0.2, chosen.shape)
    for op, p in zip(ops, chosen, strict=True):
        op.at = (float(p[0]), float(p[1]))


# -- the helpers against the full computation ---------------------------------------------------
@pytest.mark.parametrize("path", CHECKED_SCENARIOS, ids=lambda p: p.stem)
def test_remembered_reach_is_the_fresh_answer(path: Any) -> None:
    game, state = _game(path)
    ctx = game.context(state)
    board = ai_context.WorkingBoard(state)
    op = next(o for o in state.operatives.values() if o.id in board.pos)
    first = ai_candidates.candidate_points(ctx, op, board.pos[op.id], 6.0, board)
    again = ai_candidates.candidate_points(ctx, op, board.pos[op.id], 6.0, board)
    assert again.points is first.points or np.array_equal(again.points, first.points)
    fresh = ctx.terrain.routes.reachable(
        board.pos[op.id], op.radius, 6.0, spacing=0.5,
        blockers=[(p[0], p[1], state.operatives[i].radius
                   + (ai_context.CONTROL_RANGE if state.operatives[i].side != op.side else 0))
                  for i, p in board.pos.items() if i != op.id] + board.fixed)
    if len(first.points) != len(fresh.points):
        return  # a loose enemy's range, or points on a base by the exact circles, left out
    assert again.reach is first.reach  # remembered
    assert np.array_equal(first.points, fresh.points)
    assert np.array_equal(first.cost, fresh.cost)
    with pytest.raises(ValueError):
        first.points[0, 0] = -1.0  # shared: nobody may change it


@pytest.mark.parametrize("path", CHECKED_SCENARIOS, ids=lambda p: p.stem)
def test_carry_discs_choose_as_all_end_points(path: Any) -> None:
    """The end point next to a downed friend found among the end points in the discs is the
    one found among all end points (random positions; 1" and 0.5" grids)."""
    game, state = _game(path)
    checked = 0
    for seed in range(6):
        _scatter(game, state, seed)
        ctx = game.context(state)
        board = ai_context.WorkingBoard(state)
        players = [o for o in state.living("player") if o.id in board.pos]
        op, friends = players[0], players[1:]
        start = board.pos[op.id]
        # the friends 1.5" to 6" away, so that some are within the move
        free = ctx.terrain.routes.free_points(None, 0.7, spacing=0.5)
        gap = np.hypot(free[:, 0] - start[0], free[:, 1] - start[1])
        ring = free[(gap > 1.5) & (gap < 6.0)]
        rng = np.random.default_rng(seed)
        for f, p in zip(friends, ring[rng.choice(len(ring), len(friends), replace=False)],
                        strict=False):
            f.at = board.pos[f.id] = (float(p[0]), float(p[1]))
        discs = [ai_combat.charge_disc(op, board.pos[f.id], f) for f in friends]
        for spacing in (1.0, 0.5):
            full = ai_candidates.candidate_points(ctx, op, start, 6.0, board, spacing=spacing)
            part = ai_candidates.candidate_points(ctx, op, start, 6.0, board, spacing=spacing,
                                                  near=discs)
            for f in friends:
                picks = []
                for cand in (full, part):
                    ok = reach.control_mask(ctx.terrain, cand.points, op.radius,
                                            board.pos[f.id], f.radius,
                                            margin=ai_combat.CHARGE_END_MARGIN)
                    k = ai_candidates.pick(cand.cost, cand.cost, cand.points, ok)
                    picks.append(None if k is None else (
                        tuple(cand.points[k]), float(cand.cost[k]),
                        cand.reach.path(k).points))
                assert picks[0] == picks[1]
                checked += picks[0] is not None
    assert checked > 0


@pytest.mark.parametrize("path", [p for p in SHIPPED if "gallowdark" in p.stem
                                  or "volkus" in p.stem], ids=lambda p: p.stem)
def test_no_shortcut_only_where_no_door_is_opened(path: Any, monkeypatch: Any) -> None:
    """Wherever the bound says no door can save ``PORTAL_SHORTCUT``, the full search (with
    the open-doors routes) opens none either."""
    game, state = _game(path)
    said = 0
    for seed in range(10):
        _scatter(game, state, seed)
        ctx = game.context(state)
        board = ai_context.WorkingBoard(state)
        # (the geometry only: each operative on the table against the players but itself)
        for op in [o for o in state.operatives.values() if o.id in board.pos]:
            enemies = [o for o in state.living("player") if o.id in board.pos and o is not op]
            for move in ("towards_closest_enemy", "hold_12"):
                codes = {"move": move}
                if ai_portals.no_shortcut(ctx, op, board.pos[op.id], board, enemies, codes):
                    said += 1
                    with monkeypatch.context() as m:
                        patch_ai(m, "no_shortcut", lambda *a: False)
                        assert ai_portals.closed_way(ctx, op, board.pos[op.id], board,
                                                     enemies, codes) is None
    assert said > 0


@pytest.mark.parametrize("path", CHECKED_SCENARIOS, ids=lambda p: p.stem)
def test_prefetched_cover_answers_are_each_threats_own(path: Any) -> None:
    """``protected`` and ``cover_levels`` of several threats, one batch for all of them,
    equal each threat's own ``cover_matrix`` answers (random points and threats)."""
    game, state = _game(path)
    _scatter(game, state, 3)
    ctx = game.context(state)
    board = ai_context.WorkingBoard(state)
    threats = [o for o in state.living("player") if o.id in board.pos]
    rng = np.random.default_rng(11)
    pts = ctx.terrain.routes.free_points(None, 0.5, spacing=1.0)
    pts = pts[rng.choice(len(pts), min(40, len(pts)), replace=False)]
    ai_cover.prefetch_cover_answers(ctx, threats, pts, 0.5, board.pos)
    got_p = ai_cover.protected(ctx, pts, 0.5, threats, board.pos)
    got_l = np.array([ai_cover.cover_levels(ctx, pts, 0.5, t, board.pos) for t in threats])
    for row, t in enumerate(threats):
        cm = ctx.terrain.sight.cover_matrix(np.array([board.pos[t.id]]), t.radius, pts, 0.5,
                                            edition=ctx.edition)
        vis, cov, obs = cm.visible[0], cm.in_cover[0], cm.obscured[0]
        assert np.array_equal(got_p[row], ~vis | cov | obs)
        assert np.array_equal(got_l[row], np.where(~vis, 3, np.where(
            cov & obs, 2, np.where(cov, 1, 0))))


@pytest.mark.parametrize("path", [p for p in SHIPPED if "gallowdark" in p.stem
                                  or "volkus" in p.stem], ids=lambda p: p.stem)
def test_remembered_portal_gaps_are_shapelys(path: Any) -> None:
    """``feature_gap`` (remembered per terrain, portal and exact point) is
    ``gap_to_feature`` to the last bit, asked first or again, for every door and hatch
    (Volkus in Kill Team 2018: in 2024 its doors are Accessible and Heavy terrain, no door)."""
    scenario = load_scenario(path)
    if "volkus" in path.stem:
        scenario = dataclasses.replace(scenario, edition="kt2018")
    game, state = new_game(scenario, 1)
    ctx = game.context(state)
    portals = list(ctx.terrain.board.portals())
    assert portals
    rng = np.random.default_rng(4)
    pts = rng.uniform(0.0, 1.0, (60, 2)) * (ctx.terrain.board.width, ctx.terrain.board.depth)
    for feature in portals:
        for p in pts:
            for radius in (0.5, 0.7, 0.0):
                want = ai_portals.gap_to_feature(feature, p, radius)
                assert ai_portals.feature_gap(ctx, feature, p, radius) == want
                assert ai_portals.feature_gap(ctx, feature, p, radius) == want


def test_activation_order_without_measuring_lone_commands(monkeypatch: Any) -> None:
    """The order with only the shared commands measured is the order with every unit
    measured (random positions; 8 units with commands 1..6, so some share)."""
    game, state = raid(8, 1)
    for seed in range(8):
        _scatter(game, state, seed)
        ctx = game.context(state)
        ready = list(state.active_units())
        fast = [u.id for u in planner.activation_order(ctx, state, ready)]
        with monkeypatch.context() as m:
            patch_ai(m, "shared_commands", lambda units: {u.command for u in units})
            full = [u.id for u in planner.activation_order(ctx, state, ready)]
        assert fast == full


def test_first_to_activate_is_the_head_of_the_activation_order() -> None:
    """The engine's next unit, found measuring only the highest command's units, is the
    first of the whole order (random positions; every subset of ready units by size)."""
    game, state = raid(9, 2)
    units = list(state.active_units())
    for seed in range(8):
        _scatter(game, state, seed)
        ctx = game.context(state)
        rng = np.random.default_rng(seed)
        for size in (0, 1, 2, 5, len(units)):
            ready = [units[i] for i in rng.choice(len(units), size, replace=False)]
            want = [u.id for u in planner.activation_order(ctx, state, ready)[:1]]
            assert [u.id for u in planner.first_to_activate(ctx, state, ready)] == want


# -- whole turns and missions with and without them -------------------------------------------
def _visible_one_by_one(ctx: Any, point: Any, radius: float, targets: list[Any],
                        pos: dict[str, Any]) -> list[Any]:
    return [t for t in targets if ai_context.visible(ctx, point, pos[t.id], radius, t.radius)]


def _switch_off(m: pytest.MonkeyPatch) -> None:
    """Every fast path of this round off: the computation before it."""

    def reachable(ctx: Any, start: Any, radius: float, allowance: float, blockers: Any,
                  spacing: float, near: Any) -> Any:
        return ctx.terrain.routes.reachable(start, radius, allowance, blockers=blockers,
                                            spacing=spacing, near=near)

    patch_ai(m, "reachable", reachable)
    patch_ai(m, "no_shortcut", lambda *a: False)
    patch_ai(m, "prefetch_cover_answers", lambda *a: None)
    patch_ai(m, "shared_commands", lambda units: {u.command for u in units})
    patch_ai(m, "visible_targets", _visible_one_by_one)
    patch_ai(m, "feature_gap", lambda ctx, feature, point, radius:
              ai_portals.gap_to_feature(feature, point, radius))
    pick_where = ai_candidates.pick_where
    patch_ai(m, "pick_where", lambda *a, chunk=4: pick_where(*a, chunk=chunk))
    m.setattr(autopilot, "carry_discs", lambda discs: None)
    from solo_ops.game import engine

    m.setattr(engine, "first_to_activate",
              lambda ctx, state, ready: planner.activation_order(ctx, state, ready))


def test_enemy_turns_are_the_same_without_this_rounds_fast_paths(
        monkeypatch: pytest.MonkeyPatch) -> None:
    fast = turns(12, 2)
    with monkeypatch.context() as m:
        _switch_off(m)
        full = turns(12, 2)
    assert len(fast) == len(full) > 12
    assert fast == full


MISSIONS = [
    ("crypt-objective-ultima", "objective", 1),
    ("gallowdark-cloister-purge", "cautious", 2),
    ("volkus-stronghold-supplement-example", "aggressive", 1),
    ("gallowdark-cloister-purge", "objective", 1),
    ("gallowdark-night-raid", "objective", 2)]
"""The whole missions played both ways: with the full budget (CI's slow pass,
``SOLO_OPS_TEST_BUDGET=full``) all five, else the first three, which keep every policy and
both editions (Kill Team 2018's crypt; a Gallowdark and a Volkus board of 2024)."""


@pytest.mark.parametrize(("name", "policy", "seed"), MISSIONS if FULL else MISSIONS[:3])
def test_missions_are_the_same_without_this_rounds_fast_paths(
        monkeypatch: pytest.MonkeyPatch, name: str, policy: str, seed: int) -> None:
    """Whole missions (enemy planner and player autopilot, 2024 and 2018): the same log,
    every action, event and die roll, with the fast paths and without."""
    scenario = load_scenario(SCENARIOS / f"{name}.yaml")

    def play() -> list[dict[str, Any]]:
        game, state = new_game(scenario, seed)
        autopilot.play(game, state, policy)
        return state.log

    fast = play()
    with monkeypatch.context() as m:
        _switch_off(m)
        full = play()
    assert len(fast) > 10
    assert fast == full
