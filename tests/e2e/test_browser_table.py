"""The table view in a real browser (Debian's Chromium through Playwright, one browser for the
session; see tests/support/browser.py): two players play the supplement's co-op example on a
phone and a tablet by tapping — every button tapped twice, answered once — the server is killed
mid-game and started again and the old links answer on, a tap into an enemy's control range
offers only the fall back, then the game goes on at the terminal. The labels of every shipped
scenario's set-up and of each enemy activation of a game never meet at a phone's, a tablet's and
a laptop's size."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from solo_ops.core.dice import CURRENT
from solo_ops.game.engine import new_game, pending, step
from solo_ops.io.scenario import load_scenario
from solo_ops.sim import autopilot
from solo_ops.view.board_view import Focus
from solo_ops.view.player import player_record, player_view
from solo_ops.web import board
from tests.support import browser as b
from tests.support.api import scenario_path
from tests.support.browser import (
    WAIT,
    Served,
    api_get,
    eventually,
    label_boxes_by_board,
    meeting,
    tap,
)
from tests.support.paths import SCENARIOS
from tests.support.phone_page import longest_block
from tests.support.players import cli_here
from tests.support.saves import saved_game

SCENARIO = SCENARIOS / "volkus-stronghold-supplement-example.yaml"


@pytest.fixture(scope="module")
def browser() -> Any:
    """One Chromium for every browser test (they all live here): started once, and closed
    before the next module, whose in-process API clients run event loops of their own."""
    with b.launch() as chromium:
        yield chromium
TWO_PLAYERS_SEED = 368
SAVE = Path("saves") / f"volkus-stronghold-supplement-example-{TWO_PLAYERS_SEED}.json"
"""The two players' game: the co-op example's seed 368 (the keyed dice), where the enemy shoots
first, Kell's tap is 3.8" away and Idris is in cultist-7's control range when Ben is asked."""


def bases(page: Any) -> list[str]:
    """The model bases drawn on a page's board (their SVG elements, sorted)."""
    return sorted(re.findall(r'<circle class="base [^>]*>', page.inner_html("#board svg")))


def api_prompt(server: Served) -> dict[str, Any]:
    return api_get(f"{server.url}api/view").json()["prompt"]


def keep_tapping(server: Served, pages: dict[str, Any]) -> int:
    """Tap ``keep`` twice on every CP re-roll question (on the page of the player asked) until
    another prompt comes; how many questions there were."""
    from playwright.sync_api import expect

    answered = 0
    while (asked := api_prompt(server))["kind"] == "reroll":
        page = pages[asked["player"]]
        expect(page.locator("#prompt-text")).to_have_text(asked["text"], timeout=WAIT)
        page.locator("#options button", has_text="keep").dblclick()
        eventually(lambda asked=asked: api_prompt(server) != asked, "the question is answered")
        answered += 1
    return answered


def test_two_players_tap_twice_restart_and_go_on_at_the_terminal(browser: Any,
                                                                 tmp_path: Path) -> None:
    from playwright.sync_api import expect

    # seed 368 (the keyed dice): the enemy shoots first (a CP re-roll question), and when Ben
    # is asked Idris stands within 1" of cultist-7, which came to it
    saved_game(SCENARIO, TWO_PLAYERS_SEED, tmp_path / SAVE, CURRENT)
    server = Served(tmp_path, "serve", "--resume", str(SAVE))
    port = server.port
    shots = os.environ.get("SOLO_OPS_SCREENSHOTS")  # a folder: pictures for the guide
    try:
        assert set(server.links) == {"Ana", "Ben", "host"} and "token=" in server.links["Ana"]
        ana = browser.new_context(viewport=b.VIEWPORTS["phone"], device_scale_factor=2,
                                  has_touch=True).new_page()
        ben = browser.new_context(viewport=b.VIEWPORTS["tablet"]).new_page()
        errors: list[str] = []
        for page in (ana, ben):
            page.on("pageerror", lambda e: errors.append(str(e)))
        ana.goto(server.links["Ana"])
        ben.goto(server.links["Ben"])
        expect(ana.locator("#link")).to_have_text("live", timeout=WAIT)
        # the score line: both sides' CP (the enemy's lie open, as at a table)
        expect(ana.locator("#score")).to_have_text(
            re.compile(r"^Turning point 1 · VP you 0 / solo-ops 0 · CP you \d+ / solo-ops \d+$"),
            timeout=WAIT)
        # the enemy shot first: Ben's CP re-roll questions, each "keep" tapped twice
        rerolls = keep_tapping(server, {"Ana": ana, "Ben": ben})
        assert rerolls >= 1
        expect(ana.locator("#prompt-text")).to_have_text("Ana: which operative do you activate?",
                                                         timeout=WAIT)
        expect(ben.locator("#waiting")).to_have_text("Waiting for Ana…", timeout=WAIT)
        expect(ben.locator("#options button")).to_have_count(0)
        # Ana taps Kell twice, taps the board 2" right and 3" up, taps "move here" twice
        ana.locator("#options button", has_text="kell").dblclick()
        expect(ben.locator("#prompt-text")).to_have_text("Ana: what did Sgt Kell do?",
                                                         timeout=WAIT)
        geom = api_get(f"{server.url}api/view").json()["board"]
        tap(ana, geom, 17.75, 1.75)
        expect(ana.locator("#preview-text")).to_have_text(
            'kell to (17.8, 1.8): 3.8" around the walls; it can move 6.0" — within the move',
            timeout=WAIT)
        expect(ana.locator("#board .ghost")).to_have_count(1)
        ana.locator("#preview-choices button", has_text="move here").dblclick()
        expect(ben.locator("#narration li").last).to_contain_text("Sgt Kell", timeout=WAIT)
        ana.locator("#options button", has_text="done").dblclick()
        eventually(lambda: api_prompt(server)["text"] != "Ana: what did Sgt Kell do?",
                   "Kell's activation ends")
        rerolls += keep_tapping(server, {"Ana": ana, "Ben": ben})
        expect(ben.locator("#prompt-text")).to_have_text("Ben: which operative do you activate?",
                                                         timeout=WAIT)
        # the server is killed: the pages say they are reconnecting; started again on the
        # same port, the old links (their tokens kept in the save) answer on
        server.stop(kill=True)
        expect(ana.locator("#link")).to_have_text("reconnecting…", timeout=WAIT)
        expect(ben.locator("#link")).to_have_text("reconnecting…", timeout=WAIT)
        server = Served(tmp_path, "serve", "--resume", str(SAVE), port=port)
        assert (server.links["Ana"], server.links["Ben"]) == (ana.url, ben.url)
        expect(ben.locator("#link")).to_have_text("live", timeout=WAIT)
        expect(ana.locator("#link")).to_have_text("live", timeout=WAIT)
        for page in (ana, ben):  # a complaint made while the server was down is gone
            expect(page.locator("#message")).not_to_contain_text("cannot be reached",
                                                                 timeout=WAIT)
        # Ben activates Idris, within 1" of cultist-7: only the fall back (and a fight) is
        # offered, and a tap previews only what the rules allow there
        ben.locator("#options button", has_text="idris").dblclick()
        expect(ben.locator("#prompt-text")).to_have_text("Ben: what did Scout Idris do?",
                                                         timeout=WAIT)
        expect(ben.locator("#move-kinds button")).to_have_text(["fall back"])
        expect(ben.locator("#options button", has_text="fight")).to_have_count(1)
        expect(ben.locator("#options button", has_text="shoot")).to_have_count(0)
        expect(ben.locator("#why-not")).to_contain_text("in control range of cultist-7")
        tap(ben, geom, 9.5, 6.6)
        expect(ben.locator("#preview-choices button")).to_have_text(["fall back here",
                                                                     "Cancel"], timeout=WAIT)
        expect(ben.locator("#preview-refused")).to_contain_text(
            "Not here — move: Scout Idris is in control range of cultist-7")
        if shots:
            ben.wait_for_timeout(2600)  # the newest narration's highlight fades
            ben.screenshot(path=f"{shots}/table-view-tablet.png")
            ana.evaluate("window.scrollTo(0, 0)")
            ana.screenshot(path=f"{shots}/table-view-phone.png")
        ben.locator("#preview-choices button", has_text="fall back here").dblclick()
        expect(ben.locator("#narration li").last).to_contain_text("Scout Idris",
                                                                  timeout=WAIT)
        ben.locator("#tools button", has_text="Undo").dblclick()  # one answer taken back
        expect(ben.locator("#message")).to_contain_text("Undone: 'move idris fall_back",
                                                        timeout=WAIT)
        expect(ben.locator("#prompt-text")).to_have_text("Ben: what did Scout Idris do?")
        expect(ben.locator("#send")).to_be_enabled(timeout=WAIT)  # the undo has landed
        ben.locator("#type-box summary").click()  # typing is one tap away, under the answers
        ben.fill("#answer", "nobody")
        ben.locator("#send").click()
        expect(ben.locator("#message")).to_have_text(
            "✗ I don't understand 'nobody'; type 'help' for the words I know", timeout=WAIT)
        ben.locator("#options button", has_text="done").dblclick()
        expect(ben.locator("#prompt-text")).not_to_have_text("Ben: what did Scout Idris do?",
                                                             timeout=WAIT)
        # both pages: the same prompt, narration and board
        expect(ana.locator("#prompt-text")).to_have_text(
            ben.locator("#prompt-text").inner_text(), timeout=WAIT)
        view = api_get(f"{server.url}api/view").json()
        told = sum(1 for item in view["narration"] if item["lines"])
        for page in (ana, ben):
            expect(page.locator("#narration li")).to_have_count(told, timeout=WAIT)
        eventually(lambda: ana.inner_text("#narration") == ben.inner_text("#narration"),
                   "both pages show the same narration")
        eventually(lambda: bases(ana) == bases(ben), "both pages show the same board")
        assert len(bases(ana)) >= 7
        ana.reload()  # a page reloaded mid-game shows the same table
        expect(ana.locator("#narration li")).to_have_count(told, timeout=WAIT)
        eventually(lambda: bases(ana) == bases(ben), "the reloaded page shows the same board")
        assert errors == []
        prompt = view["prompt"]
        busy = subprocess.run([sys.executable, "-m", "solo_ops", "play", "--resume",
                               str(SAVE), "--answer", "status"], cwd=tmp_path,
                              capture_output=True, text=True, timeout=120)
        assert busy.returncode == 2 and "in use by another terminal" in busy.stderr
    finally:
        server.stop()
    # the terminal goes on with the game the browser played
    # (in this process: what the command does is under test here, not its process)
    resumed = cli_here("play", "--resume", str(SAVE), "--json", cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    lines = [json.loads(x) for x in resumed.stdout.splitlines() if x.startswith("{")]
    assert lines[0] == {"prompt": prompt}
    doc = json.loads((tmp_path / SAVE).read_text())
    answers = [a for a in doc["actions"] if a["type"] != "engine"]
    assert sum(a["type"] == "reroll" for a in answers) == rerolls  # each "keep" taken once
    assert [(a["type"], a.get("operative")) for a in answers if a["type"] != "reroll"] == [
        ("activate", "kell"), ("move", "kell"), ("done", "kell"), ("activate", "idris"),
        ("done", "idris")]
    assert next(a for a in answers if a["type"] == "move") == {
        "type": "move", "how": "reposition", "to": [17.75, 1.75], "operative": "kell"}
    replay = cli_here("replay", str(SAVE.with_suffix(".log.jsonl")), "--json", cwd=tmp_path)
    assert replay.returncode == 0 and json.loads(replay.stdout)["identical"] is True


# -- labels -------------------------------------------------------------------------------------
def _svgs() -> list[tuple[str, str]]:
    """The boards to check: every shipped scenario's set-up, then the supplement's co-op
    example (CP re-rolls left aside) after each enemy activation, played by the autopilot —
    each as the map draws it and as a phone's (every model and door labelled, in the phone's
    larger letters: the most a phone's picture ever labels)."""
    out = []
    for path in sorted(SCENARIOS.glob("*.yaml")):
        game, state = new_game(load_scenario(path), 1)
        out.append((f"{path.stem} set-up", _svg(game, state)))
        out.append((f"{path.stem} set-up (phone)", _svg(game, state, phone=True)))
    game, state = new_game(load_scenario(scenario_path()), 3)
    while (prompt := pending(game, state)).kind != "ended":
        if prompt.kind == "engine":
            record = step(game, state, {"type": "engine"})
            if any(e.get("type") == "enemy_activation" for e in record["events"]):
                out.append((f"activation at step {record['n']}", _svg(game, state)))
                out.append((f"activation at step {record['n']} (phone)",
                            _svg(game, state, phone=True)))
            continue
        autopilot.answer(game, state, prompt, "objective")
    return out


def _svg(game: Any, state: Any, phone: bool = False) -> str:
    view = player_view(game, state)
    focus = None
    if phone:
        every = [o["id"] for ops in view["squads"].values() for o in ops]
        focus = Focus(frozenset(every + [o["id"] for o in view["enemies"]]), None)
    return board.board_svg(game, state, view, [player_record(r) for r in state.log], focus)


def test_labels_never_meet_at_three_sizes(browser: Any) -> None:
    svgs = _svgs()
    assert len(svgs) >= 2 * (7 + 12)
    css = (Path(board.__file__).parent / "static" / "app.css").read_text()
    checked = 0
    for name, size in b.VIEWPORTS.items():
        # every board on one page at this size, each in a board card of its own as the table
        # view lays it out (the same width as alone: the cards share the page's one column),
        # its labels measured apart from the other boards'
        page = browser.new_page(viewport=size)
        cards = "".join(f"<section id='board-card' class='card'><div id='board'>"
                        f"{svg.split('?>', 1)[1]}</div></section>" for _what, svg in svgs)
        page.set_content(f"<html><head><style>{css}</style></head><body><main>{cards}</main>"
                         f"</body></html>")
        page.evaluate("() => document.querySelectorAll('#board svg').forEach(s => { "
                      "s.removeAttribute('width'); s.removeAttribute('height'); })")
        every = label_boxes_by_board(page)
        assert len(every) == len(svgs), name
        for (what, _svg), boxes in zip(svgs, every, strict=True):
            assert len(boxes) >= 10, (name, what)
            assert meeting(boxes) == [], (name, what)
            checked += 1
        page.close()
    assert checked == 3 * len(svgs)


# -- a fight die by die ---------------------------------------------------------------------------
def test_a_fight_die_by_die_with_the_advised_button(browser: Any, tmp_path: Path) -> None:
    """Issue 28 item 1 on the page: Tam fights e1 (tests/game/test_fight_choices.py: seed 17, Tam
    rolls 3 4 5, e1 rolls 1 3 6: the game saved on the first dice scheme, served on), started
    by taps (fight, e1, solo-ops rolls); the next die's moves are buttons, the engine's advice
    (block e1's crit with Tam's crit) is the one starred primary button, and tapping it plays
    it."""
    from playwright.sync_api import expect

    from tests.support.fight_games import saved_fight

    server = Served(tmp_path, "serve", "--resume", str(saved_fight(tmp_path)))
    try:
        page = browser.new_context(viewport=b.VIEWPORTS["phone"], has_touch=True).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server.links.get("Ana") or server.links.get("host") or server.url)
        expect(page.locator("#prompt-text")).to_have_text("Ana: which operative do you activate?",
                                                          timeout=WAIT)
        page.locator("#options button", has_text="tam").click()
        expect(page.locator("#prompt-text")).to_have_text("Ana: what did Tam do?", timeout=WAIT)
        # the tap's answer has landed (the live connection can show the next question first;
        # the box is disabled until then, and its landing empties the box: typed only after)
        expect(page.locator("#answer")).to_be_enabled(timeout=WAIT)
        # the answer box's chips follow the words typed: a number only where one goes, nothing
        # once the answer is whole (they offered "roll", "damage", "with" after the damage)
        chips, numbers = page.locator("#chips button"), [str(n) for n in range(11)]
        for typed, then in [("shoot e1 ", ["roll", "damage", "with"]),
                            ("shoot e1 with gun ", ["roll", "damage"]),
                            ("shoot e1 with gun damage ", numbers),
                            ("shoot e1 with gun damage 3 ", []), ("shoot e1 roll ", []),
                            ("fight e1 ", ["roll", "dealt"]), ("fight e1 dealt ", numbers),
                            ("fight e1 dealt 2 ", ["taken"]),
                            ("fight e1 dealt 2 taken ", numbers), ("fight e1 roll ", [])]:
            page.evaluate("(w) => fill(w)", typed)
            if then:
                expect(chips).to_have_text(then, timeout=WAIT)
            else:
                expect(chips).to_have_count(0, timeout=WAIT)
        page.evaluate("() => { fill(''); document.getElementById('type-box').open = false; }")
        page.locator("#options button[data-word=fight]").click()
        page.locator("#options button[data-target=e1]").click()
        page.locator("#options button[data-answer='fight e1 roll']").click()
        eventually(lambda: api_prompt(server)["kind"] == "fight", "the fight's first question")
        assert api_prompt(server)["options"] == ["strike 1", "strike 2", "block 1", "block 2",
                                                 "block 1 2", "auto", "auto all"]
        buttons = page.locator("#options button")
        # each move's button says what it leads to (data.options: dealt and taken)
        options = api_prompt(server)["data"]["options"]
        expect(buttons).to_have_text(
            [f"{'★ ' if o['advised'] else ''}{o['answer']} · deal {o['dealt']}, take "
             f"{o['taken']}" for o in options] + ["auto", "auto all"], timeout=WAIT)
        expect(page.locator("#options button.primary")).to_have_count(1)
        expect(page.locator("#options button.primary")).to_contain_text("★ block 1")
        # each line of the question (each side's dice, each choice) starts a block of its own,
        # not run together into one paragraph
        lines = [" ".join(line.split()) for line in api_prompt(server)["text"].split("\n")
                 if line.strip()]  # (as the page shows them: spaces run together)
        shown = [page.locator("#prompt-text").inner_text(),
                 *page.locator("#prompt-more p").all_inner_texts()]
        assert len(lines) > 2
        for line in lines:
            assert any(block.startswith(line[:40]) for block in shown), (line, shown)
        page.locator("#options button", has_text="★ block 1").click()
        expect(page.locator("#narration")).to_contain_text("Tam blocks a crit hit with a crit.",
                                                           timeout=WAIT)
        assert errors == []
    finally:
        server.stop()


# -- a campaign ---------------------------------------------------------------------------------
def tap_answer(page: Any, prompt: dict[str, Any]) -> None:
    """Answer ``prompt`` on ``page`` by taps only: the first operative to activate, each
    active operative reported down (adjust, down…, its id, Send: the quickest end of a
    mission), keep every die, pass a counteract, else the first answer offered."""
    if prompt["kind"] == "act":
        page.locator("#adjust summary").click()
        page.locator("#adjust-buttons button", has_text="down…").click()
        page.locator("#chips button", has_text=prompt["operative"]).first.click()
        page.locator("#send").click()
        return
    word = {"reroll": "keep", "counteract": "pass"}.get(prompt["kind"])
    buttons = page.locator("#options button")
    (buttons.filter(has_text=word).first if word else buttons.first).click()


def test_a_campaign_mission_on_two_phones_by_taps_then_at_the_terminal(browser: Any,
                                                                       tmp_path: Path) -> None:
    """Two players on phones (390x844) play a campaign's mission by tapping only, from the set-up
    page (the picture legible, the enemy to put out and every counter measured from two table
    edges) through the mission (every question's text in blocks of at most 300 characters) to
    the survival tests and the after-action report (no live score over it); then the terminal
    goes on with the campaign."""
    from playwright.sync_api import expect

    squads = SCENARIOS / "squads"
    made = cli_here("campaign", "new", "Vesper", "--squad", str(squads / "vesper.yaml"),
                    "--squad", str(squads / "ashen-blades.yaml"), "--saves", "saves",
                    "--target-win", "off", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    server = Served(tmp_path, "campaign", "serve", "Vesper", "--saves", "saves",
                    "--engagement", "1", "--seed", "7")
    try:
        pages = {name: browser.new_context(viewport=b.VIEWPORTS["phone"], device_scale_factor=2,
                                           has_touch=True).new_page() for name in ("Ana", "Ben")}
        ana, ben = pages["Ana"], pages["Ben"]
        errors: list[str] = []
        for name, page in pages.items():
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(server.links[name])
        ana.locator("#campaign button", has_text="Set up mission 1").click()
        for page in (ana, ben):
            expect(page.locator("#campaign h2").first).to_have_text("Vesper — mission 1",
                                                                    timeout=WAIT)
            expect(page.locator("#campaign svg.campaign-picture")).to_have_count(1, timeout=WAIT)
            counters = page.locator("#campaign-setup ul[data-section=counters] li")
            expect(counters.first).to_contain_text(" from the ", timeout=WAIT)
            expect(page.locator("#campaign-setup ul[data-section=roster] li").first) \
                .to_contain_text("Cultist")
            expect(page.locator("#setup-sheet")).to_have_count(1)
            expect(page.locator("#campaign .ready button")).to_have_count(2)
        if os.environ.get("SOLO_OPS_SCREENSHOTS"):  # a folder: pictures for the guide
            ana.wait_for_timeout(500)
            ana.screenshot(path=f"{os.environ['SOLO_OPS_SCREENSHOTS']}/phone-campaign-setup.png")
        # the set-up picture's labels are legible on the phone (its own zoom: 24 CSS px an inch)
        heights = ana.evaluate("() => [...document.querySelectorAll('#campaign svg text')]"
                               ".map(t => t.getBoundingClientRect().height)")
        assert heights and min(heights) >= 9, min(heights)
        expect(ana.locator("#campaign .ready button", has_text="Ben")).to_be_disabled()
        ana.locator("#campaign .ready button", has_text="Ana").dblclick()
        expect(ben.locator("#campaign .ready button", has_text="Ana")).to_have_text(
            "Ana: ready ✓", timeout=WAIT)
        ben.locator("#campaign .ready button", has_text="Ben").click()
        for page in (ana, ben):
            expect(page.locator("#board svg")).to_have_count(1, timeout=WAIT)
            expect(page.locator("#campaign")).to_have_attribute("data-phase", "mission")
        # the mission, by taps on the phone of the player asked
        taps = 0
        while (p := api_prompt(server))["kind"] != "ended":
            page = pages[p["player"]]
            expect(page.locator("#prompt-text")).to_have_attribute("data-step", str(p["step"]),
                                                                   timeout=WAIT)
            block = longest_block(page)
            assert len(block[1]) <= 300, block
            tap_answer(page, p)
            eventually(lambda p=p: api_prompt(server)["step"] != p["step"], "the answer lands")
            taps += 1
            assert taps < 100
        record = ben.locator("#campaign button", has_text="Roll the survival tests")
        expect(record).to_have_count(1, timeout=WAIT)
        expect(ana.locator("#prompt-text")).to_contain_text("The battle is over", timeout=WAIT)
        record.click()
        for page in (ana, ben):
            expect(page.locator("#campaign")).to_have_attribute("data-phase", "report",
                                                                 timeout=WAIT)
            expect(page.locator("#survival tr[data-model]")).to_have_count(7)
            expect(page.locator("#campaign .report p").first).to_contain_text("Mission 1: ")
            expect(page.locator("#score")).to_have_text("")  # no live game's header
            expect(page.locator("#title")).to_have_text("Vesper")
        # the after-action map drawn at the phone's size (its labels legible), in a box that
        # scrolls, as the set-up picture is -- not the whole board squeezed into 390 px
        expect(ana.locator("#campaign .campaign-board svg.campaign-picture")).to_have_count(
            1, timeout=WAIT)
        ana.wait_for_function(  # drawn wider than the phone: it is read by scrolling
            "() => { const svg = document.querySelector('#campaign .campaign-board svg');"
            " return !!svg && svg.getBoundingClientRect().width > window.innerWidth; }",
            timeout=WAIT)
        assert errors == []
    finally:
        server.stop()
    terminal = cli_here("campaign", "play", "Vesper", "--saves", "saves", "--engagement", "1",
                        "--answer", "quit", cwd=tmp_path)
    assert terminal.returncode == 0, terminal.stderr
    assert "Campaign Vesper — mission 2" in terminal.stdout
    assert "Mission 2 is set up and saved" in terminal.stdout


def test_a_missing_browser_fails_under_ci_and_skips_elsewhere(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="the browser tests need a browser under "
                       "CI: no Chromium at"):
        b.playwright_api(tmp_path / "no-chromium")
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception, match="apt-get install -y chromium"):
        b.playwright_api(tmp_path / "no-chromium")
