"""An imported :class:`~.common.Team` as the project's own files, and the summary printed.

* :func:`squad_document` — a squad (INTERFACES "Squad"): every operative a model with its
  profile inline; ids from the names the player gave (``customName``, ``opName``).
* :func:`roster_document` — a roster (INTERFACES "Roster"): one profile per kind of operative
  (same type and loadout), and the d6 table: ``--table "1-3:cultist,4:gunner,5-6:leader"`` or,
  by default, :func:`default_table` from the roster's own counts.
* :func:`summary_lines` / :func:`summary_json` — what was read, every guessed value and every
  rule kept as text.
* :func:`write_yaml` — the file, written atomically through the project's one writer
  (:mod:`solo_ops.io.writing`): a crash leaves the old file or the new one, never half.
"""

from __future__ import annotations

import math
import re
import unicodedata
from pathlib import Path
from typing import Any

import yaml

from solo_ops.core.errors import InputError
from solo_ops.io.importers.common import Operative, Team
from solo_ops.io.writing import write_text_atomic

_TRANSLIT = str.maketrans({"ø": "o", "Ø": "o", "æ": "ae", "Æ": "ae", "œ": "oe", "ß": "ss",
                           "ð": "d", "đ": "d", "ł": "l", "Ł": "l", "þ": "th"})


def slug(text: str, fallback: str = "operative") -> str:
    """A plain id from a name: ``"Sgt. Kéll Vøss"`` → ``"sgt-kell-voss"``."""
    plain = unicodedata.normalize("NFKD", str(text).translate(_TRANSLIT))
    plain = plain.encode("ascii", "ignore").decode("ascii").lower()
    out = re.sub(r"[^a-z0-9]+", "-", plain).strip("-")
    return out or fallback


def model_id(name: str, taken: set[str]) -> str:
    """A squad model's id from its name, unique in the squad and unlike the ids the game gives
    revealed enemies (``<profile>-<n>``), counters (``c3``) and units (``u3``): ``"Reaver 1"`` is
    ``reaver1``, a second ``"Lancer Trooper"`` is ``lancer-trooper-b``."""
    base = re.sub(r"-(\d+)$", r"\1", slug(name))
    if re.fullmatch(r"[cu]\d+", base):
        base = f"op-{base}"
    candidate = base
    suffix = 1
    while candidate in taken:
        suffix += 1
        candidate = f"{base}-{_letters(suffix)}"
    taken.add(candidate)
    return candidate


def _letters(n: int) -> str:
    """2 → b, 26 → z, 27 → aa (a tag with no digits)."""
    out = ""
    while n > 0:
        n, rest = divmod(n - 1, 26)
        out = chr(ord("a") + rest) + out
    return out


def _unique(base: str, taken: set[str]) -> str:
    name = base
    n = 2
    while name in taken:
        name = f"{base}-{n}"
        n += 1
    taken.add(name)
    return name


def _notes(team: Team, what: str) -> str:
    return (f"Imported by `solo-ops {what} import` from {Path(team.source).name} "
            f"({team.edition_name}, {team.fmt}). Guessed values and rules kept as text are "
            "listed in the profiles' and weapons' notes.")


def _profile_with_notes(op: Operative) -> dict[str, Any]:
    profile = dict(op.profile)
    if op.guesses:
        profile["notes"] = "guessed: " + "; ".join(op.guesses)
    return profile


# -- squad --------------------------------------------------------------------------------------
def squad_document(team: Team, player: str, name: str | None = None) -> dict[str, Any]:
    """The squad file's content (``player``, ``name``, ``notes``, ``models``)."""
    if not player.strip():
        raise InputError("a player name must not be empty", source="--player")
    taken: set[str] = set()
    models = []
    for op in team.operatives:
        models.append({"id": model_id(op.name, taken), "name": op.name,
                       "profile": _profile_with_notes(op)})
    return {"player": player.strip(), "name": (name or team.name).strip() or team.name,
            "notes": _notes(team, "squad"), "models": models}


# -- roster -------------------------------------------------------------------------------------
def roster_profiles(team: Team) -> tuple[dict[str, dict[str, Any]], dict[str, int]]:
    """One profile per kind of operative (same profile, loadout included) and how many of each
    the file has, in the order they first appear."""
    profiles: dict[str, dict[str, Any]] = {}
    counts: dict[str, int] = {}
    taken: set[str] = set()
    for op in team.operatives:
        profile = _profile_with_notes(op)
        key = next((k for k, p in profiles.items() if p == profile), None)
        if key is None:
            key = _unique(slug(op.type_name), taken)
            profiles[key] = profile
            counts[key] = 0
        counts[key] += 1
    return profiles, counts


def default_table(counts: dict[str, int], leadership: dict[str, int]) -> dict[int, str]:
    """A d6 table from the roster's own counts: each profile's share of the six faces is its
    share of the operatives (largest remainders), at least one face each; the most common
    profiles take the low faces, the highest Leadership the high ones. With more than six kinds,
    the six most common (then first listed) are on the table."""
    order = list(counts)
    ranked = sorted(order, key=lambda k: (-counts[k], order.index(k)))[:6]
    total = sum(counts[k] for k in ranked)
    quota = {k: 6 * counts[k] / total for k in ranked}
    faces = {k: max(1, math.floor(quota[k])) for k in ranked}
    while sum(faces.values()) < 6:
        k = max(ranked, key=lambda k: (quota[k] - faces[k], -leadership.get(k, 0),
                                       -ranked.index(k)))
        faces[k] += 1
    while sum(faces.values()) > 6:
        k = min((k for k in ranked if faces[k] > 1),
                key=lambda k: (quota[k] - faces[k], -leadership.get(k, 0),
                               -ranked.index(k)))
        faces[k] -= 1
    layout = sorted(ranked, key=lambda k: (leadership.get(k, 0), -counts[k], order.index(k)))
    table: dict[int, str] = {}
    face = 1
    for key in layout:
        for _ in range(faces[key]):
            table[face] = key
            face += 1
    return table


def table_spec(table: dict[int, str]) -> str:
    """``{1: a, 2: a, 3: b, ...}`` as the ``--table`` text ``"1-2:a,3:b,..."``."""
    parts: list[str] = []
    face = 1
    while face <= 6:
        end = face
        while end + 1 <= 6 and table[end + 1] == table[face]:
            end += 1
        parts.append(f"{face}-{end}:{table[face]}" if end > face else f"{face}:{table[face]}")
        face = end + 1
    return ",".join(parts)


_SPEC_PART = re.compile(r"^\s*([1-6])\s*(?:-\s*([1-6]))?\s*:\s*(.+?)\s*$")


def parse_table_spec(spec: str, profiles: dict[str, dict[str, Any]]) -> dict[int, str]:
    """``"1-3:cultist,4:gunner,5-6:leader"``: every face 1-6 exactly once, each naming a profile
    key (or a profile's name; case and spaces do not matter)."""
    lookup: dict[str, str] = {}
    for known, profile in profiles.items():
        lookup[known.lower()] = known
        lookup.setdefault(slug(str(profile.get("name", known))), known)
        lookup.setdefault(str(profile.get("name", known)).strip().lower(), known)
    table: dict[int, str] = {}
    for part in str(spec).split(","):
        if not part.strip():
            continue
        match = _SPEC_PART.match(part)
        if not match:
            raise InputError(f"expected FACES:PROFILE like 1-3:cultist, got {part.strip()!r}",
                             source="--table")
        lo = int(match.group(1))
        hi = int(match.group(2) or lo)
        if hi < lo:
            raise InputError(f"{lo}-{hi} runs backwards", source="--table")
        name = match.group(3)
        key = lookup.get(name.strip().lower()) or lookup.get(slug(name))
        if key is None:
            raise InputError(f"{name!r} is not a profile of this roster (profiles: "
                             f"{', '.join(profiles)})", source="--table")
        for face in range(lo, hi + 1):
            if face in table:
                raise InputError(f"face {face} is given twice", source="--table")
            table[face] = key
    missing = [str(f) for f in range(1, 7) if f not in table]
    if missing:
        raise InputError(f"missing face{'s' if len(missing) > 1 else ''} {', '.join(missing)} "
                         "(the table is a d6: give each of 1-6 once)", source="--table")
    return dict(sorted(table.items()))


def roster_document(team: Team, spec: str | None = None, name: str | None = None
                    ) -> tuple[dict[str, Any], dict[str, int]]:
    """The roster file's content and the count of each profile."""
    profiles, counts = roster_profiles(team)
    if spec is not None:
        table = parse_table_spec(spec, profiles)
    else:
        leadership = {k: int(p.get("leadership", 0)) for k, p in profiles.items()}
        table = default_table(counts, leadership)
    doc = {"name": (name or team.name).strip() or team.name, "notes": _notes(team, "roster"),
           "profiles": profiles, "table": table}
    return doc, counts


# -- summary ------------------------------------------------------------------------------------
def _weapon_cells(weapon: dict[str, Any], edition: str) -> list[str]:
    mark = "⚔" if weapon["type"] == "melee" else "⌖"
    if edition == "kt2018":
        rng = "melee" if weapon["type"] == "melee" else f'{weapon["range"]:g}"'
        shots = f' {weapon["type"]} {weapon.get("shots", "")}'.rstrip() \
            if weapon["type"] != "melee" else ""
        return [f"  {mark} {weapon['name']}", f"{rng}{shots}", f"S {weapon['strength']}",
                f"AP {weapon['ap']}", f"D {weapon['damage_2018']}"]
    damage = weapon["damage"]
    return [f"  {mark} {weapon['name']}", f"ATK {weapon['attacks']}",
            f"HIT {weapon['hit']}+", f"DMG {damage[0]}/{damage[1]}", weapon["type"],
            " ".join(weapon.get("rules", []))]


def _align(rows: list[list[str]]) -> list[str]:
    """Rows of cells as lines, each column as wide as its widest cell."""
    widths: dict[int, int] = {}
    for row in rows:
        for i, cell in enumerate(row):
            widths[i] = max(widths.get(i, 0), len(cell))
    return ["  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip()
            for row in rows]


def summary_lines(team: Team) -> list[str]:
    """The summary table of what was read, the guessed values and the rules kept as text."""
    lines = [f"{team.edition_name} {team.fmt} file {Path(team.source).name}: "
             f"\"{team.name}\", {len(team.operatives)} operatives", ""]
    rows: list[list[str]] = []
    if team.edition == "kt2018":
        rows.append(["operative", "profile", "M", "WS", "BS", "S", "T", "W", "A", "Ld", "Sv"])
    else:
        rows.append(["operative", "profile", "M", "APL", "SV", "W", "DF", "Ld"])
    for op in team.operatives:
        p = op.profile
        if team.edition == "kt2018":
            save = f'{p["save"]}+' + (f'/{p["invulnerable"]}++' if p.get("invulnerable")
                                      else "")
            rows.append([op.name, p["name"], f'{p["movement"]:g}"', f'{p["ws"]}+',
                         f'{p["bs"]}+', str(p["strength"]), str(p["toughness"]),
                         str(p["wounds"]), str(p["attacks"]), str(p["leadership"]), save])
        else:
            rows.append([op.name, p["name"], f'{p["movement"]:g}"', str(p["apl"]),
                         f'{p["save"]}+', str(p["wounds"]), str(p["defence_dice"]),
                         str(p["leadership"])])
    weapon_rows = [_weapon_cells(w, team.edition) for op in team.operatives
                   for w in op.profile["weapons"]]
    op_lines = _align(rows)
    weapon_lines = iter(_align(weapon_rows))
    lines.append(op_lines[0])
    for op, line in zip(team.operatives, op_lines[1:], strict=True):
        lines.append(line)
        lines.extend(next(weapon_lines) for _ in op.profile["weapons"])
    lines.append("")
    who: dict[str, list[str]] = {}
    for op in team.operatives:
        for guess in op.guesses:
            names = who.setdefault(guess, [])
            if op.name not in names:
                names.append(op.name)
    if who:
        lines.append("Guessed (not in the file; change them in the file written):")
        everyone = len(team.operatives) > 1
        for guess, names in who.items():
            shown = "every operative" if everyone and len(names) == len(team.operatives) \
                else ", ".join(names)
            lines.append(f"  {guess} — {shown}")
    else:
        lines.append("Guessed: nothing.")
    unknown = [(op.name, rule) for op in team.operatives for rule in op.unknown_rules]
    if unknown:
        lines.append("Rules kept as text (solo-ops does not play them; they are in the "
                     "weapons' notes):")
        listed: set[str] = set()
        for _, rule in unknown:
            if rule not in listed:
                listed.add(rule)
                lines.append(f"  {rule}")
    for warning in team.warnings:
        lines.append(f"Note: {warning}")
    return lines


def summary_json(team: Team) -> dict[str, Any]:
    """The same as :func:`summary_lines`, for ``--json``."""
    return {
        "source": team.source, "format": team.fmt, "edition": team.edition,
        "name": team.name,
        "operatives": [{"name": op.name, "type": op.type_name, "keywords": list(op.keywords),
                        "profile": op.profile, "guessed": op.guesses,
                        "unknown_rules": op.unknown_rules} for op in team.operatives],
        "warnings": team.warnings,
    }


# -- writing ------------------------------------------------------------------------------------
def yaml_text(document: dict[str, Any], header: list[str]) -> str:
    """The document as YAML under a comment header."""
    body = yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=100,
                          default_flow_style=None)
    return "".join(f"# {line}\n" for line in header) + body


def write_yaml(path: Path, text: str, *, force: bool) -> None:
    """Write ``text`` to ``path`` atomically (:func:`~solo_ops.io.writing.write_text_atomic`:
    a temporary file beside it, fsynced, renamed over it); an existing file is kept unless
    ``force``."""
    path = Path(path)
    if path.suffix.lower() not in (".yaml", ".yml"):
        raise InputError("the file written must end in .yaml or .yml", source="--out")
    if path.exists() and not force:
        raise InputError(f"{path} already exists; give another --out or add --force to "
                         "replace it", source="--out")
    write_text_atomic(path, text)
