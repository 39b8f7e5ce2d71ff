"""The players' Command Points: re-rolls of dice the engine rolls for them, and CP spent at
the table.

Card 001: "Re-Roll Attack/Defence Dice for 1CP" (**CP Re-Roll**); card 002: "Re-Roll an
Attack/Defence Dice for 1CP. Dice can only be re-rolled once." When solo-ops rolls a player
operative's dice (their attack dice in ``shoot ... roll`` and ``fight ... roll``, their attack
dice in a fight the enemy starts, their defence dice against an enemy shot), the players decide
after seeing the dice, as at the table: the game pauses with a ``reroll`` prompt.

How the pause works. A step that could roll such dice runs with a :class:`Chooser` (set on
``game.cp_chooser`` for the step; :func:`hooks` hands it to the combat
bridge). The chooser is asked after each roll of a player's dice (after the weapon's own
re-rolls: Balanced, Ceaseless, Relentless). It asks nothing unless the players have a CP and a
failed die not yet re-rolled. When it must ask and has no answer yet, it raises
:class:`NeedReroll`: the engine puts the state back exactly as it was before the step (the
dice too: none of the step's rolls happened), and records a ``reroll`` entry at the head of
``state.pending_attacks`` holding the step's action, the answers given so far and the dice
shown -- plain data, so save, resume, undo, replay and :mod:`solo_ops.game.checkpoint` keep
working at the pause. The answer (``reroll N`` or ``keep``) runs the same action again from
the same state with one more answer: the same dice come out (a seeded, counter-based
source), up to the die re-rolled, whose new roll is the next one drawn. So a paused step ends
exactly where it would have, and the same seed and answers give the same game byte for byte.

The enemy never spends CP (the supplement, 003, gives it no CP rules; ``docs/rules.md``).
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from solo_ops.core.errors import RuleError
from solo_ops.core.model import Profile
from solo_ops.game.events import shown as shown_to_players
from solo_ops.game.state import PLAYER, Counter, Operative, State, Unit
from solo_ops.rules import kt2024

if TYPE_CHECKING:
    from solo_ops.game.attacks import CpHooks
    from solo_ops.game.definition import Game, Prompt

KEEP = "keep"
"""An answer that re-rolls nothing (the other answers are die places, 1-based)."""

QUIET = frozenset({"activate", "done", "damage", "down", "cp", "attack_damage", "ready",
                   "order"})
"""Action types that never roll a player's dice: no re-roll can be asked during them."""


class NeedAnswer(Exception):
    """Raised inside a step when the players must decide something before it can go on (a CP
    re-roll here, a fight's die in :mod:`solo_ops.game.fight_choices`, a Guard interrupt in
    :mod:`solo_ops.game.guard`): the engine puts the state back and records the question
    (:meth:`pause`); the answer runs the step again with one more answer."""

    def pause(self, state: State, action: dict[str, Any], answers: list[Any],
              progress: list[dict[str, Any]] | None) -> dict[str, Any]:
        """Record the question at the head of ``state.pending_attacks`` (the step's
        ``action`` and its ``answers`` so far kept in it); returns the event that says so."""
        raise NotImplementedError


class NeedReroll(NeedAnswer):
    """Raised inside a step when the players must decide a CP re-roll (caught by the engine)."""

    def __init__(self, op: Operative, offer: kt2024.RerollOffer, cp: int | None = None,
                 untold: int = 0) -> None:
        super().__init__(f"a CP re-roll for {op.id}")
        self.op = op
        self.offer = offer
        self.cp = cp  # the players' CP as the question is asked (before the step is undone)
        self.untold = untold  # CP spent in this attack's re-rolls, told after the attack

    def pause(self, state: State, action: dict[str, Any], answers: list[Any],
              progress: list[dict[str, Any]] | None) -> dict[str, Any]:
        return pause(state, action, answers, self, progress)


@dataclasses.dataclass
class Chooser:
    """The players' decisions for one step, in the order asked: CP re-rolls (die places or
    :data:`KEEP`), their fights' moves (:mod:`solo_ops.game.fight_choices`) and Guard
    interrupts (:mod:`solo_ops.game.guard`) are replayed from ``answers``; one more question
    raises a :class:`NeedAnswer`. ``events``: the ``cp_spent`` events of the re-rolls made.
    ``rerolls`` / ``fights`` / ``covers``: whether CP re-rolls / fight moves / useless cover
    saves are asked at all (the ``cp_rerolls``, ``fight_choices`` and ``cover_saves``
    settings)."""

    state: State
    answers: list[Any]
    used: int = 0
    rerolls: bool = True
    fights: bool = False
    covers: bool = False
    events: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    plans: dict[str, Any] = dataclasses.field(default_factory=dict)
    """Enemy activation plans made in this step (by unit), kept for its re-runs: see
    :func:`plan`."""
    told: list[list[dict[str, Any]]] = dataclasses.field(default_factory=list)
    """The event lists of the step under way, growing as it runs (:meth:`tell`), so a pause
    can show the players what happened in this step before it asks: :meth:`so_far`."""

    def tell(self, events: list[dict[str, Any]]) -> None:
        """``events`` (a list still growing: an enemy activation's, a counteract's, a Guard
        interrupt's) is told before any question that follows in this step."""
        self.told.append(events)

    @property
    def progress(self) -> list[dict[str, Any]]:
        """What happened in the step so far, in order, each event once (a list told may have
        been copied into another told list by then)."""
        seen: set[int] = set()
        out = []
        for events in self.told:
            for event in events:
                if id(event) not in seen:
                    seen.add(id(event))
                    out.append(event)
        return out

    def answered(self) -> bool:
        """Whether the next question of the step has its answer already."""
        return self.used < len(self.answers)

    def take(self) -> Any:
        """The next answer (:meth:`answered` first)."""
        answer = self.answers[self.used]
        self.used += 1
        return answer

    def hook(self, op: Any) -> kt2024.CpChooser | None:
        """The chooser for ``op``'s dice: None unless it is a player operative."""
        if getattr(op, "side", None) != PLAYER or not self.rerolls:
            return None

        def choose(offer: kt2024.RerollOffer) -> int | None:
            if self.state.cp.get(PLAYER, 0) < 1 or not offer.improvable:
                return None
            if not self.answered():
                raise NeedReroll(op, offer, cp=self.state.cp.get(PLAYER, 0),
                                 untold=len(self.events))
            answer = self.take()
            if answer == KEEP:
                return None
            index = int(answer) - 1
            self.state.cp[PLAYER] -= 1
            self.events.append({
                "type": "cp_spent", "side": PLAYER, "player": op.owner, "operative": op.id,
                "amount": 1, "cp": self.state.cp[PLAYER],
                "why": f"re-roll of {op.label}'s {offer.what} die {index + 1} "
                       f"(was {offer.faces[index]})"})
            return index

        return choose


def plan(game: Game, unit: str, make: Callable[[], Any]) -> Any:
    """The plan of ``unit``'s activation: ``make()``, made once for a paused step and its
    re-runs. A re-run starts from the very state the first run started from, and planning
    rolls no dice (:mod:`solo_ops.ai.planner`), so the plan is the same: keeping it saves the
    planning time and changes nothing."""
    chooser = getattr(game, "cp_chooser", None)
    if chooser is None:
        return make()
    if unit in chooser.plans:
        return copy.deepcopy(chooser.plans[unit])
    made = chooser.plans[unit] = make()
    return made


def tell(game: Game, events: list[dict[str, Any]]) -> None:
    """Tell ``events`` (a growing list) before any question later in the step under way
    (:meth:`Chooser.tell`); nothing when no step asks."""
    chooser = getattr(game, "cp_chooser", None)
    if chooser is not None:
        chooser.tell(events)


def spent(game: Game) -> list[dict[str, Any]]:
    """The ``cp_spent`` events of the re-rolls made so far in the step under way, taken off
    the chooser: the attack that made them tells them right after itself (what is left is
    told at the step's end)."""
    chooser = getattr(game, "cp_chooser", None)
    if chooser is None or not chooser.events:
        return []
    made, chooser.events = chooser.events, []
    return made


def keep_plans(game: Game, state: State, chooser: Chooser) -> None:
    """After a pause is recorded: keep the step's plans for the answer's re-run."""
    assert state.dice is not None
    game.cp_plans = (len(state.log), state.dice.seq, chooser.plans)


def kept_plans(game: Game, state: State) -> dict[str, Any]:
    """The plans :func:`keep_plans` kept, when nothing has happened since (else none)."""
    kept, game.cp_plans = game.cp_plans, None
    if kept is None or state.dice is None or kept[:2] != (len(state.log), state.dice.seq):
        return {}
    return dict(kept[2])


def armed(game: Game, state: State, action: dict[str, Any]) -> bool:
    """Whether ``action`` runs with a chooser. Kill Team 2024: an action that can roll the
    players' dice, and something to ask: a CP re-roll (the setting asks and the players have
    a CP), their fights' moves (``fight_choices: ask``), a useless cover save (``cover_saves:
    ask``) or a Guard interrupt (an operative On Guard). Kill Team 2018 (no CP re-roll, and
    no strike or block in its fights): the engine's steps of the movement phase, whose enemy
    charges ask their targets' Reactions (:func:`solo_ops.game.reactions.asked_in_step`)."""
    if state.edition == "kt2018":
        return action.get("type") == "engine" and state.phase == "movement"
    if state.edition != "kt2024" or str(action.get("type")) in QUIET:
        return False
    return (rerolls_asked(game, state) or game.settings.fight_choices == "ask"
            or game.settings.cover_saves == "ask"
            or any(o.on_guard for o in state.living(PLAYER)))


def rerolls_asked(game: Game, state: State) -> bool:
    """Whether CP re-rolls may be asked now: the setting asks and the players have a CP."""
    return game.settings.cp_rerolls == "ask" and state.cp.get(PLAYER, 0) >= 1


def chooser_for(game: Game, state: State, answers: list[Any], plans: dict[str, Any]
                ) -> Chooser:
    """The chooser of a step (see :func:`armed`), replaying ``answers``: CP re-rolls, fight
    moves and useless cover saves are asked in Kill Team 2024 only."""
    kt2024_step = state.edition == "kt2024"
    return Chooser(state, answers, plans=plans,
                   rerolls=kt2024_step and game.settings.cp_rerolls == "ask",
                   fights=kt2024_step and game.settings.fight_choices == "ask",
                   covers=kt2024_step and game.settings.cover_saves == "ask")


# -- putting the state back -------------------------------------------------------------------
@dataclasses.dataclass
class Snapshot:
    """The state before a step: its fields (deep copies; profiles shared), the log's length and
    the dice's own fields (the log's length for its log)."""

    fields: dict[str, Any]
    log_length: int
    dice: dict[str, Any]


def snapshot(state: State) -> Snapshot:
    """Everything :func:`restore` needs to put ``state`` back as it is now."""
    values = {f.name: copy_value(getattr(state, f.name)) for f in dataclasses.fields(state)
              if f.name not in ("log", "dice")}
    dice: dict[str, Any] = {}
    if state.dice is not None:
        dice = {k: (len(v) if k == "log" else copy.deepcopy(v))
                for k, v in vars(state.dice).items()}
    return Snapshot(values, len(state.log), dice)


def copy_state(state: State) -> State:
    """A new state that plays on exactly as ``state`` would, sharing nothing that play
    changes: its fields copied as :func:`snapshot` copies them (profiles shared), its log and
    its dice's log new lists of the same records and rolls (a record or roll is never changed
    once written, so sharing them changes no game). An undo goes back to one of these
    (:mod:`solo_ops.game.undo_points`)."""
    new = copy.copy(state)
    for f in dataclasses.fields(state):
        if f.name not in ("log", "dice"):
            setattr(new, f.name, copy_value(getattr(state, f.name)))
    new.log = list(state.log)
    if state.dice is not None:
        dice = new.dice = copy.copy(state.dice)
        for key, value in vars(state.dice).items():
            setattr(dice, key, list(value) if key == "log" else copy_value(value))
    return new


_PLAIN = frozenset({str, int, float, bool, type(None), Profile})

_OWN = frozenset({Operative, Unit, Counter})
"""The state's own dataclasses: plain ``@dataclass`` classes (no slots, no ``__copy__``,
``__getstate__`` or ``__new__`` of their own), so :func:`copy.copy` of one is a new instance
whose ``__dict__`` holds the same items in the same order: :func:`copy_value` builds that
directly."""


def copy_value(value: Any) -> Any:
    """A deep copy of state data (faster than :func:`copy.deepcopy` here): plain values and
    profiles (frozen, shared) as they are, containers and the state's own dataclasses
    (operatives, units, counters) field by field, anything else deep-copied."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is list:
        return [v if type(v) in _PLAIN else copy_value(v) for v in value]
    if kind is dict:
        return {k: v if type(v) in _PLAIN else copy_value(v) for k, v in value.items()}
    if kind in _OWN:
        new = object.__new__(kind)
        into = new.__dict__
        for key, v in value.__dict__.items():
            into[key] = v if type(v) in _PLAIN else copy_value(v)
        return new
    if kind is tuple:  # of plain values (a position): immutable, shared as deepcopy shares it
        if all(type(v) in _PLAIN for v in value):
            return value
        return tuple(v if type(v) in _PLAIN else copy_value(v) for v in value)
    if dataclasses.is_dataclass(value) and hasattr(value, "__dict__"):
        new = copy.copy(value)
        fields: dict[str, Any] = vars(new)
        for key, v in fields.items():
            if type(v) not in _PLAIN:
                fields[key] = copy_value(v)
        return new
    return copy.deepcopy(value)


def restore(state: State, snap: Snapshot) -> None:
    """Put ``state`` (and its dice) back as :func:`snapshot` found it (``snap`` is used up).
    In place: the state's operatives, units, counters and containers stay the same objects
    (a caller holding one sees it restored), only their contents go back."""
    for name, value in snap.fields.items():
        setattr(state, name, put_back(getattr(state, name), value))
    del state.log[snap.log_length:]
    if state.dice is not None:
        for key, value in snap.dice.items():
            if key == "log":
                del state.dice.log[value:]
            else:
                setattr(state.dice, key, value)


def put_back(current: Any, saved: Any) -> Any:
    """``saved`` (a :func:`copy_value` of state data), put back into ``current`` where both
    are the same kind of container or dataclass (so ``current`` keeps its identity: what
    :func:`restore` does field by field); else ``saved`` itself."""
    kind = type(saved)
    if type(current) is not kind or kind in _PLAIN:
        return saved
    if kind is dict:
        for key in [k for k in current if k not in saved]:
            del current[key]
        for key, value in saved.items():  # a plain value goes back as it is (put_back's answer)
            current[key] = value if type(value) in _PLAIN else put_back(current.get(key), value)
        return current
    if kind is list:
        current[:] = saved
        return current
    if kind in _OWN or (dataclasses.is_dataclass(saved) and hasattr(saved, "__dict__")):
        fields = current.__dict__
        for key, value in saved.__dict__.items():
            fields[key] = value if type(value) in _PLAIN else put_back(fields.get(key), value)
        return current
    return saved


# -- the pause and its answer -------------------------------------------------------------------
def pause(state: State, action: dict[str, Any], answers: list[Any], need: NeedReroll,
          progress: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Record the question at the head of ``state.pending_attacks``; returns the
    ``reroll_offered`` event. ``progress``: the events of the enemy activation so far (the
    step re-runs from its start after the answer, so these come again, in this order, at the
    head of the step's final record); the event keeps the ones the players may see as
    ``so_far``, which the narration words before the question."""
    offer, op = need.offer, need.op
    entry = {
        "kind": "reroll", "player": op.owner, "operative": op.id, "what": offer.what,
        "label": offer.title or offer.label, "faces": list(offer.faces),
        "failed": [i + 1 for i in offer.failed], "rerolled": [i + 1 for i in offer.rerolled],
        "needed": offer.needed,
        # the CP left as the question is asked: what the step did before it counts (a
        # turning point's CP gained, the re-rolls answered), though the step is undone
        "cp": need.cp if need.cp is not None else (
            state.cp.get(PLAYER, 0) - sum(1 for a in answers if a != KEEP)),
        "action": copy.deepcopy(action), "answers": list(answers),
    }
    if need.untold:
        entry["spent"] = need.untold  # the re-rolls just made: the question counts them
    entry["text"] = _question(op, entry)
    state.pending_attacks.insert(0, entry)
    so_far = [copy.deepcopy(e) for e in progress or [] if shown_to_players(e)]
    return {"type": "reroll_offered", "player": op.owner, "operative": op.id,
            **({"so_far": so_far} if so_far else {}),
            "what": offer.what, "faces": list(offer.faces), "failed": entry["failed"],
            "cp": entry["cp"]}


def _question(op: Operative, entry: dict[str, Any]) -> str:
    stat = "hit" if entry["what"] == "attack" else "save"
    shown = []
    for n, face in enumerate(entry["faces"], start=1):
        notes = []
        if n in entry["failed"]:
            notes.append("fail")
        if n in entry["rerolled"]:
            notes.append("already re-rolled")
        shown.append(f"#{n} {face}" + (f" ({', '.join(notes)})" if notes else ""))
    count = len(entry["faces"])
    return (f"{op.owner}: {entry['label']}. {op.label}'s {entry['what']} dice ({stat} "
            f"{entry['needed']}+): {', '.join(shown)}. Spend 1 CP to re-roll one die (you have "
            f"{entry['cp']} CP{_after(entry)})? Answer 'reroll N' (N = the die's place, #1"
            f"{f'-#{count}' if count > 1 else ''}) or 'keep'.")


def _after(entry: dict[str, Any]) -> str:
    """Words for the CP the re-rolls just made in this attack took (told after the attack),
    so the CP in the question is never a surprise."""
    spent = int(entry.get("spent", 0))
    return f", after the {spent} CP of the re-roll{'s' if spent > 1 else ''} just made" \
        if spent else ""


def options(entry: dict[str, Any]) -> list[str]:
    """The answers the ``reroll`` prompt offers: each failed die not yet re-rolled, and keep
    (any die not yet re-rolled may be named)."""
    return [*(f"reroll {n}" for n in entry["failed"] if n not in entry["rerolled"]), KEEP]


def take_answer(state: State, action: dict[str, Any], prompt: Prompt
                ) -> tuple[dict[str, Any], list[Any]]:
    """Check a ``reroll`` answer (``{"type": "reroll", "die": N}`` or ``{"type": "reroll",
    "keep": true}``) against the question and take the question off; returns the paused
    step's action and its answers so far with this one. Refuses (state untouched) any other
    action while the question waits, and a re-roll answer when none does."""
    if prompt.kind != "reroll":
        raise RuleError("no dice are waiting for a re-roll")
    entry = state.pending_attacks[0]
    if action.get("type") != "reroll":
        raise RuleError(f"first answer the re-roll: {entry['text']}")
    if action.get("keep"):
        answer: Any = KEEP
    else:
        die = action.get("die")
        count = len(entry["faces"])
        if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= count:
            raise RuleError(f"which die? 'reroll N' with N from 1 to {count}, or 'keep'")
        if die in entry["rerolled"]:
            raise RuleError(f"die #{die} has already been re-rolled: dice can only be "
                            "re-rolled once (002)")
        answer = die
    state.pending_attacks.pop(0)
    return copy.deepcopy(entry["action"]), [*entry["answers"], answer]


# -- CP spent at the table ---------------------------------------------------------------------
CP_PROMPTS = ("activate", "act", "attack")
"""Prompts at which the players may record CP they spent at the table."""


def spend_at_table(game: Game, state: State, action: dict[str, Any], prompt: Any
                   ) -> list[dict[str, Any]]:
    """``cp N`` (``{"type": "cp", "amount": N, "why": ...}``): the players spent N CP at the
    table (a re-roll of dice they rolled themselves, a strategy or firefight ploy of their
    team's own rules), so the CP total stays true. Refuses more than they have."""
    if prompt.kind not in CP_PROMPTS:
        raise RuleError("record CP spent when the game asks which operative acts or what it "
                        "did")
    amount = action.get("amount")
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 1:
        raise RuleError(f"how many CP? a whole number from 1, e.g. 'cp 1' (got {amount!r})")
    have = state.cp.get(PLAYER, 0)
    if amount > have:
        raise RuleError(f"you have {have} CP: you cannot spend {amount}")
    state.cp[PLAYER] = have - amount
    why = str(action.get("why") or "spent at the table")
    return [{"type": "cp_spent", "side": PLAYER, "player": prompt.player, "amount": amount,
             "cp": state.cp[PLAYER], "why": why}]


def hooks(game: Game) -> CpHooks | None:
    """The players' Command Point re-roll choosers for the step under way (set by
    :func:`solo_ops.game.engine.step`, see the module docstring), or None: what the
    combat bridge (:mod:`solo_ops.game.attacks`) asks after each roll of a player's dice."""
    chooser = getattr(game, "cp_chooser", None)
    return None if chooser is None else chooser.hook
