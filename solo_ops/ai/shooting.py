"""The shot a model takes: valid targets, weapons it may fire, and the closest valid enemy.

:func:`choose_shot` is the supplement's shot (the closest valid enemy in range, ties broken by
the expected damage, with the best weapon for it); ``valid_shot`` the one test of a valid
target (visible, in range, not refused by the killzone, a concealed target only out of cover),
which the player's autopilot asks too.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from solo_ops.ai.context import Action, Context, _cover, _key_pt, _route_distance, answer_memo
from solo_ops.ai.explain import inches
from solo_ops.core.model import Profile, Weapon
from solo_ops.game.state import Operative
from solo_ops.rules import killzones, kt2018, kt2024, reach


def weapon_range(w: Weapon) -> float:
    """How far ``w`` reaches, in inches (inf for a Kill Team 2024 weapon without Range x: any
    visible target)."""
    r = w.effective_range
    return math.inf if r is None else float(r)


def ranged(profile: Profile) -> list[Weapon]:
    """The profile's ranged weapons, in card order (the ones the planner may shoot with)."""
    return [w for w in profile.ranged_weapons]


def is_heavy(w: Weapon) -> bool:
    """Kill Team 2024 Heavy (the weapon rule, as the players' check reads it)."""
    return kt2024.heavy_allowed_moves(w) is not None


def prefetch_covers(ctx: Context, shooter: Operative, point: Sequence[float], weapon: Weapon,
                    targets: list[Operative], pos: dict[str, tuple[float, float]]) -> None:
    """Put into the answer cache, in one ``cover_matrix`` batch, the cover :func:`valid_shot`
    will ask of every target in ``weapon``'s range from ``point`` (a batch of pairs costs far
    less than the pairs one by one; each pair's answer is the same in any batch). Each answer
    is the one ``sight.cover`` gives for the pair: visible, in cover, obscured, and a valid
    target when visible."""
    from solo_ops.geometry.sight import CoverResult

    memo = answer_memo(ctx)
    seek, light = weapon.has("seek"), weapon.has("seek_light")
    here, ra = _key_pt(point), float(shooter.radius)
    reach_in = weapon_range(weapon)
    todo: list[tuple[tuple[Any, ...], tuple[float, float], float]] = []
    for target in targets:
        tp = _key_pt(pos[target.id])
        route_d = _route_distance(ctx, here, tp, shooter.radius, target.radius)
        if (math.inf if route_d is None else route_d) > reach_in + 1e-9:
            continue
        key = ("c", here, tp, ra, float(target.radius), seek, light, ctx.edition)
        if key not in memo:
            todo.append((key, tp, float(target.radius)))
    if len(todo) < 2:
        return
    cm = ctx.terrain.sight.cover_matrix(np.array([here]), ra, np.array([t[1] for t in todo]),
                                        np.array([t[2] for t in todo]), seek=seek,
                                        seek_light=light, edition=ctx.edition)
    for k, (key, _, _) in enumerate(todo):
        vis = bool(cm.visible[0, k])
        memo[key] = CoverResult(vis, bool(cm.in_cover[0, k]), bool(cm.obscured[0, k]), vis)


def valid_shot(ctx: Context, shooter: Operative, point: tuple[float, float],
               weapon: Weapon, target: Operative, pos: dict[str, tuple[float, float]]
               ) -> tuple[bool, Any, float]:
    """Whether ``target`` is a valid target for ``weapon`` from ``point``; the cover result and
    the distance. Kill Team 2024: visible, in range, and a concealed target only if not in
    cover."""
    tp = pos[target.id]
    route_d = _route_distance(ctx, point, tp, shooter.radius, target.radius)
    dist = math.inf if route_d is None else route_d
    if dist > weapon_range(weapon) + 1e-9:
        return False, None, dist
    cover = _cover(ctx, point, tp, shooter.radius, target.radius,
                   seek=weapon.has("seek"), seek_light=weapon.has("seek_light"))
    if not cover.visible or not getattr(cover, "valid_target", True):
        return False, cover, dist
    if killzones.target_refusal(ctx.terrain.board, point, tp) is not None:
        return False, cover, dist  # Bheta-Decima: the players' rule too (rules/killzones.py)
    if ctx.edition == "kt2024" and target.stance == "conceal" and cover.in_cover:
        return False, cover, dist
    if ctx.edition == "kt2018" and ctx.sides and combat_refusal(
            ctx, shooter, point, weapon, target, pos) is not None:
        return False, cover, dist
    if ctx.edition == "kt2024":
        cover = _dice_cover(ctx, shooter, point, weapon, target, tp, cover)
    return True, cover, dist


def _dice_cover(ctx: Context, shooter: Operative, point: tuple[float, float], weapon: Weapon,
                target: Operative, tp: tuple[float, float], cover: Any) -> Any:
    """Kill Team 2024: the cover of a valid shot as the dice will read it
    (:func:`solo_ops.game.shots.shot_cover`): Seek only lets a Concealed target be targeted
    ("any Cover saves can still be retained", 002), so the save is valued with the cover
    Seek ignored; Vantage's Accurate is added (:func:`solo_ops.rules.kt2024.vantage_accuracy`)."""
    if weapon.has("seek") or weapon.has("seek_light"):
        cover = _cover(ctx, point, tp, shooter.radius, target.radius, seek=False,
                       seek_light=False)
    accurate = kt2024.vantage_accuracy(ctx.terrain.sight.decks, point, tp,
                                       target.stance == "engage") if cover.visible else 0
    return replace(cover, vantage_accurate=accurate) if accurate else cover


def _expected(ctx: Context, weapon: Weapon, shooter: Operative, target: Operative, cover: Any,
              dist: float, at: tuple[float, float]) -> float:
    """The shot's expected damage by the exact odds the dice follow (``ctx.odds``): Kill Team
    2024 with the Volkus stronghold's Lethal 5+ when the target at ``at`` is wholly within it
    (:func:`solo_ops.rules.killzones.stronghold_weapon`, as the engine arms the weapon)."""
    assert ctx.odds is not None
    armed = weapon if ctx.edition != "kt2024" else killzones.stronghold_weapon(
        ctx.terrain.board, weapon, at, float(target.radius))
    return float(ctx.odds(armed, shooter, target, cover, distance=dist))


def combat_refusal(ctx: Context, shooter: Operative, point: Sequence[float], weapon: Weapon,
                   target: Operative, pos: dict[str, tuple[float, float]]) -> str | None:
    """Kill Team 2018 shooting from and into combat, the rule both sides ask
    (:func:`solo_ops.rules.kt2018.combat_shot_refusal`, setting ``combat_shooting``): measured
    from ``point`` with the models where ``pos`` has them (within 1" around the walls)."""
    terrain, radius = ctx.terrain, float(shooter.radius)
    radii = ctx.radii

    def any_within(a: Sequence[float], ra: float, idents: list[str]) -> bool:
        return reach.engaged_with_any(terrain, a, ra, [pos[i] for i in idents],
                                      [radii.get(i, shooter.radius) for i in idents])

    foes = [i for i, side in ctx.sides.items() if side != shooter.side and i in pos]
    friends = [i for i, side in ctx.sides.items()
               if side == shooter.side and i in pos and i != shooter.id]
    engaged = any_within(point, radius, foes)
    tp, tr = pos[target.id], float(target.radius)
    guarded = any_within(tp, tr, friends)
    closest = True
    if engaged:
        gaps = {i: _route_distance(ctx, point, pos[i], radius, float(radii.get(i, radius)))
                for i in foes}
        mine = gaps.get(target.id)
        closest = mine is not None and all(g is None or g >= mine - 1e-9 for g in gaps.values())
    return kt2018.combat_shot_refusal(
        getattr(ctx.settings, "combat_shooting", "core"), pistol=weapon.kt2018_type == "pistol",
        shooter_engaged=engaged, target_engaged_with_friend=guarded, target_closest=closest)


def used_up(ctx: Context, shooter: Operative, weapon: Weapon) -> bool:
    """Limited x (Kill Team 2024): the weapon has been used x times this battle."""
    rule = weapon.rule("limited")
    if ctx.edition != "kt2024" or rule is None:
        return False
    return getattr(shooter, "limited_uses", {}).get(weapon.name, 0) >= int(rule.value)


def _models_hiding(ctx: Context, shooter: Operative, point: tuple[float, float],
                   target: Operative, pos: dict[str, tuple[float, float]], cover: Any) -> Any:
    """Kill Team 2018: the chosen shot's cover with the other models counted too (004 "Other
    models (even friendly models) ... may hide a target"), as the engine's dice count it
    (``game.shots.shot_cover``); the terrain's alone was used to choose among the targets.
    ``cover`` itself elsewhere, or when it is already obscured."""
    if ctx.edition != "kt2018" or cover is None or cover.obscured or not cover.visible:
        return cover
    others = [(p[0], p[1], ctx.radii[oid]) for oid, p in pos.items()
              if oid not in (shooter.id, target.id) and oid in ctx.radii]
    if not others:
        return cover
    seen = ctx.terrain.sight.cover(point, pos[target.id], shooter.radius, target.radius,
                                   edition="kt2018", others=others)
    return seen if seen.obscured else cover


def choose_shot(ctx: Context, shooter: Operative, point: tuple[float, float],
                targets: list[Operative], pos: dict[str, tuple[float, float]],
                *, moved: bool, moved_how: str | None
                ) -> tuple[Action | None, list[str]]:
    """The shot the supplement asks for: the closest valid enemy in range (ties broken by the
    expected damage), with the best weapon for it. Kill Team 2024 Heavy weapons are not fired
    after a move (``heavy=dash`` allows a Dash; ``moved_how`` is the move judged, see
    ``ai.turn._heavy_move``); a Limited weapon used up is not fired."""
    best: tuple[float, float, str, Weapon, Operative, Any] | None = None
    notes: list[str] = []
    weapons: list[Weapon] = []
    for weapon in ranged(shooter.profile):
        if used_up(ctx, shooter, weapon):
            notes.append(f"{shooter.label}'s {weapon.name} is used up (Limited).")
            continue
        # 001 Heavy (Kill Team 2024; a 2018 Heavy weapon fires after a move at -1 to hit)
        if ctx.edition == "kt2024" and moved and not kt2024.may_shoot_after_move(
                weapon, moved_how or "reposition"):
            continue
        if ctx.edition == "kt2018" and not kt2018.may_fire_after(weapon.kt2018_type, moved_how):
            continue  # 004 Assault: after an Advance "it can only fire Assault weapons"
        weapons.append(weapon)
    # The closest valid target wins (the expected damage only breaks ties of distance), so the
    # targets are tried a distance at a time, nearest first, and the search stops at the first
    # distance with a valid shot: the same choice without the cover of the farther targets.
    # Within one distance the order of the questions is the full search's (weapons, targets).
    if weapons and targets:
        gap = {}
        for target in targets:
            route_d = _route_distance(ctx, point, pos[target.id], shooter.radius, target.radius)
            gap[target.id] = round(math.inf if route_d is None else route_d, 6)
        for level in sorted(set(gap.values())):
            for weapon in weapons:
                for target in targets:
                    if gap[target.id] != level:
                        continue
                    ok, cover, dist = valid_shot(ctx, shooter, point, weapon, target, pos)
                    if not ok:
                        continue
                    expected = 0.0
                    if ctx.odds is not None:
                        # at the range from ``point`` (2018: long range, Rapid Fire)
                        expected = _expected(ctx, weapon, shooter, target, cover, dist,
                                             pos[target.id])
                    key = (round(dist, 6), -expected, target.id, weapon, target, cover)
                    if best is None or key[:3] < best[:3]:
                        best = key
            if best is not None:
                break
    if best is None:
        return None, notes
    dist, neg_exp, _, weapon, target, cover = best
    seen = _models_hiding(ctx, shooter, point, target, pos, cover)
    if seen is not cover:  # 2018: other models obscure it, as the dice will count
        cover = seen
        if ctx.odds is not None:
            neg_exp = -_expected(ctx, weapon, shooter, target, cover, dist, pos[target.id])
    action = Action("shoot", shooter.id, target=target.id, weapon=weapon.name,
                    expected=-neg_exp if ctx.odds is not None else None)
    state = []
    if cover is not None:
        if cover.obscured:
            state.append("obscured")
        if cover.in_cover and ctx.edition == "kt2024":
            state.append("in cover")  # 2018 has no cover apart from obscured (004 "Obscured")
    cond = f" ({', '.join(state)})" if state else ""
    odds = f", expected damage {-neg_exp:.2f}" if ctx.odds is not None else ""
    action.note = (f"{shooter.label} shoots {target.label} with {weapon.name}: the closest valid "
                   f"enemy in range, {inches(dist)} away{cond}{odds}.")
    return action, notes
