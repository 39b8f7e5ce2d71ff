"""Benchmark of a save's text: every step of a stronghold mission saved as ``json.dumps(...,
indent=2)`` and as ``indented_json`` (the same bytes, its unchanged parts remembered).

Run it from the repository root with the project's virtual environment active::

    python bench/bench_saves.py              # seeds 1-3, one mission each
    python bench/bench_saves.py --seeds 1 5

Each round plays one mission by the autopilot (seed 1, 2, ...), keeps the save document after
every answer (as the table saves it), then writes the texts of all of them with each encoder
(``time.process_time``, no disk); it checks that both give the same text and prints the CPU
time per save of each.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solo_ops.game.engine import new_game, pending  # noqa: E402
from solo_ops.io.json_text import indented_json  # noqa: E402
from solo_ops.io.savegame import game_document  # noqa: E402
from solo_ops.io.scenario import load_scenario  # noqa: E402
from solo_ops.sim.autopilot import answer  # noqa: E402

SCENARIO = ROOT / "scenarios" / "volkus-stronghold-supplement-example.yaml"


def documents(seed: int) -> list[Any]:
    """The save document after every answer of one mission (each a fresh copy)."""
    game, state = new_game(load_scenario(SCENARIO), seed)
    out = []
    while pending(game, state).kind != "ended":
        answer(game, state, pending(game, state), "objective")
        out.append(json.loads(json.dumps(game_document(game, state))))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs=2, default=[1, 3], metavar=("FIRST", "LAST"))
    args = parser.parse_args()
    per: dict[str, list[float]] = {"json.dumps": [], "indented_json": []}
    for seed in range(args.seeds[0], args.seeds[1] + 1):
        docs = documents(seed)
        texts = {}
        for name in per:
            start = time.process_time()
            texts[name] = [json.dumps(d, indent=2, ensure_ascii=False, allow_nan=False)
                           if name == "json.dumps" else indented_json(d) for d in docs]
            per[name].append((time.process_time() - start) / len(docs))
        assert texts["json.dumps"] == texts["indented_json"], "the texts differ"
        print(f"seed {seed}: {len(docs)} saves, the last {len(texts['json.dumps'][-1]) // 1024} "
              f"KiB; " + ", ".join(f"{name} {per[name][-1] * 1000:.2f} ms" for name in per))
    for name, got in per.items():
        print(f"{name:>14}: median {statistics.median(got) * 1000:.2f} ms a save")


if __name__ == "__main__":
    main()
