"""Kill Team 2018 Reactions and Readying (004): who may React to a charge (Overwatch or
Retreat), who may Retreat, who may be Readied. The rules both sides ask: the players' answers
(:mod:`solo_ops.game.reactions`, :mod:`solo_ops.game.actions`) and the enemy's
(:mod:`solo_ops.ai.reactions`), through :func:`solo_ops.game.pariah.react_refusal` where the
Pariah Nexus effects may forbid a Reaction."""

from __future__ import annotations

from typing import Any

ASSAULT_ONLY = "it Advanced this battle round: it fires Overwatch with an Assault weapon only"
"""What an Advanced model with an Assault weapon may do when charged (004 Assault: "or React
with that model to fire Overwatch ... it can only fire Assault weapons")."""


def may_react(*, engaged: bool, moved_how: str | None, advanced: bool = False,
              charged: bool = False, forbidden_by: str | None = None,
              assault: bool = False, picked_up: bool = False) -> str | None:
    """Why a model that is the target of a charge cannot React now, or None when it may.

    004 React: "A model can React if it is the target of a charging model and it is more than
    1" from an enemy model" (``engaged``: within 1" of one). Advancing: "A model that Advances
    cannot charge, React or shoot later that battle round." Falling Back: "If a model Falls
    Back, it cannot Advance, charge, React or be Readied in that phase." Retreat: "A model
    that Retreats cannot React later in the battle round." Charge Move: a model that attempted
    a charge "cannot shoot later in the battle round" (Overwatch is a shooting attack) and
    "cannot Retreat if it has ... attempted to charge". ``forbidden_by``: a Pariah Nexus
    effect (Chronovorric Field, :func:`solo_ops.rules.pariah.react_forbidden`). ``assault``:
    it has an Assault weapon, which 004 Assault lets it fire as Overwatch "even if it Advanced
    earlier in that battle round" (the Overwatch then fires Assault weapons only:
    :func:`overwatch_weapons`; a Retreat is a move, which :func:`may_retreat` refuses).
    ``picked_up``: it picked a downed friend up this battle round, which "ends all actions for
    this turn so the model can not shoot or charge this turn" (003 Carrying): no Overwatch (a
    shooting attack) and no Retreat."""
    if engaged:
        return "it is within 1\" of an enemy model"
    if (advanced or moved_how == "advance") and not assault:
        return "it Advanced this battle round"
    if moved_how == "fall_back":
        return "it Fell Back this phase"
    if moved_how == "retreat":
        return "it Retreated this battle round"
    if charged or moved_how == "charge":
        return "it attempted a charge this battle round"
    if picked_up:
        return "it picked a friend up this battle round: that ended its actions (003 Carrying)"
    if forbidden_by:
        return f"{forbidden_by} (it cannot React)"
    return None


def may_retreat(moved_how: str | None) -> str | None:
    """Why a model that may React cannot Retreat, or None: 004 Retreat "A target model cannot
    Retreat if it has already made a move of any kind (or attempted to charge) in this phase"
    (a normal move included: it may still fire Overwatch). A Readied model has not moved:
    004 Readying is "instead of making a normal move"; the Retreat then ends its Ready ("If
    the model moves for any reason, it is no longer Readied")."""
    if moved_how is not None and moved_how != "ready":
        return f"it has moved this phase ({moved_how.replace('_', ' ')})"
    return None


def may_ready(*, engaged: bool, moved: bool, declared: str | None = None,
              started_within: str | None = None) -> str | None:
    """Why a model cannot be Readied, or None: 004 Readying "instead of making a normal move
    (including pivoting the model) you can Ready them, unless they are within 1" of an enemy
    model"; Falling Back "it cannot ... be Readied in that phase". ``declared``: an Advance or
    a charge declared (and rolled) but not moved yet, each also instead of a normal move;
    ``started_within``: the enemy it stood within 1" of as the phase began (004 Falling Back:
    it "cannot make a normal move", so there is none for a Ready to replace)."""
    if engaged:
        return "it is within 1\" of an enemy model"
    if started_within is not None:
        return (f"it started the movement phase within 1\" of {started_within}: it can only "
                "remain stationary or Fall Back (004), and Readying is instead of a normal move")
    if moved:
        return "it has moved this phase: Readying is instead of a normal move"
    if declared is not None:
        return (f"it has declared {'an Advance' if declared == 'advance' else 'a charge'} this "
                "phase: Readying is instead of a normal move, as that is too")
    return None


def overwatch_weapons(weapons: list[Any], *, advanced: bool) -> list[Any]:
    """The ranged ``weapons`` a charged model may fire as Overwatch: all of them, or after an
    Advance its Assault weapons only (004 Assault "If it does so, it can only fire Assault
    weapons")."""
    if not advanced:
        return list(weapons)
    return [w for w in weapons if getattr(w, "kt2018_type", None) == "assault"]
