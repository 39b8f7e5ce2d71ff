"""The one-thumb offers' cost: CPU time of :func:`solo_ops.web.offers.offers` (every answer the
page offers the active operative, each asked of the engine's dry run) with the question's focus,
and of the phone's board SVG, at every ``act`` question of one game (the supplement's co-op
example, seed 3, ``cp_rerolls: never``, the players played by the autopilot). Both are worked
out once per step of the game, for every page (``TableServer.offers``, ``TableServer.pictures``).

Run it from the repository root with the project's virtual environment active::

    python bench/bench_offers.py

It prints the number of questions and the median, 95th percentile and largest CPU milliseconds
(``time.process_time``: the machine's load does not count).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solo_ops.game.engine import new_game, pending, step  # noqa: E402
from solo_ops.io.scenario import load_scenario  # noqa: E402
from solo_ops.session.table import GameTable  # noqa: E402
from solo_ops.sim import autopilot  # noqa: E402
from solo_ops.view.board_view import Focus  # noqa: E402
from solo_ops.web import board, offers  # noqa: E402
from tests.support.api import scenario_path  # noqa: E402


def _figures(values: list[float]) -> str:
    ms = sorted(v * 1000 for v in values)
    return (f"median {statistics.median(ms):.1f}, p95 {ms[int(len(ms) * 0.95)]:.1f}, "
            f"max {ms[-1]:.1f} ms")


def main() -> int:
    folder = Path(tempfile.mkdtemp(prefix="bench-offers-"))
    game, state = new_game(load_scenario(scenario_path()), 3)
    offered, drawn = [], []
    while (prompt := pending(game, state)).kind != "ended":
        if prompt.kind == "engine":
            step(game, state, {"type": "engine"})
            continue
        if prompt.kind == "act":
            table = GameTable(game, state, folder / "s.json", folder / "s.log.jsonl")
            start = time.process_time()
            doc = offers.offers(table)
            found = offers.focus(table, doc)
            middle = time.process_time()
            board.board_svg(game, state, table.view(), table.records(),
                            Focus(found.models, found.features))
            offered.append(middle - start)
            drawn.append(time.process_time() - middle)
        autopilot.answer(game, state, prompt, "objective")
    print(f"{len(offered)} act questions; offers and focus: {_figures(offered)}; "
          f"the phone's board SVG: {_figures(drawn)} (CPU)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
