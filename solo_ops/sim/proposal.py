"""The next campaign mission's threat: the enemy and engagement level that the squads, as they
stand now, beat with the win chance the group chose (``campaign new --target-win``).

``campaign play`` and ``campaign serve`` generate the next mission (board, mission, the squads
with their losses and injuries: fallen and recovering models stay home, an injured one starts
hurt) and ask :func:`propose` for its enemy and level. The candidates are the mission with each
enemy roster (``variants``: one scenario per roster, all on the same board object, so a
worker's compiled terrain serves them all) at levels 1-6; they are rated by whole missions of
the autopilot (policy ``objective``, :mod:`solo_ops.sim.rating`), played in looks
(:mod:`solo_ops.sim.sequential`: each candidate's interval holds with 95% wherever the search
stops), every candidate on the same mission seeds (common random numbers: the levels and
enemies are compared on the same dice streams).

The search, in order, within a budget of :data:`BUDGET` missions and of work (what the missions
cost, counted by the game: :func:`mission_cost`, :data:`WORK_PER_MISSION`), whichever ends
first:

1. **Levels of the first enemy** (the rolled one, or the one the group chose), from ``start``
   (the level proposed last mission; 3 the first time): a level's first look
   (:data:`FIRST_LOOK`, 12 missions) says whether the squads win more or less often than the
   target, and the search steps one level at a time toward the target until the win rate
   crosses it, or a level bound is reached. A first look at ``start`` won every time (or
   lost every time) leaps two levels, and the walk comes back a level if that was too far.
2. **The two levels either side of the crossing** are compared: the one whose distance to the
   target is certainly smaller (:func:`~solo_ops.sim.sequential.distance`) is kept; otherwise
   both get one more look, and the nearer by win rate is kept (ties: the easier).
3. **Another enemy**, only while the candidate kept is certainly more than ± ``width`` from the
   target (its whole interval outside target ± 8 points): the next enemy is searched the same
   way from the level kept, and the nearest candidate of all is kept.
4. **The candidate kept is measured** look by look (12, 24, 48, ... missions) until its
   interval is within ± ``width`` (8 points) or the budget is spent.

The work left is spent by estimate: a candidate's next look plays no more missions than the
work left over what its missions have cost on average (a candidate not rated yet: every
mission so far), so dearer levels, enemies and boards get fewer missions and every proposal
costs about the same CPU time; the estimate can only overrun by one first look's missions
costing more than the cheaper ones before them.

**The intervals are plain 95% Wilson intervals** of each candidate's missions (``z`` =
:data:`~solo_ops.sim.rating.Z95`), not corrected over the looks as ``rate``'s are
(:mod:`solo_ops.sim.sequential`): the search's looks decide *which* candidate to measure, and
the one rule that stops on an interval (± 8 points) is met only at win rates near 0 or 1 within
the budget. Measured by a Monte Carlo of this very search over random win rates (a logistic
in the level per enemy, random targets and starting levels, missions common to the levels or
independent, missions costing what real ones do: ``tests/sim/test_proposal.py``), the
interval reported for the candidate chosen holds its true win rate about 95% of the time
(94.6% of the test's 2,000 proposals).

Deterministic: what is played and proposed depends only on the candidates, the target, the
seed, ``start`` and the budget (counted in missions and in work the game counts, never in
seconds), never on the machine or the number of workers. Pure: no printing, no files;
progress through a callback.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from solo_ops.game.scenario import Scenario
from solo_ops.sim import rating, sequential

LEVELS = (1, 2, 3, 4, 5, 6)
POLICY = "objective"
START = 3
"""The level the search starts from when no mission was proposed before (D3+1's middle)."""
BUDGET = 64
"""The most simulated missions a proposal plays, in all (the work, :data:`WORK_PER_MISSION`,
usually ends it first above level 2). Near a 50% win chance the budget runs out before ± 8
points (about 150 missions); the interval shown is then ± 12 points or more.
``--rate-missions`` (``campaign play`` and ``campaign serve``) gives a group that prefers a
finer rating, and a slightly better choice, a larger budget (and its work in proportion)."""
WORK_PER_MISSION = 0.32
"""The work a proposal may play for each mission of its budget, in reference seconds
(:func:`mission_cost`): 64 missions allow 20.5 s. Missions of the co-op squads cost about 0.3
s at level 1 (the whole budget fits), 0.4-0.6 s at level 3 and 0.45-0.8 s at level 6, so a
proposal among the dearer levels plays fewer missions. What bounds every proposal's CPU time
where a count of missions alone did not: a mission's cost varies about fourfold with the
board, the enemy and the level, and the CPU is 0.5-1.3 times the estimate by board and level
(docs/performance.md, "A campaign's proposal": 300 proposals took 23.2 s at most)."""
COST = (0.0, 0.011, 0.002)
"""A simulated mission's cost in reference seconds: a fixed part, each model whose actions
the enemy's planner chose (``MissionResult.plans``) and each step played (``.steps``: the
prompts the autopilot and the engine answered), counted the same on every machine. Fitted by
least squares to the CPU time of 630 missions (the seven shipped boards, five enemies,
levels 1-6, three missions each, two at a time on the 2-core machine):
(-0.005, 0.0110, 0.0019), R² 0.66."""


def mission_cost(result: rating.MissionResult) -> float:
    """What ``result``'s mission cost, in reference seconds (:data:`COST`): the same on every
    machine, so the proposals a budget of work allows are the same everywhere."""
    return COST[0] + COST[1] * result.plans + COST[2] * result.steps


FIRST_LOOK = 12
"""A candidate's first look, in missions: enough to say on which side of the target its win
rate lies unless it is near, few enough that the search can afford four or five candidates
within the budget (a Monte Carlo of the search chose 12 over 8 and 16: docs/rules.md)."""


def schedule(budget: int) -> list[int]:
    """The looks of a candidate: 12, 24, 48, ... (doubling) below ``budget``, then the budget:
    few, so that each look is a real step of the search (64: 12, 24, 48, 64)."""
    out, n = [], FIRST_LOOK
    while n < budget:
        out.append(n)
        n *= 2
    return [*out, budget]


@dataclass(frozen=True)
class Rated:
    """One candidate as rated: an enemy roster at a level, its wins of ``missions`` and the 95%
    interval ``[lo, hi]`` of its win rate."""

    enemy: str
    level: int
    wins: int
    missions: int
    lo: float
    hi: float

    @property
    def win_rate(self) -> float:
        return self.wins / self.missions if self.missions else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"enemy": self.enemy, "level": self.level, "wins": self.wins,
                "missions": self.missions, "win_rate": round(self.win_rate, 4),
                "interval": [round(self.lo, 4), round(self.hi, 4)]}


@dataclass(frozen=True)
class Proposal:
    """What :func:`propose` proposes: ``chosen`` (the enemy and level, its win rate and
    interval), the ``target``, every candidate rated (an override the group picks among them
    has its prediction already), the missions played in all, and whether the chosen one is
    known to ± ``width`` (else the budget ran out first) or the search was interrupted."""

    target: float
    chosen: Rated
    rated: tuple[Rated, ...]
    played: int
    width: float
    interrupted: bool = False

    @property
    def known(self) -> bool:
        """Whether the chosen candidate's interval is within ± ``width``."""
        return (self.chosen.hi - self.chosen.lo) / 2 <= self.width + 1e-9

    def find(self, enemy: str, level: int) -> Rated | None:
        """The rating of ``enemy`` at ``level``, if it was rated."""
        return next((r for r in self.rated if (r.enemy, r.level) == (enemy, level)), None)

    def to_dict(self) -> dict[str, Any]:
        return {"target": self.target, **self.chosen.to_dict(), "played": self.played,
                "known": self.known, "width": self.width, "interrupted": self.interrupted,
                "rated": [r.to_dict() for r in self.rated]}


def propose(variants: dict[str, Scenario], order: Sequence[str], target: float, *, seed: int,
            jobs: int = 1, kernels: bool = True, budget: int = BUDGET,
            width: float = sequential.DEFAULT_WIDTH, start: int = START,
            levels: Sequence[int] = LEVELS, progress: sequential.Progress | None = None,
            work: float | None = None) -> Proposal:
    """The enemy (one of ``order``, tried in that order) and level (one of ``levels``) whose
    rated win rate is nearest ``target``, measured to ± ``width`` or the ``budget`` of missions
    and of ``work`` (reference seconds, :func:`mission_cost`; by default the budget times
    :data:`WORK_PER_MISSION`), whichever ends first (the module docstring's rules).
    ``variants``: each enemy's scenario, all on one board object. Ctrl-C ends the workers and
    proposes the best so far (``interrupted``)."""
    if not 0 < target < 1:
        raise ValueError(f"a target win chance is between 0 and 1, not {target}")
    if not order or any(name not in variants for name in order):
        raise ValueError("every enemy in the order needs its scenario")
    first = variants[order[0]]
    with rating.Runner(first, jobs=jobs, kernels=kernels, variants=variants,
                       outcome_only=True) as runner:
        run = sequential.Looks(runner, seed, POLICY, budget, width, progress, levels=(),
                               planned=budget)
        run.schedule = schedule(budget)
        run.z = rating.Z95  # plain 95% intervals (the module docstring says why)
        search = _Search(run, target, budget, tuple(sorted(levels)),
                         budget * WORK_PER_MISSION if work is None else work)
        best = search.search(order, start)
    rated = tuple(_rated(run, key) for key, state in run.levels.items() if state.results)
    chosen = _rated(run, best) if best is not None and run.levels[best].results else \
        min(rated, key=lambda r: abs(r.win_rate - target), default=None)
    if chosen is None:  # interrupted before any mission ended
        chosen = Rated(order[0], _clamp(start, levels), 0, 0, 0.0, 1.0)
    return Proposal(target, chosen, rated, run.played(), width, interrupted=run.interrupted)


def variants_of(doc: dict[str, Any], rosters: dict[str, Any], source: str | None = None
                ) -> dict[str, Scenario]:
    """The mission ``doc`` (a scenario document with its board inline) with each of
    ``rosters`` (name -> roster document) as its enemy: one checked scenario per roster, all
    sharing the first one's board object (what :func:`propose` and a rating worker's one
    compiled terrain need)."""
    from dataclasses import replace

    from solo_ops.io.scenario import parse_scenario

    out: dict[str, Scenario] = {}
    board = None
    for name, roster in rosters.items():
        scenario = parse_scenario({**doc, "roster": roster}, source)
        if board is None:
            board = scenario.board
        out[name] = replace(scenario, board=board)
    return out


def _rated(run: sequential.Looks, key: sequential.Key) -> Rated:
    assert isinstance(key, tuple)
    iv = run.interval(key)
    return Rated(key[0], key[1], iv.wins, iv.n, iv.lo, iv.hi)


def _clamp(level: int, levels: Sequence[int]) -> int:
    return min(levels, key=lambda lv: (abs(lv - level), lv))


class _Search:
    """The search of the module docstring over a :class:`~solo_ops.sim.sequential.Looks`."""

    def __init__(self, run: sequential.Looks, target: float, budget: int,
                 levels: tuple[int, ...], work: float) -> None:
        self.run, self.target, self.budget, self.levels = run, target, budget, levels
        self.work = work

    def left(self, key: tuple[str, int] | None = None) -> int:
        """Missions of ``key`` (None: of a candidate not rated yet) the budget still allows:
        the missions left, and the work left over what a mission of ``key`` has cost so far
        on average (a candidate not rated yet: every mission played so far)."""
        done = [r for state in self.run.levels.values() for r in state.results]
        missions = self.budget - len(done)
        own = self.run.levels[key].results if key in self.run.levels else []
        sample = own or done
        if not sample:
            return missions
        spent = sum(mission_cost(r) for r in done)
        each = sum(mission_cost(r) for r in sample) / len(sample)
        return max(0, min(missions, math.floor((self.work - spent) / each + 1e-9)))

    def look(self, key: tuple[str, int]) -> bool:
        """Play ``key`` to its next look within the budget; False when nothing could be
        played (budget spent, last look had, Ctrl-C)."""
        self.run.add(key)
        state = self.run.levels[key]
        left = self.left(key)
        if self.run.interrupted or left <= 0 or state.look >= len(self.run.schedule):
            return False
        self.run.step([key], most=len(state.results) + left)
        return not self.run.interrupted

    def rate(self, key: tuple[str, int]) -> float:
        return self.run.interval(key).rate

    def first(self, key: tuple[str, int]) -> bool:
        """``key`` has its first look (played now if it had none)."""
        self.run.add(key)
        return bool(self.run.levels[key].results) or self.look(key)

    def search(self, order: Sequence[str], start: int) -> tuple[str, int] | None:
        """Steps 1-4: the candidate kept, measured (None if nothing was played)."""
        best: tuple[str, int] | None = None
        level = _clamp(start, self.levels)
        for enemy in order:
            if best is not None and (self.close(best) or self.left() < FIRST_LOOK):
                break
            key = self.enemy(enemy, level)
            if key is None:
                break
            if best is None or abs(self.rate(key) - self.target) < \
                    abs(self.rate(best) - self.target):
                best = key
            level = best[1]
            if self.run.interrupted:
                break
        if best is not None:
            while not self.run.done(best) and self.look(best):
                pass
        return best

    def close(self, key: tuple[str, int]) -> bool:
        """Whether ``key`` may be within ± width of the target (not certainly further)."""
        return sequential.distance(self.run.interval(key), self.target)[0] <= self.run.width

    def enemy(self, enemy: str, start: int) -> tuple[str, int] | None:
        """Steps 1-2 for one enemy: the level nearest the target (None: nothing played). A
        first look at ``start`` that the squads won every time, or lost every time, is far
        from any target: the walk starts two levels on (harder, or easier), and comes back a
        level if that one is already past the target."""
        if not self.first((enemy, start)):
            return None
        iv = self.run.interval((enemy, start))
        if iv.wins in (0, iv.n):
            leap = _clamp(start + (2 if iv.wins else -2), self.levels)
            if leap != start and self.first((enemy, leap)):
                start = leap
        return self.walk(enemy, start)

    def walk(self, enemy: str, start: int) -> tuple[str, int]:
        """From ``start`` (rated already), one level at a time toward the target until the
        win rate crosses it or a level bound is reached; then the nearer of the two levels at
        the crossing."""
        level = start
        step = 1 if self.rate((enemy, level)) > self.target else -1
        before = None
        while level + step in self.levels:
            rate = self.rate((enemy, level))
            if (step > 0 and rate <= self.target) or (step < 0 and rate >= self.target):
                break
            if not self.first((enemy, level + step)):
                return (enemy, level)
            before, level = level, level + step
        rate = self.rate((enemy, level))
        crossed = before is not None and ((step > 0 and rate <= self.target)
                                          or (step < 0 and rate >= self.target))
        if not crossed:
            return (enemy, level)
        assert before is not None
        easier, harder = sorted((before, level))
        return self.compare((enemy, easier), (enemy, harder))

    def compare(self, easier: tuple[str, int], harder: tuple[str, int]) -> tuple[str, int]:
        """Step 2: the nearer of two neighbouring levels to the target."""
        for attempt in range(2):
            da = sequential.distance(self.run.interval(easier), self.target)
            db = sequential.distance(self.run.interval(harder), self.target)
            if da[1] < db[0]:
                return easier
            if db[1] < da[0]:
                return harder
            if attempt or not (self.look(easier) and self.look(harder)):
                break
        return min((easier, harder), key=lambda k: (abs(self.rate(k) - self.target), k[1]))
