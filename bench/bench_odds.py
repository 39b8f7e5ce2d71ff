"""Benchmark: exact shooting and fight odds, uncached, today's code against the Fraction version.

How to run (from the repository root)::

    python bench/bench_odds.py                 # 51 shooting cases, 51 fights
    python bench/bench_odds.py --repeats 50    # more repeats of the new path per case
    python bench/bench_odds.py --worst 8       # also list the 8 slowest fights, case by case
    python bench/bench_odds.py --before /tmp/before  # fights: also time an older tree's code

The cases are built deterministically from the shipped data (``tests/support/odds_oracle.py``,
``shipped_cases``/``shipped_fights``): every distinct shipped ranged weapon (rosters and squads,
Kill Team 2024 characteristics) against the shipped defences (3 defence dice, Save 3+ to 6+,
the profiles' wounds), in cover or not, obscured or not, then shipped weapons with one more
dice rule (Accurate, Balanced, Relentless, Stun, Punishing, Severe...), some injured; fights
pair the shipped melee weapons with the shipped wounds.

Both paths run in this one process, case by case, each call with every cache cleared first
(``odds.clear_caches()``; the old copy's ``clear_caches()``, which also empties the fight
programme's memory), so a case costs what a first question costs. Times are CPU time
(``time.process_time``) per call, each case's best of ``--repeats`` calls of the new path and
``--old-repeats`` of the old one (as ``timeit`` advises: on a machine shared with other work
the least time is the one least disturbed; ``--mean`` takes the mean instead). Every case's
distribution is compared too (Fraction equality); the script exits 1 if one differs.

The oracle's fights are played by today's fight solver (``kt2024_fight_solver._FightSolver``);
to time the fights against an older tree's fight code, unpack it
(``git archive 27b8595 | tar -x -C DIR``) and pass ``--before DIR``: its ``odds.py`` and
``kt2024.py`` are loaded beside today's (as modules of their own, bound to each other) and each
fight is timed with both in turn, rounds alternating, and compared.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import os
import statistics
import sys
import time
from collections.abc import Callable
from types import ModuleType

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from solo_ops.rules import odds
from tests.support import odds_oracle as oracle

MEAN = False
"""Report each case's mean time over its repeats instead of its best (``--mean``)."""


def timed(call: Callable[[], object], clear: Callable[[], None], repeats: int,
          collect: bool = False) -> tuple[float, object]:
    """Best (or mean) CPU seconds of ``call`` with the caches cleared before each run, and its
    result. ``collect``: each run starts after a garbage collection (not timed), so that no run
    pays for the garbage of the one before (the collector stays on while it runs, as in a game;
    the fights use it: a fight's few thousand remembered states set the collector off)."""
    times = []
    result: object = None
    for _ in range(repeats):
        clear()
        if collect:
            gc.collect()
        start = time.process_time()
        result = call()
        times.append(time.process_time() - start)
    return (statistics.mean(times) if MEAN else min(times)), result


def summary(name: str, seconds: list[float], unit: float, label: str) -> str:
    return (f"{name:<24} {len(seconds):>5} {statistics.mean(seconds) / unit:>10.1f} "
            f"{statistics.median(seconds) / unit:>10.1f} {max(seconds) / unit:>10.1f}  {label}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", type=int, default=51, help="shooting cases (default 51)")
    ap.add_argument("--fights", type=int, default=51, help="fights (default 51)")
    ap.add_argument("--repeats", type=int, default=20, help="runs of the new path a case")
    ap.add_argument("--old-repeats", type=int, default=2, help="runs of the old path a case")
    ap.add_argument("--mean", action="store_true", help="mean of the repeats, not the best")
    ap.add_argument("--worst", type=int, default=0, help="list the N slowest fights")
    ap.add_argument("--before", metavar="DIR", help="also time DIR's fight code (an older tree)")
    args = ap.parse_args()
    global MEAN
    MEAN = args.mean

    different = 0
    old_shots: list[float] = []
    new_shots: list[float] = []
    for spec, defence in oracle.shipped_cases(args.cases):
        t_old, old = timed(lambda s=spec, d=defence: _mean(oracle.shoot_2024(s, d)),
                           oracle.clear_caches, args.old_repeats)
        t_new, new = timed(lambda s=spec, d=defence: _mean(odds.shoot_2024(s, d)),
                           odds.clear_caches, args.repeats)
        old_shots.append(t_old)
        new_shots.append(t_new)
        if old != new:
            different += 1
            print(f"DIFFERENT: {spec} {defence}", file=sys.stderr)

    old_fights: list[float] = []
    new_fights: list[float] = []
    before_fights: list[float] = []
    before = _load_before(args.before) if args.before else None
    fight_repeats = max(1, args.repeats // 5)
    cases = oracle.shipped_fights(args.fights)
    for a, d, aw, dw in cases:
        t_old, old = timed(lambda a=a, d=d, aw=aw, dw=dw: _joint(oracle.fight_2024(a, d, aw, dw)),
                           oracle.clear_caches, args.old_repeats, True)
        if before is None:
            t_new, new = timed(lambda a=a, d=d, aw=aw, dw=dw: _joint(odds.fight_2024(a, d, aw, dw)),
                               odds.clear_caches, fight_repeats, True)
        else:  # rounds alternate: today's code, then the older tree's
            rounds: tuple[list[float], list[float]] = ([], [])
            for _ in range(fight_repeats):
                t, new = timed(lambda a=a, d=d, aw=aw, dw=dw: _joint(
                    odds.fight_2024(a, d, aw, dw)), odds.clear_caches, 1, True)
                rounds[0].append(t)
                t, was = timed(lambda a=a, d=d, aw=aw, dw=dw: _joint(
                    before.fight_2024(a, d, aw, dw)), before.clear_caches, 1, True)
                rounds[1].append(t)
            pick = statistics.mean if MEAN else min
            t_new, t_before = pick(rounds[0]), pick(rounds[1])
            before_fights.append(t_before)
            if was != new:
                different += 1
                print(f"DIFFERENT fight from --before: {a} {d} {aw} {dw}", file=sys.stderr)
        old_fights.append(t_old)
        new_fights.append(t_new)
        if old != new:
            different += 1
            print(f"DIFFERENT fight: {a} {d} {aw} {dw}", file=sys.stderr)

    how = "mean" if MEAN else "best"
    print(f"CPU time a case, uncached ({how} of {args.repeats} new, {args.old_repeats} old; "
          f"fights: {fight_repeats} new)")
    print(f"{'':<24} {'count':>5} {'mean':>10} {'median':>10} {'max':>10}")
    print(summary("shoot: Fractions (old)", old_shots, 1e-6, "us"))
    print(summary("shoot: counted (new)", new_shots, 1e-6, "us"))
    print(summary("fight: Fractions (old)", old_fights, 1e-3, "ms"))
    print(summary("fight: counted (new)", new_fights, 1e-3, "ms"))
    if before is not None:
        print(summary("fight: --before tree", before_fights, 1e-3, "ms"))
    print(f"speed-up (mean): shoot {statistics.mean(old_shots) / statistics.mean(new_shots):.0f}x,"
          f" fight {statistics.mean(old_fights) / statistics.mean(new_fights):.1f}x; "
          f"targets: shoot <= 100 us, fight <= 5 ms a case")
    if args.worst:
        print(f"slowest fights (ms): today{', --before' if before is not None else ''}, oracle")
        order = sorted(range(len(cases)), key=lambda i: new_fights[i], reverse=True)
        for i in order[:args.worst]:
            a, d, aw, dw = cases[i]
            was = f" {before_fights[i] * 1e3:6.2f}" if before is not None else ""
            print(f"  #{i:<3} {new_fights[i] * 1e3:6.2f}{was} {old_fights[i] * 1e3:6.2f}  "
                  f"{_profile(a)} (W{aw}) vs {_profile(d)} (W{dw})")
    print(f"{different} of {len(old_shots) + len(old_fights)} distributions differ")
    return 1 if different else 0


def _profile(spec: odds.AttackSpec) -> str:
    rules = "".join(f", {r.name}" + (f" {r.value}" if r.value else "") for r in spec.rules)
    return f"A{spec.attacks} {spec.hit}+ {spec.normal}/{spec.crit}{rules}"


def _load_before(root: str) -> ModuleType:
    """An older tree's ``odds`` module, its ``kt2024`` loaded beside it (both under names of
    their own, so today's modules stay as they are)."""
    loaded = {}
    for name in ("kt2024", "odds"):
        path = os.path.join(root, "solo_ops", "rules", f"{name}.py")
        spec = importlib.util.spec_from_file_location(f"before_{name}", path)
        if spec is None or spec.loader is None:
            raise SystemExit(f"--before: no {path}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        loaded[name] = module
    loaded["odds"].kt2024 = loaded["kt2024"]  # the older odds play the older fight solver
    return loaded["odds"]


def _mean(result: odds.Odds) -> tuple[object, ...]:
    """What the callers read (the AI reads the mean): all of it, for the comparison."""
    return (result.distribution, list(result.distribution), result.extras, result.mean)


def _joint(result: odds.FightOdds) -> tuple[object, ...]:
    return (result.joint, list(result.joint), result.dealt.mean, result.taken.mean)


if __name__ == "__main__":
    sys.exit(main())
