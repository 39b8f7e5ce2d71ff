"""Kill Team 2018 Hammer of Wrath with an enemy unit of several models: only the models that
charged fight first; the unit's other engaged models wait for the rest of the fight phase.

004: "Models that charged in this battle round fight before all other models." The enemy
fights by units (003), but a unit's model that did not charge may not fight before a
player's model that did: the referee holds both sides to the same order.
"""

from __future__ import annotations

from solo_ops.game.engine import pending, step
from tests.support.pariah_table import engine_until_players, events, start


def _to_the_fight_phase():
    """The game, the state and the step at which the fight phase began: e2 stands within 1"
    of a2; e1 (the same Melee unit, command 5: charge Yes) charges a2;
    then a1 charges e2. Both sides hold fire. The enemy has the initiative (the roll-off 1 to
    6), so it is first to choose in the fight phase."""
    game, state = start({}, a1=(16, 18), a2=(10, 18), e1=(10, 14.5), e2=(11.5, 18),
                        command=5, faces=[1, 6, 6, 6, 6, 6] + [2] * 200)
    for _ in range(30):
        engine_until_players(game, state)
        prompt = pending(game, state)
        if state.phase == "fight":
            break
        if prompt.kind == "reaction":
            step(game, state, {"type": "reaction", "react": "none"})
        elif state.phase == "movement" and not state.operatives["a1"].activated:
            step(game, state, {"type": "activate", "operative": "a1"})
            step(game, state, {"type": "move", "how": "charge", "target": "e2",
                               "to": [12.5, 18.8]})
            step(game, state, {"type": "done", "operative": "a1"})
        elif state.phase == "movement":
            step(game, state, {"type": "activate", "operative": "a2"})
            step(game, state, {"type": "done", "operative": "a2"})
        else:
            step(game, state, {"type": "hold_fire"})
    assert state.operatives["e1"].charged and state.operatives["a1"].charged
    assert not state.operatives["e2"].charged
    since = next(i for i, record in enumerate(state.log) for e in record["events"]
                 if e["type"] == "phase" and e["phase"] == "fight")
    return game, state, since


def test_only_the_enemy_model_that_charged_fights_before_the_players_charger() -> None:
    game, state, since = _to_the_fight_phase()
    first = events(state, "enemy_activation", since)
    assert len(first) == 1 and first[0]["unit"] == "u1"
    assert {e["attacker"] for e in events(state, "fight", since)} == {"e1"}
    assert ("e2 did not charge: the models that charged (and those a Pariah Nexus effect puts "
            "there) fight first, in Hammer of Wrath; it fights later this phase if a player's "
            "model is within 1\" of it then.") in first[0]["explain"]
    assert not state.units["u1"].activated and not state.operatives["e2"].activated
    prompt = pending(game, state)
    assert prompt.kind == "activate" and prompt.options == ["a1"]  # a2 did not charge


def test_the_units_other_model_fights_after_the_players_charger() -> None:
    game, state, _ = _to_the_fight_phase()
    step(game, state, {"type": "activate", "operative": "a1"})
    step(game, state, {"type": "fight", "operative": "a1", "target": "e2"})
    if pending(game, state).kind == "act":
        step(game, state, {"type": "done", "operative": "a1"})
    since = len(state.log)
    engine_until_players(game, state)
    again = events(state, "enemy_activation", since)
    assert [e["unit"] for e in again] == ["u1"]
    attackers = {e["attacker"] for e in events(state, "fight", since)}
    assert attackers == ({"e2"} if state.operatives["e2"].on_table else set())
    assert state.units["u1"].activated
