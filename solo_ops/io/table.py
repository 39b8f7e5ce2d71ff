"""One game at the table, whatever shows it: the terminal, the web page or a script.

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

Saving is the terminal's: the save is written with :func:`~solo_ops.io.persistence.save_json`
(recording the checksum the log will have), then the record is appended to the
:class:`~solo_ops.io.persistence.EventLog`. So a game played here goes on with
``solo-ops play --resume SAVE`` and the other way round, and ``solo-ops replay`` checks it.
The operating-system lock on the save (:func:`~solo_ops.io.persistence.game_lock`) is taken by
the command that opens the table, for as long as it runs.
"""

from __future__ import annotations

import copy
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solo_ops.core.errors import InputError, RuleError
from solo_ops.game import intent
from solo_ops.game.engine import Game, Prompt, pending, step
from solo_ops.game.state import ENEMY, PLAYER, State
from solo_ops.io.persistence import EventLog, file_digest, log_line, save_json
from solo_ops.io.savegame import (
    can_undo,
    game_document,
    log_header,
    restore,
    undo,
    undo_marker,
)
from solo_ops.view import answers, measure, narrate
from solo_ops.view.player import player_record, player_view

YES = ("y", "yes", "ok", "do it")
NO = ("n", "no")
ACT_FILL = ("move", "shoot", "fight", "carry", "evacuate", "ready", "done")
"""Actions that name the active operative when the answer leaves it out (as the terminal)."""


@dataclass
class Outcome:
    """What became of one answer: ``ok`` (taken), ``message`` (the reason when refused, or what
    a meta word answered), the new raw records (show them through :meth:`GameTable.shown`),
    ``undone_to`` (after an undo: how many records are kept), ``confirm`` (a proposed move
    waiting for ``yes``), ``meta`` (the meta word handled, if any) and ``status`` (the HTTP-ish
    kind of refusal: ``rule``, ``turn`` for another player's prompt, ``ended``)."""

    ok: bool
    message: str = ""
    records: list[dict[str, Any]] = field(default_factory=list)
    undone_to: int | None = None
    confirm: dict[str, Any] | None = None
    meta: str | None = None
    refusal: str | None = None


@dataclass
class _Proposal:
    player: str | None
    at_step: int
    action: dict[str, Any]


def describe(action: dict[str, Any]) -> str:
    """A taken-back answer in a few words (as the terminal says it)."""
    words = [str(action.get("type", "?"))]
    for key in ("operative", "how", "target", "to", "damage", "amount", "feature"):
        if action.get(key) is not None:
            value = action[key]
            if isinstance(value, list):
                value = ",".join(f"{v:g}" for v in value)
            words.append(str(value))
    return "'" + " ".join(words) + "'"


def names(state: State) -> dict[str, str]:
    """Display names: the players' operatives by name (enemies are named by id)."""
    return {o.id: (o.name if o.name != o.id else o.id) for o in state.operatives.values()
            if o.side == PLAYER}


def narration_table(game: Game, state: State) -> narrate.Table:
    """What narration needs from the game: units, names, the doors and hatches, the enemies."""
    board = game.scenario.board
    enemies = {o.id: (o.name, o.at, o.owner) for o in state.operatives.values()
               if o.side == ENEMY}
    return narrate.Table(edition=state.edition, units=game.settings.units,
                         names=names(state), portals={f.id: f.shape for f in board.portals()},
                         enemies=enemies)


class GameTable:
    """A game being played, its save and log, shared by every screen that shows it (see the
    module docstring). Every public method holds :attr:`lock` while it runs."""

    def __init__(self, game: Game, state: State, save: Path, log: Path, *,
                 reveal: bool = False) -> None:
        self.game, self.state = game, state
        self.save, self.log = Path(save), Path(log)
        self.reveal = reveal
        self.lock = threading.RLock()
        self._proposal: _Proposal | None = None
        self._lines: dict[int, list[str]] = {}  # narration of each record, as it happened

    # -- the game -------------------------------------------------------------------------------
    @property
    def players(self) -> list[str]:
        """The players' names in the scenario's order (one for a solo game)."""
        return [squad.player for squad in self.game.scenario.squads]

    def prompt(self) -> Prompt:
        """What the game needs next."""
        with self.lock:
            return pending(self.game, self.state)

    def start(self) -> None:
        """Write a new game's first files: the log header, then the set-up record."""
        with self.lock:
            EventLog(self.log).create(log_header(self.game))
            self.persist(self.state.log[0])

    def persist(self, record: dict[str, Any] | None, *,
                log_entry: dict[str, Any] | None = None) -> None:
        """Save the game, then append ``record`` (or ``log_entry``, an undo line) to the event
        log; the save records the checksum the log has after the append (as the terminal)."""
        with self.lock:
            entry = record if record is not None else log_entry
            line = log_line(entry, self.log) if entry is not None else b""
            digest = file_digest(self.log, then=line, missing_ok=True)
            save_json(self.save, game_document(self.game, self.state, digest))
            if entry is not None:
                EventLog(self.log).append(entry)

    def advance(self) -> list[dict[str, Any]]:
        """Run the engine's steps until a player must answer or the game ends; each step is
        saved and logged. Returns the new records (raw: show them through :meth:`shown`)."""
        out: list[dict[str, Any]] = []
        with self.lock:
            while pending(self.game, self.state).kind == "engine":
                record = step(self.game, self.state, {"type": "engine"})
                self.persist(record)
                self._narrate(record)
                out.append(record)
        return out

    # -- answers --------------------------------------------------------------------------------
    def answer(self, player: str | None, text: str) -> Outcome:
        """One answer typed by ``player`` (None: whoever is asked, as at a single terminal).

        Meta words work as at the terminal (``help``, ``status``, ``undo``, ``save``; ``map``
        and ``quit`` are left to the caller, ``meta`` says which). Anything else must come from
        the player whose prompt it is; it is parsed, checked and applied, then the engine runs
        on to the next prompt. The game is unchanged when the answer is refused."""
        line = text.strip()
        with self.lock:
            self.advance_if_needed()
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
            proposal, self._proposal = self._proposal, None
            if proposal is not None and proposal.at_step == len(self.state.log) \
                    and proposal.player == player:
                if head in YES:
                    return self._apply(proposal.action)
                if head in NO and len(line.split()) == 1:
                    return Outcome(True, "Not moved.")
            try:
                action = self.understand(line, prompt)
                if action.get("relation"):
                    found = intent.propose(self.game, self.state, action)
                    concrete = {**found.action, "operative": action["operative"]}
                    # the engine's own checks first, on a copy: never ask yes to a refusal
                    step(self.game, copy.deepcopy(self.state), concrete)
                    self._proposal = _Proposal(player, len(self.state.log), concrete)
                    return Outcome(True, self._proposal_text(found), confirm=concrete)
            except RuleError as exc:
                return Outcome(False, str(exc), refusal="rule")
            return self._apply(action)

    def advance_if_needed(self) -> list[dict[str, Any]]:
        """:meth:`advance` (a table opened on a game stopped before an engine step)."""
        return self.advance()

    def understand(self, line: str, prompt: Prompt) -> dict[str, Any]:
        """One typed answer as the engine's action (as the terminal reads it)."""
        action = answers.parse(line, prompt.kind, self.game.settings.units)
        if prompt.kind == "act" and "operative" not in action and action["type"] in ACT_FILL:
            action["operative"] = prompt.operative
        return intent.resolve_ids(self.game, self.state, action, prompt)

    def _apply(self, action: dict[str, Any]) -> Outcome:
        try:
            record = step(self.game, self.state, action)
        except RuleError as exc:
            return Outcome(False, str(exc), refusal="rule")
        self.persist(record)
        self._narrate(record)
        return Outcome(True, "", [record, *self.advance()])

    def _proposal_text(self, found: intent.Proposal) -> str:
        units = self.game.settings.units
        how = found.action["how"].replace("_", " ")
        where = narrate.move_words(found.start, found.to, found.route,
                                   narration_table(self.game, self.state), found.cost)
        gap = "" if found.gap is None else f", {measure.length(found.gap, units)} from {found.ref}"
        if found.relation == "contact":
            gap = f", in base contact with {found.ref}"
        elif found.gap is not None and found.gap < 0.05:
            gap = f", touching {found.ref}"
        return (f"{self.state.active_operative} would {how} {where}{gap} (it can {how} "
                f"{measure.length(found.allowance, units)}). Do it? (yes / no)")

    def _meta(self, player: str | None, line: str, head: str) -> Outcome:
        if head == "help":
            return Outcome(True, answers.PLAYER_HELP, meta=head)
        if head == "status":
            return Outcome(True, "\n".join(self.status_lines()), meta=head)
        if head == "undo":
            return self.undo(player)
        if head == "save":
            self.persist(None)
            return Outcome(True, f"Saved to {self.save}.", meta=head)
        return Outcome(True, "", meta=head)  # map, quit, exit: the caller's business

    def undo(self, player: str | None = None) -> Outcome:
        """Take back the last answer (and the engine steps after it). With ``player``, only the
        player who gave that answer may (the prompt it answered was theirs)."""
        with self.lock:
            doc = game_document(self.game, self.state)
            if not can_undo(doc["actions"]):
                return Outcome(False, "nothing to undo: no answer has been given yet",
                               meta="undo", refusal="rule")
            remaining = undo(doc["actions"])
            taken_back = doc["actions"][len(remaining)]
            game, state = restore(doc, str(self.save), remaining)
            asked = pending(game, state).player
            if player is not None and asked is not None and asked != player:
                return Outcome(False, f"only {asked} can take back {describe(taken_back)}: it "
                               f"was {asked}'s answer", meta="undo", refusal="turn")
            self.game, self.state = game, state
            self._proposal = None
            keep = len(self.state.log)
            for n in [n for n in self._lines if n >= keep]:
                del self._lines[n]
            self.persist(None, log_entry=undo_marker(keep))
            return Outcome(True, f"Undone: {describe(taken_back)} is taken back; you are back "
                           "before it (dice already shown come out the same again).",
                           undone_to=keep, meta="undo")

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

    def _narrate(self, record: dict[str, Any]) -> list[str]:
        lines = narrate.lines_for(self.shown(record),
                                  table=narration_table(self.game, self.state))
        self._lines[record["n"]] = lines
        return lines

    def briefing(self) -> list[str]:
        """The mission in words and the Pariah Nexus effects in force."""
        mission = self.game.scenario.mission
        out = list(mission.briefing(self.game.edition))
        for title, text in mission.effect_texts(self.game.scenario.board.killzone):
            out.append(f"Effect in force — {title}: {text}")
        return out

    def status_lines(self) -> list[str]:
        """The table as the players may see it, in lines (the terminal's ``status``)."""
        view = self.view()
        units = self.game.settings.units
        out = [f"Turn {view['turn']} ({view['phase']}); VP you {view['vp'].get('player', 0)}"
               f" / solo-ops {view['vp'].get('enemy', 0)}"]
        for player, ops in view["squads"].items():
            for o in ops:
                extra = " DOWN" if o["down"] else ""
                out.append(f"  {player}: {o['id']} {measure.point(o['at'], units)} "
                           f"{o['wounds']}/{o['max_wounds']}W {o['stance']}{extra}")
        for o in view["enemies"]:
            if o["down"]:
                continue
            out.append(f"  enemy {o['id']} ({o['profile']}, {o['owner']}) at "
                       f"{measure.point(o['at'], units)} {o['wounds']}/{o['max_wounds']}W")
        for c in view["counters"]:
            out.append(f"  counter {c['id']} at {measure.point(c['at'], units)}")
        return out

    def check_player(self, player: Any) -> str:
        """``player`` if it names a player of this game, else an :class:`InputError`."""
        if not isinstance(player, str) or player not in self.players:
            raise InputError(f"player must be one of {', '.join(self.players)}"
                             + ("" if player in (None, "") else f", not {str(player)[:40]!r}"),
                             field="player")
        return player
