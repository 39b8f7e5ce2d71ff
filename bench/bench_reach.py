"""CPU of whole missions and of ``Routes.reachable`` in them (movement queries, issue 13).

Run it from the repository root with the project's virtual environment active::

    python bench/bench_reach.py                  # every shipped scenario, seeds 1 and 2
    python bench/bench_reach.py --seeds 1 1 --policy cautious

Every shipped scenario is played to the end by the autopilot for each seed (as
``bench/log_digests.py`` does), with ``Routes.reachable`` wrapped to add up the CPU time
(``time.process_time``) spent inside it. It prints the missions' CPU, per mission, and the
calls to ``reachable`` with their CPU and share. To compare two versions, run it from each
checkout (``PYTHONPATH`` pointing at it) one after the other, alternating, on a quiet machine.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.log_digests import play_shipped  # noqa: E402
from solo_ops.geometry import routes  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", nargs=2, type=int, default=(1, 2), metavar=("FIRST", "LAST"))
    parser.add_argument("--policy", default="objective")
    args = parser.parse_args()
    spent = [0.0, 0]
    plain = routes.Routes.reachable

    def timed(self: routes.Routes, *a: Any, **k: Any) -> routes.Reach:
        t0 = time.process_time()
        try:
            return plain(self, *a, **k)
        finally:
            spent[0] += time.process_time() - t0
            spent[1] += 1

    routes.Routes.reachable = timed  # type: ignore[method-assign]
    games, cpu = 0, 0.0
    for _key, _state, spent_here in play_shipped(*args.seeds, args.policy):
        cpu += spent_here
        games += 1
    routes.Routes.reachable = plain  # type: ignore[method-assign]
    print(f"{games} missions ({args.policy}): {cpu:.2f} s CPU, {cpu / games:.3f} s a mission; "
          f"reachable: {spent[1]} calls, {spent[0]:.2f} s CPU ({100 * spent[0] / cpu:.0f}%)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
