"""Relative answers turned into points (:mod:`solo_ops.game.intent`), on the small hand-made
board of :mod:`tests.game.test_engine` (30" x 22", a wall along x = 15 from y 4 to 18, obj-1 at
(4, 11), obj-2 at (26, 11)); bases are 25 mm, radius 25 / 2 / 25.4 = 0.4921". Every expected
point is worked out by hand in the test's comment."""

from __future__ import annotations

import copy
import math
import re
from typing import Any

import pytest

from solo_ops.core.errors import RuleError
from solo_ops.game import intent
from solo_ops.game.engine import new_game, pending, step
from solo_ops.io import library
from solo_ops.io.scenario import load_scenario
from solo_ops.rules.reach import in_control_range
from tests.support.small_table import BOARD, game_at


def propose(game: Any, state: Any, text: str) -> intent.Proposal:
    from solo_ops.view.answers import parse

    return intent.propose(game, state, parse(text, "act"))


def test_to_a_marker_within_the_move_ends_on_it() -> None:
    game, state = game_at()
    p = propose(game, state, "move to obj-1")
    # (3, 10) -> (4, 11): straight, sqrt(2)
    assert p.to == (4.0, 11.0)
    assert p.cost == pytest.approx(math.sqrt(2), abs=1e-6)
    assert p.action == {"type": "move", "how": "reposition", "to": [4.0, 11.0]}


def test_a_distance_toward_a_marker_goes_that_far_along_the_route() -> None:
    game, state = game_at()
    p = propose(game, state, "move 1 toward obj-1")
    # 1" along (1, 1)/sqrt(2): (3.7071, 10.7071), recorded to 0.01"
    assert p.to == (3.71, 10.71)
    step(game, state, p.action)
    assert state.operatives["a1"].at == (3.71, 10.71)


def test_to_a_far_marker_goes_as_far_as_the_move_allows_around_the_wall() -> None:
    game, state = game_at()
    p = propose(game, state, "move to obj-2")
    # the straight line crosses the wall; round its south end (15, 4 - r): the first leg
    # heads for about (15, 3.51), so 6" along it is (3, 10) + 6 * (12, -6.49) / 13.64
    assert p.to[0] == pytest.approx(3 + 6 * 12 / math.hypot(12, 6.49), abs=0.06)
    assert p.to[1] == pytest.approx(10 - 6 * 6.49 / math.hypot(12, 6.49), abs=0.06)
    assert p.cost == pytest.approx(6.0, abs=0.02)


def test_base_contact_with_a_friend_and_a_charge_into_base_contact_with_an_enemy() -> None:
    game, state = game_at(a2=(6, 10))
    p = propose(game, state, "move into base contact with a2")
    # the ring of radius 2r + 0.02 round (6, 10) has a point due west: (6 - 1.00425, 10)
    assert p.to == (5.0, 10.0) and p.action["how"] == "reposition"
    assert p.cost == pytest.approx(2.0, abs=1e-6)
    game, state = game_at(enemy_at=(7, 10))
    p = propose(game, state, "charge e1")
    assert p.to == (6.0, 10.0)
    assert p.action == {"type": "move", "how": "charge", "to": [6.0, 10.0], "target": "e1"}
    step(game, state, p.action)  # the engine accepts it as a charge
    assert state.operatives["a1"].at == (6.0, 10.0)


def test_a_reposition_from_inside_control_range_is_refused() -> None:
    game, state = game_at(enemy_at=(4.2, 10))
    with pytest.raises(RuleError, match="a1 is in control range of e1: it can only fall back"):
        propose(game, state, "move to obj-1")


def test_a_move_to_an_enemy_stops_outside_its_control_range() -> None:
    game, state = game_at(enemy_at=(10, 10))
    p = propose(game, state, "move to e1")
    # west of e1 by 2r + 1" + 0.1" margin: x = 10 - 2.0842 = 7.9158 -> 7.92
    assert p.to == (7.92, 10.0)
    step(game, state, p.action)
    assert state.operatives["a1"].at == (7.92, 10.0)


def test_behind_a_crate_is_the_nearest_point_next_to_it_in_cover() -> None:
    board = copy.deepcopy(BOARD)
    board["features"].append({"id": "crate-2", "traits": ["light"],
                              "polygon": [[6, 9], [7, 9], [7, 11], [6, 11]]})
    game, state = game_at(enemy_at=(12, 10), board=board)
    p = propose(game, state, "move behind crate-2")
    # grid points 0.25" apart from (3, 10); within 1" of the crate means x >= 6 - 1 - r =
    # 4.508, so x = 4.75 at the least; the cheapest is (4.75, 10), 1.75" away, and the
    # crate lies between it and e1, within 2" of it: light cover
    assert p.to == (4.75, 10.0)
    assert p.cost == pytest.approx(1.75, abs=1e-6)


def test_refusals_say_why() -> None:
    game, state = game_at()
    with pytest.raises(RuleError, match=re.escape("can reposition at most 6.0\", not 7\"")):
        propose(game, state, "move 7 toward obj-2")
    with pytest.raises(RuleError, match="'obj' could be obj-1 or obj-2"):
        propose(game, state, "move to obj")
    with pytest.raises(RuleError, match="no thing on the table called 'nowhere'"):
        propose(game, state, "move to nowhere")
    with pytest.raises(RuleError, match="no terrain feature called 'obj-1'"):
        propose(game, state, "move behind obj-1")
    with pytest.raises(RuleError, match="wall-1 is out of reach: no point within 1\" of it"):
        propose(game, state, "move behind wall-1")  # a thin wall 12" off: beyond the move
    with pytest.raises(RuleError,
                       match=r"base contact with e1 is 2[0-9]\.[0-9]\" around the walls"):
        propose(game, state, "move into base contact with e1")


def test_match_is_case_insensitive_and_takes_unambiguous_prefixes() -> None:
    choices = ["kell", "kellan-2", "rask", "Vale"]
    assert intent.match("KELL", choices, "operative") == "kell"
    assert intent.match("ras", choices, "operative") == "rask"
    assert intent.match("vale", choices, "operative") == "Vale"
    with pytest.raises(RuleError, match="'kel' could be kell or kellan-2"):
        intent.match("kel", choices, "operative")
    with pytest.raises(RuleError, match=r"no operative called 'x' \(choose from: kell, "
                                        r"kellan-2, rask, Vale\)"):
        intent.match("x", choices, "operative")


def test_ids_and_the_only_weapon_that_fits_are_filled_in() -> None:
    game, state = game_at(enemy_at=(10, 10))
    from solo_ops.game.engine import pending

    prompt = pending(game, state)
    got = intent.resolve_ids(game, state, {"type": "shoot", "target": "E", "roll": True},
                             prompt)
    assert got == {"type": "shoot", "target": "e1", "roll": True, "weapon": "lasgun"}
    # only enemies are offered as targets
    with pytest.raises(RuleError, match=r"no enemy on the table called 'a2' \(choose from: "
                                        r"e1\)"):
        intent.resolve_ids(game, state, {"type": "shoot", "target": "a2"}, prompt)


def test_an_operative_that_is_not_ready_is_named_as_such() -> None:
    game, state = game_at()
    from solo_ops.game.engine import pending

    step(game, state, {"type": "done"})  # a1's activation ends; a2 is the one ready
    while pending(game, state).kind == "engine":  # the enemy's turn
        step(game, state, {"type": "engine"})
    prompt = pending(game, state)
    assert prompt.kind == "activate" and prompt.options == ["a2"]
    with pytest.raises(RuleError, match=r"a1 cannot act now: it has already acted this "
                                        r"turning point \(ready: a2\)"):
        intent.resolve_ids(game, state, {"type": "activate", "operative": "A1"}, prompt)
    with pytest.raises(RuleError, match=r"no operative called 'zz' \(choose from: a2\)"):
        intent.resolve_ids(game, state, {"type": "activate", "operative": "zz"}, prompt)
    assert intent.resolve_ids(game, state, {"type": "activate", "operative": "A"},
                              prompt)["operative"] == "a2"


DECK = {**copy.deepcopy(BOARD), "features": [
    *copy.deepcopy(BOARD["features"]),
    {"id": "deck-1", "traits": ["heavy", "blocking", "accessible", "vantage"], "height": 4,
     "polygon": [[8, 8], [12, 8], [12, 12], [8, 12]]}]}
"""The test table with a raised deck (heavy, blocking, climbable, 4" high) at x 8-12, y 8-12."""


def test_a_charge_is_proposed_only_to_an_end_the_engine_takes() -> None:
    """A charge's proposed end is one from which its target is in control range (visible and
    within 1"), the engine's own test at the end of a charge. An enemy up on the deck is seen
    from the ground beside it (the deck it stands on does not hide it), so the charge is
    proposed and taken; before, the deck hid it and the proposal went to ground the engine
    then refused with "from there it is 0.0\" around the walls". An enemy on the floor: the
    proposal is taken too."""
    game, state = game_at(enemy_at=(8.6, 10), board=copy.deepcopy(DECK))  # at the deck's edge
    p = propose(game, state, "charge e1")
    assert p.to[0] < 8.0  # on the ground beside the deck
    step(game, state, p.action)
    assert state.operatives["a1"].charged and state.operatives["a1"].at == p.to
    assert in_control_range(game.terrain(state), p.to, state.operatives["a1"].radius,
                            (8.6, 10), state.operatives["e1"].radius)
    game, state = game_at(enemy_at=(7, 5), board=copy.deepcopy(DECK))
    p = propose(game, state, "charge e1")
    step(game, state, p.action)
    assert state.operatives["a1"].charged and state.operatives["a1"].at == p.to


def test_move_to_ends_as_near_as_the_move_gets_when_friends_close_the_way() -> None:
    """Night raid, seed 3: Kell and Rask stand between Vale and obj-4, closing the gap
    between them and the corridor's walls, so the cheapest walk to obj-4 winds north through
    another room and its first 6" lead away (it proposed (4.2, 15.2), 5.0" from obj-4, from
    3.9"). "move vale to obj-4" now ends as near obj-4 as the move gets, beside Kell."""
    game, state = new_game(load_scenario(library.resolve("scenario", "gallowdark-night-raid")), 3)
    while pending(game, state).kind == "engine":
        step(game, state, {"type": "engine"})
    state.operatives["kell"].at, state.operatives["rask"].at = (7.0, 10.3), (5.75, 11.7)
    step(game, state, {"type": "activate", "operative": "vale"})
    terrain = game.terrain(state)
    vale = state.operatives["vale"]
    before = terrain.routes.distances((8.0, 11.0), 0.0, [vale.at], vale.radius)[0]
    p = propose(game, state, "move vale to obj-4")
    after = terrain.routes.distances((8.0, 11.0), 0.0, [p.to], vale.radius)[0]
    assert p.cost <= 6.0 + 1e-6 and after < before - 1.0
    step(game, state, p.action)
    assert state.operatives["vale"].at == p.to
