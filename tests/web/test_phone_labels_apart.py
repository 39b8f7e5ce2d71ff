"""The board's labels never sit on each other on a phone (390x844 and 360x640, in Debian's
Chromium): zoomed out, each label grows about its mark to stay legible, and the labels of marks
close together (two models in base contact, an activation's numbered steps) moved apart, with a
leader line, instead of growing onto each other. Measured from the boxes the browser drew
(:func:`tests.support.phone_page.overlapping_labels`), at the opening zoom and with the whole
board shown (▣), at a shipped scenario's set-up and after the co-op example's first two enemy
activations (seed 3: after the second, corvin's and idris's names met on the whole board)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support import browser as b
from tests.support.api import scenario_path
from tests.support.paths import SCENARIOS
from tests.support.phone_page import (
    PageServer,
    label_boxes,
    label_heights,
    legible_share,
    moments,
    open_page,
    overlapping_labels,
    touch_pages,
)

PHONES = {"390x844": {"width": 390, "height": 844}, "360x640": {"width": 360, "height": 640}}


@pytest.fixture(scope="module")
def browser() -> Any:
    with b.launch() as chromium:
        yield chromium


def _drawn_labels(page: Any) -> int:
    """How many labels the server's board holds (the page draws every one of them)."""
    return int(page.evaluate("() => document.querySelectorAll('#board svg text.label').length"))


def test_labels_of_close_marks_do_not_overlap_on_a_phone(browser: Any) -> None:
    pages, errors = touch_pages(browser, PHONES)
    server = None
    found: dict[tuple[str, str, str], list[tuple[str, str]]] = {}
    try:
        chosen = [SCENARIOS / "bheta-decima-refinery-strike.yaml"]
        for what, game, state in moments(chosen, scenario_path(), 3, limit=2):
            server = server or PageServer(game, state)
            server.serve(game, state)
            for name, page in pages.items():
                open_page(page, f"{server.url}?host=1")
                for zoomed in ("opening zoom", "whole board"):
                    if zoomed == "whole board":
                        page.locator("#zoom-fit").click()
                    found[what, name, zoomed] = overlapping_labels(page)
                    drawn = [x for x in label_boxes(page) if x[1]]
                    # every label is still drawn, none shrunk away or hidden
                    assert len(drawn) == _drawn_labels(page) > 0, (what, name, zoomed)
                    assert all(x[4] > x[2] and x[5] > x[3] for x in drawn), (what, name)
                    assert legible_share(label_heights(page)) >= 0.9, (what, name, zoomed)
        assert len(found) == 3 * len(PHONES) * 2
        assert {k: v for k, v in found.items() if v} == {}
        assert errors == []
    finally:
        if server is not None:
            server.close()


def _once_at_rest(page: Any) -> list[tuple[str, str]]:
    """The overlapping labels once the page has kept them apart after a gesture: asked again
    (a tenth of a second between asks) until there is none or the page's wait runs out, so a
    busy machine that fires the page's timer late waits longer instead of failing; a page
    that never keeps them apart still fails, at the end of the wait."""
    from tests.support.browser import WAIT

    found = overlapping_labels(page)
    for _ in range(WAIT // 100):
        if not found:
            break
        page.wait_for_timeout(100)
        found = overlapping_labels(page)
    return found


def test_a_pinch_keeps_the_labels_apart_once_it_rests(browser: Any) -> None:
    """A pinch zooms many times a second; the labels are kept apart once the fingers rest
    (the search among them is not made at every step of it), and then none overlaps, as at
    a button's zoom. The moments of the first test, on the 390 px phone, pinched in from its
    opening zoom towards the whole board, where the grown labels of close marks would meet."""
    from tests.support.phone_page import pinch, zoom

    page = browser.new_context(viewport=PHONES["390x844"], device_scale_factor=2,
                               has_touch=True).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    server = None
    try:
        chosen = [SCENARIOS / "bheta-decima-refinery-strike.yaml"]
        found = {}
        for what, game, state in moments(chosen, scenario_path(), 3, limit=2):
            server = server or PageServer(game, state)
            server.serve(game, state)
            open_page(page, f"{server.url}?host=1")
            opening = zoom(page)
            pinch(page, 0.3)
            assert zoom(page) < opening
            found[what] = _once_at_rest(page)
            assert legible_share(label_heights(page)) >= 0.9
        assert len(found) == 3 and {k: v for k, v in found.items() if v} == {}
        assert errors == []
    finally:
        if server is not None:
            server.close()
