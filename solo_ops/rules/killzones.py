"""Killzone targeting and weapon rules of the Kill Team 2024 card, one copy for both sides.

Pure: each function reads a board (:class:`solo_ops.geometry.board.Board`) and positions and
returns an answer; the players' shots (:mod:`solo_ops.game.actions`), the AI's target choice
(:func:`solo_ops.ai.shooting.valid_shot`) and the engine's rolled attacks
(:mod:`solo_ops.game.attacks`) all ask here.

Bheta-Decima (002): "Restricted Targeting: If 4" of more distance crosses hazardous then target
is not valid. Vantage to Floor: When attacker or defender is on Vantage, targets are not valid
if Visible through the footprint of a Gantry other than the Vantage point mentioned already.
Vantage to Vantage: Restricted targetting over hazardous areas does not apply when both
Operatives are on Vantage." Read with the straight line between the two models' centres: its
length inside ``hazardous`` footprints, and whether it crosses the footprint of a gantry (a
``vantage`` + ``accessible`` feature that is not ``heavy`` or ``blocking``: the card's
thermometric condensers are Heavy) other than the ones the two models stand on. A model is on
vantage when its centre is inside a ``vantage`` feature with a ``height`` (not on its outline).

Volkus (002): "Add Lethal 5+ to Blast, Torrent, Devastating weapons when targets wholly within
the STRONGHOLD. Defenders inside the stronghold resolve first when FIGHTING enemies outside."
The stronghold is the board's ``stronghold`` feature(s) (a footprint with that trait and no
other effect).
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from shapely.geometry import LineString, Point

from solo_ops.geometry import shapes

_IN_PLAY: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()
_MADE: weakref.WeakSet[Any] = weakref.WeakSet()
"""The boards :func:`board_in_play` made (each is its own board in play)."""

BHETA_DECIMA = "bheta-decima"
VOLKUS = "volkus"
HAZARD_LIMIT = 4.0  # inches of the line over hazardous areas that make a target not valid
STRONGHOLD_LETHAL = 5  # Volkus: Lethal 5+ against targets wholly within the stronghold


def board_in_play(board: Any, edition: str) -> Any:
    """The board as the killzone's rules make it in ``edition``: Kill Team 2024 on Volkus,
    "Doors are Accessible and Heavy" (002 Volkus) -- a door is no wall and is never opened:
    it is a Heavy feature a model moves through for Accessible's 1" (001 "Accessible - Costs
    1" to move through"); every other board (and Kill Team 2018, where a door is opened in the
    movement phase, 004) is the board itself. The same object for the same board (a compiled
    terrain cache is shared by it)."""
    if edition != "kt2024" or getattr(board, "killzone", None) != VOLKUS:
        return board
    if board in _MADE:  # a board already in play is itself in play (the same object)
        return board
    made = _IN_PLAY.get(board)
    if made is None:
        features = tuple(
            replace(f, traits=frozenset({"accessible", "heavy"}), open=False,
                    label=f.label or "door")
            if f.is_portal and not f.has("hatch") else f for f in board.features)
        made = _IN_PLAY[board] = replace(board, features=features)
        _MADE.add(made)
    return made


def _vantage_under(board: Any, at: Sequence[float]) -> list[Any]:
    """The ``vantage`` features with a height a model whose centre is at ``at`` stands up on
    (:func:`~solo_ops.geometry.shapes.stands_on`: not on the outline, where its climb was
    never paid)."""
    x, y = float(at[0]), float(at[1])
    return [f for f in board.features if f.has("vantage") and f.height and not f.is_line
            and shapes.stands_on(f, x, y)]


def _is_gantry(feature: Any) -> bool:
    t = feature.effective_traits
    return "vantage" in t and "accessible" in t and not (t & {"heavy", "blocking"}) \
        and not feature.is_line


def target_refusal(board: Any, a_at: Sequence[float], b_at: Sequence[float]) -> str | None:
    """Why a model at ``b_at`` is not a valid target for one at ``a_at`` under the board's
    killzone rules (None: the killzone does not forbid it). Bheta-Decima only."""
    if getattr(board, "killzone", None) != BHETA_DECIMA:
        return None
    line = LineString([(float(a_at[0]), float(a_at[1])), (float(b_at[0]), float(b_at[1]))])
    on_a, on_b = _vantage_under(board, a_at), _vantage_under(board, b_at)
    if not (on_a and on_b):
        hazards = [f.shape for f in board.features if f.has("hazardous") and not f.is_line]
        crossed = sum(line.intersection(h).length for h in hazards)
        if crossed >= HAZARD_LIMIT - 1e-9:
            return (f"{crossed:.1f}\" of the line crosses hazardous areas (4\" or more: not a "
                    "valid target, Bheta-Decima)")
    if on_a or on_b:
        standing = {f.id for f in on_a + on_b}
        for f in board.features:
            if _is_gantry(f) and f.id not in standing and line.intersection(f.shape).length > 1e-9:
                return (f"seen through the footprint of {f.id}, a gantry (from or to vantage: "
                        "not a valid target, Bheta-Decima)")
    return None


def wholly_within_stronghold(board: Any, at: Sequence[float] | None, radius: float) -> bool:
    """Whether a base is wholly within the board's ``stronghold`` footprint (Volkus)."""
    if at is None or getattr(board, "killzone", None) != VOLKUS:
        return False
    base = Point(float(at[0]), float(at[1])).buffer(radius, 16)
    return any(f.has("stronghold") and not f.is_line and f.shape.covers(base)
               for f in board.features)


def stronghold_weapon(board: Any, weapon: Any, target_at: Sequence[float] | None,
                      target_radius: float) -> Any:
    """``weapon`` with Lethal 5+ when it is Blast, Torrent or Devastating and the target is
    wholly within the stronghold (Volkus); otherwise ``weapon`` unchanged (a better Lethal
    stays)."""
    if not any(weapon.has(name) for name in ("blast", "torrent", "devastating")):
        return weapon
    if not wholly_within_stronghold(board, target_at, target_radius):
        return weapon
    lethal = weapon.rule("lethal")
    if lethal is not None and int(lethal.value) <= STRONGHOLD_LETHAL:
        return weapon
    from solo_ops.core.model import parse_weapon_rule

    rules = tuple(r for r in weapon.rules if r.name != "lethal")
    return replace(weapon, rules=(*rules, parse_weapon_rule(f"lethal={STRONGHOLD_LETHAL}")))


def defender_first(board: Any, attacker_at: Sequence[float] | None, attacker_radius: float,
                   defender_at: Sequence[float] | None, defender_radius: float) -> bool:
    """Volkus: "Defenders inside the stronghold resolve first when FIGHTING enemies outside."
    (the defender wholly within the stronghold, the attacker not)."""
    return (wholly_within_stronghold(board, defender_at, defender_radius)
            and not wholly_within_stronghold(board, attacker_at, attacker_radius))
