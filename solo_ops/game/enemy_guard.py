"""The enemy's Guard in play (Gallowdark): after a player operative's first action, every
enemy model On Guard that can now shoot or fight it interrupts (:func:`guard_interrupts`; what
it does is :mod:`solo_ops.ai.guard`'s choice), and a Guard ends when a player operative ends
an action within its control range (:func:`guards_engaged`). The players' own Guard is
:mod:`solo_ops.game.guard`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from solo_ops.game import cp, fights, shots
from solo_ops.game.state import ENEMY, Operative, State

if TYPE_CHECKING:
    from solo_ops.game.definition import Game


def guard_interrupts(game: Game, state: State, mover: Operative) -> list[dict[str, Any]]:
    """After a player operative's first action of its activation: every enemy model On Guard
    (in id order) that can now shoot it (a valid target) or fight it (in control range)
    interrupts, for free; doing so ends its Guard. Rolled or handed to the player like every
    enemy attack."""
    from solo_ops.ai.guard import guard_reaction

    events: list[dict[str, Any]] = []
    cp.tell(game, events)  # the interrupt is told before a question in its attack
    for guard in sorted(state.living(ENEMY), key=lambda o: o.id):
        if not guard.on_guard or not mover.on_table:
            continue
        reaction = guard_reaction(game.context(state), state, guard.id, mover.id)
        if reaction is None:
            continue
        how, action = reaction
        guard.on_guard = False
        events.append({"type": "guard_interrupt", "operative": guard.id, "target": mover.id,
                       "how": how, "note": action.note})
        if how == "fight":
            events.extend(fights.enemy_fight(game, state, guard, action))
        else:
            penalty = 1 if fights.in_reach(game, state, guard, mover) else 0
            # "After a Shoot in Control Range, this Operative cannot retaliate to Fights for
            # the remaining enemy activation" (001 Gallowdark On Guard): the players' one
            guard.no_retaliation = bool(penalty)
            events.extend(shots.enemy_shot(game, state, guard, action, hit_penalty=penalty))
    return events


def guards_engaged(game: Game, state: State, mover: Operative) -> list[dict[str, Any]]:
    """Guard ends when an enemy ends an action in the guard's control range (within 1" around
    the walls and visible: :func:`solo_ops.rules.reach.in_control_range`)."""
    events: list[dict[str, Any]] = []
    if not mover.on_table:
        return events
    for guard in sorted(state.living(ENEMY), key=lambda o: o.id):
        if guard.on_guard and fights.in_reach(game, state, guard, mover):
            guard.on_guard = False
            events.append({"type": "guard_ended", "operative": guard.id,
                           "why": f"{mover.label} ended an action within its control range"})
    return events
