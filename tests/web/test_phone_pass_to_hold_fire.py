"""A Kill Team 2018 shooting phase on a phone (390x844, Debian's Chromium): the question
"which of your models shoots now?" has a button that passes — the models not picked yet hold
their fire — so a squad with nothing in sight ends its part of the phase in one tap, not two a
model. The page's stream then says who held fire, and the question is not asked again."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.support import browser as b
from tests.support.browser import WAIT
from tests.support.phases import to_phase
from tests.support.phone_page import PageServer, open_page
from tests.support.portal_board import start


@pytest.fixture(scope="module")
def browser() -> Any:
    with b.launch() as chromium:
        yield chromium


def test_one_tap_passes_the_shooting_phase(browser: Any) -> None:
    game, state = start({"a1": (3, 11), "a2": (3, 14)}, edition="kt2018")
    to_phase(game, state, "shooting")
    page = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                               has_touch=True).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    with PageServer(game, state) as server:
        open_page(page, f"{server.url}?host=1")
        expect(page.locator("#prompt-text")).to_contain_text("which of your models shoots now?",
                                                              timeout=WAIT)
        passing = page.locator("#options button", has_text="pass: the rest hold fire")
        expect(passing).to_have_count(1)
        passing.click()
        expect(page.locator("body")).to_contain_text("Ana passes: a1, a2 hold their fire",
                                                     timeout=WAIT)
        expect(page.locator("#prompt-text")).not_to_contain_text("shoots now", timeout=WAIT)
    assert errors == []
