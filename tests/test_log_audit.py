"""Issue #11 "Done when": no enemy in a shipped scenario played to the end with the scripted
player ever attacks a model it cannot see or that is not on the table, checked from the log
(:mod:`tests.log_audit`). Seeds 1-4 here; ``bench/audit_games.py`` runs seeds 1-20 (4.3 to 9 minutes
on the project's shared 2-core machine, too long for the unit suite).

The checker itself is tested first on hand-made logs, so a clean audit means something.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.log_audit import Audit, _check_record, audit_game, shipped_scenarios
from tests.test_reach import END, THIN, game_with


def check(features: tuple[dict[str, Any], ...], events: list[dict[str, Any]],
          player_at: tuple[float, float] = (14.4, 10), enemy_at: tuple[float, float] = (15.6, 10)
          ) -> list[str]:
    game, state = game_with(features, player_at, enemy_at)
    pos = {o.id: o.at for o in state.operatives.values() if o.on_table}
    audit = Audit("t", 1)
    _check_record(game, state, {"n": 7, "events": events}, pos, dict(state.doors), audit)
    return audit.problems


def test_the_checker_finds_a_shot_and_a_fight_through_a_wall() -> None:
    shot = {"type": "attack", "attacker": "e1", "target": "p1"}
    fight = {"type": "fight", "attacker": "e1", "target": "p1", "note": "e1 fights p1."}
    assert check((THIN,), [shot]) == [
        "t seed 1 step 7: e1 at (15.6, 10.0) shoots p1 at (14.4, 10.0) out of sight"]
    assert check((THIN,), [fight]) == [
        "t seed 1 step 7: e1 at (15.6, 10.0) fights p1 at (14.4, 10.0) out of its control range"]
    assert check((), [shot, fight]) == []  # on open ground both are fine


def test_the_checker_follows_moves_and_downs_from_the_log() -> None:
    # e1 first moves round the wall's end into sight, then shoots: fine; then p1 goes down and
    # a later fight on it is caught
    move = {"type": "moved", "operative": "e1", "to": [15.6, 9.4]}
    shot = {"type": "attack", "attacker": "e1", "target": "p1"}
    down = {"type": "down", "operative": "p1"}
    fight = {"type": "fight", "attacker": "e1", "target": "p1", "note": ""}
    assert check((END,), [shot], (14.4, 11), (15.6, 11)) != []
    assert check((END,), [move, shot], (14.4, 9.4), (15.6, 11)) == []
    assert check((END,), [move, shot, down, fight], (14.4, 9.4), (15.6, 11)) == [
        "t seed 1 step 7: e1 fights p1, who is not on the table"]


def test_the_checker_finds_a_charge_ending_across_a_wall() -> None:
    charge = {"type": "charged", "operative": "e1", "target": "p1", "to": [15.6, 10.5]}
    assert check((END,), [charge], (14.4, 11.8), (16.1, 7.5)) == [
        "t seed 1 step 7: e1 charges p1 to [15.6, 10.5], out of its control range"]


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
@pytest.mark.parametrize("path", shipped_scenarios(), ids=lambda p: p.stem)
def test_no_enemy_attacks_what_it_cannot_see_or_what_is_gone(path: Path, seed: int) -> None:
    audit = audit_game(path, seed)
    assert audit.steps > 10  # the game was played
    assert audit.problems == []
