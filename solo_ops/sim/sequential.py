"""Rating until the answer is known: missions played in looks, stopped by a sound rule.

``solo-ops rate`` and ``new --difficulty`` used to play a fixed number of missions per level.
Here they play them in **looks**: after 16, 24, 32, 48, 64, 96, 128, 192, ... missions of a
level (:func:`looks`, the last look being the most the caller allows) the results so far are
examined and the run stops as soon as the answer is known:

- ``rate`` (:func:`rate`): when every level's 95% interval is narrower than ± ``width``, or
  when, with several levels, every two levels' intervals are apart (their order is certain);
- ``new --difficulty`` (:mod:`solo_ops.sim.difficulty` has the rules): when the level
  nearest the target win rate is certain, or known to within ± ``width``.

**Why the intervals stay 95% although the run may stop early** (optional stopping): looking at
a Wilson interval after every batch and stopping when it looks good would make the reported
interval too narrow, because the run stops exactly when chance made it look good. So the
interval of a level at each look is the Wilson interval at level ``alpha / K`` (``z`` =
:func:`z_for`), ``K`` being the number of looks the run may take: by the union bound, the
chance that *any* of a level's ``K`` intervals misses its true win rate is at most ``alpha``,
so the interval reported wherever the run stops holds with 95% or more (Bonferroni's
correction over looks). With one look (``width`` 0 asks never to stop early, and runs of at
most 16 missions have one look) it is the plain Wilson interval of a fixed number of missions.
Each level's interval holds with 95%; a decision that compares two levels rests on both, so it
is right with at least 90% (the union bound again) and usually far more, since the intervals
are apart when it is taken.

Determinism: the looks are counted in missions of each level by index (mission ``i`` has the
seed :func:`~solo_ops.sim.rating.mission_seed` of ``i`` at every level), and each look waits
for all of its missions, so where a run stops and what it reports depend only on the scenario,
the seed, the policy, the levels, ``width`` and the most missions allowed, never on the number
of workers or their speed. A run stopped by Ctrl-C reports what it had: for each level, the
missions of unbroken indices 0..n-1 that had finished (later ones are left out, so the sample
is not biased towards missions that finish quickly).

Pure: nothing here prints or opens a file; progress goes to a callback.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any

from solo_ops.sim import rating
from solo_ops.sim.rating import MissionResult, Runner

ALPHA = 0.05
"""One minus the confidence of every interval (95%)."""

DEFAULT_WIDTH = 0.08
"""The half-width of a level's interval at which a run stops (± 8 points)."""

FIRST_LOOK = 16


def looks(most: int, first: int = FIRST_LOOK) -> list[int]:
    """The missions of a level after which a run may stop: 16, 24, 32, 48, 64, 96, ... (each
    1.5 or 4/3 times the one before), ending with ``most``; just ``[most]`` when ``most`` is at
    most ``first``."""
    if most <= first:
        return [most]
    out: list[int] = []
    n, up = first, True
    while n < most:
        out.append(n)
        n = n * 3 // 2 if up else n * 4 // 3
        up = not up
    return [*out, most]


def z_for(k: int, alpha: float = ALPHA) -> float:
    """The normal quantile of a two-sided interval at level ``alpha / k`` (Bonferroni over
    ``k`` looks); one look at 95%: :data:`rating.Z95` itself, so a run of one look reports
    exactly the intervals of a fixed number of missions."""
    if k <= 1 and alpha == ALPHA:
        return rating.Z95
    return NormalDist().inv_cdf(1 - alpha / (2 * max(1, k)))


@dataclass(frozen=True)
class Interval:
    """A level's win rate so far: wins of ``n`` missions and its interval ``[lo, hi]``."""

    wins: int
    n: int
    lo: float
    hi: float

    @property
    def rate(self) -> float:
        return self.wins / self.n if self.n else 0.0

    @property
    def half(self) -> float:
        return (self.hi - self.lo) / 2

    def apart(self, other: Interval) -> bool:
        """Whether the two intervals do not meet (which level wins more is then certain)."""
        return self.hi < other.lo or other.hi < self.lo


Key = int | tuple[str, int] | None
"""What a run rates: an engagement level of its scenario (None: the scenario's own), or a
``(variant, level)`` pair — one of the :class:`~solo_ops.sim.rating.Runner`'s variants of the
scenario (another enemy on the same board) at a level."""


def key_name(key: Key) -> str:
    """``win`` (the scenario's own level), ``level 2`` or ``ork-mob level 2``."""
    if key is None:
        return "win"
    if isinstance(key, tuple):
        return f"{key[0]} level {key[1]}"
    return f"level {key}"


@dataclass
class Level:
    """One level's missions so far (in index order) and the next look it is played to."""

    engagement: Key
    results: list[MissionResult] = field(default_factory=list)
    look: int = 0

    def interval(self, z: float) -> Interval:
        n = len(self.results)
        wins = sum(r.outcome == "win" for r in self.results)
        lo, hi = rating.wilson(wins, n, z)
        return Interval(wins, n, lo, hi)


Progress = Callable[[int, int, str], None]
"""``progress(missions done, most missions still possible in all, the intervals so far)``."""


class Looks:
    """The missions of several levels of one scenario, played look by look on a
    :class:`~solo_ops.sim.rating.Runner` (see the module docstring)."""

    def __init__(self, runner: Runner, seed: int, policy: str, most: int,
                 width: float = DEFAULT_WIDTH, progress: Progress | None = None,
                 levels: Sequence[Key] = (None,), planned: int | None = None) -> None:
        self.runner, self.seed, self.policy = runner, seed, policy
        self.schedule = looks(most) if width > 0 else [most]
        self.z = z_for(len(self.schedule))
        self.width = width
        self.levels = {lv: Level(lv) for lv in levels}
        self.progress = progress
        self.planned = planned if planned is not None else most * len(self.levels)
        self.interrupted = False
        self.started = time.perf_counter()

    def interval(self, level: Key) -> Interval:
        return self.levels[level].interval(self.z)

    def add(self, level: Key) -> None:
        """Rate ``level`` too (a key not given at the start: another variant, another level)."""
        self.levels.setdefault(level, Level(level))

    def done(self, level: Key) -> bool:
        """Whether ``level`` has had its last look, or its interval is narrow enough."""
        state = self.levels[level]
        return state.look >= len(self.schedule) or (
            bool(state.results) and self.interval(level).half <= self.width)

    def played(self) -> int:
        return sum(len(s.results) for s in self.levels.values())

    def step(self, levels: Sequence[Key], most: int | None = None) -> None:
        """Play each of ``levels`` to its next look (one batch, every worker busy); ``most``:
        no further than that many missions of a level (a run's budget ending inside a look:
        still one look of the schedule, so the intervals keep their 95%)."""
        todo: list[rating.Job] = []
        for lv in levels:
            state = self.levels[lv]
            target = self.schedule[min(state.look, len(self.schedule) - 1)]
            if most is not None:
                target = min(target, most)
            todo += [(lv, i, rating.mission_seed(self.seed, i), self.policy)
                     for i in range(len(state.results), target)]
            state.look += 1
        finished: dict[int, MissionResult] = {}
        before = self.played()

        def report(done: int, _total: int) -> None:
            if self.progress is not None:
                self.progress(before + done, self.planned, self.describe())

        try:
            batch = self.runner.play(todo, report, finished)
        except KeyboardInterrupt:
            self.interrupted = True
            for k, (lv, _i, _, _) in enumerate(todo):  # each level's unbroken run of indices
                state = self.levels[lv]
                if k in finished and finished[k].index == len(state.results):
                    state.results.append(finished[k])
            return
        for (lv, _, _, _), result in zip(todo, batch, strict=True):
            self.levels[lv].results.append(result)

    def describe(self) -> str:
        """The intervals so far, one level after another ("level 2: 45% [31-60%]")."""
        parts = []
        for lv, state in self.levels.items():
            if not state.results:
                continue
            iv = self.interval(lv)
            name = key_name(lv)
            parts.append(f"{name} {100 * iv.rate:.0f}% [{100 * iv.lo:.0f}-{100 * iv.hi:.0f}%]")
        return ", ".join(parts)

    def summary(self, level: Key) -> dict[str, Any]:
        """:func:`rating.summarise` of ``level``'s missions, with this run's interval."""
        state = self.levels[level]
        doc = rating.summarise(state.results)
        iv = self.interval(level)
        doc["win_rate_ci95"] = [round(iv.lo, 4), round(iv.hi, 4)]
        return doc


def rate(runner: Runner, seed: int, policy: str, most: int, *,
         engagements: Sequence[int] | None = None, width: float = DEFAULT_WIDTH,
         progress: Progress | None = None) -> Looks:
    """``solo-ops rate``: play every level look by look until every level's interval is
    narrower than ± ``width`` or (several levels) every two levels' intervals are apart, or
    ``most`` missions a level are played, or Ctrl-C. ``width`` 0: ``most`` missions, one look."""
    levels: list[int | None] = list(engagements) if engagements else [None]
    run = Looks(runner, seed, policy, most, width, progress, levels)
    while not run.interrupted:
        todo = [lv for lv in levels if not run.done(lv)]
        if not todo or (len(levels) > 1 and _ordered(run, levels)):
            break
        run.step(todo)
    return run


def _ordered(run: Looks, levels: Sequence[int | None]) -> bool:
    """Whether every two levels' intervals are apart (none is empty)."""
    ivs = [run.interval(lv) for lv in levels]
    if any(iv.n == 0 for iv in ivs):
        return False
    return all(a.apart(b) for k, a in enumerate(ivs) for b in ivs[k + 1:])


def distance(iv: Interval, target: float) -> tuple[float, float]:
    """The range of ``|win rate - target|`` the interval allows."""
    if iv.lo <= target <= iv.hi:
        return (0.0, max(target - iv.lo, iv.hi - target))
    if iv.lo > target:
        return (iv.lo - target, iv.hi - target)
    return (target - iv.hi, target - iv.lo)
