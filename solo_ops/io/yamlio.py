"""Reading the YAML and JSON files players write: opened by :mod:`solo_ops.io.reading` (regular
files only, at most the ``document`` limit of :data:`solo_ops.core.limits.FILES`), parsed
strictly by :mod:`solo_ops.core.documents` (see "Limits of the files" in ``docs/guide.md``).
Every failure becomes an :class:`~solo_ops.core.errors.InputError` naming the file and, when
known, the line or the field.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from solo_ops.core.documents import parse_json_text, parse_yaml_text
from solo_ops.core.errors import InputError
from solo_ops.io.reading import read_text


def read_text_file(path: str | Path, kind: str = "document") -> str:
    """The UTF-8 text of a regular file of at most the limit of ``kind``, or an
    :class:`InputError` (a named pipe, a device such as ``/dev/zero`` or a folder is refused at
    once instead of hanging or reading forever)."""
    return read_text(path, kind)


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
