"""Small, strict readers for the plain data (YAML/JSON) that players write by hand.

A :class:`Fields` wraps one mapping together with the file it came from and the dotted path
of the mapping inside that file, so every complaint can name ``file: field: problem``.
Unknown keys are errors, because a misspelt key silently ignored is a rule silently broken.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from solo_ops.core.errors import InputError, clip, excerpt

_MISSING = object()


def join_path(base: str, key: str | int) -> str:
    """Extend a dotted field path: ``join_path("models", 2) == "models[2]"``."""
    if isinstance(key, int):
        return f"{base}[{key}]"
    key = clip(str(key))  # a field named by a megabyte-long key stays one short line
    return f"{base}.{key}" if base else key


class Fields:
    """A checked view of one mapping: typed getters that raise :class:`InputError`."""

    def __init__(self, data: Any, source: str | None, path: str = ""):
        if not isinstance(data, Mapping):
            raise InputError(
                f"expected a mapping of keys to values, got {type_name(data)}",
                source=source,
                field=path or None,
            )
        self.data = data
        self.source = source
        self.path = path

    # -- errors -----------------------------------------------------------------------------
    def error(self, key: str | int | None, message: str) -> InputError:
        """An :class:`InputError` for ``key`` (or the mapping itself when ``key`` is None)."""
        field = join_path(self.path, key) if key is not None else (self.path or None)
        return InputError(message, source=self.source, field=field)

    def only(self, allowed: Iterable[str]) -> Fields:
        """Reject keys not in ``allowed`` (a typo must not pass silently)."""
        allowed = set(allowed)
        for key in self.data:
            if key not in allowed:
                raise self.error(
                    str(key), f"unknown key (expected one of: {', '.join(sorted(allowed))})"
                )
        return self

    # -- getters ----------------------------------------------------------------------------
    def has(self, key: str) -> bool:
        return key in self.data and self.data[key] is not None

    def raw(self, key: str, default: Any = _MISSING) -> Any:
        if key not in self.data or self.data[key] is None:
            if default is _MISSING:
                raise self.error(key, "is required")
            return default
        return self.data[key]

    def text(self, key: str, default: Any = _MISSING) -> Any:
        value = self.raw(key, default)
        if value is default and default is not _MISSING:
            return value
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise self.error(key, f"expected text, got {type_name(value)}")
        value = str(value).strip()
        if not value:
            raise self.error(key, "must not be empty")
        return value

    def number(
        self,
        key: str,
        default: Any = _MISSING,
        *,
        minimum: float | None = None,
        maximum: float | None = None,
        positive: bool = False,
    ) -> Any:
        value = self.raw(key, default)
        if value is default and default is not _MISSING:
            return value
        return check_number(
            value, self.source, join_path(self.path, key), minimum, maximum, positive
        )

    def integer(
        self,
        key: str,
        default: Any = _MISSING,
        *,
        minimum: int | None = None,
        maximum: int | None = None,
    ) -> Any:
        value = self.raw(key, default)
        if value is default and default is not _MISSING:
            return value
        return check_integer(value, self.source, join_path(self.path, key), minimum, maximum)

    def boolean(self, key: str, default: Any = _MISSING) -> Any:
        value = self.raw(key, default)
        if value is default and default is not _MISSING:
            return value
        if not isinstance(value, bool):
            raise self.error(key, f"expected true or false, got {excerpt(value)}")
        return value

    def choice(self, key: str, options: Iterable[str], default: Any = _MISSING) -> Any:
        value = self.raw(key, default)
        if value is default and default is not _MISSING:
            return value
        options = list(options)
        if not isinstance(value, str) or value not in options:
            raise self.error(
                key, f"unknown value {excerpt(value)} (expected one of: {', '.join(options)})"
            )
        return value

    def mapping(self, key: str, default: Any = _MISSING) -> Any:
        value = self.raw(key, default)
        if value is default and default is not _MISSING:
            return value
        return Fields(value, self.source, join_path(self.path, key))

    def sequence(self, key: str, default: Any = _MISSING) -> Any:
        value = self.raw(key, default)
        if value is default and default is not _MISSING:
            return value
        if not isinstance(value, (list, tuple)):
            raise self.error(key, f"expected a list, got {type_name(value)}")
        return list(value)

    def point(self, key: str, default: Any = _MISSING) -> Any:
        value = self.raw(key, default)
        if value is default and default is not _MISSING:
            return value
        return check_point(value, self.source, join_path(self.path, key))

    def points(self, key: str, *, at_least: int = 1) -> list[tuple[float, float]]:
        values = self.sequence(key)
        if len(values) < at_least:
            raise self.error(key, f"needs at least {at_least} points, got {len(values)}")
        where = join_path(self.path, key)
        return [check_point(v, self.source, join_path(where, i)) for i, v in enumerate(values)]


class Ids:
    """The ids used so far in one document (a board's features, a scenario's models and
    units): a second use of one is an error naming both places."""

    def __init__(self, source: str | None) -> None:
        self.source = source
        self.seen: dict[str, tuple[str, str]] = {}  # id_key -> (the id as written, where)

    def claim(self, identifier: str, where: str) -> None:
        """Record ``identifier`` as used at ``where``; refuse it if it is already used (ids
        are compared ignoring case, as answers match them: :func:`~solo_ops.core.names.id_key`)
        or is no single word (:func:`~solo_ops.core.names.id_problem`)."""
        from solo_ops.core.names import id_key, id_problem

        problem = id_problem(identifier)
        if problem is not None:
            raise InputError(problem, source=self.source, field=where)
        key = id_key(identifier)
        if key in self.seen:
            first, used = self.seen[key]
            also = "" if first == identifier else f" as {excerpt(first)}; ids match ignoring case"
            raise InputError(f"duplicate id {excerpt(identifier)} (also used at {used}{also})",
                             source=self.source, field=where)
        self.seen[key] = (identifier, where)


def type_name(value: Any) -> str:
    """A player-friendly name for the YAML type of ``value``."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return f"the number {excerpt(value)}"
    if isinstance(value, str):
        return f"the text {excerpt(value)}"
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, (list, tuple)):
        return "a list"
    return type(value).__name__


def check_number(
    value: Any,
    source: str | None,
    field: str | None,
    minimum: float | None = None,
    maximum: float | None = None,
    positive: bool = False,
) -> float:
    """Return ``value`` as a finite float or raise an :class:`InputError` naming ``field``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError(f"expected a number, got {type_name(value)}", source=source, field=field)
    try:
        value = float(value)
    except OverflowError:
        raise InputError(f"number too large ({excerpt(value)})", source=source,
                         field=field) from None
    if not math.isfinite(value):
        raise InputError(f"expected a finite number, got {value}", source=source, field=field)
    if positive and value <= 0:
        raise InputError(f"must be greater than 0, got {value:g}", source=source, field=field)
    if minimum is not None and value < minimum:
        raise InputError(f"must be at least {minimum:g}, got {value:g}", source=source, field=field)
    if maximum is not None and value > maximum:
        raise InputError(f"must be at most {maximum:g}, got {value:g}", source=source, field=field)
    return value


def check_integer(
    value: Any,
    source: str | None,
    field: str | None,
    minimum: int | None = None,
    maximum: int | None = None,
) -> int:
    """Return ``value`` as an int (whole numbers only) or raise an :class:`InputError`."""
    if (isinstance(value, bool) or not isinstance(value, (int, float))
            or (isinstance(value, float) and not value.is_integer())):
        raise InputError(
            f"expected a whole number, got {type_name(value)}", source=source, field=field
        )
    value = int(value)
    if minimum is not None and value < minimum:
        raise InputError(f"must be at least {minimum}, got {excerpt(value)}", source=source,
                         field=field)
    if maximum is not None and value > maximum:
        raise InputError(f"must be at most {maximum}, got {excerpt(value)}", source=source,
                         field=field)
    return value


def check_point(value: Any, source: str | None, field: str | None) -> tuple[float, float]:
    """Return ``[x, y]`` as a float pair or raise an :class:`InputError`."""
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise InputError(
            f"expected a point [x, y], got {type_name(value)}", source=source, field=field
        )
    x = check_number(value[0], source, f"{field}[0]" if field else "[0]")
    y = check_number(value[1], source, f"{field}[1]" if field else "[1]")
    return (x, y)


def parse_point_text(text: str, option: str) -> tuple[float, float]:
    """Parse ``"X,Y"`` from the command line; errors name the option (e.g. ``--from``)."""
    parts = [p.strip() for p in str(text).split(",")]
    if len(parts) != 2:
        raise InputError(f"expected X,Y, got {excerpt(text)}", source=option)
    try:
        x, y = float(parts[0]), float(parts[1])
    except ValueError:
        raise InputError(f"expected two numbers X,Y, got {excerpt(text)}",
                         source=option) from None
    if not (math.isfinite(x) and math.isfinite(y)):
        raise InputError(f"expected finite numbers, got {excerpt(text)}", source=option)
    return (x, y)


def read_links(value: Any, source: str) -> dict[str, Any] | None:
    """A save's ``links`` (the table's links, :mod:`solo_ops.session.links`; in game and
    campaign saves alike) checked: ``None``, or ``{"id", "host", "players": {name: token}}``
    with every value a short text (a damaged entry is one error naming the field)."""
    if value is None:
        return None
    players = value.get("players") if isinstance(value, dict) else None
    texts = [value.get("id"), value.get("host")] if isinstance(value, dict) else []
    if not isinstance(players, dict) or not all(
            isinstance(t, str) and 8 <= len(t) <= 64 for t in [*texts, *players.values()]) \
            or not all(isinstance(k, str) for k in players):
        raise InputError("links must be {id, host, players: {NAME: TOKEN}} with tokens as text",
                         source=source, field="links")
    return {"id": value["id"], "host": value["host"], "players": dict(players)}
