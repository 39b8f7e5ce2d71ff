"""003 Enemy count, 6 "Ambush! Take a second counter and move it and the original counter to
6' away from the player unit that spotted the hidden enemy force within line of sight, next to
a hidden position if possible, such as a building or trench." The counters go where the
spotter sees them -- never behind a wall out of its sight -- and no model they reveal lands in
another player model's control range (an ambush is a surprise, not a melee)."""

from __future__ import annotations

import math

from solo_ops.core.dice import SeededDice
from solo_ops.game import fog
from tests.support.fog_boards import make

# a corridor: Corvin (p1) at its west end; a wall 4" south of him hides the band beyond it
CORRIDOR = {"name": "corridor", "width": 30, "depth": 20, "features": [
    {"id": "south", "traits": ["wall"], "line": [[0, 7], [22, 7]]},
    {"id": "crate", "traits": ["light"], "polygon": [[9.0, 12.0], [9.4, 12.0], [9.4, 13.6],
                                                     [9.0, 13.6]]}]}


def test_ambush_counters_are_in_the_spotters_sight_and_clear_of_every_player() -> None:
    """Corvin (p1) spots at (4, 11); Sgt Kell (p2) stands 6" east of him. Over forty seeded
    draws both counters are 6" (+-0.5") from Corvin by route, in his sight, and at least
    ``AMBUSH_CLEAR`` (4") from every player's base -- so the models they reveal (within 2.5"
    of the counter) are never in a control range."""
    game, state = make(CORRIDOR, [(4.0, 11.0), (10.0, 11.0)])
    terrain = game.terrain(state)
    corvin = state.operatives["p1"]
    for seed in range(40):
        spots = fog._ambush_spots(terrain, state, corvin, game.settings, ["x", "y"],
                                  SeededDice(seed=seed))
        assert len(spots) == 2
        for spot in spots:
            assert terrain.sight.visible(corvin.at, spot, corvin.radius, fog.COUNTER_RADIUS)
            d = terrain.routes.distance(corvin.at, spot, corvin.radius,
                                        fog.COUNTER_RADIUS).distance
            assert d is not None and abs(d - 6.0) <= 0.5 + 1e-9
            for p in state.operatives.values():
                assert math.dist(p.at, spot) - p.radius >= fog.AMBUSH_CLEAR - 1e-9
