"""Benchmark: how fast each dice scheme rolls, in CPU time.

How to run (from the repository root)::

    python bench/bench_dice.py                  # 200,000 rolls of each kind, best of 5
    python bench/bench_dice.py --rolls 50000 --repeats 3

Every scheme of :data:`solo_ops.core.dice.SCHEMES` rolls the same work through
:meth:`~solo_ops.core.dice.Dice.roll`, as the game does: single d6 (orders, hidden orders,
survival tests), pools of 4d6 (attack and defence dice) and d1000000 (the fog's placing
numbers). Each figure is the best of ``--repeats`` runs (``time.process_time``: the CPU of this
process, fair on a busy machine). A mission of the simulator rolls a few hundred dice, so even
the slowest figure here is far from what bounds ``rate`` (its missions' geometry and planning).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solo_ops.core.dice import SCHEMES, dice_for  # noqa: E402

WORK = (("d6", 1, 6), ("4d6 pool", 4, 6), ("d1000000", 1, 1_000_000))


def rolls_per_second(scheme: str, count: int, sides: int, rolls: int, repeats: int) -> float:
    """Rolls of ``count`` dice of ``sides`` per CPU second, the best of ``repeats`` runs."""
    best = float("inf")
    for run in range(repeats):
        dice = dice_for(scheme, 0x1234_5678_9ABC_DEF0_1234_5678_9ABC_DEF0 + run)
        start = time.process_time()
        for _ in range(rolls):
            dice.roll("bench", count, sides)
        best = min(best, time.process_time() - start)
        dice.log.clear()
    return rolls / best if best > 0 else float("inf")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=200_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    print(f"{'scheme':<12} " + " ".join(f"{name:>16}" for name, _c, _s in WORK)
          + "   (rolls per CPU second)")
    for scheme in SCHEMES:
        rates = [rolls_per_second(scheme, count, sides, args.rolls, args.repeats)
                 for _name, count, sides in WORK]
        print(f"{scheme:<12} " + " ".join(f"{r:>16,.0f}" for r in rates))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
