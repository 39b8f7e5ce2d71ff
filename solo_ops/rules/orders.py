"""From a handful of enemy models to units with orders: the supplement's "Enemy ai orders".

* Troop type: count the unit's weapons by type (rapid fire -> Fire Teams, melee -> Melee,
  heavy/special -> Support). The most common wins; on a tie the type of the highest-Leadership
  model; if that is tied too, the unit splits into one unit per type, each keeping the command
  already rolled (the supplement's Chaos Marine + Khorne Berserker example).
* Order roll: ``command = min(6, d6 + max(0, Ld - 7))`` with Ld the unit's highest Leadership;
  the command picks the row of the troop type's table.
* Leaders: a unit whose highest Leadership is greater than another's leads it; its command
  radius is its Leadership in inches.

Pistols and grenades are sidearms and do not count towards the troop type unless a unit has
nothing else (then pistols count as rapid fire, grenades as special); a unit with no weapons at
all fights in melee. These readings are recorded in ``docs/rules.md``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from solo_ops.core.dice import Dice, RollEntry
from solo_ops.core.model import Profile, WeaponType
from solo_ops.core.tables import Order, TroopType, order_table

LEADERSHIP_BASELINE = 7

TROOP_OF_WEAPON: dict[WeaponType, TroopType] = {
    WeaponType.RAPID: TroopType.FIRE_TEAMS,
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


def weapon_type_counts(profiles: Sequence[Profile]) -> Counter[TroopType]:
    """How many weapons of each troop type the models carry (sidearms only as a fallback)."""
    counts: Counter[TroopType] = Counter()
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


def model_troop_type(profile: Profile) -> TroopType:
    """One model's own type: its most common weapon type; a tie goes to the weapon listed first."""
    counts = weapon_type_counts([profile])
    if not counts:
        return TroopType.MELEE
    top = max(counts.values())
    tied = {t for t, n in counts.items() if n == top}
    for weapon in profile.weapons:
        troop = TROOP_OF_WEAPON.get(weapon.type) or SIDEARM_TROOP.get(weapon.type)
        if troop in tied:
            return troop
    return min(tied)  # pragma: no cover - every tied type comes from some weapon


def troop_type(profiles: Sequence[Profile]) -> TroopType | None:
    """The unit's troop type, or None when the supplement says the unit must split."""
    if not profiles:
        raise ValueError("a unit needs at least one model")
    counts = weapon_type_counts(profiles)
    if not counts:
        return TroopType.MELEE
    top = max(counts.values())
    tied = sorted(t for t, n in counts.items() if n == top)
    if len(tied) == 1:
        return tied[0]
    best = max(p.leadership for p in profiles)
    leader_types = {model_troop_type(p) for p in profiles if p.leadership == best}
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
    models: Sequence[tuple[str, Profile]], command: int
) -> list[FormedUnit]:
    """Give ``models`` (id, profile) their troop type and order, splitting on a full tie.

    ``command`` is the value already rolled for the whole group: split parts keep it.
    """
    if not 1 <= command <= 6:
        raise ValueError(f"command must be 1-6, got {command}")
    profiles = [p for _, p in models]
    troop = troop_type(profiles)
    if troop is not None:
        return [FormedUnit(tuple(m for m, _ in models), troop, command,
                           max(p.leadership for p in profiles))]
    parts: dict[TroopType, list[tuple[str, Profile]]] = {}
    for model_id, profile in models:
        parts.setdefault(model_troop_type(profile), []).append((model_id, profile))
    return [
        FormedUnit(tuple(m for m, _ in part), kind, command, max(p.leadership for _, p in part))
        for kind, part in parts.items()
    ]
