"""The referee asked again as the enemy's plan is carried out.

The planner asks :mod:`solo_ops.rules.referee` before it chooses a sequence; the engine asks it
once more before each planned action is applied (:func:`solo_ops.game.enemy.apply_plan`, the
enemy's Counteract), on the state as it is then: the model's actions carried out so far this
activation, its AP, a Heavy weapon it shot, and the control range where it stands now. An
action the referee refuses is not carried out; the event ``enemy_refused`` says why (the
referee audit, ``bench/audit_games.py --only referee``, counts them: none is expected).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from solo_ops.game import placing
from solo_ops.game.state import ENEMY, PLAYER, Operative, State
from solo_ops.rules import reach, referee

if TYPE_CHECKING:
    from solo_ops.ai.context import Action
    from solo_ops.game.definition import Game


def referee_kind(action: Action) -> str:
    """The referee's name of a planned action (opening a door or hatch is ``portal``)."""
    return "portal" if action.kind == "operate_hatch" else action.kind


def activation(state: State, op: Operative, spent: Sequence[Action],
               counteracting: bool = False) -> referee.Activation:
    """What the referee knows of the enemy model ``op``: the actions ``spent`` this activation
    (before the one being judged), its APL after a Stun, the Heavy weapon it shot, its 2024
    order as it stands; the 2018 phase and how it moved this battle round."""
    apl = max(1, op.profile.apl - op.apl_penalty)
    act = referee.Activation(who=op.label, edition=state.edition, apl=apl,
                             counteracting=counteracting, carrying=op.carrying,
                             phase=state.phase,
                             moved_how=op.moved_how if state.edition == "kt2018" else None,
                             stance=op.stance if state.edition == "kt2024" else None,
                             started_within=state.started_within(op), shaken=op.shaken)
    for done in spent:
        if state.edition == "kt2018" and done.kind not in ("operate_hatch", *referee.MOVES):
            continue  # 2018: a move and a door opened on its way are what matter
        weapon = next((w for w in op.profile.weapons if w.name == done.weapon), None)
        act = act.after(referee_kind(done), weapon)
    return act


def refusal(game: Game, state: State, op: Operative, action: Action, spent: Sequence[Action],
            counteracting: bool = False) -> str | None:
    """Why the referee refuses ``op``'s planned ``action`` now (None: it may be carried out),
    judged as a player's would be in its place."""
    watch = getattr(game, "referee_watch", None)
    if watch is not None:
        watch.action(game, state, op, action, spent, counteracting)
    kind = referee_kind(action)
    weapon = next((w for w in op.profile.weapons if w.name == action.weapon), None)
    measured = (kind in referee.MOVES or kind in ("shoot", "fight", "guard")) and not (
        kind == "fight" and action.portal is not None) and not (
        state.edition == "kt2018" and kind == "charge")
    holder = None
    if measured and op.at is not None:
        foes = state.living(PLAYER if op.side == ENEMY else ENEMY)
        held = reach.within_reach(game.terrain(state), op, foes)
        holder = held[0].label if held else None
    why = referee.refusal(activation(state, op, spent, counteracting), kind, weapon=weapon,
                          holder=holder, check_control=measured)
    if why is None and kind == "fight" and action.portal is not None:
        why = _across_refusal(game, state, op, action)
    return why


def _across_refusal(game: Game, state: State, op: Operative, action: Action) -> str | None:
    """Why a planned Door / Hatchway Fight may not be made now: the rule a player's fight
    across the door is judged by (:func:`solo_ops.game.attack_checks.check_fight`)."""
    from solo_ops.core.errors import RuleError
    from solo_ops.game.attack_checks import check_fight

    target = state.operatives.get(action.target or "")
    if target is None:
        return "its target is gone"
    try:
        check_fight(game, state, op, target, portal=action.portal)
    except RuleError as refused:
        return str(refused)
    return None


def refused_event(op: Operative, action: Action, why: str) -> dict[str, Any]:
    """The event of an enemy action the referee refused (it is not carried out)."""
    return {"type": "enemy_refused", "operative": op.id, "action": action.kind,
            "target": action.target, "why": why,
            "note": f"{op.label} does not {action.kind.replace('_', ' ')}: the referee refuses "
                    f"it ({why})."}


def stale_move(game: Game, state: State, op: Operative, action: Action) -> str | None:
    """Why a planned Fall Back or Kill Team 2024 Charge can no longer be made as planned (the
    engine then plans the model's actions again, as for a target gone): no enemy holds the
    model in control range any more (a Fall Back), or a base now stands on the charge's route
    so that where it would stop is not in the target's control range (a player would be
    refused that charge)."""
    foes = state.living(PLAYER if op.side == ENEMY else ENEMY)
    if action.kind == "fall_back" and op.at is not None and not reach.within_reach(
            game.terrain(state), op, foes):
        return f"no enemy holds {op.label} in control range any more"
    if action.kind in referee.FREE_MOVES and action.to is not None and op.at is not None:
        # a model that moved after the plan was made now holds its end (001 Reposition
        # "cannot finish the move within Control Range of an enemy"; 004 normal move and
        # Advance: not within 1" of an enemy model)
        held = reach.within_reach(game.terrain(state), op, foes, at=action.to)
        if held:
            return (f"{held[0].label} now stands within 1\" of where its move was to end"
                    if state.edition == "kt2018"
                    else f"{held[0].label} now holds where its move was to end in control "
                         "range")
    if action.kind != "charge" or action.to is None or op.at is None or action.target is None:
        return None
    target = state.operatives.get(action.target)
    if target is None or not target.on_table or target.at is None:
        return None  # (said by the attack's own staleness)
    route = action.route if len(action.route) >= 2 else (op.at, action.to)
    if route_blocked(game, state, op, route):
        return f"the way to {target.label} is blocked now (a base stands on it)"
    to, _, blocked = placing.placed(game, state, op, route,
                                    reach.move_allowance(op, "charge", state.edition))
    if to is not None and reach.in_control_range(game.terrain(state), to, op.radius,
                                                 target.at, target.radius):
        return None
    return f"the way to {target.label} is blocked now ({blocked or 'no room at its end'})"


def route_blocked(game: Game, state: State, op: Operative, route: Any) -> bool:
    """Whether a base now stands on a planned move's ``route`` (a model that moved or appeared
    after the plan was made): the move then goes round it to the planned end
    (:func:`solo_ops.game.placing.way_from_here`), as a player's would have to -- no base is
    walked through (:func:`solo_ops.geometry.placement.first_contact`)."""
    terrain = game.terrain(state)
    walk = placing.walk_along(terrain, route, op.radius)
    return placing.first_contact(terrain, walk, float(walk.cost), op.radius,
                                 state.bases(exclude=op.id)) is not None
