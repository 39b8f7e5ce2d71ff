"""An enemy model whose order would move it but that makes no move says why (found by an
orders tester: hundreds of activations said only "sequence: no action"): it already stands
where its order wants it, it has no room, or no point within its move serves the order
better. The words are the plan's, read by the player."""

from __future__ import annotations

from pathlib import Path

from tests.support.scenario_files import GUN, TROOPER, ai_plan, prof, scenario, text


def test_a_model_already_holding_its_distance_says_no_point_serves_better(tmp_path: Path) -> None:
    """Fire Teams command 4 (Hold 12" from enemy): e1's base 12.0" from kell's (the centres
    13.0" apart, two 25.4 mm bases), its gun's 8" short of him: it holds where it is and has
    nothing to do."""
    path = scenario(tmp_path, [("u1", 4, [("e1", prof({**GUN, "range": 8}), (23, 11))])],
                    [("kell", TROOPER, (10, 11))])
    plan = ai_plan(path)
    assert plan["actions"] == []
    assert ("e1 does not move: no point its move reaches serves its order better than where "
            "it stands.") in text(plan)


def test_a_model_walled_in_says_it_has_no_room(tmp_path: Path) -> None:
    """Melee command 3 (Towards closest enemy, charge: Yes, kell far out of reach): e1 stands
    in a closed box of walls just wider than its base."""
    walls = [{"id": f"w{i}", "traits": ["wall"], "line": line} for i, line in enumerate((
        [[19.4, 10.4], [20.6, 10.4]], [[20.6, 10.4], [20.6, 11.6]],
        [[20.6, 11.6], [19.4, 11.6]], [[19.4, 11.6], [19.4, 10.4]]))]
    path = scenario(tmp_path, [("u1", 3, [("e1", prof(GUN), (20, 11))])],
                    [("kell", TROOPER, (3, 3))], features=tuple(walls))
    plan = ai_plan(path)
    assert plan["actions"] == [] or all(a["kind"] == "shoot" for a in plan["actions"])
    assert ("e1 does not move: it has no room to move: every point within its move is taken "
            "by a wall, terrain or another model's base.") in text(plan)
