"""Pictures: every shipped board draws to SVG and PNG; overlays, legend and saving behave."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image

from solo_ops.cli.board import load_board
from solo_ops.cli.maps import save_picture
from solo_ops.core.errors import InputError
from solo_ops.view import drawing, render
from tests.support.paths import BOARDS
from tests.support.pictures import SVG, texts_with_class

BOARD_FILES = sorted(BOARDS.glob("*.yaml"))




@pytest.mark.parametrize("path", BOARD_FILES, ids=lambda p: p.stem)
def test_board_draws_to_svg_and_png(path: Path, tmp_path: Path) -> None:
    board = load_board(path)
    scene = render.board_scene(board)
    svg_path = save_picture(scene, tmp_path / "b.svg")
    root = ET.parse(svg_path).getroot()
    assert root.tag == f"{SVG}svg"
    assert texts_with_class(root, "sector-label") == ["1", "2", "3", "4", "5", "6"]
    assert board.name in texts_with_class(root, "title")
    assert len(texts_with_class(root, "objective-label")) == len(board.objectives)
    # every door and hatch is labelled with its id, the name the terminal and answers use
    assert sorted(texts_with_class(root, "portal-label")) == sorted(f.id for f in
                                                                     board.portals())
    assert sorted(texts_with_class(root, "feature-label")) == sorted(
        f.id for f in board.features if not f.is_line and "wall" not in f.traits)
    width, height = scene.size
    assert root.get("width") == str(width) and root.get("height") == str(height)
    # A 1" grid at 30 px per inch: the board fills width x 30 by depth x 30 pixels.
    floor = next(el for el in root.iter(f"{SVG}polygon") if el.get("class") == "floor")
    xs = [float(p.split(",")[0]) for p in floor.get("points", "").split()]
    assert max(xs) - min(xs) == pytest.approx(board.width * render.SCALE)
    png_path = save_picture(scene, tmp_path / "b.png")
    with Image.open(png_path) as image:
        assert image.format == "PNG"
        assert image.size == (width, height)
    assert width >= board.width * render.SCALE and height >= board.depth * render.SCALE


def test_terrain_styles_distinguish_traits() -> None:
    board = load_board(BOARDS / "gallowdark-corridors.yaml")
    svg = drawing.svg_text(render.board_scene(board))
    legend = texts_with_class(ET.fromstring(svg), "legend-text")
    assert {"wall", "hatch (open)", "hatch (closed)", "player drop zone",
            "enemy drop zone", "sector boundary"} <= set(legend)
    colours = {text: style for style, text, _ in render.board_scene(board).legend_entries()}
    assert colours["hatch (open)"] != colours["hatch (closed)"]
    pariah = drawing.svg_text(render.board_scene(load_board(BOARDS / "crypt-of-cynosure.yaml")))
    legend = texts_with_class(ET.fromstring(pariah), "legend-text")
    assert {"pitfall", "firing point and arc", "command node"} <= set(legend)
    assert any(t.startswith("SL: spatial lacerator") for t in legend)
    assert 'class="firing-arc"' in pariah and 'class="firing-point"' in pariah


def test_open_door_drawn_differently_from_closed() -> None:
    board = load_board(BOARDS / "volkus-stronghold.yaml")
    door = next(f for f in board.portals() if not f.open)
    before = drawing.svg_text(render.board_scene(board))
    after = drawing.svg_text(render.board_scene(board.with_open({door.id: True})))
    assert before != after


def test_overlay_discs_paths_counters_and_legend(tmp_path: Path) -> None:
    board = load_board(BOARDS / "gallowdark-cloister.yaml")
    scene = render.board_scene(board, title="Night raid — turn 2")
    render.add_disc(scene, (3, 2), 0.63, side="player", label="sgt")
    render.add_disc(scene, (5, 2), 0.63, side="player2", label="gunner ⇐ medic")
    render.add_disc(scene, (15, 20), 0.63, side="enemy", label="u1-a")
    render.add_path(scene, [(15, 20), (15, 18.5), (12, 17)], kind="move")
    render.add_path(scene, [(15, 20), (3, 2)], kind="shot")
    render.add_path(scene, [(15, 20), (5, 2)], kind="charge")
    render.add_counter(scene, (27, 20), label="c1")
    render.add_legend(scene, [("player", "Ana's squad"), ("player2", "Ben's squad"),
                              ("enemy", "revealed enemies"), ("counter", "hidden counter"),
                              ("move", "planned move")])
    svg = drawing.svg_text(scene)
    root = ET.fromstring(svg)
    classes = [el.get("class") for el in root.iter()]
    for css in ("base player", "base player2", "base enemy", "path-move", "path-shot",
                "path-charge", "counter"):
        assert css in classes, css
    assert "?" in texts_with_class(root, "counter")
    assert "c1" in texts_with_class(root, "counter-label")
    assert {"sgt", "gunner ⇐ medic", "u1-a"} <= set(texts_with_class(root, "base-label"))
    assert "Night raid — turn 2" in texts_with_class(root, "title")
    assert {"Ana's squad", "hidden counter", "planned move"} <= set(
        texts_with_class(root, "legend-text"))
    data = drawing.render_bytes(scene, ".png")
    with Image.open(io.BytesIO(data)) as image:
        assert image.size == scene.size
    # A long legend makes the picture taller, never clipped.
    render.add_legend(scene, [("enemy", f"line {i}") for i in range(40)])
    assert scene.size[1] > board.depth * render.SCALE + 100


def test_bad_overlay_arguments() -> None:
    scene = render.board_scene(load_board(BOARDS / "volkus-manufactorum.yaml"))
    with pytest.raises(ValueError):
        render.add_disc(scene, (1, 1), 0.5, side="neutral")
    with pytest.raises(ValueError):
        render.add_path(scene, [(1, 1), (2, 2)], kind="teleport")
    render.add_path(scene, [(1, 1)], kind="move")  # a single point draws nothing
    assert scene.overlay == []


def test_save_rejects_other_suffixes_and_writes_atomically(tmp_path: Path) -> None:
    scene = render.board_scene(load_board(BOARDS / "translocum-chamber.yaml"))
    with pytest.raises(InputError) as err:
        save_picture(scene, tmp_path / "board.jpg")
    assert "board.jpg" in str(err.value)
    with pytest.raises(InputError) as err:
        save_picture(scene, tmp_path / "missing" / "board.svg")
    assert "board.svg" in str(err.value)
    target = tmp_path / "board.SVG"
    target.write_text("old", encoding="utf-8")
    save_picture(scene, target)
    assert target.read_text(encoding="utf-8").startswith("<?xml")
    assert [p.name for p in tmp_path.iterdir()] == ["board.SVG"]  # no temporary file left


def test_svg_escapes_text() -> None:
    board = load_board(BOARDS / "volkus-stronghold.yaml")
    scene = render.board_scene(board, title="A <b>bold</b> & daring raid")
    root = ET.fromstring(drawing.svg_text(scene))
    assert "A <b>bold</b> & daring raid" in texts_with_class(root, "title")
