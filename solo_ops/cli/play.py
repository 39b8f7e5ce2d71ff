"""``solo-ops play``, ``replay`` and ``map``: the turn-by-turn loop at the table.

The loop asks :func:`solo_ops.game.engine.pending` what is needed; engine steps run on their own
and print what the enemy does and why; the players' answers are read from the keyboard, a
pipe, ``--answers FILE`` or ``--answer TEXT`` options, checked, and refused with the reason
when they make no sense (the prompt repeats). After every step the game is saved atomically
and the step appended to the JSON-lines event log, so killing the process loses at most the
answer being typed; ``--resume SAVE`` continues exactly where it stopped.
"""

from __future__ import annotations

import copy
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click

from solo_ops.cli.common import console, emit_json, resolve_seed
from solo_ops.core.errors import InputError, RuleError
from solo_ops.game import intent
from solo_ops.game.engine import Game, new_game, pending, step
from solo_ops.game.state import ENEMY, PLAYER, State
from solo_ops.io.persistence import (
    EventLog,
    backup_path,
    file_digest,
    game_lock,
    load_json,
    log_line,
    read_json_document,
    save_json,
    set_aside,
)
from solo_ops.io.savegame import (
    GAME_KIND,
    LOG_KIND,
    MIGRATIONS,
    SCHEMA_VERSION,
    can_undo,
    compare_log,
    effective_records,
    game_document,
    game_id,
    log_header,
    reconcile_log,
    record_difference,
    restore,
    undo,
    undo_marker,
    verify,
)
from solo_ops.io.scenario import load_scenario
from solo_ops.view import answers, measure, narrate
from solo_ops.view.player import player_record, player_view

HELP = answers.PLAYER_HELP


def _json_line(data: object, **options: object) -> str:
    """One JSON line of ``--json`` output: strict JSON (no NaN), like every JSON solo-ops
    prints."""
    return json.dumps(data, allow_nan=False, **options)  # type: ignore[arg-type]


def _saves_for(scenario_path: Path, save: Path | None, seed: int) -> tuple[Path, Path]:
    """The save and event log of SCENARIO with ``seed``: ``saves/<scenario>-<seed>.json`` and
    ``saves/<scenario>-<seed>.log.jsonl`` unless ``--save`` says where."""
    if save is None:
        save = Path("saves") / f"{scenario_path.stem}-{seed}.json"
    return save, log_for(save)


def log_for(save: Path) -> Path:
    """The event log beside a save: ``<save stem>.log.jsonl``."""
    return save.with_suffix(".log.jsonl")


def stamp() -> str:
    """The time stamp put in the names of files moved aside (local time, to the second)."""
    import time

    return time.strftime("%Y%m%d-%H%M%S")


def move_aside(save: Path, log: Path, *extra: Path) -> list[Path]:
    """Move a game's save, backup and log (and ``extra`` files) aside with a time stamp in
    their names, never deleting them; returns the new names."""
    when = stamp()
    moved = [set_aside(p, when) for p in (save, backup_path(save), log, *extra)]
    return [p for p in moved if p is not None]


def finished_line(save: Path, snapshot: dict[str, Any], how_to_start: str) -> str:
    """What a finished game's save says when someone tries to play it again."""
    result = snapshot.get("result") or {}
    vp = result.get("vp") or {}
    turns = "turning point" if snapshot.get("edition") == "kt2024" else "battle round"
    n = result.get("turns", snapshot.get("turn"))
    return (f"{save} is a finished game: {str(result.get('outcome', '?')).upper()} after {n} "
            f"{turns}{'s' if n != 1 else ''} — you {vp.get('player', 0)} VP, solo-ops "
            f"{vp.get('enemy', 0)} VP. Nothing was changed. {how_to_start}")


class LogDisagrees(InputError):
    """The event log does not describe the game its save rebuilds."""


def _names(state: State) -> dict[str, str]:
    """Display names: the players' operatives by name; enemy models are not in it, so every
    line names them by id (the label on the map and in ``status``)."""
    return {o.id: (o.name if o.name != o.id else o.id) for o in state.operatives.values()
            if o.side == PLAYER}


def _table(game: Game, state: State) -> narrate.Table:
    """What narration needs from the game: units, names, the doors and hatches, the enemies."""
    board = game.scenario.board
    enemies = {o.id: (o.name, o.at, o.owner) for o in state.operatives.values()
               if o.side == ENEMY}
    return narrate.Table(edition=state.edition, units=game.settings.units,
                         names=_names(state), portals={f.id: f.shape for f in board.portals()},
                         enemies=enemies)


class Session:
    """One playing session: the game, its save and log files, and how to talk."""

    def __init__(self, game: Game, state: State, save: Path, log: Path, *, reveal: bool,
                 as_json: bool) -> None:
        self.game, self.state = game, state
        self.save, self.log = save, log
        self.reveal = reveal or game.settings.reveal_hidden
        self.as_json = as_json
        self.out = console()
        self._asked: tuple[Any, ...] | None = None
        self._hinted: set[str] = set()  # prompt kinds whose answer hint was printed
        self._put_back: str | None = None  # a line typed at a yes/no question, to answer next

    def say(self, text: str) -> None:
        if not self.as_json:
            self.out.print(text, markup=False, highlight=False, soft_wrap=True)

    def show(self, record: dict[str, Any]) -> None:
        shown = player_record(record, reveal=self.reveal)
        if self.as_json:
            click.echo(_json_line({"record": shown}, ensure_ascii=False))
            return
        for line in narrate.lines_for(shown, table=_table(self.game, self.state)):
            self.say(line)
            if line.startswith("══") and "Battle over" not in line:  # a new round: effects
                self.remind()
        if self.reveal:
            for event in record["events"]:
                if event.get("secret"):
                    self.say(f"  [debug] {event}")

    def briefing(self) -> None:
        """The mission in words, and the Pariah Nexus effects in force, at the start."""
        mission = self.game.scenario.mission
        for line in mission.briefing(self.game.edition):
            self.say(f"  {line}")
        for title, text in mission.effect_texts(self.game.scenario.board.killzone):
            self.say(f"  Effect in force — {title}: {text}")

    def remind(self) -> None:
        """One line naming the Pariah Nexus effects in force (every battle round)."""
        effects = self.game.scenario.mission.effect_texts(self.game.scenario.board.killzone)
        if effects:
            self.say("  In force: " + "; ".join(title for title, _ in effects) + ".")

    def persist(self, record: dict[str, Any] | None, *,
                log_entry: dict[str, Any] | None = None) -> None:
        """Save the game, then append ``record`` (or ``log_entry``, an undo line) to the event
        log. The save records the checksum the log has after the append, so a kill between
        the two leaves the log one line behind, which resuming appends again (byte for byte
        the same)."""
        entry = record if record is not None else log_entry
        line = log_line(entry, self.log) if entry is not None else b""
        digest = file_digest(self.log, then=line, missing_ok=True)
        save_json(self.save, game_document(self.game, self.state, digest))
        if entry is not None:
            EventLog(self.log).append(entry)

    def run(self, feed: Iterator[str], interactive: bool) -> int:
        """Ask and answer until the game ends or the answers run out (0 either way)."""
        if isinstance(feed, Feed):
            feed.words = self.completions
        while True:
            prompt = pending(self.game, self.state)
            if prompt.kind == "ended":
                self.summary()
                return 0
            if prompt.kind == "engine":
                record = step(self.game, self.state, {"type": "engine"})
                self.persist(record)
                self.show(record)
                continue
            self.ask(prompt)
            line = self._next(feed, interactive)
            if line is None:
                return self._out_of_answers()
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if self.meta(line, prompt):
                if line.split()[0].lower() in ("quit", "exit"):
                    return 0
                continue
            try:
                action = self.understand(line, prompt)
                if action.get("relation"):
                    proposal = intent.propose(self.game, self.state, action)
                    concrete = {**proposal.action, "operative": action["operative"]}
                    # the engine's own checks first, on a copy: never ask yes to a refusal
                    step(self.game, copy.deepcopy(self.state), concrete)
                    agreed = self.confirm(proposal, feed, interactive)
                    if agreed is None:
                        return self._out_of_answers()
                    if not agreed:
                        continue
                    action = concrete
                record = step(self.game, self.state, action)
            except RuleError as exc:
                self.say(f"✗ {exc}")
                if not interactive and self.as_json:
                    click.echo(_json_line({"refused": str(exc), "answer": line}))
                continue
            self.persist(record)
            self.show(record)

    def _next(self, feed: Iterator[str], interactive: bool) -> str | None:
        """The next typed line (a line put back by :meth:`confirm` first); None at the end."""
        if self._put_back is not None:
            line, self._put_back = self._put_back, None
            return line
        try:
            line = next(feed)
        except StopIteration:
            return None
        if not interactive and not self.as_json:
            self.say(f"> {line}")
        return line

    def _out_of_answers(self) -> int:
        self.say(f"No more answers: the game is saved in {self.save}. Continue with "
                 f"`solo-ops play --resume {self.save}`.")
        return 0

    def understand(self, line: str, prompt: Any) -> dict[str, Any]:
        """One typed answer as the engine's action: parsed, the active operative filled in, ids
        matched case-insensitively by unambiguous prefix, the weapon chosen when one fits."""
        action = answers.parse(line, prompt.kind, self.game.settings.units)
        if prompt.kind == "act" and "operative" not in action and action["type"] in (
                "move", "shoot", "fight", "carry", "evacuate", "ready", "done"):
            action["operative"] = prompt.operative
        return intent.resolve_ids(self.game, self.state, action, prompt)

    def confirm(self, proposal: intent.Proposal, feed: Iterator[str], interactive: bool
                ) -> bool | None:
        """Show a computed move and ask for a yes: True to make it, False for anything else (an
        answer other than no is then taken as the next answer); None when the answers end."""
        units = self.game.settings.units
        table = _table(self.game, self.state)
        how = proposal.action["how"].replace("_", " ")
        where = narrate.move_words(proposal.start, proposal.to, proposal.route, table,
                                   proposal.cost)
        gap = "" if proposal.gap is None else \
            f", {measure.length(proposal.gap, units)} from {proposal.ref}"
        if proposal.relation == "contact":
            gap = f", in base contact with {proposal.ref}"
        elif proposal.gap is not None and proposal.gap < 0.05:
            gap = f", touching {proposal.ref}"
        text = (f"  → {self.state.active_operative} would {how} {where}{gap} (it can {how} "
                f"{measure.length(proposal.allowance, units)}).")
        if self.as_json:
            click.echo(_json_line({"confirm": {**proposal.action,
                                               "cost": round(proposal.cost, 2),
                                               "route": [list(p) for p in proposal.route]}},
                                  ensure_ascii=False))
        self.say(text)
        self.say("? Do it? (yes / no)")
        line = self._next(feed, interactive)
        if line is None:
            return None
        word = line.strip().lower()
        if word in ("y", "yes", "ok", "do it"):
            return True
        self.say("Not moved.")
        if word not in ("", "n", "no"):
            self._put_back = line
        return False

    def completions(self) -> list[str]:
        """Words worth completing at the prompt now: answer words and every id on the table."""
        words = set(answers.ACT_WORDS) | set(answers.META) | set(answers.RELATION_WORDS)
        words |= {o.id for o in self.state.operatives.values()
                  if o.on_table or o.side == PLAYER}
        board = self.game.terrain(self.state).board
        words |= {f.id for f in board.features} | {o.id for o in board.objectives}
        words |= {c.id for c in self.state.counters.values() if c.active}
        if self.state.active_operative is not None:
            op = self.state.operatives[self.state.active_operative]
            words |= {w.name for w in op.profile.weapons}
        return sorted(words)

    def ask(self, prompt: Any) -> None:
        if self.as_json:
            click.echo(_json_line({"prompt": prompt.to_dict()}, ensure_ascii=False))
            return
        key = (len(self.state.log), prompt.kind, prompt.operative)
        again = key == self._asked
        self._asked = key
        self.say("")
        self.say(f"? {prompt.text}")
        if again:
            return  # asked again after a refusal or a meta answer: the options were just shown
        if prompt.options and prompt.kind == "activate":
            self.say(f"  ready: {', '.join(prompt.options)}")
        elif prompt.options and prompt.kind not in self._hinted:
            self._hinted.add(prompt.kind)  # the answer hint once per kind of prompt
            self.say(f"  answers: {' | '.join(prompt.options)}   (help, status, map FILE, "
                     "undo, quit)")

    def meta(self, line: str, prompt: Any) -> bool:
        words = line.split()
        head = words[0].lower()
        if head not in answers.META:
            return False
        if head == "help":
            self.say(HELP)
        elif head == "status":
            self.status()
        elif head == "map":
            if len(words) != 2:
                self.say("✗ map needs a file name: map board.png")
            else:
                from solo_ops.cli.maps import draw_view

                try:
                    draw_view(self.game, self.state, Path(words[1]), reveal=self.reveal)
                    self.say(f"Map drawn to {words[1]}.")
                except InputError as exc:
                    self.say(f"✗ {exc}")
        elif head == "undo":
            doc = game_document(self.game, self.state)
            remaining = undo(doc["actions"])
            if not can_undo(doc["actions"]):
                self.say("✗ nothing to undo: no answer has been given yet")
            else:
                taken_back = doc["actions"][len(remaining)]
                self.game, self.state = restore(doc, str(self.save), remaining)
                self.persist(None, log_entry=undo_marker(len(self.state.log)))
                self.say(f"Undone: {_describe(taken_back)} is taken back; you are back before "
                         "it (dice already shown come out the same again).")
        elif head == "save":
            self.persist(None)
            self.say(f"Saved to {self.save}.")
        elif head in ("quit", "exit"):
            self.persist(None)
            self.say(f"Saved to {self.save}. Continue with `solo-ops play --resume "
                     f"{self.save}`.")
        return True

    def status(self) -> None:
        view = player_view(self.game, self.state, reveal=self.reveal)
        units = self.game.settings.units
        self.say(f"Turn {view['turn']} ({view['phase']}); VP you {view['vp'].get('player', 0)}"
                 f" / solo-ops {view['vp'].get('enemy', 0)}")
        for player, ops in view["squads"].items():
            for o in ops:
                extra = " DOWN" if o["down"] else ""
                self.say(f"  {player}: {o['id']} {measure.point(o['at'], units)} "
                         f"{o['wounds']}/{o['max_wounds']}W {o['stance']}{extra}")
        for o in view["enemies"]:
            if o["down"]:
                continue
            self.say(f"  enemy {o['id']} ({o['profile']}, {o['owner']}) at "
                     f"{measure.point(o['at'], units)} {o['wounds']}/{o['max_wounds']}W")
        for c in view["counters"]:
            self.say(f"  counter {c['id']} at {measure.point(c['at'], units)}")
        doors = {f.id: f for f in self.game.terrain(self.state).board.portals()}
        if doors:
            self.say("  doors and hatches: " + ", ".join(
                f"{i} {'open' if f.open else 'closed'}" for i, f in sorted(doors.items())))

    def summary(self) -> None:
        result = self.state.result or {}
        if self.as_json:
            click.echo(_json_line({"result": result,
                                   "view": player_view(self.game, self.state,
                                                       reveal=self.reveal)}))
            return
        vp = result.get("vp") or {}
        turns = "turning point" if self.state.edition == "kt2024" else "battle round"
        n = result.get("turns", self.state.turn)
        self.say("")
        self.say("══ Summary ══")
        self.say(f"Result: {str(result.get('outcome', '?')).upper()} after {n} {turns}"
                 f"{'s' if n != 1 else ''} — you {vp.get('player', 0)} VP, solo-ops "
                 f"{vp.get('enemy', 0)} VP.")
        self.say(f"Enemies destroyed: {result.get('enemies_destroyed', 0)}"
                 f"{' (every enemy is gone)' if result.get('all_enemies_destroyed') else ''}; "
                 f"hidden counters never found: {result.get('unresolved_counters', 0)}.")
        self.say(f"Your losses: {result.get('squad_lost', 0)}"
                 f"{' (the whole squad is down)' if result.get('squad_wiped_out') else ''}.")
        view = player_view(self.game, self.state, reveal=self.reveal)
        for player, ops in view["squads"].items():
            states = []
            for o in ops:
                if o.get("carried_to_safety"):
                    states.append(f"{o['id']} carried to safety")
                elif o["down"]:
                    states.append(f"{o['id']} down")
                else:
                    states.append(f"{o['id']} {o['wounds']}/{o['max_wounds']}W")
            self.say(f"  {player}: {', '.join(states)}.")
        self.say(f"Saved to {self.save}; the event log is {self.log}.")


class Feed:
    """Typed lines from the keyboard: with line editing, history and tab completion
    (prompt_toolkit) when stdin and stdout are a terminal, plain lines from a pipe or a file
    otherwise. ``words`` is asked, at every prompt, for the words to complete (the session
    sets it: answer words and the ids on the table)."""

    def __init__(self, interactive: bool, fancy: bool = True) -> None:
        self.interactive = interactive
        self.fancy = fancy  # stdout is a terminal too: prompt_toolkit, else plain input()
        self.words: Any = lambda: list(answers.ACT_WORDS)
        self._session: Any = None

    def __iter__(self) -> Iterator[str]:
        return self

    def __next__(self) -> str:
        if not self.interactive:
            line = sys.stdin.readline()
            if not line:
                raise StopIteration
            return line.rstrip("\n")
        try:
            return self._prompt()
        except (EOFError, KeyboardInterrupt):
            raise StopIteration from None

    def _prompt(self) -> str:
        if not self.fancy:
            return input("» ")
        try:
            from prompt_toolkit import PromptSession
            from prompt_toolkit.completion import WordCompleter
            from prompt_toolkit.history import InMemoryHistory
        except ImportError:  # pragma: no cover - a dependency; plain input() as a fallback
            return input("» ")
        if self._session is None:
            completer = WordCompleter(lambda: self.words(), ignore_case=True, WORD=True)
            self._session = PromptSession(history=InMemoryHistory(), completer=completer,
                                          complete_while_typing=False)
        return str(self._session.prompt("» "))


def _feed(answers_file: Path | None, answer: tuple[str, ...]) -> tuple[Iterator[str], bool]:
    if answer:
        return iter(answer), False
    if answers_file is not None:
        try:
            lines = answers_file.read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            raise InputError(f"cannot be read ({exc.strerror})", source=str(answers_file)) \
                from None
        return iter(lines), False
    interactive = sys.stdin.isatty()
    return Feed(interactive, fancy=sys.stdout.isatty()), interactive


def _describe(action: dict[str, Any]) -> str:
    """A taken-back answer in a few words."""
    words = [str(action.get("type", "?"))]
    for key in ("operative", "how", "target", "to", "damage", "amount", "feature"):
        if action.get(key) is not None:
            value = action[key]
            if isinstance(value, list):
                value = ",".join(f"{v:g}" for v in value)
            words.append(str(value))
    return "'" + " ".join(words) + "'"


def _catch_up_log(log_path: Path, game: Game, state: State, doc: dict[str, Any] | None = None,
                  *, rebuild: bool = False) -> str | None:
    """Make the event log describe the saved game again; returns a sentence when the log was
    changed in a way the player should hear about, ``None`` when it agreed (or only caught up).

    A log one step behind (killed between the two writes) gets the missing steps; one ahead
    gets an undo line. A log that disagrees with the save — another seed or game, an edited
    roll, damage — raises :class:`LogDisagrees` naming the first step that differs, unless
    ``rebuild``: then the old log is moved aside (never deleted) and a new one is written from
    the save, which is the truth.
    """
    log = EventLog(log_path)
    if not log_path.exists():
        log.create(log_header(game))
        for record in state.log:
            log.append(record)
        return f"The event log {log_path} was missing; it was rebuilt from the save."
    problem = None
    entries: list[dict[str, Any]] = []
    try:
        entries = log.read()
    except InputError as exc:
        problem = f"the log is damaged ({exc.line()})"
    if problem is None:
        recorded = (doc or {}).get("log")
        proven = False
        if isinstance(recorded, dict) and isinstance(recorded.get("size"), int):
            try:
                proven = file_digest(log_path, recorded["size"]) == recorded
            except OSError:
                proven = False
        if not proven:
            problem = compare_log(entries, doc or {"seed": game.seed,
                                                   "game_id": game_id(game.scenario.document,
                                                                      game.seed)}, state)
    if problem is not None:
        if not rebuild:
            raise LogDisagrees(f"the event log {log_path} disagrees with the save: {problem}")
        aside = set_aside(log_path, stamp())
        log.create(log_header(game))
        for record in state.log:
            log.append(record)
        return (f"The event log disagreed with the save ({problem}); it was moved aside to "
                f"{aside} and rebuilt from the save.")
    keep, missing = reconcile_log(entries[1:], state)
    if keep is not None:
        log.append(undo_marker(keep))
    for record in missing:
        log.append(record)
    return None


def load_save_doc(path: Path) -> tuple[dict[str, Any], Game, State]:
    """Read a save (migrated to the current schema), rebuild its game by replaying it and
    check the result against what the save recorded: a save that replays into a different
    game is refused, naming the first step that differs, and left untouched."""
    doc = load_json(path, kind=GAME_KIND, current_version=SCHEMA_VERSION,
                    migrations=MIGRATIONS)
    game, state = restore(doc, str(path))
    problem = verify(doc, state)
    if problem is not None:
        raise InputError(f"replaying this save gives a different game: {problem}. The save "
                         "is untouched; play it on with the versions that wrote it, or start "
                         "again with --new", source=str(path))
    return doc, game, state


def load_save(path: Path) -> tuple[Game, State]:
    """:func:`load_save_doc` without the document."""
    _doc, game, state = load_save_doc(path)
    return game, state


def check_log(session: Session, doc: dict[str, Any], *, rebuild: bool,
              interactive: bool) -> None:
    """Check the session's event log against its save before going on (see
    :func:`_catch_up_log`); on a terminal, a disagreeing log is offered for rebuilding,
    elsewhere it is one error line that names ``--rebuild-log``. Re-saves when the log
    changed, so the save's checksum covers it."""
    before = file_digest(session.log) if session.log.exists() else None
    try:
        note = _catch_up_log(session.log, session.game, session.state, doc, rebuild=rebuild)
    except LogDisagrees as exc:
        if not interactive:
            raise InputError(f"{exc.message}. The save is the truth: run again with "
                             "--rebuild-log to move this log aside and write it anew from the "
                             "save", source=str(session.save)) from None
        click.echo(f"{exc.message}.")
        if not click.confirm("Rebuild the log from the save (the old log is moved aside, not "
                             "deleted)?", default=True):
            raise InputError("the event log disagrees with the save; nothing was changed",
                             source=str(session.save)) from None
        note = _catch_up_log(session.log, session.game, session.state, doc, rebuild=True)
    if note:
        session.say(note)
    after = file_digest(session.log)
    if after != before or doc.get("log") != after:
        session.persist(None)


@click.command("play")
@click.argument("scenario", required=False, type=click.Path(path_type=Path))
@click.option("--resume", "resume", type=click.Path(path_type=Path),
              help="Continue a saved game.")
@click.option("--seed", type=int, default=None,
              help="Seed for the dice (default: the scenario's seed, or a new one).")
@click.option("--save", "save", type=click.Path(path_type=Path), default=None,
              help="Where to save (default saves/<scenario>-<seed>.json).")
@click.option("--new", "new", is_flag=True,
              help="Start SCENARIO afresh even if a game of it with this seed is saved: the "
                   "old save, backup and log are moved aside with a time stamp (not deleted).")
@click.option("--rebuild-log", "rebuild_log", is_flag=True,
              help="If the event log disagrees with the save, move the log aside and write it "
                   "anew from the save (the save is the truth).")
@click.option("--answers", "answers_file", type=click.Path(path_type=Path), default=None,
              help="Read answers from this file (one per line) instead of the keyboard.")
@click.option("--answer", "answer", multiple=True,
              help="An answer, as typed at the prompt (repeat for several).")
@click.option("--reveal-hidden", is_flag=True,
              help="DEBUG: show hidden counters' contents and orders. Spoils the game.")
@click.option("--json", "as_json", is_flag=True,
              help="Print prompts and records as JSON lines (for scripts).")
def play_command(scenario: Path | None, resume: Path | None, seed: int | None,
                 save: Path | None, new: bool, rebuild_log: bool, answers_file: Path | None,
                 answer: tuple[str, ...], reveal_hidden: bool, as_json: bool) -> None:
    """Play SCENARIO turn by turn (or --resume a save).

    An unfinished game of SCENARIO with the same seed is resumed, never overwritten; --new
    starts afresh and moves the old files aside. The game is locked for the whole session: a
    second terminal on it is refused at once.
    """
    if (scenario is None) == (resume is None):
        raise InputError("give a SCENARIO file, or --resume SAVE", source="play")
    if resume is not None and new:
        raise InputError("--new starts a SCENARIO afresh; it cannot go with --resume",
                         source="--new")
    if resume is not None:
        save_path, log_path = resume, log_for(resume)
        how = ("Start another with `solo-ops play SCENARIO --new` (this game's files are "
               "moved aside, not deleted) or with another --seed.")
        loaded = None
    else:
        assert scenario is not None
        loaded = load_scenario(scenario)
        seed = resolve_seed(seed if seed is not None else loaded.seed)
        save_path, log_path = _saves_for(scenario, save, seed)
        how = (f"Start another with `solo-ops play {scenario} --new` (this game's files are "
               "moved aside, not deleted) or with another --seed.")
    resuming = resume is not None or (save_path.exists() and not new)
    if resuming:
        found = read_json_document(save_path)
        snapshot = found.get("snapshot")
        if found.get("kind") == GAME_KIND and isinstance(snapshot, dict) \
                and snapshot.get("ended"):
            if as_json:
                click.echo(_json_line({"finished": True, "save": str(save_path),
                                       "result": snapshot.get("result")}, ensure_ascii=False))
            else:
                click.echo(finished_line(save_path, snapshot, how))
            return
    with game_lock(save_path):
        feed, interactive = _feed(answers_file, answer)
        if resuming:
            doc, game, state = load_save_doc(save_path)
            if loaded is not None and doc.get("game_id") != game_id(loaded.document, seed):
                raise InputError(
                    f"holds another game (an edited {scenario} or another scenario with seed "
                    f"{seed}); go on with it with `solo-ops play --resume {save_path}`, or "
                    "start this one with --new (the old files are moved aside) or --save OTHER",
                    source=str(save_path))
            session = Session(game, state, save_path, log_path, reveal=reveal_hidden,
                              as_json=as_json)
            check_log(session, doc, rebuild=rebuild_log, interactive=interactive)
            if resume is None:
                session.say(f"Resuming the unfinished game of {scenario} with seed "
                            f"{game.seed} saved in {save_path} (turn {state.turn}). To start "
                            "afresh instead: add --new (the old files are moved aside).")
            else:
                session.say(f"Resuming {game.scenario.name} from {save_path} "
                            f"(turn {state.turn}).")
        else:
            assert loaded is not None and seed is not None
            game, state = new_game(loaded, seed)
            session = Session(game, state, save_path, log_path, reveal=reveal_hidden,
                              as_json=as_json)
            moved = move_aside(save_path, log_path)
            if moved:
                session.say("The earlier game's files were moved aside: "
                            + ", ".join(str(p) for p in moved) + ".")
            EventLog(log_path).create(log_header(game))
            session.persist(state.log[0])
            session.say(f"{game.scenario.name} — {game.edition}, seed {game.seed}. Saving to "
                        f"{save_path}.")
            session.briefing()
            session.show(state.log[0])
        session.run(feed, interactive)


def _save_beside(log: Path) -> Path | None:
    """The save a log belongs to, by name: ``x.log.jsonl`` → ``x.json`` (if it exists)."""
    if not log.name.endswith(".log.jsonl"):
        return None
    save = log.with_name(log.name[: -len(".log.jsonl")] + ".json")
    return save if save.is_file() else None


def _check_against_save(log: Path, save: Path, records: list[dict[str, Any]]) -> None:
    """Refuse a log shorter than the one its save recorded (a truncated log)."""
    doc = load_json(save, kind=GAME_KIND, current_version=SCHEMA_VERSION,
                    migrations=MIGRATIONS)
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


@click.command("replay")
@click.argument("log", type=click.Path(path_type=Path))
@click.option("--save", "save", type=click.Path(path_type=Path), default=None,
              help="The game's save, to check the log's length and checksum against (default: "
                   "the save beside the log, if any).")
@click.option("--json", "as_json", is_flag=True, help="Print the final view as JSON.")
def replay_command(log: Path, save: Path | None, as_json: bool) -> None:
    """Re-run a game from its event LOG to the same final state, checking every step.

    A torn or truncated log, or steps whose numbers jump, are refused (exit 2); a step that
    comes out differently (an edited die roll, another version) is named (exit 1).
    """
    entries = EventLog(log).read(strict=True)
    if not entries or entries[0].get("kind") != LOG_KIND:
        raise InputError("not a solo-ops event log (no header line)", source=str(log))
    header, records = entries[0], effective_records(entries[1:])
    if not records:
        raise InputError("the log has no steps", source=str(log))
    for index, record in enumerate(records):
        if record.get("n") != index:
            raise InputError(f"is damaged: step {index} is missing (the next record is step "
                             f"{record.get('n')!r}; lines were removed or reordered)",
                             source=str(log))
    save = save if save is not None else _save_beside(log)
    if save is not None:
        _check_against_save(log, save, records)
    actions = [r["action"] for r in records[1:]]
    game, state = restore(header, str(log), actions)
    mismatch = None
    detail = ""
    for original, rebuilt in zip(records, state.log, strict=False):
        plain = json.loads(json.dumps(rebuilt))
        if original != plain:
            mismatch = original["n"]
            detail = record_difference(original, plain)
            break
    view = player_view(game, state)
    if as_json:
        emit_json({"steps": len(state.log), "identical": mismatch is None,
                   "first_difference": mismatch, "detail": detail or None,
                   "checked_against": None if save is None else str(save), "view": view})
    else:
        out = console()
        out.print(f"Replayed {len(state.log)} steps of {game.scenario.name}.", markup=False)
        if mismatch is None:
            out.print("Every step came out identical: same events, same dice.", markup=False)
            if save is None and not state.ended:
                out.print("(No save beside the log to check its length against: a log cut at "
                          "the end of a line looks like a game stopped there.)", markup=False)
        else:
            out.print(f"Step {mismatch} differs from the log: {detail}", markup=False)
        if state.result:
            out.print(f"Final result: {state.result['outcome']} {state.result['vp']}",
                      markup=False)
    if mismatch is not None:
        sys.exit(1)


commands = [play_command, replay_command]
