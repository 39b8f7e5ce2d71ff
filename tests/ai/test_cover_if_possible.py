"""'Cover: Use if possible' takes real cover, as 'To cover' does: a point only obscured by a
distant Heavy block is not in cover (001 In Cover: "within 1" of intervening terrain" that
is Light or Heavy; obscured is another rule) -- ``solo-ops geom cover`` says the same."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from click.testing import CliRunner

from solo_ops.cli import main
from tests.support.scenario_files import GUN, KNIFE, TROOPER, ai_plan, prof, scenario, text

BLOCK = {"id": "block", "traits": ["heavy"], "height": 3,
         "polygon": [[17, 10.2], [18, 10.2], [18, 11.8], [17, 11.8]]}
CRATE = {"id": "crate", "traits": ["light"],
         "polygon": [[9.2, 12.3], [9.6, 12.3], [9.6, 13.8], [9.2, 13.8]]}
SHORT_GUN = {**GUN, "range": 8}


def test_an_obscured_point_is_not_cover(tmp_path: Path) -> None:
    """A Fire Teams unit (command 5: Hold 12" from enemy, Use if possible) 24" from a trooper,
    a Heavy block far between them: the straight Reposition ends obscured behind the block
    but in no cover; within its 2" of detour a light crate gives cover, so it ends there,
    and the plan no longer calls the obscured point "already in cover"."""
    path = scenario(tmp_path, [("u1", 5, [("e1", prof(SHORT_GUN, KNIFE), (4, 11))])],
                    [("kell", TROOPER, (28, 11))], features=(BLOCK, CRATE))
    plan = ai_plan(path)
    first = plan["actions"][0]
    assert first["kind"] == "reposition"
    assert first["to"] == [9.5, 12.0]  # beside the crate: its cover line crosses it within 1"
    assert "The best point is already in cover." not in text(plan)
    assert ("It uses cover on the way (costs 0.5\" of progress, within the 2\" it accepts)."
            in text(plan))


def test_without_the_crate_it_claims_no_cover(tmp_path: Path) -> None:
    """The same without the crate: it goes straight on to the obscured point, which ``geom
    cover`` calls obscured and not in cover, and the plan says nothing of cover."""
    path = scenario(tmp_path, [("u1", 5, [("e1", prof(SHORT_GUN, KNIFE), (4, 11))])],
                    [("kell", TROOPER, (28, 11))], features=(BLOCK,))
    plan = ai_plan(path)
    assert plan["actions"][0]["to"] == [10.0, 11.0]
    board = tmp_path / "board.yaml"
    board.write_text(yaml.safe_dump({"name": "T", "width": 30, "depth": 22,
                                     "features": [BLOCK]}), encoding="utf-8")
    result = CliRunner().invoke(main, ["geom", "cover", str(board), "--attacker", "28,11",
                                       "--target", "10,11", "--base-mm", "25.4", "--json"])
    answer = json.loads(result.stdout)
    assert (answer["visible"], answer["in_cover"], answer["obscured"]) == (True, False, True)
    assert "cover" not in text(plan).lower().replace("cover: use if possible", "")
