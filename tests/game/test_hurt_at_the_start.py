"""A squad model may start the game hurt (a campaign's wound not healed): the scenario's
``wounds_lost`` are the wounds it starts without, at least 1 left — the engine's starting
state, the deployment's words, and Kill Team 2024's injured rule from the first turn (002
"Wounds below 50% = -1 to hit")."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from solo_ops.core.errors import InputError
from solo_ops.game.engine import new_game
from solo_ops.io.scenario import parse_scenario
from solo_ops.view.narrate import lines_for
from tests.support.small_table import BOARD, TROOPER


def doc(lost: dict[str, int], edition: str = "kt2024") -> dict[str, Any]:
    models = []
    for i, mid in enumerate(("a1", "a2", "a3")):
        entry: dict[str, Any] = {"id": mid, "profile": copy.deepcopy(TROOPER),
                                 "at": [3, 6 + 4 * i]}
        if mid in lost:
            entry["wounds_lost"] = lost[mid]
        models.append(entry)
    return {"name": "hurt", "edition": edition, "board": copy.deepcopy(BOARD),
            "engagement": 0, "squads": [{"player": "Ana", "models": models}]}


def test_the_game_starts_them_hurt() -> None:
    """Trooper: 8 wounds (1 in Kill Team 2018). 3 lost: 5 left; 8 lost: 1 left (at least 1);
    none: whole. Under half its wounds (5 of 8 is not; 1 of 8 is) it is injured."""
    _game, state = new_game(parse_scenario(doc({"a1": 3, "a2": 8}), "hurt.yaml"), 1)
    ops = state.operatives
    assert [ops[m].wounds for m in ("a1", "a2", "a3")] == [5, 1, 8]
    assert [ops[m].injured for m in ("a1", "a2", "a3")] == [False, True, False]
    assert ops["a1"].wounds_lost == 0  # lost in this mission: none yet (the survival test)
    deployed = state.log[0]["events"][0]
    assert deployed["models"][0] == {"id": "a1", "at": [3.0, 6.0], "wounds": 5, "max_wounds": 8}
    assert deployed["models"][2] == {"id": "a3", "at": [3.0, 14.0]}
    words = " ".join(lines_for(state.log[0]))
    assert "a1 (3.0, 6.0) (hurt: 5/8 wounds)" in words and "a3 (3.0, 14.0)." in words


def test_kill_team_2018_counts_its_own_wounds() -> None:
    """A 2018 trooper has 1 wound: whatever was lost, it starts with 1."""
    _game, state = new_game(parse_scenario(doc({"a1": 1}, "kt2018"), "hurt.yaml"), 1)
    assert state.operatives["a1"].wounds == 1


@pytest.mark.parametrize(("value", "message"), [
    (9, "must be at most 8"), (-1, "must be at least 0"), ("two", "expected a whole number")])
def test_wounds_lost_out_of_range_is_one_line(value: Any, message: str) -> None:
    with pytest.raises(InputError) as info:
        parse_scenario(doc({"a1": value}), "hurt.yaml")
    assert info.value.line().startswith("hurt.yaml: squads[0].models[0].wounds_lost: ")
    assert message in info.value.line()


def test_an_enemy_model_does_not_start_hurt() -> None:
    data = doc({})
    data["roster"] = {"name": "r", "profiles": {"trooper": copy.deepcopy(TROOPER)},
                      "table": dict.fromkeys(range(1, 7), "trooper")}
    data["enemies"] = [{"id": "u1", "models": [{"id": "e1", "profile": "trooper",
                                                "at": [27, 11], "wounds_lost": 2}]}]
    with pytest.raises(InputError, match=r"enemies\[0\]\.models\[0\]\.wounds_lost: unknown key"):
        parse_scenario(data, "hurt.yaml")
