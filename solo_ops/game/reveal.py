"""The fog of war during play: hidden counters move by their hidden orders, and every counter a
player model can see is resolved into enemies (or a false alarm).

The decisions live in the fog's rooms (pure planning and the supplement's tables:
:mod:`solo_ops.game.hidden_moves`, :mod:`solo_ops.game.spotting`,
:mod:`solo_ops.game.resolution`); this module applies them to the state between actions:
after every move (:func:`check_spotting`, called by the engine, the players' actions and the
enemy's moves) and in the hidden-movement step of each turn (:func:`hidden_movement`). Hidden
facts only ever go into events marked ``secret``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from solo_ops.ai import fsm
from solo_ops.core.dice import Dice
from solo_ops.core.names import natural_key
from solo_ops.core.tables import hidden_enemy_table
from solo_ops.game import fog, hidden_moves, placing, resolution, spotting
from solo_ops.game.state import Counter, Operative, State
from solo_ops.rules.reach import round_point as _r

if TYPE_CHECKING:
    from solo_ops.game.definition import Game


def hidden_movement(game: Game, state: State) -> list[dict[str, Any]]:
    """Every unresolved counter moves by its hidden order, in id order (so the order of moves
    reveals nothing), each followed by a spotting check."""
    events: list[dict[str, Any]] = []
    for cid in sorted(state.counters, key=natural_key):
        counter = state.counters[cid]
        if not counter.active:
            continue
        terrain = game.terrain(state)
        move = hidden_moves.plan_hidden_move(terrain, state, counter, game.settings)
        events.append({"type": "hidden_plan", "counter": cid, "code": move.code,
                       "reason": move.reason, "secret": True})
        if move.to is not None:
            old = counter.at
            counter.at = move.to
            counter.sector = terrain.board.sector_of(*move.to)
            walk = terrain.routes.walk_through(move.route or (old, move.to), fog.COUNTER_RADIUS)
            events.append({"type": "counter_moved", "counter": cid, "from": _r(old),
                           "at": _r(move.to), "route": [_r(p) for p in move.route],
                           "cost": round(float(walk.cost), 2),
                           **placing.move_facts(terrain, state, cid, fog.COUNTER_RADIUS,
                                                move.route, game.words),
                           **_row_words(game, counter, move)})
        if move.settled:
            counter.settled = True
        if move.take_command is not None:
            events.append({"type": "counter_command", "counter": cid,
                           "hidden_order": move.take_command, "secret": True})
            counter.hidden_order = move.take_command
            counter.settled = False  # acting on the new command now
        if move.join is not None:
            events.extend(_join(game, state, counter, move.join))
        events.extend(check_spotting(game, state))
    return events


def _row_words(game: Game, counter: Counter, move: hidden_moves.HiddenMove) -> dict[str, Any]:
    """What a counter's move tells the players of why it moved (setting ``counter_rows``):
    the hidden-enemy table's row (its face and printed text) and what the move made for, or
    nothing (``hidden``: the order stays secret until the counter is resolved)."""
    if game.settings.counter_rows != "shown":
        return {}
    row = hidden_enemy_table()[counter.hidden_order]
    # another counter's command is its own secret: the reason names whom, never its order
    why = re.sub(r"\s*\(command \d+\)", "", move.reason)
    text = row.shown.split(". ")[0].rstrip(".")  # the row's first sentence, its typos mended
    return {"row": counter.hidden_order, "row_text": text, "why": why}


def _join(game: Game, state: State, counter: Counter, target: str) -> list[dict[str, Any]]:
    """Hidden-enemy row 3: the counter joins a higher-command counter (it travels with it and
    is resolved with it) or a revealed unit (its enemies join that unit and take its order)."""
    if target in state.counters:
        counter.joined = target
        return [{"type": "counter_joined", "counter": counter.id, "into": target}]
    unit = state.units[target]
    results = resolution.resolve_counter(game.terrain(state), state, counter, None,
                                         game.scenario.roster, _dice(state), game.settings,
                                         edition=state.edition, in_place=True)
    events: list[dict[str, Any]] = []
    for res in results:
        events.extend(res.events)
        for uid in res.units:
            joined = state.units[uid]
            joined.fsm = fsm.fire("hidden", "spotted")
            joined.fsm = fsm.fire(joined.fsm, "merged")
            events.append(state.merge_unit(joined, unit))
    return events


def _first_unit(results: list[resolution.Resolution]) -> str | None:
    """The first unit a counter's resolutions made (its own before an ambush partner's), or
    None (a false alarm)."""
    return next((uid for res in results for uid in res.units), None)


def _dice(state: State) -> Dice:
    assert state.dice is not None
    return state.dice


def check_spotting(game: Game, state: State) -> list[dict[str, Any]]:
    """Resolve every counter a player model can now see."""
    events: list[dict[str, Any]] = []
    while True:
        seen = spotting.spotters(game.terrain(state), state)
        if not seen:
            return events
        cid = min(seen, key=natural_key)
        events.extend(resolve(game, state, state.counters[cid], seen[cid]))


def resolve(game: Game, state: State, counter: Counter,
             spotter: Operative | None) -> list[dict[str, Any]]:
    if spotter is None:  # resolved in the first turn: the model that sees it, if any
        spotter = spotting.spotted_by(game.terrain(state), state, counter)
    events: list[dict[str, Any]] = [{"type": "counter_spotted", "counter": counter.id,
                                     "by": spotter.id if spotter else None,
                                     "at": _r(counter.at)}]
    spot = counter.at  # a false alarm moves the counter; its stack is found here
    stacked: list[Counter] = []
    hosts = {counter.id}
    while True:  # counters joined to it, and to those, ...
        more = [c for c in state.counters.values() if c.joined in hosts and not c.resolved
                and c not in stacked]
        if not more:
            break
        stacked += more
        hosts |= {c.id for c in more}
    results = resolution.resolve_counter(game.terrain(state), state, counter, spotter,
                                         game.scenario.roster, _dice(state), game.settings,
                                         edition=state.edition)
    # Row 3: a counter that joined another is one unit with it (setting joined_counters): its
    # enemies join the unit of the counter it joined (of that one's host when it was a false
    # alarm), else they are a unit of their own, which the counters joined to it then join.
    together = game.settings.joined_counters != "apart"
    unit_of: dict[str, str | None] = {counter.id: _first_unit(results)}
    told: list[tuple[resolution.Resolution, str | None]] = [(res, None) for res in results]
    for other in stacked:
        into = unit_of[other.joined] if together and other.joined else None
        other.joined = None
        other.at = spot
        found = resolution.resolve_counter(game.terrain(state), state, other, spotter,
                                           game.scenario.roster, _dice(state), game.settings,
                                           edition=state.edition)
        unit_of[other.id] = into or _first_unit(found)
        told += [(res, into) for res in found]
    for res, into in told:
        events.extend(res.events)
        for uid in res.units:
            unit = state.units[uid]
            unit.fsm = fsm.fire(unit.fsm, "spotted")
            # a unit revealed during the turn has not acted yet: it activates this turn
            if into is not None:
                unit.fsm = fsm.fire(unit.fsm, "merged")
                events.append(state.merge_unit(unit, state.units[into]))
    return events
