"""Rating an encounter: many whole missions played by the autopilot, counted.

:func:`run` plays ``missions`` complete games of one scenario (for each engagement level
asked) with the player autopilot (:mod:`solo_ops.sim.autopilot`) and returns one
:class:`MissionResult` per game, ordered by level then mission index; :func:`summarise` turns
them into the numbers ``solo-ops rate`` prints (win / draw / loss with 95% Wilson intervals,
mean VP, losses, turns).

Reproducibility: mission ``i`` is played with the seed :func:`mission_seed` (``seed``, ``i``)
— the same seed at every engagement level (common random numbers: the levels are compared
on the same dice streams, which makes their difference sharper) — and the results are put back
in mission order, so the numbers depend only on the scenario, the seed, the policy and the
levels, never on how many workers played them (``jobs``) or where (a Dask cluster).

Speed: the scenario is compiled once (the caller passes the parsed :class:`Scenario`; worker
processes receive it once, when they start), and every mission of a worker shares one compiled
terrain cache per board (:class:`~solo_ops.geometry.terrain.TerrainCache`: sight and route
structures of each door state) and the planner's per-terrain answer cache.

Pure: nothing here prints or opens a file; progress is reported through a callback.
"""

from __future__ import annotations

import gc
import hashlib
import math
import os
import signal
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, wait
from dataclasses import asdict, dataclass, replace
from typing import Any

from solo_ops.game.engine import new_game
from solo_ops.game.scenario import Scenario
from solo_ops.game.scoring import decided
from solo_ops.game.state import PLAYER
from solo_ops.geometry import jit
from solo_ops.geometry.terrain import TerrainCache
from solo_ops.rules import killzones
from solo_ops.sim import autopilot

Z95 = 1.959963984540054  # the two-sided 95% normal quantile


@dataclass(frozen=True)
class MissionResult:
    """One simulated mission: its place in the run and how it ended (the players' view)."""

    index: int
    seed: int
    engagement: int
    outcome: str  # win | draw | loss (the players')
    vp_player: int
    vp_enemy: int
    losses: int  # player operatives incapacitated / out of action
    turns: int
    steps: int
    plans: int = 0  # the models the enemy's planner planned (Game.tally): what it cost


def mission_seed(seed: int, index: int) -> int:
    """The seed of mission ``index`` of a run seeded ``seed`` (a hash, 31 bits)."""
    digest = hashlib.blake2b(f"solo-ops rate {seed} {index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") % (2**31 - 1)


def with_engagement(scenario: Scenario, engagement: int | None) -> Scenario:
    """``scenario`` at engagement level ``engagement`` (unchanged for None). Its document says
    so too, so a game played from it saves and replays as that level."""
    if engagement is None or engagement == scenario.engagement:
        return scenario
    return replace(scenario, engagement=int(engagement),
                   document={**scenario.document, "engagement": int(engagement)})


def play_one(scenario: Scenario, seed: int, policy: str, *, index: int = 0,
             terrains: TerrainCache | None = None, outcome_only: bool = False
             ) -> MissionResult:
    """Play one whole mission of ``scenario`` with ``seed`` by the autopilot (its fights by
    the engine's policy: :func:`~solo_ops.sim.autopilot.simulated`). ``outcome_only``: stop
    once its outcome is certain (:func:`~solo_ops.game.scoring.decided`): the outcome is the
    whole mission's, the VP, losses and turns those of that moment (for ratings that count
    wins alone: a campaign's proposal, ``new --difficulty``)."""
    game, state = new_game(autopilot.simulated(scenario), seed, terrains=terrains)
    game.words = False  # nobody reads a simulated mission: only its result is kept
    autopilot.play(game, state, policy, until_decided=outcome_only)
    result = state.result or {}
    early = decided(game, state) if outcome_only and not state.ended else None
    vp = result.get("vp", state.vp)
    return MissionResult(index=index, seed=seed, engagement=scenario.engagement,
                         outcome=early or str(result.get("outcome", "draw")),
                         vp_player=int(vp.get("player", 0)), vp_enemy=int(vp.get("enemy", 0)),
                         losses=int(result.get("squad_lost",
                                               state.incapacitated_total.get(PLAYER, 0))),
                         turns=int(result.get("turns", state.turn)), steps=len(state.log),
                         plans=game.tally.plans)


# -- workers -------------------------------------------------------------------------------------
Job = tuple[int | tuple[str, int] | None, int, int, str]
"""One mission to play: (engagement level or None — or a variant's ``(name, level)`` —, index,
seed, policy)."""

_WORKER: dict[str, Any] = {}


def init_worker(scenario: Scenario, kernels: bool = True,
                 variants: dict[str, Scenario] | None = None, outcome_only: bool = False
                 ) -> None:
    """A worker's start: the scenario (and its ``variants``: other enemies on the same board,
    a job naming one as ``(name, level)``), one terrain cache for its board, and the
    geometry's compiled loops (the same answers, more missions a minute; see
    solo_ops.geometry.jit) unless ``kernels`` is False (the caller found them not compiled
    yet); ``outcome_only``: its missions stop once their outcome is certain (:func:`play_one`)."""
    jit.use_in_simulation(kernels)
    _WORKER["outcome_only"] = outcome_only
    _WORKER["scenario"] = scenario
    _WORKER["variants"] = variants or {}
    _WORKER["terrains"] = TerrainCache(killzones.board_in_play(scenario.board, scenario.edition))
    _WORKER["levels"] = {}
    _WORKER["freeze"] = False


POOL_GC_THRESHOLD = autopilot.GC_THRESHOLD
"""The garbage collector's thresholds in a local pool's worker processes (Python's default is
(700, 10, 10)): a mission makes and drops hundreds of thousands of small objects, few of them in
cycles, and collecting the youngest ones every 700 cost about 1.6% of a mission against 0.8%
this way (``docs/performance.md``). Only when collections run changes, never what a game does.
The autopilot plays every game with them (:func:`~solo_ops.sim.autopilot.fewer_collections`)."""


ORPHAN_CHECK = 0.5
"""Seconds between a pool worker's looks at whether the command that started it still lives."""


def end_with_parent() -> None:
    """Make this pool worker end (``os._exit``) once the command that started the pool is gone
    -- a ``kill -9`` of ``rate`` or ``campaign play`` -- rather than play on alone and print a
    broken pipe's traceback into the terminal when it reports its mission. A daemon thread
    looks every :data:`ORPHAN_CHECK` seconds whether the worker's parent is still its parent
    (an orphan is adopted by another process); a worker that finishes a mission also looks
    before it reports (``_indexed_job``). Only in a process started by ``multiprocessing``
    (the initializer called in the command's own process watches nothing); a worker whose
    command died while the pool started ends at once."""
    import multiprocessing
    import threading

    started_by = multiprocessing.parent_process()
    if started_by is None or started_by.pid is None:
        return
    parent = _WORKER["parent"] = started_by.pid
    if os.getppid() != parent:
        os._exit(0)

    def watch() -> None:
        while True:
            time.sleep(ORPHAN_CHECK)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="solo-ops-orphan-watch", daemon=True).start()


def init_pool_worker(scenario: Scenario, kernels: bool = True,
                      variants: dict[str, Scenario] | None = None,
                      outcome_only: bool = False) -> None:
    """A worker process of a local pool: :func:`init_worker`, fewer garbage collections
    (:data:`POOL_GC_THRESHOLD`), and its long-lived objects (modules, the compiled loops, the
    terrain's structures once the first mission has built them) taken out of the garbage
    collector's scans (``gc.freeze``): they live as long as the process, and rescanning them in
    every full collection cost about 2% of a mission."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the caller's: it ends the pool
    end_with_parent()
    init_worker(scenario, kernels, variants, outcome_only)
    gc.set_threshold(*POOL_GC_THRESHOLD)
    _WORKER["freeze"] = True


def worker_job(job: Job) -> MissionResult:
    """One mission in a worker: (engagement or (variant, engagement), index, seed, policy)."""
    engagement, index, seed, policy = job
    levels: dict[Any, Scenario] = _WORKER["levels"]
    scenario = levels.get(engagement)
    if scenario is None:
        if isinstance(engagement, tuple):
            scenario = with_engagement(_WORKER["variants"][engagement[0]], engagement[1])
        else:
            scenario = with_engagement(_WORKER["scenario"], engagement)
        levels[engagement] = scenario
    result = play_one(scenario, seed, policy, index=index, terrains=_WORKER["terrains"],
                      outcome_only=_WORKER.get("outcome_only", False))
    if _WORKER["freeze"]:  # once, after the first mission (the garbage of it collected first)
        _WORKER["freeze"] = False
        gc.collect()
        gc.freeze()
    return result


def remote_job(scenario: Scenario, job: Job) -> MissionResult:
    """One mission on a cluster worker (Dask): the scenario comes with the task (scattered
    once by the caller); the worker's caches are kept per scenario name and board."""
    if _WORKER.get("scenario") is not scenario:
        init_worker(scenario)
    return worker_job(job)


def jobs_for(scenario: Scenario, missions: int, seed: int, policy: str,
             engagements: Sequence[int] | None) -> list[Job]:
    """Every mission of a run, in the order of the results: (engagement, index, seed, policy).
    Without levels, the scenario's own engagement level."""
    levels: list[int | None] = list(engagements) if engagements else [None]
    return [(level, i, mission_seed(seed, i), policy) for level in levels
            for i in range(missions)]


def run(scenario: Scenario, missions: int, seed: int, *, policy: str = "objective",
        engagements: Sequence[int] | None = None, jobs: int = 1,
        progress: Callable[[int, int], None] | None = None,
        executor: Any = None) -> list[MissionResult]:
    """Play the run (see the module docstring); ``progress(done, total)`` after each mission.

    ``jobs`` > 1 plays in that many worker processes; ``executor`` (an object with
    ``submit(fn, *args)`` returning futures, such as a Dask ``Client``) plays on it instead.
    The results are the same whichever plays them."""
    if policy not in autopilot.POLICIES:
        raise ValueError(f"unknown policy {policy!r} ({', '.join(autopilot.POLICIES)})")
    todo = jobs_for(scenario, missions, seed, policy, engagements)
    with Runner(scenario, jobs=jobs if len(todo) > 1 else 1, executor=executor) as runner:
        return runner.play(todo, progress)


class Runner:
    """The processes that play missions of one scenario, kept for several batches (a sequential
    rating asks for more missions after each look at the results).

    ``jobs`` <= 1: in this process; more: a local pool of worker processes, each set up once
    (:func:`init_pool_worker`) and ignoring Ctrl-C, which only the caller's process handles: a
    ``KeyboardInterrupt`` while a batch is played ends every worker at once (``terminate``) and
    goes on up, so nothing is left running. ``executor``: a Dask client or any executor with
    ``submit``. Use it as a context manager (the pool is ended on the way out). ``kernels``:
    whether the local missions use the geometry's compiled loops (the caller's decision,
    ``solo_ops.cli.compile.prepare``; the answers are the same either way). ``variants``: other
    scenarios on the same board object (another enemy), played by a job whose level is
    ``(name, level)``; local only (no ``executor``). ``outcome_only``: each local mission
    stops once its outcome is certain (:func:`play_one`; a rating that counts wins alone)."""

    def __init__(self, scenario: Scenario, *, jobs: int = 1, executor: Any = None,
                 kernels: bool = True, variants: dict[str, Scenario] | None = None,
                 outcome_only: bool = False) -> None:
        if variants and executor is not None:
            raise ValueError("variants are played locally only")
        for name, variant in (variants or {}).items():
            if variant.board is not scenario.board:
                raise ValueError(f"variant {name!r} is on another board object")
        self.scenario = scenario
        self.variants = dict(variants or {})
        self.kernels = kernels
        self.outcome_only = outcome_only
        self.jobs = max(1, jobs)
        self.executor = executor
        self._pool: Any = None
        self._shared: Any = None
        self._here = False  # this process set up to play (jobs <= 1)

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close(terminate=exc[0] is not None)

    def close(self, *, terminate: bool = False) -> None:
        """End the worker processes (``terminate``: at once, abandoning what they play)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            if terminate:
                pool.terminate()
            else:
                pool.close()
            pool.join()

    def play(self, todo: Sequence[Job], progress: Callable[[int, int], None] | None = None,
             finished: dict[int, MissionResult] | None = None) -> list[MissionResult]:
        """Play the missions ``todo`` and return their results in the same order;
        ``progress(done, len(todo))`` after each one finishes. ``finished`` receives each
        result by its place in ``todo`` as it comes (what was played when Ctrl-C arrived)."""
        total = len(todo)
        out: list[MissionResult | None] = [None] * total

        def report(done: int) -> None:
            if finished is not None:
                finished.update({k: r for k, r in enumerate(out) if r is not None})
            if progress is not None:
                progress(done, total)

        try:
            self._play(todo, out, report)
        except BaseException:
            self.close(terminate=True)
            raise
        assert all(r is not None for r in out)
        return [r for r in out if r is not None]

    def _play(self, todo: Sequence[Job], out: list[MissionResult | None],
              report: Callable[[int], None]) -> None:
        executor = self.executor
        if executor is not None and _is_dask(executor):
            if self._shared is None:  # the scenario goes to every worker once
                self._shared = executor.scatter(self.scenario, broadcast=True)
            _collect({executor.submit(remote_job, self._shared, job, pure=False): k
                      for k, job in enumerate(todo)}, out, report)
        elif executor is not None:
            _collect({executor.submit(remote_job, self.scenario, job): k
                      for k, job in enumerate(todo)}, out, report)
        elif self.jobs <= 1:
            if not self._here:
                init_worker(self.scenario, self.kernels, self.variants, self.outcome_only)
                self._here = True
            with autopilot.fewer_collections():  # set-up between missions too
                for k, job in enumerate(todo):
                    out[k] = worker_job(job)
                    report(k + 1)
        else:
            pool = self._local_pool()
            done = 0
            for k, result in pool.imap_unordered(_indexed_job, list(enumerate(todo))):
                out[k] = result
                done += 1
                report(done)

    def _local_pool(self) -> Any:
        """The local worker pool, started on first use: forked from this process where the
        platform allows (Linux), so the workers start with its modules and compiled loops
        already loaded; spawned elsewhere."""
        if self._pool is None:
            import multiprocessing

            methods = multiprocessing.get_all_start_methods()
            ctx = multiprocessing.get_context("fork" if sys.platform.startswith("linux")
                                              and "fork" in methods else None)
            self._pool = ctx.Pool(self.jobs, initializer=init_pool_worker,
                                  initargs=(self.scenario, self.kernels, self.variants,
                                            self.outcome_only))
        return self._pool


def _indexed_job(item: tuple[int, Job]) -> tuple[int, MissionResult]:
    """A pool task: one mission, returned with its place in the batch."""
    k, job = item
    result = worker_job(job)
    if _WORKER.get("parent", os.getppid()) != os.getppid():  # the command is gone (a kill
        os._exit(0)  # -9): no one to report to, and the pipe would print a broken traceback
    return k, result


def _is_dask(executor: Any) -> bool:
    return type(executor).__module__.startswith("distributed")


def _collect(futures: dict[Any, int], out: list[MissionResult | None],
             report: Callable[[int], None]) -> None:
    """Wait for ``futures`` (any kind with ``result()``), putting each result at its index."""
    pending = set(futures)
    done_count = 0
    first = next(iter(futures), None)
    if first is not None and type(first).__module__.startswith("distributed"):
        from distributed import as_completed as dask_completed  # the [cluster] extra

        for fut in dask_completed(list(futures)):
            out[futures[fut]] = fut.result()
            done_count += 1
            report(done_count)
        return
    while pending:
        finished, pending = wait(pending, return_when=FIRST_COMPLETED)
        for fut in finished:
            out[futures[fut]] = fut.result()
            done_count += 1
            report(done_count)


# -- statistics ------------------------------------------------------------------------------------
def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default); (0, 1) when ``n`` is 0."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def summarise(results: Iterable[MissionResult], seconds: float | None = None
              ) -> dict[str, Any]:
    """The numbers of ``solo-ops rate`` for ``results`` (INTERFACES.md keys, and a few more:
    ``draw_rate``, ``loss_rate`` and their intervals, ``mean_turns``).
    ``seconds``: the wall time the run took, for ``missions_per_minute`` (None: 0)."""
    rs = list(results)
    n = len(rs)
    wins = sum(r.outcome == "win" for r in rs)
    draws = sum(r.outcome == "draw" for r in rs)
    losses = sum(r.outcome == "loss" for r in rs)

    def mean(values: Iterable[float]) -> float:
        vals = list(values)
        return round(sum(vals) / len(vals), 4) if vals else 0.0

    return {
        "missions": n, "wins": wins, "draws": draws, "losses": losses,
        "win_rate": round(wins / n, 4) if n else 0.0,
        "win_rate_ci95": [round(v, 4) for v in wilson(wins, n)],
        "draw_rate": round(draws / n, 4) if n else 0.0,
        "draw_rate_ci95": [round(v, 4) for v in wilson(draws, n)],
        "loss_rate": round(losses / n, 4) if n else 0.0,
        "loss_rate_ci95": [round(v, 4) for v in wilson(losses, n)],
        "mean_vp": {"player": mean(r.vp_player for r in rs),
                    "enemy": mean(r.vp_enemy for r in rs)},
        "mean_player_losses": mean(r.losses for r in rs),
        "mean_turns": mean(r.turns for r in rs),
        "missions_per_minute": round(60.0 * n / seconds, 1) if seconds else 0.0,
    }


def by_level(results: Sequence[MissionResult]) -> dict[int, list[MissionResult]]:
    """The results grouped by engagement level, levels in the order they were played."""
    out: dict[int, list[MissionResult]] = {}
    for r in results:
        out.setdefault(r.engagement, []).append(r)
    return out


def as_rows(results: Sequence[MissionResult]) -> list[dict[str, Any]]:
    """Each mission as a plain dict (for a CSV or a check)."""
    return [asdict(r) for r in results]


def default_jobs() -> int:
    """The worker processes to use when none is asked: the CPUs this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)
