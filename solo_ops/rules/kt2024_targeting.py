"""Kill Team 2024 targeting and movement rules: the weapon rules that do not change dice.

Range, Silent, Heavy, Limited, Seek, Blast, Torrent, the distance form of Devastating and
Vantage, answered as data the engine and the AI ask before and after an attack.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from solo_ops.core.model import Weapon


def in_range(weapon: Weapon, distance: float) -> bool:
    """Range x (and the weapon's own range): only targets within it are valid."""
    reach = weapon.effective_range
    return reach is None or distance <= reach + 1e-9


def may_shoot_while_concealed(weapon: Weapon) -> bool:
    """Silent: the operative can shoot with this weapon while it has a Conceal order."""
    return weapon.has("silent")


def heavy_allowed_moves(weapon: Weapon) -> tuple[str, ...] | None:
    """Heavy: None if the weapon is not Heavy; else the moves still allowed in the activation
    it shoots (before or after): none for plain Heavy, ``("dash",)`` for Heavy (Dash only)."""
    rule = weapon.rule("heavy")
    if rule is None:
        return None
    return (str(rule.value),) if rule.value else ()


def may_shoot_after_move(weapon: Weapon, moved_how: str | None) -> bool:
    """Heavy: not in an activation in which the operative moved (unless the move was the one
    Heavy (x) allows). Guard shots (out of activation) are unaffected: pass ``None``."""
    allowed = heavy_allowed_moves(weapon)
    return allowed is None or moved_how is None or moved_how in allowed


def uses_left(weapon: Weapon, used: int) -> int | None:
    """Limited x: uses left (an action with several targets counts once); None: unlimited."""
    rule = weapon.rule("limited")
    return None if rule is None else max(0, int(rule.value) - used)


def valid_target(weapon: Weapon, *, visible: bool, concealed: bool, in_cover: bool,
                 cover_light_only: bool = False) -> bool:
    """Whether an operative may be shot: Engaged ones if visible; Concealed ones if visible and
    not in cover. Seek: terrain gives no cover for this; Seek Light: light terrain gives none.
    Seek changes targeting only: a target in cover still keeps its cover save."""
    if not visible:
        return False
    if not concealed:
        return True
    if weapon.has("seek"):
        return True
    if weapon.has("seek_light") and cover_light_only:
        return True
    return not in_cover


@dataclass(frozen=True)
class Secondary:
    """How a weapon picks extra targets after the primary one.

    ``kind`` is ``blast`` or ``torrent``; ``radius`` the inches from the primary target. Blast:
    enemies within ``radius`` and visible to the primary target, ignoring Conceal, each shot in
    cover / obscured exactly when the primary was. Torrent: any other valid targets (of the
    shooter) within ``radius``, each with its own cover. Each extra target is a full attack.
    """

    kind: str
    radius: float
    needs_visible_to_primary: bool
    needs_valid_for_shooter: bool
    cover_from_primary: bool


def secondary_rule(weapon: Weapon) -> Secondary | None:
    """The Blast or Torrent rule of ``weapon`` as data (Blast first if it had both)."""
    blast = weapon.rule("blast")
    if blast is not None:
        return Secondary("blast", float(blast.value), True, False, True)
    torrent = weapon.rule("torrent")
    if torrent is not None:
        return Secondary("torrent", float(torrent.value), False, True, False)
    return None


@dataclass(frozen=True)
class Candidate:
    """Another operative near the primary target, as the engine sees it."""

    id: str
    distance_to_primary: float
    visible_to_primary: bool
    valid_for_shooter: bool
    enemy_of_shooter: bool = True


def secondary_targets(weapon: Weapon, candidates: Iterable[Candidate]) -> list[str]:
    """Ids of the extra targets Blast or Torrent adds (in the order given)."""
    rule = secondary_rule(weapon)
    if rule is None:
        return []
    out = []
    for c in candidates:
        if not c.enemy_of_shooter or c.distance_to_primary > rule.radius + 1e-9:
            continue
        if rule.needs_visible_to_primary and not c.visible_to_primary:
            continue
        if rule.needs_valid_for_shooter and not c.valid_for_shooter:
            continue
        out.append(c.id)
    return out


def devastating_splash(weapon: Weapon) -> tuple[float, int] | None:
    """The distance form of Devastating (``x" Devastating y``): ``(x, y)``; each retained crit
    also inflicts y on every other operative (either side) visible to and within x of the
    target. None for plain Devastating."""
    rule = weapon.rule("devastating")
    if rule is not None and isinstance(rule.value, tuple):
        return float(rule.value[0]), int(rule.value[1])
    return None


def vantage_accurate(height_above: float) -> int:
    """Vantage against an Engaged target: Accurate 1 from 2" above, Accurate 2 from 4"."""
    if height_above >= 4:
        return 2
    if height_above >= 2:
        return 1
    return 0


def vantage_accuracy(decks: Any, shooter_at: Sequence[float], target_at: Sequence[float],
                     engaged: bool) -> int:
    """Vantage's Accurate for a shot from ``shooter_at`` at a target at ``target_at`` (001/002
    Vantage: "Engaged targets ... Accurate 1 if 2" above Accurate 2 if 4" above"): the
    shooter's height above the floor when the target stands on the floor on an Engage order
    (``engaged``), by the board's ``decks`` (a :class:`~solo_ops.geometry.perches.Decks`, None
    without heights); 0 otherwise. The one reading of it, for the dice and the enemy's
    planner alike."""
    if not engaged or decks is None:
        return 0
    up = decks.height_at(np.array([shooter_at, target_at], dtype=float))
    return vantage_accurate(float(up[0])) if up[1] == 0.0 else 0
