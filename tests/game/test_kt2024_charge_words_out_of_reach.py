"""Kill Team 2024: a player's charge by words (``move to X``, ``move N toward X``) that reaches
no end within 1" of its target is refused at once, in those words, with how far a point 0.9"
from the target is. The helper used to propose the move's end along the way, and the game then
refused its own proposal ("a charge must end within 1" of e1 and in its sight: from there it is 2.0"
around the walls"). On the small hand-made table (:mod:`tests.support.small_table`: a1 at
(3, 10), its Charge 8" (Move 6" + 2"), a wall along x = 15 from y 4 to 18, 25 mm bases of
radius 0.4921")."""

from __future__ import annotations

import math

import pytest

from solo_ops.core.errors import RuleError
from solo_ops.game import intent
from solo_ops.game.engine import step
from tests.support.small_table import game_at

RADIUS = 25 / 2 / 25.4
WIDEST_RING = 2 * RADIUS + 1 - 2 * 0.05
"""Centre to centre, the farthest end a charge proposes: just inside the inch (CONTROL_MARGIN
0.05" short of it, and a base's radius each side)."""


def _charge(enemy_at: tuple[float, float], amount: float | None = None) -> intent.Proposal:
    game, state = game_at(enemy_at=enemy_at)
    words = {"type": "move", "how": "charge", "relation": "to" if amount is None else "toward",
             "ref": "e1"}
    if amount is not None:
        words["amount"] = amount
    return intent.propose(game, state, words)


def test_a_charge_out_of_reach_is_refused_with_the_nearest_end() -> None:
    # e1 11" east on open ground: the point 0.9" from e1's base is 11 - 1.884 = 9.116" away
    assert f"{11 - WIDEST_RING:.1f}" == "9.1"
    with pytest.raises(RuleError) as refused:
        _charge((14, 10))
    assert str(refused.value) == ('a charge must end within 1" of e1: even 0.9" from it is a '
                                  '9.1" move away, beyond its Charge of 8.0"')


def test_a_shorter_charge_asked_for_is_refused_with_what_it_could_do() -> None:
    # e1 7" east: 7 - 1.884 = 5.116" to the nearest end, more than the 3" asked
    with pytest.raises(RuleError) as refused:
        _charge((10, 10), amount=3)
    assert str(refused.value) == ('a charge must end within 1" of e1: even 0.9" from it is a '
                                  '5.1" move away, beyond the 3.0" asked (it can charge 8.0")')


def test_beyond_the_wall_the_nearest_end_is_measured_around_it() -> None:
    # e1 at (19, 10), behind the wall x = 15, y 4..18: the walk rounds the wall's south end.
    # Its last leg runs straight at e1's centre, so the nearest end within the inch is the
    # walk to the centre less the widest ring (to the ring's quarter-inch points). Through
    # the point (15, 4 - r) it would be at least 12.42 + 7.62 - 1.88 = 18.2", more than the
    # straight line's 16 - 1.88 = 14.1"
    game, state = game_at(enemy_at=(19, 10))
    walk = game.terrain(state).routes.walk((3, 10), (19, 10), RADIUS)
    with pytest.raises(RuleError) as refused:
        _charge((19, 10))
    nearest = float(str(refused.value).split("it is a ")[-1].split('" move')[0])
    assert nearest == pytest.approx(walk.cost - WIDEST_RING, abs=0.06)
    assert nearest >= math.hypot(12, 4 - RADIUS - 10) + math.hypot(4, 10 - 4 + RADIUS) \
        - WIDEST_RING - 0.05


def test_a_charge_within_reach_is_still_proposed_and_the_game_takes_it() -> None:
    game, state = game_at(enemy_at=(10, 10))
    p = intent.propose(game, state, {"type": "move", "how": "charge", "relation": "to",
                                     "ref": "e1"})
    # base contact due west of e1: (10 - 2r - 0.02, 10) = (9.0, 10) to the record's 0.01"
    assert p.to == (9.0, 10.0)
    step(game, state, p.action)
    assert state.operatives["a1"].at == (9.0, 10.0) and state.operatives["a1"].charged


@pytest.mark.parametrize("gap", [8.93, 8.95, 8.99])
def test_a_charge_ending_between_the_last_ring_and_the_inch_is_proposed(gap: float) -> None:
    """The proposed ends reach 0.9" from the target; an end 0.93"-0.99" away is still within
    the inch: e1's base 8.93"-8.99" from a1's, a Charge of 8" goes 8" east along the way in
    to (11.0, 10.0) and the game takes it as a charge (a reviewer: it was refused)."""
    at = (3 + 2 * RADIUS + gap, 10.0)
    game, state = game_at(enemy_at=at)
    p = intent.propose(game, state, {"type": "move", "how": "charge", "relation": "to",
                                     "ref": "e1"})
    assert p.to == (11.0, 10.0) and p.cost == pytest.approx(8.0)
    step(game, state, p.action)
    assert state.operatives["a1"].charged and state.operatives["a1"].at == (11.0, 10.0)

