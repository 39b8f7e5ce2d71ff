"""Benchmark: the distance queries of real missions, replayed on two versions of ``Routes``.

How to run (from the repository root; ``--before`` names another checkout's ``routes.py``,
e.g. ``git archive 27b8595 | tar -x -C /tmp/before``)::

    python bench/bench_routes_replay.py --before /tmp/before/solo_ops/geometry/routes.py

The autopilot plays every shipped scenario (seeds 1 and 2, ``--policy``, default objective)
and every call of ``Routes.distance`` and ``Routes.distance_matrix`` is recorded with its
board. Each board's calls are then replayed in order on a fresh ``Routes`` of this checkout
and on a fresh one of the other version, alternating which goes first, ``--rounds`` times.
It prints the CPU time (``time.process_time``) of each method in both, and checks that every
answer is identical (the same floats, the same route points); it exits 1 if one is not.
"""

from __future__ import annotations

import argparse
import collections
import copy
import importlib.util
import os
import sys
import time
from typing import Any

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from solo_ops.geometry import routes as R

METHODS = ("distance", "distance_matrix")


def record(policy: str) -> tuple[list[Any], list[tuple[int, str, Any, Any]]]:
    """Play the missions; return the boards of the Routes built and the calls made on them."""
    from solo_ops.game.engine import new_game
    from solo_ops.geometry.terrain import TerrainCache
    from solo_ops.io import library
    from solo_ops.io.scenario import load_scenario
    from solo_ops.sim import autopilot

    boards: list[Any] = []
    calls: list[tuple[int, str, Any, Any]] = []
    ids: dict[int, int] = {}
    originals = {name: getattr(R.Routes, name) for name in METHODS}
    init = R.Routes.__init__

    def new_init(self: R.Routes, board: Any) -> None:
        init(self, board)
        ids[id(self)] = len(boards)
        boards.append(board)

    def wrap(name: str) -> Any:
        def call(self: R.Routes, *args: Any, **kw: Any) -> Any:
            calls.append((ids[id(self)], name, copy.deepcopy(args), copy.deepcopy(kw)))
            return originals[name](self, *args, **kw)
        return call

    R.Routes.__init__ = new_init  # type: ignore[method-assign]
    for name in METHODS:
        setattr(R.Routes, name, wrap(name))
    try:
        for path in sorted(library.folder("scenario").glob("*.yaml")):
            scenario = load_scenario(path)
            terrains = TerrainCache(scenario.board)
            for seed in (1, 2):
                game, state = new_game(scenario, seed, terrains=terrains)
                autopilot.play(game, state, policy)
    finally:
        R.Routes.__init__ = init  # type: ignore[method-assign]
        for name, f in originals.items():
            setattr(R.Routes, name, f)
    return boards, calls


def same(name: str, x: Any, y: Any) -> bool:
    if name == "distance":
        return bool((x.distance, x.points) == (y.distance, y.points))
    return bool(np.array_equal(x, y))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--before", required=True, help="the other version's routes.py")
    parser.add_argument("--policy", default="objective")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    spec = importlib.util.spec_from_file_location("routes_before", args.before)
    if spec is None or spec.loader is None:
        print(f"{args.before}: cannot load", file=sys.stderr)
        return 2
    before = importlib.util.module_from_spec(spec)
    sys.modules["routes_before"] = before
    spec.loader.exec_module(before)
    boards, calls = record(args.policy)
    per_board: dict[int, list[tuple[str, Any, Any]]] = collections.defaultdict(list)
    for rid, name, a, kw in calls:
        per_board[rid].append((name, a, kw))
    cpu: dict[tuple[str, str], float] = collections.defaultdict(float)
    bad = 0
    for rnd in range(args.rounds):
        for rid, seq in per_board.items():
            versions = [("before", before.Routes), ("after", R.Routes)]
            if (rid + rnd) % 2:
                versions.reverse()
            answers: dict[str, list[Any]] = {}
            for tag, cls in versions:
                routes = cls(boards[rid])
                out = []
                for name, a, kw in seq:
                    f = getattr(routes, name)
                    t0 = time.process_time()
                    out.append(f(*a, **kw))
                    cpu[tag, name] += time.process_time() - t0
                answers[tag] = out
            bad += sum(not same(name, x, y) for (name, _, _), x, y
                       in zip(seq, answers["before"], answers["after"], strict=True))
    print(f"{len(calls)} calls on {len(per_board)} boards ({args.policy}, every shipped "
          f"scenario, seeds 1 and 2), {args.rounds} rounds, CPU seconds:")
    for name in METHODS:
        b, a = cpu["before", name], cpu["after", name]
        print(f"  {name:16} before {b:7.3f}  after {a:7.3f}  x{b / a if a else 0:.2f}")
    print(f"answers that differ: {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
