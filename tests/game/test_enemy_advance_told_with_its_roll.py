"""An enemy's Advance is told with the distance its roll gave, not the most a D6 could give.

004 Advancing: "make an Advance roll by rolling a D6. Add the result to the model's Move
characteristic for that Movement phase. You can then move that model a distance equal to or
less than its Move characteristic." The plan is made before the roll (the planner rolls no
dice), so it can only aim "up to" Move + 6"; once the engine rolls, the activation's words say
what the roll allowed (Move 6" + 3" = 9" below) and where the model went."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from solo_ops.ai.planner import plan_activation
from solo_ops.core.dice import ScriptedDice
from solo_ops.game import enemy
from solo_ops.game.engine import new_game
from solo_ops.io.scenario import load_scenario
from solo_ops.view import narrate
from tests.support.scenario_files import AXE, TROOPER, prof, scenario


def advance(path: Path, face: int) -> list[str]:
    """u1's movement-phase activation with the Advance roll scripted to ``face``: the
    narrated lines."""
    game, state = new_game(load_scenario(path), 1)
    state.phase = "movement"
    state.dice = ScriptedDice(faces=[face])
    plan = plan_activation(game.context(state), state, "u1", "movement")
    events: list[dict[str, Any]] = enemy.apply_plan(game, state, plan)
    return narrate.lines_for({"events": events}, edition="kt2018")


def test_a_short_roll_is_told_as_rolled(tmp_path: Path) -> None:
    """A melee-only brute (Move 6") 17.7" from a trooper Advances: planned up to 12" (to
    (17.3, 11)), it rolls a 3, so it moves 6" + 3" = 9" to (14.3, 11)."""
    path = scenario(tmp_path, [("u1", 3, [("e1", prof(AXE), (5.3, 11))])],
                    [("kell", TROOPER, (24, 11))], edition="kt2018")
    lines = advance(path, 3)
    assert ("  e1 Advances 9.0\" towards kell (the closest enemy with line of sight), to "
            "(14.3, 11.0): its Advance roll allows 9.0\" (Move 6\" + 3\"). The roll stops it "
            "short of (17.3, 11.0), where it was headed. It has no shot to lose and no charge "
            "to make (004 Advance).") in lines
    assert "  e1's sequence: Advance 9.0\"." in lines
    assert "  🎲 e1's Advance roll: 1D6: 3 = 3: it may move up to 6\" + 3\" = 9\"." in lines
    assert not any("12.0\"" in line for line in lines), lines


def test_a_blocked_advance_says_the_rolled_allowance(tmp_path: Path) -> None:
    """A corridor 1.6" wide (walls at y 10.2 and 11.8): e1 at (2, 11) Advances towards kell,
    but e2 (another unit's) stands at (5, 11), so it moves 2.0" -- "of its 9.0"" rolled, not
    of the 12.0" a 6 would have given."""
    walls = ({"id": "wall-s", "traits": ["wall"], "line": [[0, 10.2], [20, 10.2]]},
             {"id": "wall-n", "traits": ["wall"], "line": [[0, 11.8], [20, 11.8]]})
    path = scenario(tmp_path, [("u1", 3, [("e1", prof(AXE), (2, 11))]),
                               ("u2", 1, [("e2", prof(AXE), (5, 11))])],
                    [("kell", TROOPER, (24, 11))], edition="kt2018", features=walls)
    lines = advance(path, 3)
    assert ("  e1 Advances 2.0\" towards kell (the closest enemy with line of sight), to "
            "(4.0, 11.0): its Advance roll allows 9.0\" (Move 6\" + 3\"). It ends 19.0\" from "
            "kell. Its way to kell is blocked by e2's base at (5.0, 11.0): it moves 2.0\" of "
            "its 9.0\". It has no shot to lose and no charge to make (004 Advance).") in lines
    assert not any("12.0\"" in line for line in lines), lines
