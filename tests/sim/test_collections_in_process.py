"""Games the autopilot plays to the end, and missions a rating plays in the caller's process
(``jobs`` 1), collect garbage as a pool's workers do (``sim.autopilot.GC_THRESHOLD``), and the
caller's own thresholds come back afterwards."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from solo_ops.io.scenario import load_scenario
from solo_ops.sim import autopilot, rating
from tests.support.players import small_scenario


@pytest.fixture
def odd_thresholds() -> Iterator[tuple[int, int, int]]:
    """The process's thresholds set to values no code here uses, put back after the test."""
    before = gc.get_threshold()
    odd = (701, 11, 12)
    gc.set_threshold(*odd)
    try:
        yield odd
    finally:
        gc.set_threshold(*before)


def test_fewer_collections_sets_and_restores(odd_thresholds: tuple[int, int, int]) -> None:
    with autopilot.fewer_collections():
        assert gc.get_threshold() == rating.POOL_GC_THRESHOLD
    assert gc.get_threshold() == odd_thresholds
    with pytest.raises(KeyError), autopilot.fewer_collections():
        raise KeyError("a mission that fails")
    assert gc.get_threshold() == odd_thresholds


def test_in_process_missions_play_with_the_pools_thresholds(
        odd_thresholds: tuple[int, int, int], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    seen: list[tuple[int, int, int]] = []

    def job(j: Any) -> str:  # what the thresholds are while each mission is played
        seen.append(gc.get_threshold())
        return f"mission {j[1]}"

    monkeypatch.setattr(rating, "worker_job", job)
    todo = [(None, 0, 11, "objective"), (None, 1, 12, "objective")]
    with rating.Runner(load_scenario(small_scenario(tmp_path)), jobs=1) as runner:
        assert runner.play(todo) == ["mission 0", "mission 1"]
    assert seen == [rating.POOL_GC_THRESHOLD] * 2
    assert rating.POOL_GC_THRESHOLD == autopilot.GC_THRESHOLD
    assert gc.get_threshold() == odd_thresholds


def test_a_game_played_to_its_end_restores_the_callers_thresholds(
        odd_thresholds: tuple[int, int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[int, int, int]] = []
    prompts = iter(["turn", "turn", "ended"])

    class Prompt:
        def __init__(self, kind: str) -> None:
            self.kind = kind

    def pending(game: Any, state: Any) -> Prompt:
        return Prompt(next(prompts))

    def answer(game: Any, state: Any, prompt: Any, policy: str) -> None:
        seen.append(gc.get_threshold())

    from solo_ops.game import engine
    monkeypatch.setattr(engine, "pending", pending)
    monkeypatch.setattr(autopilot, "answer", answer)
    state = object()
    assert autopilot.play(None, state) is state  # type: ignore[arg-type]
    assert seen == [autopilot.GC_THRESHOLD] * 2
    assert gc.get_threshold() == odd_thresholds
