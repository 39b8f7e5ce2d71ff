"""Error types that carry enough context to be shown to a player as one clear line.

Every problem caused by what a player wrote (a file, a command-line value, a prompt answer)
is raised as an :class:`InputError` naming where it came from (``source``: a file name or
``--option``), which field (``field``: a dotted path such as ``features[3].polygon``) and what
is wrong. The CLI turns it into a single stderr line and a non-zero exit, never a traceback.
"""

from __future__ import annotations


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
        return ": ".join([*parts, self.message])

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
