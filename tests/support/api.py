"""Shared by the tests: moved from web/test_api.py."""

from __future__ import annotations

import asyncio
import atexit
import functools
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

from solo_ops.core.dice import CURRENT
from solo_ops.game.engine import new_game
from solo_ops.io.scenario import load_scenario
from solo_ops.session.table import GameTable
from tests.support.paths import SCENARIOS
from tests.support.saves import default_save


class ApiClient:
    """httpx against the app in process (``httpx.ASGITransport``), called synchronously."""

    def __init__(self, app: Any, base_url: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.http = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=base_url)

    def __enter__(self) -> ApiClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.loop.run_until_complete(self.http.aclose())
        self.loop.close()

    def get(self, url: str, **kw: Any) -> httpx.Response:
        return self.loop.run_until_complete(self.http.get(url, **kw))

    def post(self, url: str, **kw: Any) -> httpx.Response:
        return self.loop.run_until_complete(self.http.post(url, **kw))


SCENARIO = SCENARIOS / "volkus-stronghold-supplement-example.yaml"


SEED = 34
"""The seed of the API tests' game: the first seed on which the keyed dice, the Volkus doors
as terrain and the referee let Ana and Ben answer as :data:`ANSWERS` has them with nobody of
theirs hurt before, the enemy taking the first activation (three steps before Ana is
asked)."""


@functools.cache
def scenario_path() -> Path:
    """The supplement's co-op example with ``cp_rerolls: never`` and seed :data:`SEED`, in a
    folder of its own: these tests are about the page and ``play --json``, and the example's
    first enemy shots would otherwise ask CP re-roll questions first (those are
    tests/game/test_cp_rerolls.py's)."""
    text = SCENARIO.read_text(encoding="utf-8")
    for folder in ("boards/", "rosters/", "squads/"):
        text = text.replace(f": {folder}", f": {SCENARIOS}/{folder}")
    assert "\nseed: 3\n" in text  # (the example's own seed, kept or replaced by SEED)
    text = text.replace("\nseed: 3\n", f"\nseed: {SEED}\n")
    folder = Path(tempfile.mkdtemp(prefix="web-api-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)  # (left in /tmp before)
    path = folder / SCENARIO.name
    path.write_text(text + "settings: {cp_rerolls: never}\n", encoding="utf-8")
    return path


SAVE_NAME = default_save(Path(), scenario_path()).name
"""Where ``play`` and ``serve`` save the game of :func:`scenario_path` by default."""


# Ana activates Kell, moves him (the point a tap on the board gives), ends; Ben activates Corvin.
ANSWERS = [("Ana", "kell"), ("Ana", "move 10.59,4.98"), ("Ana", "done"), ("Ben", "corvin")]


def make_table(folder: Path, *, dice_scheme: str = CURRENT, seed: int = SEED) -> GameTable:
    """The supplement's co-op example (Ana and Ben), seed :data:`SEED`, started as ``serve``
    starts it. ``dice_scheme="splitmix64"`` with seed 3: the game a save of the first dice
    scheme holds (as an older version's save replays), where a test's positions were measured."""
    game, state = new_game(load_scenario(scenario_path()), seed, dice_scheme=dice_scheme)
    save = folder / "saves" / SAVE_NAME
    table = GameTable(game, state, save, save.with_suffix(".log.jsonl"))
    table.start()
    table.advance()
    return table


def post(client: ApiClient, player: Any, answer: Any, **kw: Any) -> httpx.Response:
    return client.post("/api/answer", json={"player": player, "answer": answer}, **kw)


# -- nothing hidden anywhere -------------------------------------------------------------------
SECRET_KEYS = ("hidden_order", "secret")


def walk(doc: Any) -> Iterator[tuple[str, Any]]:
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield k, v
            yield from walk(v)
    elif isinstance(doc, list):
        for v in doc:
            yield from walk(v)


def secrets_of(table: GameTable) -> list[str]:
    """Strings only the hidden side knows: secret event kinds, hidden plans' codes and the
    purposes of secret rolls ("hidden order for counter c1")."""
    out = {"hidden_plan", "counter_command", "hidden order for counter"}
    for record in table.state.log:
        for event in record["events"]:
            if event.get("secret") and isinstance(event.get("code"), str):
                out.add(event["code"])
        for roll in record["rolls"]:
            if roll.get("secret"):
                out.add(roll["purpose"])
    return sorted(out)
