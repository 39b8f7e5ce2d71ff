"""``serve`` and ``campaign serve`` print a QR code per player that decodes to the player's
link, and Ctrl+C with pages connected (their event streams open) exits quietly: status 0, no
traceback (each open stream used to print a CancelledError's three)."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
from pathlib import Path

from tests.support.browser import Served
from tests.support.paths import SCENARIOS
from tests.support.players import cli_here, small_scenario
from tests.support.qr import decode_terminal


def _open_streams(url: str, count: int) -> list[socket.socket]:
    """``count`` pages' event streams, connected and reading (their first message in)."""
    host, port = url.removeprefix("http://").rstrip("/").rsplit(":", 1)
    streams = []
    for _ in range(count):
        s = socket.create_connection((host, int(port)), timeout=30)
        s.sendall(f"GET /api/events HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
        got = b""
        while b"data:" not in got:
            got += s.recv(4096)
        streams.append(s)
    return streams


def _stop_quietly(server: Served) -> None:
    streams = _open_streams(server.url, 3)
    try:
        server.proc.send_signal(signal.SIGINT)
        # the open streams never hold the shutdown up (no graceful wait on them): the bound
        # only catches such a hang, never the speed of a busy machine
        assert server.proc.wait(timeout=60) == 0
        assert server.proc.stderr is not None
        errors = server.proc.stderr.read()
        assert "Traceback" not in errors and "CancelledError" not in errors, errors
    finally:
        for s in streams:
            s.close()


def test_serve_prints_each_player_s_qr_code_and_stops_quietly(tmp_path: Path) -> None:
    server = Served(tmp_path, "serve", str(small_scenario(tmp_path, coop=True)))
    try:
        assert set(server.links) == {"Ana", "Ben", "host"}
        # one code a player (the host's link is for this computer)
        assert decode_terminal(server.lines) == [server.links["Ana"], server.links["Ben"]]
        assert "Ana — scan to join" in "\n".join(server.lines)
        _stop_quietly(server)
    finally:
        server.stop()


def test_campaign_serve_prints_the_codes_and_ctrl_c_prints_no_traceback(tmp_path: Path) -> None:
    squads = SCENARIOS / "squads"
    made = subprocess.run([sys.executable, "-m", "solo_ops", "campaign", "new", "Duo", "--squad",
                           str(squads / "vesper.yaml"), "--squad",
                           str(squads / "ashen-blades.yaml"), "--saves", "saves"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    server = Served(tmp_path, "campaign", "serve", "Duo", "--saves", "saves")
    try:
        assert decode_terminal(server.lines) == [server.links["Ana"], server.links["Ben"]]
        _stop_quietly(server)
    finally:
        server.stop()


def test_the_codes_stand_side_by_side_as_the_terminal_s_width_allows() -> None:
    from solo_ops.cli.serve import qr_lines

    links = {"players": {"Ana": "a" * 16, "Ben": "b" * 16, "Cy": "c" * 16}, "host": "h" * 16}
    base = "http://192.168.1.20:8765/"
    wide = qr_lines(base, ["Ana", "Ben", "Cy"], links, 130)  # 3 x 41 + 2 x 3 columns = 129
    assert wide[0] == "Ana — scan to join" + " " * 26 + "Ben — scan to join" + " " * 26 + \
        "Cy — scan to join"
    assert len(wide) == 1 + 21
    narrow = qr_lines(base, ["Ana", "Ben", "Cy"], links, 100)  # two, then one
    assert len(narrow) == 2 * (1 + 21)
    expected = [f"{base}?player={p}&token={links['players'][p]}" for p in ("Ana", "Ben", "Cy")]
    assert decode_terminal(wide) == expected
    assert sorted(decode_terminal(narrow)) == expected  # (Cy's code under Ana's)


def test_a_host_name_that_is_no_host_here_is_blamed_on_host(tmp_path: Path) -> None:
    """`--host` naming no computer is that option's fault, not the port's (a tester was told
    to try another --port)."""
    run = cli_here("serve", "gallowdark-night-raid", "--host", "not a host", "--port", "18769",
                   "--save", str(tmp_path / "g.json"), cwd=tmp_path)
    assert run.returncode == 2
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("solo-ops: error: --host: cannot serve on "
                                                   "'not a host'")
    assert not (tmp_path / "g.json").exists()
