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


def test_a_point_in_cover_that_costs_nothing_is_not_said_to_cost(tmp_path: Path) -> None:
    """Hold 12" (Fire Teams command 5, Use if possible) from a trooper at (22, 11): a crate at
    x 9.4-9.8, y 12-13.5 gives cover on the 12" ring. The point in cover it takes, (9.0,
    12.0), holds 12" as well as the nearest holding point (both 12.0" off, within the 0.1"
    every holding point shares), so the detour costs its order nothing: the words say so
    instead of "costs 0.0" of progress" (or -0.0")."""
    crate = {"id": "crate", "traits": ["light"],
             "polygon": [[9.4, 12.0], [9.8, 12.0], [9.8, 13.5], [9.4, 13.5]]}
    path = scenario(tmp_path, [("u1", 5, [("e1", prof(SHORT_GUN, KNIFE), (4, 11))])],
                    [("kell", TROOPER, (22, 11))], features=(crate,))
    plan = ai_plan(path)
    assert plan["actions"][0]["to"] == [9.0, 12.0]
    words = text(plan)
    assert "It ends 12.0\" from kell" in words
    assert ("It takes a point in cover, which serves its order as well as the best point."
            in words)
    assert "0.0\" of progress" not in words


def test_the_cover_detour_never_ends_farther_from_what_the_order_wants(tmp_path: Path) -> None:
    """003 "move to cover while still moving in the general direction of its movement orders":
    e1 (Hold 12", Use if possible) stands 11.0" from kell; the only cover within its 2" of
    detour lies behind a crate on kell's side, 10.8" from him -- farther from the 12" than
    where it stands. It takes the point that holds 12" instead (it took the crate before)."""
    crate = {"id": "crate", "traits": ["light"],
             "polygon": [[19.8, 11.6], [20.2, 11.6], [20.2, 13.0], [19.8, 13.0]]}
    path = scenario(tmp_path, [("u1", 5, [("e1", prof(SHORT_GUN), (22, 11))])],
                    [("kell", TROOPER, (10, 11))], features=(crate,))
    plan = ai_plan(path)
    assert [(a["kind"], a["to"]) for a in plan["actions"]] == [("reposition", [23.0, 11.0])]
    assert "It ends 12.0\" from kell, the closest enemy it can see there." in text(plan)
    assert "uses cover on the way" not in text(plan)
