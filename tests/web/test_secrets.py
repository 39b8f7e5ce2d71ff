"""Nothing a player receives gives the hidden side away (issue #30): a whole co-op game of four
turning points played through the table view's API, every payload kept — every answer's reply,
every line of the event stream, the views (model cards and one-thumb offers included), the boards
(the phone's too), a tap preview, the set-up measured from the edges, the host's join links, the
page and its files —
and then searched: no seed, no dice state, no secret roll or event, and `fog seed` replayed
from every number a player received never places the game's hidden counters."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from solo_ops.game.engine import new_game
from solo_ops.io.scenario import load_scenario
from solo_ops.session.table import GameTable
from solo_ops.web.app import create_app
from tests.support.api import SECRET_KEYS, ApiClient, post, secrets_of, walk
from tests.support.players import bot_answers, small_scenario

SEED = 2_718_281_829
"""A seed no page would print by chance (ten digits)."""


def _numbers(texts: list[str], docs: list[Any]) -> set[int]:
    """Every whole number a player received: in the JSON, and every run of digits in any
    text (the SVG's coordinates included)."""
    found = {int(run) for text in texts for run in re.findall(r"\d+", text) if len(run) <= 12}
    for doc in docs:
        for key, value in walk(doc):
            if isinstance(value, int) and not isinstance(value, bool):
                found.add(abs(value))
            del key
    return found


def _counters(state: Any) -> list[tuple[str, int, tuple[float, float]]]:
    return sorted((c.id, c.hidden_order, (round(c.at[0], 2), round(c.at[1], 2)))
                  for c in state.counters.values())


@pytest.fixture(scope="module")
def received(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A four-turning-point co-op game played through the API: what the players received.
    It is also the API's whole co-op game: the same game to the end as in process, both
    players asked, every answer after the end refused."""
    folder = tmp_path_factory.mktemp("secrets")
    path = small_scenario(folder, coop=True, turns=4, engagement=2, seed=SEED)
    lines, final = bot_answers(path, SEED)
    game, state = new_game(load_scenario(path), SEED)
    set_up = _counters(state)
    save = folder / "saves" / "game.json"
    table = GameTable(game, state, save, save.with_suffix(".log.jsonl"))
    table.start()
    table.advance()
    table.ensure_links()
    app = create_app(table)
    stream = app.app.state.hub.subscribe()  # what every page's event stream is sent
    texts: list[str] = []
    with ApiClient(app, "http://127.0.0.1:8765") as c:
        texts += [c.get("/", params={"player": "Ana"}).text, c.get("/static/app.js").text,
                  c.get("/static/board.js").text, c.get("/static/campaign.js").text,
                  c.get("/static/setup.js").text,
                  c.get("/api/players").text, c.get("/api/join").text]
        asked: set[str] = set()
        for i, line in enumerate(lines):
            player = table.prompt_doc()["player"]
            asked.add(player)
            if i % 10 == 5:  # the asked player's view: the one-thumb offers and their reasons
                texts.append(c.get("/api/view", params={"player": player}).text)
            reply = post(c, player, line, params={"player": player})
            assert reply.json()["ok"], (line, reply.json())
            texts.append(reply.text)
            if i % 10 == 0:
                texts.append(c.get("/api/view", params={"player": "Ben", "since": 0}).text)
                texts.append(c.get("/board.svg", params={"player": "Ana"}).text)
                texts.append(c.get("/board.svg", params={"player": "Ben",
                                                         "layout": "phone"}).text)
                texts.append(c.get("/api/setup", params={"player": "Ana"}).text)
                texts.append(c.get("/api/place", params={"player": "Ana", "x": 5,
                                                         "y": 5}).text)
        texts += [c.get("/api/view", params={"player": p}).text for p in ("Ana", "Ben")]
        texts += [c.get("/board.svg").text, post(c, "Ana", "status").text,
                  post(c, "Ana", "help").text]
        # the scripted player's game, answered through the API as whichever player was asked,
        # is the game played in process to the end; then every answer is refused
        view = c.get("/api/view", params={"player": "Ben"}).json()
        assert view["prompt"]["kind"] == "ended" and view["score"]["ended"] is True
        assert view["score"]["result"] == final["result"]
        over = post(c, "Ana", "done")
        assert over.status_code == 409 and over.json()["message"] == "The battle is over."
        texts.append(over.text)
    assert asked == {"Ana", "Ben"}
    assert json.loads(save.read_text())["snapshot"] == json.loads(json.dumps(final))
    while not stream.empty():
        texts.extend(stream.get_nowait()[1])
    assert table.state.ended and table.state.turn == 4, "the game must last 4 turning points"
    return {"texts": texts, "table": table, "set_up": set_up, "scenario": path}


def test_nothing_a_player_received_gives_the_hidden_side_away(received: dict[str, Any]) -> None:
    """Both checks on the one game played (one test, so that the game is played once in the
    README's run even when its tests would have gone to two workers)."""
    no_payload_holds_the_seed_dice_state_or_a_secret(received)
    fog_seed_from_every_number_a_player_received_places_nothing(received)


def no_payload_holds_the_seed_dice_state_or_a_secret(received: dict[str, Any]) -> None:
    """No text or JSON a player received holds the seed (decimal or hex), a dice state, a
    secret roll's or event's words, or a secret key."""
    table: GameTable = received["table"]
    texts: list[str] = received["texts"]
    assert any(e.get("secret") for r in table.state.log for e in r["events"])
    assert any(r.get("secret") for rec in table.state.log for r in rec["rolls"])
    words = secrets_of(table)
    for text in texts:
        assert str(SEED) not in text and f"{SEED:x}" not in text.lower()
        for word in words:
            assert word not in text, word
        if text.startswith("{"):
            for key, _value in walk(json.loads(text)):
                assert key not in (*SECRET_KEYS, "seed", "hidden_plan"), key  # dice state: seed
    first = next(json.loads(t) for t in texts if t.startswith('{"prompt"') and '"records"' in t)
    assert first["records"][0]["action"] == {"type": "setup"}  # the seed is left out
    assert isinstance(first["game"], str) and first["game"] == table.game.links["id"]


def fog_seed_from_every_number_a_player_received_places_nothing(
        received: dict[str, Any]) -> None:
    """What `solo-ops fog seed SCENARIO --seed N` does, for every N a page was sent: none of
    them places the hidden counters (and their orders) of the game played."""
    docs = [json.loads(t) for t in received["texts"] if t.startswith("{")]
    candidates = _numbers(received["texts"], docs)
    assert SEED not in candidates
    scenario = load_scenario(received["scenario"])
    game, _ = new_game(scenario, SEED)
    assert _counters(new_game(scenario, SEED, terrains=game.terrains)[1]) == received["set_up"]
    for n in sorted(candidates):
        if n >= 2**63:
            continue
        _g, state = new_game(scenario, n, terrains=game.terrains)
        assert _counters(state) != received["set_up"], n
