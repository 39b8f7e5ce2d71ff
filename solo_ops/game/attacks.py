"""The bridge between the game and the combat rules (:mod:`solo_ops.rules`).

The game speaks in operatives, weapons and cover results; the combat modules in profiles and
numbers. This module translates: expected damage for the AI's target choice, rolled attacks
for the engine (every die logged through the game's dice), the text that tells a player what
to roll when they roll the enemy's attacks themselves, and the 2018 injury roll and Nerve
test.

What it reads from the game's objects (all through ``getattr`` so partial objects work):
operatives ``.name``, ``.id``, ``.profile``, ``.wounds``, ``.at``, ``.radius``, ``.injured``,
``.flesh_wounds``, ``.shaken``, ``.down``, ``.side``; cover results ``.in_cover``,
``.obscured`` and, when geometry provides it, ``.vantage_accurate`` (Accurate 1 or 2 from
Vantage). A profile or weapon that lacks what its edition needs makes the expected damage 0
and the rolled attack a line asking the player to roll it at the table.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from solo_ops.core.dice import Dice
from solo_ops.core.model import DiceExpr, Weapon, WeaponType
from solo_ops.rules import killzones, kt2018, kt2024, odds, odds_2018, reach

if TYPE_CHECKING:
    from solo_ops.game.state import State
    from solo_ops.geometry.terrain import Terrain


@dataclass
class AttackResult:
    """A rolled shot: damage to the target, what else happened, and readable lines.

    ``outcome`` (2018): the Injury roll's result when the attack brought the target to 0
    wounds. ``splash``: (operative id, damage) for Blast / Torrent extra targets and the
    distance form of Devastating. ``self_damage``: Hot. ``stunned``: ids that lose 1 APL
    (Stun) until the end of their next activation.
    """

    damage: int = 0
    lines: list[str] = field(default_factory=list)
    outcome: str | None = None  # 2018: "flesh_wound" | "out_of_action" | None
    splash: list[tuple[str, int]] = field(default_factory=list)
    self_damage: int = 0
    stunned: list[str] = field(default_factory=list)


@dataclass
class FightResult:
    """A rolled fight: damage dealt to the target and taken by the attacker, and lines."""

    damage: int = 0
    damage_taken: int = 0
    lines: list[str] = field(default_factory=list)
    outcome: str | None = None
    outcome_taken: str | None = None
    stunned: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class ShotCover:
    """A cover result as the bridge reads it, with Vantage added: ``vantage_accurate`` is
    Accurate 1 or 2 from Vantage (Kill Team 2024), 0 otherwise."""

    visible: bool
    in_cover: bool
    obscured: bool
    valid_target: bool = True
    vantage_accurate: int = 0

    @classmethod
    def of(cls, cover: Any, vantage_accurate: int = 0) -> ShotCover:
        """``cover`` (a geometry cover result) with ``vantage_accurate``."""
        return cls(bool(getattr(cover, "visible", True)), bool(getattr(cover, "in_cover", False)),
                   bool(getattr(cover, "obscured", False)),
                   bool(getattr(cover, "valid_target", True)), int(vantage_accurate))


CpHooks = Callable[[Any], "kt2024.CpChooser | None"]
"""An operative -> its side's Command Point re-roll chooser, or None when it is not asked."""


def _no_cp(_op: Any) -> kt2024.CpChooser | None:
    return None


CoverHooks = Callable[[Any], "kt2024.CoverChooser | None"]
"""An operative -> its choice when its cover save could block nothing, or None for the rule."""


def _no_cover_choice(_op: Any) -> kt2024.CoverChooser | None:
    return None


FightHooks = Callable[[Any], "kt2024.FightChooser | None"]
"""An operative -> the chooser of its own fight moves (die by die), or None for the policy."""


def _no_choice(_op: Any) -> kt2024.FightChooser | None:
    return None


# -- translation -----------------------------------------------------------------------------


def _profile(op: Any) -> Any:
    return getattr(op, "profile", op)


def _name(op: Any) -> str:
    """How attack texts name ``op``: an enemy model by its id (the id on the map), a player's
    operative by its name (see :attr:`solo_ops.game.state.Operative.label`)."""
    label = getattr(op, "label", None)
    if isinstance(label, str) and label:
        return label
    return str(getattr(op, "name", None) or getattr(_profile(op), "name", "model"))


def _gap(a: Any, b: Any) -> float | None:
    """Distance between two operatives' bases (straight line), None if either is off-table."""
    pa, pb = getattr(a, "at", None), getattr(b, "at", None)
    if pa is None or pb is None:
        return None
    return max(0.0, math.hypot(pa[0] - pb[0], pa[1] - pb[1]) - float(getattr(a, "radius", 0.0))
               - float(getattr(b, "radius", 0.0)))


def spec_2024(weapon: Weapon, shooter: Any, cover: Any = None, hit_bonus: int = 0
              ) -> kt2024.AttackSpec | None:
    """The attack spec of ``shooter`` using ``weapon`` (None without 2024 characteristics)."""
    if weapon is None or weapon.attacks is None or weapon.hit is None or weapon.damage is None:
        return None
    return kt2024.AttackSpec.from_weapon(
        weapon, injured=bool(getattr(shooter, "injured", False)), hit_bonus=hit_bonus,
        accurate_bonus=int(getattr(cover, "vantage_accurate", 0) or 0))


def defence_2024(target: Any, cover: Any = None) -> kt2024.DefenceSpec:
    """The defence of ``target`` as ``cover`` leaves it."""
    profile = _profile(target)
    wounds = getattr(target, "wounds", None)
    return kt2024.DefenceSpec(
        dice=int(getattr(profile, "defence_dice", 3)), save=min(6, max(2, int(profile.save))),
        wounds=wounds if isinstance(wounds, int) and wounds > 0 else None,
        cover=bool(getattr(cover, "in_cover", False)),
        obscured=bool(getattr(cover, "obscured", False)))


def attack_2018(weapon: Weapon, shooter: Any, target: Any, cover: Any = None, *,
                broken: bool = False, overwatch: bool = False,
                long_range: bool | None = None, close_quarters: bool = True,
                concentrated_radius: bool = True, no_escape: bool = False,
                firing_point: bool = False, effects: Mapping[str, Any] | None = None,
                rapid_fire: str = "double") -> kt2018.Attack2018 | None:
    """The 2018 attack of ``shooter`` with ``weapon`` (None if a characteristic is missing).

    Long range is worked out from the bases' distance when not given (it only matters when
    Close Quarters is off). ``close_quarters``, ``concentrated_radius`` and ``no_escape`` are
    the Pariah Nexus ultra-close-confines rules (the engine turns them off outside Pariah
    Nexus games and decides "trapped" for No Escape from geometry). ``effects``: the fields
    the Pariah Nexus effects in force give the attack (:func:`solo_ops.game.pariah.attack_effects`:
    named modifiers, re-rolls, Strength, Overwatch's hit). ``rapid_fire``: the setting of that
    name (a Rapid Fire weapon within half range doubles its attacks under ``double``,
    :func:`solo_ops.rules.kt2018.rapid_fire_doubles`)."""
    profile = _profile(shooter)
    melee = weapon.is_melee
    skill = profile.ws if melee else profile.bs
    strength = weapon.strength if weapon.strength is not None else profile.strength
    if skill is None or strength is None:
        return None
    if melee:
        shots = DiceExpr(0, 0, int(profile.attacks or 1))
    else:
        shots = weapon.shots or DiceExpr(0, 0, 1)
    if long_range is None:
        gap = _gap(shooter, target)
        long_range = bool(not melee and weapon.range and gap is not None
                          and gap > weapon.range / 2)
    kind = weapon.kt2018_type  # the 2018 type (``type_2018``), not the troop-type category
    return kt2018.Attack2018(
        shots=shots, skill=min(7, max(2, int(skill))), strength=int(strength), ap=weapon.ap,
        damage=weapon.damage_2018 or kt2018.ONE, melee=melee,
        grenade=kind is WeaponType.GRENADE, long_range=long_range,
        obscured=bool(getattr(cover, "obscured", False)) and not melee,
        flesh_wounds=int(getattr(shooter, "flesh_wounds", 0)), broken=broken,
        overwatch=overwatch, close_quarters=close_quarters,
        concentrated_radius=concentrated_radius, no_escape=no_escape and melee,
        # 004 Heavy / Assault hit modifiers and firing points (issue 14 item 12)
        heavy_moved=kt2018.heavy_moved(kind, getattr(shooter, "moved_how", None),
                                       getattr(shooter, "carrying", None) is not None),
        assault_advanced=kt2018.assault_advanced(kind, bool(getattr(shooter, "advanced", False))),
        firing_point=firing_point and not melee,
        rapid_fire=not melee and kt2018.rapid_fire_doubles(kind, long_range, rapid_fire),
        wound_ap=kt2018.wound_ap_of(weapon.abilities_2018),
        wound_ap_why=next((a.capitalize() for a in weapon.abilities_2018), None),
        **(effects or {}))


def target_2018(target: Any, defence: Mapping[str, Any] | None = None) -> kt2018.Target2018:
    """The 2018 target ``target``; ``defence``: its invulnerable save as the Pariah Nexus
    effects in force leave it, and why (:func:`solo_ops.game.pariah.attack_effects`)."""
    profile = _profile(target)
    wounds = getattr(target, "wounds", None)
    given = {"invulnerable": profile.invulnerable, **(defence or {})}
    return kt2018.Target2018(
        toughness=int(profile.toughness), save=min(7, max(2, int(profile.save))),
        wounds=wounds if isinstance(wounds, int) and wounds > 0 else int(profile.wounds),
        flesh_wounds=int(getattr(target, "flesh_wounds", 0)), **given)


def expected_for(edition: str, rapid_fire: str = "double") -> Any:
    """A callable ``(weapon, shooter, target, cover, distance=None) -> expected damage`` (None
    if the edition is unknown). The expectation is exact (:mod:`solo_ops.rules.odds`), capped
    at the target's wounds left; 0.0 when a characteristic is missing. ``distance`` (Kill Team
    2018): the range the shot is taken at, from where the shooter will stand (its base's
    straight distance to the target's when not given), for long range and Rapid Fire;
    ``rapid_fire`` the setting of that name (Kill Team 2018)."""
    if edition == "kt2024":
        return _expected_2024
    if edition == "kt2018":
        return _EXPECTED_2018[rapid_fire]
    return None


_EXPECTED: dict[tuple[Any, ...], tuple[Weapon, float]] = {}
""":func:`_expected_2024`'s answers by everything :func:`spec_2024` and :func:`defence_2024`
read (the weapon by identity, kept with the answer so a reused id never matches); the AI asks
the same shots hundreds of times a mission. Emptied past :data:`_EXPECTED_LIMIT`."""
_EXPECTED_LIMIT = 4096


def clear_caches() -> None:
    """Forget the remembered expected damages, as :func:`solo_ops.rules.odds.clear_caches`
    forgets the odds they are worked out from: the next question is answered from cold (a
    benchmark's cold start, a test that the answers do not depend on what was asked before)."""
    _EXPECTED.clear()


def _expected_2024(weapon: Weapon, shooter: Any, target: Any, cover: Any,
                   distance: float | None = None) -> float:
    profile = _profile(target)
    key = (id(weapon), bool(getattr(shooter, "injured", False)),
           getattr(cover, "vantage_accurate", 0), getattr(profile, "defence_dice", 3),
           getattr(profile, "save", None), getattr(target, "wounds", None),
           bool(getattr(cover, "in_cover", False)),
           bool(getattr(cover, "obscured", False)))
    found = _EXPECTED.get(key)
    if found is not None and found[0] is weapon:
        return found[1]
    spec = spec_2024(weapon, shooter, cover)
    value = 0.0 if spec is None else float(odds.shoot_2024(spec, defence_2024(target, cover)).mean)
    if len(_EXPECTED) >= _EXPECTED_LIMIT:
        _EXPECTED.clear()
    _EXPECTED[key] = (weapon, value)
    return value


def _expected_2018(weapon: Weapon, shooter: Any, target: Any, cover: Any,
                   distance: float | None = None, *, rapid_fire: str = "double") -> float:
    long_range = None
    if distance is not None and not weapon.is_melee and weapon.range:
        long_range = distance > weapon.range / 2 + 1e-9
    attack = attack_2018(weapon, shooter, target, cover, long_range=long_range,
                         rapid_fire=rapid_fire)
    if attack is None:
        return 0.0
    return float(odds_2018.attack_2018(attack, target_2018(target)).mean)


def _expected_2018_as_written(weapon: Weapon, shooter: Any, target: Any, cover: Any,
                              distance: float | None = None) -> float:
    return _expected_2018(weapon, shooter, target, cover, distance, rapid_fire="as_written")


_EXPECTED_2018: dict[str, Callable[..., float]] = {
    "double": _expected_2018, "as_written": _expected_2018_as_written}
""":func:`expected_for`'s Kill Team 2018 answer by the ``rapid_fire`` setting."""


def describe_shot(edition: str, shooter: Any, weapon: Any, target: Any, cover: Any,
                  terrain: Terrain, *, hit_penalty: int = 0) -> str:
    """What the player rolls for an enemy shot when they roll the enemy's attacks: Kill Team
    2024 at the Hit stat the engine's dice would use (injured -1, On Guard's ``hit_penalty``)
    with Vantage's Accurate and the stronghold's Lethal 5+, as :func:`roll_shot` plays them."""
    state = []
    if getattr(cover, "in_cover", False):
        state.append("in cover")
    if getattr(cover, "obscured", False):
        state.append("obscured")
    cond = f" ({', '.join(state)})" if state else ""
    spec = _spec_at(getattr(terrain, "board", None), weapon, shooter, cover, target,
                    -hit_penalty) if edition == "kt2024" else None
    if spec is not None and weapon.attacks:
        armed = [r.text() for r in spec.rules]
        if spec.accurate_bonus:
            armed.append(f"Accurate {spec.accurate_bonus} from Vantage")
        rules = ", ".join(armed)
        injured = " (injured: -1)" if getattr(shooter, "injured", False) else ""
        return (f"{_name(shooter)} shoots {_name(target)}{cond} with {weapon.name}: "
                f"{weapon.attacks} attack dice hitting on {spec.hit_needed}+{injured}, damage "
                f"{weapon.damage[0]}/{weapon.damage[1]}{'; ' + rules if rules else ''}.")
    return f"{_name(shooter)} shoots {_name(target)}{cond} with {weapon.name}."


def describe_fight(edition: str, attacker: Any, target: Any) -> str:
    """What the player rolls for an enemy's fight when they roll the enemy's attacks."""
    weapons = melee_weapons(attacker.profile, edition)
    weapon = weapons[0] if weapons else None
    if weapon is None:
        return f"{_name(attacker)} fights {_name(target)} bare-handed."
    return f"{_name(attacker)} fights {_name(target)} with {weapon.name}."


def _missing(edition: str, who: Any, weapon: Any) -> str:
    what = getattr(weapon, "name", "its weapon")
    return (f"{_name(who)}'s {what} lacks its {edition} characteristics: roll this attack at "
            "the table and enter the damage.")


def roll_shot(edition: str, dice: Dice, shooter: Any, weapon: Weapon, target: Any, cover: Any,
              terrain: Terrain, *, secondary: Sequence[tuple[Any, Any]] = (),
              nearby: Sequence[Any] = (), broken: bool = False, overwatch: bool = False,
              long_range: bool | None = None, close_quarters: bool = True,
              concentrated_radius: bool = True, cp: CpHooks | None = None,
              covers: CoverHooks | None = None, firing_point: str | None = None,
              effects: Mapping[str, Any] | None = None,
              defence: Mapping[str, Any] | None = None,
              obscured_by: str | None = None, rapid_fire: str = "double",
              hit_penalty: int = 0) -> AttackResult:
    """Roll a shot through the game's dice.

    ``cp`` (Kill Team 2024) gives an operative's Command Point re-roll chooser (None for a
    side that is not asked): the shooter's for its attack dice, each target's for its
    defence dice (:func:`solo_ops.rules.kt2024_rolled.cp_rerolls`; :mod:`solo_ops.game.cp`).
    ``covers`` (Kill Team 2024): each target's choice when its cover save could block nothing
    (:func:`solo_ops.rules.kt2024_dice.cover_useless`); None: the rule decides.

    Kill Team 2024: ``secondary`` lists Blast / Torrent extra targets as ``(operative,
    cover)`` (Blast targets take the primary's cover and obscured, as the card says), each
    shot in turn after the primary; ``nearby`` lists the operatives visible to the primary
    target, for the distance form of Devastating; Hot is rolled once at the end, against the
    weapon's own Hit stat; ``hit_penalty`` worsens the attack dice's (On Guard, -1 to hit
    within control range). Kill Team 2018: ``broken`` (the shooter's kill team),
    ``overwatch`` (hits only on 6s) and ``long_range`` (worked out from the bases if not
    given) modify the hit roll;
    ``close_quarters`` and ``concentrated_radius`` are the Pariah Nexus rules (on by default);
    ``firing_point`` the firing point the shooter benefits from (worked out when not given);
    ``effects`` and ``defence`` the Pariah Nexus effects in force on the attack and the
    target (:func:`solo_ops.game.pariah.attack_effects`), ``obscured_by`` an effect that makes
    the target count as obscured (Shifting Shadows); ``rapid_fire`` the setting of that name.
    """
    if edition == "kt2018":
        return _roll_shot_2018(edition, dice, shooter, weapon, target, cover, terrain,
                               broken=broken, overwatch=overwatch, long_range=long_range,
                               close_quarters=close_quarters,
                               concentrated_radius=concentrated_radius,
                               firing_point=firing_point, effects=effects, defence=defence,
                               obscured_by=obscured_by, rapid_fire=rapid_fire)
    return _roll_shot_2024(edition, dice, shooter, weapon, target, cover, terrain,
                           secondary=secondary, nearby=nearby, cp=cp, covers=covers,
                           hit_penalty=hit_penalty)


def firing_point_2018(terrain: Terrain, shooter: Any, target: Any) -> str | None:
    """The firing point ``shooter`` benefits from shooting at ``target`` (004 Choke Points),
    or None."""
    board = getattr(terrain, "board", None)
    if board is None or shooter.at is None or target.at is None:
        return None
    return kt2018.on_firing_point(board.firing_points, shooter.at, shooter.radius,
                                  target.at, target.radius)


def _roll_shot_2018(edition: str, dice: Dice, shooter: Any, weapon: Weapon, target: Any,
                    cover: Any, terrain: Terrain, *, broken: bool, overwatch: bool,
                    long_range: bool | None, close_quarters: bool,
                    concentrated_radius: bool, firing_point: str | None = None,
                    effects: Mapping[str, Any] | None = None,
                    defence: Mapping[str, Any] | None = None,
                    obscured_by: str | None = None, rapid_fire: str = "double") -> AttackResult:
    """Kill Team 2018 shooting: one attack (with a firing point's modifier and the Pariah
    Nexus effects in force) and its roll."""
    result = AttackResult()
    point = firing_point if firing_point is not None else firing_point_2018(
        terrain, shooter, target)
    if obscured_by and not getattr(cover, "obscured", False):
        cover = ShotCover(True, bool(getattr(cover, "in_cover", False)), True)
        result.lines.append(f"{_name(target)} counts as obscured ({obscured_by}).")
    attack = attack_2018(weapon, shooter, target, cover, broken=broken,
                         overwatch=overwatch, long_range=long_range,
                         close_quarters=close_quarters,
                         concentrated_radius=concentrated_radius,
                         firing_point=point is not None, effects=effects,
                         rapid_fire=rapid_fire)
    if attack is None:
        result.lines.append(_missing(edition, shooter, weapon))
        return result
    rolled = kt2018.roll_attack(dice, attack, target_2018(target, defence),
                                f"{_name(shooter)} shoots {_name(target)} ({weapon.name})")
    return AttackResult(rolled.damage, result.lines + rolled.lines, rolled.outcome)


def _spec_at(board: Any, weapon: Weapon, shooter: Any, cover: Any,
             aim: Any, hit_bonus: int = 0) -> kt2024.AttackSpec | None:
    """The shooter's attack spec against ``aim`` (Volkus stronghold Lethal 5+ included)."""
    # Volkus: Lethal 5+ for Blast / Torrent / Devastating into the stronghold (killzones)
    armed = weapon if board is None else killzones.stronghold_weapon(
        board, weapon, getattr(aim, "at", None), float(getattr(aim, "radius", 0.0)))
    return spec_2024(armed, shooter, cover, hit_bonus)


def _roll_shot_2024(edition: str, dice: Dice, shooter: Any, weapon: Weapon, target: Any,
                    cover: Any, terrain: Terrain, *, secondary: Sequence[tuple[Any, Any]],
                    nearby: Sequence[Any], cp: CpHooks | None,
                    covers: CoverHooks | None = None, hit_penalty: int = 0) -> AttackResult:
    """Kill Team 2024 shooting: the primary target, Devastating's splash, the Blast /
    Torrent targets, then Hot."""
    result = AttackResult()
    board = getattr(terrain, "board", None)
    spec = _spec_at(board, weapon, shooter, cover, target, -hit_penalty)
    if spec is None:
        result.lines.append(_missing(edition, shooter, weapon))
        return result
    label = f"{_name(shooter)} shoots {_name(target)} ({weapon.name})"
    hook, choose = cp or _no_cp, covers or _no_cover_choice
    shot = kt2024.roll_shot(dice, spec, defence_2024(target, cover), label,
                            attack_cp=hook(shooter), defence_cp=hook(target),
                            cover_choice=choose(target))
    result.damage = shot.damage
    result.lines.extend(shot.lines)
    if shot.stun:
        result.stunned.append(str(getattr(target, "id", _name(target))))
    _devastating_splash(result, weapon, target, nearby, shot.crits)
    _secondary_shots(result, dice, board, shooter, weapon, cover, spec, secondary, hook,
                     choose, -hit_penalty)
    if weapon.has("hot"):
        result.self_damage, text = kt2024.roll_hot(dice, weapon.hit or 6, label)
        result.lines.append(text)
    return result


def _devastating_splash(result: AttackResult, weapon: Weapon, target: Any,
                        nearby: Sequence[Any], crits: int) -> None:
    """Devastating's distance form (``x" Devastating y``): y per crit to each other nearby
    operative within x of the target."""
    splash = kt2024.devastating_splash(weapon)
    if splash is not None and crits:
        distance, amount = splash
        for other in nearby:
            if other is target or getattr(other, "id", None) == getattr(target, "id", ""):
                continue
            gap = _gap(target, other)
            if gap is not None and gap <= distance + 1e-9:
                result.splash.append((str(other.id), amount * crits))
                result.lines.append(f"Devastating {distance:g}\": {_name(other)} takes "
                                    f"{amount * crits} damage.")


def _secondary_shots(result: AttackResult, dice: Dice, board: Any, shooter: Any,
                     weapon: Weapon, cover: Any, spec: kt2024.AttackSpec,
                     secondary: Sequence[tuple[Any, Any]], hook: CpHooks,
                     choose: CoverHooks = _no_cover_choice, hit_bonus: int = 0) -> None:
    """Blast / Torrent: each extra target shot in turn (Blast in the primary's cover)."""
    rule = kt2024.secondary_rule(weapon)
    for other, other_cover in secondary if rule is not None else ():
        assert rule is not None
        use_cover = cover if rule.cover_from_primary else other_cover
        extra_label = f"{_name(shooter)} shoots {_name(other)} ({weapon.name}, {rule.kind})"
        # (its own Vantage Accurate and obscuring for a Torrent target, as its own cover)
        extra = kt2024.roll_shot(dice, _spec_at(board, weapon, shooter, use_cover, other,
                                                hit_bonus) or spec,
                                 defence_2024(other, use_cover), extra_label,
                                 attack_cp=hook(shooter), defence_cp=hook(other),
                                 cover_choice=choose(other))
        result.lines.append(f"{rule.kind.title()}: {_name(other)}.")
        result.lines.extend(extra.lines)
        result.splash.append((str(other.id), extra.damage))
        if extra.stun:
            result.stunned.append(str(other.id))


def melee_weapons(profile: Any, edition: str) -> list[Weapon]:
    """The melee weapons ``profile`` fights with under ``edition``: under Kill Team 2024 those
    with their 2024 characteristics; under 2018 its own, else the close combat weapon
    (:func:`solo_ops.rules.kt2018.melee_weapons`)."""
    if edition == "kt2018":
        return list(kt2018.melee_weapons(profile))
    weapons = list(getattr(profile, "melee_weapons", ()))
    if edition == "kt2024":
        return [w for w in weapons if w.attacks is not None and w.hit is not None
                and w.damage is not None]
    return weapons


def _pick_2024(attacker: Any, target: Any, helpers: int | tuple[int, int]
               ) -> tuple[Weapon | None, Weapon | None]:
    """Each side's melee weapon: the attacker takes the one with the best mean of damage dealt
    minus taken against the defender's first weapon; the defender then answers with the one
    best for it. A side without a melee weapon rolls no dice."""
    mine = melee_weapons(_profile(attacker), "kt2024")
    theirs = melee_weapons(_profile(target), "kt2024")
    if not mine:
        return None, (theirs[0] if theirs else None)

    def score(a: Weapon | None, d: Weapon | None) -> float:
        fo = _fight_odds(a, d, attacker, target, helpers)
        return float(fo.dealt.mean - fo.taken.mean)

    first = theirs[0] if theirs else None
    best_a = max(mine, key=lambda w: score(w, first))
    best_d = min(theirs, key=lambda w: score(best_a, w)) if theirs else None
    return best_a, best_d


HELPERS_COUNTED = 4
"""The most fight helpers that change a Hit stat: 001 "IMPROVE hit stat by 1 for every
friendly ..." stops at 2+ (a 6+ weapon needs four); a fifth helper, or a ninth round a
target at a high engagement level, changes nothing."""


def _fight_spec(weapon: Weapon | None, op: Any, helpers: int) -> kt2024.AttackSpec:
    if weapon is None:
        return kt2024.AttackSpec(0, 6, 0, 0)
    spec = spec_2024(weapon, op, hit_bonus=min(helpers, HELPERS_COUNTED))
    assert spec is not None
    return spec


def _fight_odds(a: Weapon | None, d: Weapon | None, attacker: Any, target: Any,
                helpers: int | tuple[int, int]) -> odds.FightOdds:
    """The fight's odds with each side's weapon and helpers (``helpers``: the attacker's, or
    the attacker's and the defender's)."""
    mine, theirs = _sides(helpers)
    return odds.fight_2024(_fight_spec(a, attacker, mine), _fight_spec(d, target, theirs),
                           getattr(attacker, "wounds", None), getattr(target, "wounds", None))


def _sides(helpers: int | tuple[int, int]) -> tuple[int, int]:
    """(the attacker's helpers, the defender's) of a count for the attacker alone or a pair."""
    return (helpers, 0) if isinstance(helpers, int) else helpers


def roll_fight(edition: str, dice: Dice, attacker: Any, target: Any,
               helpers: int | tuple[int, int], *,
               broken: bool = False, no_escape: bool = False, defender_first: bool = False,
               cp: CpHooks | None = None, choices: FightHooks | None = None,
               effects: Mapping[str, Any] | None = None,
               defence: Mapping[str, Any] | None = None) -> FightResult:
    """Roll a fight through the game's dice.

    Kill Team 2024: both sides roll attack dice with their melee weapon (each Hit stat
    improved by 1 per helper: ``helpers``, the attacker's count, or the attacker's and the
    defender's), then strike and block in turn under the policy of
    :func:`solo_ops.rules.kt2024_fight.resolve_fight`. Kill Team 2018: the attacker makes its melee
    attacks; the target strikes back when it is chosen to fight, so nothing is taken here.
    ``broken`` (the attacker's kill team: -1 to hit) and ``no_escape`` (Pariah Nexus: +1 to
    the Injury roll against a trapped target), ``effects`` and ``defence`` (the Pariah Nexus
    effects in force, as for :func:`roll_shot`) are 2018 only. ``defender_first`` (Kill Team
    2024 Volkus, :func:`solo_ops.rules.killzones.defender_first`): the defender resolves first
    (its dice are rolled first too); the result is still the attacker's dealt and taken.
    ``cp`` (2024): each operative's Command Point re-roll chooser, as for :func:`roll_shot`;
    ``choices`` (2024): each operative's chooser of its own fight moves (the players', die by
    die), None for the policy.
    """
    result = FightResult()
    if edition == "kt2018":
        weapon = melee_weapons(_profile(attacker), edition)[0]
        attack = attack_2018(weapon, attacker, target, broken=broken, no_escape=no_escape,
                             effects=effects)
        if attack is None:
            result.lines.append(_missing(edition, attacker, weapon))
            return result
        rolled = kt2018.roll_attack(dice, attack, target_2018(target, defence),
                                    f"{_name(attacker)} fights {_name(target)} ({weapon.name})")
        return FightResult(rolled.damage, 0, rolled.lines, rolled.outcome)
    a_weapon, d_weapon = _pick_2024(attacker, target, helpers)
    if a_weapon is None:
        result.lines.append(_missing(edition, attacker, "melee weapon"))
        return result
    if getattr(target, "no_retaliation", False) and d_weapon is not None:
        d_weapon = None  # 001 Gallowdark On Guard: it shot in control range this activation
        result.lines.append(f"{_name(target)} cannot retaliate: it shot On Guard within "
                            "control range this activation (001 Gallowdark On Guard).")
    mine, theirs = _sides(helpers)
    a_spec, d_spec = _fight_spec(a_weapon, attacker, mine), _fight_spec(d_weapon, target, theirs)
    hook, choose = cp or _no_cp, choices or _no_choice
    names = (_name(attacker), _name(target))
    for name, count, spec in ((names[0], mine, a_spec), (names[1], theirs, d_spec)):
        if count and spec.attacks:
            result.lines.append(f"{name} has {count} friendly helper(s): hit "
                                f"{spec.hit_needed}+.")
    if defender_first:
        result.lines.append(f"{names[1]} is inside the stronghold: it resolves first.")
        fought = kt2024.roll_fight(dice, d_spec, a_spec, getattr(target, "wounds", None),
                                   getattr(attacker, "wounds", None), (names[1], names[0]),
                                   cp=(hook(target), hook(attacker)),
                                   choosers=(choose(target), choose(attacker)))
        result.damage, result.damage_taken = fought.taken, fought.dealt
        stun_defender, stun_attacker = fought.stun_attacker, fought.stun_defender
    else:
        fought = kt2024.roll_fight(dice, a_spec, d_spec, getattr(attacker, "wounds", None),
                                   getattr(target, "wounds", None), names,
                                   cp=(hook(attacker), hook(target)),
                                   choosers=(choose(attacker), choose(target)))
        result.damage, result.damage_taken = fought.dealt, fought.taken
        stun_defender, stun_attacker = fought.stun_defender, fought.stun_attacker
    result.lines.extend(fought.lines)
    if stun_defender:
        result.stunned.append(str(getattr(target, "id", names[1])))
    if stun_attacker:
        result.stunned.append(str(getattr(attacker, "id", names[0])))
    for fought_with, who in ((a_weapon, 0), (d_weapon, 1)):
        if fought_with is not None and fought_with.has("hot"):
            amount, text = kt2024.roll_hot(dice, fought_with.hit or 6, f"{names[who]} fights")
            result.lines.append(f"{names[who]}: {text}")
            if who == 0:
                result.damage_taken += amount
            else:
                result.damage += amount
    return result


def injury_2018(dice: Dice, op: Any, extra: Sequence[tuple[str, int]] = (), *,
                reroll: frozenset[int] = frozenset(), reroll_why: str | None = None) -> str:
    """Roll the Injury roll for ``op`` (+1 per flesh wound it has, plus ``extra``; faces in
    ``reroll`` re-rolled once): ``"flesh_wound"`` or ``"out_of_action"``."""
    outcome, _ = kt2018.roll_injury(dice, int(getattr(op, "flesh_wounds", 0)), extra,
                                    f"injury roll: {_name(op)}", reroll=reroll,
                                    reroll_why=reroll_why)
    return outcome


NERVE_FRIENDS = 2.0
"""Inches: the other unshaken friendly models within this of a model testing its nerve take 1
from the roll each (004 Nerve Tests)."""


def nerve_test_2018(dice: Dice, state: State, op: Any,
                    extra: Sequence[tuple[str, int]] = (), *,
                    terrain: Terrain | None = None) -> tuple[bool, Any]:
    """Roll a Nerve test for ``op``: D6, +1 per other friendly model shaken or out of action,
    -1 per other unshaken friendly model within 2" (measured around the walls of ``terrain``:
    004 "Distances cannot be measured through these walls"; None: open ground), plus
    ``extra`` (the effects in force: 004 Fear Matrix); failed if over Leadership, always
    passed on an unmodified 1. Returns (passed, the logged roll)."""
    friends = [o for o in state.side(op.side) if o is not op]
    gone = sum(1 for o in friends if o.down or o.shaken)
    near = 0
    for o in friends:
        at = getattr(o, "at", None)
        if o.down or o.shaken or at is None:
            continue
        gap = _gap(op, o)
        if gap is not None and gap <= NERVE_FRIENDS + 1e-9 and terrain is not None:
            gap = reach.route_gap(terrain, op.at, op.radius, at, o.radius)
        if gap is not None and gap <= NERVE_FRIENDS + 1e-9:
            near += 1
    entry = dice.d6(f"Nerve test: {_name(op)}", kt2018.nerve_modifiers(gone, near, extra))
    leadership = int(_profile(op).leadership)
    return kt2018.nerve_passed(entry.face, entry.value, leadership), entry
