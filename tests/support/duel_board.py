"""A duel on an open Gallowdark board: Sgt Kell (a1) and the enemy gunner e1 1.2" apart
centre to centre, a2 far from both; the dice scripted."""

from __future__ import annotations

from typing import Any

from solo_ops.core.dice import ScriptedDice
from solo_ops.game.engine import new_game
from solo_ops.io.scenario import parse_scenario


def duel(faces: list[int]) -> tuple[Any, Any]:
    """The duel's game and state, its counters cleared and ``faces`` the dice to come."""
    import copy

    import tests.support.guard_board as tg

    doc = {"name": "duel", "edition": "kt2024",
           "board": {"name": "open", "width": 30, "depth": 22, "killzone": "gallowdark"},
           "roster": {"name": "r", "profiles": {"gunner": copy.deepcopy(tg.GUNNER)},
                      "table": {i: "gunner" for i in range(1, 7)}},
           "engagement": 1, "seed": 1,
           "squads": [{"player": "Ana", "models": [
               {"id": "a1", "name": "Sgt Kell", "profile": copy.deepcopy(tg.GUNNER),
                "at": [10, 10]},
               {"id": "a2", "profile": copy.deepcopy(tg.GUNNER), "at": [3, 3]}]}],
           "enemies": [{"id": "u1", "command": 1, "models": [
               {"id": "e1", "profile": copy.deepcopy(tg.GUNNER), "at": [11.2, 10]}]}]}
    game, state = new_game(parse_scenario(doc, "duel.yaml"), 1)
    state.counters.clear()
    state.dice = ScriptedDice(faces=faces)
    return game, state
