"""One game at the table, whatever shows it: the terminal, the web page or a script.

This is the one way a game is played: ``solo-ops play`` and ``campaign play`` (the terminal
front-end :class:`solo_ops.cli.play.Session`) and ``solo-ops serve`` (:mod:`solo_ops.web.app`)
all answer through it; opening a game (resume or start) is :mod:`solo_ops.io.opening`.

A :class:`GameTable` holds a game and its state, its save and event log, and a lock so that
several callers (the web server's threads, one per request) take turns. It does what a playing
session does between the keyboard and the engine, with no printing and no input:

* :meth:`GameTable.advance` runs the engine's steps until a player has to answer (or the game
  ends), saving and logging each one;
* :meth:`GameTable.answer` takes one typed answer from a named player — parsed by
  :mod:`solo_ops.view.answers` exactly as at the terminal, ids matched and relative moves
  proposed by :mod:`solo_ops.game.intent`, applied with :func:`~solo_ops.game.engine.step` — and
  returns whether it was taken, the reason when it was not (the terminal's words), and the new
  records; a relative move (``move kell to obj-2``) is proposed and needs a ``yes``;
* :meth:`GameTable.undo` takes back the last answer, as the terminal's ``undo`` does;
* :meth:`GameTable.view` and :meth:`GameTable.shown` give only what the players may see
  (:mod:`solo_ops.view.player`): everything a user interface shows is built from them.

Its sentences (a proposed move, ``status``, the briefing, a refusal to save) are
:mod:`solo_ops.session.words`'.

Saving: the save is written with :func:`~solo_ops.io.persistence.save_json` (recording the
checksum the log will have), then the record is appended to the
:class:`~solo_ops.io.event_log.EventLog`. So a game played here goes on with
``solo-ops play --resume SAVE`` and the other way round, and ``solo-ops replay`` checks it.
A write that fails (a full disk) never leaves the game in memory ahead of its save: the files
are put back as they were, the game is rebuilt from the last good save's actions, and the
answer is refused with one ``Not saved: …`` line (``refusal="save"``).
The operating-system lock on the save (:func:`~solo_ops.io.locks.game_lock`) is taken by
the command that opens the table, for as long as it runs.
"""

from __future__ import annotations

import copy
import os
import threading
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from solo_ops.core.errors import InputError, RuleError, SaveError
from solo_ops.game import actions, intent, undo_points
from solo_ops.game.definition import Game, Prompt
from solo_ops.game.engine import pending, step
from solo_ops.game.events import PAUSES
from solo_ops.game.state import State
from solo_ops.game.undo_points import UndoPoints
from solo_ops.io.event_log import EventLog, file_digest, log_line
from solo_ops.io.log_chain import LogChain
from solo_ops.io.persistence import save_json
from solo_ops.io.savegame import (
    actions_of,
    base_steps,
    can_undo,
    game_document,
    game_header,
    log_header,
    restore,
    undo,
    undo_marker,
)
from solo_ops.io.writing import backup_path
from solo_ops.session import links as table_links
from solo_ops.session import words
from solo_ops.view import answers, narrate
from solo_ops.view.player import player_record, player_view

YES = ("y", "yes", "ok", "do it")
"""The answers that make a proposed move (the whole answer, any case)."""
NO = ("", "n", "no")
"""The answers that only decline a proposed move; anything else declines it and is then taken
as the next answer."""
ACT_FILL = ("move", "shoot", "fight", "carry", "evacuate", "ready", "done")
"""Actions that name the active operative when the answer leaves it out (as the terminal)."""


@dataclass
class Outcome:
    """What became of one answer: ``ok`` (taken), ``message`` (the reason when refused, or what
    a meta word answered), the new raw records (show them through :meth:`GameTable.shown`),
    ``undone_to`` (after an undo: how many records are kept), ``confirm`` (a proposed move
    waiting for ``yes``, with ``proposal`` the computed move it came from), ``meta`` (the meta
    word handled, if any), ``refusal`` (the kind of refusal: ``rule``, ``turn`` for another
    player's prompt, ``ended``, ``save`` when the game could not be saved), ``declined`` (the
    answer declined a proposed move; ``again``: it is to be taken as the next answer too) and
    ``errno`` (the operating system's error number when saving failed). ``refusal`` is
    ``stale`` when the answer named a step that is no longer the current one (a double tap:
    the question was already answered)."""

    ok: bool
    message: str = ""
    records: list[dict[str, Any]] = field(default_factory=list)
    undone_to: int | None = None
    confirm: dict[str, Any] | None = None
    proposal: intent.Proposal | None = None
    meta: str | None = None
    refusal: str | None = None
    declined: bool = False
    again: bool = False
    errno: int | None = None


@dataclass
class _Proposal:
    player: str | None
    at_step: int
    actions: list[dict[str, Any]]  # the move, then what follows it (``evacuate``)


class GameTable:
    """A game being played, its save and log, shared by every screen that shows it (see the
    module docstring). Every public method holds :attr:`lock` while it runs.

    ``units`` (``in`` or ``cm``) overrides the scenario's ``units`` setting for what is shown
    and typed (``--units``); the save keeps the scenario as it is."""

    def __init__(self, game: Game, state: State, save: Path, log: Path, *,
                 reveal: bool = False, units: str | None = None) -> None:
        self.units = units
        self.save, self.log = Path(save), Path(log)
        self.reveal = reveal
        self.lock = threading.RLock()
        self._proposal: _Proposal | None = None
        self._lines: dict[int, list[str]] = {}  # narration of each record, as it happened
        self._saved = actions_of(state)  # the actions of the last good save
        self.chain = LogChain()
        """The hash chain of the event log as written so far (its proof in the save); set by
        :meth:`start` and by whoever opens a saved game (``session.opening.sync_log``)."""
        self._set(game, state)

    def _set(self, game: Game, state: State) -> None:
        """Put ``game`` and ``state`` on the table (the ``units`` override applied)."""
        if self.units is not None and game.settings.units != self.units:
            game.scenario = replace(game.scenario,
                                    settings=replace(game.settings, units=self.units))
        self.game, self.state = game, state

    # -- the game -------------------------------------------------------------------------------
    @property
    def players(self) -> list[str]:
        """The players' names in the scenario's order (one for a solo game)."""
        return [squad.player for squad in self.game.scenario.squads]

    def prompt(self) -> Prompt:
        """What the game needs next."""
        with self.lock:
            return pending(self.game, self.state)

    def step_now(self) -> int:
        """The current step's number: how many records the game has. Every prompt carries it
        and an answer may name it, so an answer meant for a question already answered (a
        double tap, a page a moment behind) is refused instead of answering the next one."""
        with self.lock:
            return len(self.state.log)

    def prompt_doc(self) -> dict[str, Any]:
        """The current prompt as ``play --json`` and the page show it: the prompt's fields and
        its ``step`` (:meth:`step_now`)."""
        with self.lock:
            return {**pending(self.game, self.state).to_dict(), "step": len(self.state.log)}

    # -- links ----------------------------------------------------------------------------------
    def ensure_links(self) -> bool:
        """Make the game's links (:mod:`solo_ops.session.links`) if it has none, or a link
        for a player who has none, and save them at once; whether anything was made."""
        with self.lock:
            made_links, made = table_links.ensure(self.game.links, self.players)
            if made:
                self.game.links = made_links
                self.persist(None)
            return made

    def reissue_link(self, name: str) -> None:
        """A new token for ``name`` (a player or ``host``), saved at once: the old link stops
        working. Raises :class:`InputError` for a name with no link."""
        with self.lock:
            self.ensure_links()
            assert self.game.links is not None
            try:
                self.game.links = table_links.reissue(self.game.links, name)
            except KeyError:
                raise InputError(f"no player {name!r} in this game (players: "
                                 f"{', '.join(self.players)}, or host)",
                                 source="--new-link") from None
            self.persist(None)

    def start(self) -> None:
        """Write a new game's first files: the log header, then the set-up record."""
        with self.lock:
            header = log_header(self.game)
            EventLog(self.log).create(header)
            self.chain = LogChain().then(log_line(header, self.log))
            self.persist(self.state.log[0])

    def persist(self, record: dict[str, Any] | None, *,
                log_entry: dict[str, Any] | None = None) -> None:
        """Save the game, then append ``record`` (or ``log_entry``, an undo line) to the event
        log. The save records the checksum the log has after the append, so a kill between
        the two leaves the log one line behind, which resuming appends again (byte for byte
        the same).

        When either write fails (a full disk, a folder made read-only) the files are left as
        they were before this step — a save already replaced is put back from its ``.bak`` —
        and the game in memory is taken back to the last good save, then the
        :class:`SaveError` is raised: the game never runs ahead of its save."""
        with self.lock:
            entry = record if record is not None else log_entry
            line = log_line(entry, self.log) if entry is not None else b""
            digest = file_digest(self.log, then=line, missing_ok=True)
            chain = self.chain.then(line) if line else self.chain
            document = game_document(self.game, self.state, digest, chain)
            try:
                save_json(self.save, document)
            except SaveError:
                self._take_back()
                raise
            if entry is not None:
                try:
                    EventLog(self.log).append(entry)
                except SaveError:
                    self._put_back_save()
                    self._take_back()
                    raise
            self._saved = document["actions"]
            self.chain = chain

    def _put_back_save(self) -> None:
        """The save as it was before the step whose log line could not be written (its
        ``.bak``, renamed back: no new space needed)."""
        bak = backup_path(self.save)
        if bak.exists():
            try:
                os.replace(bak, self.save)
            except OSError:  # pragma: no cover - the log catches up when the game is resumed
                pass

    def _take_back(self) -> None:
        """Rebuild the game in memory from the actions of the last good save (by replay)."""
        game, state = restore(game_header(self.game), str(self.save), self._saved,
                              like=self.game)
        self._proposal = None
        for n in [n for n in self._lines if n >= len(state.log)]:
            del self._lines[n]
        self._set(game, state)

    def advance(self) -> list[dict[str, Any]]:
        """Run the engine's steps until a player must answer or the game ends; each step is
        saved and logged. Returns the new records (raw: show them through :meth:`shown`).
        A step that cannot be saved raises :class:`SaveError` with the game taken back."""
        out: list[dict[str, Any]] = []
        with self.lock:
            while pending(self.game, self.state).kind == "engine":
                out.append(self.engine_step())
        return out

    def engine_step(self) -> dict[str, Any]:
        """One engine step (the enemy's or the game's own), saved and logged; its record."""
        with self.lock:
            record = step(self.game, self.state, {"type": "engine"})
            self.persist(record)
            self._narrate(record)
            return record

    # -- answers --------------------------------------------------------------------------------
    def answer(self, player: str | None, text: str, *, then: bool = True,
               step: int | None = None) -> Outcome:
        """One answer typed by ``player`` (None: whoever is asked, as at a single terminal).

        ``step`` (from the prompt the answer was given to, :meth:`prompt_doc`) must be the
        current step's number, or the answer is refused as already answered
        (``refusal="stale"``) and nothing changes; without it the answer is for whatever is
        asked now (the terminal's way).

        Meta words work as at the terminal (``help``, ``status``, ``undo``, ``save``; ``map``
        and ``quit`` are left to the caller, ``meta`` says which). Anything else must come from
        the player whose prompt it is; it is parsed, checked and applied, then the engine runs
        on to the next prompt. The game is unchanged when the answer is refused.

        After a proposed move, ``yes`` makes it; anything else declines it (``Not moved.``) and,
        unless it is a plain ``no``, is the next answer: taken here at once when ``then``, left
        to the caller otherwise (``again`` says so: the terminal asks its question first)."""
        line = text.strip()
        with self.lock:
            try:
                self.advance()
            except SaveError as exc:
                return self._failed(exc, "The game's next step")
            if step is not None and step != len(self.state.log):
                return Outcome(False, f"already answered: that question (step {step}) has been "
                               f"answered; the game is at step {len(self.state.log)} now",
                               refusal="stale")
            proposal, self._proposal = self._proposal, None
            if proposal is not None and proposal.at_step == len(self.state.log) \
                    and proposal.player == player:
                word = line.lower()
                if word in YES:
                    return self._apply(*proposal.actions)
                declined = Outcome(True, "Not moved.", declined=True)
                if word in NO:
                    return declined
                if not then:
                    declined.again = True
                    return declined
                rest = self._answer(player, line)
                rest.message = "Not moved." + (f"\n{rest.message}" if rest.message else "")
                rest.declined = True
                return rest
            if proposal is not None and proposal.at_step == len(self.state.log):
                self._proposal = proposal  # another player's words leave it standing
            return self._answer(player, line)

    def _answer(self, player: str | None, line: str) -> Outcome:
        prompt = pending(self.game, self.state)
        if not line or line.startswith("#"):
            return Outcome(False, "type an answer, or 'help'", refusal="rule")
        head = line.split()[0].lower()
        if head in answers.META:
            return self._meta(player, line, head)
        if prompt.kind == "ended":
            return Outcome(False, "The battle is over.", refusal="ended")
        if player is not None and prompt.player is not None and player != prompt.player:
            return Outcome(False, f"It is {prompt.player}'s turn to answer: waiting for "
                           f"{prompt.player}.", refusal="turn")
        self._proposal = None
        try:
            action = self.understand(line, prompt)
            found = intent.proposal_for(self.game, self.state, action)
            if found is not None:
                concrete = {**found.action, "operative": action["operative"]}
                # the engine's own checks first, on a copy: never ask yes to a refusal
                refused = self.refusal(concrete, *found.then)
                if refused is not None:
                    if found.relation != "nearest":
                        raise RuleError(refused)
                    raise RuleError(f"At {found.ref} {found.blocked_by}; the nearest point "
                                    f"where its base fits is {found.to[0]:g},{found.to[1]:g}, "
                                    f"but {refused}")
                self._proposal = _Proposal(player, len(self.state.log),
                                           [concrete, *found.then])
                return Outcome(True, f"{self.proposal_words(found)} Do it? (yes / no)",
                               confirm=concrete, proposal=found)
        except RuleError as exc:
            return Outcome(False, str(exc), refusal="rule")
        return self._apply(action)

    def refusal(self, *actions: dict[str, Any]) -> str | None:
        """Why the engine would refuse ``actions`` now (taken in turn: a proposed move and what
        follows it), or None when it would take them: the engine's own
        :func:`~solo_ops.game.engine.step` run on a copy of the state (the game and its save
        untouched), so a preview or a proposal asks exactly the question the answer will."""
        with self.lock:
            state = self.state
            trial = copy.deepcopy(state, memo={id(state.log): list(state.log)})
            kept = self.game.cp_plans  # a paused step's plans, for the real answer
            try:
                for action in actions:
                    step(self.game, trial, action)
            except RuleError as exc:
                return str(exc)
            finally:
                self.game.cp_plans = kept
            return None

    def refusal_of(self, line: str) -> str | None:
        """Why the game would refuse the typed answer ``line`` now (None: it would take it),
        parsed and matched as :meth:`answer` does, then :meth:`refusal`."""
        with self.lock:
            try:
                action = self.understand(line, pending(self.game, self.state))
            except RuleError as exc:
                return str(exc)
            return self.refusal(action)

    def open_actions(self) -> dict[str, str | None]:
        """What the active operative may start now, and why not
        (:func:`solo_ops.game.actions.open_actions`); empty when no operative is acting."""
        with self.lock:
            if pending(self.game, self.state).kind not in ("act", "counteract"):
                return {}
            return actions.open_actions(self.game, self.state)

    def understand(self, line: str, prompt: Prompt) -> dict[str, Any]:
        """One typed answer as the engine's action: parsed, the active operative filled in, ids
        matched case-insensitively by unambiguous prefix, the weapon chosen when one fits."""
        action = answers.parse(line, prompt.kind, self.game.settings.units, self.game.edition)
        if prompt.kind == "act" and "operative" not in action and action["type"] in ACT_FILL:
            action["operative"] = prompt.operative
        return intent.resolve_ids(self.game, self.state, action, prompt)

    def _apply(self, *actions: dict[str, Any]) -> Outcome:
        """Apply the answer's action(s) in turn (a proposed move and what follows it), each
        saved and logged, then run the engine on to the next prompt."""
        records: list[dict[str, Any]] = []
        for action in actions:
            self._keep_point()
            try:
                record = step(self.game, self.state, action)
            except RuleError as exc:
                return Outcome(bool(records), str(exc), records,
                               refusal=None if records else "rule")
            try:
                self.persist(record)
            except SaveError as exc:
                return self._failed(exc, "Your answer")
            self._narrate(record)
            records.append(record)
        try:
            while pending(self.game, self.state).kind == "engine":
                records.append(self.engine_step())
        except SaveError as exc:
            failed = self._failed(exc, "The game's next step")
            failed.ok, failed.records = True, records
            return failed
        return Outcome(True, "", records)

    def _keep_point(self) -> None:
        """Keep the state as it is before a player's answer (:mod:`solo_ops.game.undo_points`):
        an undo goes back here without replaying the game."""
        if not isinstance(self.game.undo_points, UndoPoints):
            self.game.undo_points = UndoPoints()
        self.game.undo_points.keep(self.game, self.state)

    def _failed(self, exc: SaveError, what: str) -> Outcome:
        context = exc.__context__
        number = context.errno if isinstance(context, OSError) else None
        return Outcome(False, words.not_saved(exc, what), refusal="save", errno=number)

    def proposal_words(self, found: intent.Proposal) -> str:
        """A proposed move in words (:func:`solo_ops.session.words.proposal_words`)."""
        return words.proposal_words(self.game, self.state, found)

    def _meta(self, player: str | None, line: str, head: str) -> Outcome:
        if head == "help":
            return Outcome(True, answers.help_text(self.game.edition), meta=head)
        if head == "status":
            return Outcome(True, "\n".join(self.status_lines()), meta=head)
        if head == "undo":
            return self.undo(player)
        if head in ("save", "quit", "exit"):
            try:
                self.persist(None)
            except SaveError as exc:
                return Outcome(False, f"Not saved: {exc}.", meta=head,
                               refusal="save", errno=self._failed(exc, "").errno)
            message = f"Saved to {self.save}." if head == "save" else ""
            return Outcome(True, message, meta=head)
        return Outcome(True, "", meta=head)  # map: the caller's business

    def undo(self, player: str | None = None) -> Outcome:
        """Take back the last answer (and the engine steps after it). With ``player``, only the
        player who gave that answer may (the prompt it answered was theirs)."""
        with self.lock:
            done = actions_of(self.state, base_steps(self.game))
            if not can_undo(done):
                return Outcome(False, "nothing to undo: no answer has been given yet",
                               meta="undo", refusal="rule")
            remaining = undo(done)
            taken_back = done[len(remaining)]
            first = max(1, base_steps(self.game)) + len(remaining)
            barrier = (undo_points.barrier(self.game, self.state.log[:first],
                                           self.state.log[first:])
                       if self.game.settings.undo == "before_dice" else None)
            if barrier is not None:
                return Outcome(False, f"{words.describe(taken_back)} cannot be taken back: "
                               f"{barrier}, and what the table has seen stands (the "
                               "scenario's setting undo: any allows it)",
                               meta="undo", refusal="rule")
            game, state = restore(game_header(self.game), str(self.save), remaining,
                                  like=self.game)
            asked = pending(game, state).player
            if player is not None and asked is not None and asked != player:
                return Outcome(False, f"only {asked} can take back "
                               f"{words.describe(taken_back)}: it was {asked}'s answer",
                               meta="undo", refusal="turn")
            self._set(game, state)
            self._proposal = None
            keep = len(self.state.log)
            for n in [n for n in self._lines if n >= keep]:
                del self._lines[n]
            try:
                self.persist(None, log_entry=undo_marker(keep))
            except SaveError as exc:
                return Outcome(False, words.not_saved(exc, "The undo"), meta="undo",
                               refusal="save", errno=self._failed(exc, "").errno)
            tail = (" (dice already shown come out the same again)."
                    if self.game.settings.undo == "any" else ".")
            return Outcome(True, f"Undone: {words.describe(taken_back)} is taken back; you are "
                           f"back before it{tail}", undone_to=keep, meta="undo")

    # -- what the players see -------------------------------------------------------------------
    def view(self) -> dict[str, Any]:
        """The players' view of the table now (:func:`~solo_ops.view.player.player_view`)."""
        with self.lock:
            return player_view(self.game, self.state, reveal=self.reveal)

    def shown(self, record: dict[str, Any]) -> dict[str, Any]:
        """A record as the players may see it (as ``play --json`` prints it)."""
        return player_record(record, reveal=self.reveal)

    def records(self, since: int = 0) -> list[dict[str, Any]]:
        """Every step so far (from step ``since``) as the players may see it."""
        with self.lock:
            return [self.shown(r) for r in self.state.log[since:]]

    def narration(self, since: int = 0) -> list[dict[str, Any]]:
        """``[{"n", "lines"}]``: each step from ``since`` in words, as the terminal prints it
        (steps of this session as they happened; older ones worded with the table as it is)."""
        with self.lock:
            out = []
            for record in self.state.log[since:]:
                lines = self._lines.get(record["n"])
                if lines is None:
                    lines = self._narrate(record)
                out.append({"n": record["n"], "lines": lines})
            return out

    def lines_of(self, record: dict[str, Any]) -> list[str]:
        """A record in words, as it was narrated when it happened (or now, if it was not)."""
        with self.lock:
            lines = self._lines.get(record["n"])
            return lines if lines is not None else self._narrate(record)

    def paused_story(self) -> list[str]:
        """A game opened again at a question asked in the middle of a step (a CP re-roll, a
        fight's die, a Guard interrupt): the paused step's words (what the enemy did before the
        question, said before it when it was asked), so the question makes sense; the step's
        final record, after the answer, does not say them again."""
        with self.lock:
            if not self.state.log or not self._paused(self.state.log[-1]):
                return []
            return self._words(self.state.log[-1])  # all of it, the question's whole story

    def _narrate(self, record: dict[str, Any]) -> list[str]:
        """``record`` in words, remembered. A step paused for a question words what the enemy
        did so far (and a fight's dice so far); after the answer the step runs again from its
        start, so its next record says the same lines again: they are not said twice
        (:func:`~solo_ops.session.words.untold`), live or when the history is worded again."""
        lines = words.untold(self._words(record), self._paused_before(record))
        self._lines[record["n"]] = lines
        return lines

    @staticmethod
    def _paused(record: dict[str, Any]) -> bool:
        return any(e.get("type") in PAUSES for e in record.get("events", []))

    def _paused_before(self, record: dict[str, Any]) -> list[str]:
        """The words of the step just before ``record`` if that step paused for a question
        (what the enemy did before it), which ``record`` says again."""
        n = record.get("n")
        if not isinstance(n, int) or n < 1 or n > len(self.state.log):
            return []
        before = self.state.log[n - 1]
        if before.get("n") != n - 1 or not self._paused(before):
            return []
        return self._words(before)

    def _words(self, record: dict[str, Any]) -> list[str]:
        """``record`` as the players may see it, in words (all of its lines)."""
        return narrate.lines_for(self.shown(record),
                                 table=words.narration_table(self.game, self.state))

    def briefing(self) -> list[str]:
        """The mission in words and the Pariah Nexus effects in force
        (:func:`solo_ops.session.words.briefing`)."""
        return words.briefing(self.game)

    def status_lines(self) -> list[str]:
        """The table as the players may see it, in lines (the terminal's ``status``:
        :func:`solo_ops.session.words.status_lines`)."""
        return words.status_lines(self.game, self.state, self.view())

    def check_player(self, player: Any) -> str:
        """``player`` if it names a player of this game, else an :class:`InputError`."""
        if not isinstance(player, str) or player not in self.players:
            raise InputError(f"player must be one of {', '.join(self.players)}"
                             + ("" if player in (None, "") else f", not {str(player)[:40]!r}"),
                             field="player")
        return player
