"""Opening a game at the table: a new game or a saved one as a :class:`GameTable`.

The files are :mod:`solo_ops.io.opening`'s (paths, resume-or-new, the save read, replayed and
verified, the event log's checks); this module puts the game they hold at a table, for every
screen (``play``, ``serve``, ``campaign play``), and keeps the table's log in step with its save.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from solo_ops.game.engine import new_game
from solo_ops.io.event_log import EventLog, file_digest
from solo_ops.io.leftovers import clean_leftovers
from solo_ops.io.log_chain import LogChain
from solo_ops.io.opening import Plan, catch_up_log, load_save_doc, move_aside, open_saved
from solo_ops.io.scenario import Scenario
from solo_ops.session.table import GameTable


def start_table(scenario: Scenario, seed: int, save: Path, log: Path, *,
                reveal: bool = False, units: str | None = None,
                move_old: bool = True) -> tuple[GameTable, list[str]]:
    """A new game of ``scenario`` with ``seed`` at the table, its first files written (the
    earlier game's files moved aside first when ``move_old``); returns the table and what the
    player should hear about the old files."""
    game, state = new_game(scenario, seed)
    table = GameTable(game, state, save, log, reveal=reveal, units=units)
    for path in (save, log):  # the caller holds the game's lock: no one else writes them
        clean_leftovers(path)
    notes = []
    moved = move_aside(save, log) if move_old else []
    if moved:
        notes.append("The earlier game's files were moved aside: "
                     + ", ".join(str(p) for p in moved) + ".")
    table.start()
    return table, notes


def open_table(p: Plan, *, reveal: bool = False, units: str | None = None
               ) -> tuple[GameTable, dict[str, Any]]:
    """The saved game ``p`` resumes at the table (see :func:`open_saved`), with its save
    document (for :func:`sync_log`)."""
    for path in (p.save, p.log):  # the caller holds the game's lock: no one else writes them
        clean_leftovers(path)
    doc, game, state = open_saved(p)
    return GameTable(game, state, p.save, p.log, reveal=reveal, units=units), doc


def open_save(save: Path, log: Path, *, reveal: bool = False, units: str | None = None
              ) -> tuple[GameTable, dict[str, Any]]:
    """The game saved in ``save`` (a campaign's mission) at the table, with its save document:
    the temporary files a killed writer left beside it removed first (the caller holds the
    game's lock), then read, replayed and verified (:func:`load_save_doc`)."""
    for path in (save, log):
        clean_leftovers(path)
    doc, game, state = load_save_doc(save)
    return GameTable(game, state, save, log, reveal=reveal, units=units), doc


def sync_log(table: GameTable, doc: dict[str, Any], *, rebuild: bool = False) -> str | None:
    """Check the table's event log against its save before playing on (see
    :func:`catch_up_log`, which raises :class:`LogDisagrees`) and take up its hash chain; re-saves
    when the log changed (or the save lacked the chain), so the save's checksum and chain cover
    it. Returns what the player should hear, if anything."""
    before = file_digest(table.log) if table.log.exists() else None
    note = catch_up_log(table.log, table.game, table.state, doc, rebuild=rebuild)
    after = file_digest(table.log)
    table.chain = LogChain.of([raw for raw, _record in EventLog(table.log).read_lines()
                               if raw.endswith(b"\n")])
    if after != before or doc.get("log") != after or doc.get("chain") != table.chain.to_dict():
        table.persist(None)
    return note
