"""What a simulated mission costs, against what the proposal's budget counts for it: the fit
behind ``solo_ops.sim.proposal.COST``.

Run it from the repository root with the project's virtual environment active, on a quiet
machine::

    nice python bench/bench_mission_cost.py                  # 3 missions a candidate: ~5 min
    nice python bench/bench_mission_cost.py --missions 1     # a quick look

For each shipped board it sets up a fresh campaign's first mission, as ``campaign play --board
B`` does (the co-op squads ``vesper`` and ``ashen-blades``; the rating's candidates caught as
the proposal is asked for, one scenario per shipped enemy roster), then plays ``--missions``
missions of every enemy at every level 1-6 as a proposal's workers do
(``rating.play_one(..., outcome_only=True)``), two boards at a time in two processes (the
proposal's two workers), timing each mission's CPU in its process. It prints the least-squares
fit of the CPU to (1, ``plans``, ``steps``) — the counts each ``MissionResult`` carries — with
its R², and for the fit and for the shipped ``COST`` the ratio of the measured CPU to the
estimate by board and level: how far the budget's work is from the CPU it stands for.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np


def captured(board: str, folder: Path) -> dict[str, Any]:
    """The candidates of a fresh campaign's first proposal on ``board``: enemy -> scenario."""
    from click.testing import CliRunner

    from solo_ops.cli import main
    from solo_ops.sim import proposal

    caught: dict[str, Any] = {}
    real = proposal.propose

    def catch(variants: dict[str, Any], order: Any, target: float, **kw: Any) -> Any:
        caught.update(variants)
        return real(variants, order, target, **{**kw, "budget": 16, "jobs": 1})

    proposal.propose = catch  # type: ignore[assignment]
    try:
        saves = ["--saves", str(folder)]
        runner = CliRunner()
        runner.invoke(main, ["campaign", "new", f"c-{board}", "--squad", "vesper", "--squad",
                             "ashen-blades", *saves], catch_exceptions=False)
        runner.invoke(main, ["campaign", "play", f"c-{board}", "--board", board, "--seed", "38",
                             "--answer", "quit", *saves], catch_exceptions=False)
    finally:
        proposal.propose = real  # type: ignore[assignment]
    return caught


def measure(board: str, missions: int) -> list[dict[str, Any]]:
    """Every enemy at every level of ``board``'s first proposal, ``missions`` each: CPU and
    counts of each mission (one process; a mission first, untimed, to warm it)."""
    from solo_ops.cli.compile import prepare
    from solo_ops.geometry import jit
    from solo_ops.geometry.terrain import TerrainCache
    from solo_ops.rules import killzones
    from solo_ops.sim import autopilot, rating

    jit.use_in_simulation(prepare(start_compiling=False))
    with tempfile.TemporaryDirectory() as tmp:
        variants = captured(board, Path(tmp))
    first = next(iter(variants.values()))
    terrains = TerrainCache(killzones.board_in_play(first.board, first.edition))
    rows = []
    with autopilot.fewer_collections():
        for enemy, scenario in variants.items():
            for level in range(1, 7):
                at = rating.with_engagement(scenario, level)
                rating.play_one(at, 99, "objective", terrains=terrains, outcome_only=True)
                for i in range(missions):
                    start = time.process_time()
                    r = rating.play_one(at, rating.mission_seed(11, i), "objective", index=i,
                                        terrains=terrains, outcome_only=True)
                    rows.append({"board": board, "enemy": enemy, "level": level,
                                 "cpu": time.process_time() - start, "plans": r.plans,
                                 "steps": r.steps})
    return rows


def ratios(rows: list[dict[str, Any]], cost: np.ndarray) -> None:
    """Measured CPU over the estimate, by board (rows) and level (columns)."""
    cells: dict[tuple[str, int], list[float]] = defaultdict(lambda: [0.0, 0.0])
    for r in rows:
        cell = cells[(r["board"], r["level"])]
        cell[0] += r["cpu"]
        cell[1] += cost[0] + cost[1] * r["plans"] + cost[2] * r["steps"]
    print("| board | " + " | ".join(f"level {lv}" for lv in range(1, 7)) + " |")
    print("|---|" + "---|" * 6)
    for board in dict.fromkeys(r["board"] for r in rows):
        print(f"| {board} | " + " | ".join(
            f"{cells[(board, lv)][0] / cells[(board, lv)][1]:.2f}" for lv in range(1, 7)) + " |")
    all_ = [a / b for a, b in cells.values()]
    print(f"ratio by board and level: {min(all_):.2f}-{max(all_):.2f}, "
          f"median {statistics.median(all_):.2f}")


def main() -> None:
    from solo_ops.io import library
    from solo_ops.sim import proposal

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--missions", type=int, default=3, help="missions a candidate")
    args = parser.parse_args()
    boards = [b.name for b in library.shipped("board")]
    started = time.perf_counter()
    with ProcessPoolExecutor(2) as pool:
        rows = [r for part in pool.map(measure, boards, [args.missions] * len(boards))
                for r in part]
    y = np.array([r["cpu"] for r in rows])
    a = np.array([[1.0, r["plans"], r["steps"]] for r in rows])
    fit, *_ = np.linalg.lstsq(a, y, rcond=None)
    r2 = 1 - float(((y - a @ fit) ** 2).sum() / ((y - y.mean()) ** 2).sum())
    print(f"{len(rows)} missions, {y.sum():.0f} s of CPU, "
          f"{time.perf_counter() - started:.0f} s wall; mean {y.mean():.3f} s a mission")
    print(f"fit: {fit[0]:.4f} + {fit[1]:.5f} x plans + {fit[2]:.5f} x steps (R² {r2:.2f})")
    print("\nthe fit's estimate:")
    ratios(rows, fit)
    print(f"\nthe shipped COST {proposal.COST}:")
    ratios(rows, np.array(proposal.COST))


if __name__ == "__main__":
    main()
