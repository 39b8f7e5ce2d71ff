"""Benchmark of simulated missions and of the command line's start-up, side by side in one run.

Run it from the repository root with the project's virtual environment active::

    python bench/bench_sim.py                       # 3 missions of each shipped scenario
    python bench/bench_sim.py --missions 5 --policy cautious --rate-missions 40 --jobs 2

It prints, for each shipped scenario, the CPU time of whole missions played in one process by
the autopilot (``time.process_time``: fair on a busy machine; the scenario parsed once and the
compiled terrain shared, as ``solo-ops rate`` does), the missions a minute that makes per core,
then the wall time and missions a minute of one ``rate`` run over ``--jobs`` worker processes
(``--rate-missions`` missions of ``--rate-scenario``), and the CPU time of ``solo-ops --help``
and ``solo-ops orders roll ...`` (the best of five, from ``resource.getrusage`` of the child
process) next to ``python -c pass``.
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--missions", type=int, default=3, help="missions per scenario")
    parser.add_argument("--policy", default="objective")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rate-scenario", default="gallowdark-night-raid")
    parser.add_argument("--rate-missions", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--skip-missions", action="store_true")
    args = parser.parse_args()

    if not args.skip_missions:
        print(f"Whole missions, one process, policy {args.policy}, {args.missions} each "
              "(CPU s a mission: median, min-max; missions a minute per core)")
        every: list[float] = []
        for shipped in library.shipped("scenario"):
            scenario = load_scenario(shipped.path)
            terrains = TerrainCache(scenario.board)
            times = []
            for i in range(args.missions):
                start = time.process_time()
                rating.play_one(scenario, rating.mission_seed(args.seed, i), args.policy,
                                index=i, terrains=terrains)
                times.append(time.process_time() - start)
            every += times
            print(f"  {shipped.name:38s} {statistics.median(times):6.2f}  "
                  f"{min(times):5.2f}-{max(times):5.2f}  {60 / statistics.mean(times):6.1f}/min")
        print(f"  {'all':38s} {statistics.median(every):6.2f}  {min(every):5.2f}-"
              f"{max(every):5.2f}  {60 / statistics.mean(every):6.1f}/min per core")
        scenario = load_scenario(args.rate_scenario)
        start = time.perf_counter()
        rating.run(scenario, args.rate_missions, args.seed, policy=args.policy, jobs=args.jobs)
        wall = time.perf_counter() - start
        print(f"rate {args.rate_scenario} --missions {args.rate_missions} --jobs {args.jobs}: "
              f"{wall:.1f} s wall, {60 * args.rate_missions / wall:.1f} missions a minute")

    print("Single-pair sight on gallowdark-corridors, 300 random pairs of 32 mm bases "
          "(CPU us a query: first asked = the matrix path, asked again = remembered)")
    import random

    from solo_ops.geometry.sight import Sight

    board = load_scenario("gallowdark-night-raid").board
    rng = random.Random(args.seed)
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
