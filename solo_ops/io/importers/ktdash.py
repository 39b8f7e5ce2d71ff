"""KTDash JSON: a roster as KTDash's API returns it, and team files in the ``killteamjson`` layout.

* **KTDash roster** (``GET /api/rosters/<id>``): ``{rosterName, killteam, ops: [...]}``; each op
  has ``opName`` (the player's name for it), ``opTypeName``, ``MOVE``, ``APL``, ``SAVE``,
  ``WOUNDS``, ``keywords`` and ``opType`` (with ``basesize`` and every weapon option), and
  ``weapons``: the selected weapons, each ``{wepName, wepType: "R"|"M", profiles: [{profileName,
  ATK, HIT, DMG, WR}]}``. Weapon rules may be KTDash's short codes (``Rng 8"``, ``PrcCrit1``).
* **killteamjson** (the community compendium files): an array of factions → ``killteams`` →
  ``fireteams`` → ``operatives`` with ``opname``, ``M``, ``APL``, ``DF``, ``SV``, ``W``,
  ``keywords``, ``basesize`` and ``weapons`` → ``profiles`` (``A``, ``BS``, ``D``, ``SR``); the
  kill team's ``edition`` is ``kt24`` or ``kt21`` (2021 files use ``[CIRCLE]``-style distances).
  A file holding several kill teams needs ``--team``; every operative type is read once, with its
  default weapons.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from solo_ops.core.errors import InputError
from solo_ops.io.importers.common import MAX_OPERATIVES, RawOperative, RawWeapon

EDITION_CODES = {"kt24": "kt2024", "kt21": "kt2021", "kt2024": "kt2024", "kt2021": "kt2021"}


def _get(data: Mapping[str, Any], *names: str) -> Any:
    """The first of ``names`` present (KTDash's JSON changed case between versions)."""
    for name in names:
        if name in data and data[name] is not None:
            return data[name]
    return None


def _list(value: Any, source: str, where: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise InputError("expected a list", source=source, field=where)
    return value


def _mapping(value: Any, source: str, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise InputError("expected an object ({...})", source=source, field=where)
    return value


def _text(value: Any) -> str:
    return "" if value is None else str(value).strip()


def _truthy(value: Any) -> bool:
    return value is True or value == 1 or _text(value).lower() in ("1", "true", "yes")


def read_json(data: Any, source: str, team: str | None) -> tuple[str, str, str, list[RawOperative],
                                                                 list[str]]:
    """``(name, edition, format, operatives, warnings)`` from a parsed KTDash document."""
    if isinstance(data, Mapping) and isinstance(data.get("ops"), list):
        return _roster_v4(data, source)
    if isinstance(data, Mapping) and isinstance(_get(data, "operatives", "Operatives"), list) \
            and not _get(data, "fireteams", "Fireteams"):
        return _roster_v3(data, source)
    if isinstance(data, Mapping) and isinstance(data.get("roster"), Mapping) \
            and "forces" in data["roster"]:
        raise InputError("is a BattleScribe / New Recruit roster saved as JSON: export it as "
                         ".ros or .rosz instead", source=source, field="roster")
    killteams = _killteams(data, source)
    if not killteams:
        raise InputError("is JSON but neither a KTDash roster (rosterName, ops) nor a "
                         "killteamjson file (factions → killteams → fireteams → operatives)",
                         source=source)
    chosen = _choose(killteams, team, source)
    return _killteam(chosen[0], chosen[1], source)


# -- KTDash roster (v4 API) ---------------------------------------------------------------------
def _roster_v4(data: Mapping[str, Any], source: str
               ) -> tuple[str, str, str, list[RawOperative], list[str]]:
    warnings: list[str] = []
    killteam: Mapping[str, Any] = (
        data["killteam"] if isinstance(data.get("killteam"), Mapping) else {}
    )
    name = _text(_get(data, "rosterName", "rostername")) or \
        _text(_get(killteam, "killteamName", "killteamname")) or "KTDash roster"
    edition = EDITION_CODES.get(_text(_get(data, "edition") or _get(killteam, "edition")),
                                "kt2024")
    ops = _list(data.get("ops"), source, "ops")
    if len(ops) > MAX_OPERATIVES:
        raise InputError(f"more than {MAX_OPERATIVES} operatives", source=source, field="ops")
    out: list[RawOperative] = []
    for i, item in enumerate(ops):
        where = f"ops[{i}]"
        op = _mapping(item, source, where)
        op_type: Mapping[str, Any] = (
            op["opType"] if isinstance(op.get("opType"), Mapping) else {}
        )
        type_name = _text(_get(op, "opTypeName") or _get(op_type, "opTypeName")) or \
            _text(op.get("opName")) or f"operative {i + 1}"
        shown = _text(op.get("opName")) or type_name
        where = f'ops[{i}] "{shown}"'
        stats = {}
        for key in ("MOVE", "APL", "SAVE", "WOUNDS"):
            value = op.get(key)
            if value is None or _text(value) == "":
                value = op_type.get(key)
            if value is not None:
                stats[key] = value
        keywords = _keywords(_get(op, "keywords") or _get(op_type, "keywords"))
        base = _get(op_type, "basesize") or _get(op, "basesize")
        weapons_data = op.get("weapons")
        if not weapons_data:
            weapons_data = _selected(_list(op_type.get("weapons"), source,
                                           f"{where}.opType.weapons"),
                                     _text(op.get("wepIds")))
            if weapons_data:
                warnings.append(f"{shown}: weapons read from its operative type "
                                "(the roster lists none of its own)")
        weapons = _weapons(_list(weapons_data, source, f"{where}.weapons"), source, where,
                           ("ATK", "A"), ("HIT", "BS"), ("DMG", "D"), ("WR", "SR"))
        out.append(RawOperative(shown, type_name, keywords, stats, weapons, where,
                                _base(base, source, where)))
    return name, edition, "KTDash", out, warnings


def _selected(weapons: list[Any], wep_ids: str) -> list[Any]:
    ids = {w.strip() for w in wep_ids.split(",") if w.strip()}
    if ids:
        return [w for w in weapons if isinstance(w, Mapping) and _text(
            _get(w, "wepId", "wepid")) in ids]
    defaults = [w for w in weapons if isinstance(w, Mapping)
                and _truthy(_get(w, "isDefault", "isdefault"))]
    return defaults or weapons


# -- older KTDash rosters (operatives with their own characteristics) --------------------------
def _roster_v3(data: Mapping[str, Any], source: str
               ) -> tuple[str, str, str, list[RawOperative], list[str]]:
    name = _text(_get(data, "rostername", "rosterName", "killteamname")) or "KTDash roster"
    edition = EDITION_CODES.get(_text(data.get("edition")), "kt2021")
    ops = _list(_get(data, "operatives", "Operatives"), source, "operatives")
    out = [_operative(op, f"operatives[{i}]", source, use_defaults=False)
           for i, op in enumerate(ops)]
    warnings = [] if data.get("edition") else [
        "the file names no edition (kt24/kt21): read as Kill Team 2021"]
    return name, edition, "KTDash", out, warnings


# -- killteamjson -------------------------------------------------------------------------------
def _killteams(data: Any, source: str) -> list[tuple[Mapping[str, Any], str]]:
    """Every kill team in the document, with the field path it sits at."""
    found: list[tuple[Mapping[str, Any], str]] = []

    def visit(item: Any, where: str) -> None:
        if not isinstance(item, Mapping):
            return
        if _get(item, "fireteams", "Fireteams") is not None:
            found.append((item, where))
            return
        teams = _get(item, "killteams", "Killteams")
        for j, kt in enumerate(_list(teams, source, f"{where}.killteams")):
            visit(kt, f"{where}.killteams[{j}]" if where else f"killteams[{j}]")

    if isinstance(data, list):
        for i, item in enumerate(data):
            visit(item, f"[{i}]")
    else:
        visit(data, "")
    return found


def _choose(killteams: list[tuple[Mapping[str, Any], str]], team: str | None, source: str
            ) -> tuple[Mapping[str, Any], str]:
    def names(kt: Mapping[str, Any]) -> set[str]:
        kid = _text(_get(kt, "killteamid", "killteamId")).lower()
        fid = _text(_get(kt, "factionid", "factionId")).lower()
        return {kid, f"{fid}-{kid}", _text(_get(kt, "killteamname", "killteamName")).lower()}

    if team is not None:
        wanted = team.strip().lower()
        matches = [k for k in killteams if wanted in names(k[0])]
        if not matches:
            listing = ", ".join(_text(_get(k[0], "killteamid", "killteamId")) for k in killteams)
            raise InputError(f"no kill team {team!r} in {source} (there: {listing})",
                             source="--team")
        return matches[0]
    if len(killteams) > 1:
        listing = ", ".join(
            f"{_text(_get(k[0], 'killteamid', 'killteamId'))} "
            f"({_text(_get(k[0], 'killteamname', 'killteamName'))})" for k in killteams[:8])
        more = f" and {len(killteams) - 8} more" if len(killteams) > 8 else ""
        raise InputError(f"holds {len(killteams)} kill teams ({listing}{more}): choose one "
                         "with --team ID", source=source)
    return killteams[0]


def _killteam(kt: Mapping[str, Any], where: str, source: str
              ) -> tuple[str, str, str, list[RawOperative], list[str]]:
    warnings: list[str] = []
    name = _text(_get(kt, "killteamname", "killteamName")) or "Imported kill team"
    code = _text(kt.get("edition"))
    out: list[RawOperative] = []
    base = f"{where}." if where else ""
    for i, ft in enumerate(_list(_get(kt, "fireteams", "Fireteams"), source,
                                 f"{base}fireteams")):
        fwhere = f"{base}fireteams[{i}]"
        fireteam = _mapping(ft, source, fwhere)
        for j, op in enumerate(_list(_get(fireteam, "operatives", "Operatives"), source,
                                     f"{fwhere}.operatives")):
            if not code and isinstance(op, Mapping):
                code = _text(op.get("edition"))
            out.append(_operative(op, f"{fwhere}.operatives[{j}]", source, use_defaults=True))
            if len(out) > MAX_OPERATIVES:
                raise InputError(f"more than {MAX_OPERATIVES} operatives", source=source,
                                 field=fwhere)
    if not out:
        raise InputError("the kill team has no operatives", source=source, field=where or None)
    edition = EDITION_CODES.get(code.lower())
    if edition is None:
        edition = "kt2021"
        warnings.append("the file names no edition (kt24/kt21): read as Kill Team 2021")
    warnings.append("a team file lists each operative type once, with its default weapons")
    return name, edition, "killteamjson", out, warnings


def _operative(item: Any, where: str, source: str, *, use_defaults: bool) -> RawOperative:
    op = _mapping(item, source, where)
    type_name = _text(_get(op, "optypename", "opTypeName", "opname", "opName")) or "Operative"
    shown = _text(_get(op, "opname", "opName")) or type_name
    where = f'{where} "{shown}"'
    stats = {}
    for key in ("M", "APL", "DF", "SV", "W", "MOVE", "SAVE", "WOUNDS"):
        if op.get(key) is not None:
            stats[key] = op[key]
    weapons_data = _list(_get(op, "weapons", "Weapons"), source, f"{where}.weapons")
    if use_defaults:
        chosen = [w for w in weapons_data if isinstance(w, Mapping) and (
            _truthy(_get(w, "isdefault", "isDefault")) or _get(w, "isselected") is True)]
        weapons_data = chosen or weapons_data
    weapons = _weapons(weapons_data, source, where, ("A", "ATK"), ("BS", "HIT"), ("D", "DMG"),
                       ("SR", "WR"))
    return RawOperative(shown, type_name, _keywords(op.get("keywords")), stats, weapons, where,
                        _base(op.get("basesize"), source, where))


# -- shared -------------------------------------------------------------------------------------
def _weapons(items: list[Any], source: str, where: str, atk: tuple[str, str],
             hit: tuple[str, str], dmg: tuple[str, str], rules: tuple[str, str]
             ) -> list[RawWeapon]:
    out: list[RawWeapon] = []
    for j, item in enumerate(items):
        wwhere = f"{where}.weapons[{j}]"
        weapon = _mapping(item, source, wwhere)
        wname = _text(_get(weapon, "wepName", "wepname")) or f"weapon {j + 1}"
        wtype = _text(_get(weapon, "wepType", "weptype")).upper()
        kind = {"R": "ranged", "M": "melee"}.get(wtype)
        profiles = _list(_get(weapon, "profiles", "WeaponProfiles"), source, f"{wwhere}.profiles")
        if not profiles:
            raise InputError("has no profiles (ATK, HIT, DMG, WR)", source=source,
                             field=f'{wwhere} "{wname}"')
        for k, p in enumerate(profiles):
            pwhere = f'{wwhere}.profiles[{k}] "{wname}"'
            profile = _mapping(p, source, pwhere)
            pname = _text(_get(profile, "profileName", "name"))
            full = f"{wname} ({pname})" if pname and pname.lower() != wname.lower() else wname
            stats = {}
            for names, key in ((atk, "ATK"), (hit, "HIT"), (dmg, "DMG"), (rules, "WR")):
                value = _get(profile, *names)
                if value is not None:
                    stats[key] = value if key != "WR" else _text(value)
            out.append(RawWeapon(full, kind, stats, pwhere))
    return out


def _keywords(value: Any) -> tuple[str, ...]:
    if isinstance(value, list):
        return tuple(_text(v) for v in value if _text(v))
    return tuple(k.strip() for k in _text(value).split(",") if k.strip())


def _base(value: Any, source: str, where: str) -> float | None:
    if value is None or _text(value) == "":
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise InputError(f"expected a base size in mm, got {value!r}", source=source,
                         field=f"{where}.basesize") from None
    if not 0 < number <= 200:
        raise InputError(f"expected a base size in mm, got {value!r}", source=source,
                         field=f"{where}.basesize")
    return number
