"""BattleScribe and New Recruit rosters: ``.ros`` (XML) and ``.rosz`` (the same XML, zipped).

The layout (namespace ``http://www.battlescribe.net/schema/rosterSchema``)::

    roster[@gameSystemName] → forces/force → selections/selection[@type="model"]
        (@customName when the player named it) → profiles/profile[@typeName="Operative"]
        → characteristics/characteristic[@name="APL"] (text; older files: @value)
        weapons: selections/selection (nested upgrades, any depth)
        → profiles/profile[@typeName="Weapons"] (⌖ Bolt pistol: ATK, HIT, DMG, WR)

Kill Team 2024 profiles are ``Operative`` (APL, Move, Save, Wounds) and ``Weapons`` (ATK,
HIT, DMG, WR); 2021 ``Operative`` (M, APL, GA, DF, SV, W) and ``Weapons`` (A, WS/BS, D, SR,
!); 2018 ``Model`` (M, WS, BS, S, T, W, A, Ld, Sv) and ``Weapon`` (Range, Type, S, AP, D,
Abilities). The edition is the one the file's game system names.

XML is read with :mod:`defusedxml`, which refuses entity declarations (the "billion laughs"
expansion) and external entities, and never fetches anything.
"""

from __future__ import annotations

import io
import zipfile
import zlib
from typing import Any
from xml.etree.ElementTree import Element, ParseError

import defusedxml
import defusedxml.ElementTree as SafeET

from solo_ops.core.errors import InputError, clip
from solo_ops.io.importers.common import MAX_FILE_BYTES, MAX_OPERATIVES, RawOperative, RawWeapon

NS = "http://www.battlescribe.net/schema/rosterSchema"
MAX_DEPTH = 64

# Game system ids of the BSData wh40k-killteam files, for a file whose name has no year.
GAME_SYSTEM_IDS = {
    "c521-ad27-44df-f959": "kt2024",
    "3b7e-7dab-f79f-2e74": "kt2021",
    "a467-5f42-d24c-6e5b": "kt2018",
}
OPERATIVE_TYPES = {"operative", "model"}
WEAPON_TYPES = {"weapons", "weapon"}


def unzip_first(data: bytes, source: str) -> tuple[bytes, str]:
    """The first file inside a ``.rosz`` (whatever its name) and a label naming it."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zlib.error, ValueError, EOFError):
        raise InputError("is not a zip file (a .rosz is a zipped .ros roster)",
                         source=source) from None
    with archive:
        entries = [info for info in archive.infolist() if not info.is_dir()]
        if not entries:
            raise InputError("the zip holds no roster (it has no file inside)", source=source)
        first = entries[0]
        label = f"{source} [{first.filename}]"
        if first.file_size > MAX_FILE_BYTES:
            raise InputError(f"the roster inside is {first.file_size / 2**20:.0f} MB unzipped; "
                             f"a roster is at most {MAX_FILE_BYTES // 2**20} MB", source=label)
        try:
            with archive.open(first) as handle:
                content = handle.read(MAX_FILE_BYTES + 1)
        except (zipfile.BadZipFile, zlib.error, RuntimeError, ValueError, EOFError,
                NotImplementedError) as exc:
            raise InputError(f"the zip is damaged or encrypted ({exc})", source=label) from None
        if len(content) > MAX_FILE_BYTES:
            raise InputError(f"the roster inside is larger than {MAX_FILE_BYTES // 2**20} MB "
                             "unzipped", source=label)
        return content, label


def parse_xml(data: bytes, source: str) -> Element:
    """Parse roster XML safely: no DTD entities, no external references, errors named."""
    try:
        return SafeET.fromstring(data, forbid_dtd=False, forbid_entities=True,
                                 forbid_external=True)
    except defusedxml.EntitiesForbidden as exc:
        if getattr(exc, "sysid", None) or getattr(exc, "pubid", None):
            raise InputError(f"refused: the XML declares an external entity {exc.name!r} "
                             f"({exc.sysid or exc.pubid}); rosters never refer to other files",
                             source=source, field="<!ENTITY>") from None
        raise InputError(f"refused: the XML declares an entity {exc.name!r} (entity expansion, "
                         "as in a 'billion laughs' file); rosters declare none",
                         source=source, field="<!ENTITY>") from None
    except defusedxml.ExternalReferenceForbidden as exc:
        raise InputError(f"refused: the XML refers to an external file ({exc.sysid}); rosters "
                         "never do", source=source, field="<!DOCTYPE>") from None
    except defusedxml.DTDForbidden:
        raise InputError("refused: the XML has a document type declaration", source=source,
                         field="<!DOCTYPE>") from None
    except defusedxml.DefusedXmlException as exc:
        raise InputError(f"refused: unsafe XML ({exc})", source=source) from None
    except (LookupError, ValueError) as exc:  # an encoding the reader does not know
        raise InputError(f"cannot be read as XML in the encoding it declares ({clip(str(exc))})",
                         source=source, field="<?xml encoding?>") from None
    except ParseError as exc:
        line, column = getattr(exc, "position", (None, None))
        where = f"line {line}, column {column}" if line else None
        reason = str(exc).split(":")[0]
        raise InputError(f"is not well-formed XML ({reason})", source=source,
                         field=where) from None


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _children(element: Element, *names: str) -> list[Element]:
    """Direct children reached through ``names`` (``"selections", "selection"``)."""
    current = [element]
    for name in names:
        current = [c for parent in current for c in parent if _local(c.tag) == name]
    return current


def edition_of(root: Element, source: str) -> str:
    """kt2024 / kt2021 / kt2018 from the roster's game system (name, then id)."""
    name = root.get("gameSystemName") or ""
    lowered = name.lower()
    if "kill team" in lowered or "killteam" in lowered:
        for year in ("2024", "2021", "2018"):
            if year in lowered:
                return f"kt{year}"
    system_id = root.get("gameSystemId") or ""
    if system_id in GAME_SYSTEM_IDS:
        return GAME_SYSTEM_IDS[system_id]
    shown = name or system_id or "none"
    raise InputError(f"unknown game system {shown!r}: solo-ops imports Kill Team 2024, 2021 "
                     "and 2018 rosters", source=source, field="roster@gameSystemName")


def read_roster(root: Element, source: str) -> tuple[str, str, list[RawOperative]]:
    """The roster's name, edition and raw operatives."""
    local = _local(root.tag)
    namespace = root.tag[1:].split("}", 1)[0] if root.tag.startswith("{") else ""
    if local in ("catalogue", "gameSystem"):
        raise InputError(f"is a BattleScribe {local} file, not a roster (export the roster "
                         "as .ros or .rosz)", source=source, field=f"<{local}>")
    if local != "roster" or namespace not in (NS, ""):
        raise InputError(f"is XML but not a BattleScribe roster (its root element is <{local}>, "
                         f"not <roster xmlns=\"{NS}\">)", source=source, field=f"<{local}>")
    edition = edition_of(root, source)
    name = (root.get("name") or "").strip()
    operatives: list[RawOperative] = []
    forces = [(f, 1) for f in _children(root, "forces", "force")]
    while forces:
        force, depth = forces.pop(0)
        if depth > MAX_DEPTH:
            raise InputError("forces are nested too deeply", source=source, field="forces")
        name = name or (force.get("catalogueName") or "").strip()
        for selection in _children(force, "selections", "selection"):
            _collect_models(selection, source, operatives, 1)
        forces.extend((f, depth + 1) for f in _children(force, "forces", "force"))
    if not operatives:
        raise InputError("no operatives found (no selection of type \"model\" in "
                         "forces/force/selections)", source=source, field="forces")
    return name or "Imported kill team", edition, operatives


def _collect_models(selection: Element, source: str, out: list[RawOperative],
                    depth: int) -> None:
    if depth > MAX_DEPTH:
        raise InputError("selections are nested too deeply", source=source,
                         field=f"selection {selection.get('name')!r}")
    kind = (selection.get("type") or "").lower()
    if kind == "model":
        _add_model(selection, source, out)
        return
    if kind == "upgrade":
        return  # configuration and reference entries ("Game Type", "Equipment Reference")
    for child in _children(selection, "selections", "selection"):
        _collect_models(child, source, out, depth + 1)


def _add_model(selection: Element, source: str, out: list[RawOperative]) -> None:
    type_name = (selection.get("name") or "").strip() or "Operative"
    custom = (selection.get("customName") or "").strip()
    shown = custom or type_name
    number_text = (selection.get("number") or "1").strip()
    try:
        number = max(1, int(float(number_text)))
    except ValueError:
        raise InputError(f"expected a number of models, got {number_text!r}", source=source,
                         field=f'selection "{shown}"@number') from None
    if len(out) + number > MAX_OPERATIVES:
        raise InputError(f"more than {MAX_OPERATIVES} operatives; a kill team has far fewer",
                         source=source, field=f'selection "{shown}"')
    where = f'selection "{shown}"'
    profiles = _profiles_of(selection, source)
    operative = None
    weapons: list[RawWeapon] = []
    for profile, place in profiles:
        type_of = (profile.get("typeName") or profile.get("profileTypeName") or "").strip()
        pname = (profile.get("name") or "").strip()
        if type_of.lower() in OPERATIVE_TYPES and operative is None:
            operative = profile
        elif type_of.lower() in WEAPON_TYPES:
            weapons.append(RawWeapon(pname, None, _characteristics(profile),
                                     f'{where}{place} profile "{pname}"'))
    if operative is None:
        raise InputError("has no Operative profile (its characteristics)", source=source,
                         field=where)
    stats = _characteristics(operative)
    keywords = tuple(
        (c.get("name") or "").strip()
        for c in _children(selection, "categories", "category")
        if (c.get("name") or "").strip()
    )
    for k in range(number):
        label = f"{shown} {k + 1}" if number > 1 else shown
        out.append(RawOperative(label, type_name, keywords, dict(stats), list(weapons),
                                f'{where} profile "{operative.get("name") or type_name}"'))


def _profiles_of(selection: Element, source: str) -> list[tuple[Element, str]]:
    """Profiles of a model selection and of its nested upgrades (in document order)."""
    found: list[tuple[Element, str]] = []
    stack: list[tuple[Element, str, int]] = [(selection, "", 0)]
    while stack:
        element, place, depth = stack.pop(0)
        if depth > MAX_DEPTH:
            raise InputError("selections are nested too deeply", source=source,
                             field=f"selection {selection.get('name')!r}")
        for profile in _children(element, "profiles", "profile"):
            found.append((profile, place))
        nested = []
        for child in _children(element, "selections", "selection"):
            if (child.get("type") or "").lower() == "model":
                continue
            label = (child.get("customName") or child.get("name") or "").strip()
            nested.append((child, f'{place} / "{label}"', depth + 1))
        stack[0:0] = nested
    return found


def _characteristics(profile: Element) -> dict[str, str]:
    out: dict[str, str] = {}
    for c in _children(profile, "characteristics", "characteristic"):
        name = (c.get("name") or "").strip()
        if not name:
            continue
        value: Any = c.text if c.text is not None and c.text.strip() else c.get("value")
        out[name] = (value or "").strip()
    return out
