"""Where the Pariah Nexus effects look on the board: the places their conditions name, and the
features they change for movement.

A place (:class:`~solo_ops.core.effects.Place`) names board features by trait or label, markers
by kind, or the objective markers: :func:`place_shapes` finds their shapes on a board.
:func:`terrain_changes` says which features the effects in force change for a move now (Power
Flux's divisors, Hazardous Conduit Flares' conduits, Dimensional Destabilisation's walls,
features the players removed): the game's terrain is built with them
(:meth:`solo_ops.game.definition.Game.terrain`). Below :mod:`solo_ops.game.definition`, so it
reads the board and the state only.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from shapely.geometry import Point
from shapely.geometry.base import BaseGeometry

from solo_ops.core.effects import Effect, Place
from solo_ops.game.state import State
from solo_ops.geometry.board import Board
from solo_ops.rules import pariah as rules
from solo_ops.rules.pariah import Situation


def _slug(text: str | None) -> str:
    return "-".join(str(text or "").lower().split())


@lru_cache(maxsize=256)
def place_shapes(board: Board, place: Place) -> tuple[tuple[str, BaseGeometry, bool], ...]:
    """``(id, shape, is_point)`` of everything ``place`` names on ``board``: features with
    its trait (as written on the board: a door is not a wall), markers of its kind and
    features labelled with those words, or the objective markers (points)."""
    out: list[tuple[str, BaseGeometry, bool]] = []
    if place.objective:
        return tuple((o.id, Point(o.at), True) for o in board.objectives)
    for f in board.features:
        if place.trait is not None and f.has(place.trait) and not f.is_portal:
            out.append((f.id, f.shape, False))
        elif place.kind is not None and _slug(f.label) == place.kind:
            out.append((f.id, f.shape, False))
    if place.kind is not None:
        out += [(m.id, Point(m.at), True) for m in board.markers if m.kind == place.kind]
    return tuple(out)


def terrain_changes(effects: Sequence[Effect], board: Board, state: State,
                    how: str | None = None) -> frozenset[tuple[str, str]]:
    """The features changed for movement now (:meth:`solo_ops.geometry.board.Board.with_changes`):
    those the players removed (Structural Transponder), those a move may not cross in this
    battle round (004 Power Flux "models cannot move on or through the petrific divisors"),
    and, for an Advance (``how``), those it may not cross (Hazardous Conduit Flares "When a
    model Advances, it cannot move on or through a starslave conduit") or may move through
    (Dimensional Destabilisation "Models can move through walls when they Advance")."""
    out: set[tuple[str, str]] = {(f, "remove") for f in state.removed_features}
    if not effects:
        return frozenset(out)
    sit = Situation(round=dict(state.round_effects))
    wanted = [("move", "blocked_by", "pitfall")]
    if how == "advance":
        wanted += [("advance_move", "blocked_by", "pitfall"),
                   ("advance_move", "through", "remove")]
    for to, key, change in wanted:
        for _, place in rules.places(effects, to, key, sit):
            out |= {(ident, change) for ident, _, _ in place_shapes(board, place)}
    return frozenset(out)
