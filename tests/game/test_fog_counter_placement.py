"""Where the fog of war puts a counter (003):

* an Ambush without a spotting model still goes 6" from a player model, the nearest (enemy
  count 6: "move it and the original counter to 6' away from the player unit that spotted the
  hidden enemy force");
* a False Alarm goes out of sight in its new sector (enemy count 1: "Move counter to random
  table sector and roll for new hidden enemy order."; "These counters are to be placed so that
  the player can not draw a line of sight to them");
* a counter is never placed inside a terrain feature.

The placement is :mod:`solo_ops.game.fog`'s. Reading: docs/rules.md, "Fog of war".
"""

from __future__ import annotations

import numpy as np
from shapely.geometry import Point, Polygon

from solo_ops.core.dice import ScriptedDice
from solo_ops.game import fog, resolution, spotting
from solo_ops.game.state import Counter
from tests.support.fog_boards import OPEN, SPLIT, R, make


def test_an_ambush_without_a_spotting_model_still_goes_6_inches_from_a_player_model() -> None:
    """003, enemy count 6: "Ambush! Take a second counter and move it and the original counter
    to 6' away from the player unit that spotted the hidden enemy force". Resolved with no
    spotting model (a first-turn resolution, a row-3 join), both counters still go 6" from a
    player model: the one nearest the counter (p2 here, not p1)."""
    game, state = make(OPEN, [(5.0, 10.0), (25.0, 10.0)])
    counter = Counter("c1", (32.0, 10.0), 3, 6)
    state.counters["c1"] = counter
    state.counter_seq = 1
    # ambush; the two positions; c1: 3 -> 2 enemies (grunts), order 2; c2: 2 -> 1 grunt, order 3
    state.dice = ScriptedDice(faces=[6, 1, 1, 3, 1, 1, 2, 2, 1, 3])
    res = resolution.resolve_counter(game.terrain(state), state, counter, None,
                                     game.scenario.roster, state.dice, game.settings,
                                     edition="kt2024")
    assert [r.outcome for r in res] == ["ambush", "ambush"]
    terrain = game.terrain(state)
    for cid in ("c1", "c2"):
        d = terrain.routes.distance((25.0, 10.0), state.counters[cid].at, R, R).distance
        assert 5.5 <= d <= 6.5


def test_a_false_alarm_goes_out_of_sight_in_its_new_sector() -> None:
    """003, enemy count 1: "False Alarm. Move counter to random table sector and roll for new
    hidden enemy order." -- placed like a seeded counter, out of sight when a point of the new
    sector is: sector 3 of the split board is behind the wall, and the counter lands there out of
    p1's sight."""
    game, state = make(SPLIT, [(2.0, 2.0)])
    counter = Counter("c1", (6.0, 9.0), 4, 4)
    state.counters["c1"] = counter
    state.dice = ScriptedDice(faces=[1, 3, 1, 5])  # false alarm, sector 3, first point, order 5
    (res,) = resolution.resolve_counter(game.terrain(state), state, counter, None,
                                        game.scenario.roster, state.dice, game.settings,
                                        edition="kt2024")
    assert res.outcome == "false_alarm"
    assert counter.sector == 3 and counter.hidden_order == 5
    assert not counter.resolve_first_turn
    assert spotting.spotted_by(game.terrain(state), state, counter) is None


def test_a_counter_is_never_placed_inside_a_terrain_feature() -> None:
    """003: "These counters are to be placed so that the player can not draw a line of sight to
    them" -- on the table, not inside a feature: a 1" x 1" light crate (which does not block
    movement) sits on the centre of an open sector; neither a hidden point nor the sector-centre
    fallback lands on it."""
    crate = {"id": "lc", "traits": ["light"], "polygon": [[4.5, 5.5], [5.5, 5.5], [5.5, 6.5],
                                                         [4.5, 6.5]]}
    board = {"name": "crate", "width": 30, "depth": 20, "features": [crate]}
    game, state = make(board, [(15.0, 2.0)])
    terrain = game.terrain(state)
    assert terrain.board.sector_centre(1) == (5.0, 5.0)  # the crate's centre is (5, 6)
    place = fog.place_in_sector(terrain, 1, fog.player_observers(state), ScriptedDice([]),
                                game.settings, "c1")
    assert place.resolve_first_turn  # the whole open sector is in p1's sight
    poly = Polygon(crate["polygon"])
    assert poly.distance(Point(place.at)) >= R - 1e-9
    pts = np.array([(x + 0.5, y + 0.5) for x in range(10) for y in range(10)], dtype=float)
    kept = fog.off_features(terrain, pts, R)
    assert all(poly.distance(Point(p)) >= R - 1e-9 for p in kept)
    # the grid points on the crate's corners (4.5|5.5, 5.5|6.5) are dropped; the next ones are
    # 1" from its edges, more than a counter's radius (0.63")
    assert len(kept) == 100 - 4
