"""Tap to place: where a tapped point puts the active operative, and whether the move allows it.

A player taps the board (or drops a dragged model) instead of measuring X,Y. :func:`preview`
snaps the point to the nearest spot where the operative's base may stand (the placement rule,
:func:`solo_ops.geometry.placement.nearest`: clear of walls, terrain it cannot stand in and
every other base, standing or downed, and the counters), then asks the game the very question
the answer will ask: each move the page offers (move, dash, fall back, charge the nearest enemy)
is typed as its answer (``move 10.5,4.2``) and checked by the table's own dry run of the
engine's step (:meth:`~solo_ops.session.table.GameTable.refusal_of`: control range, fall back,
charge, where a base may stand, the allowance — every rule the move meets), so the page offers
only the moves the game takes there, and says why not for the others. The walk drawn is the
engine's own (:func:`solo_ops.game.player_moves._route`) and its length is compared with the
move's limit (:func:`solo_ops.game.action_checks.move_limit`) for the words.
Pure: reads the game and the state, changes neither.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from solo_ops.core.errors import RuleError
from solo_ops.game.action_checks import move_limit
from solo_ops.game.move_goals import engaged_foes
from solo_ops.game.player_moves import _route, terrain_added
from solo_ops.game.state import ENEMY, PLAYER, Operative, State
from solo_ops.geometry import placement
from solo_ops.rules import reach
from solo_ops.view import measure

if TYPE_CHECKING:
    from solo_ops.game.definition import Game
    from solo_ops.geometry.routes import Walk


SNAP_RADIUS = 3.0
"""How far (inches) from the tapped point a fitting spot is looked for."""

WORDS = {"reposition": "move", "normal": "move", "dash": "dash", "fall_back": "fallback",
         "advance": "advance", "charge": "charge"}
KINDS = {"move": None, "reposition": "reposition", "normal": "normal", "dash": "dash",
         "fallback": "fall_back", "fall_back": "fall_back", "advance": "advance",
         "charge": "charge"}


def _centre(o: Operative) -> tuple[float, float]:
    """An operative's centre; only for one on the table (``on_table`` implies a place)."""
    assert o.at is not None
    return o.at


EDITION_MOVES = {"kt2024": ("reposition", "dash", "fall_back", "charge"),
                 "kt2018": ("normal", "advance", "fall_back", "charge")}
"""The kinds of move each edition has (as :func:`solo_ops.rules.reach.move_allowance`)."""


def move_kind(word: str, edition: str) -> str:
    """The engine's kind of move for a word the page sends (``move`` is a Reposition in 2024
    and a normal move in 2018); a :class:`RuleError` for a word the page never sends or a move
    the edition lacks (a Dash in 2018, an Advance in 2024)."""
    if word not in KINDS:
        raise RuleError(f"how must be one of {', '.join(k for k in KINDS if k != 'fall_back')}")
    kind = KINDS[word] or ("reposition" if edition == "kt2024" else "normal")
    if edition == "kt2018" and kind == "reposition":
        kind = "normal"
    if edition == "kt2024" and kind == "normal":
        kind = "reposition"
    if kind not in EDITION_MOVES.get(edition, ()):
        words = [w for w, k in KINDS.items() if k in EDITION_MOVES.get(edition, ())
                 and w != "fall_back"]
        raise RuleError(f"a {edition} game has no {word} move (how: move, "
                        f"{', '.join(dict.fromkeys(words))})")
    return kind


def _num(v: float) -> str:
    return f"{round(v, 2):g}"


Check = Callable[[str], "str | None"]
"""Why the game would refuse a typed answer now (None: it would take it) — the table's own
check (:meth:`~solo_ops.session.table.GameTable.refusal_of`)."""


def preview(game: Game, state: State, x: float, y: float, how: str = "move", *,
            check: Check, offered: Sequence[str] = ()) -> dict[str, Any]:
    """Where the active operative would end a move aimed at ``(x, y)``, and which of the moves
    the page offers (``how`` first, then ``offered``: page words such as ``dash``,
    ``fallback``, ``charge``) the game takes there; see the module docstring. Raises
    :class:`RuleError` when no operative is active or its base fits nowhere near."""
    if not (math.isfinite(x) and math.isfinite(y)):
        raise RuleError("x and y must be numbers")
    if state.active_operative is None:
        raise RuleError("no operative is active: choose which one acts first")
    op = state.operatives[state.active_operative]
    if op.at is None:
        raise RuleError(f"{op.id} is not on the table")
    asked = (float(x), float(y))
    terrain = game.terrain(state)
    others = [o for o in state.operatives.values()
              if o.has_base and o.at is not None and o.id not in (op.id, op.carrying)]
    bases = state.bases(exclude=(op.id, op.carrying))  # standing, downed and counters
    # the nearest point where the base may stand (the placement rule), said when it moved
    found = placement.nearest(terrain, asked, op.radius, bases, limit=SNAP_RADIUS)
    if found is None:
        raise RuleError(f"{op.id}'s base fits nowhere within {SNAP_RADIUS:g}\" of "
                        f"{measure.point(asked)}")
    spot = found.at
    taken = placement.why_not(terrain, asked, op.radius, bases)
    foes = [o for o in others if o.side == (ENEMY if op.side == PLAYER else PLAYER)]
    words = list(dict.fromkeys([how, *offered]))
    choices = [_choice(state, word, spot, foes, check, game.settings.units) for word in words]
    chosen = next((c for c in choices if c["ok"]), choices[0])
    shown = _measured(game, state, op, others, spot, chosen)
    return {**shown, "asked": [round(asked[0], 2), round(asked[1], 2)],
            "snapped": math.dist(spot, asked) > 0.005,
            "choices": [{k: c[k] for k in ("how", "answer", "ok", "why")} for c in choices],
            "text": _words(game, op, spot, asked, chosen, shown, taken)}


def _choice(state: State, word: str, spot: tuple[float, float], foes: list[Operative],
            check: Check, units: str) -> dict[str, Any]:
    """One move the page offers, to ``spot``: its typed answer and the game's verdict."""
    kind = move_kind(word, state.edition)
    mark = '"' if units != "in" else ""  # inches said as such in a centimetre game
    point = f"{_num(spot[0])}{mark},{_num(spot[1])}{mark}"
    target = None
    if kind == "charge":
        if not foes:
            return {"how": word, "kind": kind, "answer": f"charge ? {point}", "ok": False,
                    "why": "there is no enemy on the table to charge", "target": None}
        target = min(foes, key=lambda o: math.dist(_centre(o), spot))
    answer = f"charge {target.id} {point}" if target is not None else f"{WORDS[kind]} {point}"
    why = check(answer)
    return {"how": word, "kind": kind, "answer": answer, "ok": why is None, "why": why,
            "target": target}


def _measured(game: Game, state: State, op: Operative, others: list[Operative],
              spot: tuple[float, float], chosen: dict[str, Any]) -> dict[str, Any]:
    """The chosen move drawn for the page: the engine's walk around the walls (enemy control
    ranges blocking all but charges and fall backs), its length and the move's allowance."""
    kind, target = chosen["kind"], chosen["target"]
    try:  # the engine's own walk for this move (None: no way around walls and bases)
        counters = [b for b in state.bases() if b.ident in state.counters]
        walk: Walk | None = _route(game.moving_terrain(state, kind), op, kind, spot, others,
                                   target, counters, engaged=engaged_foes(game, state, op, kind))
    except RuleError:
        walk = None
    # the engine's own limit: the move's allowance, 2" for a counteract, what a door or
    # hatch left of a move it interrupted
    allowance = move_limit(state, op, kind)
    cost = None if walk is None else float(walk.cost)
    return {"operative": op.id, "how": kind, "at": [round(spot[0], 2), round(spot[1], 2)],
            "way": "" if walk is None else _way(game, state, op, walk),
            "distance": None if cost is None else round(cost, 2),
            "allowance": round(allowance, 2), "within": bool(chosen["ok"]),
            "refused": chosen["why"],
            "measured": ("" if cost is None else f"{measure.length(cost, game.settings.units)} of ")
            + measure.length(allowance, game.settings.units),
            "route": [] if walk is None else [[round(p[0], 2), round(p[1], 2)]
                                              for p in walk.points],
            "radius": op.radius, "answer": chosen["answer"],
            **({"target": target.id} if target is not None else {})}


def _way(game: Game, state: State, op: Operative, walk: Walk) -> str:
    """How the preview says the walk's cost: `` around the walls`` where the way bends,
    `` away`` on open ground, and where terrain adds to it, what for (`` of movement: 3.0"
    walked, climbing onto deck-1``, as a refused move says it)."""
    added = terrain_added(game, state, op, walk,
                          lambda d: measure.length(d, game.settings.units))
    if added is not None:
        return f" of movement: {added}"
    return " " + reach.way_words(float(walk.length), math.dist(walk.points[0], walk.points[-1]))


def _words(game: Game, op: Operative, spot: tuple[float, float], asked: tuple[float, float],
           chosen: dict[str, Any], shown: dict[str, Any], taken: str | None) -> str:
    """The preview in a sentence: where, how far ("around the walls" where the way bends), and
    the game's verdict;
    ``taken``: what stands at the point tapped, when the base was moved off it."""
    units = game.settings.units
    kind = chosen["kind"]
    verb = {"reposition": "move", "normal": "move", "fall_back": "fall back"}.get(kind, kind)
    cost = shown["distance"]
    if cost is None:
        text = (f"{op.id} cannot get to {measure.point(spot, units)}: no route around the walls "
                "and other models")
    else:
        text = (f"{op.id} to {measure.point(spot, units)}: {measure.length(cost, units)}"
                f"{shown['way']}; it can {verb} {measure.length(shown['allowance'], units)} — "
                + ("within the move" if chosen["ok"] else f"refused: {chosen['why']}"))
    if math.dist(spot, asked) > 0.005:
        text += (f" (moved to the nearest point where the base fits: {taken})" if taken
                 else " (moved to where the base fits)")
    if chosen["target"] is not None:
        text += f"; charging {chosen['target'].id}"
    return text

