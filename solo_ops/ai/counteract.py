"""The enemy's Counteract (Kill Team 2024, card 001): which expended model acts, and how.

Card 001: "Counteract - When you would activate an Operative, but have no ready Operatives
left, and your opponent still has ready Operatives to activate: you can select a expended
friendly Operative with an ENGAGE order to perform a 1AP action for free. ... Cannot move
greater than 2" while counteracting." The engine decides *when* the enemy may counteract
(:func:`solo_ops.game.turns.counteract_candidates`); :func:`choose` decides *what*, purely
(it never changes the state or rolls), by the planner's own helpers:

1. **Fight**, when a candidate is in a player operative's control range and has a melee weapon
   (it cannot shoot there): the first such model by id fights the first operative in its
   control range (the planner's order of its engaged enemies).
2. **Shoot**: every order of the supplement's tables lets a unit shoot ("Fire at will" or
   "Unhindered move"), so each candidate out of control range takes the planner's shot
   (:func:`solo_ops.ai.shooting.choose_shot`: the closest valid target in range, ties to the
   higher expected damage, the best weapon for it); the shot with the highest expected damage
   is made (ties: the lower model id).
3. **Move** at most 2" by its unit's move order (:func:`solo_ops.ai.move_order.move_by_order`
   with the move allowance capped at 2"): the first candidate by id whose order finds a better
   point within 2". A "Remain stationary" order does not move.
4. Otherwise nothing: the enemy passes (it may counteract after the players' next activation).
"""

from __future__ import annotations

from dataclasses import replace

from solo_ops.ai.context import Action, Context, WorkingBoard, in_control_range
from solo_ops.ai.move_order import move_by_order
from solo_ops.ai.shooting import choose_shot
from solo_ops.core.tables import order_table
from solo_ops.game.state import Operative, State
from solo_ops.rules import reach

COUNTERACT_MOVE = 2.0
"""Card 001: "Cannot move greater than 2" while counteracting."""


def _capped(op: Operative, edition: str) -> Operative:
    """A copy of ``op`` whose Reposition allowance is at most :data:`COUNTERACT_MOVE` (the
    planner reads the allowance from the profile's movement, less 2" when injured)."""
    cap = min(reach.move_allowance(op, "reposition", edition), COUNTERACT_MOVE)
    movement = cap + (reach.INJURED_MOVE_PENALTY if op.injured else 0.0)
    return replace(op, profile=replace(op.profile, movement=movement))


def choose(ctx: Context, state: State, candidates: list[Operative]
           ) -> Action | None:
    """The enemy's counteract action (see the module docstring), or None to pass.
    ``candidates``: the models that may counteract, in id order."""
    board = WorkingBoard(state)
    enemies = board.enemies_of_ai()
    if not enemies:
        return None
    free = []
    for op in candidates:
        if op.id not in board.pos:
            continue
        here = board.pos[op.id]
        engaged = in_control_range(ctx, here, op.radius, enemies, board.pos)
        if engaged:
            if op.profile.melee_weapons:
                weapon = op.profile.melee_weapons[0].name
                return Action("fight", op.id, target=engaged[0].id, weapon=weapon,
                              note=f"{op.label} counteracts: it fights "
                                           f"{engaged[0].label}, in its control range.")
            continue
        free.append(op)
    best: tuple[float, str, Action] | None = None
    for op in free:
        shot, _ = choose_shot(ctx, op, board.pos[op.id], enemies, board.pos,
                              moved=False, moved_how=None)
        if shot is None:
            continue
        key = (-(shot.expected or 0.0), op.id)
        if best is None or key < best[:2]:
            best = (*key, shot)
    if best is not None:
        shot = best[2]
        shot.note = f"{shot.model} counteracts: " + shot.note
        return shot
    for op in free:
        unit = state.units.get(op.owner)
        if unit is None:
            continue
        codes = order_table(unit.troop)[unit.command].codes()
        mates = [(board.pos[m][0], board.pos[m][1], state.operatives[m].radius)
                 for m in unit.models if m != op.id and m in board.pos]
        move = move_by_order(ctx, state, unit, _capped(op, ctx.edition),
                             board.pos[op.id], "reposition", codes, board, enemies,
                             mates)
        if move is not None:
            move.note = f"{op.label} counteracts (a move of at most 2\"): " + move.note
            return move
    return None
