"""The one opener of every file solo-ops reads: regular files only, bounded, decoded clearly.

Scenarios, boards, rosters, squads, mission results, sweeps, saves, event logs, campaign saves,
imported rosters, ``--answers`` files and lock notes are all read here, so every one of them
gets the same protection (issue #31):

* only a regular file is read, after following links: a named pipe (which would wait forever
  for a writer), a device such as ``/dev/zero`` (which never ends) or a folder is refused at
  once, without opening it for long — the file is opened without blocking and checked again
  once open, so one swapped for a pipe after the first look is refused too;
* its size is checked against the limit of its kind (:data:`solo_ops.core.limits.FILES`)
  before a byte is read, and no more than the limit is ever read (a file that grows while it
  is read is refused too);
* text is decoded as UTF-8 (a byte-order mark allowed) with one clear line on failure,
  naming the file and the line of the first bad byte.

Every refusal is an :class:`~solo_ops.core.errors.InputError` naming the file. Parsing the
text (YAML, JSON, with their nesting, alias and value limits) is :mod:`solo_ops.core.documents`'s;
:mod:`solo_ops.io.yamlio` and :mod:`solo_ops.io.persistence` call it on what this module reads.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from solo_ops.core.errors import InputError
from solo_ops.core.limits import FILES, FileLimit

_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_NOCTTY = getattr(os, "O_NOCTTY", 0)
_BINARY = getattr(os, "O_BINARY", 0)

NOT_REGULAR = "is not a regular file (a pipe, a device...): give a file"


def limit_of(kind: str) -> FileLimit:
    """The size limit of files of ``kind`` (a key of :data:`~solo_ops.core.limits.FILES`)."""
    return FILES[kind]


def _size_words(size: int) -> str:
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):.1f} MiB"
    if size >= 1024:
        return f"{size / 1024:.0f} KiB"
    return f"{size} bytes"


def too_large(source: str, kind: str, size: int | None = None) -> InputError:
    """The one-line refusal of a file over its kind's limit (``size``: its size, if known)."""
    most = limit_of(kind)
    have = f"{_size_words(size)}" if size is not None else f"more than {_size_words(most.bytes)}"
    return InputError(f"is too large ({have}; {most.what} is at most "
                      f"{_size_words(most.bytes)})", source=source)


def _open_regular(path: str | Path, kind: str | None) -> int:
    """A descriptor of the regular file ``path`` (links followed), opened without blocking
    and checked again once open; with a ``kind``, refused when over its limit."""
    source = str(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise InputError("file not found", source=source) from None
    except OSError as exc:
        raise InputError(f"cannot be read ({exc.strerror or exc})", source=source) from None
    if stat.S_ISDIR(info.st_mode):
        raise InputError("is a folder, not a file", source=source)
    if not stat.S_ISREG(info.st_mode):
        raise InputError(NOT_REGULAR, source=source)
    if kind is not None and info.st_size > limit_of(kind).bytes:
        raise too_large(source, kind, info.st_size)
    try:
        fd = os.open(path, os.O_RDONLY | _NONBLOCK | _NOCTTY | _BINARY)
    except OSError as exc:
        raise InputError(f"cannot be read ({exc.strerror or exc})", source=source) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # swapped for a pipe since the first look
            raise InputError(NOT_REGULAR, source=source)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _read_upto(fd: int, most: int, source: str) -> bytes:
    """At most ``most`` bytes from ``fd`` (closed afterwards)."""
    chunks: list[bytes] = []
    left = most
    try:
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except OSError as exc:
        raise InputError(f"cannot be read ({exc.strerror or exc})", source=source) from None
    finally:
        os.close(fd)
    return b"".join(chunks)


def read_bytes(path: str | Path, kind: str) -> bytes:
    """The bytes of the regular file ``path`` (links followed), at most the limit of ``kind``;
    an :class:`InputError` naming the file otherwise (see the module docstring)."""
    source = str(path)
    most = limit_of(kind).bytes
    data = _read_upto(_open_regular(path, kind), most + 1, source)
    if len(data) > most:  # it grew while being read
        raise too_large(source, kind)
    return data


def read_head(path: str | Path, size: int) -> bytes:
    """The first ``size`` bytes (or fewer) of the regular file ``path``, whatever its length:
    enough to tell what a file is (:func:`solo_ops.io.opening.file_kind`) without reading it
    all. The same refusals as :func:`read_bytes` for what is not a regular file."""
    return _read_upto(_open_regular(path, None), size, str(path))


def decode(data: bytes, source: str) -> str:
    """``data`` as UTF-8 text (a leading byte-order mark dropped), or one line naming the file
    and the line of the first byte that is not UTF-8."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(f"is not UTF-8 text (byte 0x{data[exc.start]:02x} at line {line}): "
                         "save it as UTF-8", source=source, field=f"line {line}") from None


def read_text(path: str | Path, kind: str) -> str:
    """The UTF-8 text of the regular file ``path``, at most the limit of ``kind``."""
    return decode(read_bytes(path, kind), str(path))
