"""Every order field of the supplement's three tables, carried out on small boards.

Bases are 25.4 mm (radius 0.5") unless said, so a centre distance D between two models is an
edge distance of D - 1". Boards are 30" x 22" and open unless a test adds walls; open-ground
routes are straight lines, so the expected values below are worked out by hand.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from solo_ops.ai.planner import Plan, activation_order
from solo_ops.core.dice import ScriptedDice
from solo_ops.core.tables import order_table
from solo_ops.game.downed import take_down
from solo_ops.game.enemy import apply_plan
from solo_ops.game.engine import new_game
from tests.support.order_boards import BLADE, BRUTE, GRUNT, GUN, kinds, plan, prof, setup

CANNON = {"name": "cannon", "type": "heavy", "range": 18, "attacks": 5, "hit": 4,
          "damage": [4, 5], "rules": ["heavy"]}




GUNNER = prof(weapons=[CANNON])






def end_of(p: Plan, model: str) -> tuple[float, float] | None:
    moves = [a for a in p.moves() if a.model == model and a.to is not None]
    return moves[-1].to if moves else None




def gap(a: tuple[float, float], b: tuple[float, float], r: float = 1.0) -> float:
    return math.dist(a, b) - r


def protected(game: Any, state: Any, shooter: tuple[float, float], at: tuple[float, float]
              ) -> bool:
    c = game.terrain(state).sight.cover(shooter, at, 0.5, 0.5)
    return (not c.visible) or c.in_cover or c.obscured


def test_the_rows_used_here_are_the_printed_ones() -> None:
    ft, melee, support = (order_table(t) for t in ("fire-teams", "melee", "support"))
    assert ft[4].codes() == {"move": "hold_12", "cover": "ignore", "shoot": "unhindered_move",
                             "charge": "within_6", "allies": "ignore"}
    assert melee[3].codes()["charge"] == "yes"
    assert melee[2].codes()["charge"] == "within_12"
    assert support[4].codes()["move"] == "to_firing_range"
    assert ft[6].codes()["allies"] == "rally"
    assert ft[2].codes()["allies"] == "group_with_leaders"


# -- Move ------------------------------------------------------------------------------------------
def test_remain_stationary_never_moves_and_conceals_without_a_target() -> None:
    # Melee row 1: remain stationary, fire at will, charge within 6". The enemy is 19" away.
    game, state = setup([("u1", 1, [("e1", BRUTE, (5, 11))])], [("p1", GRUNT, (25, 11))])
    p = plan(game, state, "u1")
    assert p.actions == []
    assert p.stance == "conceal"
    assert any("remains stationary" in line for line in p.explain)


def test_hold_12_ends_12_from_the_closest_visible_enemy() -> None:
    # Fire Teams row 4. Edge distance 22 - 5 - 1 = 16"; a 6" reposition can take it to 12".
    game, state = setup([("u1", 4, [("e1", GRUNT, (5, 11))])], [("p1", GRUNT, (22, 11))])
    p = plan(game, state, "u1")
    end = end_of(p, "e1")
    assert end is not None
    assert gap(end, (22, 11)) == pytest.approx(12.0, abs=0.1)
    assert kinds(p) == ["reposition", "shoot"]  # unhindered move: move first, then fire
    assert p.state_after == "holding_range"


def test_hold_12_backs_away_from_a_close_enemy() -> None:
    # 7" centre to centre = 6" edge: it must step back 6" to be 12" away.
    game, state = setup([("u1", 4, [("e1", GRUNT, (15, 11))])], [("p1", GRUNT, (22, 11))])
    end = end_of(plan(game, state, "u1"), "e1")
    assert end is not None
    assert gap(end, (22, 11)) == pytest.approx(12.0, abs=0.1)


def test_hold_12_scores_every_end_point_by_its_own_closest_enemy() -> None:
    # p1 is 16" away; p2 stands where reaching 12" from p1 would put it 10.3" from p2.
    # Every end point is measured against the closest visible enemy *there*, so the model
    # ends ~12" from whichever is closest, and never takes a Dash that does not improve that.
    game, state = setup([("u1", 4, [("e1", GRUNT, (5, 11))])],
                        [("p1", GRUNT, (22, 11)), ("p2", GRUNT, (14, 4))])
    p = plan(game, state, "u1")
    end = end_of(p, "e1")
    assert end is not None
    closest = min(gap(end, (22, 11)), gap(end, (14, 4)))
    assert closest == pytest.approx(12.0, abs=0.1)
    assert [k for k in kinds(p) if k in ("reposition", "dash")].count("dash") == 0


def test_hold_does_not_dash_back_and_forth_on_the_volkus_example() -> None:
    from solo_ops.io.scenario import load_scenario
    from tests.support.paths import SCENARIOS

    game, state = new_game(load_scenario(SCENARIOS / "volkus-stronghold-supplement-example.yaml"),
                           1)
    p = plan(game, state, "u2")
    ctx = game.context(state)
    enemies = [o for o in state.living("player") if o.on_table]
    for a in p.moves():
        # every move of a hold order brings the model nearer to 12" of its closest enemy
        def score(at: tuple[float, float]) -> float:
            ep = np.array([o.at for o in enemies])
            er = np.array([o.radius for o in enemies])
            d = ctx.terrain.routes.distances(at, 0.5, ep, er)
            v = ctx.terrain.sight.visibility_matrix(np.array([at]), 0.5, ep, er)[0]
            use = d[v] if v.any() else d
            return abs(float(use.min()) - 12.0)
        assert a.start is not None and a.to is not None
        assert score(a.to) < score(a.start)


def test_to_firing_range_uses_the_longest_weapon_range() -> None:
    # Support row 4: to firing range; the cannon reaches 18". Edge distance 26 - 3 - 1 = 22":
    # it walks 4" to (7, 11), and being Heavy it does not shoot after moving.
    game, state = setup([("u1", 4, [("e1", GUNNER, (3, 11))])], [("p1", GRUNT, (26, 11))])
    p = plan(game, state, "u1")
    end = end_of(p, "e1")
    assert end is not None
    assert gap(end, (26, 11)) == pytest.approx(18.0, abs=0.1)
    assert "shoot" not in kinds(p)


def test_towards_closest_enemy_walks_straight_at_it() -> None:
    # Melee row 3: towards closest enemy, cover ignored, charge "Yes" but 19" is out of reach
    # (M + 2 = 8"): reposition 6" then, with no shot to take, Dash 3" -> edge distance 10".
    game, state = setup([("u1", 3, [("e1", BRUTE, (5, 11))])], [("p1", GRUNT, (25, 11))])
    p = plan(game, state, "u1")
    assert kinds(p) == ["reposition", "dash"]
    assert p.actions[0].to == pytest.approx((11.0, 11.0))
    assert p.actions[1].to == pytest.approx((14.0, 11.0))
    assert p.state_after == "moving"


def test_towards_closest_enemy_goes_for_the_one_in_sight() -> None:
    # p2 is nearer in a straight line but behind a wall box; p1 is in sight, 12" away: out of
    # a 4" mover's reach even with a Dash and a Charge (3 + 6 + 1 = 10"), so it moves.
    wall = {"id": "w", "traits": ["wall"], "polygon": [[8, 15], [14, 15], [14, 16], [8, 16]]}
    slow = prof(m=4, weapons=[BLADE])
    game, state = setup([("u1", 3, [("e1", slow, (10, 14))])],
                        [("p1", GRUNT, (10, 1)), ("p2", GRUNT, (11, 21))], features=(wall,))
    p = plan(game, state, "u1")
    end = p.actions[0].to
    assert end is not None
    assert end[1] < 14  # towards p1 (south), not p2 (north)
    assert gap(end, (10, 1)) == pytest.approx(13 - 4 - 1, abs=0.05)
    assert kinds(p) == ["reposition", "dash"]


def _brute_cover(game: Any, state: Any, start: tuple[float, float], shooter: tuple[float, float],
                 move: float, *, in_cover: bool = False) -> float:
    """The shortest straight walk from ``start`` to a protected point (0.25" grid); with
    ``in_cover``, to a point hidden from or in cover from the shooter (obscured alone is not
    enough)."""
    best = math.inf
    for dx in np.arange(-move, move + 1e-9, 0.25):
        for dy in np.arange(-move, move + 1e-9, 0.25):
            d = math.hypot(dx, dy)
            at = (start[0] + dx, start[1] + dy)
            if d > move or d >= best or not game.terrain(state).routes.fits(at, 0.5):
                continue
            c = game.terrain(state).sight.cover(shooter, at, 0.5, 0.5)
            if ((not c.visible) or c.in_cover) if in_cover else \
                    protected(game, state, shooter, at):
                best = d
    return best


WALL = {"id": "w1", "traits": ["wall"], "line": [[12, 8], [12, 22]]}


def test_to_cover_takes_the_nearest_protected_point() -> None:
    # Fire Teams row 2: to cover. Standing at (10, 6) it is seen by p1 below the wall's end.
    game, state = setup([("u1", 2, [("e1", GRUNT, (10, 6))])], [("p1", GRUNT, (25, 11))],
                        features=(WALL,))
    assert not protected(game, state, (25, 11), (10, 6))
    p = plan(game, state, "u1")
    move = p.moves()[0]
    assert move.to is not None
    c = game.terrain(state).sight.cover((25, 11), move.to, 0.5, 0.5)
    # "To cover" ends in cover (issue #14), not merely obscured; a point both in cover and
    # obscured (or hidden) is preferred when it costs at most cover_detour (2") more than the
    # nearest point in cover
    assert (not c.visible) or c.in_cover
    assert move.cost <= _brute_cover(game, state, (10, 6), (25, 11), 6.0, in_cover=True) \
        + 2.0 + 0.36
    both = (not c.visible) or (c.in_cover and c.obscured)
    assert both or move.cost <= _brute_cover(game, state, (10, 6), (25, 11), 6.0,
                                             in_cover=True) + 0.36
    assert "in_cover" == p.state_after
    words = ("It is hidden from p1 there (out of its sight)." if not c.visible else
             "It is in cover from p1 and obscured there." if c.obscured else
             "It is in cover from p1 there (not obscured).")
    assert any(words in line for line in p.explain)


def test_to_cover_stays_put_when_already_in_cover_and_conceals() -> None:
    # Fire Teams row 2 with p1 out of its gun's reach and e1 hidden behind the wall.
    game, state = setup([("u1", 2, [("e1", GRUNT, (10, 15))])], [("p1", GRUNT, (28, 15))],
                        features=(WALL,))
    p = plan(game, state, "u1")
    assert p.moves() == []
    assert p.stance == "conceal"
    assert p.state_after == "in_cover"


def test_to_cover_with_firing_line_prefers_protected_points_with_targets() -> None:
    # Fire Teams row 3. p2 stands in the open on e1's side of the wall: a protected point from
    # which p2 is a visible, unobscured target beats one from which nobody can be shot.
    game, state = setup([("u1", 3, [("e1", GRUNT, (10, 6))])],
                        [("p1", GRUNT, (25, 11)), ("p2", GRUNT, (2, 21))], features=(WALL,))
    p = plan(game, state, "u1")
    move = p.moves()[0]
    assert move.to is not None
    assert protected(game, state, (25, 11), move.to)
    c = game.terrain(state).sight.cover(move.to, (2, 21), 0.5, 0.5)
    assert c.visible and not c.obscured


@pytest.mark.parametrize("setting", ["seek", "stay"])
def test_to_cover_with_firing_line_in_cover_seeks_again_or_stays_by_the_setting(
        setting: str) -> None:
    """The same unit, already in cover (state ``in_cover``): by default it looks again for the
    best firing line (the field of fire changes as the enemy moves) and says so; under
    ``firing_line_cover: stay`` it remains stationary, as To Cover does (a play-tester read
    "State: in cover." then a move and asked which)."""
    game, state = setup([("u1", 3, [("e1", GRUNT, (10, 6))])],
                        [("p1", GRUNT, (25, 11)), ("p2", GRUNT, (2, 21))], features=(WALL,),
                        settings={"firing_line_cover": setting})
    state.units["u1"].fsm = "in_cover"
    p = plan(game, state, "u1")
    if setting == "seek":
        assert p.moves(), "it moves to the best firing line again"
        assert ("e1's unit reached cover; To Cover with firing line looks again for the best "
                "field of unhindered fire (setting firing_line_cover: seek).") in p.explain
    else:
        assert p.moves() == []
        assert ("e1 stays where it is: the unit reached cover and then remains stationary "
                "(To Cover with firing line, setting firing_line_cover: stay).") in p.explain


# -- Cover -----------------------------------------------------------------------------------------
BARRICADE = {"id": "b1", "traits": ["heavy"], "polygon": [[9.5, 12.2], [10.5, 12.2],
                                                         [10.5, 14.5], [9.5, 14.5]]}


def test_cover_ignore_goes_straight() -> None:
    # Melee row 3: towards closest enemy, cover ignored: straight along y = 11.
    game, state = setup([("u1", 3, [("e1", BRUTE, (3, 11))])], [("p1", GRUNT, (25, 11))],
                        features=(BARRICADE,))
    end = end_of(plan(game, state, "u1"), "e1")
    assert end is not None
    assert end[1] == pytest.approx(11.0)


def test_cover_use_if_possible_detours_into_cover_within_the_setting() -> None:
    # Melee row 5: the same move, using cover if possible: it ends protected from p1, and no
    # more than cover_detour (2") worse than the straight line.
    game, state = setup([("u1", 5, [("e1", BRUTE, (3, 11))])], [("p1", GRUNT, (25, 11))],
                        features=(BARRICADE,))
    p = plan(game, state, "u1")
    first = p.actions[0]
    assert first.to is not None
    assert protected(game, state, (25, 11), first.to)
    straight = 25 - 9 - 1  # the ignore-cover reposition ends 15" away
    assert gap(first.to, (25, 11)) <= straight + 2.0 + 1e-6


def test_cover_detour_setting_zero_keeps_the_best_line() -> None:
    game, state = setup([("u1", 5, [("e1", BRUTE, (3, 11))])], [("p1", GRUNT, (25, 11))],
                        features=(BARRICADE,), settings={"cover_detour": 0.0})
    first = plan(game, state, "u1").actions[0]
    assert first.to is not None
    assert gap(first.to, (25, 11)) == pytest.approx(15.0, abs=0.05)


# -- Shoot -----------------------------------------------------------------------------------------
def test_fire_at_will_shoots_the_closest_visible_enemy_in_range_first() -> None:
    # Fire Teams row 6 (hold 12", fire at will). p2 is nearer (8") but behind a wall; p1 at
    # 14" is the closest visible one. The shot comes before any move.
    wall = {"id": "w", "traits": ["wall"], "polygon": [[8, 14], [12, 14], [12, 15], [8, 15]]}
    game, state = setup([("u1", 6, [("e1", GRUNT, (10, 11))])],
                        [("p1", GRUNT, (25, 11)), ("p2", GRUNT, (10, 20))], features=(wall,))
    p = plan(game, state, "u1")
    assert p.actions[0].kind == "shoot"
    assert p.actions[0].target == "p1"


def test_fire_at_will_with_a_heavy_weapon_does_not_move() -> None:
    # Support row 6: to firing range, fire at will. p1 is 15" away, inside the cannon's 18".
    game, state = setup([("u1", 6, [("e1", GUNNER, (9, 11))])], [("p1", GRUNT, (25, 11))])
    p = plan(game, state, "u1")
    assert kinds(p) == ["shoot"]
    assert p.actions[0].weapon == "cannon"
    assert any("Heavy" in line for line in p.explain)


def test_fire_at_will_out_of_range_moves_and_holds_fire_with_heavy() -> None:
    game, state = setup([("u1", 6, [("e1", GUNNER, (3, 11))])], [("p1", GRUNT, (26, 11))])
    p = plan(game, state, "u1")
    assert "shoot" not in kinds(p)
    assert p.moves()


def test_unhindered_move_moves_before_shooting() -> None:
    # Fire Teams row 4 (hold 12", unhindered move): p1 is 16" away and in range from the
    # start, yet the move comes first and the shot after it.
    game, state = setup([("u1", 4, [("e1", GRUNT, (5, 11))])], [("p1", GRUNT, (22, 11))])
    p = plan(game, state, "u1")
    assert kinds(p).index("reposition") < kinds(p).index("shoot")


def test_unhindered_move_charge_charges_instead_of_shooting() -> None:
    # Melee row 3 with a pistol: the enemy is 5" away; the charge (and fight) come first and
    # use both actions, so no shot.
    pistol = {"name": "pistol", "type": "pistol", "range": 8, "attacks": 4, "hit": 4,
              "damage": [2, 3]}
    brute = prof(weapons=[BLADE, pistol])
    game, state = setup([("u1", 3, [("e1", brute, (10, 11))])], [("p1", GRUNT, (16, 11))])
    p = plan(game, state, "u1")
    assert kinds(p) == ["charge", "fight"]
    assert p.state_after == "charging"


# -- Charge ----------------------------------------------------------------------------------------
BIG = 76.2  # mm: a 1.5" radius base


def _wall_end_case(target_x: float, command: int) -> Plan:
    # A wall from (10, 0) to (10, 10); two big bases whose tops show over its end. Straight
    # edge distance (target_x - 5.6) - 3; around the wall end (10, 10): two legs of
    # sqrt(dx^2 + 1.3^2) minus both radii.
    brute = prof(weapons=[BLADE], base_mm=BIG)
    wall = {"id": "w", "traits": ["wall"], "line": [[10, 0], [10, 10]]}
    game, state = setup([("u1", command, [("e1", brute, (5.6, 8.7))])],
                        [("p1", prof(base_mm=BIG), (target_x, 8.7))], features=(wall,))
    d = game.terrain(state).routes.distance((5.6, 8.7), (target_x, 8.7), 1.5, 1.5).distance
    expected = math.hypot(4.4, 1.3) + math.hypot(target_x - 10, 1.3) - 3
    assert d == pytest.approx(expected, abs=0.01)
    return plan(game, state, "u1")


def test_charge_within_6_is_measured_around_the_walls() -> None:
    # Melee row 1. Target at x = 14.4: 5.8" in a straight line, 6.18" around the wall: no charge.
    p = _wall_end_case(14.4, 1)
    assert "charge" not in kinds(p)
    # at x = 13.8: 5.2" straight, 5.60" around: charge, then fight with the second action.
    p = _wall_end_case(13.8, 1)
    assert kinds(p) == ["charge", "fight"]
    assert p.actions[0].target == "p1"


def test_charge_if_within_12() -> None:
    # Melee row 2 with a fast brute (M 9: charge 11"). p1 at 10" edge distance: charge; at 13"
    # edge distance: no charge (it goes to cover instead).
    fast = prof(m=9, weapons=[BLADE])
    game, state = setup([("u1", 2, [("e1", fast, (5, 11))])], [("p1", GRUNT, (16, 11))])
    assert kinds(plan(game, state, "u1"))[:1] == ["charge"]
    game, state = setup([("u1", 2, [("e1", fast, (5, 11))])], [("p1", GRUNT, (19, 11))])
    assert "charge" not in kinds(plan(game, state, "u1"))


def test_charge_yes_charges_what_it_can_reach() -> None:
    # Melee row 3 (charge "Yes"): 7" edge distance, charge move 8": charges; 9.5": a Dash
    # first (3" + 8" + 1" reaches 12"); 12.5": cannot.
    game, state = setup([("u1", 3, [("e1", BRUTE, (5, 11))])], [("p1", GRUNT, (13, 11))])
    p = plan(game, state, "u1")
    assert kinds(p) == ["charge", "fight"]
    end = p.actions[0].to
    assert end is not None and gap(end, (13, 11)) <= 1.0
    game, state = setup([("u1", 3, [("e1", BRUTE, (5, 11))])], [("p1", GRUNT, (15.5, 11))])
    assert kinds(plan(game, state, "u1")) == ["dash", "charge"]
    game, state = setup([("u1", 3, [("e1", BRUTE, (5, 11))])], [("p1", GRUNT, (18.5, 11))])
    assert "charge" not in kinds(plan(game, state, "u1"))


def test_kt2018_charge_is_declared_with_a_route() -> None:
    # 2018 movement phase: Melee row 2 charges a target within 12" (rolled 2D6 by the engine).
    game, state = setup([("u1", 2, [("e1", BRUTE, (5, 11))])], [("p1", GRUNT, (15, 11))],
                        edition="kt2018")
    p = plan(game, state, "u1", "movement")
    assert kinds(p) == ["charge"]
    assert p.actions[0].to is None and p.actions[0].route


# -- Allies ----------------------------------------------------------------------------------------
def test_allies_ignore_does_not_join_a_leader() -> None:
    # Melee row 1 (allies: ignore) next to a Leadership 8 unit: it stays put.
    game, state = setup([("u1", 1, [("e1", BRUTE, (5, 11))]),
                         ("u9", 1, [("l1", prof(ld=8, weapons=[BLADE]), (5, 15))])],
                        [("p1", GRUNT, (25, 11))])
    p = plan(game, state, "u1")
    assert p.actions == [] and p.merge_into is None


def _leader_case(follower_at: tuple[float, float]) -> tuple[Any, Any]:
    # u1: Fire Teams row 2 (to cover, group with leaders), Ld 6; u9: Ld 8 (radius 8").
    return setup([("u1", 2, [("e1", GRUNT, follower_at)]),
                  ("u9", 4, [("l1", prof(ld=8), (5, 15))])],
                 [("p1", GRUNT, (25, 11))])


def test_group_with_leaders_merges_on_reaching_coherency_and_takes_the_order() -> None:
    game, state = _leader_case((5, 9))  # 5" from the leader's base: inside its 8" radius
    p = plan(game, state, "u1")
    end = end_of(p, "e1")
    assert end is not None
    assert gap(end, (5, 15)) <= 2.0 + 1e-6  # coherency
    assert p.merge_into == "u9"
    assert p.triggers[-1] == "merged"
    apply_plan(game, state, p)
    assert state.units["u1"].fsm == "merged"
    assert "e1" in state.units["u9"].models
    assert state.operatives["e1"].owner == "u9"
    assert state.unit_of("e1").command == 4  # it now follows the leader's order


def test_group_with_leaders_outside_the_radius_follows_its_own_order() -> None:
    game, state = _leader_case((5, 2))  # 12" from the leader's base: outside 8"
    p = plan(game, state, "u1")
    assert p.merge_into is None
    assert "group" not in p.triggers


def test_group_with_leaders_too_far_to_reach_this_move_keeps_grouping() -> None:
    # 9.5" edge gap inside a Leadership 10 leader's 10" radius: a 6" reposition ends 3.5"
    # away, outside 2" coherency, so it keeps grouping (no merge yet).
    game, state = setup([("u1", 2, [("e1", GRUNT, (5, 4.5))]),
                         ("u9", 4, [("l1", prof(ld=10), (5, 15))])],
                        [("p1", GRUNT, (25, 11))])
    state.counters.clear()  # (this seed hides c2 at (4.75, 5.75), in e1's way: a base too)
    p = plan(game, state, "u1")
    end = end_of(p, "e1")
    assert end is not None
    assert gap(end, (5, 15)) == pytest.approx(9.5 - 6, abs=0.05)
    assert p.merge_into is None
    assert p.state_after == "grouping"


def _rally_case(troop_profile: dict[str, Any], command: int) -> tuple[Any, Any]:
    # u9: Fire Teams row 6 (rally), Ld 8: radius 8". u1 stands 5" from it.
    return setup([("u9", 6, [("l1", prof(ld=8), (5, 15))]),
                  ("u1", command, [("e1", troop_profile, (5, 9))])],
                 [("p1", GRUNT, (25, 11))])


def test_rally_pulls_a_lower_command_unit_of_the_same_type() -> None:
    game, state = _rally_case(GRUNT, 1)
    p = plan(game, state, "u1")
    assert "rally" in p.triggers
    assert p.merge_into == "u9"
    end = end_of(p, "e1")
    assert end is not None and gap(end, (5, 15)) <= 2.0 + 1e-6


def test_rally_ignores_other_types_and_higher_commands() -> None:
    game, state = _rally_case(BRUTE, 1)  # Melee: not the rallier's type
    assert plan(game, state, "u1").merge_into is None
    game, state = _rally_case(GRUNT, 6)  # same command: not lower
    p = plan(game, state, "u1")
    assert "rally" not in p.triggers and p.merge_into is None


def test_leader_destroyed_sets_a_grouping_unit_back_to_idle() -> None:
    game, state = setup([("u1", 2, [("e1", GRUNT, (5, 4.5))]),
                         ("u9", 4, [("l1", prof(ld=10), (5, 15))])],
                        [("p1", GRUNT, (25, 11))])
    apply_plan(game, state, plan(game, state, "u1"))
    assert state.units["u1"].fsm == "grouping"
    take_down(state, state.operatives["l1"], "test")
    assert state.units["u9"].fsm == "destroyed"
    assert state.units["u1"].fsm == "idle"


# -- In combat, 2018 phases, order of activation, determinism ----------------------------------
def test_fire_team_in_control_range_falls_back_melee_fights() -> None:
    game, state = setup([("u1", 4, [("e1", GRUNT, (10, 11))])], [("p1", GRUNT, (11.5, 11))])
    p = plan(game, state, "u1")
    assert kinds(p) == ["fall_back"]
    assert p.actions[0].to is not None and gap(p.actions[0].to, (11.5, 11)) > 1.0
    game, state = setup([("u1", 4, [("e1", BRUTE, (10, 11))])], [("p1", GRUNT, (11.5, 11))])
    p = plan(game, state, "u1")
    assert kinds(p) == ["fight"]
    assert p.state_after == "in_melee"


def test_kt2018_hold_uses_one_normal_move_and_shoots_in_the_shooting_phase() -> None:
    game, state = setup([("u1", 4, [("e1", GRUNT, (5, 11))])], [("p1", GRUNT, (22, 11))],
                        edition="kt2018")
    p = plan(game, state, "u1", "movement")
    assert kinds(p) == ["normal"]
    assert p.actions[0].to is not None
    assert gap(p.actions[0].to, (22, 11)) == pytest.approx(12.0, abs=0.1)
    shoot = plan(game, state, "u1", "shooting")
    assert kinds(shoot) == ["shoot"] and shoot.actions[0].target == "p1"


def test_activation_order_highest_command_then_nearest() -> None:
    game, state = setup([("a", 2, [("a1", GRUNT, (5, 3))]), ("b", 5, [("b1", GRUNT, (5, 19))]),
                         ("c", 2, [("c1", GRUNT, (15, 11))])], [("p1", GRUNT, (25, 11))])
    ordered = activation_order(game.context(state), state, list(state.units.values()))
    assert [u.id for u in ordered] == ["b", "c", "a"]


def test_same_scenario_and_seed_give_the_same_plan() -> None:
    first = plan(*_rally_case(GRUNT, 1), "u1").to_dict()
    second = plan(*_rally_case(GRUNT, 1), "u1").to_dict()
    assert first == second


@pytest.mark.parametrize("troop", ["melee", "fire-teams", "support"])
@pytest.mark.parametrize("command", [1, 2, 3, 4, 5, 6])
def test_every_row_plans_a_legal_activation(troop: str, command: int) -> None:
    """All 18 rows on one board: the plan follows its row (no move on Remain Stationary,
    charges only in range, at most APL actions, a legal state machine path)."""
    profile = {"melee": BRUTE, "fire-teams": GRUNT, "support": GUNNER}[troop]
    game, state = setup([("u1", command, [("e1", profile, (5, 11))])],
                        [("p1", GRUNT, (20, 11))], features=(WALL,))
    assert state.units["u1"].troop == troop
    p = plan(game, state, "u1")
    codes = order_table(troop)[command].codes()
    assert p.order.codes() == codes
    ap = sum(2 if a.kind == "fall_back" else 1 for a in p.actions)
    assert ap <= 2
    if codes["move"] == "remain_stationary":
        assert p.moves() == []
    if "charge" in kinds(p):
        limit = {"within_6": 6, "within_12": 12, "yes": math.inf}[codes["charge"]]
        assert 14.0 <= limit
    p.state_after  # noqa: B018 - every trigger is legal in turn (raises otherwise)
    assert p.explain[0].startswith("u1 (")


def test_kt2018_declared_charge_leaves_unit_mates_a_position() -> None:
    # Two brutes, the first declares a (rolled) charge; the second still plans from the
    # first one's current spot (a declared charge has no end point yet).
    game, state = setup([("u1", 2, [("e1", BRUTE, (5, 11)), ("e2", BRUTE, (5, 13))])],
                        [("p1", GRUNT, (15, 11))], edition="kt2018")
    p = plan(game, state, "u1", "movement")
    assert [a.kind for a in p.actions if a.model == "e1"] == ["charge"]
    assert all(a.kind == "charge" for a in p.actions)


def test_kt2018_charge_reaches_a_target_whose_centre_is_shut_in_by_another_enemy() -> None:
    # p1 at (10, 11) has a second player model p2 at (11.2, 9.8), 1.70" centre to centre: a
    # 2018 charge may not come within 1" of p2 (the charger's centre must stay 0.5 + 1 + 0.5 =
    # 2" from p2's), so no route reaches p1's centre — but the ground north of p1 is within 1"
    # of p1 and clear of p2. The charge is declared with a route ending there.
    game, state = setup([("u1", 6, [("e1", BRUTE, (10, 16))])],
                        [("p1", GRUNT, (10, 11)), ("p2", GRUNT, (11.2, 9.8))],
                        edition="kt2018")
    p = plan(game, state, "u1", "movement")
    assert kinds(p) == ["charge"]
    end = p.actions[0].route[-1]
    assert math.dist(end, (10, 11)) - 1.0 <= 1.0 + 1e-9  # within 1" of the target (bases 1")
    assert math.dist(end, (11.2, 9.8)) - 1.0 >= 1.0 - 1e-9  # not within 1" of the other
    # the engine moves the charger along that route by the 2D6 roll: 4 + 3 = 7" > 4" needed
    state.counters.clear()  # no hidden counter to spot on the way
    state.dice = ScriptedDice(faces=[4, 3])
    state.phase = "movement"  # (as the engine's: a charge is made in the movement phase)
    events = apply_plan(game, state, p)
    # 004: the target may React first (issue 14 item 12); p1 does not, and the charge is rolled
    assert [e["type"] for e in events if e["type"].startswith("charge")] == ["charge_declared"]
    assert state.pending_attacks[0]["kind"] == "reaction"
    from solo_ops.game.engine import step

    record = step(game, state, {"type": "reaction", "react": "none"})
    events = record["events"]
    assert [e["type"] for e in events if e["type"].startswith("charge")] == ["charged"]
    assert math.dist(state.operatives["e1"].at, (10, 11)) - 1.0 <= 1.0 + 1e-6


def test_unhindered_move_that_stays_put_does_not_say_it_moved() -> None:
    # Fire Teams row 4 (hold 12", unhindered move): p1 is already 12" away (13" centre to
    # centre, less the two 0.5" bases), so the order's move takes it nowhere and it shoots
    # from where it stands. A play-tester read "it moved first, then fires" of such a model.
    game, state = setup([("u1", 4, [("e1", GRUNT, (9, 11))])], [("p1", GRUNT, (22, 11))])
    p = plan(game, state, "u1")
    assert kinds(p) == ["shoot"]
    shot = next(line for line in p.explain if "e1 shoots p1" in line)
    assert "moved first" not in shot
    assert shot.startswith("Unhindered move: its move comes first, but it stays where it is")
    # one that does move says so: 16" away, it steps up to 12" first
    game, state = setup([("u1", 4, [("e1", GRUNT, (5, 11))])], [("p1", GRUNT, (22, 11))])
    p = plan(game, state, "u1")
    assert kinds(p) == ["reposition", "shoot"]
    shot = next(line for line in p.explain if "e1 shoots p1" in line)
    assert shot.startswith("Unhindered move: it moved first, then fires. ")


def test_kt2018_a_model_between_obscures_the_planned_shot_as_the_dice_count_it() -> None:
    """004 "Other models (even friendly models) ... may hide a target": e2 of e1's own unit
    stands on the line to p1 on open ground. The shooting plan says the target is obscured and
    prices the shot with the -1 the engine's dice will apply (a play-tester read "expected
    damage 0.31" over a roll at "-1 obscured")."""
    from solo_ops.geometry.sight import CoverResult

    trooper = {**prof(weapons=[{**GUN, "strength": 3, "damage_2018": 1}]), "ws": 4, "bs": 4,
               "strength": 3, "attacks": 1}
    game, state = setup([("u1", 4, [("e1", trooper, (5, 11)), ("e2", trooper, (10, 11))])],
                        [("p1", trooper, (17, 11))], edition="kt2018")
    shoot = plan(game, state, "u1", "shooting")
    first = next(a for a in shoot.actions if a.model == "e1" and a.kind == "shoot")
    assert first.target == "p1"
    assert "(obscured)" in first.note
    ctx = game.context(state)
    ops = state.operatives
    gun = ops["e1"].profile.weapons[0]
    plain = ctx.odds(gun, ops["e1"], ops["p1"], CoverResult(True, False, False, True),
                     distance=11.0)
    hidden = ctx.odds(gun, ops["e1"], ops["p1"], CoverResult(True, True, True, True),
                      distance=11.0)
    assert 0 < hidden < plain
    assert first.expected is not None
    assert abs(first.expected - hidden) < abs(first.expected - plain)
    # e2 2" off the line hides nothing: the same target, unobscured, at the plain odds
    game, state = setup([("u1", 4, [("e1", trooper, (5, 11)), ("e2", trooper, (10, 13))])],
                        [("p1", trooper, (17, 11))], edition="kt2018")
    shoot = plan(game, state, "u1", "shooting")
    first = next(a for a in shoot.actions if a.model == "e1" and a.kind == "shoot")
    assert first.target == "p1" and "obscured" not in first.note
    assert first.expected is not None and abs(first.expected - plain) < 1e-9
