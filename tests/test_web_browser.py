"""The table view in a real browser: two players on two pages play the supplement's co-op example
by clicking and tapping, both pages show the same board and narration, a page reloads mid-game,
then the server is killed and the game goes on at the terminal with ``play --resume``.

Drives the system Chromium (Debian's ``chromium`` package) through Playwright; no browser build
is downloaded. Without it the test is skipped on a developer's machine, and fails under
``CI=true`` (``.ci/run`` installs it).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import SCENARIOS

CHROMIUM = Path(os.environ.get("SOLO_OPS_CHROMIUM", "/usr/bin/chromium"))
SCENARIO = SCENARIOS / "volkus-stronghold-supplement-example.yaml"
SAVE = Path("saves") / "volkus-stronghold-supplement-example-3.json"
WAIT = 20_000  # ms: the longest any page may take to show an update (it takes well under 1 s)


def _playwright() -> Any:
    """Playwright's sync API, or a skip (a failure under CI=true) naming what is missing."""
    missing = None
    try:
        from playwright import sync_api
    except ImportError:
        missing = "the playwright package is not installed (pip install -e '.[test]')"
        sync_api = None
    if missing is None and not CHROMIUM.exists():
        missing = f"no Chromium at {CHROMIUM} (apt-get install -y chromium)"
    if missing is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the browser tests need a browser under CI: {missing}")
        pytest.skip(missing)
    return sync_api


class Served:
    """``solo-ops serve`` running in a folder, with the URL and links it printed."""

    def __init__(self, folder: Path, *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "solo_ops", "serve", *args, "--port", "0"], cwd=folder,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.lines: list[str] = []
        deadline = time.monotonic() + 60
        assert self.proc.stdout is not None
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                raise AssertionError(f"serve stopped: {self.proc.stderr.read()}")  # type: ignore
            self.lines.append(line.rstrip("\n"))
            if line.startswith("The game is saved"):
                break
        serving = next(x for x in self.lines if x.startswith("Serving "))
        self.url = serving.rsplit(" on ", 1)[1]
        self.links = {m.group(1): m.group(2) for x in self.lines
                      if (m := re.match(r"  (\w+): (http\S+)$", x))}

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode


@pytest.fixture
def browser() -> Iterator[Any]:
    api = _playwright()
    with api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        try:
            yield b
        finally:
            b.close()


def bases(page: Any) -> list[str]:
    """The model bases drawn on a page's board (their SVG elements, sorted)."""
    return sorted(re.findall(r'<circle class="base [^>]*>', page.inner_html("#board svg")))


def eventually(check: Any, what: str) -> None:
    """Wait (up to :data:`WAIT`) until ``check()`` is true: a page draws its board just after
    it shows the narration."""
    deadline = time.monotonic() + WAIT / 1000
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def drag(page: Any, geom: dict[str, Any], start: tuple[float, float],
         end: tuple[float, float]) -> None:
    """Drag the active model from ``start`` to ``end`` (board inches) with the mouse."""
    from playwright.sync_api import expect

    expect(page.locator("#board .drag-handle")).to_have_count(1, timeout=WAIT)
    svg = page.locator("#board svg")
    svg.scroll_into_view_if_needed()
    view = [float(v) for v in (svg.get_attribute("viewBox") or "").split()]
    box = svg.bounding_box()
    k = box["width"] / view[2]

    def at(x: float, y: float) -> tuple[float, float]:
        px = geom["origin"][0] + x * geom["scale"]
        py = geom["origin"][1] + (geom["depth"] - y) * geom["scale"]
        return box["x"] + px * k, box["y"] + py * k

    page.mouse.move(*at(*start))
    page.mouse.down()
    for i in range(1, 6):
        f = i / 5
        page.mouse.move(*at(start[0] + (end[0] - start[0]) * f,
                            start[1] + (end[1] - start[1]) * f))
    page.mouse.up()


def tap(page: Any, geom: dict[str, Any], x: float, y: float) -> None:
    """Tap the board at the board point (x, y) inches; ``geom`` is the API's ``board`` (how
    the SVG's pixels map to inches). Waits for the board of this prompt (the ring around the
    active operative is drawn with it)."""
    from playwright.sync_api import expect

    expect(page.locator("#board .drag-handle")).to_have_count(1, timeout=WAIT)
    svg = page.locator("#board svg")
    view = [float(v) for v in (svg.get_attribute("viewBox") or "").split()]
    box = svg.bounding_box()
    k = box["width"] / view[2]
    px = geom["origin"][0] + x * geom["scale"]
    py = geom["origin"][1] + (geom["depth"] - y) * geom["scale"]
    svg.click(position={"x": px * k, "y": py * k})


def keep_clicking(url: str, pages: dict[str, Any]) -> int:
    """Click ``keep`` on every CP re-roll question (on the page of the player asked) until
    another prompt comes; how many were answered."""
    from playwright.sync_api import expect

    def prompt() -> dict[str, Any]:
        return httpx.get(f"{url}api/view", params={"player": "Ana"}).json()["prompt"]

    answered = 0
    while (asked := prompt())["kind"] == "reroll":
        page = pages[asked["player"]]
        expect(page.locator("#prompt-text")).to_have_text(asked["text"], timeout=WAIT)
        expect(page.locator("#options button", has_text="reroll").first).to_be_visible()
        page.locator("#options button", has_text="keep").click()
        eventually(lambda asked=asked: prompt() != asked, "the re-roll question is answered")
        answered += 1
    return answered


def test_two_players_play_by_clicking_then_resume_at_the_terminal(browser: Any,
                                                                  tmp_path: Path) -> None:
    from playwright.sync_api import expect

    server = Served(tmp_path, str(SCENARIO))
    try:
        assert server.url == server.url.split("?")[0] and set(server.links) == {"Ana", "Ben"}
        ana = browser.new_context(viewport={"width": 390, "height": 844},
                                  device_scale_factor=2, has_touch=True).new_page()
        ben = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        errors: list[str] = []
        for page in (ana, ben):
            page.on("pageerror", lambda e: errors.append(str(e)))
        ana.goto(server.links["Ana"])
        ben.goto(server.links["Ben"])
        # the enemy shot first: Ben's CP re-roll questions, answered with the "keep" button
        assert keep_clicking(server.url, {"Ana": ana, "Ben": ben}) >= 1
        expect(ana.locator("#prompt-text")).to_have_text("Ana: which operative do you activate?",
                                                         timeout=WAIT)
        expect(ben.locator("#waiting")).to_have_text("Waiting for Ana…", timeout=WAIT)
        expect(ben.locator("#options button")).to_have_count(0)
        # Ana activates Kell by clicking, taps the board 2" right and 3" up, and confirms
        ana.locator("#options button", has_text="kell").click()
        expect(ana.locator("#prompt-text")).to_have_text("Ana: what did Sgt Kell do?",
                                                         timeout=WAIT)
        expect(ben.locator("#prompt-text")).to_have_text("Ana: what did Sgt Kell do?",
                                                         timeout=WAIT)
        geom = httpx.get(f"{server.url}api/view", params={"player": "Ana"}).json()["board"]
        tap(ana, geom, 16.75, 4.75)
        expect(ana.locator("#preview-text")).to_contain_text(
            'kell to (16.8, 4.8): 3.6" around the walls; it can move 6.0" — within the move',
            timeout=WAIT)
        ana.locator("#preview-ok").click()
        expect(ben.locator("#narration li").first).to_contain_text("Sgt Kell", timeout=WAIT)
        ana.locator("#options button", has_text="done").click()
        # the enemy acts, then it is Ben's turn: he clicks Corvin and types his answer
        eventually(lambda: httpx.get(f"{server.url}api/view", params={"player": "Ana"}).json()[
            "prompt"]["text"] != "Ana: what did Sgt Kell do?", "Kell's activation ends")
        keep_clicking(server.url, {"Ana": ana, "Ben": ben})
        expect(ben.locator("#prompt-text")).to_have_text("Ben: which operative do you activate?",
                                                         timeout=WAIT)
        expect(ana.locator("#waiting")).to_have_text("Waiting for Ben…", timeout=WAIT)
        ben.locator("#options button", has_text="corvin").click()
        expect(ben.locator("#prompt-text")).to_have_text("Ben: what did Brother Corvin do?",
                                                         timeout=WAIT)
        # Ben drags Corvin (at 10.75,0.75) up the board: a preview only, then cancelled
        drag(ben, geom, (10.75, 0.75), (12.75, 3.25))
        expect(ben.locator("#preview-text")).to_contain_text("corvin to (12.", timeout=WAIT)
        expect(ben.locator("#board .ghost")).to_have_count(1)
        shots = os.environ.get("SOLO_OPS_SCREENSHOTS")  # a folder: pictures for the guide
        if shots:
            ben.wait_for_timeout(2600)  # the newest narration's highlight fades
            ben.screenshot(path=f"{shots}/table-view.png")
            ana.screenshot(path=f"{shots}/table-view-phone.png", full_page=True)
        ben.locator("#preview-cancel").click()
        expect(ben.locator("#board .ghost")).to_have_count(0)
        ben.locator("#options button", has_text="shoot").click()
        expect(ben.locator("#answer")).to_have_value("shoot ")
        expect(ben.locator("#chips button", has_text="cultist-1")).to_have_count(1)
        ben.fill("#answer", "nobody")
        ben.locator("#send").click()
        expect(ben.locator("#message")).to_have_text(
            "✗ I don't understand 'nobody'; type 'help' for the words I know", timeout=WAIT)
        ben.fill("#answer", "done")
        ben.locator("#send").click()
        expect(ben.locator("#prompt-text")).not_to_have_text("Ben: what did Brother Corvin do?",
                                                             timeout=WAIT)
        # both pages: the same prompt, narration and board, within a moment of each other
        expect(ana.locator("#prompt-text")).to_have_text(
            ben.locator("#prompt-text").inner_text(), timeout=WAIT)
        view = httpx.get(f"{server.url}api/view", params={"player": "Ben"}).json()
        expect(ana.locator("#narration li")).to_have_count(
            sum(1 for item in view["narration"] if item["lines"]), timeout=WAIT)
        expect(ben.locator("#narration li")).to_have_count(
            sum(1 for item in view["narration"] if item["lines"]), timeout=WAIT)
        eventually(lambda: ana.inner_text("#narration") == ben.inner_text("#narration"),
                   "both pages show the same narration")
        eventually(lambda: bases(ana) == bases(ben), "both pages show the same board")
        assert len(bases(ana)) >= 7
        # a page reloaded mid-game shows the same table
        ana.reload()
        expect(ana.locator("#narration li")).to_have_count(
            sum(1 for item in view["narration"] if item["lines"]), timeout=WAIT)
        eventually(lambda: ana.inner_text("#narration") == ben.inner_text("#narration"),
                   "the reloaded page shows the same narration")
        eventually(lambda: bases(ana) == bases(ben), "the reloaded page shows the same board")
        assert errors == []
        prompt = view["prompt"]
        # while the server runs, the game is locked: a terminal on it is refused at once
        busy = subprocess.run([sys.executable, "-m", "solo_ops", "play", "--resume",
                               str(SAVE), "--answer", "status"], cwd=tmp_path,
                              capture_output=True, text=True, timeout=120)
        assert busy.returncode == 2 and "in use by another terminal" in busy.stderr
    finally:
        server.stop()
    # the terminal goes on with the game the browser played
    resumed = subprocess.run([sys.executable, "-m", "solo_ops", "play", "--resume", str(SAVE),
                              "--json"], cwd=tmp_path, capture_output=True, text=True,
                             timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    lines = [json.loads(x) for x in resumed.stdout.splitlines() if x.startswith("{")]
    assert lines[0] == {"prompt": prompt}
    doc = json.loads((tmp_path / SAVE).read_text())
    assert [a.get("operative") for a in doc["actions"]
            if a["type"] not in ("engine", "reroll")] == [  # re-roll answers: "keep" clicked
        "kell", "kell", "kell", "corvin", "corvin"]
    assert next(a for a in doc["actions"] if a["type"] == "move") == {
        "type": "move", "how": "reposition", "to": [16.75, 4.75], "operative": "kell"}
    replay = subprocess.run([sys.executable, "-m", "solo_ops", "replay",
                             str(SAVE.with_suffix(".log.jsonl")), "--json"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=120)
    assert replay.returncode == 0 and json.loads(replay.stdout)["identical"] is True


def test_a_missing_browser_fails_under_ci_and_skips_elsewhere(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(sys.modules[__name__], "CHROMIUM", tmp_path / "no-chromium")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="the browser tests need a browser under "
                       "CI: no Chromium at"):
        _playwright()
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception, match="apt-get install -y chromium"):
        _playwright()
