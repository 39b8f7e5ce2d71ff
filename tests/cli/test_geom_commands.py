"""``solo-ops geom los | distance | cover`` through the real command line, with hand-computed
answers on a small board written to a file."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from solo_ops.cli import main
from solo_ops.geometry.shapes import WALL_THICKNESS

HALF = WALL_THICKNESS / 2.0

BOARD = {
    "name": "Test yard", "width": 30, "depth": 22,
    "features": [
        # a wall from the south edge up to y = 15: the way round is over its north end
        {"id": "w1", "traits": ["wall"], "line": [[15, 0], [15, 15]]},
        # light rubble 0.5" in front of a target standing at (25, 19)
        {"id": "rubble", "traits": ["light"], "polygon": [[23, 18], [23.6, 18], [23.6, 20],
                                                          [23, 20]]},
        # heavy ruin in the middle of a long sight line at y = 20
        {"id": "ruin", "traits": ["heavy"], "polygon": [[6, 19.5], [8, 19.5], [8, 20.5],
                                                        [6, 20.5]]},
        {"id": "pit", "traits": ["pitfall"], "polygon": [[2, 2], [4, 2], [4, 4], [2, 4]]},
    ],
}


@pytest.fixture()
def board_file(tmp_path: Path) -> Path:
    path = tmp_path / "yard.yaml"
    path.write_text(yaml.safe_dump(BOARD), encoding="utf-8")
    return path


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_distance_goes_round_the_wall_end(board_file: Path) -> None:
    code, out, _ = run("geom", "distance", str(board_file), "--from", "10,5", "--to", "20,5",
                       "--base-mm", "0", "--json")
    assert code == 0
    data = json.loads(out)
    # round the wall's north end (15, 15) exactly: a line wall has no thickness for measuring
    # (issue 14 item 13)
    leg = math.hypot(5, 10)
    assert data["distance"] == pytest.approx(2 * leg, abs=1e-4)
    assert data["route"][0] == [10.0, 5.0] and data["route"][-1] == [20.0, 5.0]
    assert all(p[1] >= 15 for p in data["route"][1:-1])


def test_distance_between_bases_subtracts_both_radii(board_file: Path) -> None:
    code, out, _ = run("geom", "distance", str(board_file), "--from", "5,18", "--to", "5,12",
                       "--json")
    assert code == 0
    r = 32 / 2 / 25.4
    assert json.loads(out)["distance"] == pytest.approx(6 - 2 * r, abs=1e-6)


def test_pitfall_does_not_block_measuring(board_file: Path) -> None:
    code, out, _ = run("geom", "distance", str(board_file), "--from", "1,3", "--to", "5,3",
                       "--base-mm", "0", "--json")
    assert code == 0
    assert json.loads(out)["distance"] == pytest.approx(4.0, abs=1e-6)


def test_los_blocked_by_wall_and_clear_past_it(board_file: Path) -> None:
    code, out, _ = run("geom", "los", str(board_file), "--from", "10,5", "--to", "20,5",
                       "--json")
    assert code == 0 and json.loads(out)["visible"] is False
    code, out, _ = run("geom", "los", str(board_file), "--from", "10,17", "--to", "20,17",
                       "--json")
    assert code == 0 and json.loads(out)["visible"] is True


def test_cover_light_rubble_near_target(board_file: Path) -> None:
    code, out, _ = run("geom", "cover", str(board_file), "--attacker", "17,19",
                       "--target", "25,19", "--json")
    assert code == 0
    data = json.loads(out)
    assert data == {**data, "visible": True, "in_cover": True, "obscured": False}


def test_cover_heavy_terrain_in_the_middle_obscures(board_file: Path) -> None:
    code, out, _ = run("geom", "cover", str(board_file), "--attacker", "1,20",
                       "--target", "13,20", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["visible"] is True and data["obscured"] is True and data["in_cover"] is False


def test_cover_not_visible(board_file: Path) -> None:
    code, out, _ = run("geom", "cover", str(board_file), "--attacker", "10,5",
                       "--target", "20,5", "--json")
    assert code == 0
    assert json.loads(out) == {**json.loads(out), "visible": False, "in_cover": False,
                               "obscured": False}


def test_text_output_is_one_readable_line(board_file: Path) -> None:
    code, out, _ = run("geom", "distance", str(board_file), "--from", "10,5", "--to", "20,5")
    assert code == 0
    assert out.count("\n") == 1 and '"' in out and "via" in out


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--from", "15,5", "--to", "20,5"], "--from: point 15,5 is inside wall 'w1'"),
        (["--from", "3,3", "--to", "20,5"], "--from: point 3,3 is inside pitfall 'pit'"),
        (["--from", "40,5", "--to", "20,5"], "--from: point 40,5 is off the 30 x 22 board"),
        (["--from", "10,5", "--to", "x,5"], "--to: expected two numbers X,Y"),
    ],
)
def test_bad_points_get_one_line(board_file: Path, args: list[str], expected: str) -> None:
    code, out, err = run("geom", "distance", str(board_file), *args)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and expected in err and "Traceback" not in err


def test_bad_board_file_names_file_and_field(tmp_path: Path) -> None:
    bad = dict(BOARD, features=[{"id": "w1", "traits": ["wal"], "line": [[1, 1], [2, 2]]}])
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(bad), encoding="utf-8")
    code, _, err = run("geom", "los", str(path), "--from", "1,1", "--to", "5,5")
    assert code == 2
    assert str(path) in err and "features[0].traits[0]" in err and "unknown trait" in err
