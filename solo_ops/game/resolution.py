"""What a spotted counter turns out to be: the enemy-count table rolled (:func:`resolve_counter`;
an ambush counter re-rolls 1s and 6s, :func:`roll_enemy_count`) — a false alarm (the counter
goes to a new hidden point of a new sector with a new hidden order), 1-4 enemies drawn from the
roster table and formed into units around it, or an ambush (a second counter, both placed 6"
from the spotter beside cover that hides them where possible, both resolved). Each outcome is a
:class:`Resolution` with its events; the hidden facts among them are ``secret``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from solo_ops.core.dice import Dice
from solo_ops.core.model import Roster
from solo_ops.core.settings import Settings
from solo_ops.core.tables import enemy_count_table
from solo_ops.game.ambush import ambush_spots
from solo_ops.game.clusters import cluster_spots
from solo_ops.game.fog import (
    occupied,
    place_in_sector,
    player_observers,
)
from solo_ops.game.state import ENEMY, Counter, Operative, State, Unit
from solo_ops.rules.orders import form_units, roll_command

if TYPE_CHECKING:
    from solo_ops.geometry.terrain import Terrain


@dataclass
class Resolution:
    """What a counter turned out to be."""

    counter: str
    outcome: str  # false_alarm, enemies, ambush
    units: list[str] = field(default_factory=list)
    models: list[str] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)


def roll_enemy_count(dice: Dice, counter: Counter) -> tuple[int, list[dict[str, Any]]]:
    """The enemy-count roll; an ambush counter re-rolls 1s and 6s until it gets 2-5."""
    events = []
    entry = dice.d6(f"enemy count for counter {counter.id}")
    face = entry.face
    while counter.ambush and face in (1, 6):
        entry = dice.d6(f"enemy count for counter {counter.id} (ambush: re-roll {face})",
                        ref=entry.seq)
        face = entry.face
    events.append({"type": "enemy_count", "counter": counter.id, "roll": face,
                   "result": enemy_count_table()[face].shown})
    return face, events


def resolve_counter(terrain: Terrain, state: State, counter: Counter, spotter: Operative | None,
                    roster: Roster | None, dice: Dice, settings: Settings,
                    *, edition: str, in_place: bool = False) -> list[Resolution]:
    """Resolve a spotted counter on the enemy-count table (and its ambush partner).
    ``in_place``: resolved where it stands, nobody having spotted it (a hidden-enemy row 3
    join with a revealed unit): an Ambush then puts both counters there, not by a player."""
    face, events = roll_enemy_count(dice, counter)
    row = enemy_count_table()[face]
    if row.code == "false_alarm":
        sector = dice.d6(f"false alarm: new sector for counter {counter.id}").face
        place = place_in_sector(terrain, sector, player_observers(state), dice, settings,
                                counter.id, avoid=occupied(state, exclude=counter.id))
        order = dice.d6(f"false alarm: new hidden order for counter {counter.id}",
                        secret=True).face
        counter.at, counter.sector, counter.hidden_order = place.at, sector, order
        counter.resolve_first_turn = place.resolve_first_turn
        counter.settled = False  # a new hidden order: row 2's "then remain stationary" is over
        events.append({"type": "false_alarm", "counter": counter.id, "sector": sector,
                       "at": [round(place.at[0], 2), round(place.at[1], 2)]})
        events.append({"type": "hidden_order", "counter": counter.id, "hidden_order": order,
                       "secret": True})
        return [Resolution(counter.id, "false_alarm", events=events)]
    if row.code == "ambush":
        return _ambush(terrain, state, counter, spotter, roster, dice, settings, events,
                       edition=edition, in_place=in_place)
    res = _reveal(terrain, state, counter, row.enemies, roster, dice, edition=edition,
                  settings=settings)
    res.events[:0] = events
    return [res]


def _ambush(terrain: Terrain, state: State, counter: Counter, spotter: Operative | None,
            roster: Roster | None, dice: Dice, settings: Settings,
            events: list[dict[str, Any]], *, edition: str,
            in_place: bool = False) -> list[Resolution]:
    second = Counter(state.new_counter_id(), counter.at, counter.hidden_order, counter.sector,
                     ambush=True)
    state.counters[second.id] = second
    counter.ambush = True
    events.append({"type": "ambush", "counter": counter.id, "second": second.id,
                   "spotter": spotter.id if spotter else None})
    if in_place:
        # a row-3 join: nobody spotted it, so "the player unit that spotted the hidden enemy
        # force" is nobody; both counters are resolved where it stands, beside the unit it
        # joins (issue #29), never carried across the board to a player model
        spotter = None
    elif spotter is None or spotter.at is None:
        # resolved in the first turn with no model seeing it: the table still puts both
        # counters 6" from a player model -- the one nearest the counter (issue #14)
        spotter = _nearest_player(state, counter.at)
    if spotter is not None and spotter.at is not None:
        spots = ambush_spots(terrain, state, spotter, settings, [counter.id, second.id], dice)
        for c, at in zip((counter, second), spots, strict=False):
            c.at = at
            c.sector = terrain.board.sector_of(*at)
            events.append({"type": "counter_moved", "counter": c.id,
                           "at": [round(at[0], 2), round(at[1], 2)], "ambush": True})
    results = []
    first = True
    for c in (counter, second):
        face, evs = roll_enemy_count(dice, c)
        res = _reveal(terrain, state, c, enemy_count_table()[face].enemies, roster, dice,
                      edition=edition, settings=settings)
        res.events[:0] = ([*events, *evs] if first else evs)
        res.outcome = "ambush"
        first = False
        results.append(res)
    return results


def _nearest_player(state: State, at: tuple[float, float]) -> Operative | None:
    """The player model on the table nearest ``at`` (straight line, ties by id), or None."""
    players = [o for o in state.operatives.values()
               if o.side != ENEMY and o.on_table and o.at is not None]
    if not players:
        return None
    return min(players, key=lambda o: (math.dist(o.at, at), o.id))  # type: ignore[arg-type]


def _reveal(terrain: Terrain, state: State, counter: Counter, count: int, roster: Roster | None,
            dice: Dice, *, edition: str, settings: Settings) -> Resolution:
    """Turn a counter into ``count`` models from the roster table, formed into units (by the
    settings ``troop_count``), on the order ``revealed_order`` until they activate (Kill Team
    2024; 2018 has no orders)."""
    order = settings.revealed_order if edition == "kt2024" else "engage"
    counter.resolved = True
    res = Resolution(counter.id, "enemies")
    if roster is None or count <= 0:
        res.events.append({"type": "counter_empty", "counter": counter.id})
        return res
    drawn = []
    for i in range(count):
        face = dice.d6(f"roster table for counter {counter.id}, model {i + 1}").face
        key = roster.table[face]
        drawn.append((key, roster.profiles[key].for_edition(edition)))
    spots = cluster_spots(terrain, state, counter.at, [p.base_radius for _, p in drawn])
    models = []
    for (key, profile), at in zip(drawn, spots, strict=True):
        mid = state.new_model_id(key)
        models.append((mid, profile))
        state.operatives[mid] = Operative(mid, profile.name, ENEMY, "", profile, at,
                                          profile.wounds, stance=order)
        res.models.append(mid)
    leadership = max(p.leadership for _, p in models)
    roll = roll_command(dice, leadership, purpose=f"order roll for counter {counter.id}")
    formed = form_units(models, roll.command, settings.troop_count)
    base = counter.id.replace("c", "u", 1)
    wanted = [base] if len(formed) == 1 else [f"{base}-{u.troop.value}" for u in formed]
    for uid, unit in zip(state.new_unit_ids(wanted), formed, strict=True):
        state.units[uid] = Unit(uid, list(unit.models), unit.troop.value, unit.command,
                                unit.leadership, fsm="hidden", origin=counter.id)
        for m in unit.models:
            state.operatives[m].owner = uid
        res.units.append(uid)
    res.events.append({
        "type": "counter_revealed", "counter": counter.id,
        "models": [{"id": m, "profile": p.name, "at": _rounded(state.operatives[m].at)}
                   for m, p in models],
        "units": [state.units[u].to_dict() for u in res.units],
        "order_roll": {"roll": roll.roll, "modifier": roll.modifier, "command": roll.command,
                       "leadership": leadership},
    })
    return res


def _rounded(at: tuple[float, float] | None) -> list[float] | None:
    """A revealed model's place for its event, to 0.01" (None for one not on the table)."""
    return None if at is None else [round(at[0], 2), round(at[1], 2)]
