"""The win-rate chart of ``solo-ops rate --engagement ... --picture``: a long title (a long
scenario name) is wrapped within the picture, never cut at its sides."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import pytest
from PIL import Image, ImageFont

from solo_ops.view import chart
from tests.support.pictures import SVG, texts_with_class

POINTS = [chart.LevelPoint(1, 0.75, 0.60, 0.86), chart.LevelPoint(3, 0.2, 0.1, 0.35),
          chart.LevelPoint(6, 0.0, 0.0, 0.09)]
LONG = ("Objective Ultima on Pariah Nexus: Crypt of Cynosure: players' win rate (objective)")
"""The title a generated Kill Team 2018 encounter's rating gave (it was cut at both sides)."""


def _bold_width(text: str) -> float:
    """The text's width in the chart's title font, measured by Pillow itself."""
    try:
        font = ImageFont.truetype("DejaVuSans-Bold.ttf", chart.TITLE_SIZE)
    except OSError:
        pytest.skip("DejaVu Sans Bold is not installed")
    return float(font.getlength(text))


def _room() -> float:
    return chart.WIDTH - 2 * chart.TITLE_MARGIN


def test_a_short_title_is_one_line_as_it_is() -> None:
    assert chart.title_lines("Stronghold: players' win rate (objective)") == [
        "Stronghold: players' win rate (objective)"]


def test_a_long_title_is_two_lines_that_fit_and_keep_every_word() -> None:
    assert _bold_width(LONG) > _room()  # the case: too wide for one line
    lines = chart.title_lines(LONG)
    assert len(lines) == 2
    assert " ".join(lines) == LONG
    assert all(_bold_width(line) <= _room() for line in lines)
    # broken after the scenario's name, where both halves fit: then what the chart shows
    assert lines == ["Objective Ultima on Pariah Nexus: Crypt of Cynosure:",
                     "players' win rate (objective)"]


def test_a_title_too_long_for_two_lines_ends_in_an_ellipsis_that_fits() -> None:
    longer = " ".join([LONG] * 3)
    lines = chart.title_lines(longer)
    assert len(lines) == chart.TITLE_LINES and lines[-1].endswith("…")
    assert all(_bold_width(line) <= _room() for line in lines)
    assert longer.startswith(" ".join(lines)[:-1])  # the title's start, in order
    word = "x" * 200  # one word wider than the picture: cut, not spilled
    (only,) = chart.title_lines(word)
    assert only.endswith("…") and _bold_width(only) <= _room()
    assert only[:-1] == word[:len(only) - 1]


def _ink_columns(data: bytes, rows: int) -> tuple[int, int]:
    """The leftmost and rightmost columns with a non-white pixel in the top ``rows``."""
    image = Image.open(io.BytesIO(data)).convert("L").crop((0, 0, chart.WIDTH, rows))
    box = Image.eval(image, lambda v: 255 - v).getbbox()
    assert box is not None, "no title drawn"
    return box[0], box[2]


def test_the_png_title_stays_inside_the_picture() -> None:
    left, right = _ink_columns(chart.png(POINTS, LONG), 52)
    assert left >= chart.TITLE_MARGIN - 1 and right <= chart.WIDTH - chart.TITLE_MARGIN + 1
    # and the second line pushed the plot down: the 100% grid line is below it
    image = Image.open(io.BytesIO(chart.png(POINTS, LONG))).convert("RGB")
    top = chart.TOP + chart.TITLE_STEP
    assert image.getpixel((chart.WIDTH - chart.RIGHT - 5, top)) != (255, 255, 255)
    assert image.getpixel((chart.WIDTH - chart.RIGHT - 5, chart.TOP)) == (255, 255, 255)


def test_the_svg_title_is_its_lines_and_the_whole_title() -> None:
    root = ET.fromstring(chart.svg(POINTS, LONG))
    assert texts_with_class(root, "title") == chart.title_lines(LONG)
    title = root.find(f"{SVG}title")
    assert title is not None and title.text == LONG
    assert len(root.findall(f".//{SVG}circle")) == len(POINTS)
