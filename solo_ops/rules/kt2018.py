"""Kill Team 2018 attacks: hit roll, wound roll, saves, damage, injury roll, Nerve tests.

As in :mod:`solo_ops.rules.kt2024`, the rules are small deterministic functions shared by the
exact odds (:mod:`solo_ops.rules.odds`) and the rolled mode here (every die through the game's
:class:`~solo_ops.core.dice.Dice`, logged with its purpose).

One *attack* is every shot (or melee attack) a model makes with one weapon against one target,
resolved one at a time: hit roll, wound roll, save, damage. When the target reaches 0 wounds
an Injury roll decides flesh wound or out of action, and the rest of that attack's shots are
not resolved (the source says so of mortal wounds: "any further mortal wounds directed against
this model by this attack are not resolved"; solo-ops reads every attack that way).

The Pariah Nexus ultra-close-confines rules are options of :class:`Attack2018`:
``close_quarters`` (no long-range penalty for ranged weapons), ``concentrated_radius`` (a
random number of shots rolls one extra die and discards the lowest) and ``no_escape`` (+1 to
the Injury roll for a melee attack against a model pinned within 1" of a wall, door, terrain
feature or pitfall). Both of the first two are on by default: the 2018 game solo-ops plays is
the ultra-close-confines one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from solo_ops.core.dice import Dice
from solo_ops.core.errors import InputError, excerpt
from solo_ops.core.model import DiceExpr

ONE = DiceExpr(0, 0, 1)
"""A fixed 1 (the default damage)."""

FLESH_WOUND_BOXES = 3
"""A model whose flesh-wound boxes are all marked is out of action on the next one."""


def _check(value: object, name: str, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InputError(f"must be a whole number from {low} to {high}, got {excerpt(value)}",
                         source=name)


@dataclass(frozen=True)
class Attack2018:
    """One model's attack with one weapon, and the conditions that modify it.

    ``skill`` is the Ballistic Skill (ranged) or Weapon Skill (melee). ``ap`` is the weapon's
    Armour Penetration; its sign is ignored (AP -1 and AP 1 both worsen saves by 1).
    ``hit_modifier``, ``wound_modifier`` and ``injury_modifier`` carry other rules (firing
    points, killzone effects).
    """

    shots: DiceExpr
    skill: int
    strength: int
    ap: int = 0
    damage: DiceExpr = ONE
    melee: bool = False
    grenade: bool = False
    long_range: bool = False
    obscured: bool = False
    flesh_wounds: int = 0  # on the attacking model
    broken: bool = False  # the attacking model's kill team
    overwatch: bool = False
    hit_modifier: int = 0
    wound_modifier: int = 0
    injury_modifier: int = 0
    close_quarters: bool = True
    concentrated_radius: bool = True
    no_escape: bool = False
    heavy_moved: bool = False  # a Heavy weapon, its bearer moved in the Movement phase
    assault_advanced: bool = False  # an Assault weapon, its bearer Advanced
    firing_point: bool = False  # the shooter benefits from a firing point

    def __post_init__(self) -> None:
        _check(self.skill, "skill", 2, 7)
        _check(self.strength, "strength", 1, 20)
        _check(self.ap, "ap", -6, 6)
        _check(self.flesh_wounds, "flesh_wounds", 0, 6)

    @property
    def hit_modifiers(self) -> list[tuple[str, int]]:
        """The cumulative hit roll modifiers the source lists, as ``(reason, amount)``."""
        mods: list[tuple[str, int]] = []
        if not self.melee:
            if self.long_range and not self.grenade and not self.close_quarters:
                mods.append(("long range", -1))
            if self.obscured:
                mods.append(("obscured", -1))
        if self.flesh_wounds:
            mods.append(("flesh wounds", -self.flesh_wounds))
        if self.broken:
            mods.append(("kill team broken", -1))
        if self.heavy_moved and not self.melee:
            mods.append(("Heavy, moved", -1))
        if self.assault_advanced and not self.melee:
            mods.append(("Assault, advanced", -1))
        if self.firing_point and not self.melee:
            mods.append(("firing point", 1))
        if self.hit_modifier:
            mods.append(("other", self.hit_modifier))
        return mods

    @property
    def injury_modifiers(self) -> list[tuple[str, int]]:
        mods: list[tuple[str, int]] = []
        if self.no_escape and self.melee:
            mods.append(("No Escape", 1))
        if self.injury_modifier:
            mods.append(("other", self.injury_modifier))
        return mods

    @property
    def concentrated(self) -> bool:
        """Whether Concentrated Radius applies: a ranged weapon with a random number of shots."""
        return self.concentrated_radius and not self.melee and self.shots.is_random


@dataclass(frozen=True)
class Target2018:
    """The target: Toughness, Save, invulnerable save, wounds left and flesh wounds."""

    toughness: int
    save: int
    invulnerable: int | None = None
    wounds: int = 1
    flesh_wounds: int = 0

    def __post_init__(self) -> None:
        _check(self.toughness, "toughness", 1, 20)
        _check(self.save, "save", 2, 7)
        if self.invulnerable is not None:
            _check(self.invulnerable, "invulnerable", 2, 6)
        _check(self.wounds, "wounds", 1, 99)
        _check(self.flesh_wounds, "flesh_wounds", 0, 6)


# -- the steps -------------------------------------------------------------------------------


def hits(face: int, attack: Attack2018) -> bool:
    """Hit roll: the face plus the modifiers must reach the skill; an unmodified 1 always
    fails and an unmodified 6 always hits. Overwatch hits only on a 6, whatever the
    modifiers."""
    if attack.overwatch:
        return face == 6
    if face == 1:
        return False
    if face == 6:
        return True
    return face + sum(a for _, a in attack.hit_modifiers) >= attack.skill


def wound_target(strength: int, toughness: int) -> int:
    """The wound roll table: S >= 2T 2+, S > T 3+, S = T 4+, S <= T/2 6+, S < T 5+."""
    if strength >= 2 * toughness:
        return 2
    if strength > toughness:
        return 3
    if strength == toughness:
        return 4
    if 2 * strength <= toughness:
        return 6
    return 5


def wounds(face: int, attack: Attack2018, target: Target2018) -> bool:
    """Wound roll: an unmodified 1 always fails, an unmodified 6 always wounds."""
    if face == 1:
        return False
    if face == 6:
        return True
    return face + attack.wound_modifier >= wound_target(attack.strength, target.toughness)


def save_needed(attack: Attack2018, target: Target2018) -> tuple[int, str]:
    """The roll the save needs and which save it is: the armour save worsened by AP, or the
    invulnerable save (never modified by AP) when that is better. Ties: armour."""
    armour = target.save + abs(attack.ap)
    if target.invulnerable is not None and target.invulnerable < armour:
        return target.invulnerable, "invulnerable"
    return armour, "armour"


def saves(face: int, attack: Attack2018, target: Target2018) -> bool:
    """Save roll: the face must reach :func:`save_needed`; a 1 always fails."""
    need, _ = save_needed(attack, target)
    return face != 1 and face >= need


def injury_result(value: int) -> str:
    """Injury roll table: 1-3 flesh wound, 4 or more out of action (after modifiers)."""
    return "out_of_action" if value >= 4 else "flesh_wound"


def injury_modifiers(flesh_wounds: int, extra: Iterable[tuple[str, int]] = ()
                     ) -> list[tuple[str, int]]:
    """+1 for each flesh wound the injured model already has, plus rules such as No Escape."""
    mods = [("flesh wounds", flesh_wounds)] if flesh_wounds else []
    return mods + [m for m in extra if m[1]]


def after_injury(result: str, flesh_wounds: int) -> str:
    """A flesh wound when every flesh-wound box is marked is out of action instead."""
    if result == "flesh_wound" and flesh_wounds + 1 >= FLESH_WOUND_BOXES:
        return "out_of_action"
    return result


def mortal_wound_damage(count: int, wounds_left: int) -> tuple[int, bool]:
    """Mortal wounds: one damage each, no wound roll or save; once the model is at 0 the rest
    are not resolved. Returns the damage inflicted and whether an Injury roll follows."""
    dealt = min(count, wounds_left)
    return dealt, dealt >= wounds_left and count > 0


def nerve_modifiers(others_gone: int, others_near: int) -> list[tuple[str, int]]:
    """Nerve test: +1 per other friendly model shaken or out of action, -1 per other friendly
    unshaken model within 2"."""
    mods = []
    if others_gone:
        mods.append(("friends shaken or out of action", others_gone))
    if others_near:
        mods.append(("friends within 2\"", -others_near))
    return mods


def nerve_passed(face: int, value: int, leadership: int) -> bool:
    """Passed unless the modified result exceeds Leadership; an unmodified 1 always passes."""
    return face == 1 or value <= leadership


# -- rolled mode ---------------------------------------------------------------------------------


def roll_dice_expr(dice: Dice, expr: DiceExpr, purpose: str, *, extra_die: bool = False
                   ) -> tuple[int, str]:
    """Roll a number such as ``D6`` or ``2D3+1``. ``extra_die`` (Concentrated Radius): roll one
    more die of the same type and discard the lowest."""
    if not expr.is_random:
        return expr.plus, str(expr.plus)
    count = expr.count + (1 if extra_die else 0)
    entry = dice.roll(purpose, count, expr.sides)
    faces = sorted(entry.faces)
    kept = faces[1:] if extra_die else faces
    value = sum(kept) + expr.plus
    text = f"{expr.text()} rolled {' '.join(map(str, entry.faces))}"
    if extra_die:
        text += f", the lowest ({faces[0]}) discarded"
    return value, text + f" = {value}"


def roll_injury(dice: Dice, flesh_wounds: int, extra: Iterable[tuple[str, int]] = (),
                label: str = "injury roll") -> tuple[str, int]:
    """Roll the Injury roll (D6 + modifiers) and return the outcome (after
    :func:`after_injury`) and the modified value."""
    entry = dice.d6(label, injury_modifiers(flesh_wounds, extra))
    return after_injury(injury_result(entry.value), flesh_wounds), entry.value


@dataclass
class Roll2018:
    """A rolled attack: damage inflicted, the Injury roll's outcome if it came to one."""

    damage: int
    outcome: str | None
    lines: list[str] = field(default_factory=list)


def roll_attack(dice: Dice, attack: Attack2018, target: Target2018, label: str = "attack"
                ) -> Roll2018:
    """Resolve ``attack`` shot by shot through ``dice`` (every roll logged)."""
    lines: list[str] = []
    shots, text = roll_dice_expr(dice, attack.shots, f"{label}: number of attacks",
                                 extra_die=attack.concentrated)
    if attack.shots.is_random:
        lines.append(f"Attacks: {text}" + (" (Concentrated Radius)." if attack.concentrated
                                           else "."))
    need, kind = save_needed(attack, target)
    mods = attack.hit_modifiers
    left = target.wounds
    dealt = 0
    for n in range(1, shots + 1):
        hit = dice.d6(f"{label}: hit roll {n}", mods)
        if not hits(hit.face, attack):
            lines.append(f"Shot {n}: hit roll {hit.value} misses.")
            continue
        wound = dice.d6(f"{label}: wound roll {n}",
                        [("modifier", attack.wound_modifier)] if attack.wound_modifier else [])
        if not wounds(wound.face, attack, target):
            lines.append(f"Shot {n}: hits, wound roll {wound.face} fails "
                         f"(needs {wound_target(attack.strength, target.toughness)}+).")
            continue
        save = dice.d6(f"{label}: save roll {n} ({kind} {need}+)")
        if saves(save.face, attack, target):
            lines.append(f"Shot {n}: wounds, saved on a {save.face} ({kind} {need}+).")
            continue
        amount, dmg_text = roll_dice_expr(dice, attack.damage, f"{label}: damage {n}")
        amount = min(amount, left)
        left -= amount
        dealt += amount
        lines.append(f"Shot {n}: wounds, save {save.face} fails ({kind} {need}+); "
                     f"{amount} damage" + (f" ({dmg_text})." if attack.damage.is_random
                                           else "."))
        if left <= 0:
            outcome, value = roll_injury(dice, target.flesh_wounds, attack.injury_modifiers,
                                         f"{label}: injury roll")
            lines.append(f"Down to 0 wounds: Injury roll {value}: "
                         f"{outcome.replace('_', ' ')}.")
            if n < shots:
                lines.append(f"The remaining {shots - n} attacks are not resolved.")
            return Roll2018(dealt, outcome, lines)
    lines.append(f"Damage: {dealt}.")
    return Roll2018(dealt, None, lines)


# -- the battle round's rules (004) ----------------------------------------------------------------
MOVED_2018 = ("normal", "advance", "fall_back", "charge", "retreat")
"""The 2018 moves that count as having moved in the Movement phase (Heavy's -1)."""


def heavy_moved(weapon_type: str, moved_how: str | None) -> bool:
    """004 Heavy: "If a model with a Heavy weapon moved in the preceding Movement phase, you
    must subtract 1 from any hit rolls made when firing that weapon this battle round." """
    return str(weapon_type) == "heavy" and moved_how in MOVED_2018


def assault_advanced(weapon_type: str, advanced: bool) -> bool:
    """004 Assault: a model that Advanced may fire Assault weapons only, "and you must subtract
    1 from any hit rolls made when firing that weapon this battle round"."""
    return str(weapon_type) == "assault" and advanced


def may_fire_after(weapon_type: str, moved_how: str | None) -> bool:
    """Whether a weapon may be fired in the Shooting phase after the bearer's move: not after
    Falling Back; after an Advance only an Assault weapon (004 "You can choose to shoot with a
    model with an Assault weapon ... even if it Advanced ... it can only fire Assault
    weapons")."""
    if moved_how == "fall_back":
        return False
    if moved_how == "advance":
        return str(weapon_type) == "assault"
    return True


def may_fall_back(charged_by_adjacent: bool) -> bool:
    """004 "A model cannot Fall Back if an enemy model finished a charge move within 1" of it
    in the same phase." ``charged_by_adjacent``: an enemy within 1" of it charged this
    battle round (charges are only made in the Movement phase)."""
    return not charged_by_adjacent


def on_firing_point(firing_points: Iterable[object], shooter_at: tuple[float, float],
                    shooter_radius: float, target_at: tuple[float, float],
                    target_radius: float) -> str | None:
    """004 Firing points: "if any part of its base is on a firing point ... draw an imaginary
    line from any part of the attacking model's base to any part of the target's base. If that
    line lies within the firing arc ... add 1 to the hit roll". Read: some part of the
    shooter's base on the firing point's area and some part of the target's base inside its
    arc (a line from base to base through the arc then exists). Returns the firing point's id
    (None: no bonus). ``firing_points`` have ``id``, ``area`` and ``arc`` polygons."""
    from shapely.geometry import Point

    me = Point(shooter_at).buffer(shooter_radius, 16)
    them = Point(target_at).buffer(target_radius, 16)
    for fp in firing_points:
        if me.intersects(fp.area) and them.intersection(fp.arc).area > 1e-9:  # type: ignore
            return str(fp.id)  # type: ignore[attr-defined]
    return None
