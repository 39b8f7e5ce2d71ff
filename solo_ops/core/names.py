"""The order players expect of numbered names: ``hatch-2`` before ``hatch-10``.

A name's trailing number is compared as a number, the rest as text, so ids written by hand
(``c1`` .. ``c12``, ``door-1`` .. ``door-11``) come out in the order they were counted. The
engine orders its hidden counters by it (which one a spotter finds first), so it is part of the
game: the key never changes for a name already in use.
"""

from __future__ import annotations


def natural_key(name: str) -> tuple[str, int]:
    """(the name without its trailing digits, those digits as a number, 0 when none)."""
    head = name.rstrip("0123456789")
    tail = name[len(head):]
    return (head, int(tail) if tail else 0)
