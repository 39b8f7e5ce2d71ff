"""The players' Reactions to an enemy's Kill Team 2018 charge (004): "After you have
declared a charge, any opponents take it in turn to make Reactions ... A model can React if it
is the target of a charging model and it is more than 1" from an enemy model. A model can
either fire Overwatch or Retreat when it Reacts."; Retreat "it can be moved up to 3" ...
further away from the charging model"; Overwatch "a 6 is always required for a successful hit
roll". The game asks (prompt ``reaction``), then rolls the charge. Reading: docs/rules.md,
"Kill Team 2018 (Pariah Nexus): phases and reactions".
"""

from __future__ import annotations

import pytest

from solo_ops.core.errors import RuleError
from solo_ops.game.engine import new_game, pending, step
from tests.support.portal_board import refused, start


def _declared(react_at: tuple[float, float] = (5, 11), *, readied: bool = False) -> tuple:
    """A 2018 game in the movement phase: e1 (4" from a1, in sight) declares a charge at a1
    (``readied``: a1 was Readied first, as the `ready` answer leaves it)."""
    from solo_ops.ai.planner import Action
    from solo_ops.game import charges

    game, state = start({"a1": react_at}, edition="kt2018", enemy_at=(react_at[0] + 5, 11))
    if readied:
        a1 = state.operatives["a1"]
        a1.moved_how, a1.readied = "ready", True
    e1 = state.operatives["e1"]
    near = (react_at[0] + 2 * 0.492 + 0.5, 11.0)
    events = charges.declare_charge(game, state, e1, Action("charge", "e1", start=e1.at,
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
    # each a button's answer as it is (one ranged weapon: "overwatch roll"), the question
    # named for its player as every other is
    assert prompt.options == ["overwatch roll", "overwatch damage N", "retreat X,Y", "no"]
    assert prompt.text.startswith("Ana: e1 declares a charge at a1: react with Overwatch")
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


def test_each_ranged_weapon_is_an_overwatch_answer_a_button_sends() -> None:
    """A model with two ranged weapons is offered Overwatch with each, named as the answer
    the phone's button sends (a weapon named in capitals is no placeholder), and the answer is
    taken as it is."""
    from dataclasses import replace

    from solo_ops.view import answers

    game, state = _declared()
    a1 = state.operatives["a1"]
    gun = a1.profile.ranged_weapons[0]
    a1.profile = replace(a1.profile, weapons=(*a1.profile.weapons,
                                              replace(gun, name="Hot-shot lasgun")))
    prompt = pending(game, state)
    assert prompt.options == ["overwatch with lasgun roll", "overwatch with Hot-shot lasgun roll",
                              "overwatch damage N", "retreat X,Y", "no"]
    action = answers.parse(prompt.options[1], "reaction")
    assert action == {"type": "reaction", "react": "overwatch", "weapon": "Hot-shot lasgun",
                      "roll": True}
    record = step(game, state, action)
    assert record["events"][0]["weapon"] == "Hot-shot lasgun"


def _two_charges(e2_end: tuple[float, float]) -> tuple:
    """e1 (at 10, 11) and e2 (at 10, 13), one unit, declare charges at a1 (at 5, 11) together,
    e1's planned to end at (6.5, 11), e2's at ``e2_end``; the dice roll 12 for both."""
    from solo_ops.ai.planner import Action
    from solo_ops.core.dice import ScriptedDice
    from solo_ops.game import charges

    game, state = start({"a1": (5, 11)}, edition="kt2018", enemy_at=(10, 11),
                        more_enemies={"e2": (10, 13)})
    for eid, near in (("e1", (6.5, 11.0)), ("e2", e2_end)):
        op = state.operatives[eid]
        charges.declare_charge(game, state, op, Action("charge", eid, start=op.at,
                                                       route=(op.at, near), target="a1"))
    state.dice = ScriptedDice(faces=[6, 6, 6, 6])
    return game, state


def test_a_target_an_earlier_charge_reached_is_not_asked_to_react_again() -> None:
    """Two models of a unit declare their charges at a1 together. Once the first has reached
    it, a1 is within 1" of an enemy and cannot React to the second (004 "A model can React if
    it is the target of a charging model and it is more than 1" from an enemy model"): that
    charge is rolled at once, with the reason, and the players are not asked."""
    game, state = _two_charges((5.0, 12.5))
    assert [e["attacker"] for e in state.pending_attacks] == ["e1", "e2"]
    record = step(game, state, {"type": "reaction", "react": "none"})
    told = [(e["type"], e.get("operative"), e.get("why")) for e in record["events"]
            if e["type"] in ("no_reaction", "charged", "cannot_react")]
    assert told == [("no_reaction", "a1", None), ("charged", "e1", None),
                    ("cannot_react", "a1", 'a1 is within 1" of e1'), ("charged", "e2", None)]
    assert state.pending_attacks == [] and pending(game, state).kind == "activate"


def test_a_second_charge_at_a_model_that_retreated_goes_by_a_new_route() -> None:
    """a1 Retreats from the first of two charges declared at it: it cannot React to the
    second (004 "A model that Retreats cannot React later in the battle round"), which is
    rolled at once -- by a new route to where a1 now stands, not the one planned to where it
    stood (that one would end out of reach: "falls short")."""
    game, state = _two_charges((5.5, 12.4))
    record = step(game, state, {"type": "reaction", "react": "retreat", "to": [2.5, 11]})
    told = [(e["type"], e.get("operative")) for e in record["events"]
            if e["type"] in ("charged", "charge_failed", "cannot_react")]
    assert told == [("charged", "e1"), ("cannot_react", "a1"), ("charged", "e2")]
    assert turns_engaged(game, state, "a1")


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


def test_a_readied_model_may_still_retreat_and_loses_its_ready() -> None:
    """004 Readying: "instead of making a normal move ... you can Ready them": a Readied model
    has not moved, so it may Retreat ("cannot Retreat if it has already made a move of any
    kind"); the Retreat ends its Ready ("If the model moves for any reason, it is no longer
    Readied"). It was refused: "cannot Retreat: it has moved this phase (ready)"."""
    game, state = _declared(readied=True)
    a1 = state.operatives["a1"]
    prompt = pending(game, state)
    assert prompt.kind == "reaction" and "retreat X,Y" in prompt.options
    step(game, state, {"type": "reaction", "react": "retreat", "to": [2.5, 11]})
    assert a1.at == (2.5, 11.0) and a1.moved_how == "retreat" and not a1.readied


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


def test_a_normal_move_ending_within_an_inch_of_an_enemy_is_refused_in_2018_words() -> None:
    """A Kill Team 2018 refusal speaks 2018 (within 1" of an enemy model), not 2024's control
    range and Reposition card."""
    from tests.support.small_table import active
    from tests.support.small_table import refused as refused_here

    game, state = active(enemy_at=(8, 10), edition="kt2018")
    refused_here(game, state, {"type": "move", "how": "normal", "to": [6.5, 10]},
                 "a move cannot end within 1\" of an enemy model \\(e1\\)$")


def test_a_model_that_cannot_shoot_is_named_with_why() -> None:
    """In the 2018 shooting phase a model that Advanced without an Assault weapon is not among
    those who may act; answering its name says why (004 Advance: "A model that Advances cannot
    charge, React or shoot later that battle round"), not only "cannot act now"."""
    from solo_ops.game import intent
    from tests.support.small_table import start as small_start

    game, state = small_start("kt2018", faces=[6, 1])
    step(game, state, {"type": "engine"})
    a1 = state.operatives["a1"]
    a1.moved_how, a1.advanced = "advance", True
    state.phase = "shooting"
    prompt = pending(game, state)
    with pytest.raises(RuleError, match=r"a1 cannot act now: it Advanced this battle round "
                                        r"without an Assault weapon: it cannot shoot"):
        intent.resolve_ids(game, state, {"type": "activate", "operative": "a1"}, prompt)


# -- asked in the step that declares the charge ----------------------------------------------------
def _charge_then_advance() -> tuple:
    """tests/support/pariah_table: the enemy wins the initiative; its Melee unit has e1 7"
    from a1 (it charges, first) and e2 25.9" away (it Advances, after); every later die a 3.
    At the enemy's first activation of the movement phase."""
    from tests.support.pariah_table import start as pariah_start

    game, state = pariah_start({}, faces=[1, 6] + [3] * 40, a1=(3, 10), e1=(11, 10),
                               e2=(28, 20), command=5)
    step(game, state, {"type": "engine"})  # the battle round starts
    return game, state


def _charge_words(record: dict) -> list[tuple[str, str]]:
    return [(e["type"], e["operative"]) for e in record["events"]
            if e["type"] in ("charge_declared", "no_reaction", "charged", "charge_failed",
                             "moved")]


def test_a_charge_is_rolled_before_the_next_model_of_its_unit_moves() -> None:
    """004 picks one model at a time to move ("When you pick a model to move"), and a charge
    is rolled "After all Reactions have been resolved": e1's charge asks a1 in the step that
    declares it, before e2 (its unit-mate) moves, and once answered it is rolled and moved
    before e2 Advances. (The enemy's unit-mates once moved first, into the charger's path.)"""
    game, state = _charge_then_advance()
    e2_at = state.operatives["e2"].at
    paused = step(game, state, {"type": "engine"})["events"]
    assert [e["type"] for e in paused] == ["reaction_offered"]
    assert paused[0]["operative"] == "a1" and paused[0]["attacker"] == "e1"
    assert not any(e["type"] == "moved" for e in paused[0]["so_far"])
    assert state.operatives["e2"].at == e2_at  # the step waits for the answer, undone
    prompt = pending(game, state)
    assert prompt.kind == "reaction" and prompt.operative == "a1"
    assert prompt.options[-2:] == ["retreat X,Y", "no"]
    record = step(game, state, {"type": "reaction", "react": "none"})
    # the charge roll is the first roll after the answer: 3 + 3 = 6 of the 7.0" it needs
    # less the inch of reach, so e1 falls short; then e2 Advances (6" + 3)
    assert _charge_words(record) == [("charge_declared", "e1"), ("no_reaction", "a1"),
                                     ("charge_failed", "e1"), ("moved", "e2")]
    failed = next(e for e in record["events"] if e["type"] == "charge_failed")
    assert failed["roll"] == 6
    assert pending(game, state).kind != "reaction"


def test_a_reaction_the_rules_refuse_leaves_the_question_waiting() -> None:
    """A Retreat towards the charger is refused as the step runs again with it: nothing
    changes, the same question waits, and a good answer then goes on."""
    game, state = _charge_then_advance()
    step(game, state, {"type": "engine"})
    refused(game, state, {"type": "reaction", "react": "retreat", "to": [5, 10]},
            "further away from e1")
    refused(game, state, {"type": "reaction", "react": "wave"}, "react with 'overwatch")
    refused(game, state, {"type": "activate", "operative": "a2"}, "first answer the charge")
    refused(game, state, {"type": "reaction", "react": "overwatch", "damage": -1},
            "damage must be a whole number")
    record = step(game, state, {"type": "reaction", "react": "retreat", "to": [1.5, 10]})
    # a1 Retreats to 9.5" from e1 (8.5" apart): the charge roll of 6 falls short
    assert _charge_words(record)[:3] == [("charge_declared", "e1"), ("moved", "a1"),
                                         ("charge_failed", "e1")]
    assert state.operatives["a1"].at == (1.5, 10.0)


def test_a_reaction_asked_in_its_step_is_saved_and_resumed() -> None:
    """A save made while the question waits resumes to the same state and question, and its
    answer plays on the same (seeded dice: the save keeps them)."""
    from solo_ops.io.savegame import game_document
    from solo_ops.io.savegame import restore as restore_save
    from solo_ops.io.scenario import load_scenario
    from solo_ops.sim import autopilot

    game, state = new_game(autopilot.simulated(load_scenario("crypt-objective-ultima")), 2)
    for _ in range(2000):
        prompt = pending(game, state)
        if prompt.kind in ("reaction", "ended"):
            break
        autopilot.answer(game, state, prompt)
    assert prompt.kind == "reaction" and "action" in state.pending_attacks[0]
    # the players' view shows the models where the step's moves before the question put them
    # (the step itself waits, undone, for the answer)
    from solo_ops.view.player import player_view

    so_far = state.log[-1]["events"][0]["so_far"]
    moved = [e for e in so_far if e["type"] == "moved"]
    assert moved, "the seed's pause comes after a unit-mate's move"
    shown = {m["id"]: m["at"] for m in player_view(game, state)["enemies"]}
    for e in moved:
        assert shown[e["operative"]] == [round(float(v), 3) for v in e["to"]]
        assert state.operatives[e["operative"]].at != tuple(e["to"])
    doc = game_document(game, state)
    again_game, again = restore_save(doc, "g")
    assert again.to_dict(secrets=True) == state.to_dict(secrets=True)
    assert pending(again_game, again).text == prompt.text
    answer = {"type": "reaction", "react": "none"}
    assert step(again_game, again, answer) == step(game, state, answer)


def test_a_reaction_left_waiting_by_an_older_save_is_answered_from_its_checkpoint() -> None:
    """A save made before the Reaction was asked in its step holds the question in its state,
    with no step to run again (``declare_charge`` without the engine's chooser makes one):
    its checkpoint loads with the question (the checks accept it) and the answer rolls the
    charge as it did."""
    from solo_ops.game import checkpoint

    game, state = _declared()
    assert "action" not in state.pending_attacks[0]
    again = checkpoint.load(checkpoint.dump(state), game)
    assert pending(game, again).kind == "reaction"
    record = step(game, again, {"type": "reaction", "react": "none"})
    assert [e["type"] for e in record["events"]][:2] == ["no_reaction", "charged"]


def test_a_checkpoint_whose_reaction_names_no_step_of_its_log_is_refused() -> None:
    """A question asked in its step runs that step again: a checkpoint whose waiting Reaction
    names an action that is not one of its steps is not one the game could have made."""
    from solo_ops.core.errors import InputError
    from solo_ops.game import checkpoint

    game, state = _charge_then_advance()
    step(game, state, {"type": "engine"})
    data = checkpoint.dump(state)
    assert checkpoint.load(data, game).pending_attacks[0]["action"] == {"type": "engine"}
    data["pending_attacks"][0]["action"] = {"type": "engine", "extra": 1}
    with pytest.raises(InputError, match=r"pending_attacks\[0\]\.action"):
        checkpoint.load(data, game)
    data["pending_attacks"][0]["action"] = {"type": "engine"}
    for answers in ("none", [5]):  # the answers so far are the players' answers: mappings
        data["pending_attacks"][0]["answers"] = answers
        with pytest.raises(InputError, match=r"pending_attacks\[0\]\.answers"):
            checkpoint.load(data, game)


def test_while_a_reaction_waits_the_board_shows_the_activation_so_far() -> None:
    """The page's board and zoom at a Reaction's pause: the activation under way (its unit,
    the charger and its mates in focus beside the target), and a flesh wound the step dealt
    before the question on the model that took it (the state itself is the one before the
    step). e1's charge at a1 is answered with Overwatch damage 1 (a flesh wound: 004 Injury);
    the step goes on to e2's charge at a1 and asks again."""
    from solo_ops.view import board_view
    from solo_ops.view.player import player_record, player_view
    from tests.support.pariah_table import start as pariah_start

    game, state = pariah_start({}, faces=[1, 6] + [3] * 80, a1=(3, 10), e1=(11, 10),
                               e2=(10, 16), command=5)
    step(game, state, {"type": "engine"})
    step(game, state, {"type": "engine"})
    records = [player_record(r) for r in state.log]
    view = player_view(game, state)
    assert view["pending"]["operative"] == "a1"
    assert sorted(board_view.focus_ids(view, records)) == ["a1", "e1", "e2"]
    assert board_view.activation(records, {})[0] == "u1"
    paused = step(game, state, {"type": "reaction", "react": "overwatch", "damage": 1})
    assert paused["events"][0]["type"] == "reaction_offered"
    assert paused["events"][0]["attacker"] == "e2"
    assert any(e["type"] == "flesh_wound" for e in paused["events"][0]["so_far"])
    assert state.operatives["e1"].flesh_wounds == 0  # the step waits, undone
    e1 = next(m for m in player_view(game, state)["enemies"] if m["id"] == "e1")
    assert (e1["wounds"], e1["flesh_wounds"]) == (1, 1)


def test_a_charge_whose_planned_way_a_mate_now_blocks_goes_another_way() -> None:
    """e2's charge was planned to end where e1's charge, rolled first, now ends: its roll of
    12 reaches a1 by another way, ending within 1" of it and clear of every base (004 "the
    model must finish its move within 1" of at least one of the target models"; a
    play-tester saw such a charge "fall short" with the target open on two sides)."""
    from solo_ops.rules import reach

    game, state = _two_charges((6.5, 11.0))
    record = step(game, state, {"type": "reaction", "react": "none"})
    e2 = next(e for e in record["events"] if e["type"] in ("charged", "charge_failed")
              and e["operative"] == "e2")
    assert e2["type"] == "charged" and e2["rerouted"] == "e1's base is there"
    assert e2["note"].endswith("reaches a1 by another way (the planned one: e1's base is "
                               "there).")
    ops = state.operatives
    assert reach.engaged_2018(game.terrain(state), ops["e2"].at, ops["e2"].radius,
                              ops["a1"].at, ops["a1"].radius)
    gap = ((ops["e2"].at[0] - ops["e1"].at[0]) ** 2 + (ops["e2"].at[1] - ops["e1"].at[1]) ** 2
           ) ** 0.5
    assert gap >= ops["e1"].radius + ops["e2"].radius - 1e-6  # never on e1's base


def test_a_model_that_retreated_is_not_offered_to_move_again() -> None:
    """A Retreat is the model's move of the movement phase (it cannot Retreat after moving,
    and cannot move after it): the players are not offered it to move afterwards, and picking
    it says why (picking it was a free pass that kept the others' Retreats)."""
    from solo_ops.game import turns

    game, state = _charge_then_advance()
    step(game, state, {"type": "engine"})
    step(game, state, {"type": "reaction", "react": "retreat", "to": [1.5, 10]})
    a1 = state.operatives["a1"]
    assert a1 not in turns.player_ready(game, state, "Ana")
    assert turns.why_not_ready(game, state, a1) == "it Retreated this phase: that was its move"
    prompt = pending(game, state)
    assert prompt.kind == "activate" and prompt.options == ["a2"]
    refused(game, state, {"type": "activate", "operative": "a1"}, "cannot act now")


def test_a_charge_at_a_model_that_cannot_react_is_declared_too() -> None:
    """A charge at a model that may not React (it Advanced this battle round: 004 "A model
    that Advances cannot charge, React or shoot later that battle round") is rolled at once,
    but told as every charge is: declared, then why there is no Reaction, then the roll."""
    game, state = _charge_then_advance()
    a1 = state.operatives["a1"]
    a1.moved_how, a1.advanced = "advance", True
    record = step(game, state, {"type": "engine"})
    told = [(e["type"], e["operative"]) for e in record["events"]
            if e["type"] in ("charge_declared", "cannot_react", "charged", "charge_failed")]
    assert told[:2] == [("charge_declared", "e1"), ("cannot_react", "a1")]
    assert told[2][1] == "e1"
    assert pending(game, state).kind != "reaction"


def test_after_a_retreat_the_charge_keeps_out_of_an_inch_of_the_other_models() -> None:
    """a1 Retreats from e1's charge past a2: the charge goes by a new way to where a1 now
    stands, ending within 1" of a1 and not within 1" of a2, which it did not charge (004 "It
    cannot move within 1" of an enemy model that was not a target of its charge"). The new
    way once went straight at a1 around the bases only, and ended within 1" of a2 too."""
    from solo_ops.rules import reach
    from tests.support.pariah_table import start as pariah_start

    game, state = pariah_start({}, faces=[1, 6] + [4] * 40, a1=(8, 10), a2=(7, 11.6),
                               e1=(11.5, 10), e2=(28, 20), command=5)
    step(game, state, {"type": "engine"})
    step(game, state, {"type": "engine"})
    assert pending(game, state).kind == "reaction"
    record = step(game, state, {"type": "reaction", "react": "retreat", "to": [5.5, 9.6]})
    charge = next(e for e in record["events"] if e.get("operative") == "e1"
                  and e["type"] in ("charged", "charge_failed"))
    assert charge["type"] == "charged" and charge["roll"] == 8
    ops, terrain = state.operatives, game.terrain(state)
    e1 = ops["e1"]
    assert reach.engaged_2018(terrain, e1.at, e1.radius, ops["a1"].at, ops["a1"].radius)
    assert not reach.engaged_2018(terrain, e1.at, e1.radius, ops["a2"].at, ops["a2"].radius)


def test_a_retreat_left_waiting_by_an_older_save_hands_the_turn_on() -> None:
    """A Reaction answered as an action (a save from before it was asked in its step): a1's
    Retreat is its move, and a1 was the players' last model to move, so the turn goes to the
    enemy (its unit e1 has not activated) rather than the phase ending without it."""
    from solo_ops.game import turns

    game, state = _declared()
    assert state.phase == "movement" and not state.units["u1"].activated
    step(game, state, {"type": "reaction", "react": "retreat", "to": [2.5, 11]})
    assert not turns.player_ready(game, state, "Ana")
    assert state.next_side == "enemy" and state.phase == "movement"
    assert pending(game, state).kind == "engine"
