"""Bring your own kill team: read BattleScribe / New Recruit and KTDash files into solo-ops.

:func:`read_team` reads one file (``.ros``, ``.rosz``, KTDash JSON), whatever its extension says,
by what it holds: a zip (a ``.rosz``; its first entry whatever its name), XML (a BattleScribe
roster) or JSON (KTDash). The result is a :class:`~.common.Team` whose operatives carry roster
profiles; :mod:`.output` turns it into a squad or roster file and the summary the command prints.
Every problem is an :class:`~solo_ops.core.errors.InputError` naming the file and the element or
field; nothing here writes a file.
"""

from __future__ import annotations

import json
from pathlib import Path

from solo_ops.core.documents import loads_json
from solo_ops.core.errors import InputError
from solo_ops.io import reading
from solo_ops.io.importers import battlescribe, ktdash
from solo_ops.io.importers.common import LeadershipPolicy, Team, convert

__all__ = ["LeadershipPolicy", "Team", "read_bytes", "read_team"]


def read_bytes(path: str | Path) -> bytes:
    """The file's bytes (edge: reads a file): a regular file of at most the ``import`` limit of
    :data:`solo_ops.core.limits.FILES` (10 MiB), opened by :mod:`solo_ops.io.reading`."""
    return reading.read_bytes(path, "import")


def read_team(path: str | Path, policy: LeadershipPolicy | None = None,
              team: str | None = None) -> Team:
    """Read a roster or team file into a :class:`Team` (``team``: the kill team to take from a
    killteamjson file holding several)."""
    return parse_team(read_bytes(path), str(path), policy or LeadershipPolicy(), team)


def parse_team(data: bytes, source: str, policy: LeadershipPolicy,
               team: str | None = None) -> Team:
    """Like :func:`read_team`, from the bytes already read (pure)."""
    label = source
    suffix = Path(source).suffix.lower()
    if data[:4] in (b"PK\x03\x04", b"PK\x05\x06"):
        data, label = battlescribe.unzip_first(data, source)
    elif suffix == ".rosz":
        raise InputError("is not a zip file (a .rosz is a zipped .ros roster)", source=source)
    if not data.strip():
        raise InputError("is empty", source=label)
    head = data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    if head == b"<":
        root = battlescribe.parse_xml(data, label)
        name, edition, raws = battlescribe.read_roster(root, label)
        fmt, warnings = "BattleScribe", list[str]()
    elif head in (b"{", b"["):
        try:
            document = loads_json(data.decode("utf-8-sig"))
        except UnicodeDecodeError:
            raise InputError("is not UTF-8 text", source=label) from None
        except json.JSONDecodeError as exc:
            raise InputError(f"is not valid JSON ({exc.msg})", source=label,
                             field=f"line {exc.lineno}") from None
        name, edition, fmt, raws, warnings = ktdash.read_json(document, label, team)
    elif suffix == ".ros" or label != source:
        raise InputError("is not XML (a .ros roster is BattleScribe XML)", source=label)
    elif suffix == ".json":
        raise InputError("is not JSON (a KTDash export is JSON)", source=label)
    else:
        raise InputError("is not a roster: expected a BattleScribe / New Recruit .ros or .rosz, "
                         "or KTDash JSON", source=label)
    operatives = [convert(raw, edition, label, policy) for raw in raws]
    for op in operatives:
        if not op.profile.get("weapons"):
            warnings.append(f"{op.name} has no weapons: give it one in the file written")
    return Team(label, name, edition, fmt, operatives, warnings)
