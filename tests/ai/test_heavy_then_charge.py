"""A Heavy weapon fired forbids the moves after it -- a Charge is a move -- for the enemy as
for the players: the planner asks the one referee (``rules/referee.py``) before it chooses a
sequence, and takes the best legal one when its first choice is refused.

001 Heavy: "cannot use this weapon in an activation in which it moved, or move after using
this weapon. If the rule is Heavy (x), only (x) is allowed (e.g. Heavy (Dash only))".
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from solo_ops.core.model import parse_weapon_rule
from solo_ops.game.engine import step
from tests.support.scenario_files import ai_plan, kinds, prof, scenario, text
from tests.support.small_table import active, refused

HEAVY_BOLTER = {"name": "heavy bolter", "type": "heavy", "attacks": 5, "hit": 4,
                "damage": [4, 5], "rules": ["heavy"], "range_2018": 36}
DASH_BOLTER = {**HEAVY_BOLTER, "name": "dash bolter", "rules": ["heavy=dash"]}
FISTS = {"name": "fists", "type": "melee", "attacks": 3, "hit": 4, "damage": [3, 4]}
TARGET = prof({"name": "gun", "type": "rapid", "attacks": 4, "hit": 4, "damage": [3, 4]},
              wounds=30)


@pytest.mark.parametrize(("weapon", "command"), [(HEAVY_BOLTER, 1), (DASH_BOLTER, 1),
                                                 (DASH_BOLTER, 5)])
def test_no_charge_after_a_heavy_shot(tmp_path: Path, weapon: dict, command: int) -> None:
    """A Support unit (command 1: Remain Stationary, Fire at will, Charge within 6"; command 5:
    To firing range, Fire at will, Charge within 6") 4" from a trooper (3" edge to edge): it
    shoots first (fire at will) and then does not charge: the Charge is refused by the
    referee, and the plan says so."""
    path = scenario(tmp_path, [("u1", command, [("e1", prof(weapon, FISTS), (5, 11))])],
                    [("kell", TARGET, (9, 11))])
    plan = ai_plan(path)
    assert kinds(plan)[0] == "shoot"
    assert "charge" not in kinds(plan) and "fight" not in kinds(plan)
    allowed = " (only a dash)" if weapon is DASH_BOLTER else ""
    assert (f"Rejected: Shoot, then Charge: the referee refuses it ({weapon['name']} is Heavy: "
            f"e1 shot it this activation and cannot move after it{allowed}).") in text(plan)


def test_a_player_is_refused_the_same_charge() -> None:
    """The players' check and the planner's are the one function: a player's operative that
    fired its Heavy weapon is refused a Charge in the words the plan quotes."""
    game, state = active(enemy_at=(6, 10))
    a1 = state.operatives["a1"]
    weapons = tuple(replace(w, rules=(parse_weapon_rule("heavy"),)) if w.name == "lasgun"
                    else w for w in a1.profile.weapons)
    a1.profile = replace(a1.profile, weapons=weapons)
    step(game, state, {"type": "shoot", "target": "e1", "weapon": "lasgun", "damage": 0})
    refused(game, state, {"type": "move", "how": "charge", "to": [4.9, 10], "target": "e1"},
            "^lasgun is Heavy: a1 shot it this activation and cannot move after it$")
