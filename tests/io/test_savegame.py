"""Saves are scenario + seed + actions: restore, undo, log bookkeeping (undo lines, catching up
after a kill)."""

from __future__ import annotations

import json

import pytest

from solo_ops.core.errors import InputError
from solo_ops.game.engine import new_game, step
from solo_ops.io.savegame import (
    MIGRATIONS,
    SCHEMA_VERSION,
    can_undo,
    checkpoint_problem,
    effective_records,
    game_document,
    reconcile_log,
    restore,
    undo,
    undo_marker,
)
from tests.support.small_table import scenario


def played() -> tuple[object, object]:
    game, state = new_game(scenario(), 1)
    step(game, state, {"type": "engine"})
    while state.next_side != "player":
        step(game, state, {"type": "engine"})
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    step(game, state, {"type": "move", "how": "reposition", "to": [6, 10]})
    step(game, state, {"type": "done"})
    return game, state


def test_restore_replays_to_the_same_state() -> None:
    game, state = played()
    doc = json.loads(json.dumps(game_document(game, state)))
    assert doc["kind"] == "solo-ops-game" and doc["schema_version"] == 5
    _game2, state2 = restore(doc, "save.json")
    assert state2.to_dict(secrets=True) == state.to_dict(secrets=True)
    assert state2.log == json.loads(json.dumps(state.log))


def test_undo_drops_the_last_answer_and_the_engine_steps_after_it() -> None:
    e, a = {"type": "engine"}, {"type": "activate", "operative": "a1"}
    m, d = {"type": "move", "to": [1, 1]}, {"type": "done"}
    assert undo([e, a, m, d, e, e]) == [e, a, m]
    assert undo([e, a]) == [e]
    assert undo([e, e]) == [] and not can_undo([e, e])
    assert undo([]) == [] and can_undo([e, a])


def test_undo_then_the_same_answer_gives_the_same_dice() -> None:
    game, state = played()
    doc = game_document(game, state)
    before = restore(doc, "s", undo(doc["actions"]))[1]
    again = restore(doc, "s", undo(doc["actions"]))[1]
    assert before.to_dict(secrets=True) == again.to_dict(secrets=True)
    step(*restore(doc, "s", undo(doc["actions"])), {"type": "done"})


def test_a_damaged_save_names_the_failing_action() -> None:
    game, state = played()
    doc = game_document(game, state)
    doc["actions"][2] = {"type": "move", "how": "reposition", "to": [15, 10]}  # into the wall
    with pytest.raises(InputError, match=r"actions\[2\].*replaying action 3 failed"):
        restore(doc, "save.json")
    with pytest.raises(InputError, match="schema_version"):
        restore({**doc, "schema_version": 9}, "save.json")
    with pytest.raises(InputError, match="not a solo-ops game save"):
        restore({"kind": "other"}, "save.json")


def _migrated(doc: dict[str, object], version: int) -> dict[str, object]:
    doc = json.loads(json.dumps(doc))
    while version < SCHEMA_VERSION:
        doc = MIGRATIONS[version](doc)
        version += 1
    return doc


def test_both_forms_of_schema_4_and_schema_3_migrate_into_one_schema_5() -> None:
    """Schema 4 was written in two forms (issue #31: the log chain and a sealed checkpoint;
    issue #30: the table's links): each migrates to 5 keeping what it had, a save without a
    chain as a schema 3 save does (its checkpoint checked for sense only), a save without links
    with none yet; a sealed checkpoint whose hash was taken out is still refused."""
    game, state = played()
    now = json.loads(json.dumps(game_document(game, state)))  # as saved
    assert SCHEMA_VERSION == 5 and set(MIGRATIONS) == {1, 2, 3, 4}
    assert {"chain", "links"} <= set(now) and isinstance(now["checkpoint"]["hash"], str)
    links = {"id": "0123456789abcdef", "host": "h" * 16, "players": {"Ana": "a" * 16}}
    unsealed = {k: v for k, v in now["checkpoint"].items() if k != "hash"}
    v31 = {k: v for k, v in now.items() if k != "links"}  # chain, sealed checkpoint
    v30 = {**{k: v for k, v in now.items() if k != "chain"}, "links": links,
           "checkpoint": unsealed}
    v3 = {k: v for k, v in v30.items() if k != "links"}
    got31, got30, got3 = _migrated(v31, 4), _migrated(v30, 4), _migrated(v3, 3)
    assert got31 == {**v31, "links": None} and checkpoint_problem(got31) is None
    assert got30["links"] == links and got30["chain"] is None
    assert got30["checkpoint"] == {**unsealed, "unhashed": True}
    assert checkpoint_problem(got30) is None
    assert got3["links"] is None and got3["chain"] is None
    assert got3["checkpoint"] == {**unsealed, "unhashed": True}
    for doc in (got31, got30, got3):
        _game2, state2 = restore(doc, "save.json")
        assert state2.to_dict(secrets=True) == state.to_dict(secrets=True)
    stripped = _migrated({**v31, "checkpoint": unsealed}, 4)  # a #31 save, its seal taken out
    assert checkpoint_problem(stripped) == "it has no hash"


def test_effective_records_apply_undo_lines() -> None:
    recs = [{"n": i, "action": {"type": "engine"}} for i in range(5)]
    entries = [*recs[:4], undo_marker(2), {"n": 2, "action": {"type": "done"}}]
    assert effective_records(entries) == [recs[0], recs[1], {"n": 2, "action": {"type": "done"}}]
    with pytest.raises(InputError):
        effective_records([undo_marker(-1)])


def test_reconcile_log_catches_up_or_rewinds() -> None:
    _game, state = played()
    log = json.loads(json.dumps(state.log))
    # complete
    assert reconcile_log(log, state) == (None, [])
    # killed between the save and the log append: the missing record is appended
    keep, missing = reconcile_log(log[:-1], state)
    assert keep is None and missing == [state.log[-1]]
    # the log went further than the save (or differs): undo back to the common part
    extra = [*log, {"n": len(log), "action": {"type": "done"}}]
    assert reconcile_log(extra, state) == (len(log), [])
    forked = [*log[:-1], {"n": len(log) - 1, "action": {"type": "damage"}}]
    assert reconcile_log(forked, state) == (len(log) - 1, [state.log[-1]])
