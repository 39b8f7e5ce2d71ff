"""The indented JSON text a save is written as, without encoding again what did not change.

A game is saved after every answer (:func:`solo_ops.io.persistence.save_json`), as
``json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False)``: Python's indenting
encoder is pure Python (its C encoder cannot indent in 3.11), about 5.5 ms for a 90 KB save, and
most of a save does not change from one answer to the next (the scenario, a quarter of it, never
does; the checkpoint only every few steps). :func:`indented_json` gives the same text, byte for
byte: each top-level value is encoded by json's C encoder in compact form (seven times faster),
and that compact text keys the value's indented text, remembered from an earlier save.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

MEMO_CHARS = 8 * 1024 * 1024
"""Most characters the remembered texts hold together (compact and indented); forgotten all
at once past it."""
_MEMO: dict[str, str] = {}
_memo_chars = 0


def _dumps(value: Any) -> str:
    """json's own indented text, as a save writes it (and the answer for anything unusual)."""
    return json.dumps(value, indent=2, ensure_ascii=False, allow_nan=False)


def _indented(value: Any) -> str:
    """:func:`_dumps` of ``value`` as the value of a top-level key: every line after its first
    indented two more spaces (json writes a nested value so, and no string holds a raw
    newline: json escapes it)."""
    return _dumps(value).replace("\n", "\n  ")


def _value_text(value: Any) -> str:
    """The indented text of one top-level value, remembered by its compact text (which fixes
    the structure, the order of keys and every scalar's text, hence the indented text)."""
    global _memo_chars
    if not isinstance(value, (dict, list)) or not value:
        return _indented(value)
    compact = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ": "))
    text = _MEMO.get(compact)
    if text is None:
        text = _indented(value)
        size = len(compact) + len(text)
        if _memo_chars + size > MEMO_CHARS:
            _MEMO.clear()
            _memo_chars = 0
        if size <= MEMO_CHARS // 4:
            _MEMO[compact] = text
            _memo_chars += size
    return text


def indented_json(document: Mapping[str, Any]) -> str:
    """``json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False)``, the same text,
    for a mapping with text keys; its top-level values' texts remembered between calls.
    Anything else (a key that is not text, a value json refuses) is left to ``json.dumps``
    itself, so the error is json's own."""
    if type(document) is not dict or not document or any(type(k) is not str for k in document):
        return _dumps(document)
    try:
        items = [f"{json.dumps(key, ensure_ascii=False)}: {_value_text(value)}"
                 for key, value in document.items()]
    except (TypeError, ValueError, RecursionError):
        return _dumps(document)
    return "{\n  " + ",\n  ".join(items) + "\n}"
