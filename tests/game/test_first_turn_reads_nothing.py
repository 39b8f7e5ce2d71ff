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
    monkeypatch.setattr(discs, "FAST_DISCS", None)
    monkeypatch.setattr(circles, "FAST_RINGS", None)
    game, state = new_game(load_scenario(SCENARIOS / "volkus-stronghold-supplement-example.yaml"),
                           3)
    assert discs.FAST_DISCS is not None and circles.FAST_RINGS is not None

    def no_reading(*args: object) -> None:
        raise AssertionError("a table was parsed during the enemy's turn")

    def no_probe(*args: object) -> None:
        raise AssertionError("the GEOS probe ran during the enemy's turn")

    monkeypatch.setattr(tables, "parse_yaml_text", no_reading)
    if discs.FAST_DISCS:  # (else buffering the bases is the way, not a probe)
        monkeypatch.setattr(discs, "buffered_discs", no_probe)
    if circles.FAST_RINGS:
        monkeypatch.setattr(circles, "buffered_rings", no_probe)
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


def test_an_order_table_asked_by_name_is_the_one_asked_by_troop_type() -> None:
    """One cache: the table a unit asks by its troop's name is the very object a new game read
    by troop type (before, each was parsed and kept apart)."""
    read = tables.order_tables()
    for troop, table in read.items():
        assert tables.order_table(troop.value) is table
        assert tables.order_table(str(troop.value)) is table
