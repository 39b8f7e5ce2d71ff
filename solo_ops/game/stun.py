"""Stun in play, for either side: an operative stunned by a weapon (a shot's or a fight's Stun
rule) loses 1 APL until the end of its next activation (:func:`stun`), and the penalty ends
with that activation (:func:`end_activation_stun`, asked by the engine).
"""

from __future__ import annotations

from typing import Any

from solo_ops.game.state import Operative, State


def stun(state: State, ids: list[str], why: str, *,
         acting: frozenset[str] = frozenset()) -> list[dict[str, Any]]:
    """Stun: each operative loses 1 APL (not cumulative) from now until the end of its next
    activation. One stunned during its own activation (``acting``, or the active player
    operative) keeps the penalty through its next one too."""
    events: list[dict[str, Any]] = []
    for ident in dict.fromkeys(ids):
        op = state.operatives.get(ident)
        if op is None or not op.on_table:
            continue
        op.apl_penalty = 1
        if ident in acting or ident == state.active_operative:
            op.stun_carries = True
        events.append({"type": "stunned", "operative": op.id, "why": why,
                       "apl": max(1, op.profile.apl - op.apl_penalty)})
    return events


def end_activation_stun(op: Operative) -> None:
    """At the end of ``op``'s activation its Stun ends, unless it was stunned during it."""
    op.apl_penalty = 1 if op.stun_carries else 0
    op.stun_carries = False
