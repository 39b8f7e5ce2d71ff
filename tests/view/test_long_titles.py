"""A scenario's long name never runs off a picture: the map's title is drawn smaller, then the
name is cut with an ellipsis, and the turn, VP and CP after it are always drawn whole; the same
for the set-up picture's "— set-up" and the printable sheet's heading."""

from __future__ import annotations

import dataclasses
import io
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from PIL import Image

from solo_ops.game.definition import Game
from solo_ops.game.engine import new_game
from solo_ops.game.state import State
from solo_ops.io import library
from solo_ops.io.scenario import load_scenario
from solo_ops.view import board_view, drawing, render, setup
from solo_ops.view.labels import cut_to_width, fit_to_width, text_width
from solo_ops.view.player import player_view
from tests.support.pictures import SVG, texts_with_class

LONG = ("The Very Long Night of the Forty-Seven Ambushes Beneath the Cloister Gate of Saint "
        "Vexilla the Unbowed")

NAME = f"{LONG}: {LONG}"
"""A name no picture holds whole even in its smallest title type."""
Table = tuple[Game, State, dict[str, Any]]


@pytest.fixture(scope="module")
def long_game() -> Table:
    scenario = load_scenario(library.resolve("scenario", "gallowdark-night-raid"))
    game, state = new_game(dataclasses.replace(scenario, name=NAME), 3)
    return game, state, player_view(game, state)


def _ink_right(png: bytes, top: int, bottom: int) -> int:
    """The rightmost column with a dark pixel (text, not the pale floor) in rows
    ``top:bottom``."""
    image = Image.open(io.BytesIO(png)).convert("L")
    band = image.crop((0, top, image.width, bottom))
    box = Image.eval(band, lambda v: 255 if v < 128 else 0).getbbox()
    assert box is not None, "nothing drawn there"
    return box[2]


def test_fit_keeps_what_fits_then_shrinks_then_cuts_the_name_only() -> None:
    assert fit_to_width("Short", 17, True, 500, 12) == ("Short", 17)
    width = text_width(LONG, 17, True) * 0.9  # too wide by a tenth: smaller, whole
    text, size = fit_to_width(LONG, 17, True, width, 12)
    assert text == LONG and 12 <= size < 17 and text_width(text, size, True) <= width
    assert text_width(LONG, size + 0.5, True) > width  # the largest half-pixel size that fits
    tail = " — turning point 3 · VP you 2 / solo-ops 1"
    width = text_width(tail, 12, True) + 150  # room for the tail and a little of the name
    text, size = fit_to_width(LONG, 17, True, width, 12, tail=tail)
    assert size == 12 and text.endswith("…" + tail) and text_width(text, 12, True) <= width
    assert LONG.startswith(text[:-len("…" + tail)])
    assert cut_to_width("abc", 12, False, 1) == "…"  # not even a letter fits


def test_the_map_title_keeps_its_turn_and_score_and_stays_inside(long_game: Table) -> None:
    game, state, view = long_game
    scene = board_view.board_scene(game, state, view, [])
    width, _ = scene.size
    head, tail = board_view.title_parts(view)
    assert head == NAME and tail.startswith(" — turning point 0 · VP you 0 / solo-ops 0")
    root = ET.fromstring(drawing.svg_text(scene))
    (drawn,) = texts_with_class(root, "title")
    assert drawn.endswith("…" + tail) and NAME.startswith(drawn[:-len("…" + tail)])
    whole = root.find(f"{SVG}title")
    assert whole is not None and whole.text == NAME + tail  # the SVG keeps it whole
    right = _ink_right(drawing.png_bytes(scene), 0, int(render.MARGIN_TOP) - 14)
    assert right <= width - render.MARGIN_RIGHT + 1


def test_a_set_up_title_and_the_sheet_keep_their_last_words(long_game: Table) -> None:
    game, state, view = long_game
    scene = board_view.board_scene(game, state, view, [])
    scene.title, scene.title_tail = NAME, " — set-up"  # as `solo-ops new` draws it
    (drawn,) = texts_with_class(ET.fromstring(drawing.svg_text(scene)), "title")
    assert drawn.endswith("… — set-up") and NAME.startswith(drawn[:-len("… — set-up")])
    sheet = setup.sheet_png(game, state, view)
    right = _ink_right(sheet, 0, setup.MARGIN + 30)
    assert right <= setup.PAGE[0] - setup.MARGIN + 1
