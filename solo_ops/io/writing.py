"""The one writer of every file solo-ops writes: atomic, durable, never through a link.

Every file solo-ops writes (saves, event logs, scenario files from ``new`` and ``campaign play``,
pictures, lock owner notes) goes through :func:`write_atomic`: the bytes go to a new temporary
file in the same folder (created with ``O_CREAT|O_EXCL|O_NOFOLLOW``, so a planted file or
symbolic link at that name is never opened), flushed and fsynced, the previous version kept as
``<name>.bak`` on request (a hard link, so the old bytes are never copied or rewritten), renamed
over the target, and the folder fsynced. A target that is a symbolic link is refused (solo-ops
never writes through a link it did not create). At every instant the target holds either the
old or the new version, complete; a full disk or a read-only folder is one :class:`SaveError`
line and the old file is untouched. :func:`set_aside` moves a file out of the way under a time
stamp; :func:`files_changed` counts what this process has written.

JSON saves are :mod:`solo_ops.io.persistence`'s, locks :mod:`solo_ops.io.locks`', event logs
(appended to, not rewritten) :mod:`solo_ops.io.event_log`'s: all of them write through here.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
from pathlib import Path

from solo_ops.core.errors import SaveError
from solo_ops.io.leftovers import is_link, remove_stale_temps, temp_prefix

NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)  # absent on Windows, where links need privileges
"""``os.open``'s flag that refuses a link at the name (0 where the system has none)."""
BINARY = getattr(os, "O_BINARY", 0)  # Windows: no newline translation
"""``os.open``'s flag for bytes as they are (Windows; 0 elsewhere)."""

_writes = 0  # files this process has written or changed (see files_changed)


def files_changed() -> int:
    """How many files this process has written or appended to so far (for error messages that
    must not claim "nothing was changed" when something was)."""
    return _writes


def count_write() -> None:
    """Count one file written, appended to or moved (:func:`files_changed`)."""
    global _writes
    _writes += 1


# -- paths --------------------------------------------------------------------------------------
def backup_path(path: str | Path) -> Path:
    """Where :func:`write_atomic` (and so :func:`~solo_ops.io.persistence.save_json`) keeps
    the previous version: ``<name>.bak`` beside the file."""
    path = Path(path)
    return path.with_name(path.name + ".bak")


def refuse_link(path: str | Path) -> None:
    """A :class:`SaveError` when ``path`` is a symbolic link: solo-ops writes regular files only
    and never follows a link it did not create (a planted link could point anywhere)."""
    path = Path(path)
    if is_link(path):
        raise SaveError(f"{path} is a symbolic link; solo-ops writes only regular files and "
                        "does not follow links (remove the link or choose another file)")


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


def write_all(fd: int, data: bytes) -> None:
    """Write all of ``data`` to the open file ``fd`` (``os.write`` may write less)."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _new_temp(path: Path, what: str = "tmp") -> tuple[int, Path]:
    """A new file beside ``path`` that this process created (never an existing name, never
    through a link): ``.<name>.<pid>.<random>.<what>``."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW | BINARY
    for _ in range(100):
        tmp = path.with_name(f"{temp_prefix(path)}{os.getpid()}.{secrets.token_hex(4)}."
                             f"{what}")
        try:
            return os.open(tmp, flags, 0o644), tmp
        except FileExistsError:  # pragma: no cover - a planted or leftover name: pick another
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(path))  # pragma: no cover


def _failure(path: Path, exc: OSError, old: bool) -> SaveError:
    reason = exc.strerror or str(exc)
    tail = "the previous version is untouched" if old else "nothing was written there"
    return SaveError(f"{path} cannot be saved ({reason}); {tail}")


def write_atomic(path: str | Path, data: bytes, *, keep_backup: bool = False,
                 counts: bool = True) -> None:
    """Write ``data`` to ``path`` atomically and durably (see the module docstring).

    With ``keep_backup`` the current version (if any) becomes ``<name>.bak`` first;
    ``counts=False`` leaves it out of :func:`files_changed` (the lock's pid note). Raises
    :class:`SaveError` (one line naming the file and the reason) when the target is a link, the
    folder cannot be written or the disk is full; the old file is then untouched.
    """
    path = Path(path)
    folder = path.parent
    refuse_link(path)
    existed = path.exists()
    tmp: Path | None = None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        remove_stale_temps(path)
        fd, tmp = _new_temp(path)
        try:
            write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        if keep_backup and existed:
            _keep_backup(path)
        refuse_link(path)  # planted while we wrote? never rename over it blindly
        os.replace(tmp, path)
        tmp = None
        if counts:
            count_write()
        _fsync_dir(folder)
    except OSError as exc:
        raise _failure(path, exc, existed) from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def write_text_atomic(path: str | Path, text: str) -> None:
    """:func:`write_atomic` for UTF-8 text."""
    write_atomic(path, text.encode("utf-8"))


def _keep_backup(path: Path) -> None:
    """Make ``<name>.bak`` the current version of ``path`` (before it is replaced)."""
    bak = backup_path(path)
    tmp = path.with_name(f"{temp_prefix(path)}{os.getpid()}.{secrets.token_hex(4)}.bak.tmp")
    try:
        os.link(path, tmp)  # ``path`` is not a link (write_atomic refused that)
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.EXDEV, errno.ENOTSUP, errno.EMLINK,
                             errno.EACCES):
            raise
        # no hard links here: copy into a file of our own, fsync, then rename
        fd, tmp = _new_temp(path, "bak.tmp")
        try:
            with open(path, "rb") as src:
                write_all(fd, src.read())
            os.fsync(fd)
        finally:
            os.close(fd)
    try:
        os.replace(tmp, bak)  # a link planted at .bak is replaced, never followed
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def set_aside(path: str | Path, stamp: str) -> Path | None:
    """Rename ``path`` (if it exists) to a name with ``stamp`` in it, in the same folder, never
    over an existing file; returns the new name. ``saves/a-7.log.jsonl`` with stamp
    ``20261123-1312`` becomes ``saves/a-7.old-20261123-1312.log.jsonl``."""
    path = Path(path)
    if not path.exists() and not is_link(path):
        return None
    name = path.name
    cut = name.find(".", 1)
    stem, rest = (name, "") if cut < 0 else (name[:cut], name[cut:])
    for extra in range(1000):
        suffix = "" if extra == 0 else f"-{extra + 1}"
        target = path.with_name(f"{stem}.old-{stamp}{suffix}{rest}")
        if target.exists() or is_link(target):
            continue
        try:
            os.rename(path, target)
        except OSError as exc:
            raise SaveError(f"{path} cannot be moved aside to {target.name} "
                            f"({exc.strerror or exc}); nothing was changed") from None
        count_write()
        return target
    raise SaveError(f"{path} cannot be moved aside: too many old copies")  # pragma: no cover
