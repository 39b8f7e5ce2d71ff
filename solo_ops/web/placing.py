"""Tap to place: where a tapped point puts the active operative, and whether the move allows it.

A player taps the board (or drops a dragged model) instead of measuring X,Y. :func:`preview`
snaps the point to the nearest spot where the operative's base may stand (the placement rule,
:func:`solo_ops.geometry.placement.nearest`: clear of walls, terrain it cannot stand in and
every other base, standing or downed, and the counters), walks there around the walls as the
engine will check the move (:meth:`~solo_ops.geometry.routes.query.Routes.walk`, enemy control
ranges blocking all but charges and fall backs), and compares the movement cost with the move's
allowance (:func:`solo_ops.rules.reach.move_allowance`). It returns the answer to type for it
(``move 10.5,4.2``). It is only a preview: the engine checks the answer again when it is sent.
Pure: reads the game and the state, changes neither.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from solo_ops.core.errors import RuleError
from solo_ops.game.state import ENEMY, PLAYER, Operative, State
from solo_ops.geometry import placement
from solo_ops.rules import reach
from solo_ops.view import measure

if TYPE_CHECKING:
    from solo_ops.game.definition import Game


SNAP_RADIUS = 3.0
"""How far (inches) from the tapped point a fitting spot is looked for."""
MOVE_TOLERANCE = 0.25
"""The slack the engine allows when it checks a reported move (``action_checks.MOVE_TOLERANCE``)."""

WORDS = {"reposition": "move", "normal": "move", "dash": "dash", "fall_back": "fallback",
         "advance": "advance", "charge": "charge"}
KINDS = {"move": None, "reposition": "reposition", "normal": "normal", "dash": "dash",
         "fallback": "fall_back", "fall_back": "fall_back", "advance": "advance",
         "charge": "charge"}


def _centre(o: Operative) -> tuple[float, float]:
    """An operative's centre; only for one on the table (``on_table`` implies a place)."""
    assert o.at is not None
    return o.at


def move_kind(word: str, edition: str) -> str:
    """The engine's kind of move for a word the page sends (``move`` is a Reposition in 2024
    and a normal move in 2018)."""
    if word not in KINDS:
        raise RuleError(f"how must be one of {', '.join(k for k in KINDS if k != 'fall_back')}")
    kind = KINDS[word] or ("reposition" if edition == "kt2024" else "normal")
    if edition == "kt2018" and kind == "reposition":
        kind = "normal"
    if edition == "kt2024" and kind == "normal":
        kind = "reposition"
    return kind


def _num(v: float) -> str:
    return f"{round(v, 2):g}"


def preview(game: Game, state: State, x: float, y: float, how: str = "move") -> dict[str, Any]:
    """Where the active operative would end a move of kind ``how`` aimed at ``(x, y)``; see the
    module docstring. Raises :class:`RuleError` when no operative is active or nothing fits."""
    if not (math.isfinite(x) and math.isfinite(y)):
        raise RuleError("x and y must be numbers")
    if state.active_operative is None:
        raise RuleError("no operative is active: choose which one acts first")
    op = state.operatives[state.active_operative]
    if op.at is None:
        raise RuleError(f"{op.id} is not on the table")
    kind = move_kind(how, state.edition)
    terrain = game.terrain(state)
    others = [o for o in state.operatives.values()
              if o.has_base and o.at is not None and o.id not in (op.id, op.carrying)]
    bases = state.bases(exclude=(op.id, op.carrying))  # standing, downed and counters
    asked = (float(x), float(y))
    # the nearest point where the base may stand (the placement rule), said when it moved
    found = placement.nearest(terrain, asked, op.radius, bases, limit=SNAP_RADIUS)
    if found is None:
        raise RuleError(f"{op.id}'s base fits nowhere within {SNAP_RADIUS:g}\" of "
                        f"{measure.point(asked)}")
    spot = found.at
    taken = placement.why_not(terrain, asked, op.radius, bases)
    target = None
    if kind == "charge":
        foes = [o for o in others if o.on_table
                and o.side == (ENEMY if op.side == PLAYER else PLAYER)]
        if not foes:
            raise RuleError("there is no enemy on the table to charge")
        target = min(foes, key=lambda o: math.dist(_centre(o), spot))
    blockers = []
    for o in others:
        extra = 0.0
        if o.side != op.side and o.on_table and kind in ("reposition", "dash", "normal",
                                                         "advance") \
                and reach.base_gap(op, o) > reach.CONTROL_RANGE + 1e-9:
            extra = reach.CONTROL_RANGE
        if target is not None and o.id == target.id:
            extra = 0.0
        blockers.append((*_centre(o), o.radius + extra))
    blockers += [(b.x, b.y, b.r) for b in bases if b.ident in state.counters]
    walk = terrain.routes.walk(op.at, spot, op.radius, blockers=blockers)
    allowance = reach.move_allowance(op, kind, state.edition)
    cost = None if walk is None else float(walk.cost)
    within = cost is not None and cost <= allowance + MOVE_TOLERANCE
    word = WORDS[kind]
    point = f"{_num(spot[0])},{_num(spot[1])}"
    answer = f"charge {target.id} {point}" if target is not None else f"{word} {point}"
    units = game.settings.units
    snapped = math.dist(spot, asked) > 0.005
    verb = {"reposition": "move", "normal": "move", "fall_back": "fall back"}.get(kind, kind)
    if cost is None:
        text = (f"{op.id} cannot get to {measure.point(spot, units)}: no route around the walls "
                "and other models")
    else:
        text = (f"{op.id} to {measure.point(spot, units)}: {measure.length(cost, units)} around "
                f"the walls; it can {verb} {measure.length(allowance, units)} — "
                + ("within the move" if within else "too far"))
    if snapped:
        text += (f" (moved to the nearest point where the base fits: {taken})" if taken
                 else " (moved to where the base fits)")
    if target is not None:
        text += f"; charging {target.id}"
    return {"operative": op.id, "how": kind, "asked": [round(asked[0], 2), round(asked[1], 2)],
            "at": [round(spot[0], 2), round(spot[1], 2)], "snapped": snapped,
            "distance": None if cost is None else round(cost, 2),
            "allowance": round(allowance, 2), "within": within,
            "route": [] if walk is None else [[round(p[0], 2), round(p[1], 2)]
                                              for p in walk.points],
            "radius": op.radius, "answer": answer, "text": text,
            **({"target": target.id} if target is not None else {})}
