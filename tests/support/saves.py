"""Shared by the tests: saves as a later (or the same) solo-ops would write them, and where
``play`` puts a game's files by default."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from solo_ops.core.seal import sealed
from solo_ops.io.opening import log_for, saves_for
from solo_ops.io.savegame import SEAL_DEPTH, checkpoint_hash
from solo_ops.io.scenario import load_scenario


def reseal(doc: dict[str, Any]) -> None:
    """Seal a save anew over its (edited) content: its checkpoint over its steps, then the
    whole save — what a solo-ops that recorded those steps would have written. A test
    simulates "a newer version plays step N otherwise" by editing step N's fingerprint and
    resealing; an edit without the seal is a forgery (``tests/io/test_forgery.py``)."""
    if isinstance(doc.get("checkpoint"), dict):
        doc["checkpoint"]["hash"] = checkpoint_hash(doc["checkpoint"], doc["steps"])
    seal_save(doc)


def seal_save(doc: dict[str, Any]) -> dict[str, Any]:
    """The save's own seal made anew over what it holds now (a forger with the source code)."""
    return sealed(doc, SEAL_DEPTH)


def default_save(folder: Path, scenario: Path, seed: int | None = None) -> Path:
    """Where ``play SCENARIO`` (run in ``folder``) saves the game of ``seed`` (default: the
    scenario's own) — ``saves/<scenario>-<id>.json``, the id a checksum of the scenario, the
    seed and the dice, never the seed itself."""
    loaded = load_scenario(scenario)
    chosen = loaded.seed if seed is None else seed
    assert chosen is not None, "a scenario without a seed saves under a new id every time"
    save, _log = saves_for(scenario, None, chosen, loaded.document)
    return folder / save


def default_files(folder: Path, scenario: Path, seed: int | None = None) -> tuple[Path, Path]:
    """:func:`default_save` and its event log."""
    save = default_save(folder, scenario, seed)
    return save, log_for(save)


def saved_game(scenario: Path, seed: int, save: Path, dice_scheme: str) -> Path:
    """A new game of ``scenario`` with ``seed`` on ``dice_scheme``, set up and saved with its
    log as ``serve`` and ``play`` start one: the save to go on with through the real commands.
    ``splitmix64``: the game as a save of the first dice scheme holds it (an older version's
    save keeps its dice), for tests measured on those faces."""
    from solo_ops.game.engine import new_game
    from solo_ops.session.table import GameTable

    game, state = new_game(load_scenario(scenario), seed, dice_scheme=dice_scheme)
    save.parent.mkdir(parents=True, exist_ok=True)
    GameTable(game, state, save, log_for(save)).start()
    return save
