"""Plain data for what is on the table: weapons, profiles, rosters.

These are frozen dataclasses with no behaviour beyond small derived values; geometry, rules
and the AI read them, and :mod:`solo_ops.io.roster` builds them from player files. Kill Team 2024
and 2018 characteristics sit side by side as optional fields, so one roster can serve both
editions; what an edition needs but a profile lacks makes combat ask the player instead.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import Any

from solo_ops.core.errors import excerpt
from solo_ops.core.limits import LIMITS

MM_PER_INCH = 25.4


class WeaponType(StrEnum):
    """The weapon types a roster names; the first four and ``assault`` decide a unit's troop
    type (assault counts as rapid fire). ``assault`` is a Kill Team 2018 Assault weapon (fired
    after an Advance at -1 to hit, 004); under 2024 it plays as any ranged weapon. A weapon's
    Kill Team 2018 type is one of :data:`TYPES_2018` (``Weapon.kt2018_type``)."""

    RAPID = "rapid"
    MELEE = "melee"
    HEAVY = "heavy"
    SPECIAL = "special"
    PISTOL = "pistol"
    GRENADE = "grenade"
    ASSAULT = "assault"


TYPES_2018 = (WeaponType.RAPID, WeaponType.ASSAULT, WeaponType.HEAVY, WeaponType.PISTOL,
              WeaponType.GRENADE)
"""The ranged weapon types of Kill Team 2018 a roster's ``type_2018`` may name (the Core
Manual's Rapid Fire, Assault, Heavy, Pistol and Grenade; 004 names Heavy and Assault)."""


# Weapon rules of the Kill Team 2024 card, by the names ``--rule`` and rosters use, with the
# kind of value each takes: "flag" (none), "int", "inches", "heavy" (flag or a named move it
# allows) or "devastating" (an int, or the distance form "D:X").
WEAPON_RULES: dict[str, str] = {
    "accurate": "int",
    "balanced": "flag",
    "blast": "inches",
    "brutal": "flag",
    "ceaseless": "flag",
    "devastating": "devastating",
    "heavy": "heavy",
    "hot": "flag",
    "lethal": "int",
    "limited": "int",
    "piercing": "int",
    "piercing_crits": "int",
    "punishing": "flag",
    "range": "inches",
    "relentless": "flag",
    "rending": "flag",
    "saturate": "flag",
    "seek": "flag",
    "seek_light": "flag",
    "severe": "flag",
    "shock": "flag",
    "silent": "flag",
    "stun": "flag",
    "torrent": "inches",
}

HEAVY_ALLOWED_MOVES = ("dash", "reposition")


@dataclass(frozen=True)
class WeaponRule:
    """One weapon rule: ``lethal=5`` is ``WeaponRule("lethal", 5)``.

    ``value`` is None for flags, an int or float for numbered rules, a move name for
    ``heavy=dash`` and ``(distance, damage)`` for the distance form of Devastating.
    """

    name: str
    value: Any = None

    def text(self) -> str:
        if self.value is None:
            return self.name
        if isinstance(self.value, tuple):
            return f"{self.name}={self.value[0]:g}:{self.value[1]}"
        if isinstance(self.value, float):
            return f"{self.name}={self.value:g}"
        return f"{self.name}={self.value}"


def parse_weapon_rule(text: str) -> WeaponRule:
    """Parse ``name`` or ``name=value``; raises ValueError with a player-readable message."""
    raw = str(text).strip().lower().replace(" ", "_").replace("-", "_")
    name, _, value = raw.partition("=")
    name = name.strip()
    value = value.strip()
    kind = WEAPON_RULES.get(name)
    if kind is None:
        raise ValueError(f"unknown weapon rule {excerpt(name)}")
    if kind == "flag":
        if value:
            raise ValueError(f"weapon rule {excerpt(name)} takes no value")
        return WeaponRule(name)
    if kind == "heavy":
        if not value:
            return WeaponRule(name)
        if value not in HEAVY_ALLOWED_MOVES:
            raise ValueError(f"heavy allows only {' or '.join(HEAVY_ALLOWED_MOVES)}, got "
                             f"{excerpt(value)}")
        return WeaponRule(name, value)
    if not value:
        raise ValueError(f"weapon rule {excerpt(name)} needs a value, e.g. {name}=2")
    value = value.rstrip('+"')
    whole, inch = LIMITS["rule_value"], LIMITS["rule_inches"]

    def count(text: str) -> int:
        if len(text) > 6:
            raise ValueError
        number = int(text)
        if not whole.allows(number):
            raise ValueError
        return number

    def inches(text: str) -> float:
        if len(text) > 20:
            raise ValueError
        number = float(text)
        if not math.isfinite(number) or number <= 0 or number > inch.high:
            raise ValueError
        return number

    try:
        if kind == "int":
            return WeaponRule(name, count(value))
        if kind == "inches":
            return WeaponRule(name, inches(value))
        # devastating: "3" or the distance form "1:3" (1" Devastating 3)
        if ":" in value:
            distance, damage = value.split(":", 1)
            return WeaponRule(name, (inches(distance.rstrip('"')), count(damage)))
        return WeaponRule(name, count(value))
    except ValueError:
        raise ValueError(f"bad value {excerpt(value)} for weapon rule {name!r} (whole numbers "
                         f"{whole.low:g} to {whole.high:g}, distances over 0 up to "
                         f'{inch.high:g}")') from None


_DICE_EXPR = re.compile(r"^\s*(?:(\d*)\s*[dD]\s*(3|6))?\s*(?:([+-]?)\s*(\d+))?\s*$")


@dataclass(frozen=True)
class DiceExpr:
    """A number that may be random, as 2018 profiles write it: ``2``, ``D3``, ``2D6``, ``D6+1``."""

    count: int = 0
    sides: int = 0
    plus: int = 0

    @classmethod
    def parse(cls, value: Any) -> DiceExpr:
        """``2``, ``D3``, ``2D6``, ``D6+1`` within the shared limits (``dice_count``,
        ``dice_plus``); raises ValueError with a player-readable message."""
        plus_limit, count_limit = LIMITS["dice_plus"], LIMITS["dice_count"]
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise ValueError(f"expected a number or dice like D6, got {excerpt(value)}")
        if isinstance(value, int):
            if not plus_limit.allows(value):
                raise ValueError(f"must be {plus_limit.low:g} to {plus_limit.high:g}, got "
                                 f"{excerpt(value)}")
            return cls(0, 0, value)
        match = _DICE_EXPR.match(value) if len(value) <= 20 else None
        if not match or not (match.group(2) or match.group(4)):
            raise ValueError(f"expected a number or dice like D6, got {excerpt(value)}")
        count = int(match.group(1) or 1) if match.group(2) else 0
        sides = int(match.group(2) or 0)
        plus = int(match.group(4) or 0) * (-1 if match.group(3) == "-" else 1)
        if match.group(2) and not count_limit.allows(count):
            raise ValueError(f"at most {count_limit.high:g} dice, got {excerpt(value)}")
        if abs(plus) > plus_limit.high:
            raise ValueError(f"the fixed part must be at most {plus_limit.high:g}, got "
                             f"{excerpt(value)}")
        return cls(count, sides, plus)

    @property
    def is_random(self) -> bool:
        return self.count > 0

    def text(self) -> str:
        if not self.count:
            return str(self.plus)
        base = f"{self.count if self.count > 1 else ''}D{self.sides}"
        return base + (f"{self.plus:+d}" if self.plus else "")


@dataclass(frozen=True)
class Weapon:
    """A weapon: its type, range and the characteristics of each edition that it has."""

    name: str
    type: WeaponType
    range: float | None = None  # inches; None for melee (and for unlimited range)
    # Kill Team 2018's range when it differs (a Kill Team 2024 weapon reaches any visible
    # target unless it has Range x, 001): the profile's kt2018 variant plays it as ``range``
    range_2018: float | None = None
    # Kill Team 2018's weapon type when it differs from ``type``, which stays the solo
    # supplement's troop-type category (003): the plasma gun is ``special`` there and Rapid
    # Fire 1 in 2018. Read through :attr:`kt2018_type`
    type_2018: WeaponType | None = None
    # Kill Team 2024
    attacks: int | None = None
    hit: int | None = None
    damage: tuple[int, int] | None = None
    rules: tuple[WeaponRule, ...] = ()
    # Kill Team 2018
    strength: int | None = None  # None with ``strength_user``: the bearer's Strength
    ap: int = 0
    damage_2018: DiceExpr | None = None
    shots: DiceExpr | None = None
    # Kill Team 2018 weapon abilities by name (``rules.kt2018.WEAPON_ABILITIES_2018``: gauss);
    # ``rules`` above are Kill Team 2024's and never played in a 2018 game
    abilities_2018: tuple[str, ...] = ()

    @property
    def is_melee(self) -> bool:
        return self.type is WeaponType.MELEE

    @property
    def kt2018_type(self) -> WeaponType:
        """The type Kill Team 2018's rules read (Rapid Fire, Assault, Heavy, Pistol, Grenade;
        melee): ``type_2018`` when the roster gives one, else ``type``. A ``special`` weapon
        without one has no 2018 type rule (neither doubled, nor -1 after a move, nor fired
        after an Advance). The troop type (``rules.orders``) reads ``type`` alone."""
        return self.type_2018 if self.type_2018 is not None else self.type

    def rule(self, name: str) -> WeaponRule | None:
        """The rule called ``name`` on this weapon, if it has one."""
        for rule in self.rules:
            if rule.name == name:
                return rule
        return None

    def has(self, name: str) -> bool:
        return self.rule(name) is not None

    @property
    def effective_range(self) -> float | None:
        """The range that limits targets: the ``range x`` rule if present, else ``range``."""
        rule = self.rule("range")
        if rule is not None:
            return float(rule.value) if self.range is None else min(self.range, rule.value)
        return self.range


@dataclass(frozen=True)
class Profile:
    """The characteristics of one kind of model (a roster entry, or a squad member's)."""

    name: str
    movement: float
    leadership: int
    toughness: int
    wounds: int
    save: int
    base_mm: float
    weapons: tuple[Weapon, ...] = ()
    # Kill Team 2024
    apl: int = 2
    defence_dice: int = 3
    # Kill Team 2018
    ws: int | None = None
    bs: int | None = None
    strength: int | None = None
    attacks: int | None = None
    invulnerable: int | None = None
    variants: dict[str, Profile] = field(default_factory=dict, compare=False, repr=False)

    def for_edition(self, edition: str) -> Profile:
        """This profile as played under ``edition`` (its ``kt2024:``/``kt2018:`` overrides)."""
        return self.variants.get(edition, self)

    @cached_property
    def base_radius(self) -> float:
        """The base's radius in inches (bases are discs of ``base_mm`` diameter): worked out
        once a profile (it is frozen), as the planner asks it of every model many times a
        turn."""
        return self.base_mm / MM_PER_INCH / 2.0

    @property
    def longest_range(self) -> float | None:
        """The longest range among ranged weapons (None if it has none, inf if unlimited)."""
        ranges = [
            w.effective_range if w.effective_range is not None else float("inf")
            for w in self.weapons
            if not w.is_melee
        ]
        return max(ranges) if ranges else None

    @property
    def ranged_weapons(self) -> tuple[Weapon, ...]:
        return tuple(w for w in self.weapons if not w.is_melee)

    @property
    def has_assault(self) -> bool:
        """Whether it carries a Kill Team 2018 Assault weapon (004 Assault: it still shoots,
        or fires Overwatch, after an Advance)."""
        return any(w.kt2018_type == "assault" for w in self.ranged_weapons)

    @property
    def melee_weapons(self) -> tuple[Weapon, ...]:
        return tuple(w for w in self.weapons if w.is_melee)


@dataclass(frozen=True)
class Roster:
    """An enemy roster: named profiles and the mission's d6 table of which model appears."""

    name: str
    profiles: dict[str, Profile]
    table: dict[int, str]

    def profile_for_roll(self, face: int) -> Profile:
        return self.profiles[self.table[face]]
