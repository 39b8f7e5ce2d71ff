"""A complaint on the phone goes once it is no longer true, in Debian's Chromium at 390x844: "the
server cannot be reached" goes when the page reaches the server again (docs/guide.md: the
page "picks the game up by itself when the server is back"), and a refused answer's "✗ ..."
goes when the game moves on to another question (it answered the old one). A phone tester saw
the first stay under a green "live" badge, and another player's refused undo stay into their
own next question."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from solo_ops.game.engine import new_game, pending, step
from solo_ops.io.scenario import load_scenario
from solo_ops.sim import autopilot
from tests.support import browser as b
from tests.support.browser import WAIT, api_get, api_post, eventually
from tests.support.paths import SCENARIOS
from tests.support.phone_page import PageServer, open_page

EXAMPLE = SCENARIOS / "volkus-stronghold-supplement-example.yaml"


@pytest.fixture(scope="module")
def browser() -> Any:
    with b.launch() as chromium:
        yield chromium


@pytest.fixture()
def phone(browser: Any) -> Iterator[Any]:
    with b.phone_page(browser) as page:
        yield page


def at_first_reroll() -> tuple[Any, Any]:
    """The co-op example's seed-218 game at its first question: a CP re-roll (step 3)."""
    game, state = new_game(load_scenario(EXAMPLE), 218)
    while (prompt := pending(game, state)).kind != "reroll":
        if prompt.kind == "engine":
            step(game, state, {"type": "engine"})
        else:
            autopilot.answer(game, state, prompt, "objective")
    return game, state


def the_step(server: PageServer) -> int:
    return int(api_get(f"{server.url}api/view").json()["prompt"]["step"])


def message(phone: Any) -> tuple[str, bool]:
    box = phone.locator("#message")
    return box.text_content() or "", "bad" in (box.get_attribute("class") or "")


def test_the_server_unreachable_goes_once_the_page_reaches_it_again(phone: Any) -> None:
    game, state = at_first_reroll()
    with PageServer(game, state) as server:
        open_page(phone, f"{server.url}?host=1")
        phone.route("**/api/answer", lambda route: route.abort("failed"))
        phone.locator("#options button").first.click()
        phone.wait_for_function(
            "() => /cannot be reached/.test(document.querySelector('#message').textContent)",
            timeout=WAIT)
        phone.unroute("**/api/answer")
        phone.evaluate("() => window.soloOpsPage.refresh()")  # the server answers again
        eventually(lambda: message(phone) == ("", False), "the complaint goes")
        assert the_step(server) == 3  # nothing was answered on the way


def test_a_refusal_goes_when_the_game_moves_on(phone: Any) -> None:
    game, state = at_first_reroll()
    with PageServer(game, state) as server:
        open_page(phone, f"{server.url}?host=1")
        phone.evaluate("() => window.soloOpsPage.send('flarp')")
        eventually(lambda: message(phone)[1], "the answer is refused")
        assert message(phone)[0].startswith("✗")
        phone.evaluate("() => window.soloOpsPage.refresh()")  # the same question: it stays
        assert message(phone)[1]
        # answered elsewhere (another phone, the host's page): the live connection tells it
        answered = api_post(f"{server.url}api/answer", {"answer": "keep", "step": 3})
        assert answered.status_code == 200, answered.text
        eventually(lambda: the_step(server) == 4, "the game moves on")
        eventually(lambda: message(phone) == ("", False), "the old refusal goes")
