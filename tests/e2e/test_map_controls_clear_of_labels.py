"""The board's zoom controls (− / + / ▣) never hide a label or a model's mark: in Debian's
Chromium at a phone's 390x844 and at a desktop's 1400x1000, on the real page (index.html,
app.css, board.js) of the co-op stronghold example at seed 4 as Ana's page opens it (where a
player saw the enemy labels B11 and CM9 in the top-right corner under the buttons, and a
desktop's buttons covered the picture's size line and the legend's top), the controls' box
meets none of the board's texts, bases, order tokens or markers as they show in the board's
visible box: at the opening zoom, scrolled to the board's top-right corner, and zoomed out to
the whole board. The buttons stay finger-sized (2.4rem: 38.4 CSS px, less the layout's
rounding) and still zoom."""

from __future__ import annotations

from typing import Any

import pytest

from solo_ops.game.engine import new_game, pending, step
from solo_ops.io.scenario import load_scenario
from tests.support import browser as b
from tests.support.paths import SCENARIOS
from tests.support.phone_page import PageServer, open_page, zoom

EXAMPLE = SCENARIOS / "volkus-stronghold-supplement-example.yaml"

SHOWN_MARKS = """() => {
  const view = document.querySelector('#board').getBoundingClientRect();
  const out = [];
  for (const el of document.querySelectorAll(
      '#board svg text, #board svg circle, #board svg .order-token')) {
    const r = el.getBoundingClientRect();
    const left = Math.max(r.left, view.left), right = Math.min(r.right, view.right);
    const top = Math.max(r.top, view.top), bottom = Math.min(r.bottom, view.bottom);
    if (right > left && bottom > top) {
      out.push([el.textContent || el.getAttribute('class') || el.tagName, left, top,
                right - left, bottom - top]);
    }
  }
  return out;
}"""
"""Every text, circle (bases, counters, objectives, badges) and order token of the board, cut
to the part of it shown in the board's visible box (CSS px): (what, x, y, width, height)."""


@pytest.fixture(scope="module")
def browser() -> Any:
    with b.launch() as chromium:
        yield chromium


@pytest.fixture(scope="module")
def anas_page_url() -> Any:
    """Ana's link to the co-op example at seed 4 as ``solo-ops serve`` opens it (the engine's
    steps run up to the first question: Ana's re-roll as cultist-10 shoots Medic Oro), served by
    the real app in this process."""
    game, state = new_game(load_scenario(EXAMPLE), 4)
    while pending(game, state).kind == "engine":
        step(game, state, {"type": "engine"})
    server = PageServer(game, state)
    try:
        table = server.serve(game, state)
        token = table.game.links["players"]["Ana"]
        yield f"{server.url}?player=Ana&token={token}"
    finally:
        server.close()


def _hidden_under_controls(page: Any) -> list[str]:
    """The board's texts and marks whose shown part the zoom controls' box meets."""
    bar = b.laid_out_box(page, page.locator("#zoom-bar"))
    assert bar is not None
    hidden = []
    for what, x, y, w, h in page.evaluate(SHOWN_MARKS):
        if (x < bar["x"] + bar["width"] and bar["x"] < x + w
                and y < bar["y"] + bar["height"] and bar["y"] < y + h):
            hidden.append(str(what))
    return hidden


def _views_clear(page: Any) -> None:
    """The opening view, the board's top-right corner and the whole board: nothing under the
    controls, and the buttons finger-sized."""
    assert len(page.evaluate(SHOWN_MARKS)) >= 5
    assert _hidden_under_controls(page) == [], "at the opening zoom"
    page.evaluate("() => { const v = document.querySelector('#board');"
                  " v.scrollLeft = v.scrollWidth; v.scrollTop = 0; }")
    if page.viewport_size["width"] < 600:  # the corner the player saw covered, in view
        shown = [t for t, *_ in page.evaluate(SHOWN_MARKS)]
        assert "B11" in shown and "CM9" in shown, shown
    assert _hidden_under_controls(page) == [], "scrolled to the top-right corner"
    page.locator("#zoom-fit").click()
    assert zoom(page) == 1
    assert _hidden_under_controls(page) == [], "zoomed out to the whole board"
    for name in ("zoom-out", "zoom-in", "zoom-fit"):
        box = b.laid_out_box(page, page.locator(f"#{name}"))
        assert box["width"] >= 38 and box["height"] >= 38, (name, box)
    page.locator("#zoom-in").click()
    assert zoom(page) == pytest.approx(1.5)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_zoom_controls_cover_no_label_or_mark(browser: Any, anas_page_url: str,
                                                  size: str) -> None:
    context = browser.new_context(viewport=b.VIEWPORTS[size], has_touch=size == "phone")
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        open_page(page, anas_page_url)
        _views_clear(page)
        assert errors == []
    finally:
        context.close()
