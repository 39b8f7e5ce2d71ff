"""Opening a door or hatch is part of the move, for both sides, in both editions: the rest of
the move follows it. 002 Gallowdark "Operate Hatch 1AP: Open/Close hatch within Control Range.
Can be performed during a Reposition or Dash."; 004 Doors "In the Movement phase, at any point
when an INFANTRY model is making a normal move or Falling Back, it can open a door that is
within 1" of it ... If that model is now within 1" of any enemy models, it cannot move any
further"."""

from __future__ import annotations

from pathlib import Path

import pytest

from solo_ops.core.dice import ScriptedDice
from solo_ops.core.errors import RuleError
from solo_ops.game.engine import new_game, pending, step
from solo_ops.io.scenario import load_scenario
from tests.support.scenario_files import AXE, TROOPER, ai_plan, kinds, prof, scenario, text


def _wall(portal: str) -> tuple[dict, ...]:
    """A wall down x = 15 whose only way through is a closed ``portal`` at y 10-12."""
    return ({"id": "wall-n", "traits": ["wall"], "line": [[15, 12], [15, 22]]},
            {"id": f"{portal}-1", "traits": [portal], "line": [[15, 10], [15, 12]],
             "open": False},
            {"id": "wall-s", "traits": ["wall"], "line": [[15, 0], [15, 10]]})


@pytest.mark.parametrize(("edition", "portal", "move"), [("kt2024", "hatch", "reposition"),
                                                         ("kt2018", "door", "normal")])
def test_the_enemy_goes_on_after_opening(tmp_path: Path, edition: str, portal: str,
                                         move: str) -> None:
    """A brute (Melee command 3: Towards closest enemy) 2.8" from a closed hatch (2024) or
    door (2018) it must pass: it walks to it, opens it and goes on with the rest of its 6"
    (it used to lose it)."""
    path = scenario(tmp_path, [("u1", 3, [("e1", prof(AXE), (11.4, 11))])],
                    [("kell", TROOPER, (26, 11))], edition=edition, features=_wall(portal))
    plan = ai_plan(path, phase="movement" if edition == "kt2018" else None)
    assert kinds(plan) == [move, "operate_hatch", move]
    first, _, rest = plan["actions"]
    assert first["to"] == [14.2, 11.0] and rest.get("rest") is True
    assert rest["from"] == [14.2, 11.0] and rest["to"][0] > 15.5
    assert f"The rest of its {move}, after the door or hatch." in text(plan)


def _player_game(tmp_path: Path, edition: str, portal: str) -> tuple:
    """Kell 2.8" west of the closed portal, the enemy far beyond the wall; Kell active."""
    path = scenario(tmp_path, [("u1", 1, [("e1", prof(AXE), (28, 20))])],
                    [("kell", TROOPER, (11.4, 11))], edition=edition, features=_wall(portal))
    game, state = new_game(load_scenario(path), 1)
    state.counters.clear()
    state.dice = ScriptedDice(faces=[6, 1, 6, 1])  # the players win the roll-off
    while pending(game, state).kind not in ("activate",):
        step(game, state, {"type": "engine"})
    step(game, state, {"type": "activate", "operative": "kell", "stance": "engage"})
    return game, state


def test_a_player_goes_on_after_operating_a_hatch_2024(tmp_path: Path) -> None:
    """Kell repositions 2.8" to the hatch (1 AP), operates it (1 AP), then moves the 3.2" his
    Reposition left -- no AP, no second Reposition; more than that is refused."""
    game, state = _player_game(tmp_path, "kt2024", "hatch")
    step(game, state, {"type": "move", "how": "reposition", "to": [14.2, 11]})
    step(game, state, {"type": "portal", "feature": "hatch-1", "open": True})
    kell = state.operatives["kell"]
    assert kell.ap_used == 2 and kell.move_left == pytest.approx(3.2)
    with pytest.raises(RuleError, match=r'reposition 3\.2"'):
        step(game, state, {"type": "move", "how": "reposition", "to": [18.5, 11]})
    step(game, state, {"type": "move", "how": "reposition", "to": [16.2, 11]})
    assert kell.at == (16.2, 11) and kell.ap_used == 2


def test_a_player_goes_on_after_opening_a_door_2018(tmp_path: Path) -> None:
    """2018: Kell's normal move takes him 2.8" to the door, he opens it, and goes on with the
    3.2" left of his move (a second move would be refused: one move a battle round)."""
    game, state = _player_game(tmp_path, "kt2018", "door")
    assert state.phase == "movement"
    step(game, state, {"type": "move", "how": "normal", "to": [14.2, 11]})
    step(game, state, {"type": "portal", "feature": "door-1", "open": True})
    step(game, state, {"type": "move", "how": "normal", "to": [17.2, 11]})
    assert state.operatives["kell"].at == (17.2, 11)
    with pytest.raises(RuleError, match="has already moved this battle round"):
        step(game, state, {"type": "move", "how": "normal", "to": [17.4, 11]})
