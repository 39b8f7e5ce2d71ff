"""Guard for the players (Gallowdark, Kill Team 2024): On Guard, the interrupt, its end.

Card 002, Gallowdark: "Guard 1AP: Treated as a Shoot action. Cannot be used in Control Range
with enemies or while Concealed. Operative is ON GUARD until it: Performs any action OR an enemy
ends an action in Control Range OR it's order is changed OR The next TP." and "On Guard: this
Operative can, interrupt an enemy activation AFTER their first action to Shoot (even in Control
Range -1 to HIT) or Fight (including Hatchway) for free."

The action itself (``guard``) is checked and applied by :func:`solo_ops.game.actions.apply`
(``actions._guard``). While the enemy activates, :func:`after_enemy_action`
runs after each of its models' actions (the engine hands it to
:func:`solo_ops.game.enemy.apply_plan`): after a model's first action each player operative On
Guard that can shoot it (a valid target, in range; -1 to hit in control range) or fight it (in
control range) is asked, in id order, with the pause every mid-step question uses
(:mod:`solo_ops.game.cp`): ``shoot [TARGET] [with WEAPON]``, ``fight [TARGET]`` or ``no``. An
interrupt is rolled by the engine (a fight die by die, as the players' fights are) and ends the
Guard; ``no`` keeps it for a later activation. After every enemy action, a Guard in that
enemy's control range ends; any action of the guard's own ends it
(:func:`after_own_action`); the next turning point ends it (the engine's turn start). The
enemy's own Guard is :mod:`solo_ops.ai.guard` and
:func:`solo_ops.game.enemy_guard.guard_interrupts`.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from solo_ops.core.errors import RuleError
from solo_ops.game import actions, attack_checks
from solo_ops.game.action_checks import _enemies_in_control
from solo_ops.game.cp import NeedAnswer
from solo_ops.game.events import shown as shown_to_players
from solo_ops.game.shots import count_limited, resolve_player_shot
from solo_ops.game.state import PLAYER, Operative, State

if TYPE_CHECKING:
    from solo_ops.core.model import Weapon
    from solo_ops.game.definition import Game, Prompt

NO = "no"
"""The answer that lets the enemy's activation go on (the Guard stays)."""


def after_own_action(state: State, op: Operative, kind: str) -> list[dict[str, Any]]:
    """Guard ends when the guard "Performs any action" (002): any action but the Guard
    itself."""
    if not op.on_guard or kind == "guard":
        return []
    op.on_guard = False
    return [{"type": "guard_ended", "operative": op.id, "why": "it performed an action"}]


def after_enemy_action(game: Game, state: State, enemy: Operative, first: bool
                       ) -> list[dict[str, Any]]:
    """After an enemy model's action in its activation: the players' interrupts after its
    first action (:func:`interrupts`), then the Guards it ended in control range of."""
    if state.edition != "kt2024":
        return []
    events = interrupts(game, state, enemy) if first else []
    return events + engaged(game, state, enemy)


def engaged(game: Game, state: State, enemy: Operative) -> list[dict[str, Any]]:
    """Guard ends when "an enemy ends an action in Control Range" (002)."""
    events: list[dict[str, Any]] = []
    if not enemy.on_table:
        return events
    for guard in sorted(state.living(PLAYER), key=lambda o: o.id):
        if guard.on_guard and enemy in _enemies_in_control(state, guard, game):
            guard.on_guard = False
            events.append({"type": "guard_ended", "operative": guard.id,
                           "why": f"{enemy.label} ended an action within its control range"})
    return events


# -- the interrupt ---------------------------------------------------------------------------------
def offer(game: Game, state: State, guard: Operative, enemy: Operative) -> dict[str, Any] | None:
    """What On Guard ``guard`` may do to ``enemy`` now: ``{"weapons": [names that can shoot
    it], "fight": bool, "penalty": 1 or 0}`` (-1 to hit in control range), or None."""
    if not (guard.on_table and enemy.on_table) or guard.down:
        return None
    close = enemy in _enemies_in_control(state, guard, game)
    weapons = [w.name for w in guard.profile.ranged_weapons if _can_shoot(game, state, guard,
                                                                          enemy, w)]
    fight = close and bool(guard.profile.melee_weapons)
    if not weapons and not fight:
        return None
    return {"weapons": weapons, "fight": fight, "penalty": 1 if close else 0}


def _can_shoot(game: Game, state: State, guard: Operative, enemy: Operative,
               weapon: Weapon) -> bool:
    """A valid target in range for ``weapon`` (Heavy "Has NO EFFECT on Guard"; Limited
    counts)."""
    terrain = game.terrain(state)
    try:
        attack_checks._check_limited(state, guard, weapon)
        attack_checks._check_valid_target(state, terrain, guard, enemy, weapon)
        attack_checks._check_range(terrain, guard, enemy, weapon)
    except RuleError:
        return False
    return weapon.attacks is not None and weapon.hit is not None


def interrupts(game: Game, state: State, enemy: Operative) -> list[dict[str, Any]]:
    """Each player operative On Guard (in id order) that can shoot or fight ``enemy`` is
    asked whether it interrupts; an interrupt is rolled and ends its Guard."""
    events: list[dict[str, Any]] = []
    chooser = getattr(game, "cp_chooser", None)
    if chooser is not None:
        chooser.tell(events)  # the interrupt is told before a question in its attack
    for guard in sorted(state.living(PLAYER), key=lambda o: o.id):
        if not guard.on_guard or not enemy.on_table or chooser is None:
            continue
        can = offer(game, state, guard, enemy)
        if can is None:
            continue
        if not chooser.answered():
            raise NeedGuardChoice(guard, enemy, can)
        answer = chooser.take()
        if answer == NO:
            continue
        events.extend(interrupt(game, state, guard, enemy, can, answer))
    return events


def interrupt(game: Game, state: State, guard: Operative, enemy: Operative,
              can: dict[str, Any], answer: Any) -> list[dict[str, Any]]:
    """One operative's Guard interrupt, as the player answered it (``{"how": "shoot",
    "weapon": ...}`` or ``{"how": "fight"}``, among what :func:`offer` found it ``can`` do):
    a rolled shot (-1 to hit in control range) or fight; it ends the Guard."""
    how = answer.get("how") if isinstance(answer, dict) else None
    if how == "shoot" and answer.get("weapon") in can["weapons"]:
        weapon = next(w for w in guard.profile.weapons if w.name == answer["weapon"])
    elif how == "fight" and can["fight"]:
        weapon = None
    else:
        raise RuntimeError(f"a kept Guard answer {answer!r} is not possible here")
    guard.on_guard = False  # the interrupt is an action: it ends the Guard
    penalty = can["penalty"] if weapon is not None else 0
    note = (f"{guard.name} is On Guard and interrupts {enemy.label}'s activation: it "
            + ("fights it." if weapon is None else f"shoots it with {weapon.name}"
               + (" (-1 to hit: within control range)." if penalty else ".")))
    events: list[dict[str, Any]] = [{"type": "guard_interrupt", "operative": guard.id,
                                     "target": enemy.id, "how": how, "side": PLAYER,
                                     "note": note}]
    if weapon is None:
        guard.fought = True
        return events + actions._rolled_fight(game, state, guard, enemy)
    # "After a Shoot in Control Range, this Operative cannot retaliate to Fights for the
    # remaining enemy activation" (001 Gallowdark On Guard)
    guard.no_retaliation = bool(penalty)
    guard.shot = True
    events.extend(count_limited(state, guard, weapon))
    events.extend(resolve_player_shot(game, state, guard, weapon, enemy, hit_penalty=penalty))
    return events + actions._react_to_shot(state, enemy)


class NeedGuardChoice(NeedAnswer):
    """Raised inside an enemy activation when a player operative On Guard may interrupt."""

    def __init__(self, guard: Operative, enemy: Operative, can: dict[str, Any]) -> None:
        super().__init__(f"a Guard interrupt for {guard.id}")
        self.guard, self.enemy, self.can = guard, enemy, can

    def pause(self, state: State, action: dict[str, Any], answers: list[Any],
              progress: list[dict[str, Any]] | None) -> dict[str, Any]:
        """Record the question (see :mod:`solo_ops.game.cp`); returns ``guard_offered`` with
        what the enemy did so far in the step (``so_far``), told before the question."""
        guard, enemy, can = self.guard, self.enemy, self.can
        entry = {"kind": "guard_offer", "player": guard.owner, "operative": guard.id,
                 "target": enemy.id, "weapons": list(can["weapons"]), "fight": can["fight"],
                 "penalty": can["penalty"], "action": copy.deepcopy(action),
                 "answers": list(answers)}
        entry["text"] = question(guard, enemy, entry)
        state.pending_attacks.insert(0, entry)
        so_far = [copy.deepcopy(e) for e in progress or [] if shown_to_players(e)]
        return {"type": "guard_offered", "player": guard.owner, "operative": guard.id,
                "target": enemy.id, **({"so_far": so_far} if so_far else {})}


def question(guard: Operative, enemy: Operative, entry: dict[str, Any]) -> str:
    """The ``guard`` prompt's text."""
    ways = []
    if entry["weapons"]:
        penalty = " (-1 to hit: it is within control range)" if entry["penalty"] else ""
        ways.append(f"shoot it with {' or '.join(entry['weapons'])}{penalty}")
    if entry["fight"]:
        ways.append("fight it")
    return (f"{entry['player']}: {guard.name} is On Guard and {enemy.label} has made its first "
            f"action. Interrupt its activation (002 On Guard, free; it ends the Guard): "
            f"{' or '.join(ways)}? Or 'no' (still On Guard).")


def options(entry: dict[str, Any]) -> list[str]:
    """The answers the ``guard`` prompt offers."""
    shots = [f"shoot {entry['target']}" + (f" with {w}" if len(entry["weapons"]) > 1 else "")
             for w in entry["weapons"]]
    return [*shots, *([f"fight {entry['target']}"] if entry["fight"] else []), NO]


def take_answer(state: State, action: dict[str, Any], prompt: Prompt
                ) -> tuple[dict[str, Any], list[Any]]:
    """Check a ``guard_choice`` answer (``how``: ``shoot`` with ``weapon``, ``fight`` or
    ``no``; ``target`` optional) and take the question off; returns the paused step's action
    and its answers with this one."""
    if prompt.kind != "guard":
        raise RuleError("no Guard interrupt is on offer now")
    entry = state.pending_attacks[0]
    if action.get("type") != "guard_choice":
        raise RuleError(f"first answer the Guard: {', '.join(options(entry))}")
    target = action.get("target")
    if target is not None and str(target).lower() != str(entry["target"]).lower():
        raise RuleError(f"{entry['operative']} may interrupt {entry['target']} only (the model "
                        "whose activation it is)")
    how = action.get("how")
    answer: Any
    if how == "no":
        answer = NO
    elif how == "fight":
        if not entry["fight"]:
            raise RuleError(f"{entry['operative']} cannot fight {entry['target']}: not in "
                            "control range, or no melee weapon")
        answer = {"how": "fight"}
    elif how == "shoot":
        answer = {"how": "shoot", "weapon": _weapon(entry, action.get("weapon"))}
    else:
        raise RuleError(f"answer {', '.join(options(entry))}")
    state.pending_attacks.pop(0)
    return copy.deepcopy(entry["action"]), [*entry["answers"], answer]


def _weapon(entry: dict[str, Any], named: Any) -> str:
    """The weapon of a Guard shot: the one named (any case, an unambiguous start), or the
    only one that can make it."""
    weapons = list(entry["weapons"])
    if not weapons:
        raise RuleError(f"{entry['operative']} has no weapon that can shoot {entry['target']} "
                        "(not a valid target, or out of range)")
    if named is None:
        if len(weapons) > 1:
            raise RuleError(f"with which weapon? {', '.join(weapons)}")
        return str(weapons[0])
    found = [w for w in weapons if w.lower().startswith(str(named).lower())]
    if len(found) != 1:
        raise RuleError(f"{named!r} is not one of the weapons that can shoot "
                        f"{entry['target']}: {', '.join(weapons)}")
    return str(found[0])
