"""The Pariah Nexus effects in a game, for both sides: the dice the engine rolls and logs,
the checks it makes, the questions it asks (004, each test quoting its line). The dice are
scripted (tests/support/pariah_table.py: the initiative roll-off first)."""

from __future__ import annotations

import math
import re

import pytest

from solo_ops.core.errors import RuleError
from solo_ops.game import pariah_events
from solo_ops.game.engine import pending, step
from solo_ops.game.state import State
from tests.support.pariah_table import RADIUS, engine_until_players, events, rolls, start


def _activate(game, state: State, model: str = "a1") -> int:
    """The players' first activation (the players won the initiative); the log's length."""
    engine_until_players(game, state)
    step(game, state, {"type": "activate", "operative": model})
    return len(state.log)


def test_an_advance_roll_is_rolled_with_the_effects_and_bounds_the_move() -> None:
    """004 Advancing: "make an Advance roll by rolling a D6. Add the result to the model's Move
    characteristic"; Auto-reactive Foundations: "When making an Advance or charge roll, roll
    one additional D6 and discard the highest result." a1 declares its Advance: 2D6 2 and 5,
    the 5 discarded: it may move 6" + 2". A point 8.5" away is refused, the roll standing."""
    game, state = start({"environment": 3}, faces=[6, 1, 2, 5])
    since = _activate(game, state)
    record = step(game, state, {"type": "move", "how": "advance"})
    roll = next(e for e in record["events"] if e["type"] == "move_roll")
    assert (roll["roll"], roll["dice"]) == (2, "2D6: 2, 5, the highest (5) discarded "
                                                "(Auto-reactive Foundations) = 2")
    assert [r["faces"] for r in rolls(state, since)] == [[2, 5], []]
    with pytest.raises(RuleError, match="the Advance allows 8\""):
        step(game, state, {"type": "move", "to": [11.5, 10]})
    record = step(game, state, {"type": "move", "to": [10.5, 10]})
    moved = next(e for e in record["events"] if e["type"] == "moved")
    assert moved["how"] == "advance" and state.operatives["a1"].advanced


def test_after_the_rolled_advance_is_made_no_move_is_offered() -> None:
    """Once the declared Advance has been moved, the model has made its move of the battle
    round: no move kind is open to it (the phone offered "advance" again, each tap refused
    "already moved"). Before the move, only the Advance is, with the reason in words."""
    from solo_ops.game.player_moves import open_moves

    game, state = start({}, faces=[6, 1, 2, 5])
    _activate(game, state)
    step(game, state, {"type": "move", "how": "advance"})
    before = open_moves(game, state)
    assert before["advance"] is None
    assert before["normal"] == "a1 has declared an Advance: its move follows the roll"
    step(game, state, {"type": "move", "to": [10.5, 10]})
    after = open_moves(game, state)
    assert all(why is not None for why in after.values()), after


def test_a_charge_declared_and_not_moved_offers_no_move_in_the_fight_phase() -> None:
    """A charge declared and rolled in the movement phase but never moved (the model ended
    its activation there) is no move to make later: in the fight phase every move is refused
    for the phase, as the answer itself is (the phone offered "charge", each tap refused)."""
    from solo_ops.game.player_moves import open_moves

    game, state = start({}, faces=[6, 1, 1, 2], e1=(12, 10))
    _activate(game, state)
    state.operatives["e1"].advanced = True  # it cannot React (004 Advancing)
    step(game, state, {"type": "move", "how": "charge", "target": "e1"})
    assert open_moves(game, state)["charge"] is None  # its move follows the roll
    state.phase = "fight"
    offered = open_moves(game, state)
    assert set(offered.values()) == {"models move in the movement phase"}, offered


def test_a_players_charge_is_declared_rolled_then_moved_and_can_fail() -> None:
    """004 Charge Move: "make a charge roll by rolling 2D6. The charging model can move up to
    this number of inches ... If the model cannot finish its move while following these
    restrictions, the charge fails ... the model can move up to its charge distance, as long as
    that move takes it as close as possible to at least one of the targets of its charge, and
    not within 1" of any enemy models. A model can only make one charge attempt in each
    Movement phase, and once it has done so it cannot shoot later in the battle round." """
    game, state = start({}, faces=[6, 1, 1, 2], e1=(12, 10))
    _activate(game, state)
    state.operatives["e1"].advanced = True  # it cannot React (004 Advancing)
    record = step(game, state, {"type": "move", "how": "charge", "target": "e1"})
    assert [e["type"] for e in record["events"]] == ["charge_declared", "cannot_react",
                                                     "move_roll"]
    assert record["events"][1]["why"] == "e1 cannot React: it Advanced this battle round"
    assert state.operatives["a1"].charge_roll == 3
    with pytest.raises(RuleError, match="the charge roll allows 3\""):
        step(game, state, {"type": "move", "to": [10.3, 10]})  # within 1" of e1: 6.3" away
    with pytest.raises(RuleError, match="not reach e1"):
        step(game, state, {"type": "move", "to": [3, 12]})  # no closer
    record = step(game, state, {"type": "move", "to": [5.5, 10]})
    moved = next(e for e in record["events"] if e["type"] == "moved")
    assert moved["failed_charge"] == "e1" and not state.operatives["a1"].charged
    step(game, state, {"type": "done"})
    assert state.operatives["a1"].moved_how == "charge"


def test_a_charge_to_a_point_is_refused_where_it_could_not_end() -> None:
    """``charge e1 X,Y`` names where the charge would end: a point not within 1" of e1 is
    refused before any die is rolled (the phone offers "charge here" only where a charge can
    end), as an enemy's charge is planned to end within 1" of its target."""
    game, state = start({}, faces=[6, 1, 4, 5], e1=(12, 10))
    _activate(game, state)
    state.operatives["e1"].advanced = True
    before = (len(state.log), state.dice.seq if state.dice else 0)
    with pytest.raises(RuleError, match=re.escape(
            'a charge must end within 1" of e1 and in its sight: from there it is 5.0" away')):
        step(game, state, {"type": "move", "how": "charge", "target": "e1", "to": [6, 10]})
    assert (len(state.log), state.dice.seq if state.dice else 0) == before
    assert state.operatives["a1"].charge_roll is None
    step(game, state, {"type": "move", "how": "charge", "target": "e1",
                       "to": [12 - 2 * RADIUS - 0.5, 10]})
    assert state.operatives["a1"].charged


def test_a_successful_charge_ends_within_1_inch() -> None:
    """004: "To make a successful charge roll, the model must finish its move within 1" of at
    least one of the target models. A model that does so is said to have charged"."""
    game, state = start({}, faces=[6, 1, 4, 5], e1=(12, 10))
    _activate(game, state)
    state.operatives["e1"].advanced = True
    step(game, state, {"type": "move", "how": "charge", "target": "e1"})
    step(game, state, {"type": "move", "to": [12 - 2 * RADIUS - 0.5, 10]})
    assert state.operatives["a1"].charged


def test_a_charge_keeps_the_inch_from_the_enemies_it_did_not_target() -> None:
    """004 Charge Move: "It cannot move within 1" of an enemy model that was not a target of its
    charge." e2 stands 0.5" south of e1: base contact with e1 on its west side would be 0.8"
    from e2 (refused, saying so); ``move into base contact with e1`` finds a side of e1 more
    than 1" from e2."""
    from solo_ops.game import intent

    game, state = start({}, faces=[6, 1, 6, 6], a1=(3, 10), e1=(9, 10), e2=(9, 8.5))
    _activate(game, state)
    state.operatives["e1"].advanced = state.operatives["e2"].advanced = True  # no Reaction
    step(game, state, {"type": "move", "how": "charge", "target": "e1"})
    west = [9 - 2 * RADIUS - 0.02, 10]
    with pytest.raises(RuleError, match="within 1\" of e2, which is not a target of the"):
        step(game, state, {"type": "move", "to": west})
    proposal = intent.propose(game, state, {"type": "move", "how": "charge",
                                            "relation": "contact", "ref": "e1"})
    a1, e1, e2 = (state.operatives[i] for i in ("a1", "e1", "e2"))

    def gap(other: object) -> float:
        return math.dist(proposal.to, other.at) - 2 * RADIUS  # type: ignore[attr-defined]

    assert gap(e2) > 1.0 and gap(e1) < 0.05
    step(game, state, proposal.action)
    assert a1.charged


def test_a_charge_that_cannot_reach_moves_as_close_as_it_may() -> None:
    """004 Charge Move: "the charge fails ... however, the model can move up to its charge
    distance, as long as that move takes it as close as possible to at least one of the targets
    of its charge, and not within 1" of any enemy models." e1 stands at the west edge with e2
    0.5" east of it: every spot in base contact with e1 is within 1" of e2, so ``move 3 toward
    e1`` after a charge roll of 7 moves 3" closer, more than 1" from both."""
    from solo_ops.game import intent
    from solo_ops.rules import reach

    e1 = (RADIUS + 0.05, 10.0)
    game, state = start({}, faces=[6, 1, 3, 4], a1=(10, 11), e1=e1, e2=(e1[0] + 2 * RADIUS + 0.5,
                                                                      10.0))
    _activate(game, state)
    state.operatives["e1"].advanced = state.operatives["e2"].advanced = True  # no Reaction
    step(game, state, {"type": "move", "how": "charge", "target": "e1"})
    with pytest.raises(RuleError, match="has no way into base contact with e1"):
        intent.propose(game, state, {"type": "move", "how": "charge", "relation": "contact",
                                     "ref": "e1"})
    proposal = intent.propose(game, state, {"type": "move", "how": "charge",
                                            "relation": "toward", "ref": "e1", "amount": 3})
    a1 = state.operatives["a1"]
    terrain = game.terrain(state)
    before = reach.route_gap(terrain, a1.at, a1.radius, e1, RADIUS)
    after = reach.route_gap(terrain, proposal.to, a1.radius, e1, RADIUS)
    assert proposal.cost <= 3.0 + 1e-6 and after < before - 2.5
    assert min(math.dist(proposal.to, state.operatives[i].at) for i in ("e1", "e2")) \
        > 2 * RADIUS + 1.0
    record = step(game, state, proposal.action)
    moved = next(e for e in record["events"] if e["type"] == "moved")
    assert moved["failed_charge"] == "e1" and not a1.charged


def test_the_enemys_charge_roll_logs_every_die_of_the_effect() -> None:
    """Auto-reactive Foundations on the enemy's charge roll (issue: the log had "dice 2d6,
    faces [6, 6]"): three dice, the highest discarded, named in the log and the narration."""
    game, state = start({"environment": 3}, faces=[1, 6, 6, 6, 3], e1=(7.5, 10), command=5)
    engine_until_players(game, state)  # solo-ops has the initiative: e1 acts first
    prompt = pending(game, state)
    if prompt.kind == "reaction":
        step(game, state, {"type": "reaction", "react": "none"})
    charge = events(state, "charged") + events(state, "charge_failed")
    assert charge, [e["type"] for r in state.log for e in r["events"]]
    assert "3D6: 6, 6, 3, the highest (6) discarded (Auto-reactive Foundations) = 9" in \
        charge[0]["note"]
    dice = [r for r in rolls(state) if r["purpose"].startswith("charge roll")]
    assert [r["faces"] for r in dice] == [[6, 6, 3], []] and dice[1]["value"] == 9


def test_no_reaction_after_an_advance() -> None:
    """004 Advancing: "A model that Advances cannot charge, React or shoot later that battle
    round." The enemy's charge at a model that Advanced is rolled at once, saying why."""
    game, state = start({}, faces=[6, 1, 3, 1, 4, 4], e1=(12, 10), command=5)
    _activate(game, state)
    step(game, state, {"type": "move", "how": "advance"})
    step(game, state, {"type": "move", "to": [6, 10]})
    step(game, state, {"type": "done"})
    engine_until_players(game, state)
    assert pending(game, state).kind != "reaction"
    why = events(state, "cannot_react")
    assert why and "it Advanced this battle round" in why[0]["why"]


def test_power_surges_rolls_the_lighting_at_the_start_of_the_battle_round() -> None:
    """004 Power Surges: "At the start of each battle round, roll one D6. On a 1-3, it is low
    lighting ... On a 4-6, it is intense lighting"."""
    game, state = start({"environment": 1}, faces=[6, 1, 5])
    engine_until_players(game, state)
    got = events(state, "effect_roll")
    assert (got[0]["effect"], got[0]["roll"], got[0]["value"]) == ("Power Surges", 5,
                                                                   "intense")
    assert state.round_effects["lighting"] == "intense"


def test_dimensional_flense_feedback_strikes_models_by_the_picked_lacerator() -> None:
    """004 Dimensional Flense Feedback: "At the start of each battle round, roll one D6 to
    randomly determine one spatial lacerator on the gameboard. Roll one D6 for each model
    within 2" of the centre of that spatial lacerator; on a 5+ that model suffers 1 mortal
    wound." a1 stands 1.5" from lacerator-1 (a d2 names it of the two); a 5 strikes it; its
    Injury roll 6: out of action."""
    game, state = start({"killzone": 2}, faces=[6, 1, 1, 5, 6], a1=(4, 5.5),
                        killzone="crypt-of-cynosure")
    engine_until_players(game, state)
    picked = events(state, "effect_pick")[0]
    assert picked["picked"] == ["lacerator-1"]
    hazard = events(state, "effect_hazard")
    assert [(h["operative"], h["roll"], h["struck"]) for h in hazard] == [("a1", 5, True)]
    assert state.operatives["a1"].down


def test_volatile_pressure_inversion_at_the_end_of_the_battle_round() -> None:
    """004 Volatile Pressure Inversion: "At the end of each battle round, roll one D6 for each
    model within 2" of a pitfall. On a 1, that model suffers 1 mortal wound." a2 stands 0.6"
    from the pitfall: a 1 strikes it (Injury roll 2: a flesh wound, its first box)."""
    game, state = start({"pitfall": 1}, faces=[6, 1, 1, 2], a2=(19.5, 15))
    engine_until_players(game, state)
    got = pariah_events.round_end(game, state)
    assert [(e["operative"], e["roll"], e["struck"]) for e in got
            if e["type"] == "effect_hazard"] == [("a2", 1, True)]
    assert state.operatives["a2"].flesh_wounds == 1 and state.operatives["a2"].wounds == 1


def test_a_spatial_lacerator_is_offered_to_the_players_after_their_move() -> None:
    """004 Spatial Lacerators: "if a model finishes a normal move, an Advance or a Fall Back
    within 1" of one of those spatial lacerators, you can remove that model from the
    battlefield and set it up within 3" of the other spatial lacerator and more than 1" from
    any enemy models." Asked at the moment it applies; a point too far is refused."""
    game, state = start({"environment": 5}, faces=[6, 1, 1, 1], a1=(3, 8))
    _activate(game, state)
    state.round_effects["lacerators"] = ["lacerator-1", "lacerator-2"]
    step(game, state, {"type": "move", "to": [4, 5.3]})
    prompt = pending(game, state)
    assert prompt.kind == "effect" and "lacerator-1" in prompt.text
    with pytest.raises(RuleError, match="set it up within 3\""):
        step(game, state, {"type": "effect", "choice": "translocate", "to": [22, 4]})
    step(game, state, {"type": "effect", "choice": "translocate", "to": [25, 6]})
    assert state.operatives["a1"].at == (25.0, 6.0)
    assert pending(game, state).kind == "act"


def test_a_lacerators_3_inches_are_measured_to_the_models_base() -> None:
    """The 3" of Spatial Lacerators are measured to the base, as every 2018 distance: the
    centre 3.4" from lacerator-2 at (26, 4) leaves the base's edge 3.4 - 0.49 = 2.91" away,
    within 3"; the centre 3.6" away (the edge 3.11") is refused."""
    game, state = start({"environment": 5}, faces=[6, 1, 1, 1], a1=(3, 8))
    _activate(game, state)
    state.round_effects["lacerators"] = ["lacerator-1", "lacerator-2"]
    step(game, state, {"type": "move", "to": [4, 5.3]})
    with pytest.raises(RuleError, match=r"that is 3\.1\" from the marker"):
        step(game, state, {"type": "effect", "choice": "translocate", "to": [26, 7.6]})
    step(game, state, {"type": "effect", "choice": "translocate", "to": [26, 7.4]})
    assert state.operatives["a1"].at == (26.0, 7.4)


def test_power_flux_bars_the_divisors_to_every_move() -> None:
    """004 Power Flux: "on a 4+ the petrific divisors activate. Until the end of the battle
    round, models cannot move on or through the petrific divisors." Across the divisor is 4";
    around it, more than a normal move allows."""
    game, state = start({"killzone": 2}, faces=[6, 1, 6], a1=(16, 11))
    _activate(game, state)
    assert state.round_effects["divisors"] == "active"
    with pytest.raises(RuleError, match="of movement around the walls"):
        step(game, state, {"type": "move", "to": [20.5, 11]})
    state.round_effects["divisors"] = "inactive"
    step(game, state, {"type": "move", "to": [20.5, 11]})


def test_dimensional_destabilisation_lets_an_advance_through_a_wall() -> None:
    """004 Dimensional Destabilisation: "Models can move through walls when they Advance (but
    cannot end the move within the wall)." Through the wall at x 15 is 3"; a normal move
    round its end (and the closed door beyond it) is refused, an Advance through it taken."""
    game, state = start({"walls": 2}, faces=[6, 1, 3], a1=(13.5, 3), a2=(1, 20))
    _activate(game, state)
    with pytest.raises(RuleError, match="of movement around the walls"):
        step(game, state, {"type": "move", "to": [16.5, 3]})
    step(game, state, {"type": "move", "how": "advance"})
    step(game, state, {"type": "move", "to": [16.5, 3]})
    assert state.operatives["a1"].at == (16.5, 3)


def test_temporal_accelerator_puts_models_near_an_objective_in_ready_fire() -> None:
    """004 Temporal Accelerator: "Whilst a model is within 2" of an objective marker, it
    shoots in the Ready, Fire! section of the Shooting phase". a1 stands by obj-1, a2 far."""
    from solo_ops.game import turns

    game, state = start({"objective": 3}, faces=[6, 1], a1=(5, 12.5))
    engine_until_players(game, state)
    state.phase = "shooting"
    assert [o.id for o in turns.player_ready(game, state, "Ana")] == ["a1"]
    assert turns.enemy_ready(game, state) == []
    # the answer follows the model (remembered per exact place, never per model): a1 walked
    # away from the marker no longer acts first; back beside it, it does again
    state.operatives["a1"].at = (12.0, 12.5)
    assert "a1" not in {o.id for o in turns.player_ready(game, state, "Ana")
                        if turns.goes_first(game, state, o)}
    state.operatives["a1"].at = (5, 12.5)
    assert [o.id for o in turns.player_ready(game, state, "Ana")] == ["a1"]


def test_a_pistol_fires_from_combat_and_no_one_shoots_into_it() -> None:
    """The 2018 Core Manual's reading (setting ``combat_shooting: core``): within 1" of an enemy
    only a Pistol fires, at the closest enemy; "Models cannot target enemy models that are
    within 1" of friendly models"; with ``anywhere`` the old reading."""
    for setting, pistol_ok, into_ok in (("core", True, False), ("anywhere", False, True)):
        game, state = start({}, faces=[6, 1] + [3] * 40, a1=(10, 10), a2=(3, 10),
                            e1=(10 + 2 * RADIUS + 0.3, 10),
                            settings={"combat_shooting": setting})
        engine_until_players(game, state)
        state.phase = "shooting"
        step(game, state, {"type": "activate", "operative": "a1"})
        shot = {"type": "shoot", "target": "e1", "weapon": "laspistol", "roll": True}
        if pistol_ok:
            step(game, state, shot)
        else:
            with pytest.raises(RuleError, match="within 1\""):
                step(game, state, shot)
        with pytest.raises(RuleError):
            step(game, state, {**shot, "weapon": "lasgun"})
        if state.active_operative:
            step(game, state, {"type": "done"})
        if state.operatives["e1"].down:
            continue
        state.next_side = "player"
        state.operatives["e1"].activated = state.operatives["a1"].activated = True
        step(game, state, {"type": "activate", "operative": "a2"})
        into = {"type": "shoot", "target": "e1", "weapon": "lasgun", "roll": True}
        if into_ok:
            step(game, state, into)
        else:
            with pytest.raises(RuleError, match="within 1\" of a friendly model"):
                step(game, state, into)


def test_a_pistol_at_another_than_the_closest_names_the_closest() -> None:
    """A Pistol fired from within 1" of an enemy "must target the closest enemy model": the
    refusal names it, so the player need not guess which one that is."""
    game, state = start({}, faces=[6, 1] + [3] * 40, a1=(10, 10), a2=(3, 10),
                        e1=(10 + 2 * RADIUS + 0.3, 10), e2=(10, 13.5))
    engine_until_players(game, state)
    state.phase = "shooting"
    step(game, state, {"type": "activate", "operative": "a1"})
    with pytest.raises(RuleError, match=r"a Pistol fired from within 1\" of an enemy must "
                                        r"target the closest enemy model \(e1\)$"):
        step(game, state, {"type": "shoot", "target": "e2", "weapon": "laspistol", "roll": True})


def test_the_enemy_fires_its_pistol_from_combat_in_the_shooting_phase() -> None:
    """Both sides read the setting: with ``core`` (2018 Core Manual, Pistol: "can [make
    shooting attacks] even if there are enemy models within 1" of the firing model, but it
    must target the closest enemy model") e1, within 1" of a1, shoots it with its laspistol in
    the shooting phase; with ``anywhere`` it does not shoot, and the plan says so."""
    for setting, shoots in (("core", True), ("anywhere", False)):
        game, state = start({}, faces=[6, 1] + [4] * 40, a1=(10, 10), a2=(3, 10),
                            e1=(10 + 2 * RADIUS + 0.3, 10),
                            settings={"combat_shooting": setting})
        engine_until_players(game, state)
        state.phase, state.next_side = "shooting", "enemy"
        since = len(state.log)
        engine_until_players(game, state)
        attacks = events(state, "attack", since)
        explain = events(state, "enemy_activation", since)[0]["explain"]
        if shoots:
            assert [a["note"] for a in attacks] == ["e1 shoots a1 with laspistol."]
            assert rolls(state, since)[0]["purpose"] == "e1 shoots a1 (laspistol): hit roll 1"
        else:
            assert attacks == [] and rolls(state, since) == []
            assert explain[-1] == "e1 does not shoot a1: it is within 1\" of an enemy model."


def test_a_model_that_charged_does_not_shoot_and_says_why() -> None:
    """004 Charge Move: "once it has done so it cannot shoot later in the battle round": the
    enemy's shooting-phase plan says so instead of saying nothing."""
    game, state = start({}, faces=[6, 1] + [4] * 40, a1=(10, 10), a2=(3, 10), e1=(16, 10))
    engine_until_players(game, state)
    state.operatives["e1"].charged = True
    state.phase, state.next_side = "shooting", "enemy"
    since = len(state.log)
    engine_until_players(game, state)
    assert events(state, "attack", since) == []
    assert events(state, "enemy_activation", since)[0]["explain"][-1] == (
        "e1 attempted a charge this battle round: it cannot shoot.")


def _override_moment(effects: dict[str, int], a1: tuple[float, float] = (5, 12.5)
                     ) -> tuple[object, State]:
    """Battle round 2, the players hold the Command Node with 1 CP, the shooting phase before
    anyone has shot: Access Override's moment (004)."""
    game, state = start(effects, faces=[6, 1, 5, 6], a1=a1)
    engine_until_players(game, state)
    state.turn, state.phase, state.cp["player"] = 2, "shooting", 1
    state.active_operative = None
    return game, state


def test_access_control_opens_and_closes_any_doors_for_one_cp() -> None:
    """004 Access Control: "When using the Access Override Tactic, you can open and close any
    and all doors ... If any models would prevent a door from being placed, the door is not
    closed, but roll one D6 for each of those models. On a 4+, that model suffers 1 mortal
    wound." Without it Access Override opens one door (004 ACCESS OVERRIDE)."""
    game, state = _override_moment({"environment": 2})
    step(game, state, {"type": "portal", "feature": "door-1", "open": True})
    assert state.doors["door-1"] and state.cp["player"] == 0
    step(game, state, {"type": "portal", "feature": "door-1", "open": False})
    assert not state.doors["door-1"] and state.cp["player"] == 0  # the one CP paid
    step(game, state, {"type": "portal", "feature": "door-1", "open": True})
    state.operatives["a2"].at = (15.0, 7.0)  # in the doorway
    record = step(game, state, {"type": "portal", "feature": "door-1", "open": False})
    assert state.doors["door-1"]  # it cannot close on a2
    rolled = [e for e in record["events"] if e["type"] == "effect_hazard"]
    assert [(e["operative"], e["roll"], e["struck"]) for e in rolled] == [("a2", 5, True)]
    game, state = _override_moment({})
    step(game, state, {"type": "portal", "feature": "door-1", "open": True})
    with pytest.raises(RuleError, match="already been used this battle round"):
        step(game, state, {"type": "portal", "feature": "door-1", "open": False})


def _to_movement_end(game, state: State) -> None:
    """Both players' models end their moves where they stand (e1 Remains Stationary)."""
    for _ in range(8):
        engine_until_players(game, state)
        prompt = pending(game, state)
        if prompt.kind == "activate":
            step(game, state, {"type": "activate", "operative": prompt.options[0]})
        elif prompt.kind == "act" and state.phase == "movement":
            step(game, state, {"type": "done"})
        else:
            return


def test_erratic_teleportation_is_asked_at_the_end_of_the_movement_phase() -> None:
    """004 Erratic Teleportation Node: "At the end of the Movement phase, the players roll off.
    The winner randomly selects one objective marker, and can then move each of their models
    that are within 3" of that objective marker up to 3"." The players win 5 to 2; a1 stands
    by obj-1 (a2 far): asked while the movement phase lasts, 3.5" refused, 2" taken, then the
    shooting phase begins."""
    game, state = start({"objective": 4}, faces=[6, 1, 5, 2] + [3] * 20, a1=(5, 12.5))
    _to_movement_end(game, state)
    prompt = pending(game, state)
    assert (prompt.kind, prompt.operative, state.phase) == ("effect", "a1", "movement")
    assert [r["faces"] for r in rolls(state) if "Erratic" in r["purpose"]] == [[5], [2]]
    with pytest.raises(RuleError, match="may move up to 3\""):
        step(game, state, {"type": "effect", "choice": "move", "to": [8.5, 12.5]})
    since = len(state.log)
    step(game, state, {"type": "effect", "choice": "move", "to": [7, 12.5]})
    assert state.operatives["a1"].at == (7.0, 12.5)
    assert events(state, "effect_move", since)[0]["note"] == (
        "Erratic Teleportation Node: a1 moves to (7.0, 12.5).")
    engine_until_players(game, state)
    assert state.phase == "shooting"


def test_a_readied_model_teleported_is_readied_no_more() -> None:
    """004 Readying: "If the model moves for any reason, it is no longer Readied – remove
    this token." a1 Readies by obj-1, then Erratic Teleportation Node moves it: it does not
    shoot first in Ready, Fire!"""
    game, state = start({"objective": 4}, faces=[6, 1, 5, 2] + [3] * 20, a1=(5, 12.5))
    engine_until_players(game, state)
    step(game, state, {"type": "activate", "operative": "a1"})
    step(game, state, {"type": "ready"})
    assert state.operatives["a1"].readied
    _to_movement_end(game, state)
    assert (pending(game, state).kind, state.phase) == ("effect", "movement")
    step(game, state, {"type": "effect", "choice": "move", "to": [7, 12.5]})
    assert state.operatives["a1"].at == (7.0, 12.5)
    assert not state.operatives["a1"].readied


def test_structural_transponder_removes_a_feature_for_every_later_question() -> None:
    """004 Structural Transponder: "At the end of the Movement phase, if a player controls an
    objective marker that is a Command Node, they can move or remove one Ultra-close Confines
    terrain feature on the battlefield (excluding doors)." a1 holds obj-1: the players are
    asked; crate-1 removed is gone from the terrain solo-ops measures, and is not offered
    again the next battle round."""
    game, state = start({"objective": 6}, faces=[6, 1] + [3] * 40, a1=(5, 12.5))
    _to_movement_end(game, state)
    prompt = pending(game, state)
    assert prompt.kind == "effect" and "remove one terrain feature" in prompt.text
    assert "door-1" not in prompt.text and "wall-1" not in prompt.text
    assert "crate-1" in [f.id for f in game.terrain(state).board.features]
    step(game, state, {"type": "effect", "choice": "remove", "feature": "crate-1"})
    assert state.removed_features == ["crate-1"]
    assert "crate-1" not in [f.id for f in game.terrain(state).board.features]
    (effect,) = game.effects
    assert pariah_events.structural_transponder(game, state, effect)
    assert "crate-1" not in state.pending_attacks[-1]["ids"]


def test_damage_the_players_report_shows_the_injury_roll_it_calls_for() -> None:
    """2018: damage the players rolled themselves and report (``damage e1 1``) takes e1's
    last wound, and the Injury roll solo-ops makes for it is told (it was logged, but the
    players never saw it): 004 "the player whose model caused the [damage] makes an Injury
    roll"."""
    from solo_ops.view.narrate import lines_for

    game, state = start({}, faces=[6, 1, 5, 5, 5])
    record = step(game, state, {"type": "damage", "operative": "e1", "amount": 1})
    hurt = next(e for e in record["events"] if e["type"] == "damage")
    injury = next(r for r in record["rolls"] if r["purpose"].startswith("injury roll"))
    assert hurt["injury"] == injury["value"]
    said = lines_for(record, edition="kt2018")
    assert any(line.endswith(f"Injury roll {injury['value']}.") for line in said), said
