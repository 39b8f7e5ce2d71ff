"""Names as players expect them: numbered names in order (``hatch-2`` before ``hatch-10``),
and several names listed as a sentence lists them.

A name's trailing number is compared as a number, the rest as text, so ids written by hand
(``c1`` .. ``c12``, ``door-1`` .. ``door-11``) come out in the order they were counted. The
engine orders its hidden counters by it (which one a spotter finds first), so it is part of the
game: the key never changes for a name already in use.
"""

from __future__ import annotations

from collections.abc import Sequence


def natural_key(name: str) -> tuple[str, int]:
    """(the name without its trailing digits, those digits as a number, 0 when none)."""
    head = name.rstrip("0123456789")
    tail = name[len(head):]
    return (head, int(tail) if tail else 0)


def join_names(names: Sequence[str]) -> str:
    """Names as a sentence lists them: "a", "a and b", "a, b and c"."""
    if len(names) <= 2:
        return " and ".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def id_problem(identifier: str) -> str | None:
    """Why ``identifier`` cannot be the id of a model, unit or feature, or None when it can:
    an answer names things by id word by word (``move kell 3 toward obj-2``), so an id is one
    word, with no space and no comma (a comma joins a point's two numbers)."""
    if not identifier.strip():
        return "an id cannot be empty"
    if any(ch.isspace() for ch in identifier) or "," in identifier:
        return (f"id {identifier!r} must be one word, without spaces or commas (answers name "
                "things by id, word by word)")
    return None


def id_key(identifier: str) -> str:
    """The form two ids are compared in: answers match ids ignoring case, so ``KELL`` and
    ``kell`` are the same id (docs/rules.md) and may not both be used."""
    return identifier.casefold()


HOST = "host"
"""The name a served game gives its host's link (:mod:`solo_ops.session.links`): no player may
be called so, whatever the case, or that player's link would answer for everyone."""


def reserved_player(name: str) -> str | None:
    """Why ``name`` cannot be a player's name (it is the host's), or None when it can."""
    if name.strip().casefold() == HOST:
        return f"'{name}' is the name of the host's link in a served game; choose another name"
    return None
