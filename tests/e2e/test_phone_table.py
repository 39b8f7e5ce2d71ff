"""The phone is the table (issue #36), in Debian's Chromium at a phone's 390x844 (2x) and a
tablet's 768x1024: the board's labels measured from the rendered SVG (at least 90% of those in
view 9 CSS px tall or more at the opening zoom, and still when zoomed out or pinched), the view
opening on what the question is about; a whole turning point played on two phones by taps
only, every question and its first answer within the first screen and no visible block of the
prompt card over 300 characters; and the host's page showing each player's link as a QR code
that decodes to the link."""

from __future__ import annotations

import math
import os
import re
from pathlib import Path
from typing import Any

import pytest

from tests.support import browser as b
from tests.support.api import scenario_path
from tests.support.browser import WAIT, Served, api_get, eventually
from tests.support.paths import SCENARIOS
from tests.support.phone_page import (
    PageServer,
    in_view,
    label_heights,
    legible_share,
    longest_block,
    moments,
    open_page,
    pinch,
    tap_board,
    zoom,
)
from tests.support.players import small_scenario
from tests.support.qr import decode_picture

EXAMPLE = SCENARIOS / "volkus-stronghold-supplement-example.yaml"
SIZES = {"phone": (b.VIEWPORTS["phone"], 2), "tablet": (b.VIEWPORTS["tablet"], 1)}


@pytest.fixture(scope="module")
def browser() -> Any:
    with b.launch() as chromium:
        yield chromium


def _focus_points(page: Any) -> list[tuple[float, float]]:
    """The focus box's centre and corners (inches), or nothing when the question has none."""
    box = page.evaluate("() => window.soloOpsPage.page.view.focus.box")
    if box is None:
        return []
    x0, y0, x1, y1 = box
    return [((x0 + x1) / 2, (y0 + y1) / 2), (x0, y0), (x0, y1), (x1, y0), (x1, y1)]


def test_the_board_s_labels_are_legible_and_it_opens_on_the_question(browser: Any) -> None:
    """Two scenarios' set-ups, then the first question after each of the co-op example's first
    two enemy activations (``bench/audit_phone_labels.py`` measures every shipped scenario and
    every activation of the game)."""
    pages = {name: browser.new_context(viewport=vp, device_scale_factor=k,
                                       has_touch=True).new_page()
             for name, (vp, k) in SIZES.items()}
    errors: list[str] = []
    for page in pages.values():
        page.on("pageerror", lambda e: errors.append(str(e)))
    server = None
    checked = []
    try:
        chosen = [EXAMPLE, SCENARIOS / "gallowdark-night-raid.yaml"]
        for what, game, state in moments(chosen, scenario_path(), 3, limit=2):
            server = server or PageServer(game, state)
            server.serve(game, state)
            for name, page in pages.items():
                open_page(page, f"{server.url}?host=1")
                heights = label_heights(page)
                assert len(heights) >= 5, (what, name)
                share = legible_share(heights)
                assert share >= 0.9, (what, name, sorted(heights, key=lambda x: x[1])[:5])
                checked.append((what, name, share))
                # the view opens on what the question is about, all of it (a shooter and
                # its target both on screen, zoomed out from the legible zoom if need be)
                for point in _focus_points(page):
                    assert in_view(page, *point), (what, name, point)
        assert len(checked) == 2 * 4
        # zoomed out to the whole board, then pinched in and out: the labels stay legible
        phone = pages["phone"]
        opening = zoom(phone)
        assert opening > 1.2  # a phone opens zoomed in (24 CSS px to the inch, or the focus)
        phone.locator("#zoom-fit").click()
        assert zoom(phone) == 1
        assert legible_share(label_heights(phone)) >= 0.9
        pinch(phone, 2.0)
        pinched = zoom(phone)
        assert 1.5 < pinched <= 2.5, pinched
        assert legible_share(label_heights(phone)) >= 0.9
        pinch(phone, 0.5)
        assert zoom(phone) < pinched
        assert legible_share(label_heights(phone)) >= 0.9
        assert errors == []
    finally:
        if server is not None:
            server.close()


def _asked(server: Served, player: str) -> dict[str, Any]:
    return api_get(f"{server.url}api/view", player=player).json()


def _first_screen(page: Any) -> None:
    """The question and its first answer are on the first screen (the page scrolled to its
    top), and no visible block of the prompt card holds more than 300 characters."""
    page.evaluate("() => window.scrollTo(0, 0)")
    height = page.viewport_size["height"]
    question = b.laid_out_box(page, page.locator("#prompt-text"))
    assert question is not None and question["y"] + question["height"] <= height
    from playwright.sync_api import expect

    first = page.locator("#options button, #move-kinds button").first
    expect(first).to_be_visible(timeout=WAIT)
    answer = b.laid_out_box(page, first)
    assert answer is not None and answer["y"] + answer["height"] <= height, (
        answer, page.locator("#prompt-card").inner_text()[:600])
    block = longest_block(page)
    assert len(block[1]) <= 300, block


def _card(page: Any, server: Served, player: str, ident: str) -> None:
    """Tap the active operative on the board: its card (name, wounds, order, weapons, what it
    can do now) shows over the board; close it."""
    card = _asked(server, player)["cards"][ident]
    tap_board(page, *card["xy"])
    page.locator("#model-card").wait_for(timeout=WAIT)
    assert page.locator("#card-body h3").inner_text() == f"{card['name']} ({ident})"
    facts = page.locator("#card-body .facts").inner_text()
    assert f"wounds {card['wounds']}" in facts and "order" in facts
    assert page.locator("#card-body .weapons li").all_inner_texts() == card["weapons"]
    assert page.locator("#card-body .now").first.inner_text().startswith("acting now: it can ")
    page.locator("#card-actions button", has_text="Close").click()
    assert page.locator("#model-card").is_hidden()


def _floor_near(view: dict[str, Any], ident: str) -> tuple[float, float]:
    """A point of the floor 2" or so from ``ident``, on the board and clear of every model,
    counter and objective (a tap there places the operative; a tap on a model shows its
    card)."""
    x, y = next(m for m in view["models"] if m["id"] == ident)["at"]
    g = view["board"]
    marks = [(c["xy"], c["radius"]) for c in view["cards"].values()]
    for dx, dy in ((0, 2), (2, 0), (-2, 0), (0, -2), (1.5, 1.5), (-1.5, 1.5), (0, 3), (3, 0)):
        px, py = x + dx, y + dy
        if 1 <= px <= g["width"] - 1 and 1 <= py <= g["depth"] - 1 and all(
                math.dist((px, py), at) > r + 0.6 for at, r in marks):
            return px, py
    raise AssertionError(f"no free floor near {ident}")


def _act(page: Any, server: Served, player: str, prompt: dict[str, Any],
         done: dict[str, set[str]], shots: str | None = None) -> bool:
    """One tap sequence of the active operative: a move (tap the floor, tap "move here"),
    else a shot (shoot, the target, solo-ops rolls), else done; whether it answered (a tap
    where no move is allowed only shows why)."""
    view = _asked(server, player)
    offers = view["offers"]
    ident = prompt["operative"]
    if "move" in offers["moves"] and ident not in done["moved"]:
        done["moved"].add(ident)
        tap_board(page, *_floor_near(view, ident))
        page.wait_for_function("() => !document.getElementById('preview').hidden || "
                               "document.getElementById('message').textContent", timeout=WAIT)
        here = page.locator("#preview-choices button[data-answer]")
        if page.locator("#preview").is_hidden():  # the base fits nowhere there: it says so
            assert page.locator("#message").inner_text().startswith("✗ ")
            return False
        if not here.count():  # no move the game takes there: it says why, the move is given up
            assert page.locator("#preview-text").inner_text()
            page.locator("#preview-choices button", has_text="Cancel").click()
            return False
        if shots and not Path(shots, "phone-move.png").exists():
            page.evaluate("() => window.scrollTo(0, 0)")
            page.screenshot(path=f"{shots}/phone-move.png")
        here.first.click()
        return True
    shoot = next((o for o in offers["offers"] if o.get("word") == "shoot"), None)
    if shoot is not None and ident not in done["shot"]:
        done["shot"].add(ident)
        page.locator("#options button[data-word=shoot]").click()
        page.locator("#options button[data-target]").first.click()
        if shots and not Path(shots, "phone-shot.png").exists():
            page.evaluate("() => window.scrollTo(0, 0)")
            page.screenshot(path=f"{shots}/phone-shot.png")
        page.locator("#options button.primary[data-answer]").first.click()
        return True
    page.locator("#options button[data-word=done]").click()
    return True


def _one_turning_point(folder: Path) -> Path:
    """The co-op example (seed 3: enemies in sight from the start), one turning point long,
    without CP re-roll questions."""
    text = scenario_path().read_text(encoding="utf-8").replace(
        "settings: {cp_rerolls: never}", "settings: {cp_rerolls: never, turns: 1}")
    path = folder / "one-turning-point.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_whole_turning_point_on_two_phones_by_taps_only(browser: Any, tmp_path: Path) -> None:
    shots = os.environ.get("SOLO_OPS_SCREENSHOTS")  # a folder: pictures for the guide
    server = Served(tmp_path, "serve", str(_one_turning_point(tmp_path)))
    try:
        pages = {p: browser.new_context(viewport=b.VIEWPORTS["phone"], device_scale_factor=2,
                                        has_touch=True).new_page() for p in ("Ana", "Ben")}
        errors: list[str] = []
        for name, page in pages.items():
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(server.links[name])
        done: dict[str, set[str]] = {"moved": set(), "shot": set(), "carded": set()}
        kinds: list[str] = []
        for _ in range(200):
            prompt = api_get(f"{server.url}api/view").json()["prompt"]
            if prompt["kind"] == "ended":
                break
            player = prompt["player"]
            page = pages[player]
            from playwright.sync_api import expect

            expect(page.locator("#prompt-text")).to_have_attribute(
                "data-step", str(prompt["step"]), timeout=WAIT)
            page.wait_for_function("() => !window.soloOpsPage.page.sending", timeout=WAIT)
            _first_screen(page)
            kinds.append(prompt["kind"])
            if prompt["kind"] == "act":
                if not done["carded"]:
                    _card(page, server, player, prompt["operative"])
                    done["carded"].add(prompt["operative"])
                if not _act(page, server, player, prompt, done, shots):
                    continue
            elif prompt["kind"] == "activate":  # on an Engage order, to shoot
                page.locator("#stances input[value=engage]").check()
                page.locator("#options button").first.click()
            else:  # a die to keep, a fight's next die, a cover save: the advised or first
                word = {"reroll": "keep", "counteract": "pass"}.get(prompt["kind"])
                buttons = page.locator("#options button")
                (buttons.filter(has_text=word).first if word else buttons.first).click()
            eventually(lambda p=prompt: api_get(f"{server.url}api/view")
                       .json()["prompt"] != p, f"the tap is answered: {prompt['text']}")
        else:
            raise AssertionError("the turning point did not end")
        # the turning point ended, played by taps: moves placed on the board, shots taken
        assert kinds.count("activate") >= 5 and len(done["moved"]) >= 4 and done["shot"], \
            (kinds, done)
        assert errors == []
    finally:
        server.stop()


# The page's answers held back (the server answers at once; the page hears it only on
# ``window.heldAnswers.release()``): a slow network or a busy phone, made certain.
HOLD_ANSWERS = """() => {
  const real = window.fetch;
  let release;
  const gate = new Promise((resolve) => { release = resolve; });
  window.heldAnswers = { release };
  window.fetch = async (url, opts) => {
    const reply = await real(url, opts);
    if (String(url).includes("api/answer")) await gate;
    return reply;
  };
}"""


def test_a_tap_on_the_board_while_the_last_answer_lands_is_placed_after_it(
        browser: Any, tmp_path: Path) -> None:
    """A player taps an operative, its board comes (the live connection is quicker than the
    answer's own reply) and the player taps where it goes: the tap is held while the answer is
    on its way and previewed once it lands, never dropped without a word."""
    from playwright.sync_api import expect

    server = Served(tmp_path, "serve", str(_one_turning_point(tmp_path)))
    try:
        prompt = api_get(f"{server.url}api/view").json()["prompt"]
        assert prompt["kind"] == "activate", prompt
        player = prompt["player"]
        page = browser.new_context(viewport=b.VIEWPORTS["phone"], device_scale_factor=2,
                                   has_touch=True).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server.links[player])
        expect(page.locator("#link")).to_have_text("live", timeout=WAIT)
        expect(page.locator("#options button").first).to_be_enabled(timeout=WAIT)
        page.evaluate(HOLD_ANSWERS)
        page.locator("#options button").first.click()
        # the next question's board is drawn while the answer's reply is still held
        page.wait_for_function("() => document.querySelectorAll('#board .drag-handle').length"
                               " === 1 && window.soloOpsPage.page.sending", timeout=WAIT)
        asked = _asked(server, player)
        ident = asked["prompt"]["operative"]
        tap_board(page, *_floor_near(asked, ident))
        assert page.locator("#preview").is_hidden()  # held: the answer has not landed
        page.evaluate("() => window.heldAnswers.release()")
        expect(page.locator("#preview")).to_be_visible(timeout=WAIT)
        expect(page.locator("#preview-text")).to_have_text(re.compile(rf"^{ident} to \("),
                                                           timeout=WAIT)
        assert errors == []
    finally:
        server.stop()


def test_the_host_s_page_shows_each_player_s_link_as_a_qr_code(browser: Any,
                                                                 tmp_path: Path) -> None:
    server = Served(tmp_path, "serve", str(small_scenario(tmp_path, coop=True)))
    try:
        page = browser.new_context(viewport=b.VIEWPORTS["tablet"]).new_page()
        page.goto(server.links["host"])
        codes = page.locator("#join figure.qr img")
        codes.first.wait_for(timeout=WAIT)
        assert codes.count() == 2
        shots = os.environ.get("SOLO_OPS_SCREENSHOTS")
        if shots:
            page.locator("#join").scroll_into_view_if_needed()
            page.locator("#join").screenshot(path=f"{shots}/host-join.png")
        for i, player in enumerate(("Ana", "Ben")):
            img = codes.nth(i)
            alt = img.get_attribute("alt") or ""
            assert "QR" in alt and player in alt
            assert decode_picture(img.screenshot()) == [server.links[player]]
        # a player's own page shows no one's link
        ana = browser.new_context(viewport=b.VIEWPORTS["phone"]).new_page()
        ana.goto(server.links["Ana"])
        ana.locator("#prompt-text[data-step]").wait_for(timeout=WAIT)
        assert ana.locator("#join").is_hidden() and ana.locator("figure.qr").count() == 0
    finally:
        server.stop()


SMALL_PHONE = {"width": 360, "height": 640}
"""The smallest phone the group plays on (a tester's 360x640)."""


def test_a_small_phone_keeps_whose_page_it_is_and_each_answer_on_the_screen(
        browser: Any, tmp_path: Path) -> None:
    """At 360x640: the header names the player beside a long scenario name; a tap on the floor
    opens the move's preview with its "move here" on the screen (it used to open below it);
    after the answer, the next question shows the board again below the sticky header; and
    the order chosen for one activation is not carried to the next activation's buttons."""
    server = Served(tmp_path, "serve", str(_one_turning_point(tmp_path)))
    try:
        page = browser.new_context(viewport=SMALL_PHONE, device_scale_factor=2,
                                   has_touch=True).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server.links["Ana"])
        page.locator("#prompt-text[data-step]").wait_for(timeout=WAIT)
        who = page.locator("#who").bounding_box()
        assert page.locator("#who").inner_text() == "· Ana"
        assert who is not None and who["x"] + who["width"] <= SMALL_PHONE["width"]
        prompt = _asked(server, "Ana")["prompt"]
        assert prompt["kind"] == "activate" and prompt["player"] == "Ana", prompt
        page.locator("#stances input[value=engage]").check()
        page.locator("#options button").first.click()
        from playwright.sync_api import expect

        eventually(lambda: _asked(server, "Ana")["prompt"]["kind"] == "act", "an act question")
        page.wait_for_function("() => !window.soloOpsPage.page.sending", timeout=WAIT)
        view = _asked(server, "Ana")
        tap_board(page, *_floor_near(view, view["prompt"]["operative"]))
        here = page.locator("#preview-choices button[data-answer]").first
        expect(here).to_be_visible(timeout=WAIT)
        page.wait_for_timeout(300)  # the page's own scroll, if any, has happened
        box = here.bounding_box()
        assert box is not None and box["y"] + box["height"] <= SMALL_PHONE["height"], box
        step = view["prompt"]["step"]
        here.click()
        expect(page.locator("#prompt-text")).not_to_have_attribute("data-step", str(step),
                                                                   timeout=WAIT)
        page.wait_for_function("() => !window.soloOpsPage.page.sending", timeout=WAIT)
        header = page.locator("#top").bounding_box()
        board = page.locator("#board-card").bounding_box()
        assert header is not None and board is not None
        assert board["y"] >= header["y"] + header["height"] - 1, (board, header)
        # the order chosen for the last activation is not carried to the next activation's
        # buttons: each new question starts from "as it is"
        assert page.locator("#stances input[value='']").is_checked()
        assert errors == []
    finally:
        server.stop()
