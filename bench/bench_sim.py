"""Benchmark of simulated missions and of the command line's start-up, side by side in one run.

Run it from the repository root with the project's virtual environment active::

    python bench/bench_sim.py                       # 3 missions of each shipped scenario
    python bench/bench_sim.py --missions 5 --policy cautious --rate-missions 40 --jobs 2
    python bench/bench_sim.py --missions 2 --shares --skip-rate --skip-startup
    python bench/bench_sim.py --missions 8 --scenario gallowdark-night-raid --skip-rate

It prints, for each shipped scenario, the CPU time of whole missions played in one process by
the autopilot (``time.process_time``: fair on a busy machine; the scenario parsed once, the
terrain shared and the geometry's compiled loops on, as ``solo-ops rate`` plays them; with
``--numpy`` on the numpy code a first run plays before they are compiled), the missions a
minute that makes per core, then the wall time and missions a minute of one ``rate`` run over
``--jobs`` worker processes (``--rate-missions`` missions of ``--rate-scenario``), and the CPU
time of ``solo-ops --help`` and ``solo-ops orders roll ...`` (the best of five, from
``resource.getrusage`` of the child process) next to ``python -c pass``. With ``--shares`` the
missions' CPU is also split into the enemy planner's part (planning activations, re-plans, On
Guard reactions, the activation order), the player autopilot's (choosing its answers) and the
rest (the engine applying them: rolls, spotting, the fog's hidden moves, scoring; and loading
the game).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solo_ops.geometry import jit  # noqa: E402
from solo_ops.geometry.terrain import TerrainCache  # noqa: E402
from solo_ops.io import library  # noqa: E402
from solo_ops.io.scenario import load_scenario  # noqa: E402
from solo_ops.sim import rating  # noqa: E402


def child_cpu(cmd: list[str], repeat: int = 5) -> float:
    """The least CPU time (user + system) of ``cmd`` over ``repeat`` runs."""
    best = float("inf")
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(cmd, capture_output=True, check=False)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best = min(best, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
    return best


class Shares:
    """CPU time (``time.process_time``) spent in the enemy planner and in the autopilot while
    missions are played: the module functions the engine and the driver call are wrapped for
    as long as the object is in use (``with Shares() as shares:``)."""

    def __init__(self) -> None:
        self.planner = 0.0
        self.autopilot = 0.0
        self._undo: list[tuple[object, str, object]] = []

    def _wrap(self, module: object, name: str, part: str) -> None:
        inner = getattr(module, name)

        def timed(*args: object, **kw: object) -> object:
            start = time.process_time()
            try:
                return inner(*args, **kw)
            finally:
                setattr(self, part, getattr(self, part) + time.process_time() - start)

        self._undo.append((module, name, inner))
        setattr(module, name, timed)

    def _wrap_answers(self, module: object) -> None:
        inner = module.answers  # type: ignore[attr-defined]
        shares = self

        def answers(*args: object, **kw: object) -> object:
            gen = inner(*args, **kw)
            while True:  # the answers are a generator: time each one it makes
                start = time.process_time()
                try:
                    item = next(gen)
                except StopIteration:
                    shares.autopilot += time.process_time() - start
                    return
                shares.autopilot += time.process_time() - start
                yield item

        self._undo.append((module, "answers", inner))
        module.answers = answers  # type: ignore[attr-defined]

    def __enter__(self) -> Shares:
        from solo_ops.ai import guard
        from solo_ops.game import enemy, engine
        from solo_ops.sim import autopilot

        self._wrap(engine, "plan_activation", "planner")
        # the activation order: the engine asks for the next unit alone (first_to_activate)
        self._wrap(engine, "first_to_activate" if hasattr(engine, "first_to_activate")
                   else "activation_order", "planner")
        self._wrap(enemy, "replan_model", "planner")
        # an On Guard model's reaction: game.enemy_guard imports it from ai.guard at each call
        self._wrap(guard, "guard_reaction", "planner")
        self._wrap_answers(autopilot)
        return self

    def __exit__(self, *exc: object) -> None:
        for module, name, inner in reversed(self._undo):
            setattr(module, name, inner)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--missions", type=int, default=3, help="missions per scenario")
    parser.add_argument("--policy", default="objective")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--scenario", action="append", default=[],
                        help="only this shipped scenario (repeat for several; default: all)")
    parser.add_argument("--rate-scenario", default="gallowdark-night-raid")
    parser.add_argument("--rate-missions", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--skip-missions", action="store_true")
    parser.add_argument("--shares", action="store_true",
                        help="split the missions' CPU into planner, autopilot and the rest")
    parser.add_argument("--skip-rate", action="store_true", help="no `rate` run")
    parser.add_argument("--skip-startup", action="store_true",
                        help="no single-pair sight and start-up figures")
    parser.add_argument("--numpy", action="store_true",
                        help="play on the numpy geometry (a first run's), not the compiled loops")
    args = parser.parse_args()
    # the compiled loops, as a `rate` worker plays (solo-ops compile first, or the first
    # mission compiles them); --numpy: the code a first run plays before they exist
    jit.use_in_simulation(not args.numpy)

    if not args.skip_missions:
        print(f"Whole missions, one process, policy {args.policy}, {args.missions} each "
              "(CPU s a mission: median, min-max; missions a minute per core)")
        every: list[float] = []
        shares = Shares()
        for shipped in library.shipped("scenario"):
            if args.scenario and shipped.name not in args.scenario:
                continue
            scenario = load_scenario(shipped.path)
            terrains = TerrainCache(scenario.board)
            times = []
            for i in range(args.missions):
                start = time.process_time()
                if args.shares:
                    with shares:
                        rating.play_one(scenario, rating.mission_seed(args.seed, i),
                                        args.policy, index=i, terrains=terrains)
                else:
                    rating.play_one(scenario, rating.mission_seed(args.seed, i), args.policy,
                                    index=i, terrains=terrains)
                times.append(time.process_time() - start)
            every += times
            print(f"  {shipped.name:38s} {statistics.median(times):6.2f}  "
                  f"{min(times):5.2f}-{max(times):5.2f}  {60 / statistics.mean(times):6.1f}/min")
        print(f"  {'all':38s} {statistics.median(every):6.2f}  {min(every):5.2f}-"
              f"{max(every):5.2f}  {60 / statistics.mean(every):6.1f}/min per core")
        if args.shares:
            n, total = len(every), sum(every)
            rest = total - shares.planner - shares.autopilot
            print(f"  CPU s a mission (mean of {n}): planner {shares.planner / n:.3f}, "
                  f"autopilot {shares.autopilot / n:.3f}, the rest {rest / n:.3f}, "
                  f"all {total / n:.3f}")
    if not args.skip_missions and not args.skip_rate:
        scenario = load_scenario(args.rate_scenario)
        start = time.perf_counter()
        rating.run(scenario, args.rate_missions, args.seed, policy=args.policy, jobs=args.jobs)
        wall = time.perf_counter() - start
        print(f"rate {args.rate_scenario} --missions {args.rate_missions} --jobs {args.jobs}: "
              f"{wall:.1f} s wall, {60 * args.rate_missions / wall:.1f} missions a minute")

    if not args.skip_startup:
        startup(args.seed)


def startup(seed: int) -> None:
    """Single-pair sight and the command line's start-up."""
    print("Single-pair sight on gallowdark-corridors, 300 random pairs of 32 mm bases "
          "(CPU us a query: first asked = the matrix path, asked again = remembered)")
    import random

    from solo_ops.geometry.sight import Sight

    board = load_scenario("gallowdark-night-raid").board
    rng = random.Random(seed)
    pairs = [((rng.uniform(1, board.width - 1), rng.uniform(1, board.depth - 1)),
              (rng.uniform(1, board.width - 1), rng.uniform(1, board.depth - 1)))
             for _ in range(300)]
    sight = Sight(board)
    for name, ask in (("visible", lambda a, b: sight.visible(a, b, 0.63, 0.63)),
                      ("cover", lambda a, b: sight.cover(a, b, 0.63, 0.63))):
        spent = []
        for _ in range(2):
            start = time.process_time()
            for a, b in pairs:
                ask(a, b)
            spent.append(1e6 * (time.process_time() - start) / len(pairs))
        print(f"  {name:8s} first {spent[0]:8.0f} us   again {spent[1]:6.1f} us")

    exe = str(Path(sys.executable).with_name("solo-ops"))
    print("Command line start-up (CPU s, best of 5)")
    for cmd in ([exe, "--help"],
                [exe, "orders", "roll", "--type", "melee", "--leadership", "8", "--seed", "1"],
                [sys.executable, "-c", "pass"]):
        name = " ".join(["solo-ops", *cmd[1:]] if cmd[0] == exe else ["python", *cmd[1:]])
        print(f"  {name:55s} {child_cpu(cmd):.3f}")


if __name__ == "__main__":
    main()
