"""The log audit of issue #11 over every shipped scenario and seeds 1-20 (the unit suite runs
seeds 1-4: ``tests/test_log_audit.py``).

Run it from the repository root with the project's virtual environment active::

    python bench/audit_games.py               # seeds 1-20
    python bench/audit_games.py --seeds 1 5   # seeds 1-5

Each game is played to the end with the e2e tests' scripted player and its event log checked
by :func:`tests.log_audit.audit_game`: no enemy shoots a model it cannot see or one not on the
table, no enemy charge or fight reaches a model out of its control range or off the table. It
prints one line per scenario (games, steps, enemy attacks checked, problems, seconds), every
problem found, and the totals; the exit status is 1 when anything was found.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.log_audit import audit_game, shipped_scenarios  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", nargs=2, type=int, default=(1, 20), metavar=("FIRST", "LAST"))
    args = parser.parse_args()
    first, last = args.seeds
    problems: list[str] = []
    games = steps = attacks = 0
    start = time.perf_counter()
    for path in shipped_scenarios():
        t0 = time.perf_counter()
        n = s = a = p = 0
        for seed in range(first, last + 1):
            audit = audit_game(path, seed)
            n, s, a, p = n + 1, s + audit.steps, a + audit.attacks, p + len(audit.problems)
            problems.extend(audit.problems)
        games, steps, attacks = games + n, steps + s, attacks + a
        print(f"{path.stem:40s} games {n:3d}  steps {s:6d}  enemy attacks {a:5d}  "
              f"problems {p:3d}  {time.perf_counter() - t0:6.1f} s", flush=True)
    for line in problems:
        print("  " + line)
    print(f"total: {games} games (seeds {first}-{last}), {steps} steps, {attacks} enemy attacks "
          f"checked, {len(problems)} problems, {time.perf_counter() - start:.1f} s")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
