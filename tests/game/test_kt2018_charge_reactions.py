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
from solo_ops.game.engine import pending, step
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
