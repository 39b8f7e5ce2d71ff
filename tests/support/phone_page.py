"""The table view's real page in Chromium, its server in this process, at any game state.

For measuring what a player sees at many moments of many games without starting ``solo-ops
serve`` for each: :class:`PageServer` runs the real app (:func:`solo_ops.web.app.create_app`)
under uvicorn in a thread, and :meth:`PageServer.serve` puts a game (a game and a state, as the
engine left them) at its table; the page is the real page (index.html, app.js, board.js). Also
the measures the tests and ``bench/audit_phone_labels.py`` share: the board's labels in view and
their height as Chromium renders them (:data:`LABELS`), and the longest visible block of text in
the prompt card (:data:`BLOCKS`).
"""

from __future__ import annotations

import shutil
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from solo_ops.game.definition import Game
from solo_ops.game.state import State
from solo_ops.session.table import GameTable
from solo_ops.web.app import create_app
from tests.support.browser import WAIT, free_port

LABELS = """() => {
  const box = document.querySelector('#board').getBoundingClientRect();
  const left = Math.max(0, box.left), right = Math.min(window.innerWidth, box.right);
  const top = Math.max(0, box.top), bottom = Math.min(window.innerHeight, box.bottom);
  return [...document.querySelectorAll('#board svg text')].map((t) => {
    const r = t.getBoundingClientRect();
    const seen = r.width > 0 && r.right > left && r.left < right && r.bottom > top &&
      r.top < bottom;
    return [t.textContent, r.height, seen];
  }).filter((x) => x[2]).map((x) => [x[0], x[1]]);
}"""
"""Every text of the board's SVG in view (inside the board's box and the window): its words and
its height in CSS px (``getBoundingClientRect``)."""

BLOCKS = """() => {
  const out = [];
  for (const el of document.querySelectorAll('#prompt-card *')) {
    if (!el.checkVisibility || !el.checkVisibility()) continue;
    const own = [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE)
      .map((n) => n.textContent).join('').trim();
    if (own) out.push([el.id || el.tagName.toLowerCase(), own]);
  }
  return out;
}"""
"""Every visible element of the prompt card with text of its own: (its id or tag, the text)."""

LABEL_BOXES = """() => [...document.querySelectorAll(
    '#board svg text.label, #board svg text.order-token')].map((t) => {
  const r = t.getBoundingClientRect();
  return [t.textContent, t.classList.contains('label'), r.left, r.top, r.right, r.bottom];
})"""
"""Every label's and order token's text on the board, as the browser drew it (its transform
included): (its words, whether it is a label, left, top, right, bottom in CSS px)."""

SETTLED = """() => { const s = document.querySelector('#board svg');
  return !!s && !!s.style.width && !!window.soloOpsPage.page.view; }"""
"""Whether the page has drawn its board and zoomed it (board.js sets the SVG's width)."""


class PageServer:
    """The real app served from this process on a free port; :meth:`serve` puts a game at
    its table (the pages then show it)."""

    def __init__(self, game: Game, state: State) -> None:
        import uvicorn

        self.folder = Path(tempfile.mkdtemp(prefix="phone-page-"))
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.app = create_app(self._table(game, state))
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning",
                                access_log=False, lifespan="off", timeout_graceful_shutdown=1)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + WAIT / 1000
        while not self.server.started:
            assert time.monotonic() < deadline, "the page's server did not start"
            time.sleep(0.02)

    def _table(self, game: Game, state: State) -> GameTable:
        """The game at a table of its own, with its players' links (the host's page shows
        them as QR codes)."""
        table = GameTable(game, state, self.folder / "s.json", self.folder / "s.log.jsonl")
        table.ensure_links()
        return table

    def serve(self, game: Game, state: State) -> GameTable:
        """Put ``game`` at ``state`` at the table (the state is the table's from now on)."""
        served = self.app.app.state.server
        table = self._table(game, state)
        served.game_table = table
        served.pictures.clear()
        served.offered.clear()
        return table

    def close(self) -> None:
        self.server.should_exit = True
        self.app.app.state.hub.close()
        self.thread.join(timeout=10)
        shutil.rmtree(self.folder, ignore_errors=True)  # (the served games' saves)

    def __enter__(self) -> PageServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def touch_pages(browser: Any, viewports: dict[str, dict[str, int]]
                ) -> tuple[dict[str, Any], list[str]]:
    """A touch page at twice the pixel density for each of ``viewports`` (name: size), and
    the list every page's script errors are added to."""
    pages = {name: browser.new_context(viewport=vp, device_scale_factor=2,
                                       has_touch=True).new_page()
             for name, vp in viewports.items()}
    errors: list[str] = []
    for page in pages.values():
        page.on("pageerror", lambda e: errors.append(str(e)))
    return pages, errors


def open_page(page: Any, url: str) -> None:
    """Open the page at ``url`` and wait until its board is drawn at its opening zoom."""
    page.goto(url)
    page.wait_for_function(SETTLED, timeout=WAIT)


def qr_codes(page: Any) -> int:
    """How many players' QR codes the (host's) page shows, once it has fetched them."""
    page.wait_for_function("() => document.querySelectorAll('figure.qr img').length > 0",
                           timeout=WAIT)
    return int(page.locator("#join figure.qr img").count())


def label_heights(page: Any) -> list[tuple[str, float]]:
    """The board's texts in view and their heights (CSS px)."""
    return [(str(t), float(h)) for t, h in page.evaluate(LABELS)]


def label_boxes(page: Any) -> list[tuple[str, bool, float, float, float, float]]:
    """The board's labels and order tokens as drawn (:data:`LABEL_BOXES`)."""
    return [(str(t), bool(lab), float(x0), float(y0), float(x1), float(y1))
            for t, lab, x0, y0, x1, y1 in page.evaluate(LABEL_BOXES)]


def overlapping_labels(page: Any, tolerance: float = 0.5) -> list[tuple[str, str]]:
    """The pairs of the board's texts that a player sees on top of each other: two labels,
    or a label and an order token, whose drawn boxes overlap by more than ``tolerance`` CSS px
    both ways (the order tokens are their models' marks, drawn where the model is: two of them
    are not labels to keep apart)."""
    boxes = [b for b in label_boxes(page) if b[4] > b[2] and b[5] > b[3]]
    out = []
    for i, (a, a_label, ax0, ay0, ax1, ay1) in enumerate(boxes):
        for b, b_label, bx0, by0, bx1, by1 in boxes[i + 1:]:
            if not (a_label or b_label):
                continue
            if (min(ax1, bx1) - max(ax0, bx0) > tolerance
                    and min(ay1, by1) - max(ay0, by0) > tolerance):
                out.append((a, b))
    return out


def legible_share(heights: list[tuple[str, float]], least: float = 9.0) -> float:
    """The share of the labels in view at least ``least`` CSS px tall (1 when none is)."""
    if not heights:
        return 1.0
    return sum(h >= least for _, h in heights) / len(heights)


def longest_block(page: Any) -> tuple[str, str]:
    """The prompt card's longest visible block of text: (where, the text)."""
    found = page.evaluate(BLOCKS)
    return max(((str(w), str(t)) for w, t in found), key=lambda x: len(x[1]), default=("", ""))


def moments(scenarios: list[Path], game_path: Path, seed: int, limit: int | None = None
            ) -> Any:
    """The moments the phone's board is checked at: every scenario's set-up (as the game
    starts), then one game of ``game_path`` played by the autopilot, at the first player's
    question after each enemy activation (at most ``limit`` of them). Yields (what, game, a
    copy of the state)."""
    import copy

    from solo_ops.game.engine import new_game, pending, step
    from solo_ops.io.scenario import load_scenario
    from solo_ops.sim import autopilot

    for path in scenarios:
        game, state = new_game(load_scenario(path), 1)
        yield f"{path.stem} set-up", game, copy.deepcopy(state)
    game, state = new_game(load_scenario(game_path), seed)
    moved, seen = False, 0
    while (prompt := pending(game, state)).kind != "ended":
        if prompt.kind == "engine":
            record = step(game, state, {"type": "engine"})
            moved = moved or any(e.get("type") == "enemy_activation" for e in record["events"])
            continue
        if moved:
            yield f"{game_path.stem} after the enemy's activation at step {len(state.log)}", \
                game, copy.deepcopy(state)
            moved, seen = False, seen + 1
            if limit is not None and seen >= limit:
                return
        autopilot.answer(game, state, prompt, "objective")



SCREEN_POINT = """([x, y]) => {
  const g = window.soloOpsPage.page.view.board;
  const svg = document.querySelector('#board svg');
  const pt = svg.createSVGPoint();
  pt.x = g.origin[0] + x * g.scale;
  pt.y = g.origin[1] + (g.depth - y) * g.scale;
  const p = pt.matrixTransform(svg.getScreenCTM());
  return [p.x, p.y];
}"""
"""Where the board point (x, y) inches is on the screen now (CSS px)."""

IN_VIEW = """([x, y]) => {
  const r = document.querySelector('#board').getBoundingClientRect();
  return x >= r.left && x <= r.right && y >= Math.max(0, r.top) && y <= r.bottom;
}"""


def screen_point(page: Any, x: float, y: float) -> tuple[float, float]:
    """Where the board point (x, y) inches is on the page's screen now."""
    px, py = page.evaluate(SCREEN_POINT, [x, y])
    return float(px), float(py)


def in_view(page: Any, x: float, y: float) -> bool:
    """Whether the board point (x, y) inches is in the board's visible box now."""
    return bool(page.evaluate(IN_VIEW, list(screen_point(page, x, y))))


def tap_board(page: Any, x: float, y: float) -> None:
    """A finger's tap on the board at (x, y) inches, brought into view first (as a player pans
    to it)."""
    page.evaluate("([x, y]) => window.soloOpsBoard.show(x, y)", [x, y])
    page.touchscreen.tap(*screen_point(page, x, y))


def pinch(page: Any, factor: float, steps: int = 8) -> None:
    """Two fingers on the board's centre moving apart (``factor`` > 1) or together, as touch
    events through the browser's own input (Chromium makes them pointer events)."""
    box = page.locator("#board").bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    session = page.context.new_cdp_session(page)
    start = 40.0

    def points(d: float) -> list[dict[str, float]]:
        return [{"x": cx - d, "y": cy, "id": 0}, {"x": cx + d, "y": cy, "id": 1}]

    session.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": points(start)})
    for i in range(1, steps + 1):
        d = start * (1 + (factor - 1) * i / steps)
        session.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": points(d)})
    session.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    session.detach()


def zoom(page: Any) -> float:
    """The board's zoom now (1: as wide as its box)."""
    return float(page.evaluate("() => window.soloOpsBoard.state.zoom"))
