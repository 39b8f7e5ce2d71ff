"""The shipped killzone boards and the ``solo-ops board`` command.

Every shipped board must load, carry its killzone's traits, keep its drop zones
free for deployment, put every objective on open floor, and connect every room once its doors
and hatches are open. Broken board files must give one stderr line naming the file and field.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from shapely.geometry import Point
from shapely.ops import unary_union

from solo_ops.cli import board as board_cli
from solo_ops.geometry.board import Board
from solo_ops.geometry.shapes import movement_blockers, polygons_of
from tests.support.paths import BOARDS

BOARD_FILES = sorted(BOARDS.glob("*.yaml"))
BASE_RADIUS = 32 / 25.4 / 2  # a 32 mm base
EXPECTED = {
    "gallowdark-corridors": "gallowdark",
    "gallowdark-cloister": "gallowdark",
    "volkus-stronghold": "volkus",
    "volkus-manufactorum": "volkus",
    "bheta-decima-refinery": "bheta-decima",
    "crypt-of-cynosure": "crypt-of-cynosure",
    "translocum-chamber": "translocum-chamber",
}


def load(path: Path) -> Board:
    return board_cli.load_board(path)


def traits(board: Board) -> set[str]:
    return {t for f in board.features for t in f.traits}


def free_floor(board: Board) -> list:
    """Where a base centre can stand: off walls, closed portals, pitfalls and hazardous ground,
    wholly on the board. Returns the connected pieces (ignoring slivers)."""
    hazards = [f.shape for f in board.features if "hazardous" in f.traits]
    blocked = unary_union([movement_blockers(board), *hazards]).buffer(BASE_RADIUS)
    free = board.outline.buffer(-BASE_RADIUS).difference(blocked)
    return [g for g in polygons_of(free) if g.area > 0.05]


def all_portals(board: Board, is_open: bool) -> Board:
    return board.with_open({f.id: is_open for f in board.portals()})


def test_every_expected_board_is_shipped() -> None:
    assert {p.stem for p in BOARD_FILES} == set(EXPECTED)


@pytest.mark.parametrize("path", BOARD_FILES, ids=lambda p: p.stem)
def test_board_loads_with_killzone_zones_objectives(path: Path) -> None:
    board = load(path)
    assert board.killzone == EXPECTED[path.stem]
    assert (board.width, board.depth) == (30, 22)
    assert set(board.zones) >= {"player", "enemy"}
    assert len(board.objectives) >= 3
    assert path.read_text(encoding="utf-8").startswith("#"), "header comment describing it"


@pytest.mark.parametrize("path", BOARD_FILES, ids=lambda p: p.stem)
def test_killzone_traits(path: Path) -> None:
    board = load(path)
    have = traits(board)
    kz = board.killzone
    if kz == "gallowdark":
        assert {"wall", "hatch"} <= have
        hatches = [f for f in board.features if f.has("hatch")]
        assert any(f.open for f in hatches) and any(not f.open for f in hatches)
        assert all(f.is_line for f in board.features if f.has("wall") and f.has("hatch"))
    elif kz == "volkus":
        assert {"wall", "door", "heavy", "light", "vantage", "accessible"} <= have
        assert any(not f.is_line for f in board.features if f.has("heavy"))
    elif kz == "bheta-decima":
        assert {"hazardous", "vantage", "accessible", "heavy"} <= have
    else:  # Pariah Nexus
        assert {"wall", "door", "pitfall"} <= have
        assert board.firing_points
        assert sum(o.command_node for o in board.objectives) == 1
        kinds = {m.kind for m in board.markers}
        assert {"spatial-lacerator", "thermionic-annulus"} <= kinds
        for fp in board.firing_points:
            assert fp.arc.area > fp.area.area


@pytest.mark.parametrize("path", BOARD_FILES, ids=lambda p: p.stem)
def test_drop_zones_opposite_and_free(path: Path) -> None:
    board = load(path)
    player, enemy = board.zones["player"], board.zones["enemy"]
    assert not player.intersects(enemy)
    pc, ec = player.centroid, enemy.centroid
    assert abs(pc.x - ec.x) >= board.width * 0.7 or abs(pc.y - ec.y) >= board.depth * 0.7
    blockers = movement_blockers(all_portals(board, False))
    hazards = unary_union([f.shape for f in board.features if f.has("hazardous")])
    for zone in (player, enemy):
        assert not zone.intersects(blockers)
        assert not zone.intersects(hazards)


@pytest.mark.parametrize("path", BOARD_FILES, ids=lambda p: p.stem)
def test_objectives_on_open_floor(path: Path) -> None:
    board = load(path)
    closed = all_portals(board, False)
    blockers = movement_blockers(closed)
    bad = unary_union([f.shape for f in board.features if f.has("hazardous")])
    for o in board.objectives:
        assert board.on_board(*o.at)
        p = Point(o.at)
        assert blockers.is_empty or p.distance(blockers) > BASE_RADIUS, o.id
        assert not p.intersects(bad), o.id


@pytest.mark.parametrize("path", BOARD_FILES, ids=lambda p: p.stem)
def test_every_room_reachable_when_opened(path: Path) -> None:
    board = load(path)
    opened = free_floor(all_portals(board, True))
    assert len(opened) == 1, "some area cannot be reached even with every door open"
    # As set up, the two drop zones are connected (the enemy can reach the players).
    pieces = free_floor(board)
    zone_piece = [
        [i for i, g in enumerate(pieces) if g.intersects(board.zones[z])] for z in
        ("player", "enemy")
    ]
    assert zone_piece[0] == zone_piece[1] and len(zone_piece[0]) == 1
    # Every objective can be reached once the portals are open.
    for o in board.objectives:
        assert opened[0].distance(Point(o.at)) < 0.75, o.id


def test_some_room_is_sealed_until_a_hatch_opens() -> None:
    board = load(BOARDS / "gallowdark-corridors.yaml")
    assert len(free_floor(board)) > 1
    strongroom = board.feature("hatch-12")
    assert strongroom.has("hatch") and not strongroom.open
    others_open = board.with_open({f.id: True for f in board.portals() if f.id != "hatch-12"})
    assert len(free_floor(others_open)) == 2
    assert len(free_floor(others_open.with_open({"hatch-12": True}))) == 1


def test_touching_wall_panels_are_present() -> None:
    board = load(BOARDS / "gallowdark-corridors.yaml")
    walls = [f.shape for f in board.features if f.has("wall") and f.is_line]
    touching = sum(1 for i, a in enumerate(walls) for b in walls[i + 1:] if a.touches(b))
    assert touching >= 5


# -- the CLI ---------------------------------------------------------------------------------
@pytest.fixture
def cli() -> CliRunner:
    try:
        return CliRunner(mix_stderr=False)  # click < 8.2
    except TypeError:
        return CliRunner()


@pytest.mark.parametrize("path", BOARD_FILES, ids=lambda p: p.stem)
def test_cli_check_and_show(cli: CliRunner, path: Path, tmp_path: Path) -> None:
    res = cli.invoke(board_cli.board, ["check", str(path)])
    assert res.exit_code == 0, res.output
    assert "valid board" in res.stdout
    out = tmp_path / "b.svg"
    res = cli.invoke(board_cli.board, ["show", str(path), "--out", str(out), "--json"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert {"board", "out", "features", "sectors"} <= set(doc)
    assert doc["out"] == str(out) and out.is_file()
    assert [s["sector"] for s in doc["sectors"]] == [1, 2, 3, 4, 5, 6]
    assert sum(doc["features"].values()) >= len(load(path).features)


def test_cli_show_text(cli: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "b.png"
    res = cli.invoke(board_cli.board,
                     ["show", str(BOARDS / "crypt-of-cynosure.yaml"), "--out", str(out)])
    assert res.exit_code == 0
    assert "Drew" in res.stdout and "firing points" in res.stdout and "pitfall" in res.stdout
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_show_bad_suffix(cli: CliRunner, tmp_path: Path) -> None:
    res = cli.invoke(board_cli.board, ["show", str(BOARDS / "volkus-stronghold.yaml"),
                                       "--out", str(tmp_path / "b.gif")])
    assert res.exit_code == 2
    assert "--out" in res.stderr and ".gif" in res.stderr
    assert not (tmp_path / "b.gif").exists()


BAD_FEATURE = {"id": "x", "traits": ["heavy"], "polygon": [[1, 1], [3, 1], [3, 3], [1, 3]]}
BAD_CASES = {
    "self-intersecting": ({"polygon": [[1, 1], [5, 5], [5, 1], [1, 2]]}, "features[1].polygon",
                          "self-intersecting"),
    "off-board": ({"polygon": [[28, 1], [31, 1], [31, 3], [28, 3]]}, "features[1].polygon",
                  "off the board"),
    "unknown-trait": ({"traits": ["heavy", "lava"]}, "features[1].traits[1]", "unknown trait"),
    "duplicate-id": ({"id": "w1"}, "features[1]", "duplicate id"),
}


def write_board(tmp_path: Path, second: dict) -> Path:
    doc = {"name": "bad", "width": 30, "depth": 22, "features": [
        {"id": "w1", "traits": ["wall"], "line": [[5, 5], [5, 10]]},
        {**BAD_FEATURE, **second},
    ]}
    path = tmp_path / "bad.yaml"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


@pytest.mark.parametrize("case", sorted(BAD_CASES))
@pytest.mark.parametrize("command", ["check", "show"])
def test_cli_bad_board(cli: CliRunner, tmp_path: Path, case: str, command: str) -> None:
    change, field, words = BAD_CASES[case]
    path = write_board(tmp_path, change)
    args = [command, str(path)] + (["--out", str(tmp_path / "b.svg")] if command == "show"
                                   else [])
    res = cli.invoke(board_cli.board, args)
    assert res.exit_code == 2
    assert res.stdout == ""
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1
    assert str(path) in lines[0] and field in lines[0] and words in lines[0]
    assert "Traceback" not in res.stderr
    assert not (tmp_path / "b.svg").exists()


def test_cli_missing_and_malformed(cli: CliRunner, tmp_path: Path) -> None:
    res = cli.invoke(board_cli.board, ["check", str(tmp_path / "nope.yaml")])
    assert res.exit_code == 2 and "nope.yaml" in res.stderr and "not found" in res.stderr
    bad = tmp_path / "broken.yaml"
    bad.write_text("name: [unclosed\n", encoding="utf-8")
    res = cli.invoke(board_cli.board, ["check", str(bad)])
    assert res.exit_code == 2 and "broken.yaml" in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1
    listy = tmp_path / "list.yaml"
    listy.write_text("- 1\n- 2\n", encoding="utf-8")
    res = cli.invoke(board_cli.board, ["check", str(listy)])
    assert res.exit_code == 2 and "list.yaml" in res.stderr
