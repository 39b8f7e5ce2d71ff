"""Where the enemy planner's time goes, stage by stage, and whether it asks anything twice.

Run it from the repository root with the project's virtual environment active::

    python bench/bench_planner_stages.py                  # bench_ai's 20-unit turns (numpy)
    python bench/bench_planner_stages.py --missions 3     # stronghold missions, as rate plays
    python bench/bench_planner_stages.py --missions 3 --scenario gallowdark-night-raid

Either ``bench/bench_ai.py``'s game (20 one-model units, 3 turns, the numpy geometry) or
``--missions`` missions of a shipped scenario played by the autopilot as ``rate`` plays them
(the compiled loops, no words; seeds 1..N after an untimed seed 0). Each stage is timed in CPU
(``time.process_time``; a stage called inside another is counted in both, so the column does
not add up), and the geometry's questions are counted with how many repeat an earlier one with
the very same inputs (what a cache or "plan once" could save). The sequences the planner tries
(:data:`solo_ops.ai.sequences.REALIZE`) are split into the one it kept and the ones it
rejected: the rejected ones are what choosing among sequences costs beyond the one played.
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from solo_ops.ai import candidates, combat, move_order, planner, sequences, turn  # noqa: E402
from solo_ops.game import engine  # noqa: E402
from solo_ops.geometry.routes import Routes  # noqa: E402
from solo_ops.geometry.sight import Sight  # noqa: E402

CPU: dict[str, list[float]] = collections.defaultdict(lambda: [0, 0.0])
ASKED: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
SEEN: dict[str, set[Any]] = collections.defaultdict(set)


def _key(value: Any) -> Any:
    """A hashable image of a question's inputs (arrays by their bytes, objects by identity)."""
    if isinstance(value, np.ndarray):
        return (value.shape, value.dtype.str, value.tobytes())
    if isinstance(value, list | tuple):
        return tuple(_key(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _key(v)) for k, v in value.items()))
    if isinstance(value, int | float | str | bool | type(None)):
        return value
    return id(value)


def _timed(label: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def run(*args: Any, **kwargs: Any) -> Any:
        t0 = time.process_time()
        out = fn(*args, **kwargs)
        row = CPU[label]
        row[0] += 1
        row[1] += time.process_time() - t0
        return out
    return run


def _question(cls: type, name: str) -> None:
    """Count ``cls.name``'s calls and its repeats (same object, same inputs), and time it."""
    fn = getattr(cls, name)
    label = f"{cls.__name__}.{name}"

    def run(self: Any, *args: Any, **kwargs: Any) -> Any:
        key = (id(self), _key(args), _key(kwargs))
        ASKED[label][0] += 1
        ASKED[label][1] += key in SEEN[label]
        SEEN[label].add(key)
        return fn(self, *args, **kwargs)

    setattr(cls, name, _timed(label, run))


def instrument() -> None:
    """Wrap the planner's stages and the geometry's questions with timers and counters."""
    plan = _timed("plan_activation", planner.plan_activation)
    planner.plan_activation = plan  # type: ignore[assignment]
    engine.plan_activation = plan  # type: ignore[attr-defined]  # the engine's own name for it
    choose = _timed("choose_sequence", sequences.choose_sequence)
    planner.choose_sequence = choose  # type: ignore[assignment]
    by_order = _timed("move_by_order", move_order.move_by_order)
    turn.move_by_order = by_order  # type: ignore[assignment]
    points = _timed("candidate_points", candidates.candidate_points)
    move_order.candidate_points = points  # type: ignore[assignment]
    sequences.candidate_points = points  # type: ignore[assignment]
    charge = _timed("charge_option", combat.charge_option)
    sequences.charge_option = charge  # type: ignore[assignment]
    for name, fn in list(sequences.REALIZE.items()):
        def realize(fork: Any, fn: Callable[..., Any] = fn, name: str = name) -> Any:
            t0 = time.process_time()
            why = fn(fork)
            row = CPU[f"sequence {name} ({'kept' if why is None else 'rejected'})"]
            row[0] += 1
            row[1] += time.process_time() - t0
            return why
        sequences.REALIZE[name] = realize
    for name in ("reachable", "distance_matrix", "distances"):
        _question(Routes, name)
    for name in ("cover_matrix", "visibility_matrix"):
        _question(Sight, name)


def play_ai_turns(turns: int) -> None:
    """bench_ai's game: 20 one-model units, ``turns`` enemy turns."""
    import bench_ai

    bench_ai.plan_activation = planner.plan_activation
    game, state = bench_ai.build(20, 1)
    for _ in range(turns):
        bench_ai.one_turn(game, state)
        for op in state.operatives.values():
            op.activated = op.moved = op.shot = op.fought = op.charged = False


def play_missions(scenario: str, missions: int) -> float:
    """``missions`` missions of ``scenario`` as ``rate`` plays them, after an untimed one;
    returns their CPU seconds (the timers' and counters' own cost included)."""
    from log_digests import play_shipped, shipped

    paths = shipped([scenario])
    for _ in play_shipped(0, 0, "objective", paths, quiet=True):
        pass
    CPU.clear()
    ASKED.clear()
    SEEN.clear()
    t0 = time.process_time()
    for _ in play_shipped(1, missions, "objective", paths, quiet=True):
        pass
    return time.process_time() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--missions", type=int, default=0,
                        help="play this many missions instead of bench_ai's turns")
    parser.add_argument("--scenario", default="volkus-stronghold-supplement-example")
    parser.add_argument("--turns", type=int, default=3)
    args = parser.parse_args()
    instrument()
    t0 = time.process_time()
    if args.missions:
        spent = play_missions(args.scenario, args.missions)
        print(f"{args.missions} missions {spent:.2f} s CPU (the untimed first one left out; "
              "the counters' own cost included)")
    else:
        play_ai_turns(args.turns)
        print(f"whole run {time.process_time() - t0:.2f} s CPU")
    print(f"{'stage':44s} {'calls':>6s} {'CPU s':>7s} {'repeats':>8s}")
    for label, (calls, cpu) in sorted(CPU.items(), key=lambda kv: -kv[1][1]):
        repeats = f"{ASKED[label][1]:8d}" if label in ASKED else ""
        print(f"{label:44s} {int(calls):6d} {cpu:7.3f} {repeats}")


if __name__ == "__main__":
    main()
