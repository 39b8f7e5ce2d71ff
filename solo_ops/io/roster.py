"""Reading profiles and rosters (the format of ``shared/INTERFACES.md``) into :mod:`model` data.

Every check names the file and the field: ``traitor-cult.yaml: profiles.cultist.weapons[0].type:
unknown value 'laser'``. Kill Team 2024 profiles have no Leadership or Toughness, so these
default to :data:`DEFAULT_LEADERSHIP` (7: no order-roll modifier) and :data:`DEFAULT_TOUGHNESS`
(3: a human's) — see ``docs/rules.md``.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any, TypedDict

from solo_ops.core.errors import InputError, clip, excerpt
from solo_ops.core.fields import Fields, join_path
from solo_ops.core.limits import LIMITS, bounds
from solo_ops.core.model import (
    TYPES_2018,
    DiceExpr,
    Profile,
    Roster,
    Weapon,
    WeaponType,
    parse_weapon_rule,
)
from solo_ops.io import library
from solo_ops.io.yamlio import read_document
from solo_ops.rules.kt2018 import WEAPON_ABILITIES_2018

DEFAULT_LEADERSHIP = 7
DEFAULT_TOUGHNESS = 3
DEFAULT_BASE_MM = 32.0

PROFILE_KEYS = (
    "name", "movement", "leadership", "toughness", "wounds", "save", "base_mm", "weapons",
    "apl", "defence_dice", "ws", "bs", "strength", "attacks", "invulnerable", "notes",
)
EDITIONS = ("kt2024", "kt2018")
WEAPON_KEYS = (
    "name", "type", "range", "attacks", "hit", "damage", "rules", "strength", "ap",
    "damage_2018", "shots", "range_2018", "type_2018", "abilities_2018", "notes",
)


def parse_weapon(data: Any, source: str | None, path: str) -> Weapon:
    """One weapon entry of a profile."""
    w = Fields(data, source, path).only(WEAPON_KEYS)
    wtype = WeaponType(w.choice("type", [t.value for t in WeaponType]))
    # a ranged weapon without a range reaches any visible target (Kill Team 2024, 001: only
    # "Range x - Only Operatives within x of the shooter can be valid targets" limits it); a
    # Kill Team 2018 game asks for one (io.scenario, :func:`check_ranges_2018`)
    rng = w.number("range", None, positive=True, maximum=LIMITS["range"].high)
    rng_2018 = w.number("range_2018", None, positive=True, maximum=LIMITS["range"].high)
    for key, value in (("range", rng), ("range_2018", rng_2018)):
        if wtype is WeaponType.MELEE and value is not None:
            raise w.error(key, "a melee weapon has no range")
    type_2018 = _type_2018(w, wtype)
    rules = []
    for i, text in enumerate(w.sequence("rules", [])):
        try:
            rules.append(parse_weapon_rule(str(text)))
        except ValueError as exc:
            raise w.error(join_path("rules", i), str(exc)) from None
    damage = None
    damage_2018 = None
    if w.has("damage"):
        raw = w.raw("damage")
        if isinstance(raw, (list, tuple)):
            if len(raw) != 2:
                raise w.error("damage", "expected [normal, critical] damage")
            normal = _int(raw[0], w, "damage[0]", "damage")
            crit = _int(raw[1], w, "damage[1]", "damage")
            damage = (normal, crit)
        else:
            damage_2018 = _dice(raw, w, "damage")
    if w.has("damage_2018"):
        damage_2018 = _dice(w.raw("damage_2018"), w, "damage_2018")
    shots = _dice(w.raw("shots"), w, "shots") if w.has("shots") else None
    return Weapon(
        name=w.text("name"),
        type=wtype,
        range=rng,
        attacks=w.integer("attacks", None, **_whole("attacks", minimum=1)),
        hit=w.integer("hit", None, **_whole("hit")),
        damage=damage,
        rules=tuple(rules),
        strength=w.integer("strength", None, **_whole("strength")),
        ap=w.integer("ap", 0, **_whole("ap")),
        damage_2018=damage_2018,
        shots=shots,
        range_2018=rng_2018,
        type_2018=type_2018,
        abilities_2018=_abilities_2018(w),
    )


def _abilities_2018(w: Fields) -> tuple[str, ...]:
    """A weapon's Kill Team 2018 abilities (``abilities_2018``: names from
    :data:`solo_ops.rules.kt2018.WEAPON_ABILITIES_2018`, each once)."""
    out: list[str] = []
    for i, text in enumerate(w.sequence("abilities_2018", [])):
        name = str(text).strip().lower()
        if name not in WEAPON_ABILITIES_2018:
            raise w.error(join_path("abilities_2018", i),
                          f"unknown Kill Team 2018 weapon ability {excerpt(text)} (known: "
                          + ", ".join(sorted(WEAPON_ABILITIES_2018)) + ")")
        if name in out:
            raise w.error(join_path("abilities_2018", i), f"{name} is given twice")
        out.append(name)
    return tuple(out)


def _type_2018(w: Fields, wtype: WeaponType) -> WeaponType | None:
    """A ranged weapon's Kill Team 2018 type, when the roster gives one (``type_2018``: rapid,
    assault, heavy, pistol or grenade; ``type`` stays the supplement's troop-type category)."""
    if not w.has("type_2018"):
        return None
    if wtype is WeaponType.MELEE:
        raise w.error("type_2018", "a melee weapon has no Kill Team 2018 ranged type")
    return WeaponType(w.choice("type_2018", [t.value for t in TYPES_2018]))


def _whole(name: str, minimum: int | None = None) -> dict[str, int]:
    """``minimum``/``maximum`` of the shared limit ``name`` (:mod:`solo_ops.core.limits`),
    for :meth:`Fields.integer`; ``minimum`` raises the floor where a file needs more."""
    low, high = bounds(name)
    return {"minimum": low if minimum is None else max(low, minimum), "maximum": high}


def _int(value: Any, w: Fields, field: str, limit: str) -> int:
    low, high = bounds(limit)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise w.error(field, f"expected a whole number from {low} to {high}, got "
                             f"{excerpt(value)}")
    return value


def _dice(value: Any, w: Fields, field: str) -> DiceExpr:
    try:
        return DiceExpr.parse(value)
    except ValueError as exc:
        raise w.error(field, str(exc)) from None


class _Range(TypedDict):
    minimum: float
    maximum: float


def _number(name: str) -> _Range:
    """``minimum``/``maximum`` of the shared limit ``name``, for :meth:`Fields.number`."""
    item = LIMITS[name]
    return {"minimum": item.low, "maximum": item.high}


def parse_profile(data: Any, source: str | None, path: str, name: str) -> Profile:
    """One profile; ``name`` is its key in the roster (or the model's id in a squad).

    A profile may carry ``kt2024:`` and ``kt2018:`` mappings of the same keys: they override
    the shared values when the game is played under that edition (``Profile.for_edition``).
    """
    p = Fields(data, source, path).only((*PROFILE_KEYS, *EDITIONS))
    # the shared values first, so that a bad one is named where it is written (each edition's
    # profile below reads it again, merged under that edition's path)
    base = _parse_plain_profile(p, name)
    variants = {}
    for edition in EDITIONS:
        if p.has(edition):
            override = p.mapping(edition).only(PROFILE_KEYS)
            merged = {k: v for k, v in p.data.items() if k not in EDITIONS}
            merged.update(override.data)
            variants[edition] = _parse_plain_profile(
                Fields(merged, source, join_path(path, edition)), name
            )
    kt2018 = variants.get("kt2018", base)
    if any(w.range_2018 is not None for w in kt2018.weapons):
        variants["kt2018"] = _ranges_2018(kt2018)
    if variants:
        base = replace(base, variants=variants)
    return base


def _ranges_2018(profile: Profile) -> Profile:
    """``profile`` as Kill Team 2018 plays it: each weapon's ``range_2018`` is its range."""
    return replace(profile, weapons=tuple(
        w if w.range_2018 is None else replace(w, range=w.range_2018)
        for w in profile.weapons))


def check_ranges_2018(profile: Profile, source: str | None, path: str) -> None:
    """A Kill Team 2018 game needs every ranged weapon's range (004's profiles all give one):
    refuse, naming the weapon, one that has neither ``range``, ``range_2018`` nor Range x."""
    played = profile.for_edition("kt2018")
    for i, weapon in enumerate(played.weapons):
        if not weapon.is_melee and weapon.effective_range is None:
            raise InputError(f"{excerpt(weapon.name)} has no range: a Kill Team 2018 ranged "
                             "weapon needs one (range or range_2018)", source=source,
                             field=join_path(join_path(path, "weapons"), i))


def _parse_plain_profile(p: Fields, name: str) -> Profile:
    source, path = p.source, p.path
    weapons = tuple(
        parse_weapon(item, source, join_path(join_path(path, "weapons"), i))
        for i, item in enumerate(p.sequence("weapons", []))
    )
    names = [w.name for w in weapons]
    for i, wname in enumerate(names):
        if wname in names[:i]:
            raise p.error(join_path("weapons", i), f"duplicate weapon name {excerpt(wname)}")
    return Profile(
        name=p.text("name", name),
        movement=p.number("movement", **_number("movement")),
        leadership=p.integer("leadership", DEFAULT_LEADERSHIP, **_whole("leadership")),
        toughness=p.integer("toughness", DEFAULT_TOUGHNESS, **_whole("toughness")),
        wounds=p.integer("wounds", **_whole("wounds")),
        save=p.integer("save", **_whole("save_2018")),
        base_mm=p.number("base_mm", DEFAULT_BASE_MM, **_number("base_mm")),
        weapons=weapons,
        apl=p.integer("apl", 2, **_whole("apl")),
        defence_dice=p.integer("defence_dice", 3, **_whole("defence_dice")),
        ws=p.integer("ws", None, **_whole("ws")),
        bs=p.integer("bs", None, **_whole("bs")),
        strength=p.integer("strength", None, **_whole("strength")),
        attacks=p.integer("attacks", None, **_whole("attacks_2018")),
        invulnerable=p.integer("invulnerable", None, **_whole("invulnerable")),
    )


def parse_roster(data: Any, source: str | None, path: str = "") -> Roster:
    """A roster document: ``name``, ``profiles`` and the d6 ``table`` of profile names."""
    r = Fields(data, source, path).only(("name", "profiles", "table", "notes"))
    profiles_doc = r.mapping("profiles")
    if not profiles_doc.data:
        raise r.error("profiles", "needs at least one profile")
    profiles = {
        str(key): parse_profile(value, source, join_path(profiles_doc.path, str(key)), str(key))
        for key, value in profiles_doc.data.items()
    }
    table_doc = r.mapping("table")
    table: dict[int, str] = {}
    for key, value in table_doc.data.items():
        try:
            face = int(key)
        except (TypeError, ValueError):
            raise table_doc.error(str(key), "is not a die face 1-6") from None
        if not 1 <= face <= 6 or str(face) != str(key).strip():
            raise table_doc.error(str(key), "extra face: the roster table is a d6 (1-6)")
        if face in table:
            raise table_doc.error(str(key), "duplicate face")
        if not isinstance(value, str) or value not in profiles:
            raise table_doc.error(
                str(key), f"names {excerpt(value)}, which is not a profile in this roster"
            )
        table[face] = value
    for face in range(1, 7):
        if face not in table:
            raise table_doc.error(None, f"missing face {face}")
    return Roster(r.text("name"), profiles, dict(sorted(table.items())))


def load_roster(path: str | Path) -> Roster:
    """Read and check a roster file, given by path or by a shipped roster's name (edge:
    touches the file system)."""
    found = library.resolve("roster", path)
    return parse_roster(read_document(found), str(found))


def profile_or_reference(
    value: Any, roster: Roster | None, source: str | None, path: str, name: str
) -> Profile:
    """A squad or scenario model's ``profile``: inline, or the name of a roster profile."""
    if isinstance(value, str):
        if roster is None or value not in roster.profiles:
            known = ", ".join(sorted(roster.profiles)) if roster else "no roster given"
            raise InputError(
                f"unknown profile {excerpt(value)} (known: {clip(known)})", source=source,
                field=path
            )
        return roster.profiles[value]
    return parse_profile(value, source, path, name)
