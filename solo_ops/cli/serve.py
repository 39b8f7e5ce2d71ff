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
import socket
from pathlib import Path
from urllib.parse import quote

import click

from solo_ops.cli.common import resolve_seed
from solo_ops.cli.play import (
    LogDisagrees,
    _catch_up_log,
    _saves_for,
    finished_line,
    load_save_doc,
    log_for,
    move_aside,
)
from solo_ops.core.errors import InputError
from solo_ops.game.engine import new_game
from solo_ops.io.persistence import file_digest, game_lock, read_json_document
from solo_ops.io.savegame import GAME_KIND, game_id
from solo_ops.io.scenario import load_scenario
from solo_ops.io.table import GameTable


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


def _paths(scenario: Path | None, resume: Path | None, seed: int | None,
           save: Path | None) -> tuple[Path, Path, object, int | None]:
    if resume is not None:
        return resume, log_for(resume), None, None
    assert scenario is not None
    loaded = load_scenario(scenario)
    seed = resolve_seed(seed if seed is not None else loaded.seed)
    save_path, log_path = _saves_for(scenario, save, seed)
    return save_path, log_path, loaded, seed


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
def serve_command(scenario: Path | None, resume: Path | None, seed: int | None,
                  save: Path | None, new: bool, host: str, port: int) -> None:
    """Serve SCENARIO (or --resume SAVE) as a live web page for the table."""
    import uvicorn

    from solo_ops.web.app import create_app, is_loopback, new_token

    if (scenario is None) == (resume is None):
        raise InputError("give a SCENARIO file, or --resume SAVE", source="serve")
    if resume is not None and new:
        raise InputError("--new starts a SCENARIO afresh; it cannot go with --resume",
                         source="--new")
    save_path, log_path, loaded, seed = _paths(scenario, resume, seed, save)
    resuming = resume is not None or (save_path.exists() and not new)
    if resuming:
        found = read_json_document(save_path)
        snapshot = found.get("snapshot")
        if found.get("kind") == GAME_KIND and isinstance(snapshot, dict) \
                and snapshot.get("ended"):
            click.echo(finished_line(save_path, snapshot, "Start another with `solo-ops serve "
                                     "SCENARIO --new` or another --seed."))
            return
    local = is_loopback(host)
    token = None if local else new_token()
    sock = _bind(host, port)  # before anything is written: a busy port changes nothing
    with contextlib.closing(sock), game_lock(save_path):
        if resuming:
            doc, game, state = load_save_doc(save_path)
            if loaded is not None and doc.get("game_id") != game_id(loaded.document, seed):
                raise InputError(
                    f"holds another game (an edited {scenario} or another scenario with seed "
                    f"{seed}); serve it with `solo-ops serve --resume {save_path}`, or start "
                    "this one with --new (the old files are moved aside) or --save OTHER",
                    source=str(save_path))
            table = GameTable(game, state, save_path, log_path)
            before = file_digest(log_path) if log_path.exists() else None
            try:
                note = _catch_up_log(log_path, game, state, doc)
            except LogDisagrees as exc:
                raise InputError(f"{exc.message}. The save is the truth: run `solo-ops play "
                                 f"--resume {save_path} --rebuild-log` once to rebuild the log",
                                 source=str(save_path)) from None
            if note:
                click.echo(note)
            after = file_digest(log_path)
            if after != before or doc.get("log") != after:
                table.persist(None)
            click.echo(f"Resuming {game.scenario.name} from {save_path} (turn {state.turn}).")
        else:
            game, state = new_game(loaded, seed)  # type: ignore[arg-type]
            table = GameTable(game, state, save_path, log_path)
            moved = move_aside(save_path, log_path)
            if moved:
                click.echo("The earlier game's files were moved aside: "
                           + ", ".join(str(p) for p in moved) + ".")
            table.start()
            click.echo(f"{game.scenario.name} — {game.edition}, seed {game.seed}. Saving to "
                       f"{save_path}.")
        table.advance()
        real_port = sock.getsockname()[1]
        shown_host = host if local else _lan_address()
        if ":" in shown_host:
            shown_host = f"[{shown_host}]"
        base = f"http://{shown_host}:{real_port}/"
        app = create_app(table, token=token, local_only=local)
        if token is None:
            click.echo(f"Serving {game.scenario.name} on {base}")
            if len(table.players) > 1:
                for player in table.players:
                    click.echo(f"  {player}: {base}?player={quote(player)}")
        else:
            click.echo(f"Serving {game.scenario.name} on {base}?token={token}")
            for player in table.players:
                click.echo(f"  {player}: {base}?player={quote(player)}&token={token}")
        click.echo(f"The game is saved to {save_path} after every step; stop with Ctrl+C and "
                   f"go on with `solo-ops serve --resume {save_path}` or `solo-ops play "
                   f"--resume {save_path}`.")
        config = uvicorn.Config(app, log_level="warning", access_log=False,
                                timeout_graceful_shutdown=1, lifespan="off")
        uvicorn.Server(config).run(sockets=[sock])


commands = [serve_command]
