"""Shared by the tests: moved from ai/test_planner_fast_paths.py."""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

import pytest
import yaml

import solo_ops.ai
from solo_ops.ai import planner
from solo_ops.game.enemy import apply_plan
from solo_ops.game.engine import new_game
from solo_ops.io.scenario import _inline, _inline_squads, parse_scenario
from tests.support.paths import SCENARIOS

RAID = SCENARIOS / "gallowdark-night-raid.yaml"


AI_MODULES = [importlib.import_module(f"solo_ops.ai.{m.name}")
              for m in pkgutil.iter_modules(solo_ops.ai.__path__)]


def patch_ai(m: pytest.MonkeyPatch, name: str, value: Any) -> None:
    """Patch the planner's ``name`` wherever it is looked up: in each module of
    :mod:`solo_ops.ai` that holds it (the one defining it, those importing it, and
    ``planner``, through which the autopilot and the tests reach it)."""
    held = [module for module in AI_MODULES if hasattr(module, name)]
    assert planner in held, name
    for module in held:
        m.setattr(module, name, value)


# -- whole turns with and without the fast paths -------------------------------------------------
def raid(units: int, seed: int) -> tuple[Any, Any]:
    """gallowdark-night-raid with ``units`` one-model enemy units on the east half (as
    ``bench/bench_ai.py`` builds it)."""
    from shapely.geometry import box

    doc = yaml.safe_load(RAID.read_text())
    for key in ("board", "roster"):
        _inline(doc, key, RAID.parent, str(RAID))
    _inline_squads(doc, RAID.parent, str(RAID))
    names = sorted(doc["roster"]["profiles"])
    doc["engagement"] = 1
    doc.pop("counters", None)
    game, _ = new_game(parse_scenario(doc, str(RAID)), seed)
    pts = game.terrains.get().routes.free_points(box(15, 0, 30, 22), 0.7, spacing=1.5)
    chosen = pts[::max(1, len(pts) // units)][:units]
    doc["enemies"] = [
        {"id": f"u{i + 1}", "command": (i % 6) + 1,
         "models": [{"id": f"u{i + 1}-a", "profile": names[i % len(names)],
                     "at": [float(x), float(y)]}]}
        for i, (x, y) in enumerate(chosen)
    ]
    game, state = new_game(parse_scenario(doc, str(RAID)), seed)
    state.counters.clear()
    return game, state


def turns(units: int, turns: int) -> list[dict[str, Any]]:
    game, state = raid(units, 3)
    plans = []
    for _ in range(turns):
        done: set[str] = set()
        while True:
            ctx = game.context(state)
            ready = [u for u in state.active_units() if u.fsm != "hidden"
                     and u.id not in done and state.unit_models(u)]
            if not ready:
                break
            unit = planner.activation_order(ctx, state, ready)[0]
            plan = planner.plan_activation(ctx, state, unit.id, "firefight")
            plans.append(plan.to_dict())
            apply_plan(game, state, plan)
            done.add(unit.id)
        for op in state.operatives.values():
            op.activated = op.moved = op.shot = op.fought = op.charged = False
    return plans
