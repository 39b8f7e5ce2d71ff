"""The largest legal game: a scenario at every limit of ``core/limits.py``, built and measured.

Run it from the repository root with the project's virtual environment active::

    python bench/largest_game.py --out /tmp/largest.yaml          # write the scenario only
    python bench/largest_game.py --measure                         # build, then measure it
    python bench/largest_game.py --measure --compare volkus-stronghold-supplement-example

The scenario fills every count the limits allow (``SCENARIO`` and ``BOARD`` in
``solo_ops/core/limits.py``): the most squads of the most models (deployed in the drop zone),
the most enemy units sharing the most enemy models (pre-placed in the enemy's half), the most
hidden counters and the most mines, on the widest, deepest board with as many four-cornered
features as the corner limit leaves room for. Its profiles are ordinary ones (the traitor
cult's and Vesper's sergeant): the size of the game is what is measured here, not the dice (the
largest legal fight is ``tests/io/test_fuzz_files.py``'s and ``bench/bench_odds.py``'s).

``--measure`` runs each measured step in a fresh process (so one's memory never counts against
the next) and prints a table: CPU seconds and peak memory (maximum resident set) of reading the
scenario, of ``solo-ops ai plan`` for each enemy unit on the table at set-up (the slowest), and
of the game to the end of the first turning point (battle round) played by the autopilot
(``--policy``) on the players' side, and the sizes of its save and event log (bytes, and values
as :func:`solo_ops.core.documents.json_parts` counts them). ``--compare NAME`` measures a
shipped scenario the same way, side by side. The figures are written next to the limits in
``solo_ops/core/limits.py``, in ``docs/guide.md`` ("Limits of the files") and in
``docs/performance.md``.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solo_ops.core.limits import BOARD, SCENARIO  # noqa: E402
from solo_ops.io import library  # noqa: E402

DROP = 10.0
"""Depth of the player's drop zone along the south edge: room for six squads of twenty models
deployed 1" apart (the enemy's, along the north edge, is 4" deep; its units are pre-placed)."""


def _roster() -> dict[str, Any]:
    path = library.resolve("roster", "traitor-cult")
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _squad_profile() -> dict[str, Any]:
    squad = yaml.safe_load(library.resolve("squad", "vesper").read_text(encoding="utf-8"))
    return dict(squad["models"][0]["profile"])


def board(features: int | None = None, width: float | None = None,
          depth: float | None = None) -> dict[str, Any]:
    """The widest, deepest board with ``features`` square ruins (default: as many four-cornered
    features as the corner limit leaves after the two drop zones), laid on a grid between the
    drop zones, alternating heavy ruins and light rubble."""
    width = BOARD.inches if width is None else width
    depth = BOARD.inches * 44 / 60 if depth is None else depth
    if features is None:
        features = min(BOARD.features, (BOARD.corners - 8) // 4)
    rows = max(1, math.ceil(features / max(1, int(width // 2.5))))
    cols = math.ceil(features / rows)
    band = (DROP + 1.0, depth * 0.4 - 0.5)  # between the player's drop zone and the enemy
    dx, dy = width / cols, (band[1] - band[0]) / rows
    items = []
    for k in range(features):
        r, c = divmod(k, cols)
        x, y = c * dx + dx * 0.2, band[0] + r * dy + dy * 0.2
        w, h = dx * 0.45, dy * 0.45
        heavy = k % 2 == 0
        items.append({"id": f"ruin-{k + 1}", "traits": ["heavy" if heavy else "light"],
                      "polygon": [[round(x, 3), round(y, 3)], [round(x + w, 3), round(y, 3)],
                                  [round(x + w, 3), round(y + h, 3)],
                                  [round(x, 3), round(y + h, 3)]],
                      **({"height": 2} if heavy else {})})
    return {"name": "The largest legal board", "width": width, "depth": depth,
            "features": items,
            "zones": {"player": [[0, 0], [width, 0], [width, DROP], [0, DROP]],
                      "enemy": [[0, depth - 4], [width, depth - 4], [width, depth],
                                [0, depth]]},
            "objectives": [{"id": f"obj-{i + 1}", "at": [round(width * (i + 1) / 6, 3),
                                                         round(depth / 2, 3)]}
                           for i in range(5)]}


def _grid(count: int, box: tuple[float, float, float, float], spacing: float
          ) -> list[list[float]]:
    """``count`` points on a grid ``spacing`` apart inside ``box`` (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = box
    per_row = max(1, int((x1 - x0) // spacing))
    points = []
    for k in range(count):
        r, c = divmod(k, per_row)
        y = y1 - r * spacing
        if y < y0:
            raise ValueError(f"{count} points do not fit in {box} at {spacing}\" apart")
        points.append([round(x0 + c * spacing, 3), round(y, 3)])
    return points


def _off_the_ruins(board_doc: dict[str, Any], at: list[float]) -> list[float]:
    """The point nearest ``at`` (on a 0.05" grid, ties to lower x then y) where a counter's base
    overlaps no ruin: a hidden counter stands on the floor (``geometry.placement``)."""
    from shapely import STRtree, points
    from shapely.geometry import Polygon

    from solo_ops.game.state import COUNTER_RADIUS

    ruins = STRtree([Polygon(f["polygon"]) for f in board_doc["features"]])
    offsets = [(dx * 0.05, dy * 0.05) for dx in range(-60, 61) for dy in range(-60, 61)]
    offsets.sort(key=lambda d: (round(math.hypot(*d), 9), d[0], d[1]))
    for dx, dy in offsets:
        x, y = round(at[0] + dx, 3), round(at[1] + dy, 3)
        if not len(ruins.query(points(x, y), predicate="dwithin",
                               distance=COUNTER_RADIUS + 0.01)):
            return [x, y]
    raise ValueError(f"no room for a counter within 3\" of {at}")


def scenario(squads: int | None = None, models: int | None = None,
             enemies: int | None = None, counters: int | None = None,
             mines: int | None = None, features: int | None = None,
             edition: str = "kt2024", unit_models: int | None = None) -> dict[str, Any]:
    """The largest legal scenario (every count at its limit unless given), everything inline:
    ``enemies`` units of ``unit_models`` models (by default as many units as allowed, sharing
    the enemy models the limits allow)."""
    squads = SCENARIO.squads if squads is None else squads
    models = SCENARIO.models if models is None else models
    enemies = SCENARIO.enemies if enemies is None else enemies
    if unit_models is None:
        unit_models = min(SCENARIO.models, SCENARIO.enemy_models // max(1, enemies))
    counters = SCENARIO.counters if counters is None else counters
    mines = SCENARIO.equipment if mines is None else mines
    the_board = board(features)
    width, depth = the_board["width"], the_board["depth"]
    roster = _roster()
    kinds = list(roster["profiles"])
    profile = _squad_profile()
    squad_docs = [{"player": f"P{s + 1}", "name": f"Squad {s + 1}",
                   "models": [{"id": f"p{s + 1}-{m + 1}", "name": f"Trooper {s + 1}.{m + 1}",
                               "profile": profile} for m in range(models)]}
                  for s in range(squads)]
    spots = _grid(enemies * unit_models, (1.0, depth * 0.4, width - 1.0, depth - 0.7), 1.35)
    enemy_docs = [{"id": f"u{u + 1}",
                   "models": [{"id": f"e{u + 1}-{m + 1}", "profile": kinds[(u + m) % len(kinds)],
                               "at": spots[u * unit_models + m]} for m in range(unit_models)]}
                  for u in range(enemies)]
    band = (DROP + 0.5, depth * 0.4 - 0.5)
    counter_docs = [{"id": f"c{k + 1}",
                     "at": [round(width * ((k % 10) + 0.5) / 10, 3),
                            round(band[0] + (band[1] - band[0]) * ((k // 10) + 0.5)
                                  / max(1, math.ceil(counters / 10)), 3)]}
                    for k in range(counters)]
    for doc in counter_docs:  # on the floor beside a ruin, never in it (the placement rule)
        doc["at"] = _off_the_ruins(the_board, doc["at"])
    mine_docs = [{"id": f"mines-{k + 1}", "kind": "mines",
                  "at": [round(width * ((k % 10) + 0.25) / 10, 3),
                         round(DROP + 0.6 + (k // 10) * 1.4, 3)]} for k in range(mines)]
    return {"name": "The largest legal game", "edition": edition, "board": the_board,
            "roster": roster, "engagement": 6, "seed": 1,
            "mission": {"name": "The largest legal game"},
            "squads": squad_docs, "enemies": enemy_docs, "counters": counter_docs,
            "equipment": mine_docs}


# -- measuring ----------------------------------------------------------------------------
_STEP = r"""
import json, resource, sys, time
what, path, policy = sys.argv[1], sys.argv[2], sys.argv[3]
t0 = time.process_time()
from solo_ops.io.scenario import load_scenario
out = {}
scenario = load_scenario(path)
out["read_s"] = time.process_time() - t0
if what == "plan":
    from solo_ops.ai.planner import plan_activation
    from solo_ops.game.engine import new_game
    game, state = new_game(scenario, 1)
    out["plan_s"], out["units"] = 0.0, 0
    for unit in [u for u in state.units.values() if u.fsm != "hidden"]:
        t1 = time.process_time()  # each unit planned at set-up, as `ai plan` does: the slowest
        plan_activation(game.context(state), state, unit.id)
        out["plan_s"] = max(out["plan_s"], time.process_time() - t1)
        out["units"] += 1
elif what == "turn":
    from solo_ops.core.errors import RuleError
    from solo_ops.game.engine import new_game, pending, step
    from solo_ops.io.persistence import log_line
    from solo_ops.io.savegame import game_document, log_header
    from solo_ops.sim import autopilot
    game, state = new_game(scenario, 1)
    t1 = time.process_time()
    while state.turn < 2 and not state.ended:  # the first turning point, played to its end
        prompt = pending(game, state)
        autopilot.answer(game, state, prompt, policy)
    out["turn_s"] = time.process_time() - t1
    out["steps"] = len(state.log)
    from solo_ops.core.documents import json_parts
    lines = [log_line(log_header(game))] + [log_line(r) for r in state.log]
    out["log_bytes"] = sum(len(x) for x in lines)
    out["log_values"] = sum(json_parts(x) for x in lines)
    saved = json.dumps(game_document(game, state, None), indent=2)
    out["save_bytes"] = len(saved)
    out["save_values"] = json_parts(saved)
out["cpu_s"] = time.process_time()
out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(out))
"""


def measure(path: Path, what: str, policy: str) -> dict[str, Any]:
    """One measured step (``read``, ``plan`` or ``turn``) in a fresh process."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", _STEP, what, str(path), policy],
                          capture_output=True, text=True, cwd=ROOT, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{what} of {path} failed:\n{done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    result["wall_s"] = time.perf_counter() - start
    return result


def _row(name: str, path: Path, policy: str) -> list[str]:
    read = measure(path, "read", policy)
    plan = measure(path, "plan", policy)
    turn = measure(path, "turn", policy)
    return [name, f"{read['read_s']:.2f} s",
            f"{plan['plan_s']:.2f} s (slowest of {plan['units']}), {plan['peak_mb']:.0f} MB",
            f"{turn['turn_s']:.1f} s CPU ({turn['steps']} steps), {turn['peak_mb']:.0f} MB",
            f"{turn['save_bytes'] / 1024:.0f} KiB ({turn['save_values']} values)",
            f"{turn['log_bytes'] / 1024:.0f} KiB ({turn['log_values']} values)"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="write the scenario (YAML) here")
    parser.add_argument("--measure", action="store_true", help="measure it (fresh processes)")
    parser.add_argument("--compare", action="append", default=[], metavar="NAME",
                        help="a shipped scenario measured the same way (repeat for several)")
    parser.add_argument("--policy", default="objective")
    parser.add_argument("--edition", default="kt2024", choices=("kt2024", "kt2018"))
    for key in ("squads", "models", "enemies", "unit_models", "counters", "mines", "features"):
        parser.add_argument(f"--{key.replace('_', '-')}", type=int, default=None,
                            help=f"{key} (default: the limit)")
    args = parser.parse_args()
    doc = scenario(args.squads, args.models, args.enemies, args.counters, args.mines,
                   args.features, args.edition, args.unit_models)
    with tempfile.TemporaryDirectory() as folder:
        path = args.out or Path(folder) / "largest.yaml"
        path.write_text(yaml.safe_dump(doc, sort_keys=False, width=10**6), encoding="utf-8")
        print(f"scenario: {path} ({path.stat().st_size / 1024:.0f} KiB)", flush=True)
        if not args.measure:
            return 0
        rows = [_row("largest legal game", path, args.policy)]
        for name in args.compare:
            rows.append(_row(name, library.resolve("scenario", name), args.policy))
    head = ["scenario", "read", "ai plan (each unit at set-up)", "first turning point", "save",
            "log"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
