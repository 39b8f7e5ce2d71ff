"""The shared unit state machine: legal transitions, refusals, states as plain strings."""

from __future__ import annotations

import json

import pytest

from solo_ops.ai import fsm
from solo_ops.ai.fsm import IllegalTransition, allowed, fire


def test_required_states_exist() -> None:
    for state in ("hidden", "idle", "moving", "in_cover", "holding_range", "charging",
                  "in_melee", "grouping", "rallying", "falling_back", "destroyed", "merged"):
        assert state in fsm.STATES


def test_machine_is_shared_and_never_auto() -> None:
    assert fsm.MACHINE.auto_transitions is False
    # no "to_<state>" helpers: only the declared triggers exist
    assert not any(t.startswith("to_") for t in fsm.MACHINE.events)
    assert set(fsm.MACHINE.events) == set(fsm.TRIGGERS)


@pytest.mark.parametrize(
    ("state", "trigger", "after"),
    [
        ("hidden", "spotted", "idle"),
        ("idle", "order_move", "moving"),
        ("moving", "reached_cover", "in_cover"),
        ("idle", "hold_range", "holding_range"),
        ("moving", "charge", "charging"),
        ("charging", "engaged", "in_melee"),
        ("in_cover", "charged", "in_melee"),
        ("in_melee", "fall_back", "falling_back"),
        ("falling_back", "disengaged", "idle"),
        ("idle", "group", "grouping"),
        ("grouping", "merged", "merged"),
        ("idle", "rally", "rallying"),
        ("grouping", "leader_destroyed", "idle"),
        ("in_cover", "leader_destroyed", "in_cover"),
        ("in_cover", "shot_at", "in_cover"),
        ("holding_range", "lost_models", "holding_range"),
        ("in_melee", "destroyed", "destroyed"),
        ("hidden", "destroyed", "destroyed"),
    ],
)
def test_transitions(state: str, trigger: str, after: str) -> None:
    assert fire(state, trigger) == after


@pytest.mark.parametrize(
    ("state", "trigger"),
    [
        ("hidden", "order_move"),  # a counter cannot follow an order before it is spotted
        ("destroyed", "spotted"),
        ("merged", "order_move"),
        ("in_melee", "order_move"),  # in combat a unit fights or falls back
        ("idle", "fall_back"),
        ("idle", "disengaged"),
        ("destroyed", "destroyed"),
    ],
)
def test_refused_transitions(state: str, trigger: str) -> None:
    assert not allowed(state, trigger)
    with pytest.raises(IllegalTransition):
        fire(state, trigger)


def test_unknown_names_are_refused() -> None:
    with pytest.raises(IllegalTransition):
        fire("dancing", "spotted")
    with pytest.raises(IllegalTransition):
        fire("idle", "teleport")


def test_state_is_a_plain_string_and_machine_keeps_no_models() -> None:
    before = len(fsm.MACHINE.models)
    state = fire("hidden", "spotted")
    assert isinstance(state, str)
    assert json.loads(json.dumps({"state": state})) == {"state": "idle"}
    assert len(fsm.MACHINE.models) == before


def test_table_matches_the_machine_fired_on_a_fresh_model_for_every_pair() -> None:
    """The look-up table against the machine itself: for every state and trigger, a model
    added fresh in that state either moves to the table's state or is refused."""
    from transitions import MachineError

    class Fresh:
        state: str

    legal = 0
    for state in fsm.STATES:
        for trigger in fsm.TRIGGERS:
            model = Fresh()
            fsm.MACHINE.add_model(model, initial=state)
            try:
                model.trigger(trigger)  # type: ignore[attr-defined]
                assert fire(state, trigger) == model.state, (state, trigger)
                legal += 1
            except MachineError:
                assert not allowed(state, trigger), (state, trigger)
            finally:
                fsm.MACHINE.remove_model(model)
    assert legal == len(fsm.TABLE) == 117
