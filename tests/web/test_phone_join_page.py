"""The bare address of a served game with two players, opened on a phone (390x844 and 360x640,
in Debian's Chromium): the page asks "Who are you?" and says what to do — tap your name, or ask
the host for your link — and its badge says the page has not joined, never a "connecting…" that
nothing will end; tapping a name opens that player's page, which does connect ("live")."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from solo_ops.game.engine import new_game
from solo_ops.io.scenario import load_scenario
from tests.support import browser as b
from tests.support.browser import WAIT
from tests.support.paths import SCENARIOS
from tests.support.phone_page import PageServer

EXAMPLE = SCENARIOS / "volkus-stronghold-supplement-example.yaml"
PHONES = {"390x844": {"width": 390, "height": 844}, "360x640": {"width": 360, "height": 640}}


@pytest.fixture(scope="module")
def browser() -> Any:
    with b.launch() as chromium:
        yield chromium


@pytest.mark.parametrize("size", sorted(PHONES))
def test_the_bare_address_says_what_to_do_and_never_spins(browser: Any, size: str) -> None:
    game, state = new_game(load_scenario(EXAMPLE), 1)
    page = browser.new_context(viewport=PHONES[size], device_scale_factor=2,
                               has_touch=True).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    with PageServer(game, state) as server:
        page.goto(server.url)
        choices = page.locator("#choices a")
        expect(choices).to_have_text(["Ana", "Ben", "Everyone (one device)"], timeout=WAIT)
        expect(page.locator("#choose h2")).to_have_text("Who are you?")
        badge = page.locator("#link")
        expect(badge).to_have_text("not joined yet")
        assert "connecting" not in badge.inner_text()
        how = page.locator("#choose-how")
        expect(how).to_be_visible()
        expect(how).to_contain_text("Tap your name")
        expect(how).to_contain_text("ask the host for your link")
        assert page.locator("#board-card").is_hidden()
        # the player's own page does connect
        choices.filter(has_text="Ana").click()
        expect(page.locator("#who")).to_have_text("· Ana", timeout=WAIT)
        expect(badge).to_have_text("live", timeout=WAIT)
    assert errors == []
