"""The audits of every shipped scenario over seeds 1-20 (the unit suite runs a few:
``tests/e2e/test_log_audit.py``).

Run it from the repository root with the project's virtual environment active::

    python bench/audit_games.py                 # both audits, seeds 1-20
    python bench/audit_games.py --seeds 1 5     # seeds 1-5
    python bench/audit_games.py --only table    # the table audit alone (issue #27)
    python bench/audit_games.py --only log      # the log audit alone (issue #11)
    python bench/audit_games.py --only referee  # the referee audit alone

The log audit (issue #11): each game is played to the end with the e2e tests' scripted player
and its event log checked by :func:`tests.support.log_audit.audit_game`: no enemy shoots a model it
cannot see or one not on the table, no enemy charge or fight reaches a model out of its control
range or off the table.

The table audit (issue #27): each scenario in both editions (the scenario's own and the other,
where it plays in both) with each autopilot policy (objective, cautious, aggressive), checked
after every step by :func:`tests.support.log_audit.table_audit`: no two bases overlap by more than
0.01" (standing models, downed operatives still lying there, hidden counters), no base is
inside terrain no base stands in or off the board, every enemy move's reported cost equals its
route's cost recomputed from the recorded points (and is no less than the shortest way between
its ends), and every ``behind`` answer asked along the way ends out of every enemy's sight or in
cover from it.

The referee audit: each scenario in both editions with each autopilot policy, every enemy
action put through the players' own checks and every enemy plan checked against its order's
priority text (:mod:`solo_ops.sim.referee_audit`; flagged: an action a player would be refused
in its place, an action the referee stopped as it was carried out, a plan against its order).

It prints one line per scenario and audit, every problem found, and the totals; the exit status
is 1 when anything was found.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.support.log_audit import (  # noqa: E402
    EDITIONS,
    POLICIES,
    audit_game,
    shipped_scenarios,
    table_audit,
)


def log_audit(first: int, last: int, problems: list[str]) -> None:
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
        print(f"log   {path.stem:38s} games {n:3d}  steps {s:6d}  enemy attacks {a:5d}  "
              f"problems {p:3d}  {time.perf_counter() - t0:6.1f} s", flush=True)
    print(f"log audit: {games} games (seeds {first}-{last}), {steps} steps, {attacks} enemy "
          f"attacks checked, {time.perf_counter() - start:.1f} s", flush=True)


def table(first: int, last: int, problems: list[str]) -> None:
    totals = dict.fromkeys(("games", "steps", "bases", "moves", "behind", "overlaps",
                            "in_terrain", "costs", "behind_failed"), 0)
    start = time.perf_counter()
    for path in shipped_scenarios():
        for edition in EDITIONS:
            t0 = time.perf_counter()
            line = dict.fromkeys(totals, 0)
            for policy in POLICIES:
                for seed in range(first, last + 1):
                    audit = table_audit(path, seed, policy, edition)
                    line["games"] += 1
                    for key in ("steps", "bases", "moves", "behind"):
                        line[key] += getattr(audit, key)
                    for key in ("overlaps", "in_terrain", "costs", "behind_failed"):
                        line[key] += len(getattr(audit, key))
                    problems.extend(audit.problems)
            for key in totals:
                totals[key] += line[key]
            print(f"table {path.stem:38s} {edition} games {line['games']:3d}  steps "
                  f"{line['steps']:6d}  bases {line['bases']:7d}  moves {line['moves']:5d}  "
                  f"behind {line['behind']:4d}  overlaps {line['overlaps']}  in terrain "
                  f"{line['in_terrain']}  cost mismatches {line['costs']}  failed behind "
                  f"{line['behind_failed']}  {time.perf_counter() - t0:6.1f} s", flush=True)
    print(f"table audit: {totals['games']} games (seeds {first}-{last}, "
          f"{len(POLICIES)} policies, {len(EDITIONS)} editions), {totals['steps']} steps, "
          f"{totals['bases']} base placements, {totals['moves']} enemy moves, "
          f"{totals['behind']} behind answers checked: {totals['overlaps']} overlaps, "
          f"{totals['in_terrain']} bases in terrain or off the board, {totals['costs']} cost "
          f"mismatches, {totals['behind_failed']} failed behind answers, "
          f"{time.perf_counter() - start:.1f} s", flush=True)


def referee(first: int, last: int, problems: list[str]) -> None:
    from solo_ops.sim.referee_audit import audit_game as referee_game

    games = steps = actions = plans = flagged = 0
    start = time.process_time()
    for path in shipped_scenarios():
        for edition in EDITIONS:
            t0 = time.process_time()
            n = s = a = p = f = 0
            for policy in POLICIES:
                for seed in range(first, last + 1):
                    audit = referee_game(path, seed, policy, edition)
                    n, s, a, p = n + 1, s + audit.steps, a + audit.actions, p + audit.plans
                    f += len(audit.problems)
                    problems.extend(audit.problems)
            games, steps, actions, plans, flagged = (games + n, steps + s, actions + a,
                                                     plans + p, flagged + f)
            print(f"referee {path.stem:36s} {edition} games {n:3d}  steps {s:6d}  enemy "
                  f"actions {a:5d}  plans {p:5d}  flagged {f:3d}  "
                  f"{time.process_time() - t0:6.1f} s CPU", flush=True)
    print(f"referee audit: {games} games (seeds {first}-{last}, {len(POLICIES)} policies, "
          f"{len(EDITIONS)} editions), {steps} steps, {actions} enemy actions and {plans} "
          f"enemy plans checked: {flagged} flagged, {time.process_time() - start:.1f} s CPU",
          flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", nargs=2, type=int, default=(1, 20), metavar=("FIRST", "LAST"))
    parser.add_argument("--only", choices=("log", "table", "referee"), default=None)
    args = parser.parse_args()
    first, last = args.seeds
    problems: list[str] = []
    if args.only in (None, "log"):
        log_audit(first, last, problems)
    if args.only in (None, "table"):
        table(first, last, problems)
    if args.only in (None, "referee"):
        referee(first, last, problems)
    for line in problems:
        print("  " + line)
    print(f"total: {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
