"""The rulers' numbers are never cut at the board's edge on a phone or a tablet (Debian's
Chromium, 390x844, 360x640 and 768x1024). With the whole board shown (▣), each number grows
about its tick to stay legible, and the phone's trimmed margins used to cut "22"" to "2"" at
the left and "30"" at the right; the view box now takes in their grown boxes. Measured from the
boxes the browser drew: every ruler number lies wholly inside the board's picture (its SVG),
with the whole board shown and at the opening zoom scrolled to the board's top-left and
bottom-right corners, at the set-up of three shipped scenarios (Volkus, Gallowdark,
Bheta-Decima)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support import browser as b
from tests.support.api import scenario_path
from tests.support.budget import FULL
from tests.support.paths import SCENARIOS
from tests.support.phone_page import PageServer, moments, open_page, touch_pages, zoom

SIZES = {"390x844": {"width": 390, "height": 844}, "360x640": {"width": 360, "height": 640},
         "768x1024": {"width": 768, "height": 1024}}
BOARDS = ("volkus-stronghold-supplement-example", "gallowdark-night-raid",
          "bheta-decima-refinery-strike")
SET_UPS = BOARDS if FULL else BOARDS[:1]
"""The set-ups checked: the three with the full budget (CI's slow pass); by default Volkus's
alone, with the co-op game's moment after it. The shipped boards are all 30" x 22", so their
rulers carry the same numbers at the same places: the other two set-ups differ in the marks
and the question beside the board, not in what the rulers draw."""

CUT_RULERS = """() => {
  const svg = document.querySelector('#board svg').getBoundingClientRect();
  const out = [];
  for (const t of document.querySelectorAll('#board svg text.ruler-label')) {
    const r = t.getBoundingClientRect();
    if (r.left < svg.left - 0.5 || r.right > svg.right + 0.5 || r.top < svg.top - 0.5 ||
        r.bottom > svg.bottom + 0.5) out.push([t.textContent, r.left, r.top, r.right, r.bottom]);
  }
  return [out, document.querySelectorAll('#board svg text.ruler-label').length];
}"""
"""The ruler numbers the picture's own edge cuts (drawn partly outside the board's SVG, as the
browser drew them, the page's scaling included), and how many there are."""


@pytest.fixture(scope="module")
def browser() -> Any:
    with b.launch() as chromium:
        yield chromium


def _cut(page: Any) -> list[str]:
    cut, count = page.evaluate(CUT_RULERS)
    assert count >= 20  # both rulers are drawn
    return [f"{text} at ({left:.0f}, {top:.0f})-({right:.0f}, {bottom:.0f})"
            for text, left, top, right, bottom in cut]


def _corner(page: Any, where: str) -> None:
    page.evaluate("(end) => { const v = document.querySelector('#board');"
                  " v.scrollLeft = end ? v.scrollWidth : 0;"
                  " v.scrollTop = end ? v.scrollHeight : 0; }", where == "bottom-right")


def test_no_ruler_number_is_cut_at_the_board_edge(browser: Any) -> None:
    pages, errors = touch_pages(browser, SIZES)
    server = None
    cut: dict[tuple[str, str, str], list[str]] = {}
    try:
        chosen = [SCENARIOS / f"{name}.yaml" for name in SET_UPS]
        for what, game, state in moments(chosen, scenario_path(), 3, limit=0):
            server = server or PageServer(game, state)
            server.serve(game, state)
            for name, page in pages.items():
                open_page(page, f"{server.url}?host=1")
                for corner in ("top-left", "bottom-right"):
                    _corner(page, corner)
                    cut[(what, name, f"opening zoom, {corner}")] = _cut(page)
                page.locator("#zoom-fit").click()
                assert zoom(page) == 1
                cut[(what, name, "whole board")] = _cut(page)
    finally:
        if server is not None:
            server.close()
        for page in pages.values():
            page.context.close()
    assert {what for what, _, _ in cut} >= {f"{name} set-up" for name in SET_UPS}
    assert {k: v for k, v in cut.items() if v} == {}
    assert errors == []
