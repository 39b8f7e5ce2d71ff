"""The shipped library: scenarios, boards, rosters and squads installed with the package.

A player names a file either by its path (their own files, anywhere) or by the name of a
shipped one (``volkus-stronghold``, ``traitor-cult``), from any folder, right after
``pip install``. :func:`resolve` is the one place that decides which: an existing path wins,
then a shipped name (case-insensitive, with or without ``.yaml``, an unambiguous prefix is
enough), and anything else is refused with the names that would have worked.

Scenario files may name their board, roster and squads the same way, so a generated encounter
that uses shipped terrain says ``board: gallowdark-corridors`` and keeps working when the
package moves (a new virtual environment, an upgrade).
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path, PurePath

from solo_ops.core.errors import InputError


def _shipped_root() -> Path:
    """The folder of the shipped files: the package data ``solo_ops.scenarios`` (the
    repository's top-level ``scenarios/`` folder, mapped there by ``pyproject.toml``: the
    folder itself in an editable install, a copy inside the package in a wheel), or the
    checkout's ``scenarios/`` when solo_ops runs from a source tree that was never installed."""
    try:
        spec = importlib.util.find_spec("solo_ops.scenarios")
    except ImportError:
        spec = None
    if spec is not None and spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations))).resolve()
    return Path(__file__).resolve().parents[2] / "scenarios"


ROOT = _shipped_root()
"""Where the shipped files live (see :func:`_shipped_root`)."""

KINDS: dict[str, str] = {"scenario": "", "board": "boards", "roster": "rosters",
                         "squad": "squads"}
"""Each kind of shipped file and its folder under :data:`ROOT`."""

SUFFIXES = (".yaml", ".yml", ".json")


@dataclass(frozen=True)
class Shipped:
    """One shipped file: its name (the file name without suffix), kind and path."""

    name: str
    kind: str
    path: Path


def folder(kind: str) -> Path:
    """The folder holding the shipped files of ``kind``."""
    return ROOT / KINDS[kind] if KINDS[kind] else ROOT


def shipped(kind: str) -> list[Shipped]:
    """Every shipped file of ``kind``, sorted by name."""
    where = folder(kind)
    if not where.is_dir():
        return []
    return [Shipped(p.stem, kind, p) for p in sorted(where.iterdir())
            if p.is_file() and p.suffix.lower() in SUFFIXES]


def by_name(kind: str, name: str) -> Shipped | None:
    """The shipped file of ``kind`` called ``name`` (case-insensitive; ``.yaml`` optional; an
    unambiguous prefix is enough), or ``None``. Raises :class:`InputError` when the prefix
    matches several."""
    wanted = name.strip().lower()
    for suffix in SUFFIXES:
        if wanted.endswith(suffix):
            wanted = wanted[: -len(suffix)]
    items = shipped(kind)
    exact = [s for s in items if s.name.lower() == wanted]
    if exact:
        return exact[0]
    if not wanted or "/" in wanted or "\\" in wanted:
        return None
    prefixed = [s for s in items if s.name.lower().startswith(wanted)]
    if len(prefixed) > 1:
        raise InputError(f"{name!r} could be any of {', '.join(s.name for s in prefixed)}: "
                         "type more of the name")
    return prefixed[0] if prefixed else None


def resolve(kind: str, value: str | Path, *, base: Path | None = None,
            source: str | None = None, field: str | None = None) -> Path:
    """The file a player means by ``value``: a path (relative to ``base`` when given, else to
    the current folder) when it exists, else a shipped file of ``kind`` by name.

    ``source``/``field`` say where ``value`` was written, for the error line; without them
    the line starts with the path itself (``missing.yaml: file not found, ...``).
    """
    text = str(value)
    path = Path(text)
    if not path.is_absolute() and base is not None:
        path = base / path
    if path.exists():
        return path
    try:  # a name, or a shipped file's name under a folder that is not here (a scenario
        # copied out of the package still finds ``boards/volkus-stronghold.yaml``)
        found = by_name(kind, text) or by_name(kind, PurePath(text).name)
    except InputError as exc:
        raise InputError(exc.message, source=source, field=field) from None
    if found is not None:
        return found.path
    names = ", ".join(s.name for s in shipped(kind)) or "none shipped"
    also = (f"and no shipped {kind} is called {_short(PurePath(text).stem, 30)!r} "
            f"(shipped: {names})")
    if source is None:  # the file itself is what the player named
        raise InputError(f"file not found, {also}", source=_tail(str(path)))
    raise InputError(f"file not found: {_tail(str(path))}, {also}", source=source, field=field)


def reference(path: Path) -> str | None:
    """The shipped name that stands for ``path`` in a scenario file, or ``None`` when the file
    is not one of the shipped ones."""
    try:
        resolved = path.resolve()
    except OSError:
        return None
    for kind in KINDS:
        for item in shipped(kind):
            if item.path.resolve() == resolved:
                return item.name
    return None


def _tail(text: str, limit: int = 70) -> str:
    """A long path cut at the front, so the file's own name stays readable."""
    return text if len(text) <= limit else "…" + text[-(limit - 1):]


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
