"""The checks every player action shares: who acts, what an answer names, control range, AP.

:mod:`solo_ops.game.actions` and :mod:`solo_ops.game.player_moves` ask these before they change
anything: which operative acts, which one an answer names, whether a reported point is a point,
which enemies hold an operative in control range, and whether it has the action points (Kill
Team 2024) for what it does. The underscore names are shared within :mod:`solo_ops.game` only.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from solo_ops.ai.counteract import COUNTERACT_MOVE
from solo_ops.core.errors import RuleError
from solo_ops.game.state import ENEMY, PLAYER, Operative, State
from solo_ops.rules import reach, referee

if TYPE_CHECKING:
    from solo_ops.game.definition import Game


CONTROL_RANGE = reach.CONTROL_RANGE
AP_COST = referee.AP_COST
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


def activation(state: State, op: Operative) -> referee.Activation:
    """What the referee (:mod:`solo_ops.rules.referee`) knows of ``op`` now: its activation's
    AP and actions, the Heavy weapon it shot, a counteract, whom it carries, its 2024 order,
    the 2018 phase and move."""
    heavy = next((w for w in op.profile.weapons if w.name == op.heavy_shot), None)
    return referee.Activation(
        who=op.name, edition=state.edition, apl=max(1, op.profile.apl - op.apl_penalty),
        ap_used=op.ap_used, done=tuple(op.actions_taken), heavy=heavy, moved_how=op.moved_how,
        counteracting=state.counteracting, carrying=op.carrying,
        picked_up="carry" in op.actions_taken or op.picked_up,
        portals=tuple(op.portals_operated), phase=state.phase,
        stance=op.stance if state.edition == "kt2024" else None,
        started_within=state.started_within(op), shaken=op.shaken)



def holder(state: State, op: Operative, game: Game) -> str | None:
    """The id of an enemy holding ``op`` in control range (the referee's ``holder``), or None."""
    held = _enemies_in_control(state, op, game)
    return held[0].id if held else None


def _spend(state: State, op: Operative, what: str, *, check_only: bool = False) -> None:
    """Spend the action points of ``what`` (Kill Team 2024), or refuse: the referee's AP and
    sequence table (:func:`solo_ops.rules.referee.spend_refusal`: a counteract's one 1 AP
    action, each action once, no Charge after a Reposition, ...); ``check_only`` only refuses,
    so an action's AP and place in the activation are checked before anything else about it."""
    if state.edition != "kt2024":
        if what in ("shoot", "fight") and not check_only:
            op.actions_taken.append(what)  # 2018: once a phase (the referee's timing)
        return
    act = activation(state, op)
    refused = referee.spend_refusal(act, what)
    if refused is not None:
        raise RuleError(refused)
    if check_only:
        return
    # a counteract is free; so is the rest of a move a door or hatch interrupted
    if not state.counteracting and not referee.rest_of_move(act, what):
        op.ap_used += referee.ap_cost(what)
    op.actions_taken.append(what)


def order_may_change(state: State, op: Operative) -> bool:
    """Whether ``op``'s Kill Team 2024 order may still be chosen: its activation has not
    acted yet (001: an activation is "Pick Order and do valid actions up to APL"); a
    counteract is not an activation."""
    return not (op.ap_used or op.actions_taken or state.counteracting)


def move_limit(state: State, op: Operative, how: str) -> float:
    """How far this move of ``op`` may go: the move's allowance (a carrier's 4" a turn
    included; 2" for a counteract), or what the move under way left when a door or hatch was
    opened on its way (the referee's :func:`~solo_ops.rules.referee.rest_of_move`)."""
    limit = reach.move_allowance(op, how, state.edition)  # a carrier's 4" a turn included
    if referee.rest_of_move(activation(state, op), how) and op.move_left is not None:
        limit = min(limit, op.move_left)
    if state.counteracting:  # 001 "Cannot move greater than 2" while counteracting."
        limit = min(limit, COUNTERACT_MOVE)
    return limit
