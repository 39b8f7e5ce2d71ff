"""Kill Team 2018: the players' Reactions to an enemy's declared charge.

004 React: "After you have declared a charge, any opponents take it in turn to make Reactions
... A model can either fire Overwatch or Retreat when it Reacts." The question is asked in the
enemy's step that declares the charge (:func:`asked_in_step`, the pause of
:mod:`solo_ops.game.cp`), so the charge is rolled and moved before the next model of its unit
acts; the answer (:func:`take_answer`) runs that step again. Each Reaction is checked rule by
rule before anything changes (:func:`respond`); then the engine rolls the charge. A question
left waiting by a save from before is answered as an action (:mod:`solo_ops.game.actions`
dispatches ``reaction`` to :func:`_reaction`).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from solo_ops.core.errors import RuleError
from solo_ops.game import pariah, reveal, turns
from solo_ops.game.action_checks import MOVE_TOLERANCE, _point
from solo_ops.game.cp import NeedAnswer
from solo_ops.game.downed import apply_damage
from solo_ops.game.events import shown as shown_to_players
from solo_ops.game.mines import check_mines
from solo_ops.game.state import ENEMY, Operative, State
from solo_ops.geometry import placement
from solo_ops.rules import kt2018_reactions, reach

if TYPE_CHECKING:
    from solo_ops.core.model import Weapon
    from solo_ops.game.definition import Game, Prompt
    from solo_ops.geometry.routes import Walk
    from solo_ops.geometry.terrain import Terrain


RETREAT = 3.0  # inches: a Retreat moves up to 3" (004; rules.pariah.retreat_distance)


def _reaction(game: Game, state: State, action: dict[str, Any], prompt: Any) -> list[dict]:
    """A Reaction answered to a charge waiting in ``state.pending_attacks`` with no step to
    run again (a save made before the Reaction was asked in its step, or a direct
    :func:`solo_ops.game.charges.declare_charge`): :func:`respond`, the question taken off
    once the answer is found good."""
    entry = state.pending_attacks[0]
    events = respond(game, state, entry, action, lambda: state.pending_attacks.pop(0))
    # a Retreat made the model's move (it is done for the phase): the side to act may have
    # nothing left to move, as after any activation
    return events + turns.balance_sides(game, state)


def respond(game: Game, state: State, entry: dict[str, Any], answer: dict[str, Any],
            taken: Callable[[], Any]) -> list[dict[str, Any]]:
    """Kill Team 2018 charge Reactions (004 "A model can either fire Overwatch or Retreat when
    it Reacts") to the charge ``entry`` (:func:`solo_ops.game.charges.reaction_entry`):
    ``react`` is ``overwatch`` (``roll`` with ``weapon``, or the ``damage`` the player
    rolled), ``retreat`` (``to``: up to 3", ending further from the charger and more than 1"
    from every other enemy model; not after a move this phase) or ``none``. Each is checked
    before anything changes (then ``taken()``); then the engine rolls the charge."""
    charger = state.operatives[entry["attacker"]]
    me = state.operatives[entry["target"]]
    react = str(answer.get("react", "none"))
    terrain = game.terrain(state)
    events: list[dict[str, Any]] = []
    assert me.at is not None and charger.at is not None
    if react == "overwatch":
        events.extend(_overwatch(game, state, answer, me, charger, terrain, taken))
        return events + _charge_after(game, state, entry, False)
    if react == "retreat":
        events.extend(_retreat(game, state, answer, entry, me, charger, terrain, taken))
        return events + _charge_after(game, state, entry, True)
    if react != "none":
        raise RuleError(REACT_WORDS)
    taken()
    events.append({"type": "no_reaction", "operative": me.id, "target": charger.id})
    return events + _charge_after(game, state, entry, False)


REACT_WORDS = "react with 'overwatch ...', 'retreat X,Y' or 'no'"


# -- asked in the step that declares the charge ----------------------------------------------------
def asked_in_step(game: Game, state: State, op: Operative, action: Any) -> list[dict[str, Any]]:
    """A charge declared in a step that can pause (the engine's chooser): its target's
    Reaction is asked there and then (:class:`NeedReaction`, the pause every mid-step question
    uses, :mod:`solo_ops.game.cp`), and with the answer the charge is rolled and moved before
    the next model of the unit acts. 004 picks one model at a time to move ("When you pick a
    model to move"), and its charge "After all Reactions have been resolved": a player's
    charge is rolled before their next model moves, and so is the enemy's."""
    from solo_ops.game.charges import declared, reaction_entry

    chooser = game.cp_chooser
    entry = reaction_entry(game, state, op, action)
    if not chooser.answered():
        raise NeedReaction(entry, state.operatives[entry["target"]].owner,
                           declared(state, op, action))
    answer = chooser.take()
    return [declared(state, op, action), *respond(game, state, entry, answer, lambda: None)]


class NeedReaction(NeedAnswer):
    """Raised inside an enemy activation when a Kill Team 2018 charge's target may React."""

    def __init__(self, entry: dict[str, Any], player: str | None,
                 declared: dict[str, Any]) -> None:
        super().__init__(f"a Reaction of {entry['target']}")
        self.entry, self.player, self.declared = entry, player, declared

    def pause(self, state: State, action: dict[str, Any], answers: list[Any],
              progress: list[dict[str, Any]] | None) -> dict[str, Any]:
        """Record the question (see :mod:`solo_ops.game.cp`) with the step and its answers so
        far; returns ``reaction_offered``: the charge declared, with what the enemy did so far
        in the step (``so_far``), told before the question."""
        entry = {**copy.deepcopy(self.entry), "action": copy.deepcopy(action),
                 "answers": copy.deepcopy(answers)}
        state.pending_attacks.insert(0, entry)
        so_far = [copy.deepcopy(e) for e in progress or [] if shown_to_players(e)]
        return {"type": "reaction_offered", "player": self.player,
                "operative": self.entry["target"], "attacker": self.entry["attacker"],
                "note": self.declared["note"], **({"so_far": so_far} if so_far else {})}


def take_answer(state: State, action: dict[str, Any], prompt: Prompt
                ) -> tuple[dict[str, Any], list[Any]]:
    """Take a ``reaction`` answer to a charge asked in its step (:func:`asked_in_step`): its
    form checked here, the rest (the weapon sees and reaches the charger, the Retreat's
    point) as the step runs again with it, which leaves the question waiting when the rules
    refuse it. Returns the paused step's action and its answers with this one."""
    if prompt.kind != "reaction":
        raise RuleError("no charge is waiting for a Reaction")
    entry = state.pending_attacks[0]
    if action.get("type") != "reaction":
        raise RuleError(f"first answer the charge: {prompt.text}")
    react = action.get("react", "none")
    if react not in ("overwatch", "retreat", "none"):
        raise RuleError(REACT_WORDS)
    if react == "retreat":
        _point(action.get("to"))
    damage = action.get("damage")
    if react == "overwatch" and not action.get("roll") and damage is None:
        raise RuleError("say 'overwatch roll' or 'overwatch damage N'")
    if isinstance(damage, str) and damage.strip().isdigit():
        damage = int(damage)  # as the answer's words give it
    if damage is not None and (not isinstance(damage, int) or isinstance(damage, bool)
                               or damage < 0):
        raise RuleError(f"damage must be a whole number, 0 or more (not {damage!r})")
    answer = {k: copy.deepcopy(v) for k, v in action.items() if k != "type"}
    if damage is not None:
        answer["damage"] = damage
    state.pending_attacks.pop(0)
    return copy.deepcopy(entry["action"]), [*entry["answers"], answer]


def in_step(entry: dict[str, Any]) -> bool:
    """Whether the ``reaction`` question ``entry`` was asked in its step (it runs again with
    the answer), not left waiting by a save from before that (answered as an action)."""
    return "action" in entry


def _charge_after(game: Game, state: State, entry: dict[str, Any],
                  retreated: bool) -> list[dict[str, Any]]:
    """The charge the Reaction answered, rolled by the engine, then spotting."""
    from solo_ops.game.charges import charge_after_reaction

    out = charge_after_reaction(game, state, entry, retreated)
    out += reveal.check_spotting(game, state)
    return out + settle(game, state)


def settle(game: Game, state: State) -> list[dict[str, Any]]:
    """The charges left waiting with this one (by a save made before the Reaction was asked
    in its step, when a unit's models declared theirs together) whose target can no longer
    React: an earlier charge brought an enemy within 1" of it, or it Retreated (004 "A model
    can React if it is the target of a charging model and it is more than 1" from an enemy
    model"; "A model that Retreats cannot React later in the battle round"). They are rolled
    now, each with the reason, rather than asked: after each answer, and when an enemy
    activation ends (a later model of the unit may have reached the first waiting charge's
    target already). A charge asked in its step never waits: nothing is left to settle."""
    from solo_ops.game.charges import charge_after_reaction
    from solo_ops.game.play2018 import may_not_react

    events: list[dict[str, Any]] = []
    while state.pending_attacks and state.pending_attacks[0].get("kind") == "reaction":
        entry = state.pending_attacks[0]
        target = state.operatives[entry["target"]]
        if not state.operatives[entry["attacker"]].on_table:  # "no further Reactions"
            state.pending_attacks.pop(0)
            continue
        why = (may_not_react(game, state, target) if target.on_table and target.at is not None
               else None)
        if why is None and target.on_table:
            break
        state.pending_attacks.pop(0)
        if why is not None:
            events.append({"type": "cannot_react", "operative": target.id, "why": why})
        events += charge_after_reaction(game, state, entry, _moved_away(state, entry))
        events += reveal.check_spotting(game, state)
    return events


def _moved_away(state: State, entry: dict[str, Any]) -> bool:
    """Whether the charge's planned route no longer ends within 1" of its target (it
    Retreated): the charge then goes by a new route, as after the target's own Retreat."""
    route: list[Any] = list(entry.get("route") or [])
    target = state.operatives[entry["target"]]
    charger = state.operatives[entry["attacker"]]
    if len(route) < 2 or target.at is None:
        return True
    gap = math.dist(route[-1], target.at) - charger.radius - target.radius
    return gap > reach.CONTROL_RANGE + 1e-6


def _overwatch_weapon(action: dict[str, Any], me: Operative, charger: Operative,
                      terrain: Terrain) -> Weapon:
    """Overwatch: a ranged weapon of the target's that sees the charger and reaches it."""
    assert me.at is not None and charger.at is not None
    name = action.get("weapon")
    guns = kt2018_reactions.overwatch_weapons(list(me.profile.ranged_weapons),
                                              advanced=me.advanced)
    weapon = next((w for w in guns if w.name == name), None) if name else \
        (guns[0] if guns else None)
    if weapon is None and me.advanced and any(w.name == name for w in me.profile.weapons):
        raise RuleError(f"{me.name} {kt2018_reactions.ASSAULT_ONLY.removeprefix('it ')} (004 "
                        "Assault)")
    if weapon is None:
        raise RuleError(f"{me.name} has no ranged weapon {name!r}" if name else
                        f"{me.name} has no ranged weapon to fire Overwatch")
    if not terrain.sight.visible(me.at, charger.at, me.radius, charger.radius):
        raise RuleError(f"{charger.label} is not visible to {me.name}: no Overwatch")
    d = terrain.routes.distance(me.at, charger.at, me.radius, charger.radius).distance
    if weapon.range and (d is None or d > weapon.range + 1e-6):
        raise RuleError(f"{charger.label} is out of range of {weapon.name}")
    return weapon


def _overwatch(game: Game, state: State, action: dict[str, Any], me: Operative,
               charger: Operative, terrain: Terrain, taken: Callable[[], Any]
               ) -> list[dict[str, Any]]:
    """Overwatch (hits on 6s): rolled by solo-ops, or the damage the player rolled."""
    from solo_ops.game.shots import resolve_shot, shot_cover

    weapon = _overwatch_weapon(action, me, charger, terrain)
    if not action.get("roll") and action.get("damage") is None:
        raise RuleError("say 'overwatch roll' or 'overwatch damage N'")
    taken()
    from solo_ops.game.play2018 import overwatch_hits_on

    events: list[dict[str, Any]] = [
        {"type": "overwatch", "operative": me.id, "target": charger.id, "weapon": weapon.name,
         "note": f"{me.name} fires Overwatch at {charger.label} (hits on "
                 f"{overwatch_hits_on(game, state, me, charger)})."}]
    if action.get("roll"):
        events.extend(resolve_shot(game, state, me, weapon, charger,
                                   shot_cover(game, state, me, weapon, charger), [], None,
                                   acting=frozenset({me.id}), overwatch=True))
    elif int(action["damage"]):
        events.extend(apply_damage(game, state, charger, int(action["damage"]),
                                   f"Overwatch by {me.name}"))
    return events


def _check_retreat(game: Game, state: State, action: dict[str, Any], entry: dict[str, Any],
                   me: Operative, charger: Operative, terrain: Terrain
                   ) -> tuple[tuple[float, float], Walk]:
    """Retreat (004): not after a move this phase
    (:func:`solo_ops.rules.kt2018_reactions.may_retreat`); up to 3" (4" under Power Surges'
    intense lighting) to a place the base fits, further from
    the charger and more than 1" from every other enemy; the point and the walk."""
    assert me.at is not None and charger.at is not None
    if not entry.get("retreat"):
        why = kt2018_reactions.may_retreat(me.moved_how) or "it has moved this phase"
        raise RuleError(f"{me.name} cannot Retreat: {why} (004 \"A target model cannot "
                        "Retreat if it has already made a move of any kind (or attempted to "
                        "charge) in this phase\")")
    to = _point(action.get("to"))
    others = state.bases(exclude=(me.id, me.carrying))  # the placement rule's bases
    refused = placement.refusal(terrain, to, me.radius, others, me.name)
    if refused is not None:
        raise RuleError(refused)
    walk = terrain.routes.walk(me.at, to, me.radius, blockers=placement.discs(others))
    far, effect = pariah.retreat_distance(game, state, me)
    if walk is None or walk.cost > far + MOVE_TOLERANCE:
        got = "no route there" if walk is None else f"that is {walk.cost:.1f}\""
        raise RuleError(f"a Retreat moves up to {far:g}\"" + (f" ({effect})" if effect else "")
                        + f" ({got})")
    if math.dist(to, charger.at) <= math.dist(me.at, charger.at) + 1e-9:
        raise RuleError(f"a Retreat must end further away from {charger.label}")
    for e in state.living(ENEMY):
        if e.id != charger.id and e.at is not None and reach.engaged_2018(
                terrain, to, me.radius, e.at, e.radius):
            raise RuleError(f"a Retreat must end more than 1\" from {e.label}")
    return to, walk


def _retreat(game: Game, state: State, action: dict[str, Any], entry: dict[str, Any],
             me: Operative, charger: Operative, terrain: Terrain, taken: Callable[[], Any]
             ) -> list[dict[str, Any]]:
    """Retreat: the checked move, then mines and spotting (the model may not shoot or React
    again this battle round)."""
    to, walk = _check_retreat(game, state, action, entry, me, charger, terrain)
    taken()
    old = me.at
    me.at = to
    me.moved = True
    me.moved_how = "retreat"
    me.readied = False  # 004 Readying: "If the model moves for any reason, it is no longer
    # Readied"
    me.fell_back = True  # "cannot React later in the battle round, and cannot shoot"
    me.activated = True  # its move of the movement phase: it is not picked to move again
    events: list[dict[str, Any]] = [
        {"type": "moved", "operative": me.id, "how": "retreat",
         "from": reach.round_point(old), "to": reach.round_point(to),
         "cost": round(float(walk.cost), 2),
         "route": [reach.round_point(p) for p in walk.points]}]
    events.extend(check_mines(game, state, me, walk.points))
    events.extend(reveal.check_spotting(game, state))
    return events
