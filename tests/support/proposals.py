"""Proposals without playing missions: the rating's missions replaced by results decided by
each candidate's win rate, so a test of the search, the campaign's threat or the page's
proposal sees known win rates at once (tests/sim/test_proposal.py works each choice out by
hand, and measures the search's intervals by Monte Carlo)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from solo_ops.sim import rating


class FakeRunner:
    """Stands in for :class:`~solo_ops.sim.rating.Runner` (patched over it, so that
    ``rating.Runner(scenario, ...)`` gives this object): mission ``i`` of candidate ``key`` is
    won when ``win(key, i)`` says so; the key's level (an ``(enemy, level)`` pair's, or the key
    itself) is the result's engagement. ``on_batch(todo)`` is called as each batch starts."""

    def __init__(self, win: Callable[[Any, int], bool],
                 on_batch: Callable[[Any], None] | None = None) -> None:
        self.win, self.on_batch = win, on_batch

    def __call__(self, scenario: Any, **_: Any) -> FakeRunner:
        return self

    def __enter__(self) -> FakeRunner:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def play(self, todo: Any, progress: Any = None, finished: Any = None
             ) -> list[rating.MissionResult]:
        if self.on_batch is not None:
            self.on_batch(todo)
        out = []
        for key, i, seed, _ in todo:
            level = key[1] if isinstance(key, tuple) else key
            out.append(rating.MissionResult(i, seed, level, "win" if self.win(key, i) else
                                            "loss", 0, 0, 0, 4, 9))
        if progress is not None:
            progress(len(todo), len(todo))
        return out


def fake_missions(monkeypatch: pytest.MonkeyPatch,
                  rates: dict[tuple[str, int], float] | Callable[[str, int], float],
                  during: Callable[[], None] | None = None) -> list[tuple[str, int, int]]:
    """Replace the missions by fixed results: of every 8 missions of a candidate (by index),
    the first ``round(8 * rate)`` are wins, so every look (16, 32, 64 ...) sees exactly that
    rate (``rates``: by (enemy, level), or a function of them). Returns each batch as (enemy,
    level, missions played in it), in order. ``during()`` is called as each batch starts
    (while the rating is under way)."""
    rate_of = rates if callable(rates) else lambda enemy, level: rates[(enemy, level)]
    batches: list[tuple[str, int, int]] = []

    def batch(todo: Any) -> None:
        if during is not None:
            during()
        (enemy, level), *_rest = todo[0]
        batches.append((enemy, level, len(todo)))

    monkeypatch.setattr(rating, "Runner", FakeRunner(
        lambda key, i: i % 8 < round(8 * rate_of(*key)), batch))
    return batches
