"""Error types that carry enough context to be shown to a player as one clear line.

Every problem caused by what a player wrote (a file, a command-line value, a prompt answer)
is raised as an :class:`InputError` naming where it came from (``source``: a file name or
``--option``), which field (``field``: a dotted path such as ``features[3].polygon``) and what
is wrong. The CLI turns it into a single stderr line and a non-zero exit, never a traceback.
"""

from __future__ import annotations

from typing import Any

EXCERPT_CHARS = 60
"""The most characters of a player's value (or of another file) an error line repeats."""


def excerpt(value: Any, limit: int = EXCERPT_CHARS) -> str:
    """``repr(value)`` cut to ``limit`` characters (``…`` marks the cut), on one line.

    Every error line that quotes what a player wrote goes through this, so a 4,000-digit number,
    a megabyte of text or a whole document never floods the terminal. Large numbers are not
    even converted to text in full (Python refuses above 4,300 digits).
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 200:
        return f"a {value.bit_length()}-bit number"
    if isinstance(value, (dict, list, tuple, set)):
        text = _short_container(value)
    else:
        try:
            text = repr(value)
        except (ValueError, RecursionError):
            text = f"a {type(value).__name__}"
    text = text.replace("\n", " ").replace("\r", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def clip(text: str, limit: int = EXCERPT_CHARS) -> str:
    """Plain ``text`` (a message from elsewhere, a line of another file) cut to ``limit``
    characters on one line; like :func:`excerpt` but without quotes."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _short_container(value: Any) -> str:
    """A short text of a list or mapping without rendering all of it."""
    kind = "mapping" if isinstance(value, dict) else "list"
    return f"a {kind} of {len(value)} item{'s' if len(value) != 1 else ''}"


class SoloOpsError(Exception):
    """Base class of every error solo-ops raises on purpose."""


class InputError(SoloOpsError):
    """Something a player supplied is wrong: names the source, the field and the problem."""

    def __init__(self, message: str, *, source: str | None = None, field: str | None = None):
        self.message = message
        self.source = source
        self.field = field
        super().__init__(self.line())

    def line(self) -> str:
        """The one-line form: ``source: field: message`` with absent parts left out."""
        parts = [p for p in (self.source, self.field) if p]
        return " ".join(": ".join([*parts, self.message]).splitlines())

    def within(self, source: str | None = None, prefix: str | None = None) -> InputError:
        """Return a copy located inside ``source`` and under the field path ``prefix``."""
        field = self.field
        if prefix:
            field = f"{prefix}.{field}" if field and not field.startswith("[") else (
                f"{prefix}{field}" if field else prefix
            )
        return InputError(self.message, source=source or self.source, field=field)


class RuleError(SoloOpsError):
    """An action that the rules forbid (moving through a wall, shooting while concealed...)."""


class SaveError(SoloOpsError):
    """A save file that cannot be written or read safely."""
