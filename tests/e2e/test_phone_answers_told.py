"""What a phone tells of an answer, in Debian's Chromium at 390x844 (found by a phone tester):

* a Kill Team 2018 Retreat is answered by tapping the board, as a move is (it could only be
  typed as coordinates), and what it did is said by the buttons (a shot's dice and damage were
  only in "What happened", below the screen);
* a view lost while the live connection held is fetched again by itself (the page stayed on
  the old step, "live" beside "cannot be reached", until the next answer anywhere);
* an answer to a question another phone answered first says it was not sent (it vanished).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from solo_ops.game.engine import new_game, pending, step
from solo_ops.io.scenario import load_scenario
from tests.support import browser as b
from tests.support.browser import WAIT, api_get, eventually
from tests.support.paths import SCENARIOS
from tests.support.phone_page import PageServer, open_page

CRYPT = SCENARIOS / "crypt-objective-ultima.yaml"


@pytest.fixture(scope="module")
def browser() -> Any:
    with b.launch() as chromium:
        yield chromium


@pytest.fixture()
def phone(browser: Any) -> Iterator[Any]:
    with b.phone_page(browser) as page:
        yield page


def at_the_charge() -> tuple[Any, Any]:
    """Seed 5 of the 2018 crypt: its first question, flayed-one-9's charge at Gunner Rask
    (at 2.25, 12.75), who may React with Overwatch or a Retreat of up to 3"."""
    game, state = new_game(load_scenario(CRYPT), 5)
    while (prompt := pending(game, state)).kind == "engine":
        step(game, state, {"type": "engine"})
    assert (prompt.kind, prompt.operative) == ("reaction", "rask")
    return game, state


def message(phone: Any) -> str:
    return phone.locator("#message").text_content() or ""


def test_a_retreat_is_tapped_on_the_board_and_its_outcome_said(phone: Any) -> None:
    game, state = at_the_charge()
    with PageServer(game, state) as server:
        open_page(phone, f"{server.url}?host=1")
        geom = api_get(f"{server.url}api/view").json()["board"]
        phone.locator("#board svg").scroll_into_view_if_needed()
        phone.mouse.click(*b.board_point(phone, geom, 3.81, 11.81))
        choice = phone.locator("#preview-choices button", has_text="retreat here")
        choice.wait_for(timeout=WAIT)
        assert choice.get_attribute("data-answer") == "retreat 3.8in,11.8in"
        choice.click()
        eventually(lambda: state.operatives["rask"].at == (3.8, 11.8), "rask retreats")
        eventually(lambda: message(phone).startswith("Gunner Rask Retreats from (2.2, 12.8)"),
                   "the retreat said by the buttons")


def test_a_view_lost_while_the_live_connection_held_is_fetched_again(phone: Any) -> None:
    game, state = at_the_charge()
    with PageServer(game, state) as server:
        open_page(phone, f"{server.url}?host=1")
        phone.route("**/api/view*", lambda route: route.abort("failed"))
        phone.evaluate("() => window.soloOpsPage.refresh()")
        phone.wait_for_function(
            "() => /cannot be reached/.test(document.querySelector('#message').textContent)"
            " && document.querySelector('#link').textContent === 'reconnecting…'",
            timeout=WAIT)
        step(game, state, {"type": "reaction", "react": "none"})  # the game moves on meanwhile
        phone.unroute("**/api/view*")
        eventually(lambda: phone.evaluate("() => window.soloOpsPage.page.steps")
                   == len(state.log), "the page catches up by itself")
        eventually(lambda: message(phone) == "", "the complaint goes")


def test_an_answer_another_phone_gave_first_says_it_was_not_sent(phone: Any) -> None:
    game, state = at_the_charge()
    with PageServer(game, state) as server:
        open_page(phone, f"{server.url}?host=1")
        asked = phone.evaluate("() => window.soloOpsPage.page.prompt.step")
        phone.evaluate("() => window.soloOpsPage.send('retreat 25,20')")  # refused: too far
        eventually(lambda: message(phone).startswith("✗"), "the refusal said")
        step(game, state, {"type": "reaction", "react": "none"})  # another phone, first
        phone.evaluate(f"() => {{ window.soloOpsPage.page.prompt.step = {asked}; }}")
        phone.evaluate("() => window.soloOpsPage.send('no')")
        eventually(lambda: "this question was answered first from another phone"
                   in message(phone), "the lost answer said")
        assert len(state.log) == asked + 1  # one answer taken, not two
