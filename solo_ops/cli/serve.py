"""``solo-ops serve``: the table view — the game as a live web page the players tap.

The same game as ``play`` (the same save, log, resume, undo and replay: a game started here goes
on with ``play --resume`` and the other way round), opened by the same rules: an unfinished game
of the scenario and seed is resumed, never overwritten, ``--new`` moves the old files aside, and
the save is locked while the server runs. The page and its API are
:mod:`solo_ops.web.app`; the server is uvicorn. It prints ``Serving <name> on URL`` and each
player's link (and the host's, which answers for anyone): the tokens in them are made the first
time the game is served and kept in its save (:mod:`solo_ops.session.links`), so a bookmarked
link works after a restart, ``serve --resume`` or a game taken to the terminal and back;
``--new-link NAME`` re-issues one. Served beyond this computer (``--host 0.0.0.0``) every
request needs a link's token; on this computer only, a page without one is the host's.
"""

from __future__ import annotations

import contextlib
import signal
import socket
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import click

from solo_ops.cli.common import SEED, resolve_seed
from solo_ops.cli.compile import use_at_table
from solo_ops.cli.play import UNITS
from solo_ops.core.errors import InputError
from solo_ops.io import opening
from solo_ops.io.locks import game_lock
from solo_ops.rules.editions import turn_name
from solo_ops.session.links import HOST
from solo_ops.session.opening import open_table, start_table, sync_log


def _lan_address() -> str:
    """This computer's address on the local network (no packet is sent), or its name."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("10.255.255.255", 1))
        return str(s.getsockname()[0])
    return socket.gethostname()


def served_names(host: str) -> list[str]:
    """The names a game served on ``host`` answers to beyond localhost's: the address it is
    bound to (unless it is every address), this computer's address on the network and its
    name (as typed and with ``.local``); none when it is served on this computer only."""
    from solo_ops.web.app import is_loopback

    if is_loopback(host):
        return [host] if host.strip().lower() not in ("127.0.0.1", "localhost", "::1") else []
    name = socket.gethostname()
    names = [_lan_address(), name, f"{name}.local"]
    if host not in ("0.0.0.0", "::", ""):
        names.append(host)
    return names


def base_url(host: str, port: int) -> str:
    """The URL the players open: this computer's network address beyond localhost."""
    from solo_ops.web.app import is_loopback

    shown = host if is_loopback(host) else _lan_address()
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def link_lines(base: str, players: list[str], links: dict[str, Any]) -> list[str]:
    """The lines that give each player their link, then the host's."""
    from solo_ops.web.join import player_link

    out = [f"  {player}: {player_link(base, player, links)}" for player in players]
    out.append("  The host's link answers for every player (one device passed round the "
               "table):")
    out.append(f"  {HOST}: {base}?{urlencode({'token': links['host']})}")
    return out


QR_GAP = 3
"""Columns between two QR codes printed side by side."""


def qr_lines(base: str, players: list[str], links: dict[str, Any], width: int) -> list[str]:
    """Each player's link as a QR code to scan from the terminal, its name above it, as many
    side by side as ``width`` columns hold."""
    from solo_ops.view import qr
    from solo_ops.web.join import player_link

    codes = [(f"{p} — scan to join", qr.terminal(player_link(base, p, links)).splitlines())
             for p in players]
    out: list[str] = []
    row: list[tuple[str, list[str]]] = []
    for code in codes:
        wide = sum(len(c[1][0]) + QR_GAP for c in [*row, code]) - QR_GAP
        if row and wide > width:
            out += _side_by_side(row)
            row = []
        row.append(code)
    if row:
        out += _side_by_side(row)
    return out


def _side_by_side(codes: list[tuple[str, list[str]]]) -> list[str]:
    """QR codes (each's title, then its lines) next to each other."""
    gap = " " * QR_GAP
    size = max(len(lines[0]) for _, lines in codes)
    out = [gap.join(title[:size].ljust(size) for title, _ in codes).rstrip()]
    for i in range(max(len(lines) for _, lines in codes)):
        out.append(gap.join((lines[i] if i < len(lines) else "").ljust(size)
                            for _, lines in codes).rstrip())
    return out


def echo_links(base: str, players: list[str], links: dict[str, Any]) -> None:
    """Print each player's QR code (where the terminal can show its blocks), then every
    link."""
    import shutil
    import sys

    try:
        codes = qr_lines(base, players, links, shutil.get_terminal_size((100, 40)).columns)
        "\n".join(codes).encode(sys.stdout.encoding or "utf-8")
    except UnicodeEncodeError:  # a terminal without the block characters: the links only
        codes = []
    for line in codes:
        click.echo(line)
    for line in link_lines(base, players, links):
        click.echo(line)


_asked: list[int] = []
"""The stops (signals) this process was asked for since :func:`quiet_stops`: kept even when the
exit the stop raises is lost, which happens when the signal is handled inside a finalizer
(``__del__``, a weakref callback), where Python only prints "Exception ignored"."""

_serving: list[Any] = []
"""The uvicorn server while :func:`run_server` runs it: a stop then ends it at its next tick
rather than raising."""


def quiet_stops() -> None:
    """From now on Ctrl+C or a stop from the system is a clean exit (status 0) that leaves the
    locks tidily (no leftovers). Before the server runs, a stop exits at once; once it runs
    (and for the signal uvicorn raises again once it has shut down), a stop asks it to shut
    down, and :func:`run_server` returns. A stop whose exit was lost (handled inside a
    finalizer) is remembered, so the server is not started, or shuts down, all the same."""
    _asked.clear()
    for stop in (signal.SIGINT, signal.SIGTERM):
        signal.signal(stop, _stopped)


def stop_asked() -> bool:
    """Whether a stop came since :func:`quiet_stops` (even one whose exit was lost)."""
    return bool(_asked)


def run_server(app: Any, sock: socket.socket) -> None:
    """Serve ``app`` on ``sock`` with uvicorn until Ctrl+C (or a stop from the system), then
    return: the pages' event streams are ended first
    (:meth:`~solo_ops.web.server.Hub.close`), so nothing is left running to be cancelled (no
    tracebacks). A stop that came before (:func:`stop_asked`: the commands call
    :func:`quiet_stops` before they print their links) means it is not served at all."""
    import uvicorn

    hub = app.app.state.hub  # the Guard wraps the Starlette app

    class Server(uvicorn.Server):
        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            hub.close()
            await super().shutdown(sockets)

    config = uvicorn.Config(app, log_level="warning", access_log=False,
                            timeout_graceful_shutdown=1, lifespan="off")
    server = Server(config)
    _serving.append(server)  # from here a stop (ours or uvicorn's handler) ends it at a tick
    try:
        if not stop_asked():
            server.run(sockets=[sock])
    finally:
        _serving.remove(server)


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except socket.gaierror as exc:  # the name itself: no such host here
        sock.close()
        raise InputError(f"cannot serve on {host!r} ({exc.strerror or exc}): give a name or "
                         "address of this computer", source="--host") from None
    except OSError as exc:
        sock.close()
        raise InputError(f"cannot serve on {host}:{port} ({exc.strerror or exc}); try another "
                         "--port", source="--port") from None
    sock.listen(64)
    sock.set_inheritable(True)
    return sock


@click.command("serve")
@click.argument("scenario", required=False, type=click.Path(path_type=Path))
@click.option("--resume", "resume", type=click.Path(path_type=Path),
              help="Serve a saved game.")
@click.option("--seed", type=SEED, default=None,
              help="Seed for the dice (default: the scenario's seed, or a new secret one). A "
                   "seed you choose reproduces a game; it does not keep it secret.")
@click.option("--save", "save", type=click.Path(path_type=Path), default=None,
              help="Where to save (default saves/<scenario>-<id>.json).")
@click.option("--new", "new", is_flag=True,
              help="Start SCENARIO afresh even if a game of it with this seed is saved (the "
                   "old files are moved aside, not deleted).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to serve on: 127.0.0.1 is this computer only; 0.0.0.0 the local "
                   "network (players then need the join links printed at start).")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="Port to serve on (0: any free port).")
@click.option("--units", "units", type=UNITS, default=None,
              help="Show and read distances in inches or centimetres (default: the scenario's "
                   "units setting). Only the display changes: the save is the same.")
@click.option("--new-link", "new_links", multiple=True, metavar="NAME",
              help="Re-issue NAME's link (a player, or host): the old one stops working. "
                   "Repeat for several.")
def serve_command(scenario: Path | None, resume: Path | None, seed: int | None,
                  save: Path | None, new: bool, host: str, port: int,
                  units: str | None, new_links: tuple[str, ...]) -> None:
    """Serve SCENARIO (or --resume SAVE) as a live web page for the table."""
    from solo_ops.web.app import create_app, is_loopback

    p = opening.plan(scenario, resume, seed, save, new, command="serve",
                     fresh_seed=resolve_seed)
    save_path = p.save
    if p.resuming:
        snapshot = opening.finished_snapshot(save_path)
        if snapshot is not None:
            click.echo(opening.finished_line(save_path, snapshot, "Start another with "
                                             "`solo-ops serve SCENARIO --new` or another "
                                             "--seed."))
            return
    local = is_loopback(host)
    sock = _bind(host, port)  # before anything is written: a busy port changes nothing
    with contextlib.closing(sock), game_lock(save_path):
        use_at_table()
        quiet_stops()
        if p.resuming:
            table, doc = open_table(p, units=units)
            try:
                note = sync_log(table, doc)
            except opening.LogDisagrees as exc:
                raise InputError(f"{exc.message}. The save is the truth: run `solo-ops play "
                                 f"--resume {save_path} --rebuild-log` once to rebuild the log",
                                 source=str(save_path)) from None
            if note:
                click.echo(note)
            if table.game.notice:  # it goes on from its checkpoint (io.opening.load_save_doc)
                click.echo(table.game.notice)
            click.echo(f"Resuming {table.game.scenario.name} from {save_path} "
                       f"({turn_name(table.state.edition)} {table.state.turn}).")
        else:
            assert p.scenario is not None and p.seed is not None
            table, notes = start_table(p.scenario, p.seed, save_path, p.log,
                                               units=units)
            for note in notes:
                click.echo(note)
            game = table.game
            click.echo(f"{game.scenario.name} — {game.edition}. Saving to {save_path}.")
        table.advance()
        table.ensure_links()  # made once, kept in the save: the links outlive the server
        for name in new_links:
            table.reissue_link(name)
            click.echo(f"A new link for {name}: the old one no longer works.")
        real_port = sock.getsockname()[1]
        base = base_url(host, real_port)
        app = create_app(table, local_only=local, hosts=served_names(host), base=base,
                         port=real_port)
        assert table.game.links is not None
        click.echo(f"Serving {table.game.scenario.name} on {base}")
        echo_links(base, table.players, table.game.links)
        click.echo(f"The game is saved to {save_path} after every step; stop with Ctrl+C and "
                   f"go on with `solo-ops serve --resume {save_path}` or `solo-ops play "
                   f"--resume {save_path}`.")
        run_server(app, sock)


def _stopped(signum: int, frame: Any) -> None:
    """Ctrl+C or a stop from the system: remembered (:func:`stop_asked`), then the server is
    asked to shut down if it runs, else this process exits cleanly."""
    _asked.append(signum)
    if _serving:
        _serving[-1].handle_exit(signum, frame)
        return
    raise SystemExit(0)


commands = [serve_command]
