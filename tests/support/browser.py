"""What the browser tests share: Debian's Chromium through Playwright (one browser for the whole
session, :func:`launch`), ``solo-ops serve`` run as a real process (:class:`Served`), and taps,
drags and waits on a page. No browser build is downloaded: without Chromium or Playwright the
browser tests are skipped on a developer's machine and fail under ``CI=true``."""

from __future__ import annotations

import functools
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

CHROMIUM = Path(os.environ.get("SOLO_OPS_CHROMIUM", "/usr/bin/chromium"))
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]
WAIT = 20_000  # ms: the longest any page may take to show an update (it takes well under 1 s)
VIEWPORTS = {"phone": {"width": 390, "height": 844}, "tablet": {"width": 768, "height": 1024},
             "desktop": {"width": 1400, "height": 1000}}


def playwright_api(chromium: Path | None = None) -> Any:
    """Playwright's sync API, or a skip (a failure under CI=true) naming what is missing."""
    chromium = chromium or CHROMIUM
    missing = None
    try:
        from playwright import sync_api
    except ImportError:
        missing = "the playwright package is not installed (pip install -e '.[test]')"
        sync_api = None
    if missing is None and not chromium.exists():
        missing = f"no Chromium at {chromium} (apt-get install -y chromium)"
    if missing is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the browser tests need a browser under CI: {missing}")
        pytest.skip(missing)
    return sync_api


@contextmanager
def launch() -> Iterator[Any]:
    """One Chromium for the whole test session."""
    api = playwright_api()
    with api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def phone_page(browser: Any) -> Iterator[Any]:
    """A page on a phone: a fresh 390x844 touch context at twice the pixels, closed after."""
    context = browser.new_context(viewport=VIEWPORTS["phone"], device_scale_factor=2,
                                  has_touch=True)
    try:
        yield context.new_page()
    finally:
        context.close()


@functools.cache
def _http() -> httpx.Client:
    """One HTTP client for the run, with no connection kept open (a served page's server stops
    at once): ``httpx.get`` makes a client, and an SSL context read from certifi's bundle, at
    every call (1.3% of the suite's CPU, in the pages' polling)."""
    return httpx.Client(timeout=30, limits=httpx.Limits(max_keepalive_connections=0))


def api_get(url: str, **params: str) -> httpx.Response:
    """GET ``url`` (a served page's API) with ``params``."""
    return _http().get(url, params=params or None)


def api_post(url: str, body: dict[str, Any]) -> httpx.Response:
    """POST the JSON ``body`` to ``url`` (a served page's API: an answer from another phone)."""
    return _http().post(url, json=body)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Served:
    """``solo-ops serve ARGS`` (or ``campaign serve``) running in a folder, with the URL and
    the links it printed."""

    def __init__(self, folder: Path, *args: str, port: int | None = None) -> None:
        self.port = port if port is not None else free_port()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "solo_ops", *args, "--port", str(self.port)], cwd=folder,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.lines: list[str] = []
        deadline = time.monotonic() + 60
        assert self.proc.stdout is not None
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                raise AssertionError(f"serve stopped: {self.proc.stderr.read()}")  # type: ignore
            self.lines.append(line.rstrip("\n"))
            if line.startswith(("The game is saved", "Mission ")):
                break
        serving = next(x for x in self.lines if x.startswith("Serving "))
        self.url = serving.rsplit(" on ", 1)[1]
        self.links = {m.group(1): m.group(2) for x in self.lines
                      if (m := re.match(r"  (\w+): (http\S+)$", x))}

    def stop(self, *, kill: bool = False) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode


def eventually(check: Callable[[], bool], what: str) -> None:
    """Wait (up to :data:`WAIT`) until ``check()`` is true."""
    deadline = time.monotonic() + WAIT / 1000
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def board_point(page: Any, geom: dict[str, Any], x: float, y: float) -> tuple[float, float]:
    """Where the board point (x, y) inches is on the page (``geom``: the API's ``board``)."""
    svg = page.locator("#board svg")
    view = [float(v) for v in (svg.get_attribute("viewBox") or "").split()]
    box = svg.bounding_box()
    k = box["width"] / view[2]
    px = geom["origin"][0] + x * geom["scale"] - view[0]
    py = geom["origin"][1] + (geom["depth"] - y) * geom["scale"] - view[1]
    return box["x"] + px * k, box["y"] + py * k


def tap(page: Any, geom: dict[str, Any], x: float, y: float) -> None:
    """Tap the board at (x, y) inches, once the board of this prompt is drawn (the ring
    around the active operative comes with it)."""
    from playwright.sync_api import expect

    expect(page.locator("#board .drag-handle")).to_have_count(1, timeout=WAIT)
    page.locator("#board svg").scroll_into_view_if_needed()
    page.mouse.click(*board_point(page, geom, x, y))


def drag(page: Any, geom: dict[str, Any], start: tuple[float, float],
         end: tuple[float, float]) -> None:
    """Drag the active model from ``start`` to ``end`` (board inches) with the mouse."""
    from playwright.sync_api import expect

    expect(page.locator("#board .drag-handle")).to_have_count(1, timeout=WAIT)
    page.locator("#board svg").scroll_into_view_if_needed()
    page.mouse.move(*board_point(page, geom, *start))
    page.mouse.down()
    for i in range(1, 6):
        f = i / 5
        page.mouse.move(*board_point(page, geom, start[0] + (end[0] - start[0]) * f,
                                     start[1] + (end[1] - start[1]) * f))
    page.mouse.up()


def laid_out_box(page: Any, locator: Any) -> Any:
    """``locator``'s bounding box once it is laid out: a page redraws parts of itself when
    its event stream says something (an element found visible may be replaced by its redrawn
    twin before its box is read), so it is read again until there is one (at most
    :data:`WAIT` ms); None if there never is."""
    for _ in range(max(1, WAIT // 100)):
        box = locator.bounding_box()
        if box is not None:
            return box
        page.wait_for_timeout(100)
    return None


def label_boxes(page: Any) -> list[tuple[str, float, float, float, float]]:
    """Every placed label's box on the page's board, as the browser drew it (``getBBox``)."""
    return [tuple(b) for b in page.evaluate(
        """() => [...document.querySelectorAll('svg text.label')].map(t => {
             const b = t.getBBox(); return [t.textContent, b.x, b.y, b.width, b.height]; })""")]


def label_boxes_by_board(page: Any) -> list[list[tuple[str, float, float, float, float]]]:
    """:func:`label_boxes` of each board on a page of several (``#board svg``, in order)."""
    return [[tuple(b) for b in boxes] for boxes in page.evaluate(
        """() => [...document.querySelectorAll('#board svg')].map(s =>
             [...s.querySelectorAll('text.label')].map(t => {
               const b = t.getBBox(); return [t.textContent, b.x, b.y, b.width, b.height]; }))""")]


def meeting(boxes: list[tuple[str, float, float, float, float]]) -> list[tuple[str, str]]:
    """The pairs of label boxes that intersect."""
    out = []
    for i, (a, ax, ay, aw, ah) in enumerate(boxes):
        for b, bx, by, bw, bh in boxes[i + 1:]:
            if ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah:
                out.append((a, b))
    return out
