"""A wall corner between two models: the small table of the one rule for walking past an
enemy's control range (:func:`solo_ops.rules.reach.keep_out`), for either side.

Two walls meet at (15, 12): ``wall-a`` runs south from it to (15, 9), ``wall-b`` east to
(22, 12). A model standing in the corner's inner side at :data:`INSIDE` (15.7, 11.3) is hidden
from the whole strip north of ``wall-b`` and west of ``wall-a``: every line from there to it
crosses a wall, and every route goes round a wall's far end. :data:`ABOVE` (15.7, 13.2), 1.9"
centre to centre north of it, is 0.9" from it base to base (25.4 mm bases, 0.5" radii) as the
crow flies, yet not in its control range (001 "Control Range Visible and within 1" of model
base"); so is every point of the walk east along y = 13.2 from :data:`PAST_START` through
:data:`ABOVE` to :data:`PAST_END` (6" exactly).
"""

from __future__ import annotations

from typing import Any

from solo_ops.core.dice import ScriptedDice
from solo_ops.game.engine import new_game, step
from solo_ops.io.scenario import parse_scenario
from tests.support.reach_games import BRUTE, GRUNT

WALLS = ({"id": "wall-a", "traits": ["wall"], "line": [[15, 9], [15, 12]]},
         {"id": "wall-b", "traits": ["wall"], "line": [[15, 12], [22, 12]]})
INSIDE = (15.7, 11.3)
PAST_START = (11.2, 13.2)
ABOVE = (15.7, 13.2)
PAST_END = (17.2, 13.2)
BEHIND_A = (14.3, 10.0)
"""West of ``wall-a``, 0.91" from :data:`INSIDE` as the crow flies (hypot(1.4, 1.3) - 1), out
of its sight: the start of a walk round the wall's south end."""
ROUND_THE_END = (16.2, 9.4)
"""South of :data:`INSIDE` on its own side of the walls, 0.96" from it and in its sight: in its
control range."""


def game(movers: str, *, mover_at: tuple[float, float] = PAST_START,
         far: tuple[float, float] | None = None) -> tuple[Any, Any]:
    """``movers`` ("players" or "enemy") has its model at ``mover_at`` (the player a1, or the
    enemy e1, a melee brute with Melee command 3: towards the closest enemy, charge "Yes");
    the other side's model stands at :data:`INSIDE` (e1, or the player p1). ``far``: a second
    player model p2 there (something for the enemy to walk towards). No hidden counters; the
    players' a1 is activated when they move."""
    inside, moving = ("e1", "a1") if movers == "players" else ("p1", "e1")
    player = [{"id": moving if movers == "players" else inside, "profile": GRUNT,
               "at": list(mover_at if movers == "players" else INSIDE)}]
    if far is not None:
        player.append({"id": "p2", "profile": GRUNT, "at": list(far)})
    enemy_at = INSIDE if movers == "players" else mover_at
    doc = {"name": "wall corner", "edition": "kt2024",
           "board": {"name": "corner", "width": 30, "depth": 22, "features": list(WALLS),
                     "zones": {"player": [[0, 0], [6, 0], [6, 22], [0, 22]],
                               "enemy": [[24, 0], [30, 0], [30, 22], [24, 22]]}},
           "engagement": 1, "seed": 1,
           "roster": {"name": "R", "profiles": {"grunt": GRUNT},
                      "table": {i: "grunt" for i in range(1, 7)}},
           "squads": [{"player": "Ana", "models": player}],
           "enemies": [{"id": "u1", "command": 3,
                        "models": [{"id": "e1", "profile": BRUTE, "at": list(enemy_at)}]}],
           "settings": {"cp_rerolls": "never"}}
    g, state = new_game(parse_scenario(doc, "corner.yaml"), 1)
    state.counters.clear()
    if movers == "players":
        state.dice = ScriptedDice(faces=[6, 1])  # the players win the initiative
        step(g, state, {"type": "engine"})
        step(g, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    return g, state
