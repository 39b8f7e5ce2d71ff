"""Shared by the tests: a two-player campaign served in process (moved from
web/test_campaign_api.py): made, its desk opened, its API asked with a player's or the host's
link."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from click.testing import CliRunner

from solo_ops.cli import main
from solo_ops.cli.campaign_files import campaign_path
from solo_ops.cli.campaign_serve import Desk
from solo_ops.web.app import create_app
from solo_ops.web.campaign import ROUTES
from tests.support.api import ApiClient
from tests.support.paths import SCENARIOS

SQUADS = SCENARIOS / "squads"


def new_campaign(folder: Path, name: str = "Vesper") -> Path:
    """A two-player campaign (Ana: Kill team Vesper, Ben: the Ashen Blades)."""
    saves = folder / "saves"
    run = CliRunner().invoke(main, ["campaign", "new", name, "--squad",
                                    str(SQUADS / "vesper.yaml"), "--squad",
                                    str(SQUADS / "ashen-blades.yaml"), "--saves", str(saves)])
    assert run.exit_code == 0, run.output
    return saves


def open_desk(saves: Path, name: str = "Vesper") -> Desk:
    desk = Desk(campaign_path(name, saves), name, {"engagement": 1, "seed": 7})
    desk.ensure_links()
    desk.open()
    return desk


def lan(desk: Desk) -> ApiClient:
    return ApiClient(create_app(None, desk=desk, extra=ROUTES, local_only=False,
                                hosts=["192.168.1.20"]), "http://192.168.1.20:8765")


def key(desk: Desk, who: str) -> dict[str, str]:
    links = desk.links
    assert links is not None
    return {"x-solo-ops-token": links["host"] if who == "host" else links["players"][who]}


def do(c: ApiClient, desk: Desk, who: str, body: dict[str, Any]) -> Any:
    return c.post("/api/campaign", json=body, headers=key(desk, who))
