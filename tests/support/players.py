"""Shared by the tests: moved from e2e/test_play.py."""

from __future__ import annotations

import contextlib
import math
import os
import subprocess
import sys
import traceback
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from solo_ops.cli import main as solo_ops_main
from solo_ops.core.errors import RuleError
from solo_ops.game.engine import new_game, pending, step
from solo_ops.game.state import ENEMY
from solo_ops.io.scenario import load_scenario
from tests.support.paths import BOARDS, ROSTERS, SCENARIOS

SQUADS = SCENARIOS / "squads"


# -- small scenarios (fast games) ------------------------------------------------------------------
def small_scenario(folder: Path, edition: str = "kt2024", *, turns: int = 2,
                   engagement: int = 1, coop: bool = False, seed: int = 5,
                   board: str = "gallowdark-corridors", extra: str = "",
                   settings: str = "") -> Path:
    """A small game on a shipped board: one engagement level, two turns (``settings``: more
    of them, as YAML flow items: ``"undo: any"``)."""
    squads = f"  - {{file: {SQUADS / 'vesper.yaml'}}}\n"
    if coop:
        squads += f"  - {{file: {SQUADS / 'ashen-blades.yaml'}}}\n"
    mission = ("{name: Test, pariah: objective-ultima}" if edition == "kt2018"
               else "{name: Test, crit_op: seize-ground, tac_op: recon-sweep}")
    more = f", {settings}" if settings else ""
    text = (f"name: Small test\nedition: {edition}\nboard: {BOARDS / (board + '.yaml')}\n"
            f"roster: {ROSTERS / 'traitor-cult.yaml'}\nengagement: {engagement}\nseed: {seed}\n"
            f"mission: {mission}\nsettings: {{turns: {turns}{more}}}\nsquads:\n{squads}{extra}")
    path = folder / f"small-{edition}{'-coop' if coop else ''}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


# -- the scripted player ---------------------------------------------------
def to_text(action: dict[str, Any]) -> str:
    """An action dict as the words a player types (the inverse of ``answers.parse``)."""
    kind = action["type"]
    if kind == "activate":
        return f"activate {action['operative']} {action.get('stance', '')}".strip()
    if kind == "move":
        word = {"reposition": "move", "normal": "move", "fall_back": "fallback"}.get(
            action["how"], action["how"])
        x, y = action["to"]
        if action["how"] == "charge":
            return f"charge {action['target']} {x:g},{y:g}"
        return f"{word} {x:g},{y:g}"
    if kind == "shoot":
        text = f"shoot {action['target']} with {action['weapon']}"
        return text + (" roll" if action.get("roll") else f" damage {action['damage']}")
    if kind == "attack_damage":
        return f"damage {action['damage']}"
    if kind == "reaction":
        return "no"
    if kind == "reroll":
        return "keep" if action.get("keep") else f"reroll {action['die']}"
    if kind == "fight_choice":
        return "auto"
    if kind == "counteract":
        return "pass" if action.get("pass") else f"counteract {action['operative']}"
    if kind == "done":
        return "done"
    raise AssertionError(kind)


def bot_answers(path: Path, seed: int, limit: int = 4000,
                rolls_after: list[int] | None = None, keep: dict[str, Any] | None = None
                ) -> tuple[list[str], dict[str, Any]]:
    """Play ``path`` in-process with a fixed simple policy; return the typed answers and the
    final snapshot (``rolls_after`` collects how many dice the engine rolled after each
    answer, before the next one; ``keep`` receives the ``game`` and its final ``state``)."""
    game, state = new_game(load_scenario(path), seed)
    if keep is not None:
        keep.update(game=game, state=state)
    lines: list[str] = []
    rolls = rolls_after if rolls_after is not None else []

    def go(action: dict[str, Any]) -> bool:
        try:
            step(game, state, action)
        except RuleError:
            return False
        lines.append(to_text(action))
        rolls.append(0)
        return True

    for _ in range(limit):
        prompt = pending(game, state)
        if prompt.kind == "ended":
            return lines, state.to_dict(secrets=True)
        if prompt.kind == "engine":
            record = step(game, state, {"type": "engine"})
            if rolls:
                rolls[-1] += len(record["rolls"])
        elif prompt.kind == "attack":
            assert go({"type": "attack_damage", "damage": 1})
        elif prompt.kind == "reaction":  # a 2018 charge: no Overwatch, no Retreat
            assert go({"type": "reaction", "react": "none"})
        elif prompt.kind == "reroll":  # a CP re-roll: the first failed die offered
            assert go({"type": "reroll", "die": int(prompt.options[0].split()[-1])})
        elif prompt.kind == "fight":  # a fight's next die: the engine's advice
            assert go({"type": "fight_choice", "move": "auto"})
        elif prompt.kind == "counteract":  # Kill Team 2024 Counteract: the bot passes
            assert go({"type": "counteract", "pass": True})
        elif prompt.kind == "activate":
            assert go({"type": "activate", "operative": prompt.options[0], "stance": "engage"})
        else:
            op = state.operatives[prompt.operative]
            weapon = next(iter(op.profile.ranged_weapons), None)
            if weapon is not None and (state.edition == "kt2024" or state.phase == "shooting"):
                for enemy in sorted(state.living(ENEMY), key=lambda e: math.dist(e.at, op.at)):
                    if go({"type": "shoot", "target": enemy.id, "weapon": weapon.name,
                           "roll": True}):
                        break
            if pending(game, state).kind in ("reroll", "fight"):  # asked first; then it goes on
                continue
            if state.active_operative == op.id and (state.edition == "kt2024"
                                                    or state.phase == "movement"):
                board = game.terrain(state).board
                dx, dy = board.width / 2 - op.at[0], board.depth / 2 - op.at[1]
                d = math.hypot(dx, dy) or 1.0
                for f in (4, 2, 1):
                    to = [round(op.at[0] + dx / d * f, 1), round(op.at[1] + dy / d * f, 1)]
                    if go({"type": "move", "how": "reposition", "to": to}):
                        break
            if pending(game, state).kind in ("reroll", "fight"):  # a Guard attack: asked first
                continue
            if state.active_operative == op.id:
                assert go({"type": "done"})
    raise AssertionError("the game did not end")


# -- running the real command ---------------------------------------------------
def cli(*args: str, cwd: Path, stdin: str | None = None, timeout: float = 120
        ) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, COLUMNS="100")
    return subprocess.run([sys.executable, "-m", "solo_ops", *args], cwd=cwd, input=stdin,
                          capture_output=True, text=True, timeout=timeout, env=env)


def cli_here(*args: str, cwd: Path, stdin: str | None = None
             ) -> subprocess.CompletedProcess[str]:
    """``solo-ops ARGS`` run in ``cwd`` as :func:`cli` runs it, but in this process through
    click's runner (the same command group: its errors one stderr line and exit status 2, as
    at the terminal): for the tests about what a command does rather than about its process,
    each spared a fresh interpreter and its imports (about a second of CPU)."""
    try:
        runner = CliRunner(mix_stderr=False)  # type: ignore[call-arg]  # click < 8.2
    except TypeError:
        runner = CliRunner()
    with contextlib.chdir(cwd):
        run = runner.invoke(solo_ops_main, list(args), input=stdin, env={"COLUMNS": "100"})
    stderr = run.stderr
    if run.exception is not None and not isinstance(run.exception, SystemExit):
        assert run.exc_info is not None  # an internal error: what Python would have printed
        stderr += "".join(traceback.format_exception(*run.exc_info))
    return subprocess.CompletedProcess(["solo-ops", *args], run.exit_code, run.stdout, stderr)


def write_answers(folder: Path, lines: list[str], name: str = "answers.txt") -> Path:
    path = folder / name
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path
