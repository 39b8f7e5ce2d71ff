"""The checks of the Shoot and Fight actions, the same for either side.

:func:`check_shot` and :func:`check_fight` refuse (``RuleError``) what a player would be refused
now: the 2018 phases, AP and the sequence table, Heavy, carrying, Conceal, control range, a
valid target, range, Limited -- the AP, sequence, Heavy, control range and carrying answers are
the referee's (:mod:`solo_ops.rules.referee`). :mod:`solo_ops.game.actions` asks them of a
player's shot or fight before it applies it; the referee audit (:mod:`solo_ops.sim.referee_audit`)
asks them of every enemy shot and fight. They change nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solo_ops.core.errors import RuleError
from solo_ops.game.action_checks import _enemies_in_control, _spend, activation, holder
from solo_ops.game.shots import limited_used_up
from solo_ops.game.state import ENEMY, PLAYER, Operative, State
from solo_ops.rules import killzones, kt2018, kt2024, portals, reach, referee

if TYPE_CHECKING:
    from solo_ops.core.model import Weapon
    from solo_ops.game.definition import Game
    from solo_ops.geometry.terrain import Terrain


def _check_shot_rest(game: Game, state: State, op: Operative, target: Operative,
                     weapon: Weapon | None) -> bool:
    """A shot's checks once its target and weapon are known; whether the weapon is Heavy."""
    _check_assault_after_advance(state, op, weapon)
    _check_limited(state, op, weapon)
    heavy = _check_heavy_shot(state, op, weapon)
    _check_shooter_free(game, state, op, weapon)
    terrain = game.terrain(state)
    _check_valid_target(state, terrain, op, target, weapon)
    _check_combat_shot(game, state, op, weapon, target)
    _check_range(terrain, op, target, weapon)
    return heavy


def unnamed_weapon(game: Game, state: State, op: Operative, target: Operative
                   ) -> Weapon | None:
    """The weapon of a shot that names none: refused when no ranged weapon of ``op`` could
    make it (each weapon's own check: range, Heavy, Limited, ...); the one that can when only
    one can; None when several can and none of them is Heavy or Limited (a reported shot's
    damage needs no more), else the player must name it (its use is recorded)."""
    fits: list[Weapon] = []
    first: RuleError | None = None
    for w in op.profile.ranged_weapons:
        try:
            _check_shot_rest(game, state, op, target, w)
        except RuleError as exc:
            first = first or exc
            continue
        fits.append(w)
    if not fits:
        if first is None:
            raise RuleError(f"{op.name} has no ranged weapon to shoot with")
        raise RuleError(f"no weapon of {op.name} can make this shot: {first}")
    if len(fits) == 1:
        return fits[0]
    if any(w.has("heavy") or w.has("limited") for w in fits):
        names = " or ".join(w.name for w in fits)
        raise RuleError(f"say which weapon shoots ('with WEAPON'): {names} can")
    return None


def check_shot(game: Game, state: State, op: Operative, target: Operative,
               weapon: Weapon | None) -> None:
    """Refuse (``RuleError``) a shot of ``op`` at ``target`` with ``weapon`` that a player's
    would be refused now: every check of the players' Shoot action, in its order, on ``op``
    as it stands (its activation's AP and actions in ``op.ap_used`` / ``op.actions_taken``),
    whichever side it is on. Changes nothing (the referee audit asks it of the enemy)."""
    _check_shot_start(state, op)
    if target.side == op.side or not target.on_table:
        raise RuleError(f"{target.id} is not an enemy on the table")
    _check_shot_rest(game, state, op, target, weapon)


def check_fight(game: Game, state: State, op: Operative, target: Operative,
                portal: str | None = None) -> str | None:
    """Refuse (``RuleError``) a fight of ``op`` against ``target`` that a player's would be
    refused now (the players' Fight action's checks; changes nothing). Returns None for a
    fight within control range, or the door or hatch it is fought across (Kill Team 2024 Door
    Fight / Hatchway Fight, :func:`solo_ops.rules.portals.fight_across`; ``portal``: only
    across that one)."""
    _check_fight_start(state, op)
    if portal is None and target in _enemies_in_control(state, op, game):
        return None
    across, why = _fight_across(game, state, op, target, portal)
    if across is not None:
        return across
    raise RuleError(f"{target.id} is not within 1\" of {op.name}" + (f" ({why})" if why else ""))


def _fight_across(game: Game, state: State, op: Operative, target: Operative,
                  only: str | None) -> tuple[str | None, str | None]:
    """The door or hatch ``op`` may fight ``target`` across (Door / Hatchway Fight, Kill Team
    2024), or None with why not across the one it touches (None when it touches none)."""
    if state.edition != "kt2024" or op.at is None or target.at is None or not target.on_table:
        return None, None
    terrain = game.terrain(state)
    foes = [(e.at, e.radius) for e in state.living(ENEMY if op.side == PLAYER else PLAYER)
            if e.at is not None and not e.down]
    why = None
    for feature in terrain.board.portals():
        if (only is not None and feature.id != only) or not portals.two_sided(feature):
            continue
        if portals.gap_to(feature, op.at, op.radius) > portals.TOUCH + 1e-9:
            continue
        refused = portals.fight_across(terrain, feature, op.at, op.radius, target.at,
                                       target.radius, foes)
        if refused is None:
            return feature.id, None
        why = why or f"{portals.fight_name(feature)} across {feature.id}: {refused}"
    return None, why


def _check_shot_start(state: State, op: Operative) -> None:
    """A shot's first checks: the 2018 shooting phase, AP, and :func:`_check_may_shoot`."""
    if state.edition == "kt2018" and state.phase != "shooting":
        raise RuleError("models shoot in the shooting phase")
    _spend(state, op, "shoot", check_only=True)
    _check_may_shoot(state, op)


def _check_may_shoot(state: State, op: Operative) -> None:
    """No shot after picking up a friend this turn, nor (2018) after a fall back, retreat or
    charge (the referee's :func:`~solo_ops.rules.referee.carry_refusal` and 2018 timing)."""
    act = activation(state, op)
    refused = referee.carry_refusal(act, "shoot")
    if refused is None and act.moved_how != "advance":  # (an Advance: the weapon decides)
        refused = referee.timing_refusal_2018(act, "shoot")
    if refused is not None:
        raise RuleError(refused)


def _check_assault_after_advance(state: State, op: Operative, weapon: Weapon | None) -> None:
    """Kill Team 2018 Assault: after an Advance a model fires only an Assault weapon (004
    Assault: "it can only fire Assault weapons"; the referee's 2018 timing)."""
    if state.edition == "kt2018" and op.moved_how == "advance" and referee.timing_refusal_2018(
            activation(state, op), "shoot", weapon) is not None:
        assault = [w.name for w in op.profile.ranged_weapons if w.kt2018_type == "assault"]
        raise RuleError(f"{op.name} advanced this battle round: it can only fire an Assault "
                        "weapon" + (f" (say 'with {assault[0]}')" if assault else
                                    " and has none"))


def _check_limited(state: State, op: Operative, weapon: Weapon | None) -> None:
    """Limited x: a weapon fires at most x times a battle."""
    if weapon is not None and limited_used_up(state, op, weapon):
        rule = weapon.rule("limited")
        raise RuleError(f"{op.name} has used {weapon.name} {rule.value if rule else 0} "
                        f"time(s) already: it is Limited {rule.value if rule else 0} per battle")


def _check_heavy_shot(state: State, op: Operative, weapon: Weapon | None) -> bool:
    """Kill Team 2024 Heavy: no Heavy shot in an activation with a move (but its (x) move),
    nor by a carrier (the referee's :func:`~solo_ops.rules.referee.heavy_shot_refusal`);
    whether the weapon is Heavy."""
    refused = referee.heavy_shot_refusal(activation(state, op), weapon)
    if refused is not None:
        raise RuleError(refused)
    return (state.edition == "kt2024" and weapon is not None
            and kt2024.heavy_allowed_moves(weapon) is not None)


def _check_shooter_free(game: Game, state: State, op: Operative, weapon: Weapon | None) -> None:
    """No shot on a Conceal order (2024, unless Silent: the referee's
    :func:`~solo_ops.rules.referee.order_refusal`) nor from an enemy's control range (its
    :func:`~solo_ops.rules.referee.control_refusal`); Kill Team 2018: within 1"
    of an enemy only a Pistol, by the ``combat_shooting`` reading (:func:`_check_combat_shot`
    then checks its target)."""
    refused = referee.order_refusal(activation(state, op), "shoot", weapon)  # Conceal, Silent
    if refused is not None:
        raise RuleError(refused)
    if state.edition == "kt2018":
        core = game.settings.combat_shooting == "core"
        pistols = [w for w in op.profile.ranged_weapons if w.kt2018_type == "pistol"]
        if core and ((weapon is None and pistols) or (weapon is not None
                                                      and weapon.kt2018_type == "pistol")):
            return  # a Pistol may be fired from within 1" (the target is checked with it)
        if _enemies_in_control(state, op, game):
            raise RuleError(f"{op.name} is within 1\" of an enemy model: it cannot shoot"
                            + (" (only a Pistol may be fired from there)" if core else ""))
        return
    refused = referee.control_refusal(activation(state, op), "shoot", holder(state, op, game))
    if refused is not None:
        raise RuleError(refused)


def _check_combat_shot(game: Game, state: State, op: Operative, weapon: Weapon | None,
                       target: Operative) -> None:
    """Kill Team 2018 shooting from and into combat, the rule both sides ask
    (:func:`solo_ops.rules.kt2018.combat_shot_refusal`, setting ``combat_shooting``): from
    within 1" of an enemy only a Pistol, at the closest enemy; no target within 1" of one of
    the shooter's friends."""
    if state.edition != "kt2018":
        return
    terrain = game.terrain(state)
    foes = state.living(ENEMY if op.side == PLAYER else PLAYER)
    engaged = bool(_enemies_in_control(state, op, game))
    assert op.at is not None and target.at is not None
    guarded = any(f.id != op.id and f.at is not None and reach.engaged_2018(
        terrain, target.at, target.radius, f.at, f.radius) for f in state.living(op.side))
    closest = True
    nearest = None
    if engaged:
        gap = reach.route_gap(terrain, op.at, op.radius, target.at, target.radius)
        gaps = [(reach.route_gap(terrain, op.at, op.radius, f.at, f.radius), f.label)
                for f in foes if f.at is not None]
        closest = all(g >= gap - 1e-9 for g, _ in gaps)
        nearest = min(gaps)[1] if gaps else None
    why = kt2018.combat_shot_refusal(
        game.settings.combat_shooting, pistol=weapon is not None and weapon.kt2018_type == "pistol",
        shooter_engaged=engaged, target_engaged_with_friend=guarded, target_closest=closest)
    if why is not None:
        if not closest and nearest is not None and why.endswith("the closest enemy model"):
            why += f" ({nearest})"  # which one that is, for the players
        raise RuleError(f"{op.name} cannot shoot {target.label}: {why}")


def _check_valid_target(state: State, terrain: Terrain, op: Operative, target: Operative,
                        weapon: Weapon | None) -> None:
    """The target is visible, not refused by the killzone, and (2024) not Concealed in cover."""
    if not terrain.sight.visible(op.at, target.at, op.radius, target.radius):
        raise RuleError(f"{target.id} is not visible to {op.name} (sight is blocked)")
    assert op.at is not None and target.at is not None
    refusal = killzones.target_refusal(terrain.board, op.at, target.at)
    if refusal is not None:
        raise RuleError(f"{target.id} is not a valid target for {op.name}: {refusal}")
    if state.edition == "kt2024" and target.stance == "conceal":
        seek = weapon is not None and weapon.has("seek")
        seek_light = weapon is not None and weapon.has("seek_light")
        cover = terrain.sight.cover(op.at, target.at, op.radius, target.radius, seek=seek,
                                    seek_light=seek_light, edition=state.edition)
        if cover.in_cover:
            raise RuleError(f"{target.id} is Concealed and in cover from {op.name}: not a "
                            "valid target")


def _check_range(terrain: Terrain, op: Operative, target: Operative,
                 weapon: Weapon | None) -> None:
    """The target is within the weapon's range, measured around the walls."""
    assert op.at is not None and target.at is not None
    if weapon is not None and weapon.effective_range is not None:
        d = terrain.routes.distance(op.at, target.at, op.radius, target.radius).distance
        if d is None or d > weapon.effective_range + 1e-6:
            raise RuleError(f"{target.id} is {d if d is None else round(d, 1)}\" away: out "
                            f"of range of {weapon.name} ({weapon.effective_range:g}\")")


def _check_fight_start(state: State, op: Operative) -> None:
    """A fight's first checks: the 2018 fight phase and AP."""
    if state.edition == "kt2018" and state.phase != "fight":
        raise RuleError("models fight in the fight phase")
    refused = referee.timing_refusal_2018(activation(state, op), "fight")  # once a phase
    if refused is not None:
        raise RuleError(refused)
    _spend(state, op, "fight", check_only=True)
