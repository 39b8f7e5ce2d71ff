"""Benchmark of the enemy AI: one whole enemy turn for 20 units on a shipped Gallowdark board.

Run it from the repository root with the project's virtual environment active::

    python bench/bench_ai.py                 # 20 units, 3 turns, seed 1
    python bench/bench_ai.py --units 20 --turns 5 --seed 2
    python bench/bench_ai.py --units 5 10 20  # one run per size: does a turn grow linearly?
    SOLO_OPS_JIT=1 python bench/bench_ai.py --cold  # compiled loops loaded at first call

The scenario is the shipped ``gallowdark-night-raid.yaml`` (board ``gallowdark-corridors``, the
genestealer cult roster, Ana's squad) with its hidden counters removed and ``--units``
single-model units placed on free points of the east half (profiles and commands cycle through
the roster and 1..6, so every order table row occurs). One "turn" plans every unit's activation
in the engine's activation order and applies each plan before planning the next (as the engine
does), so later units see the earlier ones' moves. It prints the planning time per unit (mean
and slowest), per turn, and the turn including applying the plans (attack rolls, spotting),
and the planning CPU time (``time.process_time``: fair on a busy machine) per unit and turn.
The first turn is run on a fresh game and includes building the walking graphs; the figures
are given for it and for the later turns separately. With several ``--units`` sizes each gets
its own fresh game, and a last table gives the planning CPU of a turn per size and per unit.

With the compiled loops on (``SOLO_OPS_JIT=1``), the kernels are loaded from the compile cache
before the first turn, as ``play`` and ``serve`` do before their first answer
(``solo_ops.cli.compile.prepare``), and that loading is printed on its own line: it is paid once
per process, not per turn (loaded at their first call instead, they added about 100 ms of CPU
to the first turn). ``--cold`` leaves them to load at their first call, inside the first turn.

The game is built through the scenario check (``parse_scenario``), so ``--units`` is at most
the scenario limit (``ScenarioLimits.enemies``: 20 since issue #31; older figures in
``CHANGELOG.md`` went to 40 under the limit of their day).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


from solo_ops.ai.planner import activation_order, plan_activation  # noqa: E402
from solo_ops.core.limits import SCENARIO as SCENARIO_LIMITS  # noqa: E402
from solo_ops.game.enemy import apply_plan  # noqa: E402
from solo_ops.game.engine import new_game  # noqa: E402
from solo_ops.io.scenario import parse_scenario, scenario_document  # noqa: E402

SCENARIO = ROOT / "scenarios" / "gallowdark-night-raid.yaml"


def load_kernels() -> None:
    """Load the compiled loops recorded by ``solo-ops compile`` into this process, as ``play``
    and ``serve`` do before their first answer, and print what it cost (nothing to do with
    the numpy code; kernels not recorded yet load or compile at their first call)."""
    from solo_ops.geometry import jit
    from solo_ops.io import compiled

    if not jit.ENABLED:
        return
    compiled.configure()
    if not compiled.ready():
        print("compiled loops not recorded by `solo-ops compile` yet: they load (or compile) "
              "at their first call, inside the first turn")
        return
    c0 = time.process_time()
    n = jit.preload(compiled.recorded())
    print(f"compiled loops loaded before the first turn (as at the table): {n} kernels, "
          f"{(time.process_time() - c0) * 1000:.0f} ms CPU once")


def build(units: int, seed: int) -> tuple[Any, Any]:
    """The scenario with ``units`` enemy units placed on free points of the east half."""
    doc = scenario_document(SCENARIO)
    names = sorted(doc["roster"]["profiles"])
    doc["engagement"] = 1
    doc.pop("counters", None)
    game, _ = new_game(parse_scenario(doc, str(SCENARIO)), seed)
    terrain = game.terrains.get()
    from shapely.geometry import box

    pts = terrain.routes.free_points(box(15, 0, 30, 22), 0.7, spacing=1.5)
    step = max(1, len(pts) // units)
    chosen = pts[::step][:units]
    doc["enemies"] = [
        {"id": f"u{i + 1}", "command": (i % 6) + 1,
         "models": [{"id": f"u{i + 1}-a", "profile": names[i % len(names)],
                     "at": [float(x), float(y)]}]}
        for i, (x, y) in enumerate(chosen)
    ]
    game, state = new_game(parse_scenario(doc, str(SCENARIO)), seed)
    state.counters.clear()
    return game, state


def one_turn(game: Any, state: Any) -> tuple[list[float], list[float], float]:
    """Plan (and apply) every ready unit once: the planning times (wall, CPU) and the whole
    turn's wall time."""
    times: list[float] = []
    cpu: list[float] = []
    t_turn = time.perf_counter()
    done: set[str] = set()
    while True:
        ctx = game.context(state)
        ready = [u for u in state.active_units() if u.fsm != "hidden" and u.id not in done
                 and state.unit_models(u)]
        if not ready:
            break
        unit = activation_order(ctx, state, ready)[0]
        t0, c0 = time.perf_counter(), time.process_time()
        plan = plan_activation(ctx, state, unit.id, "firefight")
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        apply_plan(game, state, plan)
        done.add(unit.id)
    return times, cpu, time.perf_counter() - t_turn


def run(units: int, turns: int, seed: int) -> list[tuple[int, float]]:
    """Play ``turns`` enemy turns with ``units`` units and print a line per turn; returns
    (units planned, planning CPU seconds) per turn."""
    game, state = build(units, seed)
    print(f"board {game.scenario.board.name!r}: {len(state.units)} enemy units, "
          f"{len(state.living('player'))} player operatives")
    print(f"{'turn':>4} {'units':>5} {'plan ms/unit':>13} {'slowest ms':>11} "
          f"{'plan ms/turn':>13} {'turn ms (with apply)':>21} {'cpu ms/unit':>12} "
          f"{'cpu ms/turn':>12}")
    later: list[float] = []
    out: list[tuple[int, float]] = []
    for turn in range(1, turns + 1):
        times, cpu, whole = one_turn(game, state)
        if not times:
            break
        ms = [t * 1000 for t in times]
        out.append((len(ms), sum(cpu)))
        if turn > 1:
            later.append(sum(ms))
        print(f"{turn:>4} {len(ms):>5} {statistics.mean(ms):>13.1f} {max(ms):>11.1f} "
              f"{sum(ms):>13.1f} {whole * 1000:>21.1f} {statistics.mean(cpu) * 1000:>12.1f} "
              f"{sum(cpu) * 1000:>12.1f}")
        for op in state.operatives.values():
            op.activated = op.moved = op.shot = op.fought = op.charged = False
    if later:
        print(f"mean planning time of a whole enemy turn after the first: "
              f"{statistics.mean(later):.0f} ms")
    return out


def units_arg(text: str) -> int:
    """``--units``: a number of enemy units a scenario may hold (one line, not a traceback, for
    more than the documented limit)."""
    try:
        units = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 1 <= units <= SCENARIO_LIMITS.enemies:
        raise argparse.ArgumentTypeError(
            f"{units} enemy units: a scenario holds 1-{SCENARIO_LIMITS.enemies} "
            "(ScenarioLimits.enemies in solo_ops/core/limits.py)")
    return units


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--units", type=units_arg, nargs="+", default=[20],
                        help=f"enemy units to place, 1-{SCENARIO_LIMITS.enemies} (the "
                             "scenario limit, solo_ops/core/limits.py)")
    parser.add_argument("--turns", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cold", action="store_true",
                        help="compiled loops: load them at their first call, inside the first "
                             "turn, instead of before it as at the table")
    args = parser.parse_args()
    if not args.cold:
        load_kernels()
    sizes = {units: run(units, args.turns, args.seed) for units in args.units}
    if len(sizes) > 1:
        print("planning CPU per turn (ms), by the number of units placed:")
        print(f"{'units':>5} " + " ".join(f"{'turn ' + str(t + 1):>16}"
                                           for t in range(args.turns))
              + f" {'cpu ms/unit, all':>17}")
        for units, turns in sizes.items():
            cells = " ".join(f"{f'{cpu * 1000:.0f} ({n})':>16}" for n, cpu in turns)
            per_unit = sum(c for _, c in turns) * 1000 / max(1, sum(n for n, _ in turns))
            print(f"{units:>5} {cells} {per_unit:>17.1f}")
        print("(in brackets: the units planned that turn; they merge, so later turns have "
              "fewer)")


if __name__ == "__main__":
    main()
