"""Kill Team 2024 Counteract in play: the enemy's counteract step (the players' is an answer).

Card 001: "Counteract - When you would activate an Operative, but have no ready Operatives
left, and your opponent still has ready Operatives to activate: you can select a expended
friendly Operative with an ENGAGE order to perform a 1AP action for free. Only once per
Operative per TP until your opponent has no active Operatives left to activate. Cannot move
greater than 2" while counteracting."

When may a side counteract: :func:`solo_ops.game.turns.counteract_candidates` (and
``balance_sides`` keeps the turn with a side that may). The players answer the ``counteract``
prompt (:func:`solo_ops.game.engine.pending`; :mod:`solo_ops.game.actions`); the enemy's turn
comes here through the engine: :func:`enemy_step` asks :func:`solo_ops.ai.counteract.choose`
and carries the one action out, or passes. Either way the turn then goes to the players.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from solo_ops.ai import counteract as ai_counteract
from solo_ops.game import cp, enemy, enemy_checks, guard, reveal, turns
from solo_ops.game.state import ENEMY, PLAYER, State

if TYPE_CHECKING:
    from solo_ops.game.definition import Game


def enemy_step(game: Game, state: State) -> list[dict[str, Any]]:
    """The enemy has no ready unit and may counteract: one model's free 1 AP action (or a
    pass), then the players' turn."""
    candidates = turns.counteract_candidates(game, state, ENEMY)
    action = ai_counteract.choose(game.context(state), state, candidates) if candidates \
        else None
    events: list[dict[str, Any]] = []
    cp.tell(game, events)  # the counteract is told before a question in its attack
    refused = None
    if action is not None:
        refused = enemy_checks.refusal(game, state, state.operatives[action.model], action, (),
                                       counteracting=True)
    if action is not None and refused is not None:
        events.append(enemy_checks.refused_event(state.operatives[action.model], action,
                                                 refused))
    elif action is not None:
        op = state.operatives[action.model]
        state.counteracted.append(op.id)
        op.on_guard = False  # Guard ends when it performs any action
        events.append({"type": "counteract", "side": ENEMY, "operative": op.id,
                       "action": action.to_dict(), "note": action.note})
        if action.kind == "shoot":
            events.extend(enemy._shoot(game, state, op, action))
        elif action.kind == "fight":
            events.extend(enemy._fight(game, state, op, action))
        else:
            events.extend(enemy._move(game, state, op, action))
            events.extend(reveal.check_spotting(game, state))
        events.extend(guard.engaged(game, state, op))  # a players' Guard it ends (002)
    else:
        events.append({"type": "counteract_pass", "side": ENEMY})
    state.next_side = PLAYER
    events.extend(turns.balance_sides(game, state))
    if state.pending_attacks and state.next_side is None:
        state.next_side = PLAYER  # the players report the damage first
    return events
