"""``Dice.since`` reads the log's tail (its cost is the new rolls, not the game's length) and
gives exactly the entries numbered after ``seq``, through rolls, an emptied log (the campaign
empties it) and a save and restore (the restored source starts with an empty log)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from solo_ops.core.dice import Dice, RollEntry, SeededDice, dice_from_state

step = st.one_of(st.tuples(st.just("roll"), st.integers(1, 4)),
                 st.tuples(st.just("clear"), st.just(0)),
                 st.tuples(st.just("restore"), st.just(0)))


def _by_filter(dice: Dice, seq: int) -> list[RollEntry]:
    return [e for e in dice.log if e.seq > seq]


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32), st.lists(step, max_size=25))
def test_since_is_every_entry_after_seq(seed: int, steps: list[tuple[str, int]]) -> None:
    dice: Dice = SeededDice(seed=seed)
    for kind, count in steps:
        if kind == "roll":
            for _ in range(count):
                dice.d6("t")
        elif kind == "clear":
            dice.log.clear()
        else:
            dice = dice_from_state(json.loads(json.dumps(dice.state())))
        for seq in range(-1, dice.seq + 2):
            assert dice.since(seq) == _by_filter(dice, seq)


def test_since_after_the_last_roll_is_empty_and_before_the_first_is_all() -> None:
    dice = SeededDice(seed=5)
    entries = [dice.d6(f"r{i}") for i in range(6)]
    assert dice.since(dice.seq) == []
    assert dice.since(0) == entries
    assert [e.purpose for e in dice.since(4)] == ["r4", "r5"]
