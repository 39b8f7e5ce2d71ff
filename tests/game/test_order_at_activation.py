"""A Kill Team 2024 operative's order is the player's to choose as its activation starts.

Card 001: an activation is "Pick Order and do valid actions up to APL."; Shoot "Cannot be
performed with a conceal order", and "Silent - Operative can Shoot while it has a Conceal
order." ``activate kell engage`` chooses it; plain ``kell`` keeps the order the
operative had, and says so; ``engage`` or ``conceal`` as the activation's first answer changes
it (before any action: after one, the order was already acted on). A shot that no weapon can
make names each weapon's reason — the Conceal order among them, which the old message hid
behind "out of range, used up or Heavy after a move".

The game is ``tests/game/test_engine.py``'s: a1 at (3, 10) with a lasgun, the enemy e1 at (10, 10)
in the open.
"""

from __future__ import annotations

import pytest

from solo_ops.core.errors import RuleError
from solo_ops.game import intent
from solo_ops.game.engine import pending, step
from solo_ops.view.answers import parse
from solo_ops.view.narrate import lines_for
from tests.support.small_table import active, refused


def test_plain_activation_keeps_the_order_and_says_which() -> None:
    _game, state = active(enemy_at=(10, 10), stance=None)  # 'a1': no order given
    record = state.log[-1]
    assert state.operatives["a1"].stance == "conceal"  # as every operative is set up
    assert record["events"][0] == {"type": "activated", "operative": "a1", "player": "Ana",
                                   "stance": "conceal", "kept": True}
    assert lines_for(record) == [
        "a1 keeps its Conceal order ('engage' before its first action changes it)."]
    # an order given is not repeated back
    _game, state = active(enemy_at=(10, 10))
    assert "kept" not in state.log[-1]["events"][0]
    assert lines_for(state.log[-1]) == []


def test_engage_before_the_first_action_then_the_shot() -> None:
    game, state = active(enemy_at=(10, 10), stance="conceal")
    a1 = state.operatives["a1"]
    refused(game, state, {"type": "shoot", "target": "e1", "weapon": "lasgun", "damage": 0},
            "a Conceal order: it cannot shoot")
    assert "engage" in pending(game, state).options  # a button on the table view
    record = step(game, state, parse("engage", "act"))
    assert a1.stance == "engage" and a1.ap_used == 0
    assert lines_for(record) == ["a1 takes an Engage order."]
    options = pending(game, state).options
    assert "conceal" in options and "engage" not in options  # it may still change its mind
    step(game, state, {"type": "shoot", "target": "e1", "weapon": "lasgun", "damage": 0})
    assert not {"engage", "conceal"} & set(pending(game, state).options)
    # after an action the order stands
    refused(game, state, parse("conceal", "act"),
            "order is chosen as its activation starts, and it has already acted")
    assert a1.stance == "engage"


def test_the_order_answers_and_what_they_refuse() -> None:
    assert parse("engage", "act") == {"type": "order", "stance": "engage"}
    assert parse("Conceal", "act") == {"type": "order", "stance": "conceal"}
    assert parse("order engage", "act") == {"type": "order", "stance": "engage"}
    with pytest.raises(RuleError, match=r"e\.g\. 'engage' or 'conceal'"):
        parse("order fast", "act")
    game, state = active(enemy_at=(10, 10), edition="kt2018")
    refused(game, state, {"type": "order", "stance": "engage"}, "2018 has no Engage")


def test_a_shot_no_weapon_can_make_names_each_reason() -> None:
    """Conceal (the lasgun is not Silent) and, for a weapon with a range, the distance."""
    game, state = active(enemy_at=(10, 10), stance="conceal")
    with pytest.raises(RuleError) as refusal:
        intent.resolve_ids(game, state, parse("shoot e1 roll", "act"), pending(game, state))
    assert str(refusal.value) == (
        "none of a1's weapons can shoot e1 now: a1 has a Conceal order and lasgun is not "
        "Silent (answer 'engage' first to change the order)")
    step(game, state, {"type": "move", "how": "reposition", "to": [4, 10]})
    with pytest.raises(RuleError) as refusal:
        intent.resolve_ids(game, state, parse("shoot e1 roll", "act"), pending(game, state))
    assert str(refusal.value).endswith(
        "not Silent (the order was chosen as the activation started)")
