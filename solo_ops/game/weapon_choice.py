"""Which of an operative's ranged weapons could shoot a target now, and why each other cannot
(:func:`weapon_refusals`, :func:`usable_weapons`): used up (Limited), Heavy after a move or not
Silent under a Conceal order (Kill Team 2024), or out of range around the walls. The players'
answers ask it to pick the weapon when they named none and only one fits
(:mod:`solo_ops.game.intent`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from solo_ops.game.action_checks import order_may_change
from solo_ops.game.state import Operative, State

if TYPE_CHECKING:
    from solo_ops.game.definition import Game


def usable_weapons(game: Game, state: State, op: Operative, target: Operative) -> list[Any]:
    """``op``'s ranged weapons that could shoot ``target`` now: within range around the walls,
    not used up (Limited), not Heavy after a move (2024), Silent under Conceal (2024)."""
    return [w for w, why in weapon_refusals(game, state, op, target) if why is None]


def weapon_refusals(game: Game, state: State, op: Operative, target: Operative
                    ) -> list[tuple[Any, str | None]]:
    """Each of ``op``'s ranged weapons with why it cannot shoot ``target`` now (None: it
    can): used up (Limited), Heavy after a move or not Silent under Conceal (2024), or out
    of range around the walls."""
    from solo_ops.game.shots import limited_used_up
    from solo_ops.rules import kt2024

    terrain = game.terrain(state)
    out: list[tuple[Any, str | None]] = []
    distance = None
    for w in op.profile.ranged_weapons:
        why = None
        moved_how = op.moved_how or ("carrying" if op.carrying is not None else None)
        if limited_used_up(state, op, w):
            why = f"{w.name} is used up (Limited)"
        elif state.edition == "kt2024" and not kt2024.may_shoot_after_move(w, moved_how):
            why = f"{w.name} is Heavy and {op.name} moved ({str(moved_how).replace('_', ' ')})"
        elif state.edition == "kt2024" and op.stance == "conceal" and not w.has("silent"):
            why = (f"{op.name} has a Conceal order and {w.name} is not Silent "
                   + ("(answer 'engage' first to change the order)"
                      if order_may_change(state, op) else
                      "(the order was chosen as the activation started)"))
        elif w.effective_range is not None and op.at is not None and target.at is not None:
            if distance is None:
                d = terrain.routes.distance(op.at, target.at, op.radius, target.radius).distance
                distance = math.inf if d is None else float(d)
            if distance > w.effective_range + 1e-6:
                why = (f"{target.id} is {distance:.1f}\" away, beyond {w.name}'s "
                       f"{w.effective_range:g}\"")
        out.append((w, why))
    return out
