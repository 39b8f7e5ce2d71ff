"""The one referee: whether an action is legal now, for either side.

The players' checks (:mod:`solo_ops.game.action_checks`, :mod:`solo_ops.game.player_moves`,
:mod:`solo_ops.game.actions`), the enemy planner (:mod:`solo_ops.ai.turn` and
:mod:`solo_ops.ai.sequences`, which ask before a sequence is chosen) and the enemy's apply
path (:mod:`solo_ops.game.enemy`, which asks again before each action is carried out) all ask
these functions, so an enemy is never let do what a player would be refused in its place.

What the referee judges is plain data: an :class:`Activation` (what the model has done this
activation, its AP, a Heavy weapon it fired, whether it is counteracting or carrying) and the
action's kind, with the few facts of the board the caller measured (the enemy that holds it in
control range, if any). Each refusal is one sentence naming the rule and its source line:

* AP (001 "do valid actions up to APL"; Fall Back costs 2) and the action sequence table
  (:mod:`solo_ops.rules.sequences`: each action once, no Charge after a Reposition, ...);
* Counteract (001 "perform a 1AP action for free ... Cannot move greater than 2""): one 1 AP
  action (the 2" is the move's allowance, :func:`solo_ops.rules.reach.move_allowance`'s caller);
* Heavy (001 "cannot use this weapon in an activation in which it moved, or move after using
  this weapon. If the rule is Heavy (x), only (x) is allowed"): a Charge is a move;
* control range (001: a Reposition or Dash cannot start in an enemy's control range, a Charge
  neither (it is a Reposition), a Fall Back needs one; "Cannot Shoot while within Control Range
  of an enemy"; 002 Guard "Cannot be used in Control Range with enemies");
* the order (Kill Team 2024): on a Conceal order no Charge (it needs an Engage order; 001's
  own Charge line is cut short, so docs/rules.md gives the reading) and no Shoot unless Silent
  (001 Shoot "Cannot be performed with a conceal order");
* carrying (003 Carrying: "this ends all actions for this turn");
* doors and hatches on the way: opening one is part of the move (002 Operate Hatch "Can be
  performed during a Reposition or Dash"; 004 "at any point when an INFANTRY model is making a
  normal move or Falling Back, it can open a door"): the rest of that move may follow it, no
  new action (:func:`rest_of_move`; its allowance is what the move left, the caller's);
* Kill Team 2018: a model moves once in the movement phase (004); it fires in the shooting
  phase, not after Falling Back, after an Advance only an Assault weapon, and not after a
  charge (004 "cannot shoot ... if it charged"); a shaken model does nothing at all (004
  Nerve Tests "cannot do anything until it is no longer shaken").
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from solo_ops.rules import kt2018, kt2024, sequences

if TYPE_CHECKING:
    from solo_ops.core.model import Weapon

AP_COST = {"reposition": 1, "dash": 1, "charge": 1, "fall_back": 2, "shoot": 1, "fight": 1,
           "portal": 1, "pickup": 1, "placedown": 1, "guard": 1}
"""Kill Team 2024 action points of each action (001: Fall Back 2, the rest 1)."""

MOVES_2024 = ("reposition", "dash", "charge", "fall_back")
MOVES_2018 = ("normal", "advance", "charge", "fall_back")
MOVES = frozenset(MOVES_2024 + MOVES_2018)
FREE_MOVES = ("reposition", "dash", "normal", "advance")
"""The moves an enemy's control range stops (a charge and a fall back are made into it)."""


SAME_AS = {"guard": "shoot"}
"""Actions the sequence table counts as another (002 Guard: "Treated as a Shoot action")."""


def ap_cost(kind: str) -> int:
    """The Kill Team 2024 action points of ``kind``."""
    return AP_COST.get(kind, 1)


def _words(kind: str) -> str:
    return kind.replace("_", " ")


@dataclass(frozen=True)
class Activation:
    """What the referee knows of one model at the moment it would act.

    ``who`` is how a refusal names it. Kill Team 2024: ``apl`` (after a Stun), ``ap_used``,
    ``done`` (this activation's actions, by kind), ``heavy`` (the Heavy weapon it shot this
    activation, if any), ``moved_how`` (a move made before these actions: a carrier always
    counts as having moved), ``counteracting``. Both editions: ``carrying`` (the friend it
    carries) and ``picked_up`` (it picked that friend up this turn). Kill Team 2018:
    ``phase``, ``moved_how`` (how it moved this battle round), ``started_within`` (the enemy
    it stood within 1" of as the movement phase began, in the movement phase; None: none) and
    ``shaken`` (a failed Nerve test or an effect, until the next morale phase). ``stance``:
    the Kill Team 2024 order (``engage`` or ``conceal``), or None while it is not chosen yet
    (the planner chooses it from the actions it picks)."""

    who: str
    edition: str
    apl: int = 2
    ap_used: int = 0
    done: tuple[str, ...] = ()
    heavy: Weapon | None = None
    moved_how: str | None = None
    counteracting: bool = False
    carrying: str | None = None
    picked_up: bool = False
    portals: tuple[str, ...] = ()  # the doors and hatches it operated this activation (2024)
    phase: str = "firefight"
    stance: str | None = None
    started_within: str | None = None
    shaken: bool = False

    def after(self, kind: str, weapon: Weapon | None = None) -> Activation:
        """The activation once ``kind`` is done (with ``weapon`` for a shot): its AP spent,
        its kind recorded, a Heavy weapon remembered, a 2018 move remembered."""
        heavy = self.heavy
        if (kind == "shoot" and weapon is not None and self.edition == "kt2024"
                and kt2024.heavy_allowed_moves(weapon) is not None):
            heavy = weapon
        moved = self.moved_how
        if self.edition == "kt2018" and kind in MOVES_2018:
            moved = kind
        kind = SAME_AS.get(kind, kind)
        cost = 0 if self.counteracting or rest_of_move(self, kind) else ap_cost(kind)
        return replace(self, ap_used=self.ap_used + cost, done=(*self.done, kind), heavy=heavy,
                       moved_how=moved)

    @property
    def ap_left(self) -> int:
        """Action points left this activation (Kill Team 2024)."""
        return max(1, self.apl) - self.ap_used


def rest_of_move(act: Activation, kind: str) -> bool:
    """Whether a move of ``kind`` now is the rest of the same move, interrupted to open a
    door or hatch on its way (002 Operate Hatch "Can be performed during a Reposition or
    Dash"; 004 Doors "at any point when an INFANTRY model is making a normal move or Falling
    Back, it can open a door"): its last two actions are that move and the door or hatch."""
    during = ("reposition", "dash") if act.edition == "kt2024" else ("normal", "fall_back")
    return (kind in during and len(act.done) >= 2 and act.done[-1] == "portal"
            and act.done[-2] == kind)


def spend_refusal(act: Activation, kind: str) -> str | None:
    """Whether ``kind``'s action points may be spent now (Kill Team 2024): a counteract is one
    1 AP action; the sequence table; the AP left. None when they may."""
    if act.edition != "kt2024":
        return None
    kind = SAME_AS.get(kind, kind)
    cost = ap_cost(kind)
    if act.counteracting:  # 001 Counteract: "perform a 1AP action for free"
        if cost != 1:
            return f"a counteract is one 1 AP action: {_words(kind)} costs {cost}"
        if act.done:
            return f"{act.who} has made its counteract action"
        return None
    if rest_of_move(act, kind):
        return None  # the move under way goes on: no new action
    refused = sequences.refusal_words(act.who, kind, act.done)
    if refused is not None:  # the sequence table (rules/sequences.py)
        return refused
    if act.ap_used + cost > max(1, act.apl):
        return f"{act.who} has {act.ap_left} AP left; {_words(kind)} costs {cost}"
    return None


def order_refusal(act: Activation, kind: str, weapon: Weapon | None = None) -> str | None:
    """Kill Team 2024 on a Conceal order: no Charge (the Charge action needs an Engage order;
    docs/rules.md has the reading, 001's Charge line breaking off after "add 2" to the
    movement characteristic AND the") and no Shoot unless the weapon named is Silent (001 Shoot
    "Cannot be performed with a conceal order"; Silent "Operative can Shoot while it has a
    Conceal order"). The players' shot asks this too (:mod:`solo_ops.game.attack_checks`)."""
    if act.edition != "kt2024" or act.stance != "conceal":
        return None
    if kind == "charge":
        return (f"{act.who} has a Conceal order: it cannot charge (a Charge needs an Engage "
                "order)")
    if kind == "shoot" and not (weapon is not None and kt2024.may_shoot_while_concealed(weapon)):
        return f"{act.who} has a Conceal order: it cannot shoot (unless Silent)"
    return None


def heavy_move_refusal(act: Activation, kind: str) -> str | None:
    """Kill Team 2024 Heavy: no move after shooting a Heavy weapon but its (x) move (001 Heavy:
    "cannot ... move after using this weapon. If the rule is Heavy (x), only (x) is allowed
    (e.g. Heavy (Dash only))"); a Charge is a move."""
    if act.edition != "kt2024" or act.heavy is None or kind not in MOVES_2024:
        return None
    allowed = kt2024.heavy_allowed_moves(act.heavy) or ()
    if kind in allowed:
        return None
    but = f" (only a {' or '.join(allowed).replace('_', ' ')})" if allowed else ""
    return (f"{act.heavy.name} is Heavy: {act.who} shot it this activation and cannot move "
            f"after it{but}")


def heavy_shot_refusal(act: Activation, weapon: Weapon | None) -> str | None:
    """Kill Team 2024 Heavy: no Heavy shot in an activation with a move (but its (x) move),
    nor by a carrier (001 Heavy: "cannot use this weapon in an activation in which it
    moved"; a carrier always counts as having moved, 003 Carrying)."""
    if act.edition != "kt2024" or weapon is None or kt2024.heavy_allowed_moves(weapon) is None:
        return None
    if act.carrying is not None:
        return f"{weapon.name} is Heavy: {act.who} is carrying {act.carrying} and cannot shoot it"
    moves = [a for a in act.done if a in MOVES_2024]
    if not moves and act.moved_how is not None:
        moves = [act.moved_how]
    for moved_how in moves:
        if not kt2024.may_shoot_after_move(weapon, moved_how):
            return (f"{weapon.name} is Heavy: {act.who} cannot shoot it in an activation in "
                    f"which it moved ({_words(moved_how)})")
    return None


def control_refusal(act: Activation, kind: str, holder: str | None) -> str | None:
    """Control range (``holder``: an enemy within whose control range the model stands, or
    None): within one only a Fall Back starts and no shot is taken; a Fall Back needs one.
    Kill Team 2018, in its words ("within 1""): "When you pick a model to move, if that model
    started the Movement phase within 1" of an enemy model ... it can either remain
    stationary or Fall Back" (no charge either); shooting from within 1" is the
    ``combat_shooting`` setting's (:func:`solo_ops.rules.kt2018.combat_shot_refusal`)."""
    if act.edition == "kt2018":
        return _within_refusal_2018(act, kind, holder)
    if kind in FREE_MOVES and holder is not None:
        return f"{act.who} is in control range of {holder}: it can only fall back or fight"
    if kind == "charge" and holder is not None:
        return (f"{act.who} is in control range of {holder}: it cannot charge (Charge is a "
                "Reposition, which cannot start there)")
    if kind == "fall_back" and holder is None:
        return f"{act.who} is not in control range of an enemy: no need to fall back"
    if kind == "shoot" and holder is not None:
        return f"{act.who} is in control range of an enemy: it cannot shoot"
    if kind == "guard" and holder is not None:
        return f"{act.who} is in control range of an enemy: it cannot go On Guard (002 Guard)"
    if kind == "fight" and holder is None:
        return f"{act.who} has no enemy within its control range to fight"
    return None


def started_within_refusal(act: Activation, kind: str) -> str | None:
    """Kill Team 2018: a model that began the movement phase within 1" of an enemy model
    (``started_within``, noted as the phase began) makes no normal move, Advance or charge
    that phase, even once that enemy has Fallen Back or fallen (004 Falling Back). Asked
    whether or not the caller measured control range (a 2018 charge is not measured)."""
    if (act.edition == "kt2018" and act.started_within is not None
            and kind in (*FREE_MOVES, "charge")):
        return (f"{act.who} started the movement phase within 1\" of {act.started_within}: it "
                "can only stay where it is or Fall Back (004 \"if that model started the "
                "Movement phase within 1\" of an enemy model, it cannot make a normal move. "
                "Instead, it can either remain stationary or Fall Back\")")
    return None


def _within_refusal_2018(act: Activation, kind: str, holder: str | None) -> str | None:
    """:func:`control_refusal` for Kill Team 2018 (004 Falling Back, the Fight phase). A model
    that began the movement phase within 1" of an enemy (``started_within``) only remains
    stationary or Falls Back, even when that enemy is gone; one within 1" now (charged, or an
    enemy revealed there) makes no normal move, Advance or charge either."""
    why = started_within_refusal(act, kind)
    if why is not None:
        return why
    if kind in (*FREE_MOVES, "charge") and holder is not None:
        return (f"{act.who} is within 1\" of {holder}: it can only stay where it is, or Fall "
                "Back unless it was charged this phase (a normal move, an Advance or a charge "
                "never starts within 1\" of an enemy model)")
    if kind == "fall_back" and holder is None and act.started_within is None:
        return f"{act.who} is not within 1\" of an enemy: no need to fall back"
    if kind == "fight" and holder is None:
        return f"{act.who} has no enemy within 1\" to fight"
    return None


SHAKEN = ("is shaken: it cannot do anything until it is no longer shaken (004 Nerve "
          "Tests)")
"""Why a shaken model does nothing, after its name: no action, no Reaction (Kill Team 2018)."""


def shaken_refusal(act: Activation) -> str | None:
    """Kill Team 2018 Nerve Tests: a shaken model "cannot do anything until it is no longer
    shaken" (004): no action of any kind, nor a Reaction (:func:`shaken_words`)."""
    if act.edition == "kt2018" and act.shaken:
        return f"{act.who} {SHAKEN}"
    return None


def shaken_words(edition: str, shaken: bool) -> str | None:
    """Why a charged model cannot React because it is shaken (Kill Team 2018), in the words of
    :func:`solo_ops.rules.kt2018_reactions.may_react`'s reasons ("it is shaken ..."), or None. Both
    sides' Reactions ask it first."""
    return f"it {SHAKEN}" if edition == "kt2018" and shaken else None


def portal_again_refusal(act: Activation, feature: str, word: str = "door") -> str | None:
    """Kill Team 2024: each door or hatch once an activation (the sequence table's
    once-per-activation row, docs/rules.md): opening one and closing it again in the same
    activation is refused, for both sides (``word``: "door" or "hatch")."""
    if act.edition == "kt2024" and feature in act.portals:
        return (f"{act.who} has already operated {feature} this activation (each {word} once "
                "an activation)")
    return None


def carry_refusal(act: Activation, kind: str) -> str | None:
    """003 Carrying: picking a friend up "ends all actions for this turn"."""
    if act.picked_up and act.carrying is not None:
        period = "battle round" if act.edition == "kt2018" else "turn"
        if kind == "shoot":
            return (f"{act.who} picked up {act.carrying} this {period}: that ended its actions, "
                    "it cannot shoot")
        return (f"{act.who} picked up {act.carrying} this {period}: that ended all its actions "
                f"for this {period} (003 Carrying)")
    return None


def timing_refusal_2018(act: Activation, kind: str, weapon: Weapon | None = None) -> str | None:
    """Kill Team 2018: a model moves once, in the movement phase; it fires once, in the
    shooting phase, not after Falling Back or Retreating, after an Advance only an Assault
    weapon, and not after a charge; it fights once, in the fight phase (``done``: its shot or
    fight this phase, an Overwatch not counted: 004 "pick a model ... to shoot", "chosen to
    fight")."""
    if act.edition != "kt2018":
        return None
    if kind in MOVES_2018:
        if act.phase != "movement":
            return "models move in the movement phase"
        if act.moved_how is not None and not rest_of_move(act, kind):
            return (f"{act.who} has already moved this battle round ({_words(act.moved_how)}): "
                    "a model moves once in the movement phase")
    if kind in ("shoot", "fight") and kind in act.done:  # 004: each model is chosen once
        return (f"{act.who} has already {'shot' if kind == 'shoot' else 'fought'} in this "
                f"{'shooting' if kind == 'shoot' else 'fight'} phase: a model "
                f"{kind}s once a phase (004)")
    if kind == "shoot":
        if act.phase != "shooting":
            return "models shoot in the shooting phase"
        if act.moved_how in ("fall_back", "retreat"):
            done = "retreated" if act.moved_how == "retreat" else "fell back"
            return f"{act.who} {done} this battle round: it cannot shoot"
        if act.moved_how == "charge":
            return f"{act.who} charged this battle round: it cannot shoot (004)"
        if act.moved_how == "advance" and (
                weapon is None or not kt2018.may_fire_after(weapon.kt2018_type, "advance")):
            return (f"{act.who} advanced this battle round: it can only fire an Assault weapon")
    if kind == "fight" and act.phase != "fight":
        return "models fight in the fight phase"
    return None


def refusal(act: Activation, kind: str, *, weapon: Weapon | None = None,
            holder: str | None = None, check_control: bool = True) -> str | None:
    """Why ``kind`` (with ``weapon`` for a shot) may not be done now, or None when it may:
    carrying, the 2018 timing, AP and the sequence table, the order, Heavy, then control range
    (``holder``; ``check_control`` False when the caller judges a portal fight or has not
    measured it)."""
    for why in (shaken_refusal(act), carry_refusal(act, kind),
                timing_refusal_2018(act, kind, weapon),
                started_within_refusal(act, kind),
                spend_refusal(act, kind), order_refusal(act, kind, weapon),
                heavy_move_refusal(act, kind),
                heavy_shot_refusal(act, weapon) if kind == "shoot" else None,
                control_refusal(act, kind, holder) if check_control else None):
        if why is not None:
            return why
    return None
