"""Exact hosts (issue #41, item 8): the Host header is parsed strictly — one name or address
and an optional port, nothing else — and compared with the exact names the game is served as
and its port; whether ``--host`` is this computer only is decided from the parsed address.
The issue's hosts were accepted (a POST with the first changed the game): each is refused now,
the game unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest

from solo_ops.session.table import GameTable
from solo_ops.web.app import create_app
from solo_ops.web.guard import allowed_hosts, is_loopback, parse_host
from tests.support.api import ApiClient, make_table, post

PORT = 8765
ISSUE_HOSTS = [f"[::1]evil.example:{PORT}", "[::1].evil", "[::1", "localhost:80@evil.com",
               "127.0.0.1:abc", f"localhost:{PORT}/evil"]


@pytest.mark.parametrize("header", [*ISSUE_HOSTS, "", " ", "localhost.", "local host",
                                    "localhost:0", "localhost:65536", "localhost:+80",
                                    "[127.0.0.1]", "[::1]:", "a@localhost", "localhost:80:80",
                                    "x" * 254])
def test_what_is_not_exactly_a_host_and_a_port_is_refused(header: str) -> None:
    assert parse_host(header) is None


@pytest.mark.parametrize(("header", "parsed"), [
    ("localhost", ("localhost", None)), (f"LOCALHOST:{PORT}", ("localhost", PORT)),
    ("127.0.0.1", ("127.0.0.1", None)), ("[::1]", ("[::1]", None)),
    (f"[0:0:0:0:0:0:0:1]:{PORT}", ("[::1]", PORT)), ("192.168.1.20:80", ("192.168.1.20", 80)),
    ("table.local", ("table.local", None)), ("127.000.0.1", ("127.000.0.1", None)),
])
def test_a_host_is_its_one_written_form_and_its_port(header: str,
                                                     parsed: tuple[str, int | None]) -> None:
    """An address in its one written form (so ``[0:…:1]`` is ``[::1]``); ``127.000.0.1`` is no
    address (``ipaddress`` refuses the leading zeros) and so only a name, which no allow-list
    holds."""
    assert parse_host(header) == parsed
    assert "127.000.0.1" not in allowed_hosts(["192.168.1.20"])


@pytest.fixture
def table(tmp_path: Path) -> GameTable:
    return make_table(tmp_path)


def test_the_issues_hosts_are_refused_and_the_game_is_unchanged(table: GameTable) -> None:
    app = create_app(table, port=PORT)
    before = table.save.read_bytes()
    with ApiClient(app, base_url=f"http://127.0.0.1:{PORT}") as c:
        for host in [*ISSUE_HOSTS, f"127.0.0.1:{PORT + 1}", "evil.example"]:
            reply = post(c, "Ana", "kell", headers={"host": host})
            assert reply.status_code == 403, host
            assert reply.json()["message"].startswith("this game is served only as ")
        assert table.save.read_bytes() == before and len(table.state.log) == 3
        for host in (f"localhost:{PORT}", f"[::1]:{PORT}", "127.0.0.1"):  # no port: its own
            assert c.get("/api/players", headers={"host": host}).status_code == 200, host
        assert post(c, "Ana", "kell", headers={"host": f"localhost:{PORT}"}).json()["ok"]


def test_this_computer_only_is_decided_from_the_parsed_address() -> None:
    """Was a prefix on ``127.``: ``127.0.0.1.evil.example`` served as this computer only
    (no token needed)."""
    for host in ("127.0.0.1", "127.5.5.5", "::1", "[::1]", "localhost", "LOCALHOST"):
        assert is_loopback(host), host
    for host in ("127.0.0.1.evil.example", "127.evil", "0.0.0.0", "::", "192.168.1.20",
                 "10.0.0.1", "127.1", "localhost.evil.example"):
        assert not is_loopback(host), host
