"""Opening a game at the table: where its files are, whether to resume or start, and the checks.

Every screen that plays a game (``solo-ops play`` at the terminal, ``solo-ops serve`` as a web
page, ``solo-ops campaign play`` for a campaign's mission) opens it here, so they decide the
same way and refuse with the same words:

* :func:`saves_for` and :func:`log_for` name a game's save and event log;
* :func:`plan` decides between resuming and starting afresh (an unfinished game of the scenario
  and seed is resumed, never overwritten; ``--new`` moves the old files aside);
* :func:`finished_snapshot` and :func:`finished_line` say when the save is a finished game;
* :func:`load_save_doc` reads a save and checks that replaying it gives the game it recorded;
* :func:`catch_up_log` makes the event log agree with its save (or raises :class:`LogDisagrees`);
* the table itself (:func:`~solo_ops.session.opening.open_table`,
  :func:`~solo_ops.session.opening.start_table`) is the session layer's.

Nothing here prints or prompts: problems are :class:`~solo_ops.core.errors.InputError` lines,
what the player should hear is returned as sentences for the caller to print.
"""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solo_ops.core.dice import CURRENT
from solo_ops.core.errors import InputError, excerpt
from solo_ops.game.definition import Game
from solo_ops.game.state import State
from solo_ops.io.event_log import EventLog, file_digest
from solo_ops.io.log_chain import chain_difference
from solo_ops.io.persistence import load_json, read_json_document
from solo_ops.io.reading import read_head
from solo_ops.io.savegame import (
    GAME_KIND,
    LOG_KIND,
    MIGRATIONS,
    SCHEMA_VERSION,
    SEALED_SINCE,
    base_line,
    checkpoint_problem,
    compare_log,
    game_id,
    id_of_game,
    last_base,
    log_header,
    rebase,
    reconcile_log,
    record_difference,
    restore,
    undo_marker,
    verify,
)
from solo_ops.io.scenario import Scenario, load_scenario
from solo_ops.io.writing import backup_path, set_aside
from solo_ops.rules.editions import turns_phrase


class LogDisagrees(InputError):
    """The event log does not describe the game its save rebuilds."""


# -- where a game's files are ---------------------------------------------------------------------
def log_for(save: Path) -> Path:
    """The event log beside a save: ``<save stem>.log.jsonl``."""
    return Path(save).with_suffix(".log.jsonl")


def mission_paths(path: Path, number: int) -> dict[str, Path]:
    """The files of mission ``number`` of the campaign saved at ``path``: the scenario, the
    game save, its event log and the after-action map, in ``<saves>/<name>-missions/``."""
    folder = path.parent / f"{path.stem}-missions"
    stem = folder / f"mission-{number}"
    return {"folder": folder, "scenario": stem.with_suffix(".yaml"),
            "save": stem.with_suffix(".save.json"), "log": stem.with_suffix(".log.jsonl"),
            "map": stem.with_suffix(".png"), "setup": folder / f"mission-{number}-setup.png"}


def campaign_mission(save: Path) -> tuple[str, Path, int] | None:
    """The campaign whose mission ``save`` is (where :func:`mission_paths` puts it, beside a
    campaign save): ``(campaign name, the campaigns' folder, mission number)``, or None."""
    found = re.fullmatch(r"mission-(\d+)\.save\.json", save.name)
    folder = save.parent
    if found is None or not folder.name.endswith("-missions"):
        return None
    name = folder.name[: -len("-missions")]
    if not name or file_kind(folder.parent / f"{name}.json") != "campaign":
        return None
    number = int(found.group(1))
    if mission_paths(folder.parent / f"{name}.json", number)["save"] != save:
        return None
    return name, folder.parent, number


def saves_for(scenario_path: Path, save: Path | None, seed: int,
              scenario_document: Any = None) -> tuple[Path, Path]:
    """The save and event log of SCENARIO with ``seed``: ``saves/<scenario>-<id>.json`` and
    ``saves/<scenario>-<id>.log.jsonl`` unless ``--save`` says where. ``<id>`` is eight hex
    digits of the game's id (a checksum of the scenario, the seed and the dice): the same game
    has the same files, so an unfinished one is found again, and the name never tells the seed
    (every player may see it: the page says where the game is saved)."""
    if save is None:
        ident = game_id(scenario_document, seed, CURRENT)[:8]
        save = Path("saves") / f"{Path(scenario_path).stem}-{ident}.json"
    return save, log_for(save)


def legacy_save(scenario_path: Path, seed: int) -> Path:
    """Where solo-ops before the keyed dice saved a game of SCENARIO with ``seed`` by
    default (``saves/<scenario>-<seed>.json``): an unfinished game there is still resumed."""
    return Path("saves") / f"{Path(scenario_path).stem}-{seed}.json"


def saves_beside(log: Path) -> list[Path]:
    """Where the save a log belongs to would be, by name, in the log's folder: ``x.log.jsonl``
    → ``x.json`` (a game's, :func:`saves_for`), then ``x.save.json`` (a campaign mission's,
    :func:`mission_paths`: ``mission-N.log.jsonl`` beside ``mission-N.save.json``); none for
    a file not named as a log."""
    if not log.name.endswith(".log.jsonl"):
        return []
    stem = log.name[: -len(".log.jsonl")]
    return [log.with_name(f"{stem}.json"), log.with_name(f"{stem}.save.json")]


def save_beside(log: Path) -> Path | None:
    """The save a log belongs to (the first of :func:`saves_beside` that is a file), or
    None."""
    return next((save for save in saves_beside(log) if save.is_file()), None)


HEAD_BYTES = 8192
"""How much of a file :func:`file_kind` reads to tell what it is."""
_KIND = re.compile(r'"kind"\s*:\s*"([a-z-]+)"')
_SCENARIO_KEY = re.compile(r'^\s*"?(squads|board|roster|enemies|edition)"?\s*:', re.MULTILINE)


def file_kind(path: Path) -> str | None:
    """What ``path`` is by its first bytes: ``save`` (a game's save), ``log`` (its event
    log), ``campaign`` (a campaign's save), ``scenario``, or None (not a regular file, not
    readable, or none of these) -- so a file given to the wrong command is named with the
    command that reads it, rather than called damaged."""
    try:  # through the one opener (io.reading): a pipe or a device is never waited on
        head = read_head(path, HEAD_BYTES).decode("utf-8", "replace")
    except InputError:
        return None
    found = _KIND.search(head) if head.lstrip().startswith("{") else None
    kinds = {GAME_KIND: "save", LOG_KIND: "log"}
    if found is not None and found.group(1) in kinds:
        return kinds[found.group(1)]
    if found is not None and found.group(1).endswith("-campaign"):  # campaign.storage's kind
        return "campaign"
    return "scenario" if _SCENARIO_KEY.search(head) else None


PRECIOUS = {"save": "a saved game", "log": "a game's event log", "campaign": "a campaign save",
            "scenario": "a scenario"}
"""The files no command replaces by accident (what :func:`file_kind` tells apart)."""


def refuse_replacing(path: Path, source: str, *, force: bool | None = None) -> None:
    """Refuse to write ``path`` when it would replace a file: any file when ``force`` is
    given and false (the command writes that kind of file and has ``--force``), else a save,
    event log, campaign or scenario (pictures and tables never replace one). One line naming
    the file and what it is."""
    if force or not os.path.lexists(path):
        return
    kind = file_kind(path)
    if force is None and kind not in PRECIOUS:
        return
    what = PRECIOUS.get(kind or "", "")
    hint = ("choose another file or add --force to replace it" if force is not None
            else "choose another file")
    raise InputError(f"{path} already exists{f' ({what})' if what else ''}; {hint}",
                     source=source)


def wrong_file(path: Path, wanted: str, command: str) -> InputError | None:
    """The one-line error for ``path`` given where a ``wanted`` file (``save`` or
    ``scenario``) is read, naming what it is and the command that reads it; None when it is
    what is wanted (or cannot be told)."""
    kind = file_kind(path)
    if kind is None or kind == wanted:
        return None
    if kind == "scenario":
        text = f"is a scenario, not a save: start a game of it with `solo-ops {command} {path}`"
    elif kind == "save":
        text = (f"is a saved game, not a scenario: go on with it with `solo-ops {command} "
                f"--resume {path}`")
    elif kind == "log":
        save = save_beside(path)
        text = (f"is an event log, not a {wanted}: check it with `solo-ops replay {path}`"
                + (f"; go on with its game with `solo-ops {command} --resume {save}`"
                   if save is not None else ""))
    else:
        text = ("is a campaign, not a game: play its next mission with `solo-ops campaign "
                "play NAME`")
    return InputError(text, source=str(path))


def stamp() -> str:
    """The time stamp put in the names of files moved aside (local time, to the second)."""
    return time.strftime("%Y%m%d-%H%M%S")


def move_aside(save: Path, log: Path, *extra: Path) -> list[Path]:
    """Move a game's save, backup and log (and ``extra`` files) aside with a time stamp in
    their names, never deleting them; returns the new names."""
    when = stamp()
    moved = [set_aside(p, when) for p in (save, backup_path(save), log, *extra)]
    return [p for p in moved if p is not None]


# -- finished games -------------------------------------------------------------------------------
def finished_snapshot(save: Path) -> dict[str, Any] | None:
    """The snapshot of the game saved in ``save`` if it is a finished game, else ``None``."""
    found = read_json_document(save)
    snapshot = found.get("snapshot")
    if found.get("kind") == GAME_KIND and isinstance(snapshot, dict) and snapshot.get("ended"):
        return snapshot
    return None


def finished_line(save: Path, snapshot: dict[str, Any], how_to_start: str) -> str:
    """What a finished game's save says when someone tries to play it again."""
    result = snapshot.get("result") or {}
    vp = result.get("vp") or {}
    n = result.get("turns", snapshot.get("turn"))
    played = turns_phrase(int(n or 0), snapshot.get("edition"))
    return (f"{save} is a finished game: {str(result.get('outcome', '?')).upper()} after "
            f"{played} — you {vp.get('player', 0)} VP, solo-ops {vp.get('enemy', 0)} VP. "
            f"Nothing was changed. {how_to_start}")


# -- reading and checking saves and logs ----------------------------------------------------------
def read_save(path: Path) -> dict[str, Any]:
    """A game save as written, its seal checked (an edited save is refused in one line naming
    the first field that changed and the backup), migrated to the current schema."""
    return load_json(path, kind=GAME_KIND, current_version=SCHEMA_VERSION,
                     migrations=MIGRATIONS, sealed_since=SEALED_SINCE)


def load_save_doc(path: Path) -> tuple[dict[str, Any], Game, State]:
    """Read a save (its seal checked, :func:`read_save`: a save edited after it was written is
    refused in one line naming the field, never taken for a version change; migrated to the
    current schema), rebuild its game by replaying it and check the result against what the
    save recorded. When the history replays into a different game (a newer solo-ops plays a
    rule differently — the seal says the save is as written), the game goes on from the save's
    checkpoint (:func:`~solo_ops.io.savegame.rebase`; ``game.notice`` says so for the players)
    — if the checkpoint matches its hash and passes the checks a scenario passes; a save
    without a checkpoint, or whose checkpoint was edited, is refused in one line, naming the
    first step that differs or the field, and left untouched. A checkpoint that does not match
    while the steps replay intact is not needed: the game goes on from the steps (and says
    so)."""
    doc = read_save(path)
    rebuilt: Game | None = None  # its compiled terrain, if the game goes on from the checkpoint
    try:
        game, state = restore(doc, str(path))
        rebuilt = game
        problem = verify(doc, state)
    except InputError as exc:
        if not str(exc.field or "").startswith("actions["):
            raise
        problem = exc.message  # an action the rules now refuse: the history plays differently
    if problem is None:
        edited = checkpoint_problem(doc)
        if edited is not None:  # not needed: the steps replay into the saved game
            game.notice = (f"This save's checkpoint cannot be trusted ({edited}); its steps "
                           "replay intact, so the game goes on from them and the checkpoint "
                           "is written anew at the next save.")
        return doc, game, state
    doc, game, state = rebase(doc, str(path), problem, like=rebuilt)
    game.notice = (f"This save's history plays differently now ({problem}). The game goes "
                   "on from where it stood when it was saved, under this version's rules; "
                   "undo cannot go back before this point, and the steps before stay in the "
                   "event log to read.")
    return doc, game, state


def load_save(path: Path) -> tuple[Game, State]:
    """:func:`load_save_doc` without the document."""
    _doc, game, state = load_save_doc(path)
    return game, state


def _write_log(log: EventLog, game: Game, state: State) -> None:
    """Write the event log anew from the saved game: its header, then every step."""
    log.create(log_header(game))
    for record in state.log:
        log.append(record)


def catch_up_log(log_path: Path, game: Game, state: State, doc: dict[str, Any] | None = None,
                 *, rebuild: bool = False) -> str | None:
    """Make the event log describe the saved game again; returns a sentence when the log was
    changed in a way the player should hear about, ``None`` when it agreed (or only caught up).

    A log one step behind (killed between the two writes) gets the missing steps; one ahead
    gets an undo line. A log that disagrees with the save — another seed or game, a line that
    is not the one the save's hash chain recorded (an edited roll, even in an undone step),
    damage — raises :class:`LogDisagrees` naming the first line or step that differs, unless
    ``rebuild``: then the old log is moved aside (never deleted) and a new one is written from
    the save, which is the truth.
    """
    log = EventLog(log_path)
    if not log_path.exists():
        _write_log(log, game, state)
        return f"The event log {log_path} was missing; it was rebuilt from the save."
    problem = None
    lines: list[tuple[bytes, dict[str, Any] | None]] = []
    try:
        lines = log.read_lines()
    except InputError as exc:
        problem = f"the log is damaged ({exc.line()})"
    entries = [record for _raw, record in lines if record is not None]
    if problem is None and not entries:  # emptied (or cut inside its header): nothing to keep
        _write_log(log, game, state)
        return f"The event log {log_path} was empty; it was rebuilt from the save."
    if problem is None:
        problem = _log_problem(log_path, lines, doc, game, state)
    if problem is not None:
        if not rebuild:
            raise LogDisagrees(f"the event log {log_path} disagrees with the save: {problem}")
        aside = set_aside(log_path, stamp())
        _write_log(log, game, state)
        return (f"The event log disagreed with the save ({problem}); it was moved aside to "
                f"{aside} and rebuilt from the save.")
    keep, missing = reconcile_log(entries[1:], state)
    if keep is not None:
        log.append(undo_marker(keep))
    for record in missing:
        log.append(record)
    if game.base is not None and last_base(entries) != game.base:
        log.append(base_line(game.base))  # replay starts at the checkpoint from here on
    return None


def _log_problem(log_path: Path, lines: list[tuple[bytes, dict[str, Any] | None]],
                 doc: dict[str, Any] | None, game: Game, state: State) -> str | None:
    """What is wrong with a log's ``lines`` for the saved game, or None. A save with a hash
    chain proves every line it recorded (a log one line behind, or lines after the save's
    last, are for :func:`reconcile_log`); an older save proves the log by its checksum, else
    the log's steps are compared with the game replayed (:func:`compare_log`)."""
    doc = doc or {}
    if isinstance(doc.get("chain"), dict):
        recorded = doc["chain"].get("lines")
        complete = [raw for raw, _record in lines if raw.endswith(b"\n")]
        found = chain_difference(doc["chain"], complete)
        if found is None or found[0] >= len(recorded or []) or found[0] == len(complete):
            return None  # agrees as far as both go
        index, why = found
        return f"{line_words(index, lines)}: {_what_differs(lines[index][1], state) or why}"
    recorded = doc.get("log")
    if isinstance(recorded, dict) and isinstance(recorded.get("size"), int):
        try:
            if file_digest(log_path, recorded["size"]) == recorded:
                return None
        except InputError:
            pass
    entries = [record for _raw, record in lines if record is not None]
    return compare_log(entries, doc or {"seed": game.seed, "dice_scheme": game.dice_scheme,
                                        "game_id": id_of_game(game)}, state)


def _what_differs(record: dict[str, Any] | None, state: State) -> str | None:
    """What an edited step line says against the game replayed (``roll 1 (...) is [6] in the
    log, the dice give [3]``), when the line is the step the game holds; else None."""
    if not isinstance(record, dict) or "action" not in record:
        return None
    n = record.get("n")
    if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n < len(state.log):
        return None
    rebuilt = json.loads(json.dumps(state.log[n]))
    if record.get("action") != rebuilt.get("action") or record == rebuilt:
        return None
    return f"{record_difference(record, rebuilt)} (it is not the line the save recorded)"


def line_words(index: int, lines: list[tuple[bytes, dict[str, Any] | None]]) -> str:
    """How a message names line ``index`` (0-based) of a log: ``line 7 (step 5)``, ``line 9
    (an undo line)``, ``line 1 (the header)``."""
    record = lines[index][1] if index < len(lines) else None
    what = ""
    if index == 0:
        what = " (the header)"
    elif isinstance(record, dict) and "action" in record:
        what = f" (step {excerpt(record.get('n'))})"
    elif isinstance(record, dict) and record.get("undo") is True:
        what = " (an undo line)"
    elif isinstance(record, dict) and "base" in record:
        what = " (a base line)"
    return f"line {index + 1}{what}"


def check_log_length(log: Path, save: Path, records: list[dict[str, Any]]) -> None:
    """Refuse a log shorter than the one its save recorded (a truncated log)."""
    doc = read_save(save)
    recorded = doc.get("log")
    size = log.stat().st_size
    if isinstance(recorded, dict) and isinstance(recorded.get("size"), int) \
            and size < recorded["size"]:
        raise InputError(f"is truncated: its save {save} recorded {recorded['size']} bytes of "
                         f"log, this file has {size}", source=str(log))
    prints = doc.get("steps")
    if isinstance(prints, list) and len(records) < len(prints):
        raise InputError(f"is truncated: its save {save} has {len(prints)} steps, the log "
                         f"only {len(records)}", source=str(log))


# -- resume or start ------------------------------------------------------------------------------
@dataclass
class Plan:
    """How a game is to be opened: its files, and either the scenario to start (``scenario``
    and ``seed``) or a save to resume (``resuming``). ``command`` is the command that opens it
    (``play`` or ``serve``), used in the sentences that tell the player what to type."""

    save: Path
    log: Path
    resuming: bool
    command: str
    scenario_path: Path | None = None
    scenario: Scenario | None = None
    seed: int | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def how_to_start(self) -> str:
        """What to type to start another game instead of this finished one."""
        if self.scenario_path is None:
            return (f"Start another with `solo-ops {self.command} SCENARIO --new` (this "
                    "game's files are moved aside, not deleted) or with another --seed.")
        return (f"Start another with `solo-ops {self.command} {self.scenario_path} --new` "
                "(this game's files are moved aside, not deleted) or with another --seed.")


def plan(scenario_path: Path | None, resume: Path | None, seed: int | None, save: Path | None,
         new: bool, *, command: str, fresh_seed: Any = None) -> Plan:
    """Where the game of ``scenario_path`` (or the save ``resume``) is and whether it is
    resumed: an unfinished game of the scenario with the same seed is resumed, never
    overwritten, unless ``new``. ``fresh_seed(seed)`` picks the seed when neither the option nor
    the scenario gives one (the command's business: it may use the operating system)."""
    if (scenario_path is None) == (resume is None):
        raise InputError("give a SCENARIO file, or --resume SAVE", source=command)
    if resume is not None and new:
        raise InputError("--new starts a SCENARIO afresh; it cannot go with --resume",
                         source="--new")
    if resume is not None:
        if not resume.name or resume.is_dir():
            raise InputError("is a folder, not a saved game: give the save's file",
                             source=str(resume))
        wrong = wrong_file(resume, "save", command)
        if wrong is not None:
            raise wrong
        return Plan(resume, log_for(resume), True, command)
    assert scenario_path is not None
    wrong = wrong_file(scenario_path, "scenario", command)
    if wrong is not None:
        raise wrong
    loaded = load_scenario(scenario_path)
    seed = seed if seed is not None else loaded.seed
    if seed is None and fresh_seed is not None:
        seed = fresh_seed(seed)
    if seed is None:
        raise InputError("the scenario has no seed: give --seed", source=str(scenario_path))
    if save is not None and os.path.lexists(save) and file_kind(save) != "save":
        refuse_replacing(save, "--save")
    save_path, log_path = saves_for(scenario_path, save, seed, loaded.document)
    if save is None and not save_path.exists() and not new \
            and file_kind(legacy_save(scenario_path, seed)) == "save":
        save_path = legacy_save(scenario_path, seed)  # saved before the keyed dice
        log_path = log_for(save_path)
    return Plan(save_path, log_path, save_path.exists() and not new, command,
                scenario_path=scenario_path, scenario=loaded, seed=seed)


def open_saved(p: Plan) -> tuple[dict[str, Any], Game, State]:
    """Load the save ``p`` resumes, refusing one that holds another game than its scenario."""
    doc, game, state = load_save_doc(p.save)
    if p.scenario is not None and p.seed is not None \
            and doc.get("game_id") != game_id(p.scenario.document, p.seed,
                                              doc.get("dice_scheme")):
        go_on = ("go on with it with `solo-ops play --resume" if p.command == "play"
                 else f"{p.command} it with `solo-ops {p.command} --resume")
        raise InputError(
            f"holds another game (an edited {p.scenario_path} or another scenario with seed "
            f"{p.seed}); {go_on} {p.save}`, or start this one with --new (the old files are "
            "moved aside) or --save OTHER", source=str(p.save))
    return doc, game, state
