"""The game lock: one terminal (or server) writes a game or a campaign at a time.

:func:`game_lock` holds an operating-system lock (through the ``filelock`` library, so it works
on Linux, macOS and Windows) on ``<name>.lock`` for a whole playing session, and fails at once
when another process holds it, naming that process (its pid is written to the sidecar
``<name>.lock.pid`` by :func:`solo_ops.io.writing.write_atomic`). The operating system releases
the lock when the process ends, however it ends, so a killed process never blocks the game; a
clean exit removes both files while still holding the lock, and a process that locked a file so
removed locks the new one instead. :func:`campaign_lock` is the same lock, but waits a few
seconds (for short read-change-write commands: :func:`solo_ops.io.persistence.update_json`).
Neither file is ever written through a link.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import filelock

from solo_ops.core.errors import InputError, SaveError
from solo_ops.io.leftovers import is_link
from solo_ops.io.reading import decode, read_bytes
from solo_ops.io.writing import refuse_link, write_atomic

DEFAULT_LOCK_TIMEOUT = 10.0
_LOCK_POLL = 0.02

_LOCK_RETRIES = 5
"""How often :func:`game_lock` locks again when the lock file it locked was removed by a holder
finishing meanwhile."""


def lock_path(path: str | Path) -> Path:
    """The file :func:`game_lock` and :func:`campaign_lock` lock: ``<name>.lock``."""
    path = Path(path)
    return path.with_name(path.name + ".lock")


def owner_path(path: str | Path) -> Path:
    """The sidecar naming the process that holds the lock on ``path``: ``<name>.lock.pid``."""
    path = Path(path)
    return path.with_name(path.name + ".lock.pid")


_held: dict[tuple[str, int], int] = {}
_held_guard = threading.Lock()


def lock_owner(path: str | Path) -> int | None:
    """The pid recorded by the process that last took the lock on ``path``, if readable."""
    try:
        text = decode(read_bytes(owner_path(path), "note"), "").split()
    except InputError:
        return None
    return int(text[0]) if text and text[0].isdigit() else None


def _in_use(path: Path) -> str:
    pid = lock_owner(path)
    who = f"pid {pid}" if pid is not None else "pid unknown"
    return f"{path}: in use by another terminal ({who})"


@contextlib.contextmanager
def game_lock(path: str | Path, timeout: float = 0.0) -> Iterator[Path]:
    """Hold the lock on ``path`` (through ``<name>.lock``) for the ``with`` block.

    Another process holding it makes this fail with :class:`SaveError` "``<path>``: in use by
    another terminal (pid N)" — at once with the default ``timeout`` of 0 (a playing session),
    or after waiting ``timeout`` seconds. Re-entrant within one thread. The lock is the
    operating system's (``flock`` on Unix, ``LockFileEx`` on Windows, through ``filelock``), so
    it goes away with the process that held it, however it ended; the pid sidecar is only for
    the message. Neither the lock file nor the sidecar is ever written through a link.
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
    except OSError as exc:
        raise SaveError(f"{target} cannot be created to lock {path} ({exc.strerror})") \
            from None
    refuse_link(target)
    refuse_link(owner_path(path))
    lock = filelock.FileLock(str(target), timeout=max(0.0, timeout))
    try:
        _acquire(lock, target, timeout)
    except filelock.Timeout:
        try:  # filelock reads a lock file it cannot open at all as "held": tell them apart
            os.close(os.open(target, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0),
                             0o644))
        except OSError as exc:
            raise SaveError(f"{target} cannot be opened to lock {path} "
                            f"({exc.strerror or exc})") from None
        waited = f" (waited {timeout:g}s for {target})" if timeout > 0 else ""
        raise SaveError(f"{_in_use(path)}{waited}; try again when it has finished") from None
    except OSError as exc:
        raise SaveError(f"{target} cannot be opened to lock {path} "
                        f"({exc.strerror or exc})") from None
    try:
        with _held_guard:
            _held[key] = 1
        write_atomic(owner_path(path), f"{os.getpid()}\n".encode(), counts=False)
        yield path
    finally:
        with _held_guard:
            _held.pop(key, None)
        _tidy(lock, path, target)
        lock.release()


def _lock_fd(lock: filelock.BaseFileLock) -> int | None:
    """The descriptor ``lock`` holds its operating-system lock on (None: this filelock keeps
    it where we cannot see it, and the files are then left as they are)."""
    fd = getattr(getattr(lock, "_context", None), "lock_file_fd", None)
    return fd if isinstance(fd, int) else None


def _locks_the_file_at(lock: filelock.BaseFileLock, target: Path) -> bool | None:
    """Whether the lock held is on the file now named ``target`` (None: cannot tell)."""
    fd = _lock_fd(lock)
    if fd is None:
        return None
    try:
        return os.path.samestat(os.fstat(fd), os.lstat(target))
    except OSError:
        return False


def _acquire(lock: filelock.BaseFileLock, target: Path, timeout: float) -> None:
    """Take ``lock`` on ``target``. A holder that finishes cleanly removes the lock file
    (:func:`_tidy`), so a process that opened the old file before the removal may get the
    lock of a file no longer there: it lets it go and locks the file now at ``target``."""
    for _ in range(_LOCK_RETRIES):
        lock.acquire(timeout=max(0.0, timeout), poll_interval=_LOCK_POLL)
        if _locks_the_file_at(lock, target) is not False:
            return
        lock.release()
    raise filelock.Timeout(str(target))


def _tidy(lock: filelock.BaseFileLock, path: Path, target: Path) -> None:
    """On a clean exit, while still holding the lock: remove the pid sidecar and the lock file,
    so nothing is left beside the save. (A process killed leaves them: the operating system
    has let its lock go, and the next :func:`game_lock` reuses the file.)"""
    if _locks_the_file_at(lock, target) is not True:
        return
    for leftover in (owner_path(path), target):
        with contextlib.suppress(OSError):  # Windows: filelock removes its own on release
            if not is_link(leftover):
                leftover.unlink()


def campaign_lock(path: str | Path, timeout: float = DEFAULT_LOCK_TIMEOUT
                  ) -> contextlib.AbstractContextManager[Path]:
    """:func:`game_lock` that waits up to ``timeout`` seconds: for commands that lock only to
    read, change and write (a co-op partner's command is over in a moment)."""
    return game_lock(path, timeout=timeout)
