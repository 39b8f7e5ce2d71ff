"""A tap is never lost to the page keeping up: in Debian's Chromium at a phone's 390x844, a
finger pressed on an answer's button while the live connection refreshes the same question
(its records and prompt arrive in turn, and an answer refreshes once more) is still that
answer when it lifts: the question's buttons and the answer box's chips are left as they are,
not rebuilt under the finger (a rebuilt button takes no tap, and nothing said so). A shot's
open choices stay open through such a refresh. An answer tapped while the last one is still on
its way (held here by a route, not by the machine's speed) is said, never dropped quietly."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from solo_ops.game.engine import new_game, pending, step
from solo_ops.io.scenario import load_scenario
from solo_ops.sim import autopilot
from tests.support import browser as b
from tests.support.browser import WAIT, api_get, eventually
from tests.support.paths import SCENARIOS
from tests.support.phone_page import PageServer, open_page

EXAMPLE = SCENARIOS / "volkus-stronghold-supplement-example.yaml"
REFRESH = "() => window.soloOpsPage.refresh()"
"""The page's refresh, as the live connection starts it (resolves once the page shows it)."""


@pytest.fixture(scope="module")
def browser() -> Any:
    with b.launch() as chromium:
        yield chromium


def game_at(kind: str) -> tuple[Any, Any]:
    """The co-op example's seed-218 game at its first player's question of ``kind`` (the
    autopilot answers the ones before: 3 reroll, 5 activate, 6 act Ana's rask)."""
    game, state = new_game(load_scenario(EXAMPLE), 218)
    while (prompt := pending(game, state)).kind != kind:
        if prompt.kind == "engine":
            step(game, state, {"type": "engine"})
        else:
            autopilot.answer(game, state, prompt, "objective")
    return game, state


@pytest.fixture()
def phone(browser: Any) -> Iterator[Any]:
    with b.phone_page(browser) as page:
        yield page


def the_step(server: PageServer) -> int:
    return int(api_get(f"{server.url}api/view").json()["prompt"]["step"])


def press_refresh_lift(page: Any, locator: Any) -> None:
    """A finger on ``locator``'s middle; the page refreshes the same question; the finger
    lifts (the press and the release a tap is made of, with the refresh between them)."""
    box = locator.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.evaluate(REFRESH)
    page.mouse.up()


def test_a_button_pressed_as_the_page_refreshes_still_answers(phone: Any) -> None:
    game, state = game_at("reroll")
    with PageServer(game, state) as server:
        open_page(phone, f"{server.url}?host=1")
        asked = the_step(server)
        assert asked == 3
        button = phone.locator("#options button").first
        assert button.text_content() == "reroll 2"
        press_refresh_lift(phone, button)
        eventually(lambda: the_step(server) == 4, "the tap answers")
        assert server.app.app.state.server.table.state.log[3]["action"] == \
            {"type": "reroll", "die": 2}  # the button pressed, not another


def test_a_chip_pressed_as_the_page_refreshes_is_still_typed(phone: Any) -> None:
    """The corrections' way (adjust, down…, the operative's chip, Send) with a refresh on
    the chip: the answer is still ``down rask`` and it lands."""
    game, state = game_at("act")
    with PageServer(game, state) as server:
        open_page(phone, f"{server.url}?host=1")
        assert the_step(server) == 6
        phone.locator("#adjust summary").click()
        phone.locator("#adjust-buttons button", has_text="down…").click()
        press_refresh_lift(phone, phone.locator("#chips button", has_text="rask").first)
        assert phone.locator("#answer").input_value() == "down rask "
        phone.locator("#send").click()
        eventually(lambda: the_step(server) > 6, "the typed answer lands")


def test_a_shot_s_choices_stay_open_through_a_refresh(phone: Any) -> None:
    game, state = game_at("act")
    with PageServer(game, state) as server:
        open_page(phone, f"{server.url}?host=1")
        shoot = phone.locator("#options button[data-word=shoot]")
        shoot.first.click()
        choices = phone.locator("#options button")
        shown = choices.all_text_contents()
        assert shown[0] == "← back" and len(shown) > 1
        phone.evaluate(REFRESH)
        assert choices.all_text_contents() == shown
        choices.first.click()  # back: the question's own offers again
        assert phone.locator("#options button[data-word=shoot]").count() == 1


def test_an_answer_tapped_while_the_last_is_on_its_way_is_said(phone: Any) -> None:
    game, state = game_at("reroll")
    with PageServer(game, state) as server:
        open_page(phone, f"{server.url}?host=1")
        held: list[Any] = []
        phone.route("**/api/answer", lambda route: held.append(route))
        phone.locator("#options button").first.click()
        phone.wait_for_function("() => window.soloOpsPage.page.sending", timeout=WAIT)
        phone.evaluate("() => window.soloOpsPage.send('keep')")  # e.g. a model card's button
        message = phone.locator("#message")
        assert "Not sent: \"keep\"" in message.text_content()
        assert "bad" in (message.get_attribute("class") or "")
        assert len(held) == 1
        held[0].continue_()
        eventually(lambda: the_step(server) == 4, "the first answer lands")
