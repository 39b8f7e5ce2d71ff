"""An enemy unit that charged into a fight by its own order (a Fire Team's "Within 6"") and
is still locked in it at its next activation: one reading for both editions, the
``own_charge_fight`` setting. 003 Movement Orders: "Remain Stationary: Unit will not move
unless forced to by falling back or similar situation" -- falling back is what a unit is
forced into; a unit that sought the fight (default ``stay``) fights on, in 2024 as in 2018;
``fall_back`` makes it fall back out of it in both."""

from __future__ import annotations

from pathlib import Path

import pytest

from solo_ops.ai.planner import plan_activation
from solo_ops.game import enemy
from solo_ops.game.engine import new_game
from solo_ops.io.scenario import load_scenario
from tests.support.scenario_files import GUN, KNIFE, prof, scenario

SHORT_GUN = {**GUN, "range": 2}  # no shot from 4" away: the Fire Team charges (command 4)


def _charged(tmp_path: Path, edition: str, setting: str) -> tuple:
    """A Fire Teams unit (command 4: Hold 12", Unhindered move, Charge within 6") 4" from a
    trooper (3" edge to edge), both of 18 wounds: its first activation charges and (2024)
    fights; the game as it stands after it."""
    path = scenario(tmp_path, [("u1", 4, [("e1", prof(SHORT_GUN, KNIFE, wounds=18), (5, 11))])],
                    [("kell", prof(GUN, KNIFE, wounds=18), (9, 11))], edition=edition,
                    settings={"own_charge_fight": setting})
    game, state = new_game(load_scenario(path), 1)
    if edition == "kt2018":
        state.phase = "movement"
        first = plan_activation(game.context(state), state, "u1", "movement")
        first.actions[0].to = (8.0, 11.0)  # the charge roll taken to succeed: within 1"
        state.operatives["e1"].at = (8.0, 11.0)
        state.units["u1"].fsm = "charging"
        for op in state.operatives.values():
            op.moved_how = None
    else:
        first = plan_activation(game.context(state), state, "u1", "firefight")
        enemy.apply_plan(game, state, first)
    assert "charge" in [a.kind for a in first.actions]
    assert state.units["u1"].fsm == "charging"
    return game, state


@pytest.mark.parametrize("edition", ["kt2024", "kt2018"])
def test_it_fights_on_where_it_charged(tmp_path: Path, edition: str) -> None:
    game, state = _charged(tmp_path, edition, "stay")
    phase = "firefight" if edition == "kt2024" else "movement"
    again = plan_activation(game.context(state), state, "u1", phase)
    assert "fall_back" not in [a.kind for a in again.actions]
    if edition == "kt2024":
        assert [a.kind for a in again.actions] == ["fight"]
    assert ("e1's unit charged into this fight by its own order: it fights on (setting "
            "own_charge_fight: stay).") in again.explain


@pytest.mark.parametrize("edition", ["kt2024", "kt2018"])
def test_the_setting_makes_it_fall_back_in_both_editions(tmp_path: Path, edition: str) -> None:
    game, state = _charged(tmp_path, edition, "fall_back")
    phase = "firefight" if edition == "kt2024" else "movement"
    again = plan_activation(game.context(state), state, "u1", phase)
    assert [a.kind for a in again.actions] == ["fall_back"]
