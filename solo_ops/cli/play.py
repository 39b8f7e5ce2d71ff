"""``solo-ops play`` and ``replay``: the turn-by-turn loop at the terminal.

The terminal is a front-end over :class:`solo_ops.session.table.GameTable`, the one way a game is
played at the table (the web page of ``solo-ops serve`` is the other front-end): this module
reads lines — from the keyboard (prompt_toolkit), a pipe, ``--answers FILE`` or ``--answer
TEXT`` options — and prints what happens; the table parses and checks each answer, proposes
relative moves and takes the ``yes``, steps the engine, saves, logs and takes back. Opening a
game (resume or start, the checks on the save and its log) is :mod:`solo_ops.io.opening`.
After every step the game is saved atomically and the step appended to the JSON-lines event
log, so killing the process loses at most the answer being typed; ``--resume SAVE`` continues
exactly where it stopped. A step that cannot be saved (a full disk) is taken back and the
player told so in one line.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click

from solo_ops.cli.common import (
    SEED,
    campaign_command,
    console,
    emit_json,
    not_text,
    resolve_seed,
)
from solo_ops.cli.compile import use_at_table
from solo_ops.cli.maps import draw_view
from solo_ops.core.errors import InputError, SaveError, clip
from solo_ops.core.limits import ANSWERS
from solo_ops.game.definition import Game
from solo_ops.game.state import PLAYER, State
from solo_ops.io import opening
from solo_ops.io.locks import game_lock
from solo_ops.io.reading import read_text
from solo_ops.rules.editions import turn_name
from solo_ops.session.opening import open_table, start_table, sync_log
from solo_ops.session.table import GameTable, Outcome
from solo_ops.session.words import not_saved
from solo_ops.view import answers
from solo_ops.view.player import player_view, summary_lines

HELP = answers.PLAYER_HELP
UNITS = click.Choice(["in", "cm"])
"""``--units``: how distances and points are shown and typed (overrides the scenario's)."""


def _json_line(data: object, **options: object) -> str:
    """One JSON line of ``--json`` output: strict JSON (no NaN), like every JSON solo-ops
    prints."""
    return json.dumps(data, allow_nan=False, **options)  # type: ignore[arg-type]


class Session:
    """The terminal at a :class:`GameTable`: reads the answers, prints the narration."""

    def __init__(self, table: GameTable, *, as_json: bool) -> None:
        self.table = table
        table.reveal = table.reveal or table.game.settings.reveal_hidden
        self.as_json = as_json
        self.out = console()
        self._asked: tuple[Any, ...] | None = None
        self._hinted: set[str] = set()  # prompt kinds whose answer hint was printed
        self._put_back: str | None = None  # a line typed at a yes/no question, to answer next
        self.unsaved: list[str] = []  # why each answer that could not be saved was refused
        self.go_on = f"solo-ops play --resume {table.save}"
        """The one command that goes on with this game (a campaign's mission: its own)."""
        self.refused_words: dict[str, str] = {}
        """What to say instead when an answer starting with one of these words is refused: a
        campaign's ``level`` / ``enemy`` typed once its mission has begun."""

    def refusal_words(self, line: str, message: str) -> str:
        """What the player hears when ``line`` is refused with ``message``: the message, or
        what :attr:`refused_words` says for the line's first word."""
        words = line.split()
        return (self.refused_words.get(words[0].lower()) if words else None) or message

    @property
    def game(self) -> Game:
        return self.table.game

    @property
    def state(self) -> State:
        return self.table.state

    @property
    def save(self) -> Path:
        return self.table.save

    @property
    def log(self) -> Path:
        return self.table.log

    def say(self, text: str) -> None:
        if not self.as_json:
            self.out.print(text, markup=False, highlight=False, soft_wrap=True)

    def show(self, record: dict[str, Any]) -> None:
        if self.as_json:
            click.echo(_json_line({"record": self.table.shown(record)}, ensure_ascii=False))
            return
        for line in self.table.lines_of(record):
            self.say(line)
            if line.startswith("══") and "Battle over" not in line:  # a new round: effects
                self.remind()
        if self.table.reveal:
            for event in record["events"]:
                if event.get("secret"):
                    self.say(f"  [debug] {event}")

    def briefing(self) -> None:
        """The mission in words, and the Pariah Nexus effects in force, at the start."""
        for line in self.table.briefing():
            self.say(f"  {line}")

    def remind(self) -> None:
        """One line naming the Pariah Nexus effects in force (every battle round)."""
        effects = self.game.scenario.mission.effect_texts(self.game.scenario.board.killzone)
        if effects:
            self.say("  In force: " + "; ".join(title for title, _ in effects) + ".")

    def run(self, feed: Iterator[str], interactive: bool) -> int:
        """Ask and answer until the game ends or the answers run out (0 either way)."""
        if isinstance(feed, Feed):
            feed.words = self.completions
        while True:
            prompt = self.table.prompt()
            if prompt.kind == "ended":
                self.summary()
                return 0
            if prompt.kind == "engine":
                try:
                    record = self.table.engine_step()
                except SaveError as exc:
                    raise SaveError(not_saved(exc, "The game's next step")) from None
                self.show(record)
                continue
            self.ask(prompt)
            line = self._next(feed, interactive)
            if line is None:
                return self._out_of_answers()
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            started = time.process_time()
            outcome = self.table.answer(None, line, then=False)
            if outcome.meta is not None:
                spend(feed, {"undo": "undos", "map": "maps"}.get(outcome.meta, "meta"),
                      time.process_time() - started)
                if self.meta(line, outcome):
                    return 0
                continue
            if outcome.confirm is not None:
                agreed = self.confirm(outcome, feed, interactive)
                if agreed is None:
                    return self._out_of_answers()
                if agreed.declined:
                    spend(feed, "refused", time.process_time() - started)
                    continue
                outcome = agreed
            if outcome.ok:
                played(feed)
            else:
                spend(feed, "refused", time.process_time() - started)
            self.report(outcome, line, interactive)

    def report(self, outcome: Outcome, line: str, interactive: bool) -> None:
        """What became of an answer: the refusal in one line, or the steps it made."""
        for record in outcome.records:
            self.show(record)
        if outcome.ok and outcome.refusal == "save":  # an engine step after it: stop here
            raise SaveError(outcome.message)
        if outcome.refusal == "save":
            self.unsaved.append(outcome.message)
        if not outcome.ok:
            self.say(f"✗ {self.refusal_words(line, outcome.message)}")
            if not interactive and self.as_json:
                click.echo(_json_line({"refused": outcome.message, "answer": line}))

    def _next(self, feed: Iterator[str], interactive: bool) -> str | None:
        """The next typed line (a line put back by :meth:`confirm` first); None at the end."""
        if self._put_back is not None:
            line, self._put_back = self._put_back, None
            return line
        try:
            line = next(feed)
            while not interactive and (not line.strip() or line.lstrip().startswith("#")):
                line = next(feed)  # read on: a blank line or a comment asks nothing again
            while not_text(line) is not None:  # bytes that are not UTF-8 (a terminal's)
                self.say(f"✗ {not_text(line)} is not UTF-8 text: type it again")
                line = next(feed)
        except StopIteration:
            return None
        if not interactive and not self.as_json:
            self.say(f"> {line}")
        return line

    def check_saved(self) -> None:
        """A :class:`SaveError` (exit status 2) when an answer of this session could not be
        saved (a full disk): the game goes on from its last good save, but a script must not
        take the session for a success."""
        if self.unsaved:
            count = len(self.unsaved)
            raise SaveError(f"{count} answer{'s' if count != 1 else ''} could not be saved "
                            f"(the last: {self.unsaved[-1]}); the game is saved up to the last "
                            f"step that was, in {self.save}")

    def _out_of_answers(self) -> int:
        self.say(f"No more answers: the game is saved in {self.save}. Continue with "
                 f"`{self.go_on}`.")
        return 0

    def confirm(self, proposed: Outcome, feed: Iterator[str], interactive: bool
                ) -> Outcome | None:
        """Show a computed move and ask for a yes; the table's outcome of the reply (declined
        for anything but yes: an answer other than no is then put back as the next answer);
        None when the answers end."""
        proposal = proposed.proposal
        assert proposal is not None
        if self.as_json:
            click.echo(_json_line({"confirm": {**proposal.action,
                                               "cost": round(proposal.cost, 2),
                                               "route": [list(p) for p in proposal.route]}},
                                  ensure_ascii=False))
        self.say(f"  → {self.table.proposal_words(proposal)}")
        self.say("? Do it? (yes / no)")
        line = self._next(feed, interactive)
        if line is None:
            return None
        outcome = self.table.answer(None, line, then=False)
        if outcome.declined:
            self.say(outcome.message)
            if outcome.again:
                self._put_back = line
        return outcome

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
            doc = {**prompt.to_dict(), "step": len(self.state.log)}  # as the page's prompt
            click.echo(_json_line({"prompt": doc}, ensure_ascii=False))
            return
        key = (len(self.state.log), prompt.kind, prompt.operative)
        again = key == self._asked
        self._asked = key
        self.say("")
        self.say(f"? {prompt.text}")
        if again:
            return  # asked again after a refusal or a meta answer: the options were just shown
        if prompt.options and prompt.kind == "activate":
            passing = ("   (or pass: the rest hold their fire)" if prompt.data.get("pass")
                       else "")
            self.say(f"  ready: {', '.join(prompt.options)}{passing}")
        elif prompt.options and prompt.kind not in self._hinted:
            self._hinted.add(prompt.kind)  # the answer hint once per kind of prompt
            self.say(f"  answers: {' | '.join(prompt.options)}   (help, status, map FILE, "
                     "undo, quit)")

    def meta(self, line: str, outcome: Outcome) -> bool:
        """Print what a meta word answered (the table did it; ``map`` is drawn here); True
        when the word ends the session (``quit``)."""
        head = outcome.meta
        if head == "map":
            words = line.split()
            if len(words) != 2:
                self.say("✗ map needs a file name: map board.png")
            else:
                try:
                    draw_view(self.game, self.state, Path(words[1]), reveal=self.table.reveal)
                    self.say(f"Map drawn to {words[1]}.")
                except (InputError, SaveError) as exc:  # a bad name: the game goes on
                    self.say(f"✗ {exc}")
                except OSError as exc:  # a name the system refuses (too long, /proc...)
                    self.say(f"✗ {clip(words[1])}: cannot be drawn there "
                             f"({exc.strerror or type(exc).__name__}); choose another file")
            return False
        if outcome.refusal == "save":
            self.unsaved.append(outcome.message)
        if head in ("quit", "exit"):  # every step is saved already: quit even if this fails
            done = "Saved to" if outcome.ok else f"✗ {outcome.message} Every step so far is in"
            self.say(f"{done} {self.save}. Continue with `{self.go_on}`.")
            return True
        if not outcome.ok:
            self.say(f"✗ {self.refusal_words(line, outcome.message)}")
            return False
        for text in outcome.message.split("\n"):
            self.say(text)
        return False

    def status(self) -> None:
        for line in self.table.status_lines():
            self.say(line)

    def summary(self) -> None:
        result = self.state.result or {}
        if self.as_json:
            click.echo(_json_line({"result": result,
                                   "view": player_view(self.game, self.state,
                                                       reveal=self.table.reveal)}))
            return
        self.say("")
        self.say("══ Summary ══")
        for line in summary_lines(player_view(self.game, self.state, reveal=self.table.reveal)):
            self.say(line)
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
        self.lines = 0

    def __iter__(self) -> Iterator[str]:
        return self

    def __next__(self) -> str:
        if not self.interactive:  # bytes, decoded here: a line that is not UTF-8 is named
            stream = getattr(sys.stdin, "buffer", None)
            raw = stream.readline() if stream is not None else sys.stdin.readline()
            if not raw:
                raise StopIteration
            self.lines += 1
            if isinstance(raw, str):
                return raw.rstrip("\n")
            try:
                return raw.decode("utf-8").rstrip("\r\n")
            except UnicodeDecodeError:
                raise InputError(f"line {self.lines} is not UTF-8 text",
                                 source="the answers piped in") from None
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


LIMITED = {"meta": "help, status or save answers", "undos": "undo answers",
           "maps": "map answers", "in_a_row": "answers in a row that play nothing"}
"""The answers :class:`Answers` counts, as its limit's line names them."""


class Answers:
    """Answers no one types (a file, the ``--answer`` options, a pipe), within
    :data:`~solo_ops.core.limits.ANSWERS`: lines are counted as they are read, and the session
    counts the answers that play nothing (:meth:`spend`) and those that play (:meth:`played`);
    past a limit the answers stop with one :class:`InputError` line naming the source and the
    line (the steps before are saved)."""

    def __init__(self, lines: Iterator[str], source: str) -> None:
        self._lines = lines
        self.source = source
        self.read = 0
        self.spent: dict[str, int] = {"meta": 0, "undos": 0, "maps": 0, "in_a_row": 0}
        self.idle_cpu = 0.0

    def __iter__(self) -> Iterator[str]:
        return self

    def __next__(self) -> str:
        line = next(self._lines)
        self.read += 1
        if self.read > ANSWERS.lines:
            self._stop(f"more than {ANSWERS.lines:,} lines")
        return line

    def spend(self, kind: str, cpu: float = 0.0) -> None:
        """Count one answer that played nothing: ``kind`` is ``meta``, ``undos``, ``maps`` or
        ``refused`` (a refusal, a declined move); ``cpu`` the seconds of CPU it took."""
        self.idle_cpu += cpu
        for key in {"in_a_row", kind} & set(self.spent):
            self.spent[key] += 1
            if self.spent[key] > getattr(ANSWERS, key):
                self._stop(f"more than {getattr(ANSWERS, key)} {LIMITED[key]}")
        if self.idle_cpu > ANSWERS.idle_cpu:
            self._stop(f"answers that play nothing to take more than {ANSWERS.idle_cpu:g} s "
                       "of CPU")

    def played(self) -> None:
        """An answer played a step: the answers that played nothing before it are no longer
        in a row."""
        self.spent["in_a_row"] = 0

    def _stop(self, why: str) -> None:
        raise InputError(f"the answers stop at line {self.read}: they ask for {why}, the most "
                         "a file of answers may (every step before it is saved)",
                         source=self.source)


def _feed(answers_file: Path | None, answer: tuple[str, ...]) -> tuple[Iterator[str], bool]:
    if answer:
        if len(answer) > ANSWERS.lines:
            raise InputError(f"{len(answer):,} answers; at most {ANSWERS.lines:,}",
                             source="--answer")
        return Answers(iter(answer), "--answer"), False
    if answers_file is not None:  # a regular file, bounded, UTF-8 (io.reading)
        lines = read_text(answers_file, "answers").splitlines()
        if len(lines) > ANSWERS.lines:
            raise InputError(f"has {len(lines):,} lines; an answers file has at most "
                             f"{ANSWERS.lines:,}", source=str(answers_file))
        return Answers(iter(lines), str(answers_file)), False
    interactive = sys.stdin.isatty()
    if not interactive:
        return Answers(Feed(False), "the answers piped in"), False
    return Feed(interactive, fancy=sys.stdout.isatty()), interactive


def spend(feed: Iterator[str], kind: str, cpu: float = 0.0) -> None:
    """Count an answer that played nothing against the feed's limits (:class:`Answers`; a
    person at the keyboard has none)."""
    if isinstance(feed, Answers):
        feed.spend(kind, cpu)


def played(feed: Iterator[str]) -> None:
    """An answer played a step (:meth:`Answers.played`)."""
    if isinstance(feed, Answers):
        feed.played()


def check_log(session: Session, doc: dict[str, Any], *, rebuild: bool,
              interactive: bool) -> None:
    """Check the session's event log against its save before going on
    (:func:`solo_ops.session.opening.sync_log`); on a terminal, a disagreeing log is offered for
    rebuilding, elsewhere it is one error line that names ``--rebuild-log``."""
    try:
        note = sync_log(session.table, doc, rebuild=rebuild)
    except opening.LogDisagrees as exc:
        if not interactive:
            raise InputError(f"{exc.message}. The save is the truth: run again with "
                             "--rebuild-log to move this log aside and write it anew from the "
                             "save", source=str(session.save)) from None
        click.echo(f"{exc.message}.")
        if not click.confirm("Rebuild the log from the save (the old log is moved aside, not "
                             "deleted)?", default=True):
            raise InputError("the event log disagrees with the save; nothing was changed",
                             source=str(session.save)) from None
        note = sync_log(session.table, doc, rebuild=True)
    if note:
        session.say(note)


@click.command("play")
@click.argument("scenario", required=False, type=click.Path(path_type=Path))
@click.option("--resume", "resume", type=click.Path(path_type=Path),
              help="Continue a saved game.")
@click.option("--seed", type=SEED, default=None,
              help="Seed for the dice (default: the scenario's seed, or a new secret one). A "
                   "seed you choose reproduces a game; it does not keep it secret.")
@click.option("--save", "save", type=click.Path(path_type=Path), default=None,
              help="Where to save (default saves/<scenario>-<id>.json).")
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
@click.option("--units", "units", type=UNITS, default=None,
              help="Show and read distances in inches or centimetres (default: the scenario's "
                   "units setting). Only the display changes: the save is the same.")
@click.option("--reveal-hidden", is_flag=True,
              help="DEBUG: show hidden counters' contents and orders. Spoils the game.")
@click.option("--json", "as_json", is_flag=True,
              help="Print prompts and records as JSON lines (for scripts).")
def play_command(scenario: Path | None, resume: Path | None, seed: int | None,
                 save: Path | None, new: bool, rebuild_log: bool, answers_file: Path | None,
                 answer: tuple[str, ...], units: str | None, reveal_hidden: bool,
                 as_json: bool) -> None:
    """Play SCENARIO turn by turn (or --resume a save).

    An unfinished game of SCENARIO with the same seed is resumed, never overwritten; --new
    starts afresh and moves the old files aside. The game is locked for the whole session: a
    second terminal on it is refused at once.
    """
    p = opening.plan(scenario, resume, seed, save, new, command="play", fresh_seed=resolve_seed)
    mission = opening.campaign_mission(p.save) if p.resuming else None
    if mission is not None:  # one game, one log: a campaign's mission goes on in the campaign
        _through_campaign(mission, p.save, answers_file, answer, units, reveal_hidden,
                          rebuild_log, as_json)
        return
    if p.resuming:
        snapshot = opening.finished_snapshot(p.save)
        if snapshot is not None:
            if as_json:
                click.echo(_json_line({"finished": True, "save": str(p.save),
                                       "result": snapshot.get("result")}, ensure_ascii=False))
            else:
                click.echo(opening.finished_line(p.save, snapshot, p.how_to_start))
            return
    with game_lock(p.save):
        feed, interactive = _feed(answers_file, answer)
        use_at_table()
        if p.resuming:
            table, doc = open_table(p, reveal=reveal_hidden, units=units)
            session = Session(table, as_json=as_json)
            check_log(session, doc, rebuild=rebuild_log, interactive=interactive)
            if table.game.notice:  # it goes on from its checkpoint (io.opening.load_save_doc)
                session.say(table.game.notice)
            if resume is None:
                session.say(f"Resuming the unfinished game of {scenario} saved in {p.save} "
                            f"({turn_name(table.state.edition)} {table.state.turn}). To start "
                            "afresh instead: add --new "
                            "(the old files are moved aside).")
            else:
                session.say(f"Resuming {table.game.scenario.name} from {p.save} "
                            f"({turn_name(table.state.edition)} {table.state.turn}).")
            for line in table.paused_story():  # at a re-roll question: what led to it
                session.say(line)
        else:
            assert p.scenario is not None and p.seed is not None
            table, notes = start_table(p.scenario, p.seed, p.save, p.log,
                                               reveal=reveal_hidden, units=units)
            session = Session(table, as_json=as_json)
            for note in notes:
                session.say(note)
            game = table.game
            session.say(f"{game.scenario.name} — {game.edition}. Saving to {p.save}.")
            session.briefing()
            session.show(table.state.log[0])
        session.run(feed, interactive)
        session.check_saved()


def _through_campaign(mission: tuple[str, Path, int], save: Path, answers_file: Path | None,
                      answer: tuple[str, ...], units: str | None, reveal_hidden: bool,
                      rebuild_log: bool, as_json: bool) -> None:
    """``play --resume`` on a campaign's mission: ``campaign play`` goes on with it (its own
    event log, and the mission recorded in the campaign when it ends)."""
    name, folder, number = mission
    go_on = campaign_command(name, folder)
    from solo_ops.cli.campaign_files import load_campaign

    recorded = load_campaign(folder / f"{name}.json", name).missions_played
    if number <= recorded:  # that mission is over: nothing to go on with, nothing set up
        show = go_on.replace(" play ", " show ", 1)
        line = (f"{save} is mission {number} of campaign {name}, which has ended and is "
                f"recorded; nothing was changed (`{show}` tells the campaign so far, "
                f"`{go_on}` goes on to mission {recorded + 1})")
        if as_json:
            click.echo(_json_line({"finished": True, "save": str(save), "campaign": name,
                                   "mission": number}, ensure_ascii=False))
        else:
            click.echo(line)
        return
    if as_json:
        raise InputError(f"is mission {number} of campaign {name}: go on with it with "
                         f"`{go_on}` (--json is not offered there)", source=str(save))
    click.echo(f"{save} is mission {number} of campaign {name}: going on through the "
               f"campaign (`{go_on}`), so the mission is recorded there when it ends.")
    ctx = click.get_current_context()
    group = ctx.find_root().command
    assert isinstance(group, click.Group)
    campaign = group.get_command(ctx, "campaign")
    play = campaign.get_command(ctx, "play") if isinstance(campaign, click.Group) else None
    assert play is not None
    ctx.invoke(play, name=name, saves=folder, answers_file=answers_file, answer=answer,
               units=units, reveal_hidden=reveal_hidden, rebuild_log=rebuild_log)


@click.command("replay")
@click.argument("log", type=click.Path(path_type=Path))
@click.option("--save", "save", type=click.Path(path_type=Path), default=None,
              help="The game's save, whose hash chain proves every line of the log (default: "
                   "the save beside the log, if any).")
@click.option("--json", "as_json", is_flag=True, help="Print the final view as JSON.")
def replay_command(log: Path, save: Path | None, as_json: bool) -> None:
    """Re-run a game from its event LOG to the same final state, checking every line.

    Every line is checked against the save's record of it (the header, the set-up, every step,
    undone ones too, undo and base lines) and every step against the rules, from the seed. A
    torn or truncated log, or steps whose numbers jump, are refused (exit 2); the first line
    that differs (an edited die roll, an added base line, another version) is named (exit 1).
    """
    from solo_ops.io.replay import check_log

    done = check_log(log, save)
    game, state, diff = done.game, done.state, done.difference
    view = player_view(game, state)
    where = None if diff is None else diff_words(diff)
    if as_json:
        emit_json({"steps": len(state.log), "identical": diff is None,
                   "first_difference": None if diff is None else diff.step,
                   "line": None if diff is None else diff.index + 1,
                   "detail": None if diff is None else diff.detail,
                   "checked_against": None if done.save is None else str(done.save),
                   "proven": done.proven, "view": view})
    else:
        out = console()
        out.print(f"Replayed {len(state.log)} steps of {game.scenario.name}.", markup=False)
        if diff is None:
            out.print("Every step came out identical: same events, same dice.", markup=False)
            if done.proven:
                out.print(f"Every line is the one its save {done.save} recorded.",
                          markup=False)
            elif done.save is None:
                looked = " or ".join(p.name for p in opening.saves_beside(log))
                out.print(f"(No save beside the log{f' ({looked})' if looked else ''} to "
                          "check it against: the dice and the rules agree with it, but only "
                          "the save proves it is the log written at the table, whole; "
                          "--save SAVE names it.)", markup=False)
        else:
            out.print(f"{where} differs from the log: {diff.detail}", markup=False)
        if state.result:
            out.print(f"Final result: {state.result['outcome']} {state.result['vp']}",
                      markup=False)
    if diff is not None:
        sys.exit(1)


def diff_words(diff: Any) -> str:
    """``Step 5 (line 7)``, ``Step 5 (undone; line 9)`` or ``Line 1 (the header)``: where a
    replay found its first difference."""
    if diff.step is not None:
        return f"Step {diff.step} ({'undone; ' if diff.undone else ''}line {diff.index + 1})"
    return f"Line {diff.index + 1}{' (the header)' if diff.index == 0 else ''}"


commands = [play_command, replay_command]
