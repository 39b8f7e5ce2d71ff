"""Reading the YAML and JSON files players write: only regular files of a bounded size,
parsed strictly by :mod:`solo_ops.core.documents` (see "Limits of the files" in
``docs/guide.md``). Every failure becomes an :class:`~solo_ops.core.errors.InputError` naming
the file and, when known, the line or the field.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from solo_ops.core.documents import MAX_FILE_BYTES, parse_json_text, parse_yaml_text
from solo_ops.core.errors import InputError


def read_text_file(path: str | Path, limit: int = MAX_FILE_BYTES) -> str:
    """The text of a regular file of at most ``limit`` bytes, or an :class:`InputError`.

    Checks with ``os.stat`` before opening and opens without blocking, so a named pipe, a
    device such as ``/dev/zero`` or a folder is refused at once instead of hanging or reading
    forever."""
    source = str(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise InputError("file not found", source=source) from None
    except OSError as exc:
        raise InputError(f"cannot be read ({exc.strerror})", source=source) from None
    if stat.S_ISDIR(info.st_mode):
        raise InputError("is a folder, not a file", source=source)
    if not stat.S_ISREG(info.st_mode):
        raise InputError("is not a regular file (a pipe, a device...): give a file",
                         source=source)
    if info.st_size > limit:
        raise InputError(f"is too large ({info.st_size} bytes; at most {limit})", source=source)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise InputError(f"cannot be read ({exc.strerror})", source=source) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # swapped for a pipe since the stat
            raise InputError("is not a regular file (a pipe, a device...): give a file",
                             source=source)
        with os.fdopen(fd, "rb", closefd=False) as handle:
            raw = handle.read(limit + 1)
    except OSError as exc:
        raise InputError(f"cannot be read ({exc.strerror})", source=source) from None
    finally:
        os.close(fd)
    if len(raw) > limit:
        raise InputError(f"is too large (more than {limit} bytes)", source=source)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("is not a UTF-8 text file", source=source) from None


def read_document(path: str | Path) -> Any:
    """Read a YAML or JSON file (by extension; YAML otherwise). Errors name the file."""
    path = Path(path)
    source = str(path)
    text = read_text_file(path)
    if path.suffix.lower() == ".json":
        data = parse_json_text(text, source)
    else:
        data = parse_yaml_text(text, source)
    if data is None:
        raise InputError("the file is empty", source=source)
    return data
