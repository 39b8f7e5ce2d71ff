"""The checks every player action shares: who acts, what an answer names, control range, AP.

:mod:`solo_ops.game.actions` and :mod:`solo_ops.game.player_moves` ask these before they change
anything: which operative acts, which one an answer names, whether a reported point is a point,
which enemies hold an operative in control range, and whether it has the action points (Kill
Team 2024) for what it does. The underscore names are shared within :mod:`solo_ops.game` only.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from solo_ops.core.errors import RuleError
from solo_ops.game.state import ENEMY, PLAYER, Operative, State
from solo_ops.rules import reach, sequences

if TYPE_CHECKING:
    from solo_ops.game.definition import Game


CONTROL_RANGE = reach.CONTROL_RANGE
AP_COST = {"reposition": 1, "dash": 1, "charge": 1, "fall_back": 2, "shoot": 1, "fight": 1,
           "portal": 1, "pickup": 1, "placedown": 1}
MOVE_TOLERANCE = 0.25  # inches of slack when checking a reported move against the allowance


def _centre(o: Operative) -> tuple[float, float]:
    """An operative's centre; only for one on the table (``on_table`` implies a place)."""
    assert o.at is not None
    return o.at


def _op(state: State, ident: Any, what: str = "operative") -> Operative:
    """The operative an answer names by id, or refuse (naming those on the table)."""
    if not isinstance(ident, str) or ident not in state.operatives:
        known = ", ".join(sorted(o.id for o in state.operatives.values() if o.on_table))
        raise RuleError(f"no {what} called {ident!r} (on the table: {known})")
    return state.operatives[ident]


def _active(state: State, action: dict[str, Any], prompt: Any) -> Operative:
    """The active operative an action is for, or refuse (none active, or another one named)."""
    if prompt.kind != "act" or state.active_operative is None:
        raise RuleError("activate an operative first")
    ident = action.get("operative") or state.active_operative
    if ident != state.active_operative:
        raise RuleError(f"{ident} is not the active operative ({state.active_operative} is)")
    return state.operatives[ident]


def _point(value: Any) -> tuple[float, float]:
    """A reported point ``x,y`` as two finite floats, or refuse."""
    try:
        x, y = float(value[0]), float(value[1])
    except (TypeError, ValueError, IndexError):
        raise RuleError(f"expected a point x,y, got {value!r}") from None
    if not (math.isfinite(x) and math.isfinite(y)):
        raise RuleError(f"expected a point x,y, got {value!r}")
    return (x, y)


def _enemies_in_control(state: State, op: Operative, game: Game,
                        at: tuple[float, float] | None = None) -> list[Operative]:
    """Enemies within control range of ``op`` (standing at ``at`` if given): within 1" around
    the walls and visible (2024 "Visible and within 1""; 2018 "models cannot attack through
    walls"), by :func:`solo_ops.rules.reach.within_reach`."""
    other = ENEMY if op.side == PLAYER else PLAYER
    return reach.within_reach(game.terrain(state), op, state.living(other), at=at)


def _spend(state: State, op: Operative, what: str, *, check_only: bool = False) -> None:
    """Spend the action points of ``what`` (Kill Team 2024), or refuse: the sequence table
    (:mod:`solo_ops.rules.sequences`: each action once, no Charge after a Reposition, ...)
    first, then the AP; ``check_only`` only refuses, so an action's AP and place in the
    activation are checked before anything else about it."""
    if state.edition != "kt2024":
        return
    cost = AP_COST.get(what, 1)
    if state.counteracting:  # 001 Counteract: "perform a 1AP action for free"
        if cost != 1:
            raise RuleError(f"a counteract is one 1 AP action: {what.replace('_', ' ')} costs "
                            f"{cost}")
        if op.actions_taken:
            raise RuleError(f"{op.name} has made its counteract action")
        if not check_only:
            op.actions_taken.append(what)  # free: no AP spent
        return
    apl = max(1, op.profile.apl - op.apl_penalty)
    refused = sequences.refusal_words(op.name, what, op.actions_taken)
    if refused is not None:  # the sequence table (rules/sequences.py), shared with the AI
        raise RuleError(refused)
    if op.ap_used + cost > apl:
        raise RuleError(f"{op.name} has {apl - op.ap_used} AP left; {what.replace('_', ' ')} "
                        f"costs {cost}")
    if check_only:
        return
    op.ap_used += cost
    op.actions_taken.append(what)


def order_may_change(state: State, op: Operative) -> bool:
    """Whether ``op``'s Kill Team 2024 order may still be chosen: its activation has not
    acted yet (001: an activation is "Pick Order and do valid actions up to APL"); a
    counteract is not an activation."""
    return not (op.ap_used or op.actions_taken or state.counteracting)
