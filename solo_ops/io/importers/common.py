"""What every importer shares: the raw operatives read from a file, and their conversion to the
project's own profiles (``shared/INTERFACES.md`` "Roster").

A reader (:mod:`.battlescribe`, :mod:`.ktdash`) only finds the characteristics where its format
keeps them and hands over :class:`RawOperative` values holding the text as written, each with
the place it came from. :func:`convert` then reads the numbers ("3+" is read as 3, "abc" is
refused naming the file and the field), the weapons and their rules, and records every value it
had to guess (Leadership, Toughness, base size, a weapon without a ⌖/⚔ marker) so the command can
print them.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from solo_ops.core.errors import InputError
from solo_ops.core.limits import FILES
from solo_ops.core.model import DiceExpr
from solo_ops.io.importers.weapons import RANGED_RULES, shape_distance, split_rules, translate_rules
from solo_ops.io.roster import DEFAULT_BASE_MM, DEFAULT_LEADERSHIP, DEFAULT_TOUGHNESS

MAX_FILE_BYTES = FILES["import"].bytes
"""The largest roster file (or zipped entry) read: real rosters are a few hundred kilobytes
(the ``import`` limit of :data:`solo_ops.core.limits.FILES`)."""
MAX_OPERATIVES = 100

EDITIONS = {"kt2024": "Kill Team 2024", "kt2021": "Kill Team 2021", "kt2018": "Kill Team 2018"}
DEFAULT_KEYWORD_LEADERSHIP = {"LEADER": 8}
"""Kill Team 2024/2021 profiles have no Leadership: an operative with one of these keywords
gets this Leadership instead of the default (docs/rules.md "Importing rosters")."""

MELEE_MARK = "⚔"
RANGED_MARK = "⌖"


@dataclass
class RawWeapon:
    """One weapon profile as written: its name, ⌖/⚔ kind when the file says, its cells."""

    name: str
    kind: str | None  # "ranged" | "melee" | None (no marker)
    stats: dict[str, str]
    where: str  # the element or field it came from, for error messages


@dataclass
class RawOperative:
    """One operative as written: shown name, type (profile) name, keywords and cells."""

    name: str
    type_name: str
    keywords: tuple[str, ...]
    stats: dict[str, str]
    weapons: list[RawWeapon]
    where: str
    base_mm: float | None = None


@dataclass
class Operative:
    """One imported operative: ``profile`` is a roster profile mapping, ready to write."""

    name: str
    type_name: str
    keywords: tuple[str, ...]
    profile: dict[str, Any]
    guesses: list[str] = field(default_factory=list)
    unknown_rules: list[str] = field(default_factory=list)


@dataclass
class Team:
    """Everything read from one file."""

    source: str
    name: str
    edition: str  # kt2024 | kt2021 | kt2018
    fmt: str  # "BattleScribe" | "KTDash" | "killteamjson"
    operatives: list[Operative]
    warnings: list[str] = field(default_factory=list)

    @property
    def edition_name(self) -> str:
        return EDITIONS[self.edition]


@dataclass(frozen=True)
class LeadershipPolicy:
    """How a 2024/2021 operative gets its Leadership: ``default``, or the highest value of
    ``by_keyword`` among its keywords (matched without regard to case)."""

    default: int = DEFAULT_LEADERSHIP
    by_keyword: tuple[tuple[str, int], ...] = tuple(DEFAULT_KEYWORD_LEADERSHIP.items())

    def leadership(self, keywords: tuple[str, ...]) -> tuple[int, str]:
        """The Leadership and the reason shown among the guesses."""
        mine = {k.strip().upper() for k in keywords}
        best: tuple[int, str] | None = None
        for keyword, value in self.by_keyword:
            if keyword.upper() in mine and (best is None or value > best[0]):
                best = (value, f"leadership {value} (keyword {keyword.upper()})")
        return best or (self.default, f"leadership {self.default} (default)")


def parse_keyword_leadership(values: tuple[str, ...] | list[str], option: str
                             ) -> tuple[tuple[str, int], ...]:
    """``KEYWORD=N`` settings from the command line; an empty list keeps the default."""
    if not values:
        return tuple(DEFAULT_KEYWORD_LEADERSHIP.items())
    out: list[tuple[str, int]] = []
    for text in values:
        keyword, sep, number = str(text).partition("=")
        if not sep or not keyword.strip() or not number.strip().isdigit() \
                or not 1 <= int(number) <= 12:
            raise InputError(f"expected KEYWORD=N with N from 1 to 12, got {text!r}",
                             source=option)
        out.append((keyword.strip().upper(), int(number)))
    return tuple(out)


# -- numbers ------------------------------------------------------------------------------------
_NUMBER = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(?:\+|\"|”|″|''|in|inch|inches)?\s*$")


def read_number(text: Any, source: str, where: str, *, minimum: float | None = None,
                maximum: float | None = None, whole: bool = True) -> Any:
    """A characteristic cell as a number: ``3``, ``3+`` (a roll needed), ``6"`` (inches).

    Anything else (``abc``, ``-``, an empty cell) is an :class:`InputError` naming the file and
    the element or field.
    """
    if isinstance(text, bool):
        raise InputError(f"expected a number, got {text!r}", source=source, field=where)
    if isinstance(text, (int, float)) and math.isfinite(text):
        value = float(text)
    else:
        raw = "" if text is None else str(text).strip()
        if raw in ("", "-", "–", "—"):
            raise InputError("is missing (no value)", source=source, field=where)
        match = _NUMBER.match(raw)
        if not match:
            raise InputError(f"expected a number (like 3 or 3+), got {raw!r}", source=source,
                             field=where)
        value = float(match.group(1))
    if whole and value != int(value):
        raise InputError(f"expected a whole number, got {value:g}", source=source, field=where)
    if minimum is not None and value < minimum:
        raise InputError(f"must be at least {minimum:g}, got {value:g}", source=source,
                         field=where)
    if maximum is not None and value > maximum:
        raise InputError(f"must be at most {maximum:g}, got {value:g}", source=source,
                         field=where)
    return int(value) if whole else value


def read_distance(text: Any, source: str, where: str) -> float:
    """A move or range: ``6"``, ``6``, or a 2021 shape such as ``3⬤`` (6")."""
    shape = shape_distance(str(text)) if isinstance(text, str) else None
    if shape is not None:
        return shape
    return float(read_number(text, source, where, minimum=0, whole=False))


def read_damage(text: Any, source: str, where: str) -> list[int]:
    """Kill Team 2024/2021 damage ``3/4`` as ``[normal, critical]``."""
    raw = "" if text is None else str(text).strip()
    parts = raw.split("/")
    if len(parts) != 2:
        raise InputError(f"expected normal/critical damage like 3/4, got {raw!r}",
                         source=source, field=where)
    return [read_number(parts[0], source, where, minimum=0),
            read_number(parts[1], source, where, minimum=0)]


def stat(stats: dict[str, str], names: tuple[str, ...], source: str, where: str) -> str:
    """The cell called one of ``names`` (case-insensitive); missing is an error naming it."""
    lowered = {k.strip().lower(): v for k, v in stats.items()}
    for name in names:
        if name.lower() in lowered:
            return lowered[name.lower()]
    raise InputError("is missing (the profile has no such characteristic)", source=source,
                     field=where)


def optional_stat(stats: dict[str, str], names: tuple[str, ...]) -> str | None:
    lowered = {k.strip().lower(): v for k, v in stats.items()}
    for name in names:
        if name.lower() in lowered:
            return lowered[name.lower()]
    return None


def strip_marker(name: str) -> tuple[str, str | None]:
    """A weapon name without the ⌖/⚔ marker it starts with, and the kind the marker says."""
    text = name.strip()
    for mark, kind in ((RANGED_MARK, "ranged"), (MELEE_MARK, "melee")):
        if text.startswith(mark):
            rest = text[len(mark):].strip()
            return (rest or text), kind
    return text, None


# -- conversion ---------------------------------------------------------------------------------
def convert(raw: RawOperative, edition: str, source: str, policy: LeadershipPolicy
            ) -> Operative:
    """A raw operative as a roster profile of ``edition``'s characteristics."""
    if edition == "kt2018":
        return _convert_2018(raw, source)
    return _convert_kill_team(raw, edition, source, policy)


def _convert_kill_team(raw: RawOperative, edition: str, source: str,
                       policy: LeadershipPolicy) -> Operative:
    w = raw.where
    s = raw.stats
    guesses: list[str] = []
    movement = read_distance(stat(s, ("Move", "M", "MOVE"), source, f"{w}: Move"), source,
                             f"{w}: Move")
    apl = read_number(stat(s, ("APL",), source, f"{w}: APL"), source, f"{w}: APL",
                      minimum=1, maximum=6)
    save = read_number(stat(s, ("Save", "SV", "SAVE"), source, f"{w}: Save"), source,
                       f"{w}: Save", minimum=2, maximum=7)
    wounds = read_number(stat(s, ("Wounds", "W", "WOUNDS"), source, f"{w}: Wounds"), source,
                         f"{w}: Wounds", minimum=1)
    defence = 3
    df = optional_stat(s, ("DF",))
    if edition == "kt2021" and df not in (None, "", "0"):
        defence = read_number(df, source, f"{w}: DF", minimum=0, maximum=6)
    leadership, why = policy.leadership(raw.keywords)
    guesses.append(why)
    guesses.append(f"toughness {DEFAULT_TOUGHNESS} (default)")
    base = raw.base_mm
    if base is None:
        base = DEFAULT_BASE_MM
        guesses.append(f"base {DEFAULT_BASE_MM:g} mm (default)")
    profile: dict[str, Any] = {
        "name": raw.type_name, "movement": _plain_number(movement), "leadership": leadership,
        "toughness": DEFAULT_TOUGHNESS, "wounds": wounds, "save": save,
        "base_mm": _plain_number(base), "apl": apl, "defence_dice": defence,
    }
    weapons: list[dict[str, Any]] = []
    unknown: list[str] = []
    for weapon in raw.weapons:
        entry = _weapon_kill_team(weapon, source, guesses, unknown)
        if entry is not None:
            _add_weapon(weapons, entry)
    profile["weapons"] = weapons
    return Operative(raw.name, raw.type_name, raw.keywords, profile, guesses, unknown)


_HEADER_VALUES = ("", "-", "–", "—")


def _weapon_kill_team(weapon: RawWeapon, source: str, guesses: list[str],
                      unknown: list[str]) -> dict[str, Any] | None:
    w = weapon.where
    s = weapon.stats
    atk = optional_stat(s, ("ATK", "A"))
    hit = optional_stat(s, ("HIT", "BS", "WS/BS", "WS", "BS/WS"))
    dmg = optional_stat(s, ("DMG", "D"))
    cells = [str(c).strip() if c is not None else "" for c in (atk, hit, dmg)]
    if all(c in _HEADER_VALUES for c in cells):
        return None  # a weapon's title row above its profiles (2021 BattleScribe)
    attacks = read_number(stat(s, ("ATK", "A"), source, f"{w}: ATK"), source, f"{w}: ATK",
                          minimum=1)
    hit_stat = read_number(stat(s, ("HIT", "BS", "WS/BS", "WS", "BS/WS"), source,
                                f"{w}: HIT"), source, f"{w}: HIT", minimum=2, maximum=6)
    damage = read_damage(stat(s, ("DMG", "D"), source, f"{w}: DMG"), source, f"{w}: DMG")
    tokens = []
    for names in (("WR", "SR"), ("!",)):
        cell = optional_stat(s, names)
        if cell:
            tokens.extend(split_rules(cell))
    reading = translate_rules(tokens)
    name, marked = strip_marker(weapon.name)
    kind = weapon.kind or marked
    if kind is None:
        if any(reading.has(r) for r in RANGED_RULES):
            kind = "ranged"
            guesses.append(f"{name}: no ⌖/⚔ marker, read as ranged (its rules)")
        else:
            kind = "melee"
            guesses.append(f"{name}: no ⌖/⚔ marker and no Range rule, read as melee, check it")
    rules = list(reading.rules)
    if kind == "melee":
        dropped = [r for r in rules if r.split("=")[0] in ("range", "blast", "torrent")]
        rules = [r for r in rules if r not in dropped]
        reading.unknown.extend(dropped)
    entry: dict[str, Any] = {"name": name, "type": _kill_team_type(name, kind, reading)}
    entry.update({"attacks": attacks, "hit": hit_stat, "damage": damage, "rules": rules})
    if reading.unknown:
        entry["notes"] = "rules kept as text (not played by solo-ops): " + \
            ", ".join(reading.unknown)
        for token in reading.unknown:
            text = f"{name}: {token}"
            if text not in unknown:
                unknown.append(text)
    return entry


def _kill_team_type(name: str, kind: str, reading: Any) -> str:
    """The supplement's weapon type for a 2024/2021 weapon (docs/rules.md "Importing"):
    melee; a grenade or pistol by its name; Heavy → heavy; Blast or Torrent → special;
    any other ranged weapon → rapid."""
    if kind == "melee":
        return "melee"
    lowered = name.lower()
    if "grenade" in lowered:
        return "grenade"
    if "pistol" in lowered:
        return "pistol"
    if reading.has("heavy"):
        return "heavy"
    if reading.has("blast") or reading.has("torrent"):
        return "special"
    return "rapid"


def _add_weapon(weapons: list[dict[str, Any]], entry: dict[str, Any]) -> None:
    """Append, skipping an exact duplicate and renaming a different weapon of the same name."""
    for existing in weapons:
        if existing == entry:
            return
    names = {w["name"] for w in weapons}
    base = entry["name"]
    n = 2
    while entry["name"] in names:
        entry["name"] = f"{base} ({n})"
        n += 1
    weapons.append(entry)


def _plain_number(value: float) -> float | int:
    return int(value) if float(value) == int(value) else float(value)


# -- Kill Team 2018 -----------------------------------------------------------------------------
_SAVE_2018 = re.compile(r"^\s*(\d)\+\s*(?:/\s*(\d)\+\+)?\s*$")
_TYPE_2018 = re.compile(r"^\s*([A-Za-z ]+?)\s*([0-9dD+ ]*)\s*$")
_TYPES_2018 = {"rapid fire": "rapid", "assault": "assault", "heavy": "heavy", "pistol": "pistol",
               "grenade": "grenade", "melee": "melee"}


def _convert_2018(raw: RawOperative, source: str) -> Operative:
    w = raw.where
    s = raw.stats
    guesses: list[str] = []

    def num(names: tuple[str, ...], lo: int, hi: int | None = None) -> int:
        where = f"{w}: {names[0]}"
        return read_number(stat(s, names, source, where), source, where, minimum=lo,
                           maximum=hi)

    movement = read_distance(stat(s, ("M",), source, f"{w}: M"), source, f"{w}: M")
    save_text = stat(s, ("Sv", "Save", "SV"), source, f"{w}: Sv")
    match = _SAVE_2018.match(str(save_text))
    invulnerable = None
    if match:
        save = int(match.group(1))
        invulnerable = int(match.group(2)) if match.group(2) else None
    else:
        save = read_number(save_text, source, f"{w}: Sv", minimum=2, maximum=7)
    strength = num(("S",), 1)
    profile: dict[str, Any] = {
        "name": raw.type_name, "movement": _plain_number(movement),
        "leadership": num(("Ld",), 1, 12), "toughness": num(("T",), 1, 12),
        "wounds": num(("W",), 1), "save": save,
    }
    base = raw.base_mm
    if base is None:
        base = DEFAULT_BASE_MM
        guesses.append(f"base {DEFAULT_BASE_MM:g} mm (default)")
    profile["base_mm"] = _plain_number(base)
    profile.update({"ws": num(("WS",), 2, 7), "bs": num(("BS",), 2, 7), "strength": strength,
                    "attacks": num(("A",), 1)})
    if invulnerable:
        profile["invulnerable"] = invulnerable
    weapons: list[dict[str, Any]] = []
    unknown: list[str] = []
    for weapon in raw.weapons:
        ww = weapon.where
        ws = weapon.stats
        name, _ = strip_marker(weapon.name)
        range_text = str(stat(ws, ("Range",), source, f"{ww}: Range")).strip()
        type_text = str(stat(ws, ("Type",), source, f"{ww}: Type")).strip()
        tmatch = _TYPE_2018.match(type_text)
        kind_word = tmatch.group(1).strip().lower() if tmatch else ""
        wtype = _TYPES_2018.get(kind_word)
        if range_text.lower() == "melee" or kind_word == "melee":
            wtype = "melee"
        if wtype is None:
            wtype = "special"
            guesses.append(f"{name}: weapon type {type_text!r} read as special")
        entry: dict[str, Any] = {"name": name, "type": wtype}
        if wtype != "melee":
            entry["range"] = _plain_number(read_distance(range_text, source, f"{ww}: Range"))
            shots_text = (tmatch.group(2).strip() if tmatch else "") or "1"
            try:
                entry["shots"] = _dice_value(DiceExpr.parse(shots_text.replace(" ", "")))
            except ValueError:
                raise InputError(f"expected a number of shots like 2 or D6, got {type_text!r}",
                                 source=source, field=f"{ww}: Type") from None
        entry["strength"] = _strength_2018(stat(ws, ("S",), source, f"{ww}: S"), strength,
                                           source, f"{ww}: S")
        ap_text = str(stat(ws, ("AP",), source, f"{ww}: AP")).strip()
        entry["ap"] = 0 if ap_text in _HEADER_VALUES else \
            -abs(read_number(ap_text.lstrip("-"), source, f"{ww}: AP", maximum=6))
        d_text = str(stat(ws, ("D",), source, f"{ww}: D")).strip()
        try:
            entry["damage_2018"] = _dice_value(DiceExpr.parse(d_text))
        except ValueError:
            raise InputError(f"expected damage like 1 or D3, got {d_text!r}", source=source,
                             field=f"{ww}: D") from None
        abilities = optional_stat(ws, ("Abilities",))
        if abilities and abilities.strip() not in _HEADER_VALUES:
            entry["notes"] = "abilities kept as text (not played by solo-ops): " + \
                abilities.strip()
            unknown.append(f"{name}: {abilities.strip()}")
        _add_weapon(weapons, entry)
    profile["weapons"] = weapons
    return Operative(raw.name, raw.type_name, raw.keywords, profile, guesses, unknown)


def _strength_2018(text: Any, user: int, source: str, where: str) -> int:
    """A 2018 weapon's Strength: a number, ``User``, ``+1`` or ``x2`` (of the bearer's S)."""
    raw = str(text).strip().lower().replace("×", "x")
    if raw in ("user", "as user", "-", ""):
        return user
    if raw.startswith("+"):
        return user + read_number(raw[1:], source, where, minimum=0)
    if raw.startswith("x"):
        return user * read_number(raw[1:], source, where, minimum=1)
    return read_number(raw, source, where, minimum=1)


def _dice_value(expr: DiceExpr) -> int | str:
    """A 2018 dice expression as written in a roster: a plain number, or text like ``D6``."""
    return expr.text() if expr.is_random else int(expr.plus)
