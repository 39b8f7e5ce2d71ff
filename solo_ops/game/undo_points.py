"""States kept before the players' answers, so that an undo goes back without replaying.

A save is the scenario, the seed and the actions, and an undo is the same actions less the
last player answer (:func:`solo_ops.io.savegame.undo`): replaying them all from set-up gives the
game as it stood before that answer, but costs the whole game's CPU again (some 0.3 s by the
fourth turning point of the stronghold). So a game at the table keeps a copy of its state
(:func:`solo_ops.game.cp.copy_state`) just before each player answer is applied — the exact
points an undo goes back to — and :func:`solo_ops.io.savegame.restore` starts from the nearest
kept point whose steps are the actions asked for, replaying only the steps after it (none, for
an undo). The same seed and the same actions from set-up make the same game byte for byte, so
a state reached by the same actions is the state a replay gives: the points change no game.

Points are kept where the game is played at the table (:class:`~solo_ops.session.table.
GameTable`) and where a saved game is rebuilt for it (``restore``, when the table opens it),
never in the simulator. A point at a step paused for a CP re-roll also holds the enemy plans the
game keeps for the step's re-run (``game.cp_plans``; the plans are only ever read through a
copy, so the point shares them). Each point is a copy of the state without its records
(shared), a few tens of kilobytes; a game keeps at most :data:`LIMIT` (the oldest are thinned
out, every other one, so an undo far back replays a few steps more).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from solo_ops.game.cp import copy_state
from solo_ops.game.events import PAUSES
from solo_ops.game.state import State

if TYPE_CHECKING:
    from solo_ops.game.definition import Game

REVEALING = frozenset({"counter_spotted", "counter_revealed", "false_alarm"})
"""Event types that show the players something hidden: a step with one stands like a roll."""

LIMIT = 400
"""The most points a game keeps (a few tens of megabytes at most): past it, every other point
of the older half goes."""


@dataclass(frozen=True)
class Point:
    """A kept state: the steps it holds, a copy of it, and the game's kept plans then."""

    steps: int
    state: State
    plans: Any


@dataclass
class UndoPoints:
    """Copies of one game's state, by the number of steps they hold (see the module
    docstring)."""

    points: dict[int, Point] = field(default_factory=dict)

    def keep(self, game: Game, state: State) -> None:
        """Keep a copy of ``state`` as it is now, with the game's kept plans (called just
        before a player answer is applied)."""
        steps = len(state.log)
        self.points[steps] = Point(steps, copy_state(state), game.cp_plans)
        if len(self.points) > LIMIT:
            older = sorted(self.points)[: LIMIT // 2]
            for old in older[1::2]:
                del self.points[old]

    def nearest(self, actions: list[Any], since: int) -> Point | None:
        """The kept point nearest the end of ``actions`` whose steps from step ``since`` (the
        first step an action list holds: 1 after set-up, or a checkpoint's length) are the
        first of ``actions``, with a fresh copy of its state (the point can serve again), or
        None. Points beyond the end of ``actions`` are forgotten (the game goes back before
        them; one of an undone history would never match again)."""
        end = since + len(actions)
        for steps in sorted(self.points, reverse=True):
            if steps < since:
                break
            if steps > end:
                del self.points[steps]
                continue
            kept = self.points[steps]
            if all(record.get("action") == actions[i - since]
                   for i, record in enumerate(kept.state.log[since:steps], start=since)):
                return Point(steps, copy_state(kept.state), kept.plans)
        return None


def barrier(game: Game, before: list[dict[str, Any]], taken: list[dict[str, Any]]
            ) -> str | None:
    """Why the steps ``taken`` (those an undo would take back, oldest first; ``before``: the
    steps before them) cannot be taken back under the ``before_dice`` reading of the ``undo``
    setting, or None. They can when the players have seen nothing new since the answer taken
    back: no die rolled beyond those already shown (at a question, the dice the paused step
    showed, :attr:`Game.pause_shown`), no counter seen, no new question (a step that paused
    for one told the players what the enemy did in it before the question: a Guard
    interrupt's, a Kill Team 2018 Reaction's).

    A counter-based dice source gives the n-th roll the same face whatever it is rolled for,
    so an answer taken back after dice were shown would let the players see the next dice, or
    a counter's contents, and then play round them.
    """
    shown = max((r["seq"] for record in before for r in record.get("rolls") or ()),
                default=_checkpoint_dice(game))  # a checkpoint's steps keep no rolls
    if before and _question(before[-1]):
        shown = max(shown, game.pause_shown.get(int(before[-1]["n"]), shown))
    known = {e.get("counter") for record in before for e in _events(record)
             if e.get("type") in REVEALING}
    for i, record in enumerate(taken):
        for event in _events(record):
            if event.get("type") in REVEALING and event.get("counter") not in known:
                return f"counter {event.get('counter')} has been seen since"
        new = [r for r in record.get("rolls") or () if r["seq"] > shown]
        if new:
            open_ = [r for r in new if not r.get("secret")]
            return ("dice have been rolled since"
                    + (f" ({open_[0].get('purpose')})" if open_ else ""))
        if _question(record):  # the step paused: its question, and what it told before it
            if game.pause_shown.get(int(record["n"]), shown + 1) > shown:
                return "dice have been shown since"
            # the answer to a question runs its step again: asked again with nothing more
            # told (a fight's next die), it stands only when the pause told something new
            again = i == 0 and bool(before) and _question(before[-1])
            if _told(record) > (_told(before[-1]) if again else 0):
                return ("a question has been asked since (what the enemy did before it was "
                        "told)")
    return None


def _told(record: dict[str, Any]) -> int:
    """How many events a paused step's question told before it (its ``so_far``)."""
    return sum(len(e.get("so_far") or ()) for e in record.get("events") or ()
               if e.get("type") in PAUSES)


def _checkpoint_dice(game: Game) -> int:
    """How many dice a game going on from a checkpoint had rolled at it (0 from set-up)."""
    checkpoint = (game.base or {}).get("checkpoint") or {}
    return int((checkpoint.get("dice") or {}).get("seq", 0))


def _events(record: dict[str, Any]) -> list[dict[str, Any]]:
    """A record's events with those a paused step showed so far (``so_far``)."""
    out: list[dict[str, Any]] = []
    for event in record.get("events") or ():
        out.append(event)
        out.extend(event.get("so_far") or ())
    return out


def _question(record: dict[str, Any]) -> bool:
    """Whether the step paused for the players' answer."""
    return any(e.get("type") in PAUSES for e in record.get("events") or ())
