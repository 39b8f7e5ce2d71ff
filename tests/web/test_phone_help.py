"""The page's help is a phone's: Help (the button, or ``help`` typed in the answer box) says
what to tap and what each kind of button does, in the page's own letters, with the typed answers
folded under it as an alternative — none of the terminal's keys, files or commands. In Debian's
Chromium at 390x844, and through the API for both editions (:func:`solo_ops.web.api.page_help`,
:func:`solo_ops.web.api.typed_help`)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from solo_ops.web.api import page_help, typed_help
from tests.support import browser as b
from tests.support.api import scenario_path
from tests.support.browser import WAIT
from tests.support.phone_page import PageServer, moments, open_page

TERMINAL = ("At the keyboard", "arrow keys", "Tab completes", "map FILE", "--resume",
            "terminal")
"""Words of the terminal's help that mean nothing on a phone (the page's help names the
terminal nowhere: typing is "type an answer")."""


@pytest.fixture(scope="module")
def browser() -> Any:
    with b.launch() as chromium:
        yield chromium


def test_help_on_a_phone_says_what_to_tap(browser: Any) -> None:
    # the co-op example at a player's question (after the enemy's first activation)
    _, game, state = next(moments([], scenario_path(), 3, limit=1))
    page = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                               has_touch=True).new_page()
    with PageServer(game, state) as server:
        open_page(page, f"{server.url}?host=1")
        page.locator("#tools button", has_text="Help").click()
        message = page.locator("#message")
        expect(message).to_contain_text("you answer by tapping", timeout=WAIT)
        shown = message.inner_text()
        for words in ("tap the board to:", "why not?", "adjust", "solo-ops rolls",
                      "Undo takes back", "type an answer", "engage or conceal"):
            assert words in shown, words
        for words in TERMINAL:
            assert words not in shown, words
        # the typed answers, folded: an alternative, one tap away
        typed = message.locator("details.typed-help")
        expect(typed).to_have_count(1)
        assert typed.get_attribute("open") is None
        typed.locator("summary").click()
        expect(typed).to_contain_text("shoot u3-a with boltgun damage 3")
        expect(typed).to_contain_text("At any prompt: help, status, undo")
        for words in TERMINAL[:4]:
            assert words not in typed.inner_text(), words
        # the help's paragraphs read as text, not as the terminal's columns
        font = message.evaluate("el => getComputedStyle(el.querySelector('.line')).fontFamily")
        assert "monospace" not in font
        # typed at the page, help says the same
        page.locator("#type-box summary").click()
        page.locator("#answer").fill("help")
        page.locator("#send").click()
        expect(message.locator("details.typed-help")).to_have_count(1, timeout=WAIT)
        expect(message).to_contain_text("you answer by tapping")


@pytest.mark.parametrize("edition", ["kt2024", "kt2018"])
def test_the_page_help_is_the_edition_s(edition: str) -> None:
    said = page_help(edition)
    typed = typed_help(edition)
    assert "tap" in said and "type an answer" in said
    assert ("engage or conceal" in said) == (edition == "kt2024")
    assert ("this phase" in said) == (edition == "kt2018")
    for words in TERMINAL:
        assert words not in said, words
    for words in TERMINAL[:4]:
        assert words not in typed, words
    assert typed.startswith("What you can answer")
    assert all(len(line) <= 300 for line in said.splitlines())
