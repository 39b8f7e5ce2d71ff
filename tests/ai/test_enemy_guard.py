"""Guard (Gallowdark, Kill Team 2024) for the enemy: going On Guard, interrupting a player
operative's activation after its first action with logged dice, and when Guard ends.

The board: a wall along x = 15 from y 4 to 16. The enemy e1 (Fire Teams command 1: remain
stationary, fire at will) stands east of it at (20, 11); the players' a1 and a2 are west of
it, out of its sight. Dice are scripted so every roll is exact.
"""

from __future__ import annotations

from solo_ops.game.engine import pending, step
from solo_ops.view.player import player_view
from tests.support.guard_board import enemy_goes_first, start


def test_no_target_in_sight_and_range_goes_on_guard() -> None:
    game, state = start([1, 6])
    record = enemy_goes_first(game, state)
    e1 = state.operatives["e1"]
    assert e1.on_guard and e1.stance == "engage"
    activation = next(e for e in record["events"] if e["type"] == "enemy_activation")
    assert [a["kind"] for a in activation["plan"]["actions"]] == ["guard"]
    assert activation["plan"]["guard"] == ["e1"]
    assert any("e1 goes On Guard (Guard, 1 AP): no enemy in sight and range" in line
               for line in activation["explain"])
    assert [e["type"] for e in record["events"]].count("on_guard") == 1
    # the players see it (a fact on the table, not a secret)
    view = player_view(game, state)
    assert next(o for o in view["enemies"] if o["id"] == "e1")["on_guard"] is True


def test_guard_interrupts_a_move_that_ends_in_sight_and_range_with_its_dice_logged() -> None:
    # initiative 1 v 6; the interrupt: attack dice 5 1 1 1 (one normal hit on 4+), defence
    # dice 1 1 1 (no saves): 3 damage
    game, state = start([1, 6, 5, 1, 1, 1, 1, 1, 1])
    enemy_goes_first(game, state)
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    record = step(game, state, {"type": "move", "to": [12, 20]})
    types = [e["type"] for e in record["events"]]
    assert types[0] == "moved"
    assert "guard_interrupt" in types and "attack" in types
    interrupt = next(e for e in record["events"] if e["type"] == "guard_interrupt")
    assert interrupt["operative"] == "e1" and interrupt["target"] == "a1"
    assert interrupt["how"] == "shoot"
    attack = next(e for e in record["events"] if e["type"] == "attack")
    assert attack["attacker"] == "e1" and attack["weapon"] == "autogun"
    assert attack["damage"] == 3
    assert state.operatives["a1"].wounds == 7
    assert [r["faces"] for r in record["rolls"]] == [[5, 1, 1, 1], [1, 1, 1]]
    assert all("e1 shoots a1" in r["purpose"] for r in record["rolls"])
    assert len(record["rolls"]) == 2  # attack dice, defence dice
    assert state.operatives["e1"].on_guard is False  # it acted: Guard is over
    # only after the first action: the second one is not interrupted
    assert pending(game, state).kind == "act"


def test_guard_waits_while_the_first_action_leaves_the_operative_out_of_sight() -> None:
    game, state = start([1, 6])
    enemy_goes_first(game, state)
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    record = step(game, state, {"type": "move", "to": [12, 13]})
    assert not [e for e in record["events"] if e["type"] == "guard_interrupt"]
    assert record["rolls"] == []
    assert state.operatives["e1"].on_guard is True
    # the second action is not an interrupt point either
    record = step(game, state, {"type": "move", "how": "dash", "to": [12, 15.5]})
    assert not [e for e in record["events"] if e["type"] == "guard_interrupt"]


def test_guard_hands_the_roll_to_the_player_when_they_roll_enemy_attacks() -> None:
    game, state = start([1, 6], enemy_attacks="player")
    enemy_goes_first(game, state)
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    record = step(game, state, {"type": "move", "to": [12, 20]})
    assert [e["type"] for e in record["events"]][-2:] == ["guard_interrupt", "attack_pending"]
    prompt = pending(game, state)
    assert prompt.kind == "attack" and prompt.data["attacker"] == "e1"
    step(game, state, {"type": "attack_damage", "damage": 4})
    assert state.operatives["a1"].wounds == 6
    assert pending(game, state).kind == "act"  # a1's activation goes on


def test_a_concealed_operative_in_cover_is_not_a_valid_target() -> None:
    game, state = start([1, 6])
    enemy_goes_first(game, state)
    step(game, state, {"type": "activate", "operative": "a1", "stance": "conceal"})
    # (14.3, 17): just past the wall's end, in cover behind it
    record = step(game, state, {"type": "move", "to": [14.4, 16.6]})
    terrain = game.terrain(state)
    cover = terrain.sight.cover((20, 11), (14.4, 16.6), 0.5, 0.5)
    assert cover.visible and cover.in_cover
    assert not [e for e in record["events"] if e["type"] == "guard_interrupt"]


def test_guard_ends_at_the_next_turning_point() -> None:
    # turning point 1: 1 v 6; turning point 2: 6 v 1
    game, state = start([1, 6, 6, 1])
    enemy_goes_first(game, state)
    assert state.operatives["e1"].on_guard
    for op in ("a1", "a2"):
        while pending(game, state).kind == "engine":  # e1 may counteract: no target, it passes
            step(game, state, {"type": "engine"})
        step(game, state, {"type": "activate", "operative": op})
        step(game, state, {"type": "done"})
    record = step(game, state, {"type": "engine"})  # end of TP 1, start of TP 2
    assert state.turn == 2
    assert state.operatives["e1"].on_guard is False
    ended = [e for e in record["events"] if e["type"] == "guard_ended"]
    assert ended == [{"type": "guard_ended", "operative": "e1", "why": "a new turning point"}]


def test_guard_ends_when_an_enemy_ends_an_action_in_its_control_range() -> None:
    from solo_ops.game import enemy

    game, state = start([1, 6])
    enemy_goes_first(game, state)
    a1 = state.operatives["a1"]
    a1.at = (18.5, 11)  # 0.5" from e1
    events = enemy.guards_engaged(game, state, a1)
    assert events[0]["type"] == "guard_ended"
    assert state.operatives["e1"].on_guard is False


def test_a_guard_in_control_range_fights_with_its_melee_weapon() -> None:
    from solo_ops.ai.planner import guard_reaction

    game, state = start([1, 6])
    enemy_goes_first(game, state)
    state.operatives["a1"].at = (18.5, 11)
    how, action = guard_reaction(game.context(state), state, "e1", "a1")  # type: ignore[misc]
    assert how == "fight" and action.target == "a1" and action.weapon == "knife"


def test_a_guard_without_a_melee_weapon_shoots_in_control_range_at_minus_1_to_hit() -> None:
    from solo_ops.game import enemy

    # the attack die 4 would hit on 4+; at -1 to hit (5+) it misses
    game, state = start([1, 6, 4, 1, 1, 1], knife=False)
    enemy_goes_first(game, state)
    a1 = state.operatives["a1"]
    a1.at = (18.5, 11)
    events = enemy.guard_interrupts(game, state, a1)
    assert [e["type"] for e in events] == ["guard_interrupt", "attack"]
    assert "-1 to hit" in events[0]["note"] and "-1 to hit" in events[1]["note"]
    assert events[1]["damage"] == 0
    assert state.dice.log[-1].purpose.endswith("attack dice, hit 5+")
