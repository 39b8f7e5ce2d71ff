"""The campaign page in Chromium at a phone's size: the next mission proposed with its
interval, the group choosing another level on the page (the same mission set up again), the
squads' card saying who starts hurt, and the link to the chronicle. The page is served in this
process so that the rating's missions can be fixed results (tests/support/proposals.py): the
page is tested here, the simulation in tests/sim/test_proposal.py."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from solo_ops.cli.campaign_files import campaign_path
from solo_ops.cli.campaign_serve import Desk
from solo_ops.web.app import create_app
from solo_ops.web.campaign import ROUTES
from tests.support import browser as b
from tests.support.proposals import fake_missions
from tests.web.test_campaign_threat_page import RATES, hurt_campaign


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Kell's campaign (he carries 3 of his 8 wounds) served on a free port in this process."""
    import uvicorn

    fake_missions(monkeypatch, lambda enemy, level: RATES[level])
    saves = hurt_campaign(tmp_path)
    desk = Desk(campaign_path("Vesper", saves), "Vesper",
                {"seed": 7, "board": "gallowdark-corridors"})
    desk.ensure_links()
    desk.open()
    port = b.free_port()
    app = create_app(None, desk=desk, extra=ROUTES, local_only=True)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.should_exit = True
        thread.join(timeout=15)
        desk.close()


def test_the_phone_sees_the_proposal_chooses_a_level_and_kell_hurt(served: str,
                                                                   tmp_path: Path) -> None:
    from playwright.sync_api import expect

    with b.launch() as chromium:
        page: Any = chromium.new_context(viewport=b.VIEWPORTS["phone"],
                                         has_touch=True).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(served)
        page.locator("#squads summary").click()
        kell = page.locator("#squads li[data-model=kell]")
        expect(kell.locator(".condition")).to_have_text(
            "injured: starts the next mission with 5 of 8 wounds", timeout=b.WAIT)
        expect(kell.locator(".facts")).to_have_text("W 5/8 · 1 mission · 0 kills · 1 injury")
        expect(page.locator("#squads li[data-model=rask] .facts")).to_have_text(
            "W 7 · 1 mission · 0 kills")
        assert b.laid_out_box(page, kell)["width"] <= 390
        expect(page.locator("#chronicle-link")).to_have_attribute(
            "href", "api/campaign/chronicle.html")
        page.locator("#campaign button", has_text="Set up mission 2").click()
        threat = page.locator("#threat")
        expect(threat).to_contain_text("Proposed: ", timeout=b.WAIT)
        expect(threat).to_contain_text("at level 3: you win 50% (95% interval ")
        expect(threat).to_contain_text("rated on 64 simulated missions); target 50%.")
        assert b.laid_out_box(page, threat)["width"] <= 390
        level = page.locator("#threat select[name=level]")
        expect(level.locator("option:checked")).to_have_text("level 3 (50%)")
        level.select_option("2")
        page.locator("#threat button", has_text="Play this instead").click()
        expect(threat).to_contain_text("The group's choice: ", timeout=b.WAIT)
        expect(threat).to_contain_text("at level 2: you win 63% (95% interval ")
        expect(page.locator("#campaign .ready button")).to_have_count(1)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.screenshot(path=str(tmp_path / "threat.png"), full_page=True)
        assert errors == []
