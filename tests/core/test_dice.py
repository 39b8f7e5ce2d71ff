"""Dice: seeded reproducibility, save/restore mid-game, logging, the scripted double."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solo_ops.core.dice import (
    DiceExhausted,
    RollEntry,
    ScriptedDice,
    SeededDice,
    dice_from_state,
    outcomes,
)


def _faces(dice: SeededDice, n: int, sides: int = 6) -> list[int]:
    return [dice.roll("t", 1, sides).face for _ in range(n)]


def test_same_seed_same_rolls() -> None:
    assert _faces(SeededDice(seed=42), 200) == _faces(SeededDice(seed=42), 200)


def test_different_seeds_differ() -> None:
    assert _faces(SeededDice(seed=1), 50) != _faces(SeededDice(seed=2), 50)


def test_known_sequence_is_stable_across_versions() -> None:
    # Pinned output of the counter-based generator: a change here breaks every saved game.
    assert _faces(SeededDice(seed=0), 10) == [2, 1, 2, 5, 2, 1, 6, 3, 6, 3]


@given(st.integers(min_value=0, max_value=2**64 - 1), st.integers(0, 40),
       st.integers(1, 40))
def test_save_and_restore_continues_identically(seed: int, before: int, after: int) -> None:
    dice = SeededDice(seed=seed)
    _faces(dice, before)
    state = json.loads(json.dumps(dice.state()))  # plain data survives JSON
    restored = dice_from_state(state)
    assert _faces(restored, after) == _faces(dice, after)
    assert restored.seq == dice.seq


def test_roll_entry_records_everything() -> None:
    dice = ScriptedDice(faces=[5])
    entry = dice.d6("order roll (melee)", [("Leadership 9", 2)], high=6)
    assert entry.purpose == "order roll (melee)"
    assert entry.dice == "d6"
    assert entry.faces == (5,)
    assert entry.modifiers == (("Leadership 9", 2),)
    assert entry.value == 6  # 5 + 2 capped at 6
    assert dice.log == [entry]
    assert RollEntry.from_dict(json.loads(json.dumps(entry.to_dict()))) == entry
    assert entry.describe() == "d6 rolled 5 +2 (Leadership 9) = 6"


def test_log_is_ordered_and_numbered() -> None:
    dice = SeededDice(seed=3)
    dice.d6("a")
    dice.roll("b", 2, 6)
    dice.d3("c")
    assert [(e.seq, e.purpose, e.dice) for e in dice.log] == [(1, "a", "d6"), (2, "b", "2d6"),
                                                              (3, "c", "d3")]
    assert all(1 <= f <= 3 for f in dice.log[2].faces)
    assert dice.since(1) == dice.log[1:]


def test_scripted_dice_play_back_and_run_out() -> None:
    dice = ScriptedDice(faces=[3, 6])
    assert dice.d6("x").face == 3
    assert dice.d6("y").face == 6
    with pytest.raises(DiceExhausted):
        dice.d6("z")


def test_scripted_face_must_fit_the_die() -> None:
    with pytest.raises(ValueError, match="not on a d3"):
        ScriptedDice(faces=[5]).d3("x")


def test_faces_are_uniform() -> None:
    # 60,000 rolls: each face expected 10,000; chi-square with 5 degrees of freedom has a
    # 0.1% critical value of 20.52. Fixed seed, so the test is deterministic.
    dice = SeededDice(seed=2024)
    counts = Counter(_faces(dice, 60_000))
    chi2 = sum((counts[f] - 10_000) ** 2 / 10_000 for f in range(1, 7))
    assert chi2 < 20.52


def test_choice_and_uniform_are_logged() -> None:
    dice = SeededDice(seed=5)
    pick = dice.choice("pick a sector", ["a", "b", "c"])
    assert pick in {"a", "b", "c"}
    u = dice.uniform("placement x")
    assert 0.0 <= u < 1.0
    assert [e.purpose for e in dice.log] == ["pick a sector", "placement x"]


def test_outcomes_are_exact() -> None:
    assert outcomes(6) == [(f, 1 / 6) for f in range(1, 7)]
    assert sum(p for _, p in outcomes(3)) == pytest.approx(1.0)


def test_generator_is_reference_splitmix64() -> None:
    # The published SplitMix64 outputs for seed 0 (Vigna's reference implementation).
    dice = SeededDice(seed=0)
    assert [dice.next64() for _ in range(3)] == [
        0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F,
    ]
