"""Carrying a downed friend (RULES-NOTES "Carrying"): helpers the game loop calls.

They work on its operatives (:class:`solo_ops.game.state.Operative` has the fields they use,
:class:`Carrier`): :func:`start_carry`, :func:`carry_move_limit`, :func:`carry_move_allowance`,
:func:`counts_as_moved`, :func:`carried_to_safety`, :func:`drop_carried`.
"""

from __future__ import annotations

from typing import Any, Protocol

from solo_ops.core.errors import RuleError

CARRY_MOVE_LIMIT = 4.0


# -- carrying -----------------------------------------------------------------------------------
class Carrier(Protocol):
    """What the carrying helpers need of an operative (:class:`solo_ops.game.state.Operative`)."""

    id: str
    name: str
    down: bool
    carrying: str | None
    carried_by: str | None
    carried_to_safety: bool
    moved: bool


def start_carry(carrier: Carrier, downed: Carrier) -> dict[str, Any]:
    """``carrier`` has moved to its downed friend ``downed`` and picks it up.

    Sets ``carrier.carrying`` and ``downed.carried_by``; the carrier counts as having moved and
    its actions end for the turn (a Kill Team 2024 operative's AP are spent: ``ap_used`` is
    raised to its APL, when it has those fields). Returns an event for the game log. Raises
    :class:`RuleError` when the pick-up is not allowed. It does not check distance: the caller
    has moved the carrier into base contact (control range) first.
    """
    if getattr(carrier, "down", False):
        raise RuleError(f"{carrier.name} is down and cannot carry anyone")
    if not getattr(downed, "down", False):
        raise RuleError(f"{downed.name} is not down: only a downed friend can be carried")
    if getattr(carrier, "side", None) != getattr(downed, "side", None):
        raise RuleError(f"{downed.name} is not a friend of {carrier.name}")
    if carrier.id == downed.id:
        raise RuleError("a model cannot carry itself")
    if downed.carried_by is not None:
        raise RuleError(f"{downed.name} is already carried by {downed.carried_by}")
    if carrier.carrying is not None:
        raise RuleError(f"{carrier.name} is already carrying {carrier.carrying}")
    carrier.carrying = downed.id
    downed.carried_by = carrier.id
    carrier.moved = True
    profile = getattr(carrier, "profile", None)
    if hasattr(carrier, "ap_used") and profile is not None:
        carrier.ap_used = max(int(carrier.ap_used), int(profile.apl))
    return {"type": "carry", "operative": carrier.id, "carried": downed.id,
            "ends_actions": True, "counts_as_moved": True, "move_limit": CARRY_MOVE_LIMIT}


def carry_move_limit(carrier: Any = None) -> float:
    """How far a carrier may move in a turn: 4 inches (RULES-NOTES "Carrying")."""
    return CARRY_MOVE_LIMIT


def carry_move_allowance(op: Any, allowance: float) -> float:
    """The move ``op`` may still make: ``allowance``, capped for a carrier at 4" a turn less
    what it has moved this turn (``turn_move``): :func:`solo_ops.rules.reach.carry_cap`."""
    from solo_ops.rules import reach

    return reach.carry_cap(op, allowance)


def counts_as_moved(op: Any) -> bool:
    """Whether ``op`` counts as having moved (for shooting): a carrier always does."""
    return bool(getattr(op, "moved", False)) or getattr(op, "carrying", None) is not None


def carried_to_safety(op: Any, *, game_over: bool = True) -> bool:
    """Whether ``op`` was carried to safety: carried off the table (``carried_to_safety``),
    or — once the game is over — still being carried (``carried_by`` set)."""
    if getattr(op, "carried_to_safety", False):
        return True
    return game_over and getattr(op, "carried_by", None) is not None


def drop_carried(carrier: Carrier, carried: Carrier) -> None:
    """Break a carry (the carrier went down or put its friend down): neither is linked now."""
    if carrier.carrying == carried.id:
        carrier.carrying = None
    if carried.carried_by == carrier.id:
        carried.carried_by = None
