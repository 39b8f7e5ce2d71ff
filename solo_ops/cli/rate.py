"""``solo-ops rate``: how hard is this encounter? Many missions played by the autopilot.

The simulation is :mod:`solo_ops.sim.rating` (pure); this command reads the scenario, shows a
progress bar (rich, on a terminal), prints the table or one JSON document, draws the win rate
against the engagement level when several are asked, and writes a sweep's CSV.
"""

from __future__ import annotations

import csv
import io
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from solo_ops.cli.common import console, emit_json
from solo_ops.core.errors import InputError
from solo_ops.geometry import jit
from solo_ops.sim.autopilot import POLICIES
from solo_ops.sim.sequential import DEFAULT_WIDTH

KEYS = ("missions", "wins", "draws", "losses", "win_rate", "win_rate_ci95", "mean_vp",
        "mean_player_losses", "missions_per_minute")
"""The keys of ``rate --json`` (INTERFACES.md), and of each ``by_engagement`` entry."""

MAX_MISSIONS = 100_000


def _scenario(path: Path | str) -> Any:
    from solo_ops.io.scenario import load_scenario

    return load_scenario(path)


def _executor(scheduler: str | None) -> Any:
    """A Dask client for ``--scheduler`` (the optional ``[cluster]`` extra), or None."""
    if scheduler is None:
        return None
    try:
        from distributed import Client
    except ImportError:
        raise InputError("--scheduler needs the cluster extra: pip install 'solo-ops[cluster]'",
                         source="--scheduler") from None
    try:
        return Client(scheduler, timeout=10)
    except (OSError, TimeoutError) as exc:
        raise InputError(f"cannot reach the Dask scheduler {scheduler!r} ({exc})",
                         source="--scheduler") from None


def rate_scenario(scenario: Any, missions: int, seed: int, *, jobs: int, policy: str,
                  engagements: list[int], scheduler: str | None = None,
                  show_progress: bool = False, label: str = "",
                  width: float = 0.0) -> dict[str, Any]:
    """Play the run and return the JSON document (``by_engagement`` when levels are given).

    ``width`` > 0: stop early once every level's interval is narrower than ± ``width`` or the
    levels' order is certain (:func:`solo_ops.sim.sequential.rate`; ``missions`` is then the
    most a level plays); 0: exactly ``missions`` a level. Ctrl-C ends the workers and returns
    what was measured (``interrupted`` in the document)."""
    from solo_ops.cli.compile import prepare
    from solo_ops.sim import rating, sequential

    client = _executor(scheduler)
    kernels = prepare() if client is None else True
    start = time.perf_counter()
    try:
        most = missions * max(1, len(engagements))  # no more workers than missions
        with rating.Runner(scenario, jobs=min(jobs, most), executor=client,
                           kernels=kernels) as runner, \
                progress_bar(show_progress, label or "missions") as report:
            run = sequential.rate(runner, seed, policy, missions,
                                  engagements=engagements or None, width=width,
                                  progress=report)
    finally:
        if client is not None:
            client.close()
    seconds = time.perf_counter() - start
    levels = list(run.levels)
    results = [r for lv in levels for r in run.levels[lv].results]
    doc = rating.summarise(results, seconds)
    if len(levels) == 1:
        doc["win_rate_ci95"] = run.summary(levels[0])["win_rate_ci95"]
    doc["interrupted"] = run.interrupted
    doc["stopped_early"] = not run.interrupted and any(
        len(run.levels[lv].results) < missions for lv in levels)
    if engagements:
        doc["by_engagement"] = []
        for level in levels:
            rows = run.levels[level].results
            share = seconds * len(rows) / max(1, len(results))
            doc["by_engagement"].append({"engagement": level,
                                         **run.summary(level),
                                         "missions_per_minute": round(60.0 * len(rows) / share,
                                                                      1) if share else 0.0})
    return doc


@contextmanager
def progress_bar(show: bool, label: str) -> Iterator[Callable[[int, int, str], None] | None]:
    """A progress bar on stderr (a terminal only): missions done of the most still possible,
    the intervals so far and the time left at most; yields the callback (None: no bar)."""
    if not show:
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    with Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(),
                  TextColumn("{task.fields[left]}"), TextColumn("{task.fields[now]}"),
                  console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=None, left="", now="")
        started = time.perf_counter()

        def report(done: int, most: int, now: str) -> None:
            pace = (time.perf_counter() - started) / max(1, done)
            left = f"at most {_clock(pace * max(0, most - done))} left" if done else ""
            bar.update(task, completed=done, total=most, left=left, now=now)

        yield report


def _clock(seconds: float) -> str:
    seconds = int(seconds + 0.999)
    return f"{seconds // 60}:{seconds % 60:02d}"


def public(doc: dict[str, Any]) -> dict[str, Any]:
    """The ``--json`` document: exactly the keys of INTERFACES.md (:data:`KEYS`, and
    ``by_engagement`` with ``engagement`` added when levels were given)."""
    out = {k: doc[k] for k in KEYS}
    out.update({k: doc[k] for k in ("stopped_early", "interrupted") if k in doc})
    if "by_engagement" in doc:
        out["by_engagement"] = [{"engagement": row["engagement"], **{k: row[k] for k in KEYS}}
                                for row in doc["by_engagement"]]
    return out


def _percent(rate: float) -> str:
    return f"{100 * rate:.0f}%"


def _row(doc: dict[str, Any]) -> str:
    lo, hi = doc["win_rate_ci95"]
    return (f"win {_percent(doc['win_rate'])} [{_percent(lo)}-{_percent(hi)}]  "
            f"draw {_percent(doc['draw_rate'])}  loss {_percent(doc['loss_rate'])}  "
            f"VP {doc['mean_vp']['player']:.1f}-{doc['mean_vp']['enemy']:.1f}  "
            f"lost {doc['mean_player_losses']:.2f}  turns {doc['mean_turns']:.1f}")


def _chart(doc: dict[str, Any], out: Path, title: str) -> Path:
    from solo_ops.io.writing import write_atomic
    from solo_ops.view import chart

    if out.suffix.lower() not in (".png", ".svg"):
        raise InputError("the picture must end in .png or .svg", source="--picture")
    from solo_ops.io.opening import refuse_replacing

    refuse_replacing(out, "--picture")
    points = [chart.LevelPoint(row["engagement"], row["win_rate"], *row["win_rate_ci95"])
              for row in doc["by_engagement"]]
    write_atomic(out, chart.render(points, title, out.suffix))
    return out


@click.command("rate")
@click.argument("scenario", type=click.Path(path_type=Path), required=False)
@click.option("--missions", type=click.IntRange(1, MAX_MISSIONS), default=200, show_default=True,
              help="The most missions to play per engagement level (fewer once the answer "
                   "is known: see --width).")
@click.option("--width", type=click.FloatRange(0, 50), default=100 * DEFAULT_WIDTH,
              show_default=True,
              help="Stop once every level's 95% interval is within ± this many points (or "
                   "the levels' order is certain); 0: play every mission.")
@click.option("--seed", type=int, default=1, show_default=True,
              help="The run's seed: each mission's seed is derived from it.")
@click.option("--jobs", type=click.IntRange(1, 256), default=None,
              help="Worker processes (default: the CPUs available). Same numbers whatever.")
@click.option("--policy", type=click.Choice(POLICIES), default="objective", show_default=True,
              help="How the autopilot plays your side.")
@click.option("--engagement", "engagements", type=click.IntRange(1, 6), multiple=True,
              help="An engagement level to rate (repeat for several: one row each, and a "
                   "picture).")
@click.option("--picture", type=click.Path(path_type=Path), default=None,
              help="With several levels: the win-rate picture (.png or .svg; default "
                   "rate-<scenario>.png).")
@click.option("--scheduler", default=None,
              help="A Dask scheduler address (tcp://host:8786): play the missions on that "
                   "cluster (needs the [cluster] extra).")
@click.option("--sweep", type=click.Path(path_type=Path), default=None,
              help="A sweep file (boards x rosters x levels): write a CSV, one row a case.")
@click.option("--out", type=click.Path(path_type=Path), default=None,
              help="With --sweep: the CSV to write (default: the sweep file's 'out', or "
                   "sweep.csv).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
def rate_command(scenario: Path | None, missions: int, width: float, seed: int,
                 jobs: int | None, policy: str, engagements: tuple[int, ...],
                 picture: Path | None,
                 scheduler: str | None, sweep: Path | None, out: Path | None,
                 as_json: bool) -> None:
    """Rate SCENARIO: play many missions with the autopilot and count who wins."""
    import sys

    from solo_ops.sim import rating

    jobs = jobs or rating.default_jobs()
    if sweep is not None:
        _run_sweep(sweep, scenario, out, seed, jobs, policy, scheduler, as_json,
                   missions_given=_given("missions"))
        return
    if scenario is None:
        raise InputError("name a scenario to rate (or give --sweep FILE)", source="SCENARIO")
    if picture is not None and picture.suffix.lower() not in (".png", ".svg"):
        raise InputError("the picture must end in .png or .svg", source="--picture")
    loaded = _scenario(scenario)
    levels = list(dict.fromkeys(engagements))
    show = not as_json and sys.stderr.isatty()
    doc = rate_scenario(loaded, missions, seed, jobs=jobs, policy=policy, engagements=levels,
                        scheduler=scheduler, show_progress=show, label=loaded.name,
                        width=width / 100)
    drawn = None
    if len(levels) > 1 and doc["missions"]:
        drawn = picture or Path(f"rate-{Path(str(scenario)).stem}.png")
        _chart(doc, drawn, f"{loaded.name}: players' win rate ({policy})")
    if as_json:
        emit_json(public(doc))
    else:
        _print_rated(doc, loaded, levels, policy, seed, width, drawn)
    if doc["interrupted"]:
        raise click.exceptions.Exit(130)


def _print_rated(doc: dict[str, Any], loaded: Any, levels: list[int], policy: str, seed: int,
                 width: float, drawn: Path | None) -> None:
    """The rating as text: why it stopped, then one line per level."""
    con = console()
    if doc["interrupted"]:
        con.print(f"Stopped by Ctrl-C: what {doc['missions']} finished missions measured "
                  "(each level's missions in order, up to the first unfinished one).",
                  markup=False)
        if not doc["missions"]:
            return
    elif doc["stopped_early"]:
        con.print(f"Stopped once the answer was known (every interval within ±{width:g} "
                  "points, or the levels' order certain).", markup=False)
    con.print(f"[bold]{loaded.name}[/bold]: {doc['missions']} missions, policy {policy}, "
              f"seed {seed}, {doc['missions_per_minute']:.0f} missions a minute")
    if levels:
        for row in doc["by_engagement"]:
            con.print(f"  engagement {row['engagement']}: {_row(row)}", markup=False)
    else:
        con.print(f"  engagement {loaded.engagement}: {_row(doc)}", markup=False)
    if drawn is not None:
        con.print(f"Picture: {drawn}", markup=False)
    if not jit.AVAILABLE:
        con.print(f"({jit.why_unavailable()}: the same numbers, from the geometry's slower "
                  "numpy code; see the guide's 'Compiled geometry')", markup=False)


def _given(name: str) -> bool:
    ctx = click.get_current_context()
    return ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE


# -- sweeps ----------------------------------------------------------------------------------------
SWEEP_KEYS = ("scenario", "boards", "rosters", "engagements", "missions", "out")
CSV_FIELDS = ("scenario", "board", "roster", "engagement", "policy", "seed", "missions",
              "wins", "draws", "losses", "win_rate", "win_lo", "win_hi", "mean_vp_player",
              "mean_vp_enemy", "mean_player_losses", "mean_turns")


def _run_sweep(path: Path, scenario: Path | None, out: Path | None, seed: int, jobs: int,
               policy: str, scheduler: str | None, as_json: bool, *,
               missions_given: bool) -> None:
    """A sweep file (YAML)::

        scenario: gallowdark-night-raid     # the base (a shipped name or a path)
        boards: [gallowdark-corridors, gallowdark-cloister]   # default: the scenario's
        rosters: [traitor-cult, ork-mob]                      # default: the scenario's
        engagements: [1, 2, 3, 4]                              # default: the scenario's
        missions: 100                                          # per case
        out: sweep.csv

    Every board x roster is a scenario (on another board the squads are deployed afresh in the
    board's player zone, and the base's pre-placed enemies and counters are left out: their
    positions belong to its board), rated at every level. The whole sweep is checked before
    the first mission (:func:`_sweep_plan`): every board, roster and level, the count of
    missions and cases, and where the CSV goes."""
    plan = _sweep_plan(path, scenario, out, missions_given)
    rows: list[dict[str, Any]] = []
    for case in plan.cases:
        result = rate_scenario(case, plan.missions, seed, jobs=jobs, policy=policy,
                               engagements=list(plan.levels), scheduler=scheduler)
        for row in result["by_engagement"]:
            rows.append(_csv_row(plan.base, case, row, policy, seed))
    _write_csv(plan.out, rows)
    if as_json:
        emit_json({"csv": str(plan.out), "rows": rows})
    else:
        console().print(f"Sweep: {len(rows)} rows written to {plan.out}", markup=False)


MAX_SWEEP_CASES = 200
"""Most rows a sweep may ask for (boards x rosters x engagement levels)."""


@dataclass
class SweepPlan:
    """A sweep checked whole: its base scenario, every case parsed, the levels, the missions
    per case and the CSV to write."""

    base: Any
    cases: list[Any]
    levels: list[int]
    missions: int
    out: Path


def _sweep_plan(path: Path, scenario: Path | None, out: Path | None,
                missions_given: bool) -> SweepPlan:
    """Read and check a whole sweep before anything is played: a mistake in its last roster,
    a count that is not a number or more cases than :data:`MAX_SWEEP_CASES` is one line naming
    the file and the field, at once."""
    from solo_ops.core.fields import Fields
    from solo_ops.io.yamlio import read_document

    data = read_document(path)
    doc = Fields(data, str(path), "")
    doc.only(SWEEP_KEYS)
    boards: list[str | None] = [*_names(doc, "boards")] or [None]
    rosters: list[str | None] = [*_names(doc, "rosters")] or [None]
    missions = _sweep_missions(doc, missions_given)
    base = _sweep_base(doc, path, scenario)
    levels = _sweep_levels(doc, base.engagement)
    count = len(boards) * len(rosters) * len(levels)
    if count > MAX_SWEEP_CASES:
        raise doc.error(None, f"asks for {count} cases (boards x rosters x engagements); a "
                              f"sweep may have at most {MAX_SWEEP_CASES}")
    if count * missions > MAX_MISSIONS:
        raise doc.error("missions", f"{count} cases of {missions} missions is "
                                    f"{count * missions}; a sweep plays at most {MAX_MISSIONS}")
    target = out or path.parent / doc.text("out", "sweep.csv")
    _check_out(target, "--out" if out is not None else str(path),
               None if out is not None else "out")
    cases = [_sweep_case(base, board, roster, path, (i, j))
             for i, board in enumerate(boards) for j, roster in enumerate(rosters)]
    return SweepPlan(base, cases, list(levels), missions, target)


def _check_out(target: Path, source: str, field: str | None) -> None:
    """Refuse, before any mission, a CSV target the sweep could not write at the end: a folder,
    a link, or a file in a folder that does not exist."""
    if target.is_dir():
        raise InputError(f"{target} is a folder; name the CSV file to write", source=source,
                         field=field)
    if target.is_symlink():
        raise InputError(f"{target} is a symbolic link; solo-ops writes only regular files",
                         source=source, field=field)
    from solo_ops.io.opening import refuse_replacing

    refuse_replacing(target, source)
    if not target.parent.is_dir():
        raise InputError(f"the folder {target.parent} does not exist", source=source,
                         field=field)


def _sweep_base(doc: Any, path: Path, scenario: Path | None) -> Any:
    """The sweep's base scenario: ``SCENARIO`` if given, else the file's ``scenario``."""
    from solo_ops.io import library

    base_name = scenario if scenario is not None else doc.text("scenario", None)
    if base_name is None:
        raise InputError("a sweep needs a base scenario", source=str(path), field="scenario")
    return _scenario(library.resolve("scenario", str(base_name), base=path.parent,
                                     source=str(path), field="scenario"))


def _sweep_levels(doc: Any, default: int) -> list[int]:
    """The engagement levels to rate: the file's ``engagements`` (each 1-6), else ``default``."""
    levels = doc.raw("engagements", None) or [default]
    if not isinstance(levels, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 6 for v in levels):
        raise doc.error("engagements", "must be a list of levels 1-6")
    return list(dict.fromkeys(levels))


def _sweep_missions(doc: Any, missions_given: bool) -> int:
    """Missions per case: ``--missions`` if typed, else the file's ``missions`` (100)."""
    if missions_given:
        return int(click.get_current_context().params["missions"])
    return int(doc.integer("missions", 100, minimum=1, maximum=MAX_MISSIONS))


def _sweep_case(base: Any, board: str | None, roster: str | None, path: Path,
                where: tuple[int, int] = (0, 0)) -> Any:
    """The base scenario on ``board`` with ``roster`` (None: the base's own), parsed; a name
    that is neither a shipped one nor a file is an error naming ``boards[i]``/``rosters[j]``
    (``where``: their places in the sweep)."""
    from solo_ops.io import library
    from solo_ops.io.scenario import parse_scenario
    from solo_ops.io.yamlio import read_document

    document = dict(base.document)
    if board is not None:
        document["board"] = read_document(library.resolve("board", board,
                                                           base=path.parent,
                                                           source=str(path),
                                                           field=f"boards[{where[0]}]"))
        document.pop("enemies", None)
        document.pop("counters", None)
        document["squads"] = [{**s, "models": [{k: v for k, v in m.items()
                                                 if k != "at"} for m in s["models"]]}
                              for s in document["squads"]]
    if roster is not None:
        document["roster"] = read_document(library.resolve("roster", roster,
                                                           base=path.parent,
                                                           source=str(path),
                                                           field=f"rosters[{where[1]}]"))
    return parse_scenario(document, str(path))


def _csv_row(base: Any, case: Any, row: dict[str, Any], policy: str,
             seed: int) -> dict[str, Any]:
    """One CSV row (:data:`CSV_FIELDS`): a case rated at one engagement level."""
    return {
        "scenario": base.name, "board": case.board.name,
        "roster": case.roster.name if case.roster is not None else "",
        "engagement": row["engagement"], "policy": policy, "seed": seed,
        "missions": row["missions"], "wins": row["wins"], "draws": row["draws"],
        "losses": row["losses"], "win_rate": row["win_rate"],
        "win_lo": row["win_rate_ci95"][0], "win_hi": row["win_rate_ci95"][1],
        "mean_vp_player": row["mean_vp"]["player"],
        "mean_vp_enemy": row["mean_vp"]["enemy"],
        "mean_player_losses": row["mean_player_losses"],
        "mean_turns": row["mean_turns"]}


def _write_csv(out: Path, rows: list[dict[str, Any]]) -> None:
    """Write the sweep's rows to ``out`` as CSV (atomically)."""
    from solo_ops.io.writing import write_text_atomic

    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=CSV_FIELDS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    from solo_ops.io.opening import refuse_replacing

    refuse_replacing(out, str(out))
    write_text_atomic(out, buf.getvalue())


def _names(doc: Any, key: str) -> list[str]:
    """The sweep's ``boards`` or ``rosters``: a list of names or files (none: [])."""
    value = doc.raw(key, None)
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise doc.error(key, "must be a list of names or files")
    return list(value)


commands = [rate_command]
