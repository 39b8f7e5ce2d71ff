"""The phone's board, measured in Chromium (issue #36): at 390x844 (2x) and 768x1024, the share
of the board's labels in view at least 9 CSS px tall at the page's opening zoom, the pairs of
labels drawn over each other (a label and a label, or a label and an order token) at the opening
zoom and with the whole board shown (▣), and the
longest visible block of text in the prompt card, and the QR codes on the host's page, at
every shipped scenario's set-up and at
the first question after each enemy activation of one game (the supplement's co-op example,
seed 3, CP re-rolls never asked, played by the autopilot). The real page and app, served from
this process (:mod:`tests.support.phone_page`).

Run it from the repository root with the project's virtual environment active (it needs
Debian's Chromium, as the browser tests do)::

    python bench/audit_phone_labels.py            # every moment, a line each
    python bench/audit_phone_labels.py --limit 3  # the set-ups and the first 3 activations

Each line: the moment, then per size the labels in view, how many are 9 CSS px or taller and
the share, the overlapping pairs at the opening zoom and on the whole board (``meet 0+0``), the
longest prompt block's length and the QR codes shown; the exit status is 1 when a share is under
90%, two labels overlap, a block holds more than 300 characters or a player has no QR code.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.support import browser as b  # noqa: E402
from tests.support.api import scenario_path  # noqa: E402
from tests.support.paths import SCENARIOS  # noqa: E402
from tests.support.phone_page import (  # noqa: E402
    PageServer,
    label_heights,
    legible_share,
    longest_block,
    moments,
    open_page,
    overlapping_labels,
    qr_codes,
)

SIZES = {"phone": (b.VIEWPORTS["phone"], 2), "tablet": (b.VIEWPORTS["tablet"], 1)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None,
                        help="stop the game after this many enemy activations")
    args = parser.parse_args()
    start = time.process_time()
    scenarios = sorted(SCENARIOS.glob("*.yaml"))
    flagged = 0
    worst = {name: 1.0 for name in SIZES}
    longest = 0
    meetings = 0
    count = 0
    server: PageServer | None = None
    with b.launch() as browser:
        pages = {name: browser.new_context(viewport=vp, device_scale_factor=k).new_page()
                 for name, (vp, k) in SIZES.items()}
        for what, game, state in moments(scenarios, scenario_path(), 3, args.limit):
            if server is None:
                server = PageServer(game, state)
            server.serve(game, state)
            cells = []
            for name, page in pages.items():
                open_page(page, f"{server.url}?host=1")
                heights = label_heights(page)
                share = legible_share(heights)
                block = len(longest_block(page)[1])
                codes = qr_codes(page)
                opening = overlapping_labels(page)
                page.locator("#zoom-fit").click()
                whole = overlapping_labels(page)
                meetings += len(opening) + len(whole)
                players = len(game.scenario.squads)
                worst[name] = min(worst[name], share)
                longest = max(longest, block)
                bad = share < 0.9 or block > 300 or codes != players or bool(opening or whole)
                flagged += bad
                cells.append(f"{name} {sum(h >= 9 for _, h in heights)}/{len(heights)} "
                             f"{share:.0%} meet {len(opening)}+{len(whole)} block {block} "
                             f"qr {codes}/{players}"
                             f"{' FLAGGED' if bad else ''}")
            count += 1
            print(f"{what}: " + "; ".join(cells), flush=True)
        if server is not None:
            server.close()
    print(f"{count} moments; the least share of labels >= 9 CSS px: "
          + ", ".join(f"{n} {v:.0%}" for n, v in worst.items())
          + f"; {meetings} overlapping label pairs"
          + f"; the longest prompt block {longest} characters; {flagged} flagged "
          f"({time.process_time() - start:.1f} s CPU in this process)")
    return 1 if flagged else 0


if __name__ == "__main__":
    raise SystemExit(main())
