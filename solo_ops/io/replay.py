"""``replay``'s check of an event log: against its save's proof, and against the rules.

An event log is a header (the scenario, seed and game id), the set-up record (step 0), one
record a step, undo lines (the steps after them void, but kept) and base lines (the game went on
from a checkpoint). :func:`check_log` proves every line two ways:

* **Against the save** (``--save``, or the save beside the log): the header names the save's
  game (its scenario and seed, by the game id); every line is the one the save's hash chain
  recorded (:func:`~solo_ops.io.log_chain.chain_difference` — the header, the set-up, every step,
  the undone ones too, every undo and base line; a save from before the chain is checked by its
  log checksum); a base line is accepted only where the save itself went on from that checkpoint
  (the same base, its checkpoint matching its hash).
* **Against the rules**: the game is played again from the seed — the set-up compared with step
  0, then every step, undone ones included (after an undo line the game is rebuilt from the
  steps kept) — and each record compared with the one logged.

The first line that fails either is named (:class:`Difference`); a log that cannot be read,
is torn, cut short of what its save recorded, or has steps out of order is an
:class:`~solo_ops.core.errors.InputError`. Without a save the chain cannot be checked (a log
alone proves the dice and the rules, not that it is the log written at the table), and a base
line is refused.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solo_ops.core.errors import InputError, excerpt
from solo_ops.game.definition import Game
from solo_ops.game.engine import step
from solo_ops.game.state import State
from solo_ops.io import opening
from solo_ops.io.event_log import EventLog, file_digest
from solo_ops.io.log_chain import chain_difference
from solo_ops.io.savegame import (
    LOG_KIND,
    base_problem,
    effective_records,
    id_of,
    record_difference,
    restore,
)

Line = tuple[bytes, "dict[str, Any] | None"]


class ActionFailed(InputError):
    """A logged answer the rules refuse when it is played again (an edited answer, or rules
    that changed since): with a save that names an edited line, that line is the answer."""


@dataclass
class Difference:
    """The first line of a log that is not what the save recorded or the rules give."""

    index: int
    """The line (0-based; 0 is the header)."""
    step: int | None
    """The step it records, if it is a step line."""
    detail: str
    undone: bool = False
    """Whether the step was later taken back (an undo line voids it)."""


@dataclass
class Replayed:
    """What :func:`check_log` found: the game as the log's steps in force leave it, the first
    difference (None: every line identical), and whether the save's chain proved every line."""

    game: Game
    state: State
    difference: Difference | None
    save: Path | None
    proven: bool


def _is_step(record: Any) -> bool:
    return isinstance(record, dict) and "action" in record


def _is_undo(record: Any) -> bool:
    return isinstance(record, dict) and record.get("undo") is True


def _header(lines: list[Line], source: str) -> dict[str, Any]:
    header = lines[0][1] if lines else None
    if not isinstance(header, dict) or header.get("kind") != LOG_KIND:
        raise InputError("not a solo-ops event log (no header line)", source=source)
    return header


def _bases(lines: list[Line]) -> list[tuple[int, dict[str, Any] | None, str | None]]:
    """Every base line: its index, its base (a checkpoint written before checkpoints carried a
    hash marked as such), and what is wrong with its form or hash (None when nothing is), or
    with its place (it must stand where as many steps are in force as it says)."""
    out: list[tuple[int, dict[str, Any] | None, str | None]] = []
    in_force = 0
    for index, (_raw, record) in enumerate(lines):
        if not isinstance(record, dict):
            continue
        if _is_step(record):
            in_force = record["n"] + 1 if isinstance(record.get("n"), int) else in_force
        elif _is_undo(record) and isinstance(record.get("keep"), int):
            in_force = min(in_force, record["keep"])
        elif "base" in record:
            base = _legacy(record["base"])
            problem = base_problem(base)
            if problem is None and base["steps"] != in_force:  # type: ignore[index]
                problem = ("base.steps", f"says {base['steps']} steps; "  # type: ignore[index]
                                         f"{in_force} are in force there")
            out.append((index, base if problem is None else None,
                        None if problem is None else f"{problem[0]}: {problem[1]}"))
    return out


def _legacy(base: Any) -> Any:
    """A base whose checkpoint carries no hash (written before schema 4) marked as such, as
    the save's migration marks it; any other base as it is."""
    if isinstance(base, dict) and isinstance(base.get("checkpoint"), dict) \
            and "hash" not in base["checkpoint"]:
        return {**base, "checkpoint": {**base["checkpoint"], "unhashed": True}}
    return base


# -- against the save ------------------------------------------------------------------------------
def _load_save(save: Path) -> dict[str, Any]:
    return opening.read_save(save)


def _against_save(log: Path, save: Path, doc: dict[str, Any], lines: list[Line],
                  header: dict[str, Any]) -> tuple[Difference | None, bool]:
    """The first line the save does not prove (the header of another game, a line its hash
    chain did not record, a base line it does not hold), and whether it has a chain."""
    found: list[Difference] = []
    if header.get("seed") != doc.get("seed") or id_of(header) != doc.get("game_id"):
        found.append(Difference(0, None, f"the header is not the game of its save {save} "
                                         "(its scenario or seed differs)"))
    chained = isinstance(doc.get("chain"), dict)
    if chained:
        diff = chain_difference(doc["chain"], [raw for raw, _record in lines])
        if diff is not None:
            index, why = diff
            if index >= len(lines):
                raise InputError(f"is truncated: its save {save} recorded "
                                 f"{len(doc['chain']['lines'])} lines of log, this file has "
                                 f"{len(lines)}", source=str(log))
            found.append(Difference(index, _step_of(lines[index][1]), why))
    else:  # a save from before the chain: its size and checksum of the log
        entries = [r for _raw, r in lines[1:] if r is not None]
        opening.check_log_length(log, save, effective_records(entries))
        recorded = doc.get("log")
        if isinstance(recorded, dict) and isinstance(recorded.get("size"), int) \
                and file_digest(log, recorded["size"]) != recorded:
            found.append(Difference(len(lines) - 1, None, "the log is not the one its save "
                                                          "recorded (its checksum differs)"))
    saved_base = _canonical(_legacy(doc.get("base")))
    bases = _bases(lines)
    for index, base, problem in bases:
        if problem is not None or _canonical(base) != saved_base:
            found.append(Difference(index, None, problem or "a base line the save does not "
                                    "hold: the game did not go on from that checkpoint"))
    if isinstance(doc.get("base"), dict) and not any(b for _i, b, _p in bases):
        found.append(Difference(len(lines) - 1, None, "the save went on from a checkpoint "
                                                      "the log has no base line for"))
    return (min(found, key=lambda d: d.index) if found else None), chained


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _step_of(record: Any) -> int | None:
    n = record.get("n") if _is_step(record) else None
    return n if isinstance(n, int) and not isinstance(n, bool) else None


# -- against the rules -----------------------------------------------------------------------------
@dataclass
class _Walk:
    """Playing the log's lines again: the game, the records in force, and where it started."""

    header: dict[str, Any]
    base: dict[str, Any] | None
    source: str
    game: Game
    state: State
    kept: list[dict[str, Any]]
    start: int
    playing: bool = True
    """Whether the game still follows the log (after a difference it plays the logged
    answers on, unchecked, until one no longer plays)."""

    def rebuild(self, keep: int, where: str, *, replay: bool = True) -> None:
        """Back to the first ``keep`` records (an undo line): the game replayed from them
        (unless ``replay`` is False: a difference was found already, only the steps count)."""
        if not self.start <= keep <= len(self.kept):
            raise InputError(f"an undo line keeps {excerpt(keep)} steps; the log has "
                             f"{len(self.kept)} in force and starts at {self.start}",
                             source=self.source, field=where)
        self.kept = self.kept[:keep]
        if not replay:
            self.playing = False
            return
        actions = [r["action"] for r in self.kept[max(1, self.start):]]
        self.game, self.state = restore({**self.header, "base": self.base}, self.source,
                                        actions)


def _against_rules(lines: list[Line], header: dict[str, Any],
                   base: tuple[int, dict[str, Any]] | None, source: str
                   ) -> tuple[Game, State, Difference | None]:
    """Play every line after the last base line (every line, without one) again: each step
    record against the rules' own, undone steps too. Returns the game as the steps in force
    leave it, and the first step that differs."""
    first = base[0] + 1 if base is not None else 1
    start = int(base[1]["steps"]) if base is not None else 0
    game, state = restore({**header, "base": None if base is None else base[1]}, source, [])
    walk = _Walk(header, None if base is None else base[1], source, game, state,
                 [{} for _ in range(start)], start)
    undone = _undone(lines)
    found: Difference | None = None
    for index in range(first, len(lines)):
        record = lines[index][1]
        where = f"line {index + 1}"
        if record is None or (isinstance(record, dict) and "base" in record
                              and not _is_step(record)):
            continue
        if _is_undo(record):
            keep = record.get("keep")
            if not isinstance(keep, int) or isinstance(keep, bool):
                raise InputError(f"a damaged undo line ({excerpt(keep)} steps kept)",
                                 source=source, field=where)
            walk.rebuild(keep, where, replay=found is None)
            continue
        if not _is_step(record):
            raise InputError("is not a step, an undo line or a base line", source=source,
                             field=where)
        if record.get("n") != len(walk.kept):
            raise InputError(f"is damaged: step {len(walk.kept)} is missing (the next record "
                             f"is step {excerpt(record.get('n'))}; lines were removed or "
                             "reordered)", source=source, field=where)
        if found is None:
            found = _play(walk, record, index, undone, source)
        elif walk.playing:  # past the difference: the game the logged answers give, unchecked
            try:
                step(walk.game, walk.state, record["action"])
            except Exception:  # the steps after a difference need not play
                walk.playing = False
        walk.kept.append(record)
    if len(walk.kept) <= start:
        raise InputError("the log has no steps", source=source)
    return walk.game, walk.state, found


def _play(walk: _Walk, record: dict[str, Any], index: int, undone: set[int],
          source: str) -> Difference | None:
    """Play one logged step again (step 0: the set-up, from the seed) and compare."""
    n = len(walk.kept)
    if n == 0:
        rebuilt = walk.state.log[0]
    else:
        try:
            rebuilt = step(walk.game, walk.state, record["action"])
        except Exception as exc:  # an edited or damaged action, or rules that now refuse it
            raise ActionFailed(f"replaying action {n} failed: {exc}", source=source,
                               field=f"line {index + 1}") from None
    plain = json.loads(json.dumps(rebuilt))
    if plain == record:
        return None
    return Difference(index, n, record_difference(record, plain), index in undone)


def _undone(lines: list[Line]) -> set[int]:
    """The indexes of the step lines an undo line later voids."""
    in_force: list[int] = []  # line indexes of the steps in force, in step order
    voided: set[int] = set()
    for index, (_raw, record) in enumerate(lines):
        if not isinstance(record, dict):
            continue
        if _is_step(record):
            in_force.append(index)
        elif _is_undo(record) and isinstance(record.get("keep"), int):
            keep = max(0, record["keep"])
            voided.update(in_force[keep:])
            del in_force[keep:]
    return voided


# -- the whole check -------------------------------------------------------------------------------
def check_log(log: Path, save: Path | None) -> Replayed:
    """Check the event log ``log`` against its save (``save``, else the one beside it, if
    any) and the rules (see the module docstring)."""
    source = str(log)
    lines = EventLog(log).read_lines(strict=True)
    header = _header(lines, source)
    found: list[Difference] = []
    if header.get("game_id") is not None and header.get("game_id") != id_of(header):
        found.append(Difference(0, None, "the header's scenario or seed is not the game its "
                                         "id names (the header was edited)"))
    save = save if save is not None else opening.save_beside(log)
    bases = _bases(lines)
    by_save, chained, saved_base = None, False, None
    if save is not None:
        doc = _load_save(save)
        saved_base = _canonical(_legacy(doc.get("base")))
        by_save, chained = _against_save(log, save, doc, lines, header)
    elif bases:
        raise InputError("the game went on from a checkpoint (a base line): give the save it "
                         "went on in (--save) to check it against", source=source,
                         field=f"line {bases[-1][0] + 1}")
    # the rules start at the last base line the save holds (none: at the set-up)
    good = [(i, b) for i, b, _p in bases if b is not None and _canonical(b) == saved_base]
    start = good[-1] if good else None
    try:
        game, state, by_rules = _against_rules(lines, header, start, source)
    except ActionFailed:
        if by_save is None:
            raise
        # the save names an edited line already: that is the answer, not what the edit broke
        game, state = restore({**header, "base": None if start is None else start[1]}, source,
                              [])
        by_rules = None
    found += [d for d in (by_save, by_rules) if d is not None]
    first = min(found, key=lambda d: d.index) if found else None
    if first is not None and by_rules is not None and by_save is not None \
            and by_rules.index == first.index == by_save.index:
        first = Difference(first.index, by_rules.step, f"{by_rules.detail}; {by_save.detail}",
                           by_rules.undone)
    return Replayed(game, state, first, save, chained and first is None)
