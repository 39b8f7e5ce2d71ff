"""Saving and loading solo-ops files so that a crash, a kill or a second terminal loses nothing.

This is the only module (besides the command line) that writes files. Everything is JSON —
never pickle — and every document carries ``schema_version`` and ``kind``.

* :func:`save_json` writes a new version next to the target, flushes and fsyncs it, keeps the
  previous version as ``<name>.bak`` (a hard link, so the old bytes are never copied or
  rewritten) and renames the new version over the target, then fsyncs the folder. At every
  instant the target exists and holds either the old or the new version, complete.
* :func:`load_json` reads a document, checks its ``kind``, migrates it step by step from an
  older ``schema_version`` and refuses one written by a newer solo-ops. A damaged file becomes
  one clear line naming the file and offering the ``.bak`` backup.
* :func:`campaign_lock` is an exclusive ``fcntl.flock`` on ``<name>.lock`` so two co-op
  terminals never overwrite each other; :func:`update_json` locks, re-reads the latest version,
  applies a change and saves it, so two writers at once keep both changes.
* :class:`EventLog` is an append-only JSON-lines file (each record flushed and fsynced) whose
  reader forgives a torn last line (a crash mid-append) but not damage elsewhere.

The lock file is never deleted (deleting a lock file that another process may be about to
lock is a race); it is empty and harmless.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import shlex
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from solo_ops.core.errors import InputError, SaveError

Document = dict[str, Any]
Migration = Callable[[Document], Document]

DEFAULT_LOCK_TIMEOUT = 10.0
_LOCK_POLL = 0.02


# -- paths --------------------------------------------------------------------------------------
def backup_path(path: str | Path) -> Path:
    """Where :func:`save_json` keeps the previous version: ``<name>.bak`` beside the file."""
    path = Path(path)
    return path.with_name(path.name + ".bak")


def lock_path(path: str | Path) -> Path:
    """The file :func:`campaign_lock` locks: ``<name>.lock`` beside the file."""
    path = Path(path)
    return path.with_name(path.name + ".lock")


def _temp_prefix(path: Path) -> str:
    return f".{path.name}."


# -- writing ------------------------------------------------------------------------------------
def _fsync_dir(folder: Path) -> None:
    """Make a rename in ``folder`` durable (a no-op where folders cannot be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms without directory fds
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - some file systems refuse fsync on folders
        pass
    finally:
        os.close(fd)


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - someone else's process
        return True
    return True


def _remove_stale_temps(path: Path) -> None:
    """Delete temporary files left by writers that were killed mid-save (their pid is gone)."""
    prefix = _temp_prefix(path)
    try:
        names = os.listdir(path.parent)
    except OSError:  # pragma: no cover
        return
    for name in names:
        if not (name.startswith(prefix) and name.endswith(".tmp")):
            continue
        pid_text = name[len(prefix):].split(".", 1)[0]
        if pid_text.isdigit() and int(pid_text) != os.getpid() and not _pid_alive(int(pid_text)):
            with contextlib.suppress(OSError):
                os.unlink(path.parent / name)


def _check_document(document: Any) -> None:
    if not isinstance(document, Mapping):
        raise TypeError(f"a save document must be a mapping, got {type(document).__name__}")
    version = document.get("schema_version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise TypeError("a save document needs an integer schema_version")
    if not isinstance(document.get("kind"), str):
        raise TypeError("a save document needs a kind")


def save_json(path: str | Path, document: Mapping[str, Any]) -> None:
    """Write ``document`` to ``path`` atomically and durably, keeping the old one as ``.bak``.

    The steps: serialise (so a bad document never touches the disk), write a temporary file in
    the same folder, flush and fsync it, hard-link the current file to ``<name>.bak`` (through a
    temporary name, so ``.bak`` too is always complete), rename the new file over the target
    and fsync the folder. A writer killed at any moment leaves the target holding the old or
    the new version. It does not lock: callers that read, change and write use
    :func:`update_json` (or hold :func:`campaign_lock`).
    """
    _check_document(document)
    path = Path(path)
    try:
        text = json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    except (TypeError, ValueError) as exc:
        raise SaveError(f"{path} cannot be saved: the document is not plain JSON ({exc})") \
            from None
    data = text.encode("utf-8")
    folder = path.parent
    tmp_name: str | None = None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        _remove_stale_temps(path)
        fd, tmp_name = tempfile.mkstemp(
            dir=folder, prefix=f"{_temp_prefix(path)}{os.getpid()}.", suffix=".tmp"
        )
        try:
            view = memoryview(data)
            while view:
                written = os.write(fd, view)
                view = view[written:]
            os.fsync(fd)
        finally:
            os.close(fd)
        if path.exists():
            _keep_backup(path)
        os.replace(tmp_name, path)
        tmp_name = None
        _fsync_dir(folder)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise SaveError(f"{path} cannot be saved ({reason}); the previous version is "
                        "untouched") from None
    finally:
        if tmp_name is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp_name)


def _keep_backup(path: Path) -> None:
    """Make ``<name>.bak`` the current version of ``path`` (before it is replaced)."""
    bak = backup_path(path)
    tmp = path.with_name(f"{_temp_prefix(path)}{os.getpid()}.bak.tmp")
    with contextlib.suppress(FileNotFoundError):
        os.unlink(tmp)
    try:
        os.link(path, tmp)
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.EXDEV, errno.ENOTSUP, errno.EMLINK):
            raise
        # no hard links here: copy, fsync, then rename
        with open(path, "rb") as src, open(tmp, "wb") as dst:
            dst.write(src.read())
            dst.flush()
            os.fsync(dst.fileno())
    os.replace(tmp, bak)


# -- reading ------------------------------------------------------------------------------------
def _restore_hint(path: Path) -> str:
    bak = backup_path(path)
    if not bak.exists():
        return "no backup exists"
    try:
        json.loads(bak.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return f"the backup {bak} is damaged too"
    return (f"a backup is at {bak} — restore it with: cp {shlex.quote(str(bak))} "
            f"{shlex.quote(str(path))}")


def damaged(path: str | Path, reason: str) -> InputError:
    """The one-line error for a damaged save: names the file, the reason and the backup."""
    path = Path(path)
    return InputError(f"{path} is damaged ({reason}); {_restore_hint(path)}")


def read_json_document(path: str | Path) -> Document:
    """Read ``path`` as a JSON object with ``schema_version`` and ``kind``; no migration."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise InputError("file not found", source=str(path)) from None
    except IsADirectoryError:
        raise InputError("is a folder, not a file", source=str(path)) from None
    except OSError as exc:
        raise InputError(f"cannot be read ({exc.strerror})", source=str(path)) from None
    if not raw.strip():
        raise damaged(path, "the file is empty")
    try:
        document = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise damaged(path, "not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise damaged(path, f"not valid JSON at line {exc.lineno}: {exc.msg}") from None
    if not isinstance(document, dict):
        raise damaged(path, "not a JSON object")
    version = document.get("schema_version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise damaged(path, "no schema_version")
    if not isinstance(document.get("kind"), str):
        raise damaged(path, "no kind")
    return document


def load_json(
    path: str | Path,
    *,
    kind: str,
    current_version: int,
    migrations: Mapping[int, Migration],
) -> Document:
    """Read a document of ``kind``, migrated to ``current_version``.

    ``migrations[v]`` turns a version ``v`` document into a version ``v + 1`` one; they are
    applied one after the other. A document from a newer solo-ops is refused (its data might
    mean something this version does not know). The file itself is not rewritten: the next
    save writes the current version.
    """
    path = Path(path)
    document = read_json_document(path)
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


# -- locking ------------------------------------------------------------------------------------
_held: dict[tuple[str, int], int] = {}
_held_guard = threading.Lock()


@contextlib.contextmanager
def campaign_lock(path: str | Path, timeout: float = DEFAULT_LOCK_TIMEOUT) -> Iterator[Path]:
    """Hold an exclusive lock on ``path`` (through ``<name>.lock``) for the ``with`` block.

    A second process (another co-op terminal) waits up to ``timeout`` seconds and then gets a
    :class:`SaveError` saying the file is in use. The lock is re-entrant within one thread, so
    a function holding it may call another that takes it. The operating system releases it
    when the process ends, however it ends.
    """
    path = Path(path)
    key = (str(path.resolve()), threading.get_ident())
    with _held_guard:
        if key in _held:
            _held[key] += 1
            reentered = True
        else:
            reentered = False
    if reentered:
        try:
            yield path
        finally:
            with _held_guard:
                _held[key] -= 1
        return
    target = lock_path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(target, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise SaveError(f"{target} cannot be opened to lock {path} ({exc.strerror})") from None
    try:
        deadline = time.monotonic() + max(0.0, timeout)
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise SaveError(
                        f"{path} is in use by another solo-ops command (waited {timeout:g}s "
                        f"for {target}); try again when it has finished") from None
                time.sleep(_LOCK_POLL)
        with _held_guard:
            _held[key] = 1
        try:
            yield path
        finally:
            with _held_guard:
                _held.pop(key, None)
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def update_json(
    path: str | Path,
    fn: Callable[[Document], Document | None],
    *,
    kind: str,
    current_version: int,
    migrations: Mapping[int, Migration],
    create: Callable[[], Document] | None = None,
    timeout: float = DEFAULT_LOCK_TIMEOUT,
) -> Document:
    """Read-modify-write under the lock: no writer's change is ever lost.

    Locks ``path``, re-reads the latest version (migrated), calls ``fn`` on it (``fn`` may
    change the document in place and return None, or return a new one), saves the result and
    returns it. When the file does not exist, ``create()`` gives the starting document, or the
    usual "file not found" error is raised. If ``fn`` raises, nothing is written.
    """
    path = Path(path)
    with campaign_lock(path, timeout=timeout):
        if create is not None and not path.exists():
            document = create()
        else:
            document = load_json(path, kind=kind, current_version=current_version,
                                 migrations=migrations)
        changed = fn(document)
        result = changed if changed is not None else document
        save_json(path, result)
        return result


# -- event logs ---------------------------------------------------------------------------------
class EventLog:
    """An append-only JSON-lines file: one JSON object per line, each made durable on append.

    A crash mid-append can leave a torn last line; :meth:`read` skips it and the next
    :meth:`append` cuts it off before writing, so the log stays well formed. A line that does
    not parse anywhere else means real damage and is reported with its line number.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def append(self, record: Mapping[str, Any]) -> None:
        """Add one record (a JSON object) as a line, flushed and fsynced before returning."""
        if not isinstance(record, Mapping):
            raise TypeError("an event log record must be a mapping")
        try:
            line = json.dumps(record, ensure_ascii=False, allow_nan=False,
                              separators=(",", ":"))
        except (TypeError, ValueError) as exc:
            raise SaveError(f"{self.path}: the record is not plain JSON ({exc})") from None
        data = (line + "\n").encode("utf-8")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
            try:
                self._cut_torn_tail(fd)
                view = memoryview(data)
                while view:
                    written = os.write(fd, view)
                    view = view[written:]
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as exc:
            raise SaveError(f"{self.path} cannot be appended to ({exc.strerror})") from None

    @staticmethod
    def _cut_torn_tail(fd: int) -> None:
        """Drop a partial last line left by a crash, so the new record starts a fresh line."""
        size = os.fstat(fd).st_size
        if size == 0 or os.pread(fd, 1, size - 1) == b"\n":
            return
        block = 4096
        end = size
        while end > 0:
            start = max(0, end - block)
            chunk = os.pread(fd, end - start, start)
            cut = chunk.rfind(b"\n")
            if cut >= 0:
                os.ftruncate(fd, start + cut + 1)
                return
            end = start
        os.ftruncate(fd, 0)

    def read(self) -> list[dict[str, Any]]:
        """Every complete record in order. Errors name the file and the damaged line."""
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            raise InputError("file not found", source=str(self.path)) from None
        except OSError as exc:
            raise InputError(f"cannot be read ({exc.strerror})", source=str(self.path)) \
                from None
        lines = raw.split(b"\n")
        torn_tail = not raw.endswith(b"\n")  # the last piece never got its newline
        records: list[dict[str, Any]] = []
        for number, piece in enumerate(lines, start=1):
            last = number == len(lines)
            if not piece.strip():
                continue
            try:
                record = json.loads(piece.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError) as exc:
                if last and torn_tail:
                    break  # a crash mid-append: the record was never written
                reason = exc.msg if isinstance(exc, json.JSONDecodeError) else "not UTF-8"
                raise InputError(f"is damaged (not JSON: {reason})", source=str(self.path),
                                 field=f"line {number}") from None
            if not isinstance(record, dict):
                if last and torn_tail:
                    break
                raise InputError("is damaged (a line is not a JSON object)",
                                 source=str(self.path), field=f"line {number}")
            records.append(record)
        return records
