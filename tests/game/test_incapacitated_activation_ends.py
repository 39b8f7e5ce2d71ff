"""An operative incapacitated during its own activation does nothing more: 001 "Pick Order
and do valid actions up to APL." -- it has no valid action left, so its activation ends and
nobody is asked what it did. Reading: docs/rules.md, "Playing a mission".
"""

from __future__ import annotations

from solo_ops.game.engine import pending, step
from tests.support.duel_board import duel


def test_an_operative_killed_in_its_own_fight_ends_its_activation() -> None:
    """001: "Pick Order and do valid actions up to APL." -- an incapacitated operative has no
    valid action left. Sgt Kell fights e1 and is struck back for more than its wounds: its
    activation ends there, and the game does not ask "what did Sgt Kell do?"."""
    game, state = duel([6, 1])  # initiative: the players 6, solo-ops 1
    step(game, state, {"type": "engine"})
    assert pending(game, state).kind == "activate"
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    assert pending(game, state).text == "Ana: what did Sgt Kell do?"
    record = step(game, state, {"type": "fight", "target": "e1", "dealt": 0, "taken": 99})
    assert state.operatives["a1"].down
    assert state.active_operative is None
    assert any(e == {"type": "activation_end", "operative": "a1"} for e in record["events"])
    prompt = pending(game, state)
    assert "Sgt Kell" not in prompt.text
