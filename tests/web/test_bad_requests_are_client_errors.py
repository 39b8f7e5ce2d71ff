"""HTTP 4xx for every bad request, never 500 (issue #41, item 5): ``/api/place`` with a move
kind the edition lacks (``how=advance`` in 2024, ``how=dash`` in 2018) answered 500 from the
move allowance's table; an error the game raises for what a request asked answered 500 too.
Every route given junk answers one message with a 4xx and the game is unchanged."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest

from solo_ops.core.errors import InputError, SaveError
from solo_ops.game.engine import new_game
from solo_ops.io.scenario import load_scenario
from solo_ops.session.table import GameTable
from solo_ops.web.app import create_app
from tests.support.api import ApiClient, make_table, post
from tests.support.players import small_scenario


def acting(table: GameTable) -> dict[str, Any]:
    """The table on until one of the players' operatives is acting: its prompt."""
    for _ in range(40):
        asked = table.prompt_doc()
        if asked["kind"] == "act":
            return asked
        answer = {"activate": asked["options"][0] if asked["options"] else "done",
                  "reroll": "keep", "fight": "auto all", "reaction": "no",
                  "counteract": "pass"}.get(asked["kind"], "done")
        assert table.answer(asked["player"], answer).ok, asked
    raise AssertionError("no operative acts")


@pytest.mark.parametrize(("edition", "how", "moves"), [
    ("kt2024", "advance", "move, reposition, dash, fallback, charge"),
    ("kt2018", "dash", "move, normal, fallback, advance, charge"),
])
def test_a_move_the_edition_lacks_is_a_400_naming_the_moves_there_are(
        tmp_path: Path, edition: str, how: str, moves: str) -> None:
    game, state = new_game(load_scenario(small_scenario(tmp_path, edition)), 7)
    table = GameTable(game, state, tmp_path / "g.json", tmp_path / "g.log.jsonl")
    table.start()
    table.advance()
    asked = acting(table)
    before = table.save.read_bytes()
    with ApiClient(create_app(table), base_url="http://127.0.0.1:8765") as c:
        reply = c.get("/api/place", params={"player": asked["player"], "x": 5, "y": 5,
                                            "how": how})
        assert reply.status_code == 400
        assert reply.json() == {"ok": False, "message": f"a {edition} game has no {how} move "
                                                        f"(how: {moves})"}
        fine = c.get("/api/place", params={"player": asked["player"], "x": 5, "y": 5})
        assert fine.status_code == 200
    assert table.save.read_bytes() == before


JUNK = ["", "nan", "inf", "-1e999", "9" * 400, "x" * 600, "\u2028", "../..", "1,2", "[]", "{}"]


def test_junk_on_every_route_is_a_4xx_and_changes_nothing(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    before = table.save.read_bytes()
    statuses: set[int] = set()
    with ApiClient(create_app(table), base_url="http://127.0.0.1:8765") as c:
        for value, key in itertools.product(JUNK, ("player", "since", "x", "y", "how")):
            for path in ("/api/view", "/api/place", "/board.svg", "/board.png", "/api/players"):
                reply = c.get(path, params={key: value})
                statuses.add(reply.status_code)
                assert reply.status_code < 500, (path, key, value, reply.text[:200])
        for body in (b"", b"null", b"[1]", b'{"player": "Ana", "answer": 7}',
                     b'{"player": "Ana", "answer": "kell", "step": 1e999}',
                     b'{"player": "Ana", "answer": "kell", "step": -1}',
                     b'{"player": "Ana", "answer": "kell\\ud800"}',
                     b'{"player": "Ana", "answer": "move 1e308,1e308"}'):
            reply = c.post("/api/answer", content=body,
                           headers={"content-type": "application/json"})
            statuses.add(reply.status_code)
            assert reply.status_code < 500, (body, reply.text[:200])
    assert statuses & {400, 403, 409} and max(statuses) < 500
    assert table.save.read_bytes() == before or len(table.state.log) > 3


@pytest.mark.parametrize(("error", "status"), [(InputError("no such thing", field="x"), 400),
                                               (SaveError("g.json cannot be saved"), 503)])
def test_an_error_the_game_raises_is_not_a_500(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               error: Exception, status: int) -> None:
    """What the game refuses is the request's (400); a save that cannot be written is the
    server's for now (503: try again), never an internal error."""
    table = make_table(tmp_path)

    def refuse(*_args: Any, **_kw: Any) -> Any:
        raise error

    monkeypatch.setattr(GameTable, "view", refuse)
    with ApiClient(create_app(table), base_url="http://127.0.0.1:8765") as c:
        reply = c.get("/api/view", params={"player": "Ana"})
        assert reply.status_code == status
        assert reply.json()["ok"] is False and str(error).split(": ")[-1] in reply.json()[
            "message"]
        assert post(c, "Ana", "kell").status_code == 200  # answers are not views
