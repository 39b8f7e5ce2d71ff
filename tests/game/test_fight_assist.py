"""Kill Team 2024 fight helpers on both sides (setting ``fight_assist``). 001 "IMPROVE hit stat
by 1 for every friendly also within Control Range of the target AND no other enemy. Both roll
attack dice." The engine used to improve the attacker's Hit alone; the Kill Team 2024 core
rules assist whoever fights or retaliates, so the defender's friends in control range of the
attacker (and of no other enemy) now improve the defender's Hit too (``both``, the default);
``attacker`` keeps the older reading. Both sides by one rule: the players' fight and the
enemy's.

The small table (:mod:`tests.support.small_table`): 25 mm bases, radius 0.4921"; a1 at
(3, 10); e1 at (4, 10), 0.016" from a1; e2 at (3, 11.1), 0.116" from a1 and more than 1" from
e1's other foes (a2 is far off at (1, 20)). Knives: 3 attacks, Hit 4+, damage 2/3. The dice
are scripted: the attacker's three dice first, then the defender's."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from solo_ops.ai.context import Action
from solo_ops.game import fights
from solo_ops.game.engine import step
from tests.support.small_table import TROOPER, start


def _game(assist: str | None, faces: list[int], **more: str) -> tuple[Any, Any]:
    settings: dict[str, Any] = {"turns": 2, "cp_rerolls": "never", "fight_choices": "auto",
                                **more}
    if assist is not None:
        settings["fight_assist"] = assist
    # initiative 6 v 1: the players first
    game, state = start("kt2024", faces=[6, 1, *faces], settings=settings, squads=[
        {"player": "Ana", "models": [
            {"id": "a1", "profile": copy.deepcopy(TROOPER), "at": [3, 10]},
            {"id": "a2", "profile": copy.deepcopy(TROOPER), "at": [1, 20]}]}],
        enemies=[{"id": "u1", "command": 5, "models": [
            {"id": "e1", "profile": "trooper", "at": [4, 10]},
            {"id": "e2", "profile": "trooper", "at": [3, 11.1]}]}])
    step(game, state, {"type": "engine"})
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    return game, state


@pytest.mark.parametrize("assist", [None, "both"])
def test_the_defender_s_friend_in_control_range_of_the_attacker_assists_it(
        assist: str | None) -> None:
    # a1's dice 1 1 1: no hits. e1's 3 3 3: hits at 3+ (4+ improved by e2), 3 normal hits,
    # each struck for 2: a1 takes 6 of its 8 wounds
    game, state = _game(assist, [1, 1, 1, 3, 3, 3])
    record = step(game, state, {"type": "fight", "target": "e1", "roll": True})
    fight = next(e for e in record["events"] if e["type"] == "fight")
    lines = fight["lines"]
    assert "e1 has 1 friendly helper(s): hit 3+." in lines
    assert not any(line.startswith("a1 has") for line in lines)  # a2 is far off
    assert [r["faces"] for r in record["rolls"]] == [[1, 1, 1], [3, 3, 3]]
    assert fight["damage"] == 0 and fight["damage_taken"] == 6
    assert state.operatives["a1"].wounds == 2


def test_the_attacker_alone_is_assisted_under_the_older_reading() -> None:
    # the same dice: e1's 3 3 3 miss at 4+, nothing is dealt either way
    game, state = _game("attacker", [1, 1, 1, 3, 3, 3])
    record = step(game, state, {"type": "fight", "target": "e1", "roll": True})
    fight = next(e for e in record["events"] if e["type"] == "fight")
    assert not any("helper" in line for line in fight["lines"])
    assert fight["damage"] == 0 and fight["damage_taken"] == 0
    assert state.operatives["a1"].wounds == 8


def test_an_unknown_reading_is_refused_by_name() -> None:
    with pytest.raises(Exception, match="fight_assist"):
        _game("defender", [])


def test_the_players_defender_is_assisted_in_the_enemy_s_fight() -> None:
    # the enemy's fight by the same rule: e1 fights a1; a2 at (5, 10.3) is 0.06" from e1 and
    # 1.17" from e2, so it assists a1. e1's dice 1 1 1; a1's 3 3 3 hit at 3+: e1 takes 6
    game, state = _game(None, [1, 1, 1, 3, 3, 3])
    state.operatives["a2"].at = (5.0, 10.3)
    e1, a1 = state.operatives["e1"], state.operatives["a1"]
    result = fights.roll_fight(game, state, e1, a1)
    assert "a1 has 1 friendly helper(s): hit 3+." in result.lines
    assert (result.damage, result.damage_taken) == (0, 6)


def test_a_fight_the_players_roll_by_hand_names_both_sides_helpers() -> None:
    # enemy_attacks: player: the text the players roll from counts the helpers as the engine
    # would. e1 fights a1: e2 (0.116" from a1, far from a2) helps e1; a2 at (5, 10.3) helps a1
    game, state = _game(None, [], enemy_attacks="player")
    state.operatives["a2"].at = (5.0, 10.3)
    e1 = state.operatives["e1"]
    events = fights.enemy_fight(game, state, e1, Action("fight", "e1", target="a1"))
    assert events[0]["type"] == "attack_pending"
    assert events[0]["note"].endswith(
        "e1 hits 1 better for each of 1 friendly helper(s); a1 hits 1 better for each of 1 "
        "friendly helper(s).")
