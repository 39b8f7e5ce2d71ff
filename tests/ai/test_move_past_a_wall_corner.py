"""The enemy walks past a player's model round a wall's corner by the same rule as the
players (:func:`solo_ops.rules.reach.keep_out`). 001 Reposition: "Cannot move within Control
Range of an enemy ... and cannot finish the move within Control Range of an enemy"; 001
"Control Range Visible and within 1" of model base"."""

from __future__ import annotations

from solo_ops.ai.planner import plan_activation
from solo_ops.sim.referee_audit import players_refusal
from tests.support import wall_corner as wc


def test_the_enemy_walks_straight_past_a_hidden_player_and_a_player_may_too() -> None:
    """e1 (Melee command 3: towards the closest enemy) walks east towards p2 at (24, 13.2);
    p1, hidden in the corner, is 0.9" away as the crow flies as it passes: it repositions its
    whole 6" straight to PAST_END (it used to go round p1's 1" and stop at (16.7, 13.2),
    5.5" along), then dashes 3". The players' own check accepts the move in its place."""
    game, state = wc.game("enemy", far=(24.0, 13.2))
    plan = plan_activation(game.context(state), state, "u1")
    move, dash = plan.actions
    assert (move.kind, move.to, move.cost) == ("reposition", wc.PAST_END, 6.0)
    assert move.route == (wc.PAST_START, wc.PAST_END)
    assert (dash.kind, dash.to, dash.cost) == ("dash", (20.2, 13.2), 3.0)
    e1 = state.operatives["e1"]
    assert players_refusal(game, state, e1, move, []) is None
