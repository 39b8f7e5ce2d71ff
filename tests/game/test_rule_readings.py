"""Doors, killzones, movement, fights and Kill Team 2018: the rules the audit found deviating,
each with the source line it follows (003 supplement, 001/002 Kill Team 2024 card, 004 Kill Team
2018 Pariah Nexus) and its reading in docs/rules.md ("Doors and hatches", "Movement", "Killzones",
"Kill Team 2018 (Pariah Nexus): phases and reactions")."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from solo_ops.core.errors import RuleError
from solo_ops.game.engine import pending, step
from solo_ops.geometry.routes import Routes
from solo_ops.rules import portals
from solo_ops.rules.kt2024 import AttackSpec
from solo_ops.rules.odds import fight_2024
from tests.support.phases import to_phase
from tests.support.portal_board import refused, start
from tests.support.wall_boards import board as route_board
from tests.support.wall_boards import wall


# -- item 8: doors and hatches ------------------------------------------------------------------
def test_operate_hatch_costs_one_ap_even_during_a_move() -> None:
    """002 Gallowdark: "Operate Hatch 1AP: Open/Close hatch within Control Range. Can be
    performed during a Reposition or Dash." The action costs 1 AP; "during" is timing."""
    v = portals.operate("kt2024", opening=True, phase="firefight", gap=0.5,
                        in_enemy_control=False, portal_guarded=False, moved_how="reposition",
                        word="hatch")
    assert v == portals.Verdict(True, 1)
    game, state = start({"a1": (13.6, 11)}, kind="hatch")
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    step(game, state, {"type": "move", "how": "reposition", "to": [13.7, 11]})
    step(game, state, {"type": "portal", "feature": "portal-1", "open": True})
    a1 = state.operatives["a1"]
    assert a1.ap_used == 2 and a1.actions_taken == ["reposition", "portal"]
    # with no AP left the hatch cannot be closed again
    refused(game, state, {"type": "portal", "feature": "portal-1", "open": False},
            "0 AP left")


def test_a_hatch_guarded_by_an_enemy_cannot_be_operated() -> None:
    """002: "Not while within Control Range of an enemy or while the hatch is within Control
    Range of an enemy." The enemy stands 0.5" beyond the hatch, out of a1's reach."""
    game, state = start({"a1": (13.6, 11)}, kind="hatch", portal_open=True,
                        enemy_at=(15 + 0.492 + 0.5, 11))
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    refused(game, state, {"type": "portal", "feature": "portal-1", "open": False},
            "within control range of an enemy")


def test_no_door_without_an_operative_in_reach_in_2024() -> None:
    """002 "Open/Close hatch within Control Range": an operative does it. The players may not
    open a door between activations (Access Override is a Kill Team 2018 tactic only)."""
    game, state = start({"a1": (3, 11)})
    assert pending(game, state).kind == "activate"
    refused(game, state, {"type": "portal", "feature": "portal-1", "open": True},
            "activate one first")


def test_2018_doors_only_in_the_movement_phase_by_a_moving_model() -> None:
    """004 "Doors": "In the Movement phase, at any point when an INFANTRY model is making a
    normal move or Falling Back, it can open a door that is within 1" of it." """
    assert portals.operate("kt2018", opening=True, phase="shooting", gap=0.2,
                           in_enemy_control=False, portal_guarded=False).why == \
        "doors are opened in the movement phase only (2018)"
    assert not portals.operate("kt2018", opening=True, phase="movement", gap=0.2,
                               in_enemy_control=False, portal_guarded=False,
                               readied=True).ok
    assert not portals.operate("kt2018", opening=True, phase="movement", gap=0.2,
                               in_enemy_control=False, portal_guarded=False,
                               moved_how="advance").ok
    assert not portals.operate("kt2018", opening=False, phase="movement", gap=0.2,
                               in_enemy_control=False, portal_guarded=False).ok
    assert portals.operate("kt2018", opening=True, phase="movement", gap=0.2,
                           in_enemy_control=False, portal_guarded=False,
                           moved_how="fall_back") == portals.Verdict(True, 0)
    game, state = start({"a1": (13.6, 11)}, edition="kt2018")
    assert state.phase == "movement"
    step(game, state, {"type": "activate", "operative": "a1"})
    step(game, state, {"type": "portal", "feature": "portal-1", "open": True})
    assert state.doors["portal-1"] is True and state.operatives["a1"].ap_used == 0


def test_access_override_only_as_the_2018_source_gives_it() -> None:
    """004 "ACCESS OVERRIDE": "Use this Tactic at the end of the Movement phase. If you control
    an objective marker that is a Command Node, you can open one door on the battlefield."
    and "Starting from the second battle round, a player gains one Command Point if they
    control the Command Node objective marker, and they can also use the Access Override
    Tactic." One command point."""
    ok = dict(phase="movement", turn=2, players_left_to_move=False,
              controls_command_node=True, cp=1, used_this_round=False)
    assert portals.access_override("kt2018", **ok) == portals.Verdict(True, 1)
    assert not portals.access_override("kt2024", **ok).ok
    for change in ({"phase": "shooting"}, {"players_left_to_move": True}, {"turn": 1},
                   {"controls_command_node": False}, {"cp": 0}, {"used_this_round": True}):
        assert not portals.access_override("kt2018", **{**ok, **change}).ok, change


def test_2018_door_between_activations_is_refused_without_the_command_node() -> None:
    """004 Access Override needs the Command Node: the portal table has none."""
    game, state = start({"a1": (13.6, 11)}, edition="kt2018")
    with pytest.raises(RuleError, match="end of the movement phase"):
        step(game, state, {"type": "portal", "feature": "portal-1", "open": True})


# -- item 11: the fight's blocking policy ---------------------------------------------------------
A = AttackSpec(1, 4, 1, 2, ())  # 1 attack, hit 4+, damage 1/2
D = AttackSpec(1, 4, 3, 4, ())  # 1 attack, hit 4+, damage 3/4


def test_fight_best_policy_hand_computed() -> None:
    """001 "Alternate Strike or Block (Only Crits can block Crits)." Both sides play to
    maximise damage dealt minus damage taken. Each side: crit 1/6, normal 2/6, fail 3/6.
    A crit blocks (the defender's 3 or 4 is worth more than its own 2): crit-vs-crit and
    crit-vs-normal end 0/0; normal-vs-normal is blocked (0/0 beats 1 dealt, 3 taken);
    normal-vs-crit strikes (1/4). In 36ths: (0,0) 1+2+4+9 = 16, (2,0) 3, (1,4) 2, (1,0) 6,
    (0,4) 3, (0,3) 6."""
    odds = fight_2024(A, D, None, None, "best")
    assert odds.joint == {(0, 0): Fraction(16, 36), (0, 3): Fraction(6, 36),
                          (0, 4): Fraction(3, 36), (1, 0): Fraction(6, 36),
                          (1, 4): Fraction(2, 36), (2, 0): Fraction(3, 36)}
    assert odds.dealt.mean == Fraction(7, 18) and odds.taken.mean == Fraction(19, 18)


def test_fight_always_strike_policy_hand_computed() -> None:
    """The simpler reading: both always strike, so dealt and taken are independent: dealt
    2 (1/6), 1 (2/6), 0 (3/6), mean 2/3; taken 4 (1/6), 3 (2/6), mean 5/3. With the defender
    on 2 wounds, the attacker's crit (2) takes it out before it strikes back: (2, 0) 6/36."""
    odds = fight_2024(A, D, None, None, "strike")
    sixths = {0: Fraction(3, 6), 1: Fraction(2, 6), 2: Fraction(1, 6)}
    taken = {0: Fraction(3, 6), 3: Fraction(2, 6), 4: Fraction(1, 6)}
    assert odds.joint == {(d, t): p * q for d, p in sixths.items() for t, q in taken.items()}
    assert odds.dealt.mean == Fraction(2, 3) and odds.taken.mean == Fraction(5, 3)
    capped = fight_2024(A, D, None, 2, "strike")
    assert capped.joint[(2, 0)] == Fraction(6, 36)
    assert (2, 3) not in capped.joint and (2, 4) not in capped.joint
    with pytest.raises(ValueError, match="best, strike"):
        fight_2024(A, D, None, None, "block")


def test_combat_fight_states_and_offers_the_policy(runner) -> None:  # type: ignore[no-untyped-def]
    """``solo-ops combat fight`` says which policy its odds assume; ``--policy strike``."""
    import json

    from solo_ops.cli import main

    args = ["combat", "fight", "--attacks", "1", "--hit", "4", "--damage", "1/2",
            "--defender-attacks", "1", "--defender-hit", "4", "--defender-damage", "3/4"]
    text = runner.invoke(main, args)
    assert text.exit_code == 0, text.output
    assert "Policy: both sides strike or block to maximise damage dealt minus damage taken" \
        in text.output
    out = runner.invoke(main, [*args, "--policy", "strike", "--json"])
    data = json.loads(out.output)
    assert data["policy"] == "strike"
    assert data["dealt"]["mean"] == pytest.approx(2 / 3)
    assert data["taken"]["mean"] == pytest.approx(5 / 3)
    bad = runner.invoke(main, [*args, "--policy", "block"])
    assert bad.exit_code == 2


# -- item 13: a line wall has no thickness for measuring ----------------------------------------
def test_a_point_route_round_the_end_of_a_line_wall_is_the_straight_line_geometry() -> None:
    """002 Gallowdark "Distances not measured through walls – shortest route instead." A wall
    from (10, 0) to (10, 6): from (5, 2) to (15, 2) the route bends at the wall's end (10, 6):
    2 * hypot(5, 4) exactly (to a few millionths), not a few hundredths more."""
    r = Routes(route_board(20, 10, wall((10, 0), (10, 6))))
    exact = 2 * math.hypot(5, 4)
    assert r.distance((5, 2), (15, 2)).distance == pytest.approx(exact, abs=1e-5)
    # bases: the same route less the two radii
    assert r.distance((5, 2), (15, 2), 0.5, 0.5).distance == pytest.approx(exact - 1, abs=1e-5)
    # a walking base keeps its clearance: it walks round the 0.02" strip grown by its radius
    w = r.walk((5, 2), (15, 2), 0.5)
    assert w is not None and w.length > exact + 0.01


# -- item 10: movement costs -----------------------------------------------------------------------
def test_climbing_and_dropping_by_the_card() -> None:
    """001 "MINIMUM climb cost of 2". Measure vertical distance, rounding UP to nearest 1", and
    subtract from Move stat." and "When dropping, or jumping off, Ignore 2" vertical drop PER
    activation". A 3" gantry (accessible, vantage) across the table at x 5-7: climbing on
    costs 3", dropping off 3 - 2 = 1"; a 1.2" platform costs the minimum 2" and no drop."""
    from solo_ops.geometry.routes import climb_cost, drop_cost

    assert [climb_cost(h) for h in (0.5, 1.2, 2.0, 2.1, 3.0)] == [2, 2, 2, 3, 3]
    assert [drop_cost(h) for h in (1.2, 2.0, 3.0, 4.5)] == [0, 0, 1, 3]
    gantry = {"traits": ["accessible", "vantage"], "height": 3,
              "polygon": [[5, 0], [7, 0], [7, 10], [5, 10]]}
    r = Routes(route_board(20, 10, gantry))
    on = r.walk((2, 5), (6, 5), 0.5)
    assert on is not None and on.length == pytest.approx(4.0) and on.cost == pytest.approx(7.0)
    over = r.walk((2, 5), (10, 5), 0.5)
    assert over is not None and over.cost == pytest.approx(8.0 + 3.0 + 1.0)
    # the move stops at the gantry's edge when it cannot pay the climb
    end, spent = r.advance(over, 5.0)
    assert end == pytest.approx((5.0, 5.0)) and spent == pytest.approx(3.0)
    low = {"traits": ["vantage"], "height": 1.2, "polygon": [[5, 0], [7, 0], [7, 10], [5, 10]]}
    w = Routes(route_board(20, 10, low)).walk((2, 5), (10, 5), 0.5)
    assert w is not None and w.cost == pytest.approx(8.0 + 2.0)


def test_razor_wire_costs_any_move_within_one_inch() -> None:
    """001 Razor Wire: "Obstructing Terrain: Any move within 1" of this terrain costs
    additional 2"." A wire along y = 5 from x 4 to 6; bases of radius 0.5. A move ending at
    y = 6.4 (the base's edge 0.89" from the 0.02" strip) pays 2" (before: only a centre
    entering the strip paid); along y = 6.6 (1.09" away) it pays nothing; a move starting
    within 1" of it pays 2" however it leaves."""
    wire = {"traits": ["obstructing"], "line": [[4, 5], [6, 5]]}
    r = Routes(route_board(20, 10, wire))
    near = r.walk((5, 9), (5, 6.4), 0.5)
    assert near is not None
    assert near.length == pytest.approx(2.6) and near.cost == pytest.approx(4.6)
    end, spent = r.advance(near, 3.0)  # it stops where the base comes within 1"
    assert end == pytest.approx((5, 6.51)) and spent == pytest.approx(2.49)
    far = r.walk((1, 6.6), (9, 6.6), 0.5)
    assert far is not None and far.cost == pytest.approx(8.0) and far.length == pytest.approx(8)
    away = r.walk((5, 6.2), (5, 9.5), 0.5)
    assert away is not None and away.cost == pytest.approx(3.3 + 2.0)
    reach_ = r.reachable((5, 6.2), 0.5, 3.0, spacing=0.5)
    assert all(c == 0.0 or c >= 2.0 for c in reach_.cost)  # 2" paid before the first step


def test_objective_control_is_to_the_markers_edge() -> None:
    """001 "Control Range Visible and within 1" of model base", to a 40 mm objective marker
    (docs/rules.md): an operative whose base edge is 1.5" from the marker's centre is 0.71"
    from its edge, so it controls it; at 1.9" (1.11" from the edge) it does not."""
    import copy

    from solo_ops.game import scoring
    from solo_ops.game.engine import new_game
    from solo_ops.io.scenario import parse_scenario
    from solo_ops.rules import reach
    from tests.support.portal_board import RADIUS, TROOPER, board

    assert reach.MARKER_RADIUS == pytest.approx(40 / 25.4 / 2)
    for gap, held in ((1.5, "player"), (1.9, None)):
        b = board("door", False)
        b["objectives"] = [{"id": "obj-1", "at": [8, 11]}]
        doc = {"name": "t", "edition": "kt2024", "board": b,
               "roster": {"name": "r", "profiles": {"trooper": copy.deepcopy(TROOPER)},
                          "table": {i: "trooper" for i in range(1, 7)}},
               "engagement": 0, "seed": 1,
               "squads": [{"player": "Ana", "models": [
                   {"id": "a1", "profile": copy.deepcopy(TROOPER),
                    "at": [8 - gap - RADIUS, 11]}]}],
               "enemies": [{"id": "u1", "command": 1, "models": [
                   {"id": "e1", "profile": "trooper", "at": [28, 2]}]}]}
        game, state = new_game(parse_scenario(doc, "t.yaml"), 1)
        assert scoring.objective_control(game, state) == {"obj-1": held}


# -- item 12: Kill Team 2018 ----------------------------------------------------------------------
def _attack(**kw: object) -> object:
    from solo_ops.core.model import DiceExpr
    from solo_ops.rules import kt2018

    return kt2018.Attack2018(shots=DiceExpr(0, 0, 1), skill=4, strength=4, **kw)  # type: ignore


def test_heavy_assault_and_firing_point_hit_modifiers() -> None:
    """004 Heavy: "If a model with a Heavy weapon moved in the preceding Movement phase, you
    must subtract 1 from any hit rolls made when firing that weapon this battle round."
    Assault: "... even if it Advanced ... you must subtract 1 from any hit rolls". Firing
    points: "it is said to be benefiting from that firing point: add 1 to the hit roll".
    BS 4+: 3/6 to hit; -1 needs 5+ (2/6); +1 needs 3+ (4/6)."""
    from solo_ops.rules import kt2018
    from solo_ops.rules.odds import attack_2018

    target = kt2018.Target2018(toughness=4, save=7, wounds=1)
    p_hit = {name: attack_2018(_attack(**kw), target).extras["p_hit"]  # type: ignore[arg-type]
             for name, kw in (("plain", {}), ("heavy", {"heavy_moved": True}),
                              ("assault", {"assault_advanced": True}),
                              ("point", {"firing_point": True}))}
    assert p_hit == {"plain": Fraction(3, 6), "heavy": Fraction(2, 6),
                     "assault": Fraction(2, 6), "point": Fraction(4, 6)}
    assert kt2018.heavy_moved("heavy", "normal") and not kt2018.heavy_moved("heavy", None)
    assert not kt2018.heavy_moved("rapid", "normal")
    assert kt2018.assault_advanced("assault", True) and not kt2018.assault_advanced("rapid", True)
    assert kt2018.may_fire_after("assault", "advance")
    assert not kt2018.may_fire_after("rapid", "advance")
    assert not kt2018.may_fire_after("assault", "fall_back")
    assert kt2018.may_fire_after("heavy", "normal")


def test_firing_point_needs_the_base_on_it_and_the_target_in_its_arc() -> None:
    """004: "if any part of its base is on a firing point ... If that line lies within the
    firing arc ... add 1". A firing point 0-2 x 0-2 overlooking the arc x 0-2, y 2-10."""
    from types import SimpleNamespace

    from shapely.geometry import box

    from solo_ops.rules import kt2018

    fp = SimpleNamespace(id="fp-1", area=box(0, 0, 2, 2), arc=box(0, 2, 2, 10))
    assert kt2018.on_firing_point([fp], (1, 1), 0.5, (1, 8), 0.5) == "fp-1"
    assert kt2018.on_firing_point([fp], (2.4, 1), 0.5, (1, 8), 0.5) == "fp-1"  # edge on it
    assert kt2018.on_firing_point([fp], (2.6, 1), 0.5, (1, 8), 0.5) is None
    assert kt2018.on_firing_point([fp], (1, 1), 0.5, (5, 8), 0.5) is None  # out of the arc


def test_an_attack_reads_heavy_and_assault_from_the_shooter() -> None:
    """The engine's 2018 attack (both sides) takes the modifiers from what the model did."""
    from types import SimpleNamespace

    from solo_ops.core.model import DiceExpr, Profile, Weapon, WeaponType
    from solo_ops.game import attacks

    profile = Profile(name="m", movement=6, leadership=7, toughness=4, wounds=1, save=4,
                      base_mm=25, ws=4, bs=4, strength=4, attacks=1)
    heavy = Weapon("cannon", WeaponType.HEAVY, range=24, shots=DiceExpr(0, 0, 1), strength=5)
    assault = Weapon("storm", WeaponType.ASSAULT, range=24, shots=DiceExpr(0, 0, 2),
                     strength=4)
    moved = SimpleNamespace(profile=profile, moved_how="normal", advanced=False, at=None,
                            flesh_wounds=0)
    ran = SimpleNamespace(profile=profile, moved_how="advance", advanced=True, at=None,
                          flesh_wounds=0)
    target = SimpleNamespace(profile=profile, at=None)
    a = attacks.attack_2018(heavy, moved, target, long_range=False)
    assert a is not None and ("Heavy, moved", -1) in a.hit_modifiers
    b = attacks.attack_2018(assault, ran, target, long_range=False)
    assert b is not None and ("Assault, advanced", -1) in b.hit_modifiers
    c = attacks.attack_2018(assault, moved, target, long_range=False)
    assert c is not None and c.hit_modifiers == []




def test_after_an_advance_only_an_assault_weapon_fires() -> None:
    """004 Assault: "You can choose to shoot with a model with an Assault weapon in the
    Shooting phase ... even if it Advanced ... it can only fire Assault weapons"."""
    game, state = start({"a1": (3, 11)}, edition="kt2018")
    step(game, state, {"type": "activate", "operative": "a1"})
    step(game, state, {"type": "move", "how": "advance", "to": [8, 11]})
    step(game, state, {"type": "done"})
    to_phase(game, state, "shooting")
    step(game, state, {"type": "activate", "operative": "a1"})
    refused(game, state, {"type": "shoot", "target": "e1", "weapon": "lasgun"},
            "advanced this battle round: it can only fire an Assault weapon and has none")


def test_no_fall_back_after_being_charged_that_phase() -> None:
    """004 "A model cannot Fall Back if an enemy model finished a charge move within 1" of it
    in the same phase." e1 stands 0.5" from a1; having charged, it pins a1."""
    game, state = start({"a1": (10, 11)}, edition="kt2018", enemy_at=(10 + 2 * 0.492 + 0.5, 11))
    state.operatives["e1"].charged = True
    step(game, state, {"type": "activate", "operative": "a1"})
    refused(game, state, {"type": "move", "how": "fall_back", "to": [6, 11]},
            "cannot fall back: e1 charged it this phase")
    state.operatives["e1"].charged = False  # not charged: it may fall back
    step(game, state, {"type": "move", "how": "fall_back", "to": [6, 11]})
    assert state.operatives["a1"].at == (6.0, 11.0)


def test_models_that_charged_fight_first() -> None:
    """004 "Models that charged in this battle round fight before all other models ... A
    player cannot choose to pass if they have a model that charged that can fight." a1 and a2
    are both within 1" of e1; a1 charged, so only a1 may be picked, and the enemy (which did
    not charge) waits; after a1 fights, a2 and the enemy may act."""
    from solo_ops.game import turns

    gap = 2 * 0.492 + 0.5
    game, state = start({"a1": (10 - gap, 11), "a2": (10, 11 + gap)}, edition="kt2018",
                        enemy_at=(10, 11))
    state.phase = "fight"
    state.operatives["a1"].charged = True
    assert [o.id for o in turns.player_ready(game, state, "Ana")] == ["a1"]
    assert turns.enemy_ready(game, state) == []
    state.operatives["a1"].activated = True  # a1 has fought
    assert [o.id for o in turns.player_ready(game, state, "Ana")] == ["a2"]
    assert [u.id for u in turns.enemy_ready(game, state)] == ["u1"]
    # an enemy charger fights first too: the players wait for it
    state.operatives["a1"].activated = False
    state.operatives["a1"].charged = False
    state.operatives["e1"].charged = True
    assert turns.player_ready(game, state, "Ana") == []
    assert [u.id for u in turns.enemy_ready(game, state)] == ["u1"]


def test_readied_models_shoot_first() -> None:
    """004 "Ready, Fire!": "Readied models shoot before all other models." a1 Readied in the
    movement phase: in the shooting phase only a1 may be picked and the enemy waits."""
    from solo_ops.game import turns

    game, state = start({"a1": (3, 11), "a2": (3, 14)}, edition="kt2018")
    step(game, state, {"type": "activate", "operative": "a1"})
    step(game, state, {"type": "ready"})
    step(game, state, {"type": "done"})
    to_phase(game, state, "shooting")
    assert [o.id for o in turns.player_ready(game, state, "Ana")] == ["a1"]
    assert turns.enemy_ready(game, state) == []
    step(game, state, {"type": "activate", "operative": "a1"})
    step(game, state, {"type": "done"})
    assert [o.id for o in turns.player_ready(game, state, "Ana")] == ["a2"]


def test_fight_phase_readiness_is_measured_around_walls() -> None:
    """004 "Distances cannot be measured through these walls" and "Models cannot attack
    through walls": a1 and e1 stand 0.22" apart straight across the wall at x = 15 (y 12-22),
    but the route round its end is far longer than 1": neither is engaged, so neither may
    fight. Through the open doorway (y 10-12) at the same gap they are."""
    from solo_ops.game import turns

    gap = 0.216
    game, state = start({"a1": (15 - 0.492 - gap / 2, 17)}, edition="kt2018",
                        enemy_at=(15 + 0.492 + gap / 2, 17))
    state.phase = "fight"
    assert not turns.engaged_2018(game, state, state.operatives["a1"])
    assert turns.player_ready(game, state, "Ana") == []
    assert turns.enemy_ready(game, state) == []
    game, state = start({"a1": (15 - 0.492 - gap / 2, 11)}, edition="kt2018",
                        portal_open=True, enemy_at=(15 + 0.492 + gap / 2, 11))
    state.phase = "fight"
    assert turns.engaged_2018(game, state, state.operatives["a1"])
    assert [o.id for o in turns.player_ready(game, state, "Ana")] == ["a1"]


# -- item 9: Bheta-Decima targeting, Volkus stronghold ---------------------------------------------
def _kz_board(killzone: str, *features: dict) -> object:
    from solo_ops.geometry.board import parse_board

    items = [{"id": f"f{k}", **f} for k, f in enumerate(features)]
    return parse_board({"name": "kz", "width": 20, "depth": 12, "killzone": killzone,
                        "features": items}, "<kz>")


SLAG = {"traits": ["hazardous"], "polygon": [[0, 4], [20, 4], [20, 8], [0, 8]]}


def test_bheta_decima_no_valid_target_over_four_inches_of_hazard() -> None:
    """002 Bheta-Decima: "Restricted Targeting: If 4" of more distance crosses hazardous then
    target is not valid." A slag channel y 4-8 (4" across): straight across it (4") is not
    valid; a line crossing 3.9" of it (a channel y 4-7.9) is."""
    from solo_ops.rules import killzones

    b = _kz_board("bheta-decima", SLAG)
    assert "4.0\" of the line crosses hazardous" in killzones.target_refusal(b, (10, 2), (10, 10))
    narrow = dict(SLAG, polygon=[[0, 4], [20, 4], [20, 7.9], [0, 7.9]])
    assert killzones.target_refusal(_kz_board("bheta-decima", narrow), (10, 2), (10, 10)) is None
    # another killzone: no such rule
    assert killzones.target_refusal(_kz_board("volkus", SLAG), (10, 2), (10, 10)) is None


def test_bheta_decima_vantage_to_vantage_and_gantry_footprints() -> None:
    """002: "Vantage to Vantage: Restricted targetting over hazardous areas does not apply
    when both Operatives are on Vantage." and "Vantage to Floor: When attacker or defender is
    on Vantage, targets are not valid if Visible through the footprint of a Gantry other than
    the Vantage point mentioned already." Two gantries bridge the slag at x 2-4 and x 16-18."""
    from solo_ops.rules import killzones

    g1 = {"traits": ["accessible", "vantage"], "height": 3,
          "polygon": [[2, 2], [4, 2], [4, 10], [2, 10]]}
    g2 = dict(g1, polygon=[[16, 2], [18, 2], [18, 10], [16, 10]])
    g3 = dict(g1, polygon=[[9, 1], [11, 1], [11, 3.5], [9, 3.5]])
    b = _kz_board("bheta-decima", SLAG, g1, g2, g3)
    # both on gantries, 14" over the slag: valid (vantage to vantage)
    assert killzones.target_refusal(b, (3, 6), (17, 6)) is None
    # from g1 to the floor across the slag (6" of it): not valid
    assert "crosses hazardous" in killzones.target_refusal(b, (3, 3), (12, 11))
    # from g1 to the floor through g3's footprint: not valid; the floor to the floor: valid
    assert "through the footprint of f3, a gantry" in killzones.target_refusal(b, (3, 3),
                                                                                (14, 3))
    assert killzones.target_refusal(b, (6, 3), (14, 3)) is None
    # the gantry it stands on does not count
    assert killzones.target_refusal(b, (10, 2), (14, 2)) is None


def _game_on(board_doc: dict, players: dict, enemy_at: tuple[float, float]) -> tuple:
    import copy

    from solo_ops.core.dice import ScriptedDice
    from solo_ops.game.engine import new_game
    from solo_ops.io.scenario import parse_scenario
    from tests.support.portal_board import TROOPER

    doc = {"name": "t", "edition": "kt2024", "board": board_doc,
           "roster": {"name": "r", "profiles": {"trooper": copy.deepcopy(TROOPER)},
                      "table": {i: "trooper" for i in range(1, 7)}},
           "engagement": 0, "seed": 1,
           "squads": [{"player": "Ana", "models": [
               {"id": mid, "profile": copy.deepcopy(TROOPER), "at": list(at)}
               for mid, at in players.items()]}],
           "enemies": [{"id": "u1", "command": 1, "models": [
               {"id": "e1", "profile": "trooper", "at": list(enemy_at)}]}]}
    game, state = new_game(parse_scenario(doc, "t.yaml"), 1)
    state.dice = ScriptedDice(faces=[6, 1] * 4)
    step(game, state, {"type": "engine"})
    return game, state


def test_bheta_decima_targeting_is_one_rule_for_both_sides() -> None:
    """The players' shot is refused and the AI finds no shot, by the same rule."""
    from solo_ops.ai.planner import choose_shot

    board_doc = {"name": "kz", "width": 20, "depth": 12, "killzone": "bheta-decima",
                 "features": [{"id": "slag", **SLAG}]}
    game, state = _game_on(board_doc, {"a1": (10, 2)}, (10, 10))
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    refused(game, state, {"type": "shoot", "target": "e1", "damage": 3},
            "not a valid target for a1: 4.0\" of the line crosses hazardous areas")
    e1, a1 = state.operatives["e1"], state.operatives["a1"]
    pos = {"e1": e1.at, "a1": a1.at}
    action, _notes = choose_shot(game.context(state), e1, e1.at, [a1], pos, moved=False,
                                 moved_how=None)
    assert action is None
    # the same models 3" nearer each other across a narrower channel: both may shoot
    board_doc["features"] = [{"id": "slag", "traits": ["hazardous"],
                              "polygon": [[0, 4], [20, 4], [20, 7], [0, 7]]}]
    game, state = _game_on(board_doc, {"a1": (10, 2)}, (10, 10))
    e1, a1 = state.operatives["e1"], state.operatives["a1"]
    action, _notes = choose_shot(game.context(state), e1, e1.at, [a1],
                                 {"e1": e1.at, "a1": a1.at}, moved=False, moved_how=None)
    assert action is not None and action.target == "a1"


def test_volkus_stronghold_lethal_and_defenders_first() -> None:
    """002 Volkus: "Add Lethal 5+ to Blast, Torrent, Devastating weapons when targets wholly
    within the STRONGHOLD. Defenders inside the stronghold resolve first when FIGHTING enemies
    outside." The shipped stronghold's footprint is x 11-19, y 8-14."""
    from solo_ops.core.model import Weapon, WeaponType, parse_weapon_rule
    from solo_ops.geometry.board import parse_board
    from solo_ops.io.yamlio import read_document
    from solo_ops.rules import killzones
    from tests.support.paths import BOARDS

    board = parse_board(read_document(BOARDS / "volkus-stronghold.yaml"), "volkus-stronghold")
    r = 0.492
    assert killzones.wholly_within_stronghold(board, (15, 11), r)
    assert not killzones.wholly_within_stronghold(board, (11.3, 11), r)  # base over the wall
    blast = Weapon("frag", WeaponType.SPECIAL, range=8, attacks=4, hit=4, damage=(2, 4),
                   rules=(parse_weapon_rule("blast=2"),))
    inside = killzones.stronghold_weapon(board, blast, (15, 11), r)
    assert inside.rule("lethal") is not None and inside.rule("lethal").value == 5
    assert killzones.stronghold_weapon(board, blast, (5, 5), r) is blast
    rifle = Weapon("rifle", WeaponType.RAPID, range=24, attacks=4, hit=4, damage=(3, 4))
    assert killzones.stronghold_weapon(board, rifle, (15, 11), r) is rifle
    assert killzones.defender_first(board, (9, 11), r, (15, 11), r)
    assert not killzones.defender_first(board, (15, 12), r, (15, 11), r)
    assert not killzones.defender_first(board, (15, 11), r, (9, 11), r)


# -- item 12: Overwatch and Retreat reactions ----------------------------------------------------
def _declared(react_at: tuple[float, float] = (5, 11)) -> tuple:
    """A 2018 game in the movement phase: e1 (4" from a1, in sight) declares a charge at a1."""
    from solo_ops.ai.planner import Action
    from solo_ops.game import enemy

    game, state = start({"a1": react_at}, edition="kt2018", enemy_at=(react_at[0] + 5, 11))
    e1 = state.operatives["e1"]
    near = (react_at[0] + 2 * 0.492 + 0.5, 11.0)
    events = enemy.declare_charge(game, state, e1, Action("charge", "e1", start=e1.at,
                                                           route=(e1.at, near), target="a1"))
    assert events[0]["type"] == "charge_declared"
    return game, state


def test_a_declared_charge_offers_the_player_overwatch_or_retreat() -> None:
    """004 "After you have declared a charge, any opponents take it in turn to make Reactions
    ... A model can React if it is the target of a charging model and it is more than 1" from
    an enemy model. A model can either fire Overwatch or Retreat when it Reacts." """
    from solo_ops.view import answers

    game, state = _declared()
    prompt = pending(game, state)
    assert prompt.kind == "reaction" and prompt.operative == "a1" and prompt.player == "Ana"
    assert prompt.options == ["overwatch [with WEAPON] roll", "overwatch damage N",
                              "retreat X,Y", "no"]
    # nothing else is accepted first
    refused(game, state, {"type": "activate", "operative": "a1"}, "first answer the charge")
    assert answers.parse("no", "reaction") == {"type": "reaction", "react": "none"}
    assert answers.parse("retreat 3,11", "reaction") == {"type": "reaction",
                                                         "react": "retreat", "to": [3.0, 11.0]}
    assert answers.parse("overwatch with lasgun roll", "reaction") == {
        "type": "reaction", "react": "overwatch", "weapon": "lasgun", "roll": True}
    assert answers.parse("overwatch damage 1", "reaction") == {
        "type": "reaction", "react": "overwatch", "damage": 1}
    # no reaction: the engine rolls the charge (2D6 = 6 + 1) and e1 reaches a1
    record = step(game, state, {"type": "reaction", "react": "none"})
    kinds = [e["type"] for e in record["events"]]
    assert kinds[:2] == ["no_reaction", "charged"] and record["events"][1]["roll"] == 7
    assert pending(game, state).kind == "activate"


def test_retreat_moves_up_to_three_inches_away_and_the_charge_follows() -> None:
    """004 Retreat: "it can be moved up to 3" by the controlling player. This move must end
    with the model further away from the charging model ... A model that Retreats cannot React
    later in the battle round, and cannot shoot later in the battle round"."""
    game, state = _declared()
    refused(game, state, {"type": "reaction", "react": "retreat", "to": [1.5, 11]},
            "a Retreat moves up to 3\"")
    refused(game, state, {"type": "reaction", "react": "retreat", "to": [6, 11]},
            "further away from e1")
    record = step(game, state, {"type": "reaction", "react": "retreat", "to": [2.5, 11]})
    a1 = state.operatives["a1"]
    assert a1.at == (2.5, 11.0) and a1.moved_how == "retreat"
    # e1 (at x 10) charges the new position: 7.5 - 0.98 = 6.5" apart, the 2D6 roll of 7 reaches
    charged = [e for e in record["events"] if e["type"] in ("charged", "charge_failed")]
    assert charged[0]["type"] == "charged" and charged[0]["roll"] == 7
    assert turns_engaged(game, state, "a1")
    assert a1.fell_back  # it cannot shoot later this battle round


def turns_engaged(game: object, state: object, op: str) -> bool:
    from solo_ops.game import turns

    return turns.engaged_2018(game, state, state.operatives[op])  # type: ignore


def test_overwatch_is_a_shot_at_the_charger() -> None:
    """004 Overwatch: "any attacks made must target the model attempting to charge, and a 6 is
    always required for a successful hit roll". Reported damage goes to the charger."""
    game, state = _declared()
    record = step(game, state, {"type": "reaction", "react": "overwatch", "damage": 0})
    assert [e["type"] for e in record["events"]][:2] == ["overwatch", "charged"]
    assert "hits on 6s" in record["events"][0]["note"]


def test_access_override_in_play_with_the_command_node() -> None:
    """004 Command Nodes: "Starting from the second battle round, a player gains one Command
    Point if they control the Command Node objective marker, and they can also use the Access
    Override Tactic." ACCESS OVERRIDE (1 CP): "Use this Tactic at the end of the Movement
    phase. If you control an objective marker that is a Command Node, you can open one door".
    a1 stands by the node (1" from it; 2018 control: within 2"); the door is 10" away."""
    import copy

    from solo_ops.core.dice import ScriptedDice
    from solo_ops.game.engine import new_game
    from solo_ops.io.scenario import parse_scenario
    from tests.support.portal_board import TROOPER, board

    b = board("door", False)
    b["objectives"] = [{"id": "node", "at": [3, 11], "command_node": True}]
    doc = {"name": "t", "edition": "kt2018", "board": b,
           "roster": {"name": "r", "profiles": {"trooper": copy.deepcopy(TROOPER)},
                      "table": {i: "trooper" for i in range(1, 7)}},
           "engagement": 0, "seed": 1,
           "squads": [{"player": "Ana", "models": [
               {"id": "a1", "profile": copy.deepcopy(TROOPER), "at": [4.5, 11]}]}],
           "enemies": [{"id": "u1", "command": 1, "models": [
               {"id": "e1", "profile": "trooper", "at": [28, 2]}]}],
           "settings": {"turns": 3}}
    game, state = new_game(parse_scenario(doc, "t.yaml"), 1)
    state.dice = ScriptedDice(faces=[6, 1] * 6)
    step(game, state, {"type": "engine"})
    door = {"type": "portal", "feature": "portal-1", "open": True}
    refused(game, state, door, "end of the movement phase")  # turn 1, a1 still to move
    step(game, state, {"type": "activate", "operative": "a1"})
    step(game, state, {"type": "done"})
    to_phase(game, state, "shooting")
    refused(game, state, door, "from the second battle round")  # the window, but turn 1
    while state.turn < 2:
        prompt = pending(game, state)
        if prompt.kind == "activate":
            step(game, state, {"type": "activate", "operative": prompt.options[0]})
            step(game, state, {"type": "done"})
        else:
            step(game, state, {"type": "engine"})
    assert state.cp.get("player") == 1  # gained for holding the node at the round's start
    assert state.phase == "movement"
    refused(game, state, door, "end of the movement phase")  # a1 has not moved yet
    step(game, state, {"type": "activate", "operative": "a1"})
    step(game, state, {"type": "done"})
    to_phase(game, state, "shooting")
    record = step(game, state, door)  # the players' first answer after the movement phase
    assert state.doors["portal-1"] is True and state.cp["player"] == 0
    assert record["events"][0]["access_override"] is True
