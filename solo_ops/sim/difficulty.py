"""Difficulty words as rated win rates: the engagement level for ``new --difficulty``.

Each word has a target win rate for the players (as played by the autopilot, policy
``objective``): **easy 80%, normal 60%, hard 40%, brutal 20%**. :func:`choose_level` rates the
levels of a scenario and returns the one whose rated win rate is nearest the target.

To be quick enough to wait for while the table is set up, it plays missions look by look
(:mod:`solo_ops.sim.sequential`: 16, 24, 32, 48 ... missions of a level, at most ``missions``,
each level's interval valid however early the run stops) and stops as soon as the answer is
known:

1. The levels are climbed from 1 on their first look (16 missions each) while the win rate
   is above the target: it falls as the level rises (more hidden counters, more enemies;
   ``tests/sim/test_levels.py`` checks level 1 against 6), so the crossing lies where it
   first falls to the target or below.
2. The level at the crossing is compared with the one before it: the answer is certain once
   the ranges of ``|win rate - target|`` their intervals allow are apart; otherwise both are
   played on, look by look, until they are, or until both are narrower than ± ``width`` (or
   complete), and the level rated nearest by win rate is chosen (ties: the easier; with noisy
   small samples an earlier level can be nearer than either). If the missions played meanwhile
   show the crossing elsewhere (the harder level wholly above the target, or the easier wholly
   below), the search goes on from there.
3. Level 1 at or below the target is settled alone (played until its interval is clear of the
   target, narrow enough or complete): if it stays there it is the answer, else the climb goes
   on; level 6 still above the target likewise, and then the level rated nearest is chosen.

Pure: no printing, no files; progress through a callback.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solo_ops.game.scenario import Scenario
from solo_ops.sim import rating, sequential

TARGETS: dict[str, float] = {"easy": 0.80, "normal": 0.60, "hard": 0.40, "brutal": 0.20}
"""The players' rated win rate each difficulty word aims at."""

LEVELS = (1, 2, 3, 4, 5, 6)
POLICY = "objective"


@dataclass(frozen=True)
class Rated:
    """The level chosen, its summary (:func:`rating.summarise`) and every level rated. Only
    the win, draw and loss figures are whole missions': a rated mission stops once its outcome
    is certain (``outcome_only``), so its VP, losses and turns are those of that moment."""

    word: str
    level: int
    summary: dict[str, Any]
    rated: dict[int, dict[str, Any]]
    interrupted: bool = False
    missions: int = 0
    """Missions played in all (every level)."""

    def line(self) -> str:
        """The briefing's words: ``rated: you win 58% ± 4%`` (half the 95% interval)."""
        lo, hi = self.summary["win_rate_ci95"]
        if not self.summary["missions"]:
            return (f"not rated: stopped before a mission finished (level {self.level}; "
                    f"target {100 * TARGETS[self.word]:.0f}% for '{self.word}')")
        stopped = "; stopped by Ctrl-C: the best level so far" if self.interrupted else ""
        return (f"rated: you win {100 * self.summary['win_rate']:.0f}% ± "
                f"{100 * (hi - lo) / 2:.0f}% ({self.summary['missions']} simulated missions "
                f"at level {self.level}; target {100 * TARGETS[self.word]:.0f}% for "
                f"'{self.word}'{stopped})")


def choose_level(scenario: Scenario, word: str, *, missions: int, seed: int, jobs: int = 1,
                 width: float = sequential.DEFAULT_WIDTH,
                 progress: sequential.Progress | None = None, kernels: bool = True) -> Rated:
    """The engagement level of ``scenario`` whose rated win rate is nearest ``word``'s target
    (the rules in the module docstring), rating at most ``missions`` missions a level. Ctrl-C
    ends the workers and returns the level best so far (``interrupted`` set)."""
    if word not in TARGETS:
        raise ValueError(f"unknown difficulty {word!r} ({', '.join(TARGETS)})")
    target = TARGETS[word]
    with rating.Runner(scenario, jobs=jobs, kernels=kernels, outcome_only=True) as runner:
        run = sequential.Looks(runner, seed, POLICY, missions, width, progress, LEVELS,
                               planned=2 * missions)
        best = _search(run, target)
    rated = {lv: run.summary(lv) for lv in LEVELS if run.levels[lv].results}
    if best is None or not run.levels[best].results:  # interrupted before a level's first look
        best = min(rated, key=lambda lv: (abs(rated[lv]["win_rate"] - target), lv),
                   default=LEVELS[0])
    summary = rated.get(best, rating.summarise([]))
    return Rated(word, best, summary, rated, interrupted=run.interrupted,
                 missions=run.played())


def _search(run: sequential.Looks, target: float) -> int | None:
    """Climb the levels on their first look to the crossing, then settle it against the level
    before, moving on if refining shows the crossing elsewhere (the module docstring's rules);
    None if interrupted before any answer."""
    level = LEVELS[0]
    for _ in range(4 * len(LEVELS)):  # moves between levels; each settles or refines one
        if not run.levels[level].results:
            run.step([level])
        if run.interrupted:
            break
        if _above(run.interval(level), target) and level < LEVELS[-1]:
            level += 1
            run.planned = run.played() + 2 * run.schedule[-1]
            continue
        if level == LEVELS[0] or (level == LEVELS[-1] and _above(run.interval(level), target)):
            iv = _settle(run, level, target)  # the answer alone, unless it turns out otherwise
            if run.interrupted:
                break
            if level == LEVELS[0] and _above(iv, target):
                level += 1
                continue
            if level == LEVELS[0] or _above(iv, target):
                return level if level == LEVELS[0] else _nearest(run, target)
        answer, move = _compare(run, level - 1, level, target)
        if move is None:
            return answer
        level = move
    return _nearest(run, target)


def _above(iv: sequential.Interval, target: float) -> bool:
    """Whether a level looks easier than the target: its interval wholly above it, or its win
    rate above it while the interval still reaches it."""
    return iv.lo > target or (iv.hi >= target and iv.rate > target)


def _settle(run: sequential.Looks, level: int, target: float) -> sequential.Interval:
    """Play ``level`` look by look until its interval is clear of the target, narrow enough or
    complete (or Ctrl-C)."""
    while not run.interrupted:
        iv = run.interval(level)
        if iv.n and (iv.lo > target or iv.hi < target or run.done(level)):
            return iv
        run.step([level])
    return run.interval(level)


def _compare(run: sequential.Looks, easier: int, harder: int, target: float
             ) -> tuple[int | None, int | None]:
    """The nearer of two neighbouring levels to the target: certain once their distance ranges
    are apart, else both played on until narrow enough or complete. Returns (the answer, None),
    or (None, the level to go on from) when refining shows the crossing is not between them:
    the harder level wholly above the target, or the easier wholly below it."""
    while not run.interrupted:
        ea, ha = run.interval(easier), run.interval(harder)
        if ha.lo > target and harder < LEVELS[-1]:
            return None, harder + 1
        if ea.hi < target and easier > LEVELS[0]:
            return None, easier
        da, db = sequential.distance(ea, target), sequential.distance(ha, target)
        if da[1] < db[0]:
            return easier, None
        if db[1] < da[0]:
            return harder, None
        more = [lv for lv in (easier, harder) if not run.done(lv)]
        if not more:
            break
        run.planned = run.played() + sum(run.schedule[-1] - len(run.levels[lv].results)
                                         for lv in more)
        run.step(more)
    return _nearest(run, target), None


def _nearest(run: sequential.Looks, target: float,
             among: tuple[int, ...] | None = None) -> int | None:
    """The rated level nearest the target by win rate (ties: the easier); None if none has a
    mission yet."""
    levels = [lv for lv in (among or LEVELS) if run.levels[lv].results]
    if not levels:
        return None
    return min(levels, key=lambda lv: (abs(run.interval(lv).rate - target), lv))
