"""An enemy model's Advance is told as to be rolled until its roll is made: the words shown
when the game pauses before the roll never claim a distance. 004 Advancing: "make an Advance
roll by rolling a D6. Add the result to the model's Move characteristic for that Movement
phase." """

from __future__ import annotations

import re

from solo_ops.ai.planner import plan_activation
from solo_ops.game.engine import pending, step
from solo_ops.game.play2018 import unrolled_explain
from tests.support.pariah_table import start


def _game() -> tuple:
    """The enemy wins the initiative (1 against 6); its Melee unit (command 5: towards the
    closest enemy, charge: Yes) has e1 7" from a1 (it charges) and e2 25.9" away (it
    Advances: no shot to lose); every later die a 3."""
    game, state = start({}, faces=[1, 6] + [3] * 40, a1=(3, 10), e1=(11, 10), e2=(28, 20),
                        command=5)
    step(game, state, {"type": "engine"})  # the battle round starts: the enemy's movement
    return game, state


def test_the_plan_is_first_told_with_the_advance_to_be_rolled() -> None:
    game, state = _game()
    plan = plan_activation(game.context(state), state, "u1", state.phase)
    planned = [a for a in plan.actions if a.kind == "advance"]
    assert [a.model for a in planned] == ["e2"]
    told = unrolled_explain(plan.explain, plan.actions, state.operatives)
    line = next(t for t in told if t.startswith("e2 is"))
    assert line.startswith("e2 is to Advance towards a1")
    assert "its Advance roll (Move 6\" + D6) is made as it moves" in line
    assert not re.search(r"\d\"(?! \+ D6)", line.split(": its Advance roll")[0]), line
    assert "e2's sequence: Advance (to be rolled)." in told
    assert not any("up to" in t for t in told)


def test_once_rolled_the_advance_is_told_with_its_distance() -> None:
    """The roll of 3 allows 6" + 3" = 9": the same activation's words then say it. e1 acts
    first: its charge asks a1's Reaction before e2 moves (the step pauses with the Advance
    still to be rolled), and the answer runs the activation again to its end."""
    game, state = _game()
    paused = step(game, state, {"type": "engine"})["events"]
    assert [e["type"] for e in paused] == ["reaction_offered"]
    assert pending(game, state).kind == "reaction"
    told = next(e for e in paused[0]["so_far"] if e["type"] == "enemy_activation")["explain"]
    assert "e2's sequence: Advance (to be rolled)." in told
    record = step(game, state, {"type": "reaction", "react": "none"})
    explain = next(e for e in record["events"] if e["type"] == "enemy_activation")["explain"]
    line = next(t for t in explain if t.startswith("e2 Advances"))
    assert line.startswith("e2 Advances 9.0\" towards a1")
    assert "its Advance roll allows 9.0\" (Move 6\" + 3\")" in line
    assert "e2's sequence: Advance 9.0\"." in explain
