"""Saves are scenario + seed + actions: restore, undo, log bookkeeping (undo lines, catching up
after a kill)."""

from __future__ import annotations

import json

import pytest

from solo_ops.core.errors import InputError
from solo_ops.game.engine import new_game, step
from solo_ops.io.savegame import (
    can_undo,
    effective_records,
    game_document,
    reconcile_log,
    restore,
    undo,
    undo_marker,
)

from .test_engine import scenario


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
    assert doc["kind"] == "solo-ops-game" and doc["schema_version"] == 4
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
