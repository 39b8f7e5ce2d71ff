"""The hash chain of an event log: every line's hash covers the one before, so a save that
records the chain's prints can name the first line of a log edited, removed or added after it
was written (``replay`` and resuming a game ask :func:`chain_difference`)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

PRINT_DIGITS = 16
"""Hex digits kept of each log line's chain hash in the save (the head is kept whole)."""


def chain_link(previous: str, line: bytes) -> str:
    """The chain hash of a log ``line`` (its exact bytes, newline included) after the line
    whose chain hash is ``previous`` (``""`` before the header): SHA-256 of both."""
    return hashlib.sha256(previous.encode("ascii") + line).hexdigest()


@dataclass(frozen=True)
class LogChain:
    """The hash chain of an event log: ``prints`` holds the first :data:`PRINT_DIGITS` hex
    digits of every line's chain hash (header first), ``head`` the last one whole. Each
    line's hash covers the one before, so no line can be edited, removed or added without
    changing every print after it and the head."""

    head: str = ""
    prints: tuple[str, ...] = ()

    def then(self, line: bytes) -> LogChain:
        """The chain once ``line`` is appended."""
        head = chain_link(self.head, line)
        return LogChain(head, (*self.prints, head[:PRINT_DIGITS]))

    def to_dict(self) -> dict[str, Any]:
        return {"head": self.head, "lines": list(self.prints)}

    @staticmethod
    def of(lines: list[bytes]) -> LogChain:
        """The chain of a whole log, given its lines' bytes."""
        head, prints = "", []
        for line in lines:
            head = chain_link(head, line)
            prints.append(head[:PRINT_DIGITS])
        return LogChain(head, tuple(prints))


def chain_difference(saved: Any, lines: list[bytes]) -> tuple[int, str] | None:
    """Where the log ``lines`` part from the chain the save recorded: ``(index, why)`` of the
    first line (0 is the header) that is not the one written at the table, the first line the
    save never saw, or the end of a log shorter than its record; None when they agree."""
    if not isinstance(saved, dict) or not isinstance(saved.get("lines"), list):
        return None
    recorded = saved["lines"]
    head = ""
    for i, line in enumerate(lines):
        head = chain_link(head, line)
        if i >= len(recorded):
            return i, "the save never recorded it (it was added after the game was saved)"
        if head[:PRINT_DIGITS] != recorded[i]:
            return i, "it is not the line the save recorded (edited after it was written)"
    if len(lines) < len(recorded):
        return len(lines), (f"the log ends after {len(lines)} lines; its save recorded "
                            f"{len(recorded)}")
    if head != saved.get("head"):
        return len(lines) - 1, "the log's last line is not the one the save recorded"
    return None
