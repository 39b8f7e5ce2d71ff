"""Campaigns played by the autopilot at several target win chances: do the proposals move the
win rates where the group asked, and what does a proposal cost?

Run it from the repository root with the project's virtual environment active, on a quiet
machine (it plays thousands of missions: nice it)::

    nice python bench/bench_campaign_targets.py --out /tmp/targets.json
    nice python bench/bench_campaign_targets.py --campaigns 2 --missions 3 --out /tmp/quick.json
    python bench/bench_campaign_targets.py --report /tmp/targets.json    # the figures again
    nice python bench/bench_campaign_targets.py --per-board --targets 0.5   # a proposal a board

For each target (30%, 50%, 70% by default) it starts ``--campaigns`` campaigns with the shipped
co-op squads ``vesper`` and ``ashen-blades`` (``solo-ops campaign new --target-win``; ``--squad``
to choose others) and plays ``--missions`` missions of each through the real command,
``solo-ops campaign play --autopilot objective`` (run in this process by click's runner: no
start-up per command): each mission's enemy and level proposed for the target by the rating
(its default budget unless ``--rate-missions``), then played out by the autopilot and recorded
(survival tests, losses and injuries carried into the next proposal). As a group would, it
recruits a model in place of each fallen one between missions (``campaign replace``, the same
profile; ``--no-recruits`` leaves the squads to dwindle). Campaign ``k``'s mission ``m`` has the
same seed at every target (common random numbers: the targets differ only in what was
proposed).

It prints, per target, the missions won with the 95% Wilson interval, the mean predicted win
chance, the calibration (wins expected by the predictions, the Brier score), and the proposals'
CPU time (each as ``campaign play`` measured it: its own process and its rating's workers) —
median and most — and the CPU time of the whole run (every process, ``resource.getrusage``).
Results are written to ``--out`` after every campaign, so a run stopped part way goes on from
where it was when started again with the same ``--out``.

``--per-board``: the cost of one proposal on each shipped board — a fresh campaign's first
mission set up there (``campaign play --board B``, the table left waiting), its proposal's CPU
time as ``campaign play`` measured it, the candidates rated and the one proposed.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import re
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solo_ops.sim.rating import mission_seed, wilson  # noqa: E402

RATED = re.compile(r"the rating played (?P<missions>\d+) simulated missions in all, over \d+ "
                   r"candidates?, in (?P<cpu>[0-9.]+) s of CPU")


def cpu() -> float:
    """CPU time of this process and its ended children (the ratings' workers): user + system."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def solo_ops(folder: Path, *args: str) -> str:
    """``solo-ops ARGS`` run in ``folder`` in this process (click's runner); its output."""
    import os

    from click.testing import CliRunner

    from solo_ops.cli import main as cli

    here = os.getcwd()
    os.chdir(folder)
    try:
        done = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    finally:
        os.chdir(here)
    if done.exit_code != 0:
        raise SystemExit(f"solo-ops {' '.join(args)} failed: {done.output.strip()}")
    return done.stdout


def recruit(folder: Path, name: str, shown: dict[str, Any]) -> None:
    """A recruit with the same profile in place of each fallen model not yet replaced."""
    import yaml

    for squad in shown["squads"]:
        for model in squad["models"]:
            if model["state"] != "fallen" or model.get("replaced_by"):
                continue
            new = folder / f"{name}-{model['id']}.yaml"
            new.write_text(yaml.safe_dump({"id": f"{model['id']}-r", "name": f"{model['name']}"
                                           " (recruit)", "profile": model["profile"]}))
            solo_ops(folder, "campaign", "replace", name, "--player", squad["player"],
                     "--model", model["id"], "--with", str(new))


def play_campaign(folder: Path, target: float, k: int, missions: int, seed: int,
                  squads: list[str], budget: int | None, recruits: bool
                  ) -> list[dict[str, Any]]:
    """Campaign ``k`` at ``target``: one row per mission (outcome, threat, proposal CPU)."""
    name = f"t{round(100 * target)}-c{k}"
    solo_ops(folder, "campaign", "new", name, *[a for s in squads for a in ("--squad", s)],
             "--target-win", f"{100 * target:g}%")
    rows = []
    for m in range(1, missions + 1):
        args = ["campaign", "play", name, "--autopilot", "objective", "--seed",
                str(mission_seed(seed, 1000 * k + m))]
        if budget is not None:
            args += ["--rate-missions", str(budget)]
        try:
            out = solo_ops(folder, *args)
        except SystemExit as exc:
            if "no model left who can play" in str(exc):
                break  # every model fell: the campaign ends here
            raise
        found = RATED.search(out)
        shown = json.loads(solo_ops(folder, "campaign", "show", name, "--json"))
        record = shown["history"][-1]
        threat = record.get("threat") or {}
        predicted = threat.get("predicted") or {}
        rows.append({"target": target, "campaign": k, "mission": m,
                     "outcome": record.get("outcome"), "enemy": threat.get("enemy"),
                     "level": threat.get("level"), "predicted": predicted.get("win_rate"),
                     "interval": predicted.get("interval"),
                     "proposal_cpu": float(found["cpu"]) if found else None,
                     "simulated": int(found["missions"]) if found else None,
                     "able": sum(1 for s in shown["squads"] for x in s["models"]
                                 if x["state"] not in ("fallen", "recovering"))})
        if recruits:
            recruit(folder, name, shown)
    return rows


def report(rows: list[dict[str, Any]], cpu: float | None = None) -> None:
    targets = sorted({r["target"] for r in rows})
    print("| target | campaigns | missions | won | win rate [95%] | mean predicted | "
          "expected wins | Brier | proposal CPU s, median / most |")
    print("|---|---|---|---|---|---|---|---|---|")
    for t in targets:
        mine = [r for r in rows if r["target"] == t and r["outcome"] is not None]
        won = sum(r["outcome"] == "win" for r in mine)
        n = len(mine)
        lo, hi = wilson(won, n)
        preds = [r for r in mine if r["predicted"] is not None]
        expected = sum(r["predicted"] for r in preds)
        brier = (sum((r["predicted"] - (r["outcome"] == "win")) ** 2 for r in preds)
                 / len(preds)) if preds else math.nan
        cpus = [r["proposal_cpu"] for r in mine if r["proposal_cpu"] is not None]
        print(f"| {100 * t:.0f}% | {len({r['campaign'] for r in mine})} | {n} | {won} | "
              f"{100 * won / max(1, n):.0f}% [{100 * lo:.0f}-{100 * hi:.0f}%] | "
              f"{100 * expected / max(1, len(preds)):.0f}% | {expected:.1f} | {brier:.3f} | "
              f"{statistics.median(cpus) if cpus else math.nan:.1f} / "
              f"{max(cpus) if cpus else math.nan:.1f} |")
    rates = [sum(r["outcome"] == "win" for r in rows if r["target"] == t)
             / max(1, sum(1 for r in rows if r["target"] == t)) for t in targets]
    order = all(a < b for a, b in itertools.pairwise(rates))
    print(f"win rates in the targets' order: {'yes' if order else 'NO'}")
    if cpu is not None:
        print(f"CPU time of the run (every process): {cpu:.0f} s")


def per_board(squads: list[str], target: float, seed: int, budget: int | None) -> None:
    """One proposal on each shipped board (see the module docstring)."""
    from solo_ops.io import library

    print("| board | proposed | its win rate [95%] (missions) | rated | simulated | CPU s |")
    print("|---|---|---|---|---|---|")
    cpus = []
    with tempfile.TemporaryDirectory(prefix="campaign-boards-") as tmp:
        for board in library.shipped("board"):
            name = f"b-{board.name}"
            solo_ops(Path(tmp), "campaign", "new", name,
                     *[a for s in squads for a in ("--squad", s)], "--target-win",
                     f"{100 * target:g}%")
            args = ["campaign", "play", name, "--board", board.name, "--seed", str(seed),
                    "--answer", "quit"]
            out = solo_ops(Path(tmp), *args + (["--rate-missions", str(budget)] if budget else []))
            found = RATED.search(out)
            threat = json.loads(solo_ops(Path(tmp), "campaign", "show", name, "--json"))["threat"]
            p = threat["predicted"]
            rated = ", ".join(f"{r['enemy']} {r['level']} ({100 * r['win_rate']:.0f}%)"
                              for r in threat["rated"])
            cpus.append(float(found["cpu"]) if found else math.nan)
            print(f"| {board.name} | {threat['enemy']} level {threat['level']} | "
                  f"{100 * p['win_rate']:.0f}% [{100 * p['interval'][0]:.0f}-"
                  f"{100 * p['interval'][1]:.0f}%] ({p['missions']}) | {rated} | "
                  f"{found['missions'] if found else '?'} | {cpus[-1]:.1f} |", flush=True)
    print(f"proposal CPU: median {statistics.median(cpus):.1f} s, most {max(cpus):.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--targets", type=float, nargs="+", default=[0.3, 0.5, 0.7])
    parser.add_argument("--campaigns", type=int, default=20)
    parser.add_argument("--missions", type=int, default=5)
    parser.add_argument("--seed", type=int, default=38)
    parser.add_argument("--squad", dest="squads", action="append", default=None,
                        help="a squad (repeat; default: vesper and ashen-blades)")
    parser.add_argument("--no-recruits", dest="recruits", action="store_false",
                        help="leave the fallen unreplaced")
    parser.add_argument("--rate-missions", type=int, default=None,
                        help="the proposals' budget (default: campaign play's own)")
    parser.add_argument("--out", type=Path, default=None, help="results, kept as they come")
    parser.add_argument("--report", type=Path, default=None, help="print a run's figures")
    parser.add_argument("--per-board", action="store_true",
                        help="one proposal on each shipped board, its CPU time")
    args = parser.parse_args()
    if args.per_board:
        per_board(args.squads or ["vesper", "ashen-blades"], args.targets[0], args.seed,
                  args.rate_missions)
        return
    if args.report is not None:
        saved = json.loads(args.report.read_text())
        report(saved["rows"], saved.get("cpu"))
        return
    saved = json.loads(args.out.read_text()) if args.out and args.out.exists() else {
        "rows": [], "cpu": 0.0}
    done = {(r["target"], r["campaign"]) for r in saved["rows"]}
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="campaign-targets-") as tmp:
        for k in range(args.campaigns):
            for target in args.targets:
                if (target, k) in done:
                    continue
                before = cpu()
                rows = play_campaign(Path(tmp), target, k, args.missions, args.seed,
                                     args.squads or ["vesper", "ashen-blades"],
                                     args.rate_missions, args.recruits)
                saved["rows"] += rows
                saved["cpu"] += cpu() - before
                if args.out is not None:
                    args.out.write_text(json.dumps(saved, indent=1))
                won = sum(r["outcome"] == "win" for r in rows)
                print(f"target {100 * target:.0f}%, campaign {k}: {won} of {len(rows)} won "
                      f"(levels {[r['level'] for r in rows]}); {saved['cpu']:.0f} s CPU so far,"
                      f" {time.perf_counter() - started:.0f} s", flush=True)
    report(saved["rows"], saved["cpu"])


if __name__ == "__main__":
    main()
