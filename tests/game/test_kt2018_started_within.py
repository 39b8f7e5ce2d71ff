"""Kill Team 2018: a model that began the movement phase within 1" of an enemy model stays
there or Falls Back, even once that enemy is gone (004 Falling Back: "When you pick a model to
move, if that model started the Movement phase within 1" of an enemy model, it cannot make a
normal move. Instead, it can either remain stationary or Fall Back."). One referee judges both
sides: a tester saw enemy models charge a player's model they had stood beside at the start of
the phase, once it had Fallen Back, four times in two games. Also: a declared Advance, like a
move, is instead of Readying (004 Readying "instead of making a normal move").

Reading: docs/rules.md, "Kill Team 2018 (Pariah Nexus): phases and reactions".
"""

from __future__ import annotations

import pytest

from solo_ops.game.engine import pending, step
from tests.support.portal_board import refused, start

GAP = 2 * 0.492 + 0.5
"""Centre to centre of two 25 mm bases 0.5" apart: within 1"."""


def test_a_players_model_that_started_within_one_inch_only_stays_or_falls_back() -> None:
    """a1 began the phase 0.5" from e1. With e1 gone 10" away (it Fell Back, as far as a1 is
    concerned), a1 still may not move normally, Advance or charge, and may Fall Back."""
    game, state = start({"a1": (10, 11)}, edition="kt2018", enemy_at=(10 + GAP, 11))
    a1, e1 = state.operatives["a1"], state.operatives["e1"]
    assert a1.started_within == "e1" and e1.started_within == "a1"
    e1.at = (20.0, 11.0)
    step(game, state, {"type": "activate", "operative": "a1"})
    why = "a1 started the movement phase within 1\" of e1: it can only stay where it is or Fall"
    refused(game, state, {"type": "move", "to": [8, 11]}, why)
    refused(game, state, {"type": "move", "how": "advance", "to": [8, 11]}, why)
    refused(game, state, {"type": "move", "how": "charge", "target": "e1"}, why)
    refused(game, state, {"type": "ready"}, "a1 cannot be Readied: it started the movement "
            "phase within 1\" of e1: it can only remain stationary or Fall Back")
    step(game, state, {"type": "move", "how": "fall_back", "to": [6, 11]})
    assert a1.at == (6.0, 11.0) and a1.moved_how == "fall_back"


def test_the_enemy_stays_beside_where_a_fallen_back_model_stood() -> None:
    """The tester's game, on a small board: a1 begins the phase 0.5" from e1 and Falls Back
    7" away; e1, which began the phase within 1" of a1, neither charges nor moves: it remains
    stationary and says why (before, it charged a1)."""
    game, state = start({"a1": (10, 11)}, edition="kt2018", enemy_at=(10 + GAP, 11))
    e1 = state.operatives["e1"]
    where = e1.at
    step(game, state, {"type": "activate", "operative": "a1"})
    step(game, state, {"type": "move", "how": "fall_back", "to": [4, 11]})
    step(game, state, {"type": "done"})
    events = []
    while state.phase == "movement" and pending(game, state).kind == "engine":
        events += step(game, state, {"type": "engine"})["events"]
    assert not [e for e in events if e.get("operative") == "e1"
                and e["type"] in ("charge_declared", "moved", "charged")]
    assert e1.at == where and e1.moved_how is None
    told = " ".join(str(e.get("explain") or e.get("note") or "") for e in events)
    assert "started the movement phase within 1\" of a1" in told


def test_a_model_within_one_inch_now_is_not_said_to_have_started_there() -> None:
    """A model an enemy came within 1" of during the phase (it did not start there) is
    refused a normal move for being within 1" now, in those words, not the started-within
    rule's (the tester's finding: the refusal quoted a rule that was not true of him)."""
    game, state = start({"a1": (10, 11)}, edition="kt2018", enemy_at=(20, 11))
    assert state.operatives["a1"].started_within is None
    state.operatives["e1"].at = (10 + GAP, 11.0)
    step(game, state, {"type": "activate", "operative": "a1"})
    refused(game, state, {"type": "move", "to": [8, 11]},
            "a1 is within 1\" of e1: it can only stay where it is, or Fall Back unless it "
            "was charged this phase \\(a normal move")


def test_an_advance_declared_is_no_ready() -> None:
    """004 Readying is "instead of making a normal move", as an Advance is: a model that has
    declared (and rolled) its Advance may not be Readied as well (before, it was both)."""
    game, state = start({"a1": (3, 10)}, edition="kt2018")
    step(game, state, {"type": "activate", "operative": "a1"})
    step(game, state, {"type": "move", "how": "advance"})
    refused(game, state, {"type": "ready"},
            "a1 cannot be Readied: it has declared an Advance this phase")


def test_a_relative_move_meets_the_same_refusals_first() -> None:
    """A relative move ("move 2 toward e1", "move into base contact with ...") is refused
    for the same reasons as a move to a point, before anything is measured: a model that
    began the phase within 1" of e1, and, in the shooting phase, any move (before, the tester
    read "kell can move at most 6.0", not 7"" and "kell can charge 12.0"" in the shooting
    phase, as if the move were only too long)."""
    from solo_ops.core.errors import RuleError
    from solo_ops.game import intent

    game, state = start({"a1": (10, 11)}, edition="kt2018", enemy_at=(10 + GAP, 11))
    state.operatives["e1"].at = (20.0, 11.0)
    step(game, state, {"type": "activate", "operative": "a1"})
    ask = {"type": "move", "relation": "toward", "ref": "e1", "amount": 2}
    with pytest.raises(RuleError, match="a1 started the movement phase within 1\" of e1"):
        intent.propose(game, state, ask)
    state.phase = "shooting"
    with pytest.raises(RuleError, match="models move in the movement phase"):
        intent.propose(game, state, ask)
