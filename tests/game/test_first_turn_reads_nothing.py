"""What a game needs once per process is found when the game is made, so the enemy's first turn
at the table never pauses for it: the order tables (asked by troop name as well as by troop
type: one cache) and the facts about the GEOS library in use (whether bases' and circles'
vertices may come from the table of cosines)."""

from __future__ import annotations

import pytest

from solo_ops.ai.planner import plan_activation
from solo_ops.core import tables
from solo_ops.game.engine import new_game
from solo_ops.geometry.routes import discs
from solo_ops.geometry.sight import circles
from solo_ops.io.scenario import load_scenario
from tests.support.paths import SCENARIOS


def test_the_enemys_first_turn_reads_no_table_and_probes_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    tables._order_table.cache_clear()
    monkeypatch.setattr(discs, "FAST_DISCS", None)
    monkeypatch.setattr(circles, "FAST_RINGS", None)
    game, state = new_game(load_scenario(SCENARIOS / "volkus-stronghold-supplement-example.yaml"), 3)
    assert discs.FAST_DISCS is not None and circles.FAST_RINGS is not None

    def no_reading(name: str) -> None:
        raise AssertionError(f"the table {name} was read during the enemy's turn")

    def no_probe() -> bool:
        raise AssertionError("the GEOS probe ran during the enemy's turn")

    monkeypatch.setattr(tables, "_read_data", no_reading)
    monkeypatch.setattr(circles, "_rings_match_geos", no_probe)
    monkeypatch.setattr(discs, "buffered_discs", lambda *a: no_probe())
    ctx = game.context(state)
    planned = 0
    for unit in state.active_units():  # every unit, by its troop's name (a str)
        if unit.fsm == "hidden" or not state.unit_models(unit):
            continue
        assert isinstance(unit.troop, str)
        plan = plan_activation(ctx, state, unit.id, "firefight")
        planned += 1
        assert plan.unit == unit.id
    assert planned > 0
