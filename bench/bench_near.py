"""Whole missions with ``Routes.reachable(..., near=...)`` honoured (after) or dropped (before:
the whole move circle, as the planner asked before), in one process, game by game.

Run it from the repository root with the project's virtual environment active::

    python bench/bench_near.py                       # objective policy, seeds 1..2
    python bench/bench_near.py --policy cautious --seeds 1 1

Each shipped scenario and seed is played twice, once each way (which goes first alternates
by seed), on two separate terrain caches; it prints the CPU time (``time.process_time``) of
the missions and of the ``reachable`` calls each way, and how many games' logs differ between
the two (must be 0: ``near=`` answers exactly what the full call answers there).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.log_digests import digest_of  # noqa: E402
from solo_ops.game.engine import new_game  # noqa: E402
from solo_ops.geometry import routes as R  # noqa: E402
from solo_ops.geometry.terrain import TerrainCache  # noqa: E402
from solo_ops.io import library  # noqa: E402
from solo_ops.io.scenario import load_scenario  # noqa: E402
from solo_ops.sim import autopilot  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", nargs=2, type=int, default=(1, 2), metavar=("FIRST", "LAST"))
    parser.add_argument("--policy", default="objective")
    args = parser.parse_args()
    orig = R.Routes.reachable
    now = {"way": "after"}
    spent = {"before": 0.0, "after": 0.0}
    in_reach = {"before": 0.0, "after": 0.0}
    calls = {"before": 0, "after": 0}

    def timed(self: R.Routes, *a: Any, near: Any = None, **kw: Any) -> R.Reach:
        t0 = time.process_time()
        try:
            return orig(self, *a, near=None if now["way"] == "before" else near, **kw)
        finally:
            in_reach[now["way"]] += time.process_time() - t0
            calls[now["way"]] += 1

    R.Routes.reachable = timed  # type: ignore[method-assign]
    games = differ = 0
    first, last = args.seeds
    for path in sorted(library.folder("scenario").glob("*.yaml")):
        scenario = load_scenario(path)
        caches = {w: TerrainCache(scenario.board) for w in ("before", "after")}
        for seed in range(first, last + 1):
            digests = {}
            for way in ("before", "after") if seed % 2 else ("after", "before"):
                now["way"] = way
                t0 = time.process_time()
                game, state = new_game(scenario, seed, terrains=caches[way])
                autopilot.play(game, state, args.policy)
                spent[way] += time.process_time() - t0
                digests[way] = digest_of(state.log)
            games += 1
            differ += digests["before"] != digests["after"]
    print(f"{games} games ({args.policy}), seeds {first}..{last}")
    for way in ("before", "after"):
        print(f"{way:6s}: missions {spent[way]:6.2f} s CPU ({spent[way] / games:.3f} s a "
              f"mission); reachable {in_reach[way]:5.2f} s CPU in {calls[way]} calls")
    print(f"{differ} of {games} games differ")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
