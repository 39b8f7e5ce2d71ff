"""Objective markers that move: Kill Team 2024's Pick Up and Place Down (card 001).

A board's objective marker flagged ``portable: true`` may be picked up by the active operative
that controls it (1 AP) and placed down again within its control range (1 AP, never in the same
activation as the Pick Up). While carried, the marker is at its carrier, which is "carrying,
contesting, and controlling" it: its side controls that marker (:func:`carrier`, read by
:func:`solo_ops.game.scoring.objective_control`). A carrier that is incapacitated places it
down where it fell, for 0 AP (:func:`drop`, called by :func:`solo_ops.game.downed.take_down`).

Where a marker is lives in the state: ``Operative.marker`` (the carrier's, a string) and
``State.markers_at`` (a marker placed down away from its board position), both plain data that
checkpoints keep. The players' answers ``pickup MARKER`` and ``placedown [X,Y]`` reach here
through :mod:`solo_ops.game.actions`; the enemy AI never picks a marker up (``docs/rules.md``).
These functions check (``*_check``, raising :class:`~solo_ops.core.errors.RuleError` before any
change) or apply; they never spend AP (the caller does).
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from solo_ops.core.errors import RuleError
from solo_ops.game.state import ENEMY, PLAYER, Operative, State
from solo_ops.rules import reach

if TYPE_CHECKING:
    from solo_ops.game.definition import Game
    from solo_ops.geometry.board import Objective


def carrier(state: State, marker: str) -> Operative | None:
    """The operative carrying objective marker ``marker``, if any."""
    for op in state.operatives.values():
        if op.marker == marker:
            return op
    return None


def position(state: State, obj: Objective) -> tuple[float, float]:
    """Where objective marker ``obj`` is now: at its carrier, where it was placed down, else
    where the board puts it."""
    held = carrier(state, obj.id)
    if held is not None and held.at is not None:
        return held.at
    at = state.markers_at.get(obj.id)
    return (float(at[0]), float(at[1])) if at is not None else obj.at


def positions(game: Game, state: State) -> dict[str, tuple[float, float]]:
    """Every objective marker's position now (:func:`position`), by id."""
    return {o.id: position(state, o) for o in game.scenario.board.objectives}


def board_now(game: Game, state: State, board: Any) -> Any:
    """``board`` (a :class:`~solo_ops.geometry.board.Board`) with its objective markers where
    they are now, for pictures: one placed down elsewhere moved there, a carried one left off
    (its carrier's label names it)."""
    carried = {o.marker for o in state.operatives.values() if o.marker}
    if not carried and not state.markers_at:
        return board
    return replace(board, objectives=tuple(replace(o, at=position(state, o))
                                           for o in board.objectives if o.id not in carried))


def in_reach(game: Game, state: State, op: Operative, point: tuple[float, float]) -> bool:
    """Whether a 40 mm marker at ``point`` is in ``op``'s control range: within 1" of the
    marker's edge around the walls, and visible (the objective-control test)."""
    assert op.at is not None
    return reach.within(game.terrain(state), op.at, op.radius, point, reach.MARKER_RADIUS,
                        reach.CONTROL_RANGE)


def _objective(game: Game, marker: Any) -> Objective:
    board = game.scenario.board
    found = next((o for o in board.objectives if o.id == marker), None)
    if found is None:
        portable = ", ".join(o.id for o in board.objectives if o.portable) or "none here"
        raise RuleError(f"no objective marker called {marker!r} (markers that can be picked "
                        f"up: {portable})")
    return found


def pick_up_check(game: Game, state: State, op: Operative, marker: Any,
                  control: dict[str, str | None]) -> Objective:
    """The marker ``op`` may pick up, or a RuleError saying why not (001 Pick Up: "Remove a
    marker that the active Operative controls ... Cannot be performed while in Control Range of
    an enemy or while already carrying"). ``control``: the objective control now
    (:func:`solo_ops.game.scoring.objective_control`)."""
    if state.edition != "kt2024":
        raise RuleError("Pick Up is a Kill Team 2024 action")
    if op.marker is not None:
        raise RuleError(f"{op.label} is already carrying {op.marker}")
    if op.carrying is not None:
        raise RuleError(f"{op.label} is carrying {op.carrying}: it cannot carry a marker too")
    obj = _objective(game, marker)
    if not obj.portable:
        raise RuleError(f"{obj.id} cannot be picked up (the board does not mark it portable)")
    held = carrier(state, obj.id)
    if held is not None:
        raise RuleError(f"{obj.id} is carried by {held.label}")
    other = ENEMY if op.side == PLAYER else PLAYER
    engaged = reach.within_reach(game.terrain(state), op, state.living(other))
    if engaged:
        raise RuleError(f"{op.label} is in control range of {engaged[0].label}: it cannot pick "
                        "a marker up")
    if not in_reach(game, state, op, position(state, obj)):
        raise RuleError(f"{obj.id} is not in {op.label}'s control range (within 1\" of the "
                        "marker and visible)")
    if control.get(obj.id) != op.side:
        raise RuleError(f"{op.label}'s side does not control {obj.id} (the enemy's APL there is "
                        "as high or higher)")
    return obj


def pick_up(state: State, op: Operative, obj: Objective) -> list[dict[str, Any]]:
    """``op`` picks up ``obj`` (checked by :func:`pick_up_check`)."""
    op.marker = obj.id
    state.markers_at.pop(obj.id, None)
    return [{"type": "pick_up", "operative": op.id, "marker": obj.id,
             "note": f"{op.label} picks up {obj.id}: it carries, contests and controls it."}]


def place_down_check(game: Game, state: State, op: Operative, to: Any
                     ) -> tuple[float, float]:
    """Where ``op`` may place its marker down (``to``: a point, or None for where it stands),
    or a RuleError (001 Place Down: "Place a marker the active Operative is carrying within
    it's Control Range"): the whole marker on the table, not inside terrain no base can stand
    in, and in ``op``'s control range. ("Cannot be performed in the same activation as a Pick
    Up action" is a row of the sequence table, :mod:`solo_ops.rules.sequences`, asked when
    its AP are.)"""
    if op.marker is None:
        raise RuleError(f"{op.label} is not carrying a marker")
    assert op.at is not None
    if to is None:
        point = op.at
    else:
        try:
            point = (float(to[0]), float(to[1]))
        except (TypeError, ValueError, IndexError):
            raise RuleError(f"expected a point x,y, got {to!r}") from None
        if not (math.isfinite(point[0]) and math.isfinite(point[1])):
            raise RuleError(f"expected a point x,y, got {to!r}")
    point = (round(point[0], reach.POINT_PLACES), round(point[1], reach.POINT_PLACES))
    terrain = game.terrain(state)
    board = terrain.board
    r = reach.MARKER_RADIUS
    if not (r - 1e-6 <= point[0] <= board.width - r + 1e-6
            and r - 1e-6 <= point[1] <= board.depth - r + 1e-6):
        raise RuleError(f"a marker at {point[0]:g},{point[1]:g} would not lie wholly on the "
                        "table")
    if not terrain.routes.fits(point, 0.01):
        raise RuleError(f"{point[0]:g},{point[1]:g} is inside terrain: a marker cannot be "
                        "placed there")
    if not in_reach(game, state, op, point):
        raise RuleError(f"{point[0]:g},{point[1]:g} is not in {op.label}'s control range "
                        "(the marker within 1\" of its base, and visible)")
    return point


def place_down(state: State, op: Operative, point: tuple[float, float], *,
               forced: bool = False) -> list[dict[str, Any]]:
    """``op`` places its marker at ``point`` (checked by :func:`place_down_check`, or the
    forced 0 AP Place Down of :func:`drop`)."""
    marker = op.marker
    assert marker is not None
    op.marker = None
    state.markers_at[marker] = [float(point[0]), float(point[1])]
    how = (f"{op.label} is incapacitated and places {marker} down where it fell (0 AP)"
           if forced else f"{op.label} places {marker} down")
    return [{"type": "place_down", "operative": op.id, "marker": marker,
             "at": reach.round_point(point), "forced": forced, "note": how + "."}]


def drop(state: State, op: Operative) -> list[dict[str, Any]]:
    """001 Place Down: "When incapacitated, a "carrying" Operative MUST perform this action for
    OAP": the marker goes down at the carrier's centre (within its control range)."""
    if op.marker is None or op.at is None:
        return []
    x, y = op.at
    return place_down(state, op, (round(x, reach.POINT_PLACES), round(y, reach.POINT_PLACES)),
                      forced=True)
