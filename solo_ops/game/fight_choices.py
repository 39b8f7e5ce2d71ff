"""The players' fights, die by die: strike or block, as Kill Team 2024 plays them.

Card 001: "Both roll attack dice. Alternate Strike or Block (Only Crits can block Crits)." When
solo-ops rolls a fight of a player operative (``fight … roll``, a fight the enemy starts, a
Guard interrupt), the players resolve their own dice one at a time (setting ``fight_choices:
ask``, the default): at each die where they have more than one legal move and the enemy still
has dice, the step pauses with a ``fight`` prompt that shows both sides' dice left, both
models' wounds and, for each move, where it leads when both sides then play the engine's
policy (the enemy always does: :func:`solo_ops.rules.kt2024_fight.resolve_fight`); the
policy's own move is the advice (★). The answers: ``strike N`` (die #N of yours), ``block N``
(it blocks the enemy die it can: a crit if the enemy has one and yours is a crit, else a
normal), ``block N M`` (yours #N blocks theirs #M), ``auto`` (the advice) and ``auto all`` (the
advice for every die left in this fight). Dice are numbered crits first.

The pause is the one :mod:`solo_ops.game.cp` uses for a CP re-roll: the question is raised
inside the step (:class:`NeedFightChoice`), the state is put back as it was, the question is
recorded in ``state.pending_attacks`` with the step's action and the answers so far, and the
answer runs the step again from the same state with one more answer (the same dice come out:
a seeded, counter-based source). So saves, resume, undo, replay and checkpoints keep working at
the pause, and the same seed and answers give the same game byte for byte. With
``fight_choices: auto`` nothing is asked and the players' dice follow the policy.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from solo_ops.core.errors import RuleError
from solo_ops.game.cp import Chooser, NeedAnswer
from solo_ops.game.events import shown as shown_to_players
from solo_ops.game.state import PLAYER, Operative, State
from solo_ops.rules import kt2024

if TYPE_CHECKING:
    from solo_ops.game.attacks import FightHooks
    from solo_ops.game.definition import Game, Prompt

AUTO_ALL = "auto_all"
"""An answer that takes the advice for every die left in the fight (kept as itself)."""


class NeedFightChoice(NeedAnswer):
    """Raised inside a step when a player operative's fight needs its next move decided."""

    def __init__(self, op: Operative, choice: kt2024.FightChoice) -> None:
        super().__init__(f"a fight move for {op.id}")
        self.op = op
        self.choice = choice

    def pause(self, state: State, action: dict[str, Any], answers: list[Any],
              progress: list[dict[str, Any]] | None) -> dict[str, Any]:
        """Record the question (see :mod:`solo_ops.game.cp`'s ``pause``); returns the
        ``fight_offered`` event: what the enemy did so far in the step (``so_far``) and the
        fight's lines so far (the dice, the dice resolved), worded before the question."""
        op, choice = self.op, self.choice
        entry = {
            "kind": "fight_move", "player": op.owner, "operative": op.id, "side": choice.side,
            "names": list(choice.names), "mine": list(choice.mine),
            "theirs": list(choice.theirs), "wounds": list(choice.wounds),
            "damage": [list(d) for d in choice.damage], "shock": choice.shock,
            "brutal": choice.brutal,
            "options": [{"move": o.move, "dealt": o.dealt, "taken": o.taken,
                         "advised": o.advised, "answer": _answer_words(o.move, choice)}
                        for o in choice.options],
            "lines": list(choice.lines),
            "action": copy.deepcopy(action), "answers": list(answers),
        }
        entry["text"] = question(entry)
        state.pending_attacks.insert(0, entry)
        so_far = [copy.deepcopy(e) for e in progress or [] if shown_to_players(e)]
        return {"type": "fight_offered", "player": op.owner, "operative": op.id,
                "side": choice.side, "names": list(choice.names),
                **({"so_far": so_far} if so_far else {}),
                "lines": list(choice.lines)}


def hooks(game: Game) -> FightHooks | None:
    """The players' fight choosers for the step under way (None: the policy plays every
    die): set when the step runs with a :class:`~solo_ops.game.cp.Chooser` whose
    ``fights`` is on."""
    chooser = getattr(game, "cp_chooser", None)
    if chooser is None or not chooser.fights:
        return None
    return lambda op: _chooser(chooser, op)


def _chooser(chooser: Chooser, op: Any) -> kt2024.FightChooser | None:
    """The chooser of ``op``'s moves in one fight (a player operative's; None otherwise):
    each question takes the next answer of the step, or raises :class:`NeedFightChoice`."""
    if getattr(op, "side", None) != PLAYER:
        return None
    policy = False  # 'auto all' was answered in this fight

    def choose(choice: kt2024.FightChoice) -> str:
        nonlocal policy
        if policy:
            return choice.advice
        if not chooser.answered():
            raise NeedFightChoice(op, choice)
        answer = chooser.take()
        if answer == AUTO_ALL:
            policy = True
            return choice.advice
        if answer not in {o.move for o in choice.options}:
            raise RuntimeError(f"a kept fight answer {answer!r} is not a legal move here")
        return str(answer)

    return choose


# -- the question in words ----------------------------------------------------------------------
def _places(counts: list[int] | tuple[int, int]) -> dict[str, list[int]]:
    """Die places of one side (crits first): ``{"crit": [1, 2], "normal": [3]}``."""
    crits, normals = int(counts[0]), int(counts[1])
    return {"crit": list(range(1, crits + 1)),
            "normal": list(range(crits + 1, crits + normals + 1))}


def _answer_words(move: str, choice: kt2024.FightChoice) -> str:
    """The shortest answer that makes ``move``: ``strike N``, ``block N`` or ``block N M``."""
    mine, theirs = _places(choice.mine), _places(choice.theirs)
    parts = move.split("_")
    die = mine[parts[1]][0]
    if parts[0] == "strike":
        return f"strike {die}"
    if parts[2] == _default_target(parts[1], theirs):
        return f"block {die}"
    return f"block {die} {theirs[parts[2]][0]}"


def _default_target(kind: str, theirs: dict[str, list[int]]) -> str:
    """What ``block N`` blocks with a die of ``kind``: a crit blocks a crit when there is
    one, else a normal; a normal blocks a normal."""
    return "crit" if kind == "crit" and theirs["crit"] else "normal"


def _dice_words(counts: list[int], damage: list[int]) -> str:
    places = _places(counts)
    shown = [f"#{n} crit ({damage[1]} dmg)" for n in places["crit"]]
    shown += [f"#{n} normal ({damage[0]} dmg)" for n in places["normal"]]
    return ", ".join(shown) if shown else "none"


def _outcome(entry: dict[str, Any], option: dict[str, Any]) -> str:
    mine, theirs = entry["names"]
    left_mine = max(0, entry["wounds"][0] - option["taken"])
    left_theirs = max(0, entry["wounds"][1] - option["dealt"])

    def state(name: str, left: int) -> str:
        return f"{name} incapacitated" if left == 0 else f"{name} {left} W left"

    return (f"you deal {option['dealt']}, take {option['taken']} ("
            f"{state(mine, left_mine)}, {state(theirs, left_theirs)})")


def question(entry: dict[str, Any]) -> str:
    """The ``fight`` prompt's text: the dice left, the wounds, each move and its outcome."""
    mine, theirs = entry["names"]
    lines = [f"{entry['player']}: {mine} fights {theirs} — resolve your next die "
             "(only crits block crits"
             + ("; their weapon is Brutal: you block with crits only" if entry["brutal"]
                else "")
             + ("; your first crit strike is Shock: it discards one of their dice"
                if entry["shock"] else "") + ").",
             f"  {mine} ({entry['wounds'][0]} W left): "
             f"{_dice_words(entry['mine'], entry['damage'][0])}",
             f"  {theirs} ({entry['wounds'][1]} W left): "
             f"{_dice_words(entry['theirs'], entry['damage'][1])}",
             f"  Each choice, if both sides then play the engine's way ({theirs} always "
             "does):"]
    width = max(len(o["answer"]) for o in entry["options"])
    for option in entry["options"]:
        mark = "★" if option["advised"] else " "
        lines.append(f"  {mark} {option['answer']:<{width}}  "
                     f"{kt2024.MOVE_WORDS[option['move']]} → {_outcome(entry, option)}")
    lines.append("  ★ the engine's advice: 'auto' takes it, 'auto all' for every die left in "
                 "this fight.")
    return "\n".join(lines)


def options(entry: dict[str, Any]) -> list[str]:
    """The answers the ``fight`` prompt offers (the advice first after the moves)."""
    return [*(o["answer"] for o in entry["options"]), "auto", "auto all"]


# -- the answer ---------------------------------------------------------------------------------
def take_answer(state: State, action: dict[str, Any], prompt: Prompt
                ) -> tuple[dict[str, Any], list[Any]]:
    """Check a ``fight_choice`` answer against the question and take the question off;
    returns the paused step's action and its answers so far with this one (a move name, or
    :data:`AUTO_ALL`). Refuses (state untouched) any other answer while the question waits,
    and a fight answer when none does."""
    if prompt.kind != "fight":
        raise RuleError("no fight is waiting for your move")
    entry = state.pending_attacks[0]
    if action.get("type") != "fight_choice":
        raise RuleError("first resolve your die in the fight: 'strike N', 'block N', 'auto' "
                        f"or 'auto all' ({', '.join(options(entry)[:-2])})")
    answer = _move_of(entry, action)
    state.pending_attacks.pop(0)
    return copy.deepcopy(entry["action"]), [*entry["answers"], answer]


def _move_of(entry: dict[str, Any], action: dict[str, Any]) -> str:
    """The move a ``fight_choice`` answer makes (RuleError naming the legal ones)."""
    legal = {o["move"]: o["answer"] for o in entry["options"]}
    how = action.get("move")
    if how == "auto":
        return AUTO_ALL if action.get("all") else next(
            o["move"] for o in entry["options"] if o["advised"])
    mine, theirs = _places(entry["mine"]), _places(entry["theirs"])
    kind = _kind(mine, action.get("die"), "your", entry["mine"])
    if how == "strike":
        move = f"strike_{kind}"
    elif how == "block":
        against = action.get("against")
        target = (_default_target(kind, theirs) if against is None
                  else _kind(theirs, against, "their", entry["theirs"]))
        move = f"block_{kind}_{target}"
    else:
        raise RuleError("'strike N', 'block N', 'block N M', 'auto' or 'auto all'")
    if move not in legal:
        why = ""
        if move.startswith("block_normal_crit"):
            why = ": only crits block crits (001)"
        elif move == "block_normal_normal" and entry["brutal"]:
            why = ": their weapon is Brutal, only crits block (002)"
        raise RuleError(f"{kt2024.MOVE_WORDS.get(move, move.replace('_', ' '))} is not "
                        f"possible here{why}; you can answer {', '.join(legal.values())}, "
                        "'auto' or 'auto all'")
    return move


def _kind(places: dict[str, list[int]], die: Any, whose: str, counts: list[int]) -> str:
    """The kind of die #``die`` of a side (RuleError when there is no such die)."""
    total = int(counts[0]) + int(counts[1])
    if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= total:
        raise RuleError(f"which of {whose} dice? a number from 1 to {total} as shown"
                        if total else f"{whose} side has no dice left")
    return "crit" if die in places["crit"] else "normal"
