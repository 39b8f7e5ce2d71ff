"""The table view's JSON API, in process (httpx through Starlette's test client), and its event
stream through a real uvicorn server: the same game, the same words and the same records as
``play --json``, answers only from the player asked, bad requests refused with one clear
message and the game unchanged, and not one hidden fact in any response."""

from __future__ import annotations

import asyncio
import json
import math
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from solo_ops.game.engine import pending
from solo_ops.io.opening import load_save
from solo_ops.session.table import GameTable
from solo_ops.web.app import MAX_BODY, create_app
from tests.support.api import (
    ANSWERS,
    SAVE_NAME,
    SECRET_KEYS,
    ApiClient,
    make_table,
    post,
    scenario_path,
    secrets_of,
    walk,
)
from tests.support.players import cli_here


@pytest.fixture
def table(tmp_path: Path) -> GameTable:
    return make_table(tmp_path)


@pytest.fixture
def client(table: GameTable) -> Iterator[ApiClient]:
    with ApiClient(create_app(table), base_url="http://127.0.0.1:8765") as c:
        yield c


def play_json(folder: Path, answers: list[str]) -> list[dict[str, Any]]:
    """``solo-ops play --json`` with these answers: every JSON line it prints (the command run
    in this process: what it prints is under test here, not its process)."""
    folder.mkdir(parents=True, exist_ok=True)
    args = ["play", str(scenario_path()), "--json"]
    for a in answers:
        args += ["--answer", a]
    run = cli_here(*args, cwd=folder)
    assert run.returncode == 0, run.stderr
    return [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]


# -- the same game as play --json --------------------------------------------------------------
def test_view_and_answers_are_play_json_exactly(client: ApiClient, table: GameTable,
                                                tmp_path: Path) -> None:
    first = client.get("/api/view", params={"player": "Ana"}).json()
    assert first["prompt"] == {"kind": "activate", "side": "player", "player": "Ana",
                               "operative": None, "text": "Ana: which operative do you activate?",
                               "options": ["kell", "rask", "vale", "oro"], "step": 3}
    assert first["your_turn"] is True and first["waiting_for"] is None
    ben = client.get("/api/view", params={"player": "Ben"}).json()
    assert ben["waiting_for"] == "Ana" and ben["your_turn"] is False
    for player, answer in ANSWERS:
        reply = post(client, player, answer)
        assert reply.status_code == 200 and reply.json()["ok"] is True, reply.json()
    refused = post(client, "Ben", "nobody").json()
    view = client.get("/api/view", params={"player": "Ben"}).json()
    lines = play_json(tmp_path / "terminal", [a for _, a in ANSWERS] + ["nobody"])
    # every record, byte for byte the JSON play --json prints, and the same prompt now
    assert view["records"] == [line["record"] for line in lines if "record" in line]
    assert view["prompt"] == [line["prompt"] for line in lines if "prompt" in line][-1]
    assert view["prompt"]["text"] == "Ben: what did Brother Corvin do?"
    # a refused answer gives the terminal's reason, and nothing changes
    assert refused == {"ok": False, "prompt": view["prompt"],
                       "message": next(line["refused"] for line in lines if "refused" in line)}
    assert refused["message"] == "I don't understand 'nobody'; type 'help' for the words I know"
    assert view["score"]["vp"] == {"player": 0, "enemy": 0} and view["score"]["turn"] == 1
    # the save on disk is the game the terminal would have saved
    terminal = json.loads((tmp_path / "terminal" / "saves" / SAVE_NAME).read_text())
    served = json.loads(table.save.read_text())
    assert served["actions"] == terminal["actions"] and served["steps"] == terminal["steps"]
    assert served["snapshot"] == terminal["snapshot"]
    # since=N gives only the newer steps
    later = client.get("/api/view", params={"player": "Ana", "since": 7}).json()
    assert [r["n"] for r in later["records"]] == list(range(7, view["steps"]))


def test_only_the_player_asked_may_answer_and_nothing_changes(client: ApiClient,
                                                              table: GameTable) -> None:
    before = table.save.read_bytes()
    reply = post(client, "Ben", "corvin")
    assert reply.status_code == 409
    assert reply.json() == {"ok": False, "message": "It is Ana's turn to answer: waiting for "
                            "Ana.", "prompt": table.prompt_doc()}
    assert table.save.read_bytes() == before
    # meta words are anyone's: status is the terminal's status
    status = post(client, "Ben", "status").json()
    assert status["ok"] and status["message"].startswith("Turn 1 (firefight); VP you 0 / "
                                                         "solo-ops 0")
    assert "  Ana: kell (14.8, 1.8) 8/8W conceal" in status["message"]  # at 14.75,1.75
    assert table.save.read_bytes() == before


def test_undo_takes_back_only_your_own_answer(client: ApiClient, table: GameTable) -> None:
    assert post(client, "Ana", "kell").json()["ok"]
    steps = len(table.state.log)
    refused = post(client, "Ben", "undo")
    assert refused.status_code == 409
    assert refused.json()["message"] == ("only Ana can take back 'activate kell': it was "
                                         "Ana's answer")
    assert len(table.state.log) == steps
    taken = post(client, "Ana", "undo").json()
    assert taken["ok"] and taken["message"] == ("Undone: 'activate kell' is taken back; you "
                                                "are back before it.")
    assert taken["prompt"]["text"] == "Ana: which operative do you activate?"
    log = [json.loads(line) for line in table.log.read_text().splitlines()]
    assert log[-1] == {"undo": True, "keep": 3}  # setup and 2 engine steps stay
    game, state = load_save(table.save)  # the save resumes at the same place
    assert {**pending(game, state).to_dict(), "step": len(state.log)} == taken["prompt"]


def test_an_answer_the_enemy_rolled_after_stands(client: ApiClient, table: GameTable) -> None:
    """Once the enemy has rolled after Ana's "done" (its activation), her answer stands
    (``undo: before_dice``): the page is told why in one line, and nothing changes."""
    assert post(client, "Ana", "kell").json()["ok"]
    assert post(client, "Ana", "done").json()["ok"]
    assert pending(table.game, table.state).player == "Ben"
    rolled = [r for record in table.state.log[4:] for r in record["rolls"]
              if not r.get("secret")]
    assert rolled, "the enemy rolled after Ana's done"
    before = (table.save.read_bytes(), table.log.read_bytes())
    refused = post(client, "Ana", "undo")
    assert refused.status_code == 200 and refused.json()["ok"] is False  # a rule's refusal
    assert refused.json()["message"] == (
        f"'done kell' cannot be taken back: dice have been rolled since "
        f"({rolled[0]['purpose']}), and what the table has seen stands (the scenario's "
        "setting undo: any allows it)")
    assert (table.save.read_bytes(), table.log.read_bytes()) == before


def test_a_relative_move_is_proposed_then_made_on_yes_as_at_the_terminal(
        client: ApiClient, table: GameTable, tmp_path: Path) -> None:
    assert post(client, "Ana", "kell").json()["ok"]
    before = table.save.read_bytes()
    proposed = post(client, "Ana", "move 2 toward obj-5").json()
    assert proposed["ok"] and proposed["message"].endswith("Do it? (yes / no)")
    assert proposed["message"].startswith("kell would reposition from (14.8, 1.8) 2.0\" ")
    assert table.save.read_bytes() == before and len(table.state.log) == 4  # nothing moved yet
    assert post(client, "Ben", "yes").status_code == 409  # not Ben's to agree to
    # "no" leaves the operative where it is; asked again, "yes" makes the move
    assert post(client, "Ana", "no").json() == {"ok": True, "message": "Not moved.",
                                                "prompt": proposed["prompt"]}
    assert table.save.read_bytes() == before and len(table.state.log) == 4
    assert post(client, "Ana", "move 2 toward obj-5").json() == proposed
    made = post(client, "Ana", "yes").json()
    assert made["ok"] and made["records"][0]["action"] == proposed["confirm"]
    lines = play_json(tmp_path / "terminal", ["kell", "move 2 toward obj-5", "yes"])
    confirm = next(line["confirm"] for line in lines if "confirm" in line)
    assert confirm["to"] == proposed["confirm"]["to"]
    records = [line["record"] for line in lines if "record" in line]
    assert table.records() == records


# A co-op game played to the end through the API by the e2e tests' scripted player, as
# whichever player is asked (the same game as in process, then every answer refused), is the
# game tests/web/test_secrets.py plays: its four turning points are checked there, once.


# -- refusals: one clear message, the game unchanged -------------------------------------------
@pytest.mark.parametrize(("body", "headers", "status", "message"), [
    (b"{not json", None, 400, 'the body must be one JSON object: {"player": NAME, "answer": '
     'TEXT}'),
    (b'["Ana", "kell"]', None, 400, 'the body must be one JSON object: {"player": NAME, '
     '"answer": TEXT}'),
    (b'{"player": "Ana", "answer": "kell", "as": "root"}', None, 400,
     "unknown key 'as' in the body (known: player, answer, token, step)"),
    (b'{"player": "Zed", "answer": "kell"}', None, 400,
     "player must be one of Ana, Ben, not 'Zed'"),
    (b'{"player": "", "answer": "kell", "step": 2}', None, 409,
     "already answered: that question (step 2) has been answered; the game is at step 3 now"),
    (b'{"player": "Ana", "answer": "kell", "step": "3"}', None, 400,
     "step must be the prompt's step number (a whole number)"),
    (b'{"player": "Ana", "answer": "kell", "step": 3.0}', None, 400,
     "step must be the prompt's step number (a whole number)"),
    (b'{"player": "Ana", "answer": "kell\\u2028done"}', None, 400,
     "answer must be one line of plain text (no control or separator characters: U+2028 at "
     "5)"),
    (b'{"player": "Ana", "answer": "kell\\u202edone"}', None, 400,
     "answer must be one line of plain text (no control or separator characters: U+202E at "
     "5)"),
    (b'{"player": "Ana", "answer": "kell\\u00a0done"}', None, 400,
     "answer must be one line of plain text (no control or separator characters: U+00A0 at "
     "5)"),
    (b'{"player": "Ana", "answer": "kell\\ud800"}', None, 400,
     "answer must be one line of plain text (no control or separator characters: U+D800 at "
     "5)"),
    (b'{"player": "Ana", "answer": "kell", "step": ' + b"[" * 2 + b"]" * 2 + b"}", None, 400,
     "step must be the prompt's step number (a whole number)"),
    (b'{"player": "Ana", "answer": "kell", "step": ' + b"[" * 2000 + b"]" * 2000 + b"}", None,
     400, 'the body is nested too deep (at most 3 levels): the body must be one JSON object: '
     '{"player": NAME, "answer": TEXT}'),
    (b'{"player": "Ana", "answer": "k[[[[ell"}', None, 200, None),
    (b'{"player": "Ana", "answer": 7}', None, 400,
     'answer must be text, e.g. {"player": "Ana", "answer": "done"}'),
    (b'{"player": "Ana", "answer": "kell\\ndone"}', None, 400,
     "answer must be one line of plain text (no control or separator characters: U+000A at "
     "5)"),
    (json.dumps({"player": "Ana", "answer": "x" * 501}).encode(), None, 400,
     "answer is too long (501 characters; at most 500)"),
    (b'{"player": "Ana", "answer": "' + b"x" * MAX_BODY + b'"}', None, 413,
     f"the request body is too large (at most {MAX_BODY} bytes)"),
    (b'{"player": "Ana", "answer": "kell"}', {"content-type": "text/plain"}, 415,
     'send the answer as JSON (Content-Type: application/json): {"player": NAME, "answer": '
     'TEXT, "step": N}'),
])
def test_a_bad_request_is_one_clear_message_and_changes_nothing(
        client: ApiClient, table: GameTable, body: bytes, headers: dict[str, str] | None,
        status: int, message: str) -> None:
    before = (table.save.read_bytes(), table.log.read_bytes())
    reply = client.post("/api/answer", content=body,
                        headers=headers or {"content-type": "application/json"})
    assert reply.status_code == status
    if message is None:  # brackets inside the text are no nesting: refused by the rules
        assert reply.json()["message"] == ("no operative called 'k[[[[ell' (choose from: kell, "
                                           "rask, vale, oro)")
    else:
        assert {k: v for k, v in reply.json().items() if k != "prompt"} == {
            "ok": False, "message": message}
    assert (table.save.read_bytes(), table.log.read_bytes()) == before
    assert len(table.state.log) == 3


def test_bad_queries_and_unknown_pages_are_json_too(client: ApiClient) -> None:
    assert client.get("/api/view", params={"player": "Zed"}).json() == {
        "ok": False, "message": "player must be one of Ana, Ben, not 'Zed'"}
    assert client.get("/api/view", params={"player": "Ana", "since": "-1"}).status_code == 400
    missing = client.get("/nowhere")
    assert missing.status_code == 404 and missing.json()["message"] == "no such page: /nowhere"
    wrong = client.get("/api/answer")
    assert wrong.status_code == 405 and "Traceback" not in wrong.text
    place = client.get("/api/place", params={"player": "Ana", "x": "a", "y": "1"})
    assert place.status_code == 400 and place.json()["message"] == \
        "x and y must be numbers (inches)"


def test_beyond_localhost_a_link_token_is_needed(table: GameTable) -> None:
    table.ensure_links()
    links = table.game.links
    assert links is not None
    app = create_app(table, local_only=False, hosts=["192.168.1.20"])
    before = table.save.read_bytes()
    with ApiClient(app, base_url="http://192.168.1.20:8765") as c:
        for reply in (post(c, "Ana", "kell"),
                      c.get("/api/view", params={"player": "Ana"}),
                      c.get("/board.svg", params={"player": "Ana"}),
                      c.get("/api/events", params={"player": "Ana"}),
                      c.get("/")):
            assert reply.status_code == 403
            assert reply.json()["message"] == ("this game needs your link's token: open the link "
                                               "the server printed for you")
        guessed = post(c, "Ana", "kell", headers={"x-solo-ops-token": "guess"})
        assert guessed.status_code == 403 and guessed.json()["message"].startswith(
            "this link is not (or no longer) valid")
        assert table.save.read_bytes() == before and len(table.state.log) == 3
        ana = links["players"]["Ana"]
        ok = post(c, "Ana", "kell", headers={"x-solo-ops-token": ana})
        assert ok.status_code == 200 and ok.json()["ok"]
        view = c.get("/api/view", params={"player": "Ana", "token": ana})
        assert view.json()["prompt"]["text"] == "Ana: what did Sgt Kell do?"


def test_on_localhost_only_local_names_are_served(table: GameTable) -> None:
    for name in ("attacker.example", "127.evil.example", "127.0.0.1.evil.example",
                 "localhost.evil.example", "127.0.0.2"):
        with ApiClient(create_app(table), base_url=f"http://{name}:8765") as c:
            reply = post(c, "Ana", "kell")
            view = c.get("/api/view", params={"player": "Ana"})
        assert reply.status_code == 403 and view.status_code == 403, name
        assert "prompt" not in view.text
    assert len(table.state.log) == 3
    for name in ("127.0.0.1", "localhost", "LOCALHOST", "[::1]"):
        with ApiClient(create_app(table), base_url=f"http://{name}:8765") as c:
            assert c.get("/api/players").status_code == 200, name


# -- tap to place ------------------------------------------------------------------------------
def test_a_tap_is_snapped_measured_and_the_engine_agrees(client: ApiClient,
                                                         table: GameTable) -> None:
    assert post(client, "Ana", "kell").json()["ok"]
    # Kell (a 25 mm base, 0.49") stands at 14.75,1.75; 2" right and 3" up is open floor
    tap = client.get("/api/place", params={"player": "Ana", "x": 16.75, "y": 4.75}).json()
    assert tap["ok"] and tap["at"] == [16.75, 4.75] and not tap["snapped"]
    assert tap["distance"] == round(math.hypot(2, 3), 2) and tap["allowance"] == 6.0
    assert tap["within"] and tap["answer"] == "move 16.75,4.75"
    assert tap["route"] == [[14.75, 1.75], [16.75, 4.75]]
    # a tap on the rubble (heavy terrain, x 13..15.5, y 3.8..5) is moved to the nearest spot
    # where the base fits (the placement rule): straight down to y = 3.8 - 0.49, on the
    # 0.05" grid through the tap, 3.30 (3.35 would leave 0.04" of the base in the rubble)
    snapped = client.get("/api/place", params={"player": "Ana", "x": 14.25, "y": 4.4}).json()
    assert snapped["ok"] and snapped["snapped"] and snapped["at"] == [14.25, 3.3]
    assert snapped["distance"] == round(math.hypot(0.5, 1.55), 2) and snapped["within"]
    assert "moved to the nearest point where the base fits: rubble-3 is there" in snapped["text"]
    reply = post(client, "Ana", snapped["answer"]).json()
    assert reply["ok"], reply
    moved = next(e for e in reply["records"][0]["events"] if e["type"] == "moved")
    assert moved["to"] == [14.25, 3.3]
    assert moved["cost"] == pytest.approx(snapped["distance"], abs=0.01)
    # a tap when nobody is active says so
    assert post(client, "Ana", "done").json()["ok"]
    idle = client.get("/api/place", params={"player": "Ben", "x": 3, "y": 3}).json()
    assert idle == {"ok": False, "message": "no operative is active: choose which one acts "
                    "first"}








def test_no_endpoint_shows_a_hidden_fact(client: ApiClient, table: GameTable) -> None:
    for player, answer in ANSWERS:
        assert post(client, player, answer).json()["ok"]
    assert post(client, "Ben", "done").json()["ok"]
    counters = {c.id: c for c in table.state.counters.values() if c.active}
    assert counters, "the test needs hidden counters on the table"
    assert any(e.get("secret") for r in table.state.log for e in r["events"])
    texts: dict[str, str] = {}
    for player in ("Ana", "Ben"):
        texts[f"view {player}"] = client.get("/api/view", params={"player": player}).text
        texts[f"svg {player}"] = client.get("/board.svg", params={"player": player}).text
    texts["page"] = client.get("/", params={"player": "Ana"}).text
    texts["script"] = client.get("/static/app.js").text
    texts["setup script"] = client.get("/static/setup.js").text
    texts["style"] = client.get("/static/app.css").text
    texts["players"] = client.get("/api/players").text
    texts["status"] = post(client, "Ben", "status").text
    texts["help"] = post(client, "Ben", "help").text
    texts["refused"] = post(client, "Ben", "shoot c1").text
    texts["place"] = client.get("/api/place", params={"player": "Ben", "x": 10,
                                                      "y": 3}).text
    texts["answer"] = post(client, "Ben", "done").text
    secret_words = secrets_of(table)
    for name, text in texts.items():
        for word in secret_words:
            assert word not in text, (name, word)
        if name.startswith(("view", "status", "answer", "refused", "place", "players")):
            for key, _value in walk(json.loads(text)):
                assert key not in SECRET_KEYS, (name, key)
    view = json.loads(texts["view Ana"])
    assert [m for m in view["models"] if m["side"] == "counter"] == [
        {"id": c.id, "side": "counter", "at": [round(c.at[0], 2), round(c.at[1], 2)],
         "radius": 0.5, "down": False} for c in counters.values()]
    for c in counters.values():  # the maps' own test: no "(order)" after a counter's id
        assert f"{c.id} ({c.hidden_order})" not in texts["svg Ana"]
        assert f">{c.id}</text>" in texts["svg Ana"]  # drawn, with its id


# -- live updates through a real server --------------------------------------------------------
class Server:
    """uvicorn serving ``app`` on a free port in a thread (stopped with :meth:`stop`)."""

    def __init__(self, app: Any) -> None:
        import uvicorn

        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0,
                                                    log_level="warning", lifespan="off",
                                                    timeout_graceful_shutdown=1))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


async def _collect(url: str, player: str, until: int, out: list[dict[str, Any]],
                   ready: asyncio.Event) -> None:
    async with httpx.AsyncClient(timeout=30) as c, \
            c.stream("GET", f"{url}/api/events", params={"player": player}) as r:
        assert r.headers["content-type"].startswith("text/event-stream")
        async for line in r.aiter_lines():
            if line.startswith("data: "):
                out.append(json.loads(line[6:]))
                ready.set()
                if len(out) >= until:
                    return


def test_every_page_gets_each_record_as_play_json_prints_it(table: GameTable) -> None:
    server = Server(create_app(table))
    try:
        async def scenario() -> tuple[list[list[dict[str, Any]]], dict[str, Any]]:
            streams: list[list[dict[str, Any]]] = [[], [], []]
            ready = [asyncio.Event() for _ in streams]
            # each page: the prompt on connecting, kell's activation record, the next prompt
            tasks = [asyncio.create_task(_collect(server.url, p, 3, s, e))
                     for p, s, e in zip(("Ana", "Ben", "Ben"), streams, ready, strict=True)]
            for e in ready:
                await asyncio.wait_for(e.wait(), 20)
            async with httpx.AsyncClient() as c:
                reply = (await c.post(f"{server.url}/api/answer",
                                      json={"player": "Ana", "answer": "kell"})).json()
            await asyncio.wait_for(asyncio.gather(*tasks), 20)
            return streams, reply

        streams, reply = asyncio.run(scenario())
    finally:
        server.stop()
    kell = reply["records"]
    assert [r["n"] for r in kell] == [3]
    for stream in streams:
        assert stream[0] == {"prompt": {"kind": "activate", "side": "player", "player": "Ana",
                                        "operative": None,
                                        "text": "Ana: which operative do you activate?",
                                        "options": ["kell", "rask", "vale", "oro"], "step": 3},
                             "resync": True}
        assert stream[1] == {"record": kell[0]}
        assert stream[2] == {"prompt": reply["prompt"]}
        assert stream[1]["record"] == table.records()[3]


def test_the_end_screen_says_what_the_terminal_summary_says(tmp_path: Path) -> None:
    """At the end the view carries the summary the terminal prints (the result, the enemies
    destroyed, the counters never found, the losses, each squad's models), from the game's
    own result; before the end it is empty."""
    from solo_ops.game.engine import new_game
    from solo_ops.io.scenario import load_scenario
    from solo_ops.sim import autopilot
    from tests.support.players import small_scenario

    game, state = new_game(load_scenario(small_scenario(tmp_path, coop=True)), 3)
    table = GameTable(game, state, tmp_path / "e.json", tmp_path / "e.log.jsonl")
    table.start()
    with ApiClient(create_app(table), "http://127.0.0.1:8765") as c:
        assert c.get("/api/view", params={"player": "Ana"}).json()["summary"] == []
    autopilot.play(game, state)
    result = state.result
    assert result is not None
    with ApiClient(create_app(table), "http://127.0.0.1:8765") as c:
        summary = c.get("/api/view", params={"player": "Ana"}).json()["summary"]
    assert summary[0].startswith(f"Result: {result['outcome'].upper()} after 2 turning "
                                 f"points — you {result['vp']['player']} VP, solo-ops "
                                 f"{result['vp']['enemy']} VP.")
    assert summary[1] == (f"Enemies destroyed: {result['enemies_destroyed']}"
                          + (" (every enemy is gone)" if result["all_enemies_destroyed"]
                             else "")
                          + f"; hidden counters never found: {result['unresolved_counters']}.")
    assert summary[2].startswith(f"Your losses: {result['squad_lost']}")
    for line, player in zip(summary[3:], ("Ana", "Ben"), strict=True):
        ids = [o.id for o in state.operatives.values() if o.owner == player]
        assert line.startswith(f"  {player}: ") and all(i in line for i in ids)


def test_every_page_hears_what_an_undo_took_back(table: GameTable) -> None:
    """The event stream's undo line (as the log writes it) carries the undo's words, so the
    other players' pages say what was taken back instead of the question just vanishing."""
    from solo_ops.web.server import Hub, TableServer
    from solo_ops.web.stream import updates

    server = TableServer(table, Hub(), {})
    assert table.answer("Ana", "kell").ok
    lines, _tip = updates(server, table.undo("Ana"))
    assert json.loads(lines[0]) == {
        "undo": True, "keep": 3,
        "said": "Undone: 'activate kell' is taken back; you are back before it."}
    assert json.loads(lines[-1])["prompt"]["text"] == "Ana: which operative do you activate?"
