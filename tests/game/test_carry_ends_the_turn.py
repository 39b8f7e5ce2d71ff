"""003 Carrying models to safety: picking up a downed friend "ends all actions for this
turn" -- no counteract after it in the same turning point -- and ``carry`` names only a
friend lying on the table, not one already carried."""

from __future__ import annotations

import copy

import pytest

from solo_ops.core.dice import ScriptedDice
from solo_ops.core.errors import RuleError
from solo_ops.game import intent
from solo_ops.game.engine import Game, new_game, pending, step
from solo_ops.game.state import State
from solo_ops.game.turns import counteract_candidates
from solo_ops.io.scenario import parse_scenario

TROOPER = {"name": "Trooper", "movement": 6, "leadership": 7, "toughness": 3, "wounds": 8,
           "save": 4, "base_mm": 25, "apl": 2,
           "weapons": [{"name": "lasgun", "type": "rapid", "range": 24, "attacks": 4, "hit": 4,
                        "damage": [2, 3]}]}
# A wall right across the middle: the enemy on the far side can neither see nor reach the
# squad. Two enemy units, so the enemy still has one ready when the players have none.
BOARD = {"name": "carry table", "width": 30, "depth": 22,
         "features": [{"id": "wall-1", "traits": ["wall"], "line": [[15, 0], [15, 22]]}],
         "zones": {"player": [[0, 0], [6, 0], [6, 22], [0, 22]],
                   "enemy": [[24, 0], [30, 0], [30, 22], [24, 22]]}}


def game_with_two_downed(helper: bool = False) -> tuple[Game, State]:
    """a1 beside a2; a3 further off; a4 (``helper``) beside a2 too. a2 and a3 go down."""
    places = [("a1", [3, 10]), ("a2", [4.5, 10]), ("a3", [3, 13])]
    if helper:
        places.append(("a4", [6, 10]))
    models = [{"id": i, "profile": copy.deepcopy(TROOPER), "at": at} for i, at in places]
    doc = {"name": "carry test", "edition": "kt2024", "board": copy.deepcopy(BOARD),
           "roster": {"name": "r", "profiles": {"trooper": copy.deepcopy(TROOPER)},
                      "table": {i: "trooper" for i in range(1, 7)}},
           "engagement": 0, "seed": 1, "squads": [{"player": "Ana", "models": models}],
           "enemies": [{"id": u, "command": 1, "models": [
               {"id": m, "profile": "trooper", "at": at}]}
               for u, m, at in (("u1", "e1", [27, 8]), ("u2", "e2", [27, 14]))],
           "settings": {"turns": 2, "cp_rerolls": "never"}}
    game, state = new_game(parse_scenario(doc, "carry.yaml"), 1)
    state.counters.clear()
    state.dice = ScriptedDice(faces=[6, 1, 6, 1])  # the players win the roll-offs
    step(game, state, {"type": "engine"})
    step(game, state, {"type": "down", "operative": "a2"})
    step(game, state, {"type": "down", "operative": "a3"})
    return game, state


def _one_enemy_activation(game: Game, state: State) -> None:
    while not any(u.activated for u in state.units.values()):
        assert pending(game, state).kind == "engine"
        step(game, state, {"type": "engine"})


def test_no_counteract_after_picking_up_a_friend() -> None:
    """The carrier picks up a2 (its activation ends), the enemy activates one unit, and the
    players have nothing ready while the enemy still has a unit: Counteract (001) would offer
    an expended Engage operative -- as it does when a1 ends its activation with ``done`` --
    but the carrier's actions ended for this turn."""
    game, state = game_with_two_downed()
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    step(game, state, {"type": "done", "operative": "a1"})
    _one_enemy_activation(game, state)
    assert [o.id for o in counteract_candidates(game, state, "player")] == ["a1"]

    game, state = game_with_two_downed()
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    step(game, state, {"type": "carry", "operative": "a1", "target": "a2"})
    _one_enemy_activation(game, state)
    a1 = state.operatives["a1"]
    assert a1.activated and a1.stance == "engage" and a1.carrying == "a2"
    assert [u.id for u in state.units.values() if not u.activated] == ["u2"]
    assert counteract_candidates(game, state, "player") == []
    assert pending(game, state).kind != "counteract"


def test_carry_names_no_friend_already_carried() -> None:
    """a1 carries a2; then a4, beside a2, answers ``carry a2``: refused, and the valid
    choices it names are the friends lying on the table (a3 alone)."""
    game, state = game_with_two_downed(helper=True)
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    step(game, state, {"type": "carry", "operative": "a1", "target": "a2"})
    while pending(game, state).kind == "engine":
        step(game, state, {"type": "engine"})
    step(game, state, {"type": "activate", "operative": "a4", "stance": "engage"})
    with pytest.raises(RuleError) as refused:
        intent.resolve_ids(game, state, {"type": "carry", "target": "a2"},
                           pending(game, state))
    assert str(refused.value) == "no downed friend called 'a2' (choose from: a3)"
