"""Fights in play, for either side: an enemy's planned fight rolled (or handed to the player to
roll when the game's ``enemy_attacks`` setting says so, :func:`enemy_fight`; across a door or
hatch it is a Door or Hatchway Fight), every rolled fight with what changes it
(:func:`roll_fight`: the friends helping in 2018, a broken or trapped side, the Volkus
stronghold's defenders striking first, the players' dice chosen by them), and the reach a
fight needs (:func:`in_reach`: control range in 2024, within 1" in 2018).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from solo_ops.game import attacks, cp, fight_choices, pariah
from solo_ops.game.downed import apply_damage
from solo_ops.game.play2018 import broken_2018, no_escape, pariah_nexus
from solo_ops.game.state import ENEMY, PLAYER, Operative, State
from solo_ops.game.stun import stun
from solo_ops.rules import killzones, kt2018, reach

if TYPE_CHECKING:
    from solo_ops.ai.planner import Action
    from solo_ops.game.definition import Game


def in_reach(game: Game, state: State, a: Operative, b: Operative) -> bool:
    """Whether two on-table operatives are in reach of a fight: control range (2024) / within
    1" (2018), by :mod:`solo_ops.rules.reach` (within 1" around the walls and visible)."""
    if not (a.on_table and b.on_table):
        return False
    assert a.at is not None and b.at is not None
    return reach.in_control_range(game.terrain(state), a.at, a.radius, b.at, b.radius)


def enemy_fight(game: Game, state: State, op: Operative, action: Action, *,
                acting: frozenset[str] = frozenset()) -> list[dict[str, Any]]:
    """An enemy fight, rolled or handed to the player (a Door or Hatchway Fight across
    ``action.portal``). ``acting``: the models whose activation this is (see
    :func:`solo_ops.game.stun.stun`)."""
    target = state.operatives[action.target]  # type: ignore[index]
    if not target.on_table:
        return []
    text = attacks.describe_fight(state.edition, op, target)
    if action.portal is not None:
        kind = "Hatchway" if _is_hatch(game, action.portal) else "Door"
        text = f"{text[:-1]} across {action.portal} ({kind} Fight)."
    op.fought = True
    if game.settings.enemy_attacks == "player":
        if state.edition == "kt2024":  # the helpers the players' own roll must count
            text += _helpers_words(game, state, op, target)
        state.pending_attacks.append({"kind": "fight", "attacker": op.id, "target": target.id,
                                      "text": text})
        return [{"type": "attack_pending", "attacker": op.id, "target": target.id,
                 "note": text}]
    result = roll_fight(game, state, op, target)
    events = [{"type": "fight", "attacker": op.id, "target": target.id,
               "damage": result.damage, "damage_taken": result.damage_taken,
               "lines": result.lines, "note": text}, *cp.spent(game)]
    events += apply_damage(game, state, target, result.damage, f"fought by {op.label}",
                           outcome=result.outcome)
    if result.damage_taken and op.on_table:
        events += apply_damage(game, state, op, result.damage_taken,
                               f"struck back by {target.label}", outcome=result.outcome_taken)
    events += stun(state, result.stunned, "Stun", acting=acting)
    return events


def _helpers_words(game: Game, state: State, op: Operative, target: Operative) -> str:
    """For a fight the players roll by hand: each side's helpers (001: +1 to hit each, to 2+
    at best), as :func:`roll_fight` counts them; empty when neither side has one."""
    mine, theirs = _helpers(game, state, op, target)
    said = [f"{who.label} hits 1 better for each of {n} friendly helper(s)"
            for who, n in ((op, mine), (target, theirs)) if n]
    return (" " + "; ".join(said) + ".") if said else ""


def _is_hatch(game: Game, portal: str) -> bool:
    try:
        return bool(game.scenario.board.feature(portal).has("hatch"))
    except (KeyError, AttributeError):
        return False


def roll_fight(game: Game, state: State, op: Operative, target: Operative) -> Any:
    """``op`` fights ``target``, rolled with the game's dice — the same for either side: the
    friends helping each (2018), a broken or trapped side (2018, Pariah Nexus No Escape),
    the Volkus stronghold's defenders striking first (rules/killzones.py), and a player
    operative's dice resolved as the players choose (:mod:`solo_ops.game.fight_choices`)."""
    extra: dict[str, Any] = {}
    if state.edition == "kt2018":
        trapped = pariah_nexus(game) and no_escape(game, state, op, target)
        weapon = kt2018.melee_weapons(op.profile)[0]  # (the close combat weapon if none)
        effects, defence, _ = pariah.attack_effects(
            game, state, op, target, weapon, distance=_gap(op, target),
            no_escape=trapped)
        extra = {"broken": broken_2018(state, op.side), "no_escape": trapped,
                 "effects": effects, "defence": defence}
    elif killzones.defender_first(game.scenario.board, op.at, op.radius, target.at,
                                  target.radius):
        extra = {"defender_first": True}
    assert state.dice is not None
    return attacks.roll_fight(state.edition, state.dice, op, target,
                              _helpers(game, state, op, target),
                              cp=cp.hooks(game), choices=fight_choices.hooks(game), **extra)


def _gap(a: Operative, b: Operative) -> float | None:
    """The straight gap between two bases on the table (None when either is off it)."""
    if a.at is None or b.at is None:
        return None
    return max(0.0, reach.base_gap(a, b))


def _helpers(game: Game, state: State, op: Operative, target: Operative) -> tuple[int, int]:
    """(the attacker's helpers, the defender's) in ``op``'s fight with ``target``: the
    defender's only under setting ``fight_assist: both``."""
    helped = (_fight_helpers(game, state, target, op)
              if game.settings.fight_assist == "both" else 0)
    return _fight_helpers(game, state, op, target), helped


def _fight_helpers(game: Game, state: State, op: Operative, target: Operative) -> int:
    """``op``'s helpers in a fight with ``target`` (Kill Team 2024, 001): its other friendly
    operatives also in control range of ``target`` and of no other enemy. Asked for the
    attacker, and for the defender with the two swapped (setting ``fight_assist``)."""
    count = 0
    foes = state.living(PLAYER if op.side == ENEMY else ENEMY)
    for friend in state.living(op.side):
        if friend.id == op.id:
            continue
        if not in_reach(game, state, friend, target):
            continue
        if any(in_reach(game, state, friend, f) for f in foes if f.id != target.id):
            continue
        count += 1
    return count
