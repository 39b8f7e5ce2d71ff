"""Kill Team 2024 on Volkus: 002 Volkus "Doors are Accessible and Heavy" -- a door is no wall
and no one opens it: a model moves through it for Accessible's 1" (001 "Accessible - Costs 1"
to move through"), distances are measured through it, and it is Heavy terrain for cover. In
Kill Team 2018 the same board's doors are Pariah Nexus doors, opened in the movement phase."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from click.testing import CliRunner

from solo_ops.cli import main
from tests.support.paths import SCENARIOS
from tests.support.scenario_files import AXE, TROOPER, ai_plan, kinds, prof, scenario, text

WALL_WITH_DOOR = (
    {"id": "wall-n", "traits": ["wall"], "line": [[15, 12], [15, 22]]},
    {"id": "door-1", "traits": ["door"], "line": [[15, 10], [15, 12]], "open": False},
    {"id": "wall-s", "traits": ["wall"], "line": [[15, 0], [15, 10]]},
)


def _distance(*args: str) -> dict:
    board = SCENARIOS / "boards" / "volkus-manufactorum.yaml"
    result = CliRunner().invoke(main, ["geom", "distance", str(board), "--from", "7,17",
                                       "--to", "9,17", "--base-mm", "25.4", "--json", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def test_geom_distance_goes_through_a_closed_volkus_door() -> None:
    """door-3 of the shipped Volkus manufactorum (x 8, y 16-18) is closed: in Kill Team 2024
    the distance across it is the straight 2" less the bases (1.0"); in Kill Team 2018 it
    goes round by the open door-1 to the north."""
    assert _distance()["distance"] == 1.0
    assert _distance("--edition", "kt2018")["distance"] > 7.0


def test_the_enemy_walks_through_a_volkus_door_without_opening_it(tmp_path: Path) -> None:
    """A brute (Melee command 3: Towards closest enemy) west of a wall whose only way through
    is a closed door: in 2024 it walks through the door (1" more for Accessible), spending no
    AP on it."""
    features = tuple({**f} for f in WALL_WITH_DOOR)
    path = scenario(tmp_path, [("u1", 3, [("e1", prof(AXE), (12, 11))])],
                    [("kell", TROOPER, (25, 11))], features=features)
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    doc["board"]["killzone"] = "volkus"
    path.write_text(yaml.safe_dump(doc), encoding="utf-8")
    plan = ai_plan(path)
    assert kinds(plan) == ["reposition", "dash"]
    first = plan["actions"][0]
    assert first["to"] == [17.0, 11.0]  # 5" east and 1" for crossing the door: its 6"
    assert "door-1" not in " ".join(a.get("portal", "") for a in plan["actions"])
    assert "opens" not in text(plan)
