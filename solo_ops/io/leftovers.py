"""What a writer killed mid-write leaves beside a file, and its removal.

:func:`~solo_ops.io.writing.write_atomic` writes a new version to a temporary file of its
own beside the target (``.<name>.<pid>.<random>.tmp``; the backup's ``.bak.tmp``) and renames it
over the target: a process killed before the rename leaves that file behind. Each write removes
those of processes that are gone (:func:`remove_stale_temps`); opening a game or a campaign
under its lock removes them all (:func:`clean_leftovers`: no one else writes the file then, so
a pid the system gave to another process since is no reason to keep one).
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
from pathlib import Path

__all__ = ["clean_leftovers", "is_link", "pid_alive", "remove_stale_temps", "temp_prefix"]


def temp_prefix(path: Path) -> str:
    """The start of the name of every temporary file written for ``path``."""
    return f".{path.name}."


def is_link(path: Path) -> bool:
    """Whether ``path`` is a symbolic link (not followed)."""
    try:
        return stat.S_ISLNK(os.lstat(path).st_mode)
    except OSError:
        return False


def pid_alive(pid: int) -> bool:
    """Whether a process with ``pid`` runs (on Windows: assumed so)."""
    if os.name == "nt":  # pragma: no cover - os.kill(pid, 0) would terminate it on Windows
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - someone else's process
        return True
    return True


def remove_stale_temps(path: Path) -> None:
    """Delete temporary files left by writers that were killed mid-save (their pid is gone)."""
    prefix = temp_prefix(path)
    try:
        names = os.listdir(path.parent)
    except OSError:  # pragma: no cover
        return
    for name in names:
        if not (name.startswith(prefix) and name.endswith(".tmp")):
            continue
        pid_text = name[len(prefix):].split(".", 1)[0]
        if pid_text.isdigit() and int(pid_text) != os.getpid() and not pid_alive(int(pid_text)):
            with contextlib.suppress(OSError):
                os.unlink(path.parent / name)


def clean_leftovers(path: str | Path) -> list[Path]:
    """Remove the temporary files writers of ``path`` left behind when they were killed
    mid-write (``.<name>.<pid>.<random>.tmp`` and ``.bak.tmp``), whatever their pid: call it
    while holding the lock on ``path`` (:func:`~solo_ops.io.locks.game_lock`), when no
    other process writes it. Returns what was removed."""
    path = Path(path)
    pattern = re.compile(rf"\.{re.escape(path.name)}\.(\d+)\.[0-9a-f]{{8}}\.(?:bak\.)?tmp")
    try:
        names = os.listdir(path.parent)
    except OSError:
        return []
    removed = []
    for name in names:
        found = pattern.fullmatch(name)
        if found is None or int(found.group(1)) == os.getpid():
            continue
        leftover = path.parent / name
        with contextlib.suppress(OSError):
            if not is_link(leftover):
                leftover.unlink()
                removed.append(leftover)
    return removed
