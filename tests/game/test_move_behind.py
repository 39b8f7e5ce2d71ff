"""The relative answer ``move behind F`` (:func:`solo_ops.game.intent.propose`) ends out of
every enemy's sight, or in cover from it (001 "In Cover — … within 1" of anything intervening"):
never merely obscured, where the model could be shot; with no such point near F it is refused,
naming who still sees and from where. Reading: docs/rules.md, "Answers at the table".
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from solo_ops.core.errors import RuleError
from solo_ops.game import intent
from solo_ops.game.engine import new_game, pending, step
from solo_ops.game.state import ENEMY, Operative, Unit
from solo_ops.io.scenario import load_scenario
from tests.support.log_audit import SCENARIOS


def _vent_game() -> tuple[Any, Any]:
    """Volkus manufactorum: Sgt Kell active at (2.5, 13.5), an ork boy at (12, 13), nobody
    else on the table (no counters)."""
    sc = load_scenario(SCENARIOS / "volkus-manufactorum-sweep.yaml")
    game, state = new_game(sc, 1)
    state.counters.clear()
    step(game, state, {"type": "engine"})
    profile = sc.roster.profiles[sc.roster.table[1]].for_edition("kt2024")
    for o in list(state.operatives.values()):
        if o.side == ENEMY:
            del state.operatives[o.id]
        elif o.id != "kell":
            o.at, o.down, o.carried_to_safety = None, True, True
    state.units.clear()
    state.operatives["boy-1"] = Operative("boy-1", profile.name, ENEMY, "u1", profile,
                                          (12.0, 13.0), profile.wounds)
    state.units["u1"] = Unit("u1", ["boy-1"], "fire-teams", 3, 7, fsm="idle")
    state.operatives["kell"].at = (2.5, 13.5)
    assert pending(game, state).kind == "activate"
    step(game, state, {"type": "activate", "operative": "kell", "stance": "engage"})
    return game, state


def test_behind_vent_1_ends_out_of_sight_or_in_cover() -> None:
    game, state = _vent_game()
    terrain = game.terrain(state)
    kell, boy = state.operatives["kell"], state.operatives["boy-1"]
    # what the old reading chose: the cheapest point next to the vent "obscured" to the boy,
    # which `geom cover` calls "Visible, obscured" (not in cover: he could be shot)
    old = terrain.sight.cover(boy.at, (4.25, 15.25), boy.radius, kell.radius)
    assert old.visible and old.obscured and not old.in_cover
    found = intent.propose(game, state, {"type": "move", "how": "reposition",
                                         "relation": "behind", "ref": "vent-1"})
    now = terrain.sight.cover(boy.at, found.to, boy.radius, kell.radius)
    assert (not now.visible) or now.in_cover
    assert found.to != (4.25, 15.25)
    step(game, state, found.action)  # and the engine takes it
    assert state.operatives["kell"].at == found.to


def test_behind_with_no_such_point_is_refused_naming_who_sees_and_from_where() -> None:
    from tests.support.small_table import BOARD, game_at

    board: dict[str, Any] = json.loads(json.dumps(BOARD))
    # a tuft of grass: exposed, it hides nothing and gives no cover
    board["features"].append({"id": "grass-1", "traits": ["light", "exposed"],
                              "polygon": [[6, 9], [7, 9], [7, 11], [6, 11]]})
    game, state = game_at(enemy_at=(12, 10), board=board)
    with pytest.raises(RuleError, match=re.escape(
            "still sees the nearest one")) as refused:
        intent.propose(game, state, {"type": "move", "how": "reposition", "relation": "behind",
                                     "ref": "grass-1"})
    assert "e1 at (12.0, 10.0)" in str(refused.value)


def test_behind_a_thin_wall_as_the_route_lines_name_it() -> None:
    """A route line names the walls it goes round ("by the route around wall-15"), and a
    player then types ``move behind wall-15``: a thin wall is something to get behind (it was
    refused, "no terrain feature called 'wall-15'"). The small table: wall-1 along x = 15 from
    y 4 to 18, e1 at (27, 11) east of it, a1 at (12, 10): the nearest grid point (0.25" steps
    from a1) within 1" of the wall, 15 - x - 0.4921 <= 1, is x = 13.75, 1.75" away, out of
    e1's sight behind the wall."""
    from tests.support.small_table import game_at

    game, state = game_at()
    state.operatives["a1"].at = (12.0, 10.0)
    p = intent.propose(game, state, _parsed("move behind wall-1"))
    assert p.to == (13.75, 10.0) and p.cost == pytest.approx(1.75)
    assert p.gap == pytest.approx(15 - 13.75 - state.operatives["a1"].radius)  # to the wall
    terrain = game.terrain(state)
    assert not terrain.sight.visible(p.to, state.operatives["e1"].at, state.operatives["a1"].radius,
                                     state.operatives["e1"].radius)


def test_a_thin_wall_is_not_somewhere_to_go() -> None:
    from tests.support.small_table import game_at

    game, state = game_at()
    for words in ("move to wall-1", "move 2 toward wall-1"):
        with pytest.raises(RuleError, match=re.escape(
                "wall-1 is a wall: it is named to get behind it ('move behind wall-1'), not to "
                "go to")):
            intent.propose(game, state, _parsed(words))


def _parsed(words: str) -> dict[str, Any]:
    from solo_ops.view.answers import parse

    return parse(words, "act")
