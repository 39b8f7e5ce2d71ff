"""Issue #14 item 1: every model, unit and counter id is used once in a game.

Source (supplement ``003``, enemy-count table): "3	2 Enemies" -- a resolved counter puts new
models on the table, so they need ids of their own; a revealed counter's models used to be
numbered from 1 again and overwrote the pre-placed ``cultist-1`` of the supplement example.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import tests.support.players as e2e
from solo_ops.core.dice import ScriptedDice
from solo_ops.game import fog
from solo_ops.game.state import Counter
from tests.support.fog_boards import OPEN, make
from tests.support.log_audit import shipped_scenarios


def _ids_from_log(records: list[dict[str, Any]]) -> tuple[list[str], list[str]]:
    """Every id the log introduces, in order, and the duplicates among them."""
    seen: list[str] = []
    dupes: list[str] = []

    def add(i: str) -> None:
        if i in seen:
            dupes.append(i)
        seen.append(i)

    for record in records:
        for e in record["events"]:
            t = e.get("type")
            if t == "squad_deployed":
                for m in e["models"]:
                    add(m["id"])
            elif t == "enemy_placed":
                for u in e["units"]:
                    add(u["id"])
                    for m in u["models"]:
                        add(m)
            elif t == "counter_placed":
                add(e["counter"])
            elif t == "ambush":
                add(e["second"])
            elif t == "counter_revealed":
                for m in e["models"]:
                    add(m["id"])
                for u in e["units"]:
                    add(u["id"])
    return seen, dupes


@pytest.mark.parametrize("path", shipped_scenarios(), ids=lambda p: p.stem)
def test_every_shipped_scenario_uses_each_id_once(path: Path) -> None:
    """Plays the scenario to the end with the scripted player (``bot_answers``) and reads every
    id the log introduces: squads, pre-placed enemies and their units, counters (an ambush's
    second one included) and every revealed model and unit."""
    records: list[dict[str, Any]] = []
    real_step = e2e.step

    def keeping(game: Any, state: Any, action: dict[str, Any]) -> dict[str, Any]:
        if not records:
            records.extend(state.log)  # the set-up record
        record = real_step(game, state, action)
        records.append(record)
        return record

    e2e.step = keeping  # type: ignore[assignment]
    try:
        e2e.bot_answers(path, 3)
    finally:
        e2e.step = real_step  # type: ignore[assignment]
    seen, dupes = _ids_from_log(records)
    assert len(seen) > 5
    assert dupes == []


def test_a_counter_revealed_beside_pre_placed_cultists_gets_new_ids() -> None:
    """The audit's case: pre-placed ``u2`` with ``cultist-1..3``, counter ``c2`` revealed as
    three models. The new models continue after every number in use (the highest is 3, from
    ``cultist-3``/``p3``), and ``u2`` being taken, the unit is ``u<N>`` after that."""
    enemies = [{"id": "u2", "command": 4, "models": [
        {"id": f"cultist-{k}", "profile": {"movement": 6, "wounds": 7, "save": 5,
                                           "leadership": 7, "base_mm": 32,
                                           "weapons": [{"name": "autogun", "type": "rapid",
                                                        "range": 24}]},
         "at": [30.0 + k * 1.5, 15.0]} for k in (1, 2, 3)]}]
    game, state = make(OPEN, [(2.0, 2.0), (4.0, 2.0), (6.0, 2.0)], enemies=enemies)
    counter = Counter("c2", (18.0, 10.0), 1, 2)
    state.counters["c2"] = counter
    # enemy count 3 ("3	2 Enemies"); roster faces 1, 1 (grunts); order roll 4
    state.dice = ScriptedDice(faces=[3, 1, 1, 4])
    res = fog.resolve_counter(game.terrain(state), state, counter, None, game.scenario.roster,
                              state.dice, game.settings, edition="kt2024")
    (r,) = res
    assert r.models == ["grunt-4", "grunt-5"]
    assert r.units == ["u6"]
    assert [m.id for m in state.operatives.values() if m.id.startswith("cultist")] == [
        "cultist-1", "cultist-2", "cultist-3"]
    assert state.units["u2"].models == ["cultist-1", "cultist-2", "cultist-3"]


def test_split_parts_of_a_counter_never_borrow_a_taken_unit_name() -> None:
    """A counter ``c2`` whose models split (a full tie) while a pre-placed ``u2`` exists: the
    parts are ``u<N>-<type>``, not ``u2-<type>`` (which would read as parts of the other u2)."""
    from solo_ops.game.state import State

    state = State(edition="kt2024")
    state.units["u2"] = None  # type: ignore[assignment]  # only its id matters here
    state.counters["c2"] = None  # type: ignore[assignment]
    assert state.new_unit_ids(["u2-fire-teams", "u2-melee"]) == ["u3-fire-teams", "u3-melee"]
    assert state.new_unit_ids(["u4"]) == ["u4"]
    assert state.new_unit_ids(["u5-fire-teams", "u5-melee"]) == ["u5-fire-teams", "u5-melee"]
