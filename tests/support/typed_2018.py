"""A Kill Team 2018 game's typed answers, found by playing it at a table first.

:func:`answers_for` plays a scenario with a :class:`~solo_ops.session.table.GameTable` (the
session every screen drives), answering each prompt with the first of a few typed answers a
2018 player would give that the table takes (help and status once, then Advances, charges
into base contact, Readying, Overwatch, rolled shots and fights, effects' questions), and
returns the lines it typed: the same scenario and seed then play the same game through the real
command (``solo-ops play --answers FILE``), whatever the dice scheme.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from solo_ops.game.state import ENEMY
from solo_ops.io.scenario import load_scenario
from solo_ops.session.opening import start_table
from solo_ops.session.table import GameTable


def _enemies_near(table: GameTable, op_id: str, reach: float) -> list[str]:
    state = table.state
    op = state.operatives[op_id]
    if op.at is None:
        return []
    near = []
    for e in state.living(ENEMY):
        assert e.at is not None
        if math.dist(op.at, e.at) - op.radius - e.radius <= reach:
            near.append(e.id)
    return near


def _candidates(table: GameTable, told: set[str]) -> list[str]:
    """The typed answers to try for the prompt now, best first."""
    prompt = table.prompt()
    if prompt.kind == "activate":
        return [*(["help"] if "help" not in told else []), *prompt.options[:1]]
    if prompt.kind == "reaction":
        return ["overwatch roll", "no"]
    if prompt.kind == "effect":
        data = prompt.data
        if data.get("suggested") and data.get("what") == "set_up":
            x, y = data["suggested"]
            return [f"place {x:g},{y:g}"]
        return ["roll" if data.get("what") == "lacerators" else "no"]
    if prompt.kind == "attack":
        return ["0"]
    if prompt.kind != "act":
        return ["done"]
    op = str(prompt.operative)
    out = [] if "status" in told else ["status"]
    phase = table.state.phase
    if phase == "movement":
        near = _enemies_near(table, op, 8.0)
        if near:
            out += [f"charge {near[0]}", f"move into base contact with {near[0]}",
                    f"move 1 toward {near[0]}"]
        elif "advanced" not in told:
            out += ["advance", "move 3 toward obj-1", "move 1 toward obj-1"]
        else:
            out += ["ready", "move 2 toward obj-1"]
    elif phase == "shooting":
        out += [f"shoot {e.id} roll" for e in table.state.living(ENEMY)]
    elif phase == "fight":
        out += [f"fight {e} roll" for e in _enemies_near(table, op, 1.0)]
    return [*out, "done"]


def answers_for(scenario: Path, seed: int, folder: Path, limit: int = 600) -> list[str]:
    """The typed answers of one whole game of ``scenario`` with ``seed`` (see the module
    docstring)."""
    table, _ = start_table(load_scenario(scenario), seed, folder / "first.json",
                           folder / "first.log.jsonl")
    typed: list[str] = []
    told: set[str] = set()
    for _ in range(limit):
        table.advance()
        if table.prompt().kind == "ended":
            return typed
        for line in _candidates(table, told):
            outcome = table.answer(None, line, then=False)
            if outcome.confirm is not None:
                outcome = table.answer(None, "yes", then=False)
                if outcome.ok:
                    typed += [line, "yes"]
                    break
                continue
            if outcome.ok or outcome.meta is not None:
                typed.append(line)
                told.add(line.split()[0] if outcome.meta else "")
                if line == "advance":
                    told.add("advanced")
                if outcome.meta is None:
                    break
    raise AssertionError(f"the game did not end within {limit} answers: {typed[-10:]}")


def _fields(table: GameTable) -> dict[str, Any]:  # pragma: no cover - for debugging
    return {"phase": table.state.phase, "prompt": table.prompt().to_dict()}
