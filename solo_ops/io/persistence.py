"""Saving and loading JSON documents (saves, campaigns) so that a crash, a kill or a second
terminal loses nothing.

Documents are JSON — never pickle — and carry ``schema_version`` and ``kind``; every byte goes
to disk through :func:`solo_ops.io.writing.write_atomic`, the one writer (atomic and durable,
never through a link).

* :func:`save_json` serialises a document and writes it with ``write_atomic``, keeping the
  previous version as ``.bak`` (a hard link, so the old bytes are never copied or rewritten).
* :func:`load_json` reads a document, checks its ``kind``, migrates it step by step from an
  older ``schema_version`` and refuses one written by a newer solo-ops. A damaged file becomes
  one clear line naming the file and offering the ``.bak`` backup.
* :func:`update_json` locks (:func:`solo_ops.io.locks.campaign_lock`), re-reads the latest
  version, applies a change and saves it, so two writers at once keep both changes.

Event logs are :mod:`solo_ops.io.event_log`'s.
"""

from __future__ import annotations

import json
import os
import shlex
import stat
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from solo_ops.core.documents import loads_json, saved_values_problem
from solo_ops.core.errors import InputError, SaveError, excerpt
from solo_ops.core.seal import SEAL_KEY, sealed
from solo_ops.core.seal import problem as seal_problem
from solo_ops.io.json_text import indented_json
from solo_ops.io.leftovers import clean_leftovers
from solo_ops.io.locks import DEFAULT_LOCK_TIMEOUT, campaign_lock
from solo_ops.io.reading import decode, read_bytes
from solo_ops.io.writing import (
    BINARY,
    NOFOLLOW,
    backup_path,
    write_atomic,
)

Document = dict[str, Any]
Migration = Callable[[Document], Document]

def _check_document(document: Any) -> None:
    if not isinstance(document, Mapping):
        raise TypeError(f"a save document must be a mapping, got {type(document).__name__}")
    version = document.get("schema_version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise TypeError("a save document needs an integer schema_version")
    if not isinstance(document.get("kind"), str):
        raise TypeError("a save document needs a kind")


def save_json(path: str | Path, document: Mapping[str, Any], *,
              seal_depth: int | None = None) -> bool:
    """Write ``document`` to ``path`` atomically and durably, keeping the old one as ``.bak``;
    with ``seal_depth``, sealed first (:mod:`solo_ops.core.seal`: the reader then knows an
    edited file). Returns whether anything was written.

    Serialises first (so a bad document never touches the disk), then :func:`write_atomic`
    with a backup: the current file is hard-linked to ``<name>.bak`` (through a temporary
    name, so ``.bak`` too is always complete) before the new one is renamed over it. A document
    that is the file's content already is not written again: ``.bak`` stays the version
    before the last change (a game opened and closed again keeps its step back). It does not
    lock: callers that read, change and write use :func:`update_json` (or hold a lock).
    """
    _check_document(document)
    path = Path(path)
    if seal_depth is not None:
        document = sealed({k: v for k, v in document.items() if k != SEAL_KEY}, seal_depth)
    try:
        text = indented_json(document) + "\n"  # json.dumps(document, indent=2, ...)
    except (TypeError, ValueError) as exc:
        raise SaveError(f"{path} cannot be saved: the document is not plain JSON ({exc})") \
            from None
    data = text.encode("utf-8")
    if _holds(path, data):
        return False
    write_atomic(path, data, keep_backup=True)
    return True


def _holds(path: Path, data: bytes) -> bool:
    """Whether the regular file ``path`` holds exactly ``data`` (read without following a
    link; any doubt is a no)."""
    try:
        fd = os.open(path, os.O_RDONLY | NOFOLLOW | BINARY)
    except OSError:
        return False
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size != len(data):
            return False
        with os.fdopen(os.dup(fd), "rb") as handle:
            return handle.read(len(data) + 1) == data
    except OSError:
        return False
    finally:
        os.close(fd)


# -- reading ------------------------------------------------------------------------------------
def _restore_hint(path: Path, limit: str = "save") -> str:
    bak = backup_path(path)
    if not bak.exists():
        return "no backup exists"
    try:
        backup = loads_json(decode(read_bytes(bak, limit), str(bak)))
    except (InputError, ValueError):
        return f"the backup {bak} is damaged too"
    if isinstance(backup, dict) and SEAL_KEY in backup and seal_problem(backup) is not None:
        return f"the backup {bak} was edited too"
    return (f"a backup is at {bak} (the version before the last change) — restore it with: "
            f"cp {shlex.quote(str(bak))} {shlex.quote(str(path))}")


def restore_hint(path: str | Path, limit: str = "save") -> str:
    """How to get the version of ``path`` before its last change back (its ``.bak``), or why
    that cannot help, as the end of a one-line error."""
    return _restore_hint(Path(path), limit)


def edited(path: str | Path, field: str, why: str, limit: str = "save") -> InputError:
    """The one-line error for a file edited after solo-ops wrote it (its seal does not match):
    names the file, the first field that changed and the backup."""
    return InputError(f"{why}; {_restore_hint(Path(path), limit)}", source=str(path),
                      field=field)


def check_seal(path: str | Path, document: Mapping[str, Any], required: bool,
               limit: str = "save") -> None:
    """Refuse ``document`` (as read from ``path``) when its seal does not match it, or when
    it has none and ``required`` (a schema written sealed): :func:`edited`."""
    if SEAL_KEY not in document:
        if required:
            raise edited(path, SEAL_KEY, "has no seal: it was edited after it was saved, or "
                         "not written by solo-ops", limit)
        return
    found = seal_problem(document)
    if found is not None:
        raise edited(path, found[0], found[1], limit)


def damaged(path: str | Path, reason: str, limit: str = "save") -> InputError:
    """The one-line error for a damaged save: names the file, the reason and the backup
    (``limit``: the kind of file, for the backup's size limit)."""
    path = Path(path)
    return InputError(f"{path} is damaged ({reason}); {_restore_hint(path, limit)}")


def read_json_document(path: str | Path, limit: str = "save") -> Document:
    """Read ``path`` as a JSON object with ``schema_version`` and ``kind``; no migration.
    ``limit`` is the kind of file (``save`` or ``campaign``: its size limit, see
    :data:`solo_ops.core.limits.FILES`); it is opened by :mod:`solo_ops.io.reading`."""
    path = Path(path)
    raw = read_bytes(path, limit)
    if not raw.strip():
        raise damaged(path, "the file is empty", limit)
    problem = saved_values_problem(raw)
    if problem is not None:
        raise damaged(path, problem, limit)
    try:
        document = loads_json(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise damaged(path, "not UTF-8 text", limit) from None
    except json.JSONDecodeError as exc:
        raise damaged(path, f"not valid JSON at line {exc.lineno}: {exc.msg}", limit) \
            from None
    if not isinstance(document, dict):
        raise damaged(path, "not a JSON object", limit)
    problem = _head_problem(document)
    if problem is not None:
        raise damaged(path, problem, limit)
    return document


def _head_problem(document: Mapping[str, Any]) -> str | None:
    """What is wrong with a document's ``schema_version`` and ``kind``, in words (None when
    nothing is): missing, or there but not a whole number / not text — the value quoted, so a
    ``"4"`` typed with quotes is told from a missing key."""
    if "schema_version" not in document:
        return "no schema_version"
    version = document["schema_version"]
    if isinstance(version, bool) or not isinstance(version, int):
        return f"schema_version must be a whole number, got {_shown(version)}"
    if "kind" not in document:
        return "no kind"
    if not isinstance(document["kind"], str):
        return f"kind must be text, got {_shown(document['kind'])}"
    return None


def _shown(value: Any) -> str:
    """A value as the file wrote it, for an error line: ``'4'`` (text), ``4.5``, ``null``,
    ``true``."""
    return json.dumps(value) if value is None or isinstance(value, bool) else excerpt(value)


def load_json(
    path: str | Path,
    *,
    kind: str,
    current_version: int,
    migrations: Mapping[int, Migration],
    limit: str = "save",
    sealed_since: int | None = None,
) -> Document:
    """Read a document of ``kind``, migrated to ``current_version``.

    ``migrations[v]`` turns a version ``v`` document into a version ``v + 1`` one; they are
    applied one after the other. A document from a newer solo-ops is refused (its data might
    mean something this version does not know). The file itself is not rewritten: the next
    save writes the current version. ``limit``: the kind of file (its size limit). A document
    with a seal is checked against it as written, before any migration (:func:`check_seal`);
    one of version ``sealed_since`` or later must have one.
    """
    path = Path(path)
    document = read_json_document(path, limit)
    found = document["kind"]
    if found != kind:
        raise InputError(f"is a {found!r} file, not a {kind!r} file", source=str(path),
                         field="kind")
    version = document["schema_version"]
    if version > current_version:
        raise InputError(
            f"schema_version {version} was written by a newer solo-ops (this one reads up to "
            f"{current_version}); update solo-ops to open it", source=str(path),
            field="schema_version")
    if version < 1:
        raise damaged(path, f"schema_version {version} is not a version")
    check_seal(path, document, sealed_since is not None and version >= sealed_since, limit)
    while version < current_version:
        step = migrations.get(version)
        if step is None:
            raise InputError(f"schema_version {version} is too old: no migration to "
                             f"{version + 1}", source=str(path), field="schema_version")
        try:
            migrated = step(document)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise damaged(path, f"cannot migrate from schema_version {version}: {exc}") \
                from None
        document = migrated if migrated is not None else document
        version += 1
        document["schema_version"] = version
    return document


def update_json(
    path: str | Path,
    fn: Callable[[Document], Document | None],
    *,
    kind: str,
    current_version: int,
    migrations: Mapping[int, Migration],
    create: Callable[[], Document] | None = None,
    timeout: float = DEFAULT_LOCK_TIMEOUT,
    limit: str = "save",
    sealed_since: int | None = None,
    seal_depth: int | None = None,
) -> Document:
    """Read-modify-write under the lock: no writer's change is ever lost.

    Locks ``path``, re-reads the latest version (migrated), calls ``fn`` on it (``fn`` may
    change the document in place and return None, or return a new one), saves the result and
    returns it. When the file does not exist, ``create()`` gives the starting document, or the
    usual "file not found" error is raised. If ``fn`` raises, nothing is written.
    """
    path = Path(path)
    with campaign_lock(path, timeout=timeout):
        clean_leftovers(path)
        if create is not None and not path.exists():
            document = create()
        else:
            document = load_json(path, kind=kind, current_version=current_version,
                                 migrations=migrations, limit=limit, sealed_since=sealed_since)
        changed = fn(document)
        result = changed if changed is not None else document
        save_json(path, result, seal_depth=seal_depth)
        return result


