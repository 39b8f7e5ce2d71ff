"""The seal of a saved document: what proves it is the document solo-ops wrote.

A save (a game's, a campaign's) carries a ``seal``: SHA-256 over the canonical JSON of the
whole document without the seal (``whole``), and short digests of its parts down to ``depth``
path segments (``parts``), so a document edited after it was written is told apart from one
a later solo-ops reads differently, and the first part that changed is named
(``squads[0].models[2].state``). The seal covers every key a document holds, whatever wrote
it: a field added later is sealed with no change here.

The items of a list are chained: an item's digest covers the digest of the item before it
(so a campaign's history is a hash chain; an entry removed, moved or edited changes the digest
of every entry after it, and the first one is named).

The seal is a checksum, not a signature: it catches a save edited by hand or by a tool that
does not know it, and a forger who recomputes it still has to pass every check of the reader
(a game's saves replay from their seed; a campaign's squads are checked as a squad file is).
Pure functions, no files.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping
from typing import Any

SEAL_KEY = "seal"
SEAL_VERSION = 1
PART_DIGITS = 12
"""Hex digits kept of each part's digest (the whole document's is kept whole)."""


def canonical(data: Any) -> bytes:
    """The canonical JSON of ``data``: sorted keys, no spaces, UTF-8 (what every hash of a
    saved document is over)."""
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"),
                      allow_nan=False).encode("utf-8", "surrogatepass")


def _digest(previous: str, value: Any) -> str:
    return hashlib.sha256(previous.encode("ascii") + canonical(value)).hexdigest()


def _join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def _parts(value: Any, path: str, depth: int, previous: str = "") -> Iterator[tuple[str, str]]:
    """``(path, digest)`` of ``value`` and of its parts down to ``depth`` more segments, the
    container before what it holds; ``previous``: the digest of the list item before."""
    if path:
        yield path, _digest(previous, value)
    if depth <= 0:
        return
    if isinstance(value, Mapping):
        for key in sorted(value, key=str):
            yield from _parts(value[key], _join(path, str(key)), depth - 1)
    elif isinstance(value, list):
        before = ""
        for index, item in enumerate(value):
            here = _join(path, index)
            for found in _parts(item, here, depth - 1, before):
                if found[0] == here:
                    before = found[1]
                yield found


def seal(document: Mapping[str, Any], depth: int) -> dict[str, Any]:
    """The seal of ``document`` (its own ``seal`` left out; ``depth`` at least 1): see the
    module docstring. ``whole`` is SHA-256 over the digests of the document's keys, so the
    document is serialised once per level of parts, not once more for the whole."""
    depth = max(1, depth)
    body = {k: v for k, v in document.items() if k != SEAL_KEY}
    parts = dict(_parts(body, "", depth))
    top = {key: parts[key] for key in body}
    return {"version": SEAL_VERSION, "depth": depth,
            "whole": hashlib.sha256(canonical(top)).hexdigest(),
            "parts": {path: digest[:PART_DIGITS] for path, digest in parts.items()}}


def sealed(document: dict[str, Any], depth: int) -> dict[str, Any]:
    """``document`` with its seal (computed last, over everything else it holds)."""
    document[SEAL_KEY] = seal(document, depth)
    return document


def problem(document: Mapping[str, Any]) -> tuple[str, str] | None:
    """``(field, why)`` when ``document`` is not the one its seal was made for (edited after it
    was written), naming the first part that differs; None when it is. A document without a
    seal is the caller's to judge (one written before seals)."""
    saved = document.get(SEAL_KEY)
    if not isinstance(saved, Mapping) or saved.get("version") != SEAL_VERSION \
            or not isinstance(saved.get("depth"), int) or isinstance(saved.get("depth"), bool) \
            or not isinstance(saved.get("parts"), Mapping) \
            or not isinstance(saved.get("whole"), str):
        return SEAL_KEY, "the seal is damaged"
    depth = max(1, min(int(saved["depth"]), 16))
    now = seal(document, depth)
    if now["whole"] == saved["whole"]:
        return None
    recorded: Mapping[str, Any] = saved["parts"]
    parts: dict[str, str] = now["parts"]
    changed = [p for p, d in parts.items() if recorded.get(p) != d]
    for path in changed:  # containers first: the first part added, or the deepest edited
        if path not in recorded:
            return path, "was added after it was saved (it does not match the file's seal)"
        if not any(p != path and _within(p, path) for p in changed):
            return path, "was edited after it was saved (it does not match the file's seal)"
    removed = [p for p in recorded if p not in parts]
    if removed:
        return removed[0], "was removed after it was saved (the file's seal has it)"
    return SEAL_KEY, "the seal does not match the file (it was edited)"


def _within(path: str, container: str) -> bool:
    return path.startswith(container + ".") or path.startswith(container + "[")
