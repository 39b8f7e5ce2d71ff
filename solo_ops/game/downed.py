"""Wounds taken and a model going down (incapacitated in 2024, out of action in 2018), and what
follows.

:func:`apply_damage` is the one place wounds are taken away (a 2018 injury roll at 0).

:func:`take_down` marks it down, counts it, puts a friend it carried down beside it (at the
nearest point where a base may stand: :func:`solo_ops.game.placing.put_down`, issue #27),
drops a marker it carried (001 Place Down for 0 AP), and moves an enemy unit's state machine on
(lost models, destroyed, its followers losing their leader). A downed operative of the
players' side keeps its base on the table (:attr:`solo_ops.game.state.Operative.lying`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from solo_ops.ai import fsm
from solo_ops.game import attacks, markers, pariah, placing
from solo_ops.game.state import ENEMY, Operative, State
from solo_ops.rules import kt2018
from solo_ops.rules.reach import round_point as _r

if TYPE_CHECKING:
    from solo_ops.game.definition import Game


def take_down(state: State, op: Operative, why: str, game: Game | None = None
              ) -> list[dict[str, Any]]:
    """``op`` is incapacitated / out of action. A friend it carried is put down beside it, at
    the nearest point where a base may stand (the placement rule; with ``game``)."""
    op.down = True
    op.wounds = 0
    op.went_down = True
    side = op.side
    state.incapacitated_this_turn[side] = state.incapacitated_this_turn.get(side, 0) + 1
    state.incapacitated_total[side] = state.incapacitated_total.get(side, 0) + 1
    events: list[dict[str, Any]] = [{"type": "down", "operative": op.id, "side": side,
                                     "why": why}]
    if op.carrying is not None:
        carried = state.operatives[op.carrying]
        carried.carried_by = None
        op.carrying = None
        events.append({"type": "dropped", "operative": op.id, "carried": carried.id})
        spot = None if game is None else placing.put_down(game.terrain(state), state, carried)
        if spot is not None:
            events[-1]["at"] = _r(spot)
    events.extend(markers.drop(state, op))  # 001 Place Down: "MUST perform this action for OAP"
    if side == ENEMY:
        unit = state.unit_of(op.id)
        if unit is not None and unit.active:
            if not state.unit_models(unit):
                unit.fsm = fsm.fire(unit.fsm, "destroyed")
                events.append({"type": "unit_destroyed", "unit": unit.id})
                events.extend(_leader_lost(state, unit))
            else:
                if state.renew_leadership(unit):  # the highest Leadership left leads now
                    events.append({"type": "unit_leadership", "unit": unit.id,
                                   "leadership": unit.leadership,
                                   "why": f"{op.label} is out of action"})
                if fsm.allowed(unit.fsm, "lost_models"):
                    unit.fsm = fsm.fire(unit.fsm, "lost_models")
    return events


def _leader_lost(state: State, leader: Any) -> list[dict[str, Any]]:
    """Units heading to join a destroyed unit lose their goal (``leader_destroyed``)."""
    events = []
    for unit in state.active_units():
        if unit.id == leader.id or unit.fsm == "hidden":
            continue
        if unit.leadership < leader.leadership and fsm.allowed(unit.fsm, "leader_destroyed"):
            before = unit.fsm
            unit.fsm = fsm.fire(unit.fsm, "leader_destroyed")
            if before != unit.fsm:
                events.append({"type": "unit_state", "unit": unit.id, "state": unit.fsm,
                               "why": f"its leader {leader.id} was destroyed"})
    return events


def apply_damage(game: Game, state: State, op: Operative, amount: int, why: str,
                 *, outcome: str | None = None) -> list[dict[str, Any]]:
    """Take ``amount`` wounds from ``op``; at 0 it goes down (2024) or, in 2018, an injury
    roll decides (``outcome`` from a rolled 2018 attack already carries it)."""
    if op.down or (amount <= 0 and outcome is None):
        return []
    events: list[dict[str, Any]] = []
    lost = min(op.wounds, max(0, amount))
    op.wounds -= lost
    op.wounds_lost += lost
    events.append({"type": "damage", "operative": op.id, "amount": lost, "wounds": op.wounds,
                   "why": why})
    if state.edition == "kt2018" and op.wounds <= 0 and outcome is None:
        assert state.dice is not None
        mods, faces, reroll_why = pariah.injury_effects(game, state, op)
        outcome = attacks.injury_2018(state.dice, op, mods, reroll=faces,
                                      reroll_why=reroll_why)
        events[-1]["injury"] = state.dice.log[-1].value  # rolled here: the players see it
    if state.edition == "kt2018" and outcome == "flesh_wound":
        # 004 Flesh Wound: "Mark one of the empty Flesh Wound boxes ... If a model suffers a
        # flesh wound and all of the Flesh Wound boxes on their datacard are marked, it is
        # taken out of action instead" (kt2018.after_injury; a rolled outcome already asked)
        outcome = kt2018.after_injury(outcome, op.flesh_wounds)
    if state.edition == "kt2018" and outcome == "flesh_wound":
        op.flesh_wounds += 1
        op.wounds = 1
        events.append({"type": "flesh_wound", "operative": op.id, "flesh_wounds":
                       op.flesh_wounds, "boxes": kt2018.FLESH_WOUND_BOXES})
        return events
    if op.wounds > 0 and outcome != "out_of_action":
        if op.side == ENEMY:
            unit = state.unit_of(op.id)
            if unit is not None and unit.active and fsm.allowed(unit.fsm, "shot_at"):
                unit.fsm = fsm.fire(unit.fsm, "shot_at")
        return events
    return events + take_down(state, op, why, game)
