"""Proposals without playing missions: the rating's missions replaced by results decided by
each candidate's win rate, so a test of the search, the campaign's threat or the page's
proposal sees known win rates at once (tests/sim/test_proposal.py works each choice out by
hand, and measures the search's intervals by Monte Carlo)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pytest

from solo_ops.sim import rating


class FakeRunner:
    """Stands in for :class:`~solo_ops.sim.rating.Runner` (patched over it, so that
    ``rating.Runner(scenario, ...)`` gives this object): mission ``i`` of candidate ``key`` is
    won when ``win(key, i)`` says so; the key's level (an ``(enemy, level)`` pair's, or the key
    itself) is the result's engagement. ``on_batch(todo)`` is called as each batch starts;
    ``plans(key)``: the models planned in each of ``key``'s missions (its cost,
    :func:`~solo_ops.sim.proposal.mission_cost`; 0 when not given)."""

    def __init__(self, win: Callable[[Any, int], bool],
                 on_batch: Callable[[Any], None] | None = None,
                 plans: Callable[[Any], int] | None = None) -> None:
        self.win, self.on_batch, self.plans = win, on_batch, plans

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
            out.append(rating.MissionResult(
                i, seed, level, "win" if self.win(key, i) else "loss", 0, 0, 0, 4, 9,
                plans=self.plans(key) if self.plans is not None else 0))
        if progress is not None:
            progress(len(todo), len(todo))
        return out


def wins(n: int, rate: float) -> int:
    """The wins of ``n`` missions at ``rate``, rounded half up: 12 at 62.5% are 8 (7.5)."""
    return math.floor(n * rate + 0.5)


def fake_missions(monkeypatch: pytest.MonkeyPatch,
                  rates: dict[tuple[str, int], float] | Callable[[str, int], float],
                  during: Callable[[], None] | None = None,
                  plans: Callable[[Any], int] | None = None) -> list[tuple[str, int, int]]:
    """Replace the missions by fixed results, spread evenly: the first ``n`` missions of a
    candidate (by index) hold ``wins(n, rate)`` wins, for every ``n``, so every look sees its
    rate as nearly as its missions allow (``rates``: by (enemy, level), or a function of
    them). Returns each batch as (enemy, level, missions played in it), in order.
    ``during()`` is called as each batch starts (while the rating is under way); ``plans``:
    as :class:`FakeRunner`'s."""
    rate_of = rates if callable(rates) else lambda enemy, level: rates[(enemy, level)]
    batches: list[tuple[str, int, int]] = []

    def batch(todo: Any) -> None:
        if during is not None:
            during()
        (enemy, level), *_rest = todo[0]
        batches.append((enemy, level, len(todo)))

    monkeypatch.setattr(rating, "Runner", FakeRunner(
        lambda key, i: wins(i + 1, rate_of(*key)) > wins(i, rate_of(*key)), batch, plans))
    return batches
