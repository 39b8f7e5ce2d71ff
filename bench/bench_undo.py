"""Benchmark: the CPU an undo at the table costs, at each turning point of a game.

How to run (from the repository root, the project's virtual environment active)::

    python bench/bench_undo.py                               # the stronghold, seed 7
    python bench/bench_undo.py --seed 3 --undos 8
    python bench/bench_undo.py --scenario gallowdark-night-raid --policy cautious

The autopilot plays the scenario to its end once, untimed; the turning point each step was
played in is noted. Then, for each turning point, the game as it stood when the players were
asked their last question of that turning point is saved (the save as the table writes it)
and opened again as ``solo-ops play --resume`` opens it (:func:`~solo_ops.session.opening.
open_table`, the event log rebuilt beside it), and ``--undos`` undos are made in a row
(:meth:`~solo_ops.session.table.GameTable.undo`: each takes back one more answer, saving the
game and writing the undo line, as a player's ``undo`` does). Each undo's CPU time
(``time.process_time``: the machine is shared, so wall time would measure the neighbours) is
printed, and per turning point the median and the largest. A turning point in which the players
were asked nothing (their squad was out) has no line: the default seed, 7, is a game of the
co-op stronghold whose players are still asked at turning point 4 (issue #39 measures undo
there; seed 1, the default before, has the squad out in the first turning point now). The
geometry's compiled loops are used as at the table: when ``solo-ops compile`` has compiled
them.

A undone game must be the game a replay from the start gives: after the undos, the table's
state and log are compared with the same actions replayed from set-up (exit 1 on a
difference).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from solo_ops.cli.compile import prepare
from solo_ops.game.engine import new_game, pending, step
from solo_ops.game.state import State
from solo_ops.geometry import jit
from solo_ops.io import library
from solo_ops.io.opening import plan
from solo_ops.io.persistence import save_json
from solo_ops.io.savegame import actions_of, game_document
from solo_ops.io.scenario import parse_scenario, scenario_document
from solo_ops.session.opening import open_table, sync_log
from solo_ops.sim import autopilot


def played(scenario: Any, seed: int, policy: str) -> tuple[list[dict[str, Any]], list[int]]:
    """The actions of a whole game the autopilot plays, and the turning point of each step
    (after it was played)."""
    game, state = new_game(scenario, seed)
    turns = [state.turn]
    while pending(game, state).kind != "ended":
        autopilot.answer(game, state, pending(game, state), policy)
        turns.append(state.turn)
    return actions_of(state), turns


def cut_points(actions: list[dict[str, Any]], turns: list[int]) -> dict[int, int]:
    """Per turning point, how many actions the game had when the players were asked their
    last question of it: its last player answer and the engine steps after it."""
    cuts: dict[int, int] = {}
    for i, action in enumerate(actions):
        if action.get("type") != "engine":
            cuts[turns[i + 1]] = i + 1  # actions[i] is step i + 1
    out = {}
    for turn, cut in cuts.items():
        while cut < len(actions) and actions[cut].get("type") == "engine":
            cut += 1
        out[turn] = cut
    return out


def replayed(scenario: Any, seed: int, actions: list[dict[str, Any]]) -> State:
    game, state = new_game(scenario, seed)
    for action in actions:
        step(game, state, action)
    return state


def canonical(state: State) -> str:
    return json.dumps([state.log, state.to_dict(secrets=True),
                       state.dice.state() if state.dice else None],
                      sort_keys=True, default=str)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="volkus-stronghold-supplement-example")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--policy", default="objective")
    parser.add_argument("--undos", type=int, default=5)
    args = parser.parse_args()
    jit.use_in_simulation(prepare(start_compiling=False))  # as at the table (use_at_table)
    path = library.resolve("scenario", args.scenario, source="--scenario")
    doc = scenario_document(path)  # undo: any, to take back answers after the dice
    doc["settings"] = {**(doc.get("settings") or {}), "undo": "any"}
    scenario = parse_scenario(doc, str(path))
    actions, turns = played(scenario, args.seed, args.policy)
    print(f"{args.scenario} seed {args.seed}: {len(actions)} actions, "
          f"turning points {sorted(set(turns) - {0})}")
    failed = False
    with tempfile.TemporaryDirectory() as folder:
        for turn, cut in sorted(cut_points(actions, turns).items()):
            game, state = new_game(scenario, args.seed)
            for action in actions[:cut]:
                step(game, state, action)
            save = Path(folder, f"tp{turn}.json")
            save_json(save, game_document(game, state))
            table, doc = open_table(plan(None, save, None, None, False, command="play"))
            sync_log(table, doc)
            spent = []
            for _ in range(args.undos):
                start = time.process_time()
                outcome = table.undo()
                spent.append(time.process_time() - start)
                if not outcome.ok:
                    break
            again = replayed(scenario, args.seed, actions_of(table.state))
            same = canonical(again) == canonical(table.state)
            failed |= not same
            ms = [round(s * 1000, 1) for s in spent]
            print(f"turning point {turn}: {len(state.log):4d} steps; undo CPU ms {ms}; "
                  f"median {statistics.median(ms):.1f}, max {max(ms):.1f}"
                  f"{'' if same else '  DIFFERS from a replay'}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
