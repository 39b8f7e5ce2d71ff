"""From a handful of enemy models to units with orders: the supplement's "Enemy ai orders".

* Troop type: count the unit's weapons by type (rapid fire -> Fire Teams, melee -> Melee,
  heavy/special -> Support). The most common wins; on a tie the type of the highest-Leadership
  model; if that is tied too, the unit splits into one unit per type, each keeping the command
  already rolled (the supplement's Chaos Marine + Khorne Berserker example).
* Order roll: ``command = min(6, d6 + max(0, Ld - 7))`` with Ld the unit's highest Leadership;
  the command picks the row of the troop type's table.
* Leaders: a unit whose highest Leadership is greater than another's leads it; its command
  radius is its Leadership in inches.

What is counted is each model's *main weapon* (setting ``troop_count: main_weapon``, issue #14):
its best ranged weapon other than a pistol or grenade when it has one (best: the most expected
damage on the profile, the weapon listed first on a tie), else its melee weapon, else its
pistol (rapid fire) or grenade (special); a model with no weapons at all counts as melee. Under
Kill Team 2024 nearly every profile carries fists or a bayonet, and counting those made a
guardsman squad with a heavy gunner a Melee unit. ``troop_count: every_weapon`` is the older
reading: every weapon counts, pistols and grenades only when a unit has nothing else. These
readings are recorded in ``docs/rules.md``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from solo_ops.core.dice import Dice, RollEntry
from solo_ops.core.model import DiceExpr, Profile, Weapon, WeaponType
from solo_ops.core.tables import Order, TroopType, order_table

LEADERSHIP_BASELINE = 7

TROOP_OF_WEAPON: dict[WeaponType, TroopType] = {
    WeaponType.RAPID: TroopType.FIRE_TEAMS,
    WeaponType.ASSAULT: TroopType.FIRE_TEAMS,  # a 2018 Assault weapon: a rapid-firing gun
    WeaponType.MELEE: TroopType.MELEE,
    WeaponType.HEAVY: TroopType.SUPPORT,
    WeaponType.SPECIAL: TroopType.SUPPORT,
}
SIDEARM_TROOP: dict[WeaponType, TroopType] = {
    WeaponType.PISTOL: TroopType.FIRE_TEAMS,
    WeaponType.GRENADE: TroopType.SUPPORT,
}


def leadership_modifier(leadership: int) -> int:
    """+1 to the order roll for every point of Leadership over 7."""
    return max(0, leadership - LEADERSHIP_BASELINE)


def command_radius(leadership: int) -> float:
    """A leader's command radius: its Leadership in inches."""
    return float(leadership)


def leads(leader_leadership: int, other_leadership: int) -> bool:
    """True when a unit with the first Leadership is a leader to one with the second."""
    return leader_leadership > other_leadership


MAIN_WEAPON = "main_weapon"
EVERY_WEAPON = "every_weapon"
TROOP_COUNTS = (MAIN_WEAPON, EVERY_WEAPON)


def _weapon_worth(weapon: Weapon) -> float:
    """How much damage a weapon promises on its profile, to pick a model's best ranged weapon:
    Kill Team 2024 ``A x (7 - BS)/6 x normal damage`` when the card's values are there, else
    Kill Team 2018 mean shots x mean damage (a missing value counts as 1)."""
    if weapon.attacks is not None and weapon.hit is not None and weapon.damage is not None:
        return weapon.attacks * max(0, 7 - weapon.hit) / 6 * weapon.damage[0]
    return _mean(weapon.shots) * _mean(weapon.damage_2018)


def _mean(expr: DiceExpr | None) -> float:
    if expr is None:
        return 1.0
    return expr.count * (expr.sides + 1) / 2 + expr.plus if expr.sides else \
        float(expr.count + expr.plus)


def main_weapon(profile: Profile) -> Weapon | None:
    """A model's main weapon: its best ranged weapon other than a pistol or grenade, else its
    first melee weapon, else its first pistol, else its first grenade (None: no weapons)."""
    ranged = [w for w in profile.weapons if w.type in (WeaponType.RAPID, WeaponType.HEAVY,
                                                        WeaponType.SPECIAL, WeaponType.ASSAULT)]
    if ranged:
        best = max(_weapon_worth(w) for w in ranged)
        return next(w for w in ranged if _weapon_worth(w) >= best - 1e-12)
    for kind in (WeaponType.MELEE, WeaponType.PISTOL, WeaponType.GRENADE):
        found = [w for w in profile.weapons if w.type is kind]
        if found:
            return found[0]
    return None


def _troop_of(weapon: Weapon | None) -> TroopType:
    if weapon is None:
        return TroopType.MELEE
    return TROOP_OF_WEAPON.get(weapon.type) or SIDEARM_TROOP[weapon.type]


def weapon_type_counts(profiles: Sequence[Profile], count: str = MAIN_WEAPON
                       ) -> Counter[TroopType]:
    """How many weapons of each troop type the models carry: one main weapon per model
    (``main_weapon``), or every weapon, sidearms only as a fallback (``every_weapon``)."""
    counts: Counter[TroopType] = Counter()
    if count == MAIN_WEAPON:
        for profile in profiles:
            counts[_troop_of(main_weapon(profile))] += 1
        return counts
    for profile in profiles:
        for weapon in profile.weapons:
            if weapon.type in TROOP_OF_WEAPON:
                counts[TROOP_OF_WEAPON[weapon.type]] += 1
    if not counts:
        for profile in profiles:
            for weapon in profile.weapons:
                if weapon.type in SIDEARM_TROOP:
                    counts[SIDEARM_TROOP[weapon.type]] += 1
    return counts


def model_troop_type(profile: Profile, count: str = MAIN_WEAPON) -> TroopType:
    """One model's own type: its main weapon's (``main_weapon``), or its most common weapon
    type, a tie going to the weapon listed first (``every_weapon``)."""
    if count == MAIN_WEAPON:
        return _troop_of(main_weapon(profile))
    counts = weapon_type_counts([profile], count)
    if not counts:
        return TroopType.MELEE
    top = max(counts.values())
    tied = {t for t, n in counts.items() if n == top}
    for weapon in profile.weapons:
        troop = TROOP_OF_WEAPON.get(weapon.type) or SIDEARM_TROOP.get(weapon.type)
        if troop in tied:
            return troop
    return min(tied)  # pragma: no cover - every tied type comes from some weapon


def troop_type(profiles: Sequence[Profile], count: str = MAIN_WEAPON) -> TroopType | None:
    """The unit's troop type, or None when the supplement says the unit must split."""
    if not profiles:
        raise ValueError("a unit needs at least one model")
    counts = weapon_type_counts(profiles, count)
    if not counts:
        return TroopType.MELEE
    top = max(counts.values())
    tied = sorted(t for t, n in counts.items() if n == top)
    if len(tied) == 1:
        return tied[0]
    best = max(p.leadership for p in profiles)
    leader_types = {model_troop_type(p, count) for p in profiles if p.leadership == best}
    if len(leader_types) == 1:
        return leader_types.pop()
    return None


@dataclass(frozen=True)
class OrderRoll:
    """The order roll of a unit: the die, the Leadership modifier and the command it gives."""

    roll: int | None  # the natural d6; None when the command was fixed by the scenario
    modifier: int
    command: int
    entry: RollEntry | None = None

    @property
    def modified(self) -> int:
        return self.command


def roll_command(dice: Dice, leadership: int, purpose: str = "order roll") -> OrderRoll:
    """Roll d6 + max(0, Ld - 7), capped at 6: the unit's command value."""
    modifier = leadership_modifier(leadership)
    mods = [(f"Leadership {leadership}", modifier)] if modifier else []
    entry = dice.d6(purpose, mods, high=6)
    return OrderRoll(entry.face, modifier, entry.value, entry)


@dataclass(frozen=True)
class FormedUnit:
    """A unit as the order rules make it: its models, troop type, command and order."""

    models: tuple[str, ...]
    troop: TroopType
    command: int
    leadership: int

    @property
    def order(self) -> Order:
        return order_table(self.troop)[self.command]


def form_units(
    models: Sequence[tuple[str, Profile]], command: int, count: str = MAIN_WEAPON
) -> list[FormedUnit]:
    """Give ``models`` (id, profile) their troop type and order, splitting on a full tie.

    ``command`` is the value already rolled for the whole group: split parts keep it;
    ``count`` is the ``troop_count`` setting (what counts towards the troop type).
    """
    if not 1 <= command <= 6:
        raise ValueError(f"command must be 1-6, got {command}")
    profiles = [p for _, p in models]
    troop = troop_type(profiles, count)
    if troop is not None:
        return [FormedUnit(tuple(m for m, _ in models), troop, command,
                           max(p.leadership for p in profiles))]
    parts: dict[TroopType, list[tuple[str, Profile]]] = {}
    for model_id, profile in models:
        parts.setdefault(model_troop_type(profile, count), []).append((model_id, profile))
    return [
        FormedUnit(tuple(m for m, _ in part), kind, command, max(p.leadership for _, p in part))
        for kind, part in parts.items()
    ]
