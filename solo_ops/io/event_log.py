"""The event log: an append-only JSON-lines file, every record made durable as it is added.

:class:`EventLog` is created through :func:`solo_ops.io.writing.write_atomic` and appended to
without following links, each record flushed and fsynced; its reader forgives a torn last line
(a crash mid-append) unless asked to be strict (:class:`TornLog`), and never damage elsewhere.
:func:`log_line` is the bytes a record becomes (what the save's hash chain covers) and
:func:`file_digest` the checksum a save records of its log, before or after an append.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from solo_ops.core.documents import loads_json, saved_values_problem
from solo_ops.core.errors import InputError, SaveError
from solo_ops.io.leftovers import is_link
from solo_ops.io.reading import read_bytes
from solo_ops.io.writing import BINARY, NOFOLLOW, count_write, refuse_link, write_all, write_atomic


def file_digest(path: str | Path, size: int | None = None, *, then: bytes = b"",
                missing_ok: bool = False) -> dict[str, Any]:
    """``{"size", "sha256"}`` of the first ``size`` bytes of ``path`` (all of it by default):
    the checksum a save records of its event log. With ``then``, the checksum the file will
    have once ``then`` is appended by :meth:`EventLog.append` (which first cuts a torn last
    line), so a save can record it before the append."""
    path = Path(path)
    if missing_ok and not os.path.lexists(path):
        data = b""
    else:
        data = read_bytes(path, "log")  # a regular file of at most the log limit
        data = data if size is None else data[:size]
    if then:
        if data and not data.endswith(b"\n"):
            data = data[: data.rfind(b"\n") + 1]
        data += then
    return {"size": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def log_line(record: Mapping[str, Any], where: str | Path = "the event log") -> bytes:
    """The bytes :meth:`EventLog.append` writes for ``record``: compact JSON and a newline."""
    if not isinstance(record, Mapping):
        raise TypeError("an event log record must be a mapping")
    try:
        line = json.dumps(record, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise SaveError(f"{where}: the record is not plain JSON ({exc})") from None
    return (line + "\n").encode("utf-8")


class TornLog(InputError):
    """A log whose last line was cut off (a crash or a disk filling up mid-append)."""


class EventLog:
    """An append-only JSON-lines file: one JSON object per line, each made durable on append.

    The file is created by :meth:`create` (or the first :meth:`append`) through
    :func:`write_atomic`; appends open it without following links. A crash mid-append can
    leave a torn last line; :meth:`read` skips it (``strict=True`` refuses it instead) and the
    next :meth:`append` cuts it off before writing, so the log stays well formed. A line that
    does not parse anywhere else means real damage and is reported with its line number.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def create(self, first: Mapping[str, Any]) -> None:
        """Start the log (replacing any file there) with the record ``first``."""
        write_atomic(self.path, log_line(first, self.path))

    def append(self, record: Mapping[str, Any]) -> None:
        """Add one record (a JSON object) as a line, flushed and fsynced before returning."""
        data = log_line(record, self.path)
        if not self.path.exists() and not is_link(self.path):
            write_atomic(self.path, data)
            return
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_APPEND | NOFOLLOW | BINARY)
        except OSError as exc:
            if is_link(self.path):
                refuse_link(self.path)
            raise SaveError(f"{self.path} cannot be appended to ({exc.strerror})") from None
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise SaveError(f"{self.path} is not a regular file; solo-ops appends only to "
                                "its own logs")
            self._cut_torn_tail(fd)
            write_all(fd, data)
            os.fsync(fd)
            count_write()
        except OSError as exc:
            raise SaveError(f"{self.path} cannot be appended to ({exc.strerror}); the records "
                            "already there are untouched") from None
        finally:
            os.close(fd)

    @staticmethod
    def _read_at(fd: int, size: int, offset: int) -> bytes:
        os.lseek(fd, offset, os.SEEK_SET)
        chunks = []
        while size > 0:
            chunk = os.read(fd, size)
            if not chunk:
                break
            chunks.append(chunk)
            size -= len(chunk)
        return b"".join(chunks)

    @classmethod
    def _cut_torn_tail(cls, fd: int) -> None:
        """Drop a partial last line left by a crash, so the new record starts a fresh line."""
        size = os.fstat(fd).st_size
        if size == 0 or cls._read_at(fd, 1, size - 1) == b"\n":
            return
        block = 4096
        end = size
        while end > 0:
            start = max(0, end - block)
            chunk = cls._read_at(fd, end - start, start)
            cut = chunk.rfind(b"\n")
            if cut >= 0:
                os.ftruncate(fd, start + cut + 1)
                return
            end = start
        os.ftruncate(fd, 0)

    def read(self, *, strict: bool = False) -> list[dict[str, Any]]:
        """Every complete record in order. Errors name the file and the damaged line; with
        ``strict`` a torn last line is an error (:class:`TornLog`) instead of being skipped."""
        return [record for _line, record in self.read_lines(strict=strict)
                if record is not None]

    def read_lines(self, *, strict: bool = False) -> list[tuple[bytes, dict[str, Any] | None]]:
        """Every line as written (its bytes, the newline included: what the save's hash chain
        covers) with its record (None for a blank line); a torn last line is left out (or,
        with ``strict``, refused as :meth:`read` does)."""
        raw = read_bytes(self.path, "log")  # a regular file of at most the log limit
        problem = saved_values_problem(raw)
        if problem is not None:
            raise InputError(f"is damaged ({problem})", source=str(self.path))
        lines = raw.split(b"\n")
        torn_tail = not raw.endswith(b"\n") and bool(raw)  # the last piece lacks its newline
        out: list[tuple[bytes, dict[str, Any] | None]] = []
        for number, piece in enumerate(lines, start=1):
            last = number == len(lines)
            if last and not torn_tail:
                break  # the empty piece after the final newline
            if not piece.strip():
                out.append((piece + b"\n", None))
                continue
            if last and torn_tail and strict:
                raise TornLog(f"is torn: line {number} is cut off (the game was stopped while "
                              "writing it, or the file was truncated)", source=str(self.path),
                              field=f"line {number}")
            try:
                record = loads_json(piece.decode("utf-8"))
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
            out.append((piece if last and torn_tail else piece + b"\n", record))
        return out
