"""Coherency is the unit's once it has moved: the model nearest the enemy moves first and is
not held back by mates that have not moved yet (they follow it). 003 Movement orders:
"Towards Closest Enemy" -- models move "as close ... as they can"; coherency 2" (the
``coherency`` setting)."""

from __future__ import annotations

import math
from pathlib import Path

from tests.support.scenario_files import AXE, GUN, ai_plan, prof, scenario

BRUTE = prof(AXE)


def test_two_brutes_both_move_their_full_reposition_and_dash(tmp_path: Path) -> None:
    """Two brutes (Melee command 3: Towards closest enemy) 2" apart, 22" from a trooper: the
    lead moves 6" and Dashes 3" (it used to stop after 1" to stay within 2" of its mate's
    start), the other follows the same 9" and ends in coherency with it."""
    path = scenario(tmp_path, [("u1", 3, [("e1", BRUTE, (5, 11)), ("e2", BRUTE, (3, 11))])],
                    [("kell", prof(GUN), (27, 11))])
    plan = ai_plan(path)
    moves = [(a["model"], a["kind"], a["to"]) for a in plan["actions"]]
    assert moves == [("e1", "reposition", [11.0, 11.0]), ("e1", "dash", [14.0, 11.0]),
                     ("e2", "reposition", [9.0, 11.0]), ("e2", "dash", [12.0, 11.0])]
    gap = math.dist((14.0, 11.0), (12.0, 11.0)) - 2 * 0.5
    assert gap <= 2.0
