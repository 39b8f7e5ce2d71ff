"""The players' cover save when it could block nothing: retain it, or roll that die.

Card 001: "In Cover — Defender can auto-retain 1 normal save". The defender *can*: where a
retained normal save could block nothing (:func:`solo_ops.rules.kt2024_dice.cover_useless`: the
attacker's weapon is Brutal, or a crits-only attack against a lone die or a Save of 6+), rolling
the die instead is never worse. The enemy, and the players with ``cover_saves: auto``, follow
that rule (the shot's lines say why the save was not retained). With ``cover_saves: ask`` (the
default) the players are asked, after the attack dice and before their defence dice, with the
exact mean damage either way: ``keep`` or ``roll``. Everywhere else the cover save is retained
as before (no question: retaining it can only help).

The question is the pause every mid-step question uses (:mod:`solo_ops.game.cp`).
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
    from solo_ops.game.attacks import CoverHooks
    from solo_ops.game.definition import Game, Prompt

KEEP, ROLL = "keep", "roll"


class NeedCoverChoice(NeedAnswer):
    """Raised inside a step when a player operative's useless cover save needs deciding."""

    def __init__(self, op: Operative, offer: kt2024.CoverOffer) -> None:
        super().__init__(f"a cover save for {op.id}")
        self.op = op
        self.offer = offer

    def pause(self, state: State, action: dict[str, Any], answers: list[Any],
              progress: list[dict[str, Any]] | None) -> dict[str, Any]:
        """Record the question (see :mod:`solo_ops.game.cp`); returns ``cover_offered`` with
        what the enemy did so far in the step (``so_far``), told before the question."""
        op, offer = self.op, self.offer
        entry = {"kind": "cover_save", "player": op.owner, "operative": op.id,
                 "label": offer.label, "crits": offer.crits, "normals": offer.normals,
                 "dice": offer.dice, "save": offer.save, "why": offer.why,
                 "retain_mean": round(float(offer.retain_mean), 3),
                 "roll_mean": round(float(offer.roll_mean), 3),
                 "action": copy.deepcopy(action), "answers": list(answers)}
        entry["text"] = question(op, entry)
        state.pending_attacks.insert(0, entry)
        so_far = [copy.deepcopy(e) for e in progress or [] if shown_to_players(e)]
        return {"type": "cover_offered", "player": op.owner, "operative": op.id,
                **({"so_far": so_far} if so_far else {})}


def hooks(game: Game) -> CoverHooks | None:
    """The players' cover choosers for the step under way (None: the rule decides)."""
    chooser = getattr(game, "cp_chooser", None)
    if chooser is None or not chooser.covers:
        return None
    return lambda op: _chooser(chooser, op)


def _chooser(chooser: Chooser, op: Any) -> kt2024.CoverChooser | None:
    if getattr(op, "side", None) != PLAYER:
        return None

    def choose(offer: kt2024.CoverOffer) -> bool:
        if not chooser.answered():
            raise NeedCoverChoice(op, offer)
        return bool(chooser.take() == KEEP)

    return choose


def question(op: Operative, entry: dict[str, Any]) -> str:
    """The ``cover`` prompt's text."""
    hits = f"{entry['crits']} crit(s) and {entry['normals']} normal hit(s)"
    return (f"{entry['player']}: {entry['label']}: {hits} to save against, "
            f"{entry['dice']} defence dice (save {entry['save']}+). {op.name} is in cover, but "
            f"the cover save could block nothing here ({entry['why']}). Keep it anyway (mean "
            f"damage {entry['retain_mean']:g}) or roll that die too (mean damage "
            f"{entry['roll_mean']:g})? Answer 'keep' or 'roll'.")


def options(entry: dict[str, Any]) -> list[str]:
    """The answers the ``cover`` prompt offers, the better one first."""
    return [ROLL, KEEP] if entry["roll_mean"] <= entry["retain_mean"] else [KEEP, ROLL]


def take_answer(state: State, action: dict[str, Any], prompt: Prompt
                ) -> tuple[dict[str, Any], list[Any]]:
    """Check a ``cover_choice`` answer (``keep``: true or false) and take the question off;
    returns the paused step's action and its answers with this one."""
    if prompt.kind != "cover":
        raise RuleError("no cover save is waiting for your choice")
    entry = state.pending_attacks[0]
    if action.get("type") != "cover_choice" or not isinstance(action.get("keep"), bool):
        raise RuleError(f"first answer the cover save: 'keep' or 'roll' ({entry['text']})")
    state.pending_attacks.pop(0)
    answer = KEEP if action["keep"] else ROLL
    return copy.deepcopy(entry["action"]), [*entry["answers"], answer]
