"""Difficulty words as rated win rates: the engagement level for ``new --difficulty``.

Each word has a target win rate for the players (as played by the autopilot, policy
``objective``): **easy 80%, normal 60%, hard 40%, brutal 20%**. :func:`choose_level` rates the
levels of a scenario with :func:`solo_ops.sim.rating.run` and returns the one whose rated win
rate is nearest the target.

To be quick enough to wait for, the levels are rated in order from 1 and the search stops as
soon as a level's win rate falls to the target or below: the win rate falls as the level rises
(more hidden counters, more enemies; ``tests/test_sim_levels.py`` checks level 1 against 6), so
no higher level can be nearer. The level chosen is the nearer of the last two rated (ties: the
easier). ``missions`` per level is the caller's (``new`` and the campaign rate 48 per level
by default).

Pure: no printing, no files; progress through a callback.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from solo_ops.game.scenario import Scenario
from solo_ops.sim import rating

TARGETS: dict[str, float] = {"easy": 0.80, "normal": 0.60, "hard": 0.40, "brutal": 0.20}
"""The players' rated win rate each difficulty word aims at."""

LEVELS = (1, 2, 3, 4, 5, 6)
POLICY = "objective"


@dataclass(frozen=True)
class Rated:
    """The level chosen, its summary (:func:`rating.summarise`) and every level rated."""

    word: str
    level: int
    summary: dict[str, Any]
    rated: dict[int, dict[str, Any]]

    def line(self) -> str:
        """The briefing's words: ``rated: you win 58% ± 4%`` (half the 95% interval)."""
        lo, hi = self.summary["win_rate_ci95"]
        return (f"rated: you win {100 * self.summary['win_rate']:.0f}% ± "
                f"{100 * (hi - lo) / 2:.0f}% ({self.summary['missions']} simulated missions "
                f"at level {self.level}; target {100 * TARGETS[self.word]:.0f}% for "
                f"'{self.word}')")


def choose_level(scenario: Scenario, word: str, *, missions: int, seed: int, jobs: int = 1,
                 progress: Callable[[int, int], None] | None = None) -> Rated:
    """The engagement level of ``scenario`` whose rated win rate is nearest ``word``'s target
    (see the module docstring)."""
    if word not in TARGETS:
        raise ValueError(f"unknown difficulty {word!r} ({', '.join(TARGETS)})")
    target = TARGETS[word]
    rated: dict[int, dict[str, Any]] = {}
    played = 0
    total = missions * len(LEVELS)

    def step(done: int, _total: int) -> None:
        if progress is not None:
            progress(played + done, total)

    for level in LEVELS:
        results = rating.run(scenario, missions, seed, policy=POLICY, engagements=[level],
                             jobs=jobs, progress=step)
        played += len(results)
        rated[level] = rating.summarise(results)
        if rated[level]["win_rate"] <= target:
            break
    best = min(rated, key=lambda lv: (abs(rated[lv]["win_rate"] - target), lv))
    if progress is not None:
        progress(total, total)
    return Rated(word, best, rated[best], rated)
