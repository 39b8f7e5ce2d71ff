"""Kill Team 2018, rules that bind both sides alike (004). Nerve Tests: "If the result of the
Nerve test exceeds the model's Leadership characteristic, the test is failed. The model is
shaken, and cannot do anything until it is no longer shaken"; the roll takes 1 for "Each other
friendly model (other than shaken models) within 2" of the model", measured as every 2018
distance is: "Distances cannot be measured through these walls". Charge Move: a charge that
falls short moves "as close as possible to at least one of the targets of its charge". Ties:
roll-offs are rolled again, and a battle tied on VP goes to the side holding more markers.

The board is the portal table (tests/support/portal_board.py): 30" x 22", a wall along x = 15
with a closed door at y 10-12, 25.4 mm bases (radius 0.5"). The players' a1 and the enemy's
e1 are troopers with a 24" gun (Fire Teams command 1: remain stationary, fire at will).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from solo_ops.ai import reactions
from solo_ops.ai.planner import Action, plan_activation
from solo_ops.core.dice import ScriptedDice
from solo_ops.core.errors import RuleError
from solo_ops.game import attacks, charges
from solo_ops.game.engine import pending, step
from solo_ops.rules import referee
from tests.support.portal_board import start

SHAKEN = "is shaken: it cannot do anything until it is no longer shaken (004 Nerve Tests)"


def _game(enemy_at: tuple[float, float] = (12, 11)) -> tuple:
    """a1 at (4, 11) and e1 8" east of it in the open, in the movement phase."""
    return start({"a1": (4, 11)}, edition="kt2018", enemy_at=enemy_at)


def test_a_shaken_enemy_model_does_nothing_in_any_phase() -> None:
    game, state = _game()
    e1 = state.operatives["e1"]
    state.phase = "shooting"
    steady = plan_activation(game.context(state), state, "u1", "shooting")
    assert [(a.kind, a.target) for a in steady.actions] == [("shoot", "a1")]
    e1.shaken = True
    for phase in ("movement", "shooting", "fight"):
        state.phase = phase
        plan = plan_activation(game.context(state), state, "u1", phase)
        assert plan.actions == [], phase
        assert f"e1 {SHAKEN}." in plan.explain


def test_a_shaken_enemy_model_fires_no_overwatch_at_a_charger() -> None:
    game, state = _game()
    ctx = game.context(state)
    assert reactions.overwatch(ctx, state, "e1", "a1") is not None  # steady: it would fire
    state.operatives["e1"].shaken = True
    assert reactions.overwatch(ctx, state, "e1", "a1") is None
    assert reactions.may_react(ctx, state, "e1") == f"e1 cannot React: it {SHAKEN}"


def test_a_shaken_player_model_is_not_asked_to_react_to_a_charge() -> None:
    game, state = _game(enemy_at=(9, 11))
    e1 = state.operatives["e1"]
    charge = Action("charge", "e1", start=e1.at, route=(e1.at, (5.5, 11.0)), target="a1")
    assert charges.reaction_due(game, state, e1, charge)  # steady: a1 is asked
    state.operatives["a1"].shaken = True
    assert not charges.reaction_due(game, state, e1, charge)
    told = charges.no_reaction(game, state, charge)
    assert [e["type"] for e in told] == ["charge_declared", "cannot_react"]
    assert told[1]["why"] == f"a1 cannot React: it {SHAKEN}"


def test_the_referee_refuses_a_shaken_model_every_action() -> None:
    for kind, phase in (("normal", "movement"), ("advance", "movement"), ("charge", "movement"),
                        ("fall_back", "movement"), ("shoot", "shooting"), ("fight", "fight")):
        act = referee.Activation(who="Vale", edition="kt2018", phase=phase, shaken=True)
        assert referee.refusal(act, kind, check_control=False) == (
            f"Vale {SHAKEN}")
        steady = referee.Activation(who="Vale", edition="kt2018", phase=phase)
        assert "shaken" not in str(referee.refusal(steady, kind, check_control=False))
    # Kill Team 2024 has no Nerve tests: the flag means nothing there
    act = referee.Activation(who="Vale", edition="kt2024", shaken=True)
    assert referee.refusal(act, "reposition", check_control=False) is None


def test_a_friend_behind_a_wall_does_not_steady_a_nerve_test() -> None:
    # a1 and a2 stand 0.4" apart, edge to edge, on either side of the wall, the door shut:
    # no way round, so a2 is not within 2" of a1 (the straight line would say 0.4")
    game, state = start({"a1": (14.3, 17), "a2": (15.7, 17)}, edition="kt2018")
    terrain = game.terrain(state)
    a1 = state.operatives["a1"]
    dice = ScriptedDice(faces=[4, 4])
    _, walled = attacks.nerve_test_2018(dice, state, a1, terrain=terrain)
    assert walled.modifiers == () and walled.value == 4
    # on open ground (no terrain given) the same two would be within 2": the -1 applies
    _, open_ground = attacks.nerve_test_2018(dice, state, a1)
    assert open_ground.modifiers == (('friends within 2"', -1),) and open_ground.value == 3


def test_a_friend_on_the_same_side_of_the_wall_steadies_it() -> None:
    game, state = start({"a1": (14.3, 17), "a2": (14.3, 18.8)}, edition="kt2018")
    a1 = state.operatives["a1"]
    _, entry = attacks.nerve_test_2018(ScriptedDice(faces=[4]), state, a1,
                                       terrain=game.terrain(state))
    assert entry.modifiers == (('friends within 2"', -1),) and entry.value == 3



def test_a_failed_charge_ends_as_close_as_possible_not_along_a_detour() -> None:
    """004 Charge Move: "the model can move up to its charge distance, as long as that move
    takes it as close as possible to at least one of the targets of its charge". e1 at (12, 11)
    charges a1 at (4, 11) along a route planned through (12, 15) (a base stood in the straight
    way when it was planned; it is gone now), and rolls 3 of the 7" it needs: it moves 3"
    straight at a1, to (9, 11), 4" from it edge to edge -- not 3" north along the detour,
    which would end 7.5" away, farther than it started (7")."""
    game, state = _game(enemy_at=(12, 11))
    e1 = state.operatives["e1"]
    state.phase = "movement"
    state.dice = ScriptedDice(faces=[1, 2])
    plan = Action("charge", "e1", start=e1.at, route=((12.0, 11.0), (12.0, 15.0), (5.5, 11.0)),
                  target="a1")
    events = charges.enemy_charge(game, state, e1, plan)
    failed = next(e for e in events if e["type"] == "charge_failed")
    assert failed["roll"] == 3 and failed["to"] == [9.0, 11.0] and failed["cost"] == 3.0
    assert e1.at == (9.0, 11.0) and e1.moved_how == "charge" and not e1.charged



def test_a_players_charge_at_an_enemy_that_cannot_react_says_why() -> None:
    """docs/rules.md, who may React: "a model that cannot React is charged at once and the
    game says why" -- for the enemy's models too (here: shaken, so no Overwatch)."""
    game, state = _game(enemy_at=(9, 11))
    state.operatives["e1"].shaken = True
    step(game, state, {"type": "activate", "operative": "a1"})
    state.dice = ScriptedDice(faces=[6, 6])
    record = step(game, state, {"type": "move", "how": "charge", "target": "e1"})
    assert [e["type"] for e in record["events"]] == ["charge_declared", "cannot_react",
                                                     "move_roll"]
    assert record["events"][1]["why"] == f"e1 cannot React: it {SHAKEN}"


def test_a_tied_initiative_roll_off_is_rolled_again_every_battle_round() -> None:
    """004 Roll-offs: "In the case of a tie, those players re-roll their dice – if the second
    and subsequent rolls are also tied, keep on rolling until a winner is determined": in
    battle round 2 too (Kill Team 2024 passes the initiative on a later tie). The players hold
    it from round 1 (6 to 1); round 2 rolls 3 to 3, then 5 to 2: still the players'."""
    from tests.support.pariah_table import engine_until_players
    from tests.support.pariah_table import start as pariah_start

    game, state = pariah_start({}, faces=[6, 1] + [2] * 60)
    engine_until_players(game, state)
    assert (state.turn, state.initiative) == (1, "player")
    for op in state.operatives.values():  # round 1 played out: its fight phase ends it
        op.activated = True
    state.phase = "fight"
    state.dice = ScriptedDice(faces=[3, 3, 5, 2] + [2] * 60)
    told: list[dict] = []
    while not told and pending(game, state).kind == "engine":
        told = [e for e in step(game, state, {"type": "engine"})["events"]
                if e["type"] == "initiative"]
    assert told == [{"type": "initiative", "side": "player", "player_roll": 5,
                     "enemy_roll": 2}]
    assert [r.face for r in state.dice.log if "initiative" in r.purpose] == [3, 3, 5, 2]


def test_a_tie_on_victory_points_goes_to_the_side_holding_more_objectives() -> None:
    """004, every matched play mission: "If there is a tie, whichever player controls the most
    objective markers at the end of the battle is the winner. If there is still a tie, the
    game is a draw." a1 stands within 2" of the one marker (the Command Node at (5, 11))."""
    from solo_ops.game import scoring
    from tests.support.pariah_table import start as pariah_start

    game, state = pariah_start({})
    state.vp = {"player": 3, "enemy": 3}
    assert scoring.objective_control(game, state) == {"obj-1": "player"}
    end = next(e for e in scoring.end_battle(game, state) if e["type"] == "battle_end")
    assert (end["outcome"], end["tie_break"]) == ("win", "objective markers held 1 to 0")
    game, state = pariah_start({}, a1=(20, 20))  # nobody holds it: a draw
    state.vp = {"player": 3, "enemy": 3}
    end = next(e for e in scoring.end_battle(game, state) if e["type"] == "battle_end")
    assert end["outcome"] == "draw" and "tie_break" not in end


def _assault(op: Any, assault: bool) -> None:
    """Give ``op`` a second gun, a bolt pistol… an Assault "shoota" beside its lasgun."""
    gun = op.profile.ranged_weapons[0]
    extra = replace(gun, name="shoota", type_2018="assault" if assault else "rapid")
    op.profile = replace(op.profile, weapons=(*op.profile.weapons, extra))


def test_an_advanced_model_with_an_assault_weapon_may_fire_overwatch_with_it_only() -> None:
    """004 Assault: "You can choose to shoot with a model with an Assault weapon in the
    Shooting phase (or React with that model to fire Overwatch) even if it Advanced earlier in
    that battle round. If it does so, it can only fire Assault weapons". a1 Advanced; e1
    declares a charge at it: it is asked, with its shoota alone and no Retreat (a move)."""
    game, state = _game(enemy_at=(9, 11))
    a1, e1 = state.operatives["a1"], state.operatives["e1"]
    a1.advanced, a1.moved_how = True, "advance"
    charge = Action("charge", "e1", start=e1.at, route=(e1.at, (5.5, 11.0)), target="a1")
    assert not charges.reaction_due(game, state, e1, charge)  # a lasgun only: no Reaction
    _assault(a1, True)
    assert charges.reaction_due(game, state, e1, charge)
    charges.declare_charge(game, state, e1, charge)
    assert pending(game, state).options == ["overwatch roll", "overwatch damage N", "no"]
    refusal = None
    try:
        step(game, state, {"type": "reaction", "react": "overwatch", "weapon": "lasgun",
                           "roll": True})
    except RuleError as refused:
        refusal = str(refused)
    assert refusal == ("a1 Advanced this battle round: it fires Overwatch with an Assault "
                       "weapon only (004 Assault)")


def test_an_advanced_enemy_fires_overwatch_with_an_assault_weapon_only() -> None:
    game, state = _game()
    e1 = state.operatives["e1"]
    e1.advanced, e1.moved_how = True, "advance"
    ctx = game.context(state)
    assert reactions.overwatch(ctx, state, "e1", "a1") is None  # its lasgun: no Reaction
    _assault(e1, True)
    shot = reactions.overwatch(game.context(state), state, "e1", "a1")
    assert shot is not None and shot.weapon == "shoota"


def test_a_model_that_charged_and_can_fight_may_not_pass(tmp_path: Any) -> None:
    """004 Hammer of Wrath: "A player cannot choose to pass if they have a model that charged
    that can fight": a1 charges e1 (12 rolled), and in the fight phase `done` before its fight
    is refused; the phone offers no "done" then, and says why."""
    from solo_ops.session.table import GameTable
    from solo_ops.web.offers import offers

    game, state = _game(enemy_at=(9, 11))
    state.operatives["e1"].advanced = True  # (it cannot React: the charge is rolled at once)
    step(game, state, {"type": "activate", "operative": "a1"})
    state.dice = ScriptedDice(faces=[6, 6] + [1] * 80)
    step(game, state, {"type": "move", "how": "charge", "target": "e1", "to": [7.9, 11.0]})
    step(game, state, {"type": "done", "operative": "a1"})
    while state.phase != "fight" or pending(game, state).kind != "activate":
        step(game, state, {"type": "engine"})
    assert pending(game, state).options == ["a1"]  # Hammer of Wrath: the charger first
    step(game, state, {"type": "activate", "operative": "a1"})
    refusal = None
    try:
        step(game, state, {"type": "done", "operative": "a1"})
    except RuleError as refused:
        refusal = str(refused)
    assert refusal is not None and refusal.startswith("a1 charged this battle round and can "
                                                      "fight: it fights now")
    table = GameTable(game, state, tmp_path / "s.json", tmp_path / "s.log.jsonl")
    offered = offers(table)
    assert not any(o.get("word") == "done" for o in offered["offers"])
    assert {"what": "done", "why": refusal} in offered["why_not"]
    assert any(o.get("word") == "fight" for o in offered["offers"])


def test_a_battle_goes_on_to_round_4_after_the_players_are_wiped_out() -> None:
    """004, every matched play mission: "The battle automatically ends at the end of battle
    round 4." The players lead 4 to 1 when their two models are taken out of action in round
    1; the enemy goes on scoring Supremacy each round ("all of their opponent's models are out
    of action": 1 VP a round at least) and the battle ends after round 4, not after round 1."""
    from tests.support.pariah_table import engine_until_players
    from tests.support.pariah_table import start as pariah_start

    game, state = pariah_start({}, settings={"turns": 4})
    engine_until_players(game, state)
    state.vp = {"player": 4, "enemy": 1}
    for mid in ("a1", "a2"):
        state.operatives[mid].down = True
        state.operatives[mid].at = None
    while not state.ended:
        assert pending(game, state).kind == "engine"  # nobody left to ask
        step(game, state, {"type": "engine"})
    assert state.result is not None and state.result["turns"] == 4
    assert state.vp["enemy"] >= 1 + 4  # a Supremacy point in each of the four rounds
