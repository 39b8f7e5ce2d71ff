"""The table view's round trip: from an answer's POST until every connected page has the update.

Run it from the repository root with the project's virtual environment active::

    python bench/bench_web.py              # 4 pages, 15 rounds
    python bench/bench_web.py --pages 4 --rounds 30

It starts ``solo-ops serve`` on the supplement's co-op example (seed 3, with ``cp_rerolls:
never`` so that the enemy's first shots ask no CP re-roll question: the rounds below start at
Ana's first activation) in a temporary folder, connects ``--pages`` event streams
(``/api/events``, as open pages do) and then, each round, posts four answers — Ana activates
Kell (a player's step: no engine step follows), ``done`` (the enemy's activation follows: engine
steps), ``undo``, ``undo`` — each naming its step as the page does, timing each from the POST
until every page's stream has delivered the batch's closing ``prompt`` line (the text a page
shows). It also times what a page does next (``GET /api/view?since=N`` and ``GET /board.svg``,
drawn once per step for every page), and the same answers through a
:class:`~solo_ops.session.table.GameTable` in this process, without HTTP: the engine's own step
time and the saving. It prints medians and 95th percentiles in milliseconds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SCENARIO = ROOT / "scenarios" / "volkus-stronghold-supplement-example.yaml"
ROUND = [("Ana", "kell"), ("Ana", "done"), ("Ana", "undo"), ("Ana", "undo")]


def scenario_copy(folder: Path) -> Path:
    """The co-op example with ``cp_rerolls: never`` and ``undo: any`` (the round's undo takes
    back Ana's "done" after the enemy rolled), its files found where they ship."""
    text = SCENARIO.read_text(encoding="utf-8")
    for sub in ("boards/", "rosters/", "squads/"):
        text = text.replace(f": {sub}", f": {SCENARIO.parent}/{sub}")
    path = folder / SCENARIO.name
    path.write_text(text + "settings: {cp_rerolls: never, undo: any}\n", encoding="utf-8")
    return path


def serve(folder: Path) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen([sys.executable, "-m", "solo_ops", "serve", str(scenario_copy(folder)),
                             "--port", "0"], cwd=folder, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("Serving "):
            return proc, line.split(" on ", 1)[1].strip()
    raise SystemExit("solo-ops serve did not start")


async def page(url: str, name: str, inbox: list[tuple[float, dict[str, Any]]],
               prompted: asyncio.Event) -> None:
    async with httpx.AsyncClient(timeout=None) as c, \
            c.stream("GET", f"{url}api/events", params={"player": name}) as r:
        async for line in r.aiter_lines():
            if line.startswith("data: "):
                doc = json.loads(line[6:])
                inbox.append((time.perf_counter(), doc))
                if "prompt" in doc or "result" in doc:
                    prompted.set()


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))]


def summary(name: str, values: list[float]) -> str:
    return (f"{name:<44} median {statistics.median(values):7.1f} ms   p95 "
            f"{pct(values, 0.95):7.1f} ms   (n={len(values)})")


async def measure(url: str, pages: int, rounds: int) -> dict[str, list[float]]:
    inboxes: list[list[tuple[float, dict[str, Any]]]] = [[] for _ in range(pages)]
    events = [asyncio.Event() for _ in range(pages)]
    tasks = [asyncio.create_task(page(url, ("Ana", "Ben")[i % 2], inboxes[i], events[i]))
             for i in range(pages)]
    for e in events:  # each stream opens with the current prompt
        await asyncio.wait_for(e.wait(), 30)
    times: dict[str, list[float]] = {f"{w} (round trip, {pages} pages)": []
                                     for w in ("kell", "done", "undo")}
    times["page refresh (view since N + board.svg)"] = []
    async with httpx.AsyncClient(timeout=60) as c:
        steps = (await c.get(f"{url}api/view", params={"player": "Ana"})).json()["steps"]
        for _ in range(rounds):
            for player, answer in ROUND:
                for e in events:
                    e.clear()
                start = time.perf_counter()
                reply = (await c.post(f"{url}api/answer",
                                      json={"player": player, "answer": answer,
                                            "step": steps})).json()
                assert reply["ok"], reply
                await asyncio.wait_for(asyncio.gather(*(e.wait() for e in events)), 60)
                last = max(inbox[-1][0] for inbox in inboxes)
                times[f"{answer} (round trip, {pages} pages)"].append((last - start) * 1000)
                t0 = time.perf_counter()
                view = (await c.get(f"{url}api/view", params={"player": "Ben",
                                                              "since": steps})).json()
                await c.get(f"{url}board.svg", params={"player": "Ben"})
                times["page refresh (view since N + board.svg)"].append(
                    (time.perf_counter() - t0) * 1000)
                steps = view["steps"]
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return times


def in_process(rounds: int, folder: Path) -> dict[str, list[float]]:
    """The same answers through a GameTable: engine steps and saving, no HTTP."""
    from solo_ops.game.engine import new_game
    from solo_ops.io.scenario import load_scenario
    from solo_ops.session.table import GameTable

    game, state = new_game(load_scenario(scenario_copy(folder)), 3)
    save = folder / "inproc" / "game.json"
    table = GameTable(game, state, save, save.with_suffix(".log.jsonl"))
    table.start()
    table.advance()
    times: dict[str, list[float]] = {f"{w} (GameTable.answer, no HTTP)": []
                                     for w in ("kell", "done", "undo")}
    for _ in range(rounds):
        for player, answer in ROUND:
            start = time.perf_counter()
            outcome = table.answer(player, answer)
            assert outcome.ok, outcome
            for record in outcome.records:  # what the server sends: the player records
                table.shown(record)
            times[f"{answer} (GameTable.answer, no HTTP)"].append(
                (time.perf_counter() - start) * 1000)
    return times


def late_undo(folder: Path, turn: int = 3, undos: int = 8) -> dict[str, list[float]]:
    """Undo late in a game: the autopilot plays the co-op example to turning point ``turn``,
    then each undo (a replay of every answer since set-up) is timed in a GameTable."""
    from solo_ops.game.engine import new_game, pending, step
    from solo_ops.io.scenario import load_scenario
    from solo_ops.session.table import GameTable
    from solo_ops.sim import autopilot

    game, state = new_game(load_scenario(scenario_copy(folder)), 3)
    while state.turn < turn and (prompt := pending(game, state)).kind != "ended":
        if prompt.kind == "engine":
            step(game, state, {"type": "engine"})
            continue
        autopilot.answer(game, state, prompt, "objective")
    save = folder / "late" / "game.json"
    table = GameTable(game, state, save, save.with_suffix(".log.jsonl"))
    table.start()
    table.persist(None)
    name = f"undo at turning point {turn}, step {len(state.log)} (GameTable)"
    times: dict[str, list[float]] = {name: []}
    for _ in range(undos):
        start = time.perf_counter()
        outcome = table.undo()
        assert outcome.ok, outcome
        times[name].append((time.perf_counter() - start) * 1000)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        proc, url = serve(folder)
        try:
            times = asyncio.run(measure(url, args.pages, args.rounds))
        finally:
            proc.terminate()
            proc.wait(timeout=20)
        times.update(in_process(args.rounds, folder))
        times.update(late_undo(folder))
    for name, values in times.items():
        print(summary(name, values))
    return 0


if __name__ == "__main__":
    sys.exit(main())
