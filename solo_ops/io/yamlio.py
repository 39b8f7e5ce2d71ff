"""Reading the YAML and JSON documents players write: strict, and clear when they are broken.

The YAML loader is PyYAML's safe loader with one change: a key repeated in the same mapping is
an error (PyYAML would silently keep the last one, which for a d6 table means a lost face).
Every failure becomes an :class:`~solo_ops.core.errors.InputError` naming the file and, when the
parser knows it, the line.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from solo_ops.core.errors import InputError


class _StrictLoader(yaml.SafeLoader):
    """A safe loader that refuses duplicate keys."""


def _construct_mapping(loader: _StrictLoader, node: yaml.MappingNode, deep: bool = False) -> Any:
    seen: set[Any] = set()
    for key_node, _value in node.value:
        key = loader.construct_object(key_node, deep=deep)
        try:
            duplicate = key in seen
        except TypeError:
            duplicate = False
        if duplicate:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r}", key_node.start_mark
            )
        try:
            seen.add(key)
        except TypeError:
            pass
    return loader.construct_mapping(node, deep=deep)


_StrictLoader.add_constructor(
    yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping
)


def parse_yaml_text(text: str, source: str) -> Any:
    """Parse YAML (or JSON, which YAML reads too) and name ``source`` in any error."""
    try:
        return yaml.load(text, Loader=_StrictLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"line {mark.line + 1}" if mark is not None else None
        problem = exc.problem or exc.context or "malformed YAML"
        raise InputError(f"malformed YAML: {problem}", source=source, field=where) from None
    except yaml.YAMLError as exc:
        raise InputError(f"malformed YAML: {exc}", source=source) from None


def parse_json_text(text: str, source: str) -> Any:
    """Parse JSON and name ``source`` and the line in any error."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"malformed JSON: {exc.msg}", source=source,
                         field=f"line {exc.lineno}") from None


def read_document(path: str | Path) -> Any:
    """Read a YAML or JSON file (by extension; YAML otherwise). Errors name the file."""
    path = Path(path)
    source = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError("file not found", source=source) from None
    except IsADirectoryError:
        raise InputError("is a folder, not a file", source=source) from None
    except UnicodeDecodeError:
        raise InputError("is not a UTF-8 text file", source=source) from None
    except OSError as exc:
        raise InputError(f"cannot be read ({exc.strerror})", source=source) from None
    if path.suffix.lower() == ".json":
        data = parse_json_text(text, source)
    else:
        data = parse_yaml_text(text, source)
    if data is None:
        raise InputError("the file is empty", source=source)
    return data
