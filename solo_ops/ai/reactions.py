"""The enemy's Reactions (Kill Team 2018): what an enemy model does when a player model
declares a charge at it.

004: "After you have declared a charge, any opponents take it in turn to make Reactions ... A
model can React if it is the target of a charging model and it is more than 1" from an enemy
model. A model can either fire Overwatch or Retreat when it Reacts." Overwatch "uses all the
normal rules for shooting (e.g. the target must be in range and visible when they declare the
charge), except that any attacks made must target the model attempting to charge, and a 6 is
always required for a successful hit roll".

003 says the enemy otherwise plays "as per a normal game": a charged enemy model fires
Overwatch whenever it can (it costs it nothing: it may still shoot in its shooting phase). It
never Retreats: no order of the supplement gives ground to a charger (every move order heads
for the enemy, cover or a distance, or stays), and a Retreat forfeits its shots for the battle
round (``docs/rules.md``).
"""

from __future__ import annotations

from dataclasses import replace

from solo_ops.ai.context import Action, Context
from solo_ops.ai.shooting import choose_shot
from solo_ops.game.state import PLAYER, State
from solo_ops.rules import kt2018_reactions, reach, referee


def may_react(ctx: Context, state: State, model_id: str) -> str | None:
    """Why the enemy model ``model_id`` cannot React now (None: it can): the rules both sides
    ask (:func:`solo_ops.rules.referee.shaken_words` and
    :func:`solo_ops.rules.kt2018_reactions.may_react`: it is shaken, it is within 1" of a
    player model, or it Advanced (without an Assault weapon), Fell Back, Retreated or
    attempted a charge). The Pariah Nexus effects that forbid a Reaction (Chronovorric Field)
    are asked by the caller, which knows them (:func:`solo_ops.game.pariah.react_refusal`)."""
    model = state.operatives[model_id]
    if model.at is None or not model.on_table:
        return f"{model.label} is not on the table"
    near = next((o for o in state.living(PLAYER) if o.at is not None and reach.engaged_2018(
        ctx.terrain, model.at, model.radius, o.at, o.radius)), None)
    why = referee.shaken_words(state.edition, model.shaken) or kt2018_reactions.may_react(
        engaged=near is not None, moved_how=model.moved_how, advanced=model.advanced,
        charged=model.charged, assault=model.profile.has_assault, picked_up=model.picked_up)
    if why is None:
        return None
    if near is not None and not model.shaken:
        return f"{model.label} is within 1\" of {near.name}: it cannot React"
    return f"{model.label} cannot React: {why}"


def overwatch(ctx: Context, state: State, model_id: str, charger_id: str) -> Action | None:
    """The Overwatch the enemy model ``model_id`` fires at ``charger_id``, who declared a charge
    at it: its best shot at the charger (visible and in range from where both stand), or None
    when it cannot React or has no such shot."""
    if ctx.edition != "kt2018" or may_react(ctx, state, model_id) is not None:
        return None
    model, charger = state.operatives[model_id], state.operatives[charger_id]
    if charger.at is None or model.at is None:
        return None
    pos = {o.id: o.at for o in state.operatives.values() if o.on_table and o.at is not None}
    shooter = model
    if model.advanced:  # 004 Assault: "it can only fire Assault weapons"
        allowed = kt2018_reactions.overwatch_weapons(list(model.profile.ranged_weapons),
                                                     advanced=True)
        shooter = replace(model, profile=replace(model.profile, weapons=tuple(
            w for w in model.profile.weapons if w.is_melee or w in allowed)))
    shot, _ = choose_shot(ctx, shooter, model.at, [charger], pos, moved=False, moved_how=None)
    if shot is None:
        return None
    shot.note = (f"{model.label} reacts to the charge: Overwatch at {charger.label} with "
                 f"{shot.weapon} (hits only on 6s).")
    return shot

