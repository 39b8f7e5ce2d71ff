"""``solo-ops serve``: the table view — the game as a live web page the players tap.

The same game as ``play`` (the same save, log, resume, undo and replay: a game started here goes
on with ``play --resume`` and the other way round), opened by the same rules: an unfinished game
of the scenario and seed is resumed, never overwritten, ``--new`` moves the old files aside, and
the save is locked while the server runs. The page and its API are
:mod:`solo_ops.web.app`; the server is uvicorn. It prints ``Serving <name> on URL``; served
beyond this computer (``--host 0.0.0.0``) it also prints each player's join link, carrying the
game's join token that every request then needs.
"""

from __future__ import annotations

import contextlib
import signal
import socket
from pathlib import Path
from urllib.parse import quote

import click

from solo_ops.cli.common import resolve_seed
from solo_ops.cli.play import UNITS
from solo_ops.core.errors import InputError
from solo_ops.io import opening
from solo_ops.io.persistence import game_lock
from solo_ops.session.opening import open_table, start_table, sync_log


def _lan_address() -> str:
    """This computer's address on the local network (no packet is sent), or its name."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("10.255.255.255", 1))
        return str(s.getsockname()[0])
    return socket.gethostname()


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
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
@click.option("--seed", type=int, default=None,
              help="Seed for the dice (default: the scenario's seed, or a new one).")
@click.option("--save", "save", type=click.Path(path_type=Path), default=None,
              help="Where to save (default saves/<scenario>-<seed>.json).")
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
def serve_command(scenario: Path | None, resume: Path | None, seed: int | None,
                  save: Path | None, new: bool, host: str, port: int,
                  units: str | None) -> None:
    """Serve SCENARIO (or --resume SAVE) as a live web page for the table."""
    import uvicorn

    from solo_ops.web.app import create_app, is_loopback, new_token

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
    token = None if local else new_token()
    sock = _bind(host, port)  # before anything is written: a busy port changes nothing
    with contextlib.closing(sock), game_lock(save_path):
        for stop in (signal.SIGINT, signal.SIGTERM):  # uvicorn raises them again when it has
            signal.signal(stop, _stopped)  # shut down: leave the lock tidily (no leftovers)
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
                       f"(turn {table.state.turn}).")
        else:
            assert p.scenario is not None and p.seed is not None
            table, notes = start_table(p.scenario, p.seed, save_path, p.log,
                                               units=units)
            for note in notes:
                click.echo(note)
            game = table.game
            click.echo(f"{game.scenario.name} — {game.edition}, seed {game.seed}. Saving to "
                       f"{save_path}.")
        table.advance()
        real_port = sock.getsockname()[1]
        shown_host = host if local else _lan_address()
        if ":" in shown_host:
            shown_host = f"[{shown_host}]"
        base = f"http://{shown_host}:{real_port}/"
        app = create_app(table, token=token, local_only=local)
        name = table.game.scenario.name
        if token is None:
            click.echo(f"Serving {name} on {base}")
            if len(table.players) > 1:
                for player in table.players:
                    click.echo(f"  {player}: {base}?player={quote(player)}")
        else:
            click.echo(f"Serving {name} on {base}?token={token}")
            for player in table.players:
                click.echo(f"  {player}: {base}?player={quote(player)}&token={token}")
        click.echo(f"The game is saved to {save_path} after every step; stop with Ctrl+C and "
                   f"go on with `solo-ops serve --resume {save_path}` or `solo-ops play "
                   f"--resume {save_path}`.")
        config = uvicorn.Config(app, log_level="warning", access_log=False,
                                timeout_graceful_shutdown=1, lifespan="off")
        uvicorn.Server(config).run(sockets=[sock])


def _stopped(signum: int, frame: object) -> None:
    """Ctrl+C or a stop from the system after the server shut down: a clean exit."""
    raise SystemExit(0)


commands = [serve_command]
