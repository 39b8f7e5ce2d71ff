"""Proposals without playing missions: the rating's missions replaced by fixed results per
candidate, so a test of the search, the campaign's threat or the page's proposal sees exact win
rates at once (tests/sim/test_proposal.py works each choice out by hand)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from solo_ops.sim import rating


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

    class Runner:
        def __init__(self, scenario: Any, **_: Any) -> None:
            pass

        def __enter__(self) -> Runner:
            return self

        def __exit__(self, *exc: object) -> None:
            pass

        def play(self, todo: Any, progress: Any = None, finished: Any = None
                 ) -> list[rating.MissionResult]:
            if during is not None:
                during()
            out = []
            for (enemy, level), i, seed, _ in todo:
                win = i % 8 < round(8 * rate_of(enemy, level))
                out.append(rating.MissionResult(i, seed, level, "win" if win else "loss", 0,
                                                0, 0, 4, 9))
            (enemy, level), *_rest = todo[0]
            batches.append((enemy, level, len(todo)))
            if progress is not None:
                progress(len(todo), len(todo))
            return out

    monkeypatch.setattr(rating, "Runner", Runner)
    return batches
