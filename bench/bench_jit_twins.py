"""Must the compiled kernels keep their numpy twins? The figures behind issue #26's decision.

Run it from the repository root with the project's virtual environment active::

    python bench/bench_jit_twins.py                 # seeds 1-2 of every shipped scenario
    python bench/bench_jit_twins.py --seeds 1 4 --scenario gallowdark-night-raid

Each geometry kernel in ``solo_ops/geometry/jit`` is a numba loop with a numpy twin that gives
the same floats. The twins could go only if the loops alone served every machine and command.
This script plays the same games (the autopilot, after one untimed warm-up game a scenario)
three ways, each in its own fresh process:

* ``numpy``: the numpy code (``SOLO_OPS_JIT=0``), what ``play``, ``serve`` and ``geom`` run;
* ``compiled``: the numba loops (``SOLO_OPS_JIT=1``), what ``rate`` runs;
* ``loops as Python``: the same loops with ``NUMBA_DISABLE_JIT=1`` — what the twins' removal
  would leave a machine without numba wheels (Python 3.15, 32-bit, other processors).

and prints the CPU seconds of the timed games, the digests (all three must play the same games)
and what importing numba adds to a process's start.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, os, sys, time
sys.path.insert(0, {root!r}); sys.path.insert(0, {bench!r})
t0 = time.process_time()
from solo_ops.geometry import jit
if os.environ.get("FORCE_LOOPS"):
    jit.AVAILABLE = True  # run the loops although numba is told not to compile them
from log_digests import digest_of, play_shipped, shipped
import solo_ops.sim.autopilot  # noqa: F401  (the imports every mode pays)
start = time.process_time() - t0
games, cpu = {{}}, 0.0
paths = shipped({only!r})
for key, state, spent in play_shipped({first}, {last}, "objective", paths, warm=True):
    games[key] = digest_of(state.log)
    cpu += spent
print(json.dumps({{"start": start, "cpu": cpu, "games": games, "enabled": jit.ENABLED}}))
"""

MODES = {
    "numpy": {"SOLO_OPS_JIT": "0"},
    "compiled": {"SOLO_OPS_JIT": "1"},
    "loops as Python": {"SOLO_OPS_JIT": "1", "NUMBA_DISABLE_JIT": "1", "FORCE_LOOPS": "1"},
}


def run(mode: str, first: int, last: int, only: list[str]) -> dict:
    """One fresh process playing the games in ``mode``: its JSON summary."""
    env = {**os.environ, **MODES[mode]}
    code = CHILD.format(root=str(ROOT), bench=str(ROOT / "bench"), only=only, first=first,
                        last=last)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def load_cost(repeats: int = 5) -> dict[str, float]:
    """Median CPU seconds to import numpy+shapely+click, and to import numba as well (each in a
    fresh process). Loading the cached machine code happens at a kernel's first call, in the
    untimed warm-up game; issue #32 measures it."""
    probes = {
        "numpy, shapely, click": "import numpy, shapely, click",
        "+ numba": "import numpy, shapely, click, numba",
    }
    found = {}
    for name, code in probes.items():
        times = []
        for _ in range(repeats):
            t = subprocess.run([sys.executable, "-c", code + "\nimport time, resource\n"
                                "r = resource.getrusage(resource.RUSAGE_SELF)\n"
                                "print(r.ru_utime + r.ru_stime)"],
                               capture_output=True, text=True, check=True, cwd=ROOT)
            times.append(float(t.stdout.strip()))
        found[name] = sorted(times)[len(times) // 2]
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", nargs=2, type=int, default=(1, 2), metavar=("FIRST", "LAST"))
    parser.add_argument("--scenario", action="append", default=[], metavar="NAME")
    args = parser.parse_args()
    first, last = args.seeds
    results = {}
    for mode in MODES:
        t0 = time.perf_counter()
        results[mode] = run(mode, first, last, args.scenario)
        wall = time.perf_counter() - t0
        r = results[mode]
        print(f"{mode:16s} games {r['cpu']:7.2f} s CPU   start {r['start']:5.2f} s CPU   "
              f"whole process {wall:6.1f} s wall   loops {'on' if r['enabled'] else 'off'}",
              flush=True)
    same = len({json.dumps(r["games"], sort_keys=True) for r in results.values()}) == 1
    print(f"{len(results['numpy']['games'])} games; the three modes play the same games: "
          f"{'yes' if same else 'NO'}")
    base = results["numpy"]["cpu"]
    for mode, r in results.items():
        print(f"  {mode:16s} {r['cpu'] / base:6.2f}x the numpy code's CPU")
    for name, seconds in load_cost().items():
        print(f"start-up, {name:34s} {seconds:5.2f} s CPU (median of 5)")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
