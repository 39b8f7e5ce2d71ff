"""Shared pieces of the command line: error handling, JSON output, seeds and the console."""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path
from typing import Any

import click
from rich.console import Console

from solo_ops.core.errors import SoloOpsError, clip

EXIT_INPUT = 2


_NO_ARGS_IS_HELP: Any = getattr(click.exceptions, "NoArgsIsHelpError", ())
"""What click (8.2 and later) raises for a group called without its command: the help."""


class SoloOpsGroup(click.Group):
    """A click group that turns solo-ops errors into one stderr line and exit status 2."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except SoloOpsError as exc:
            click.echo(f"solo-ops: error: {exc}", err=True)
            ctx.exit(EXIT_INPUT)
        except KeyboardInterrupt:
            click.echo("solo-ops: interrupted", err=True)
            ctx.exit(130)
        except _NO_ARGS_IS_HELP as exc:  # a group alone (`solo-ops tables`): its help, as
            exc.show()                    # `solo-ops` alone gives (click >= 8.2: status 2)
            ctx.exit(EXIT_INPUT)
        except click.UsageError as exc:  # a bad option or argument: one line, not a page
            where = f" (see `{exc.ctx.command_path} --help`)" if exc.ctx is not None else ""
            click.echo(f"solo-ops: error: {exc.format_message()}{where}", err=True)
            ctx.exit(EXIT_INPUT)
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except OSError as exc:  # the system said no (a full disk, a read-only folder...)
            if os.environ.get("SOLO_OPS_DEBUG"):
                raise
            where = f"{clip(str(exc.filename), 200)}: " if exc.filename else ""
            reason = exc.strerror or type(exc).__name__
            click.echo(f"solo-ops: error: {where}cannot be read or written ({reason}); "
                       f"{_saved_note()}", err=True)
            ctx.exit(EXIT_INPUT)
        except Exception as exc:  # a bug in solo-ops, not the player's input
            if os.environ.get("SOLO_OPS_DEBUG"):
                raise
            click.echo(f"solo-ops: internal error: {type(exc).__name__}: {clip(str(exc), 200)} "
                       f"(set SOLO_OPS_DEBUG=1 to see the traceback; {_saved_note()})",
                       err=True)
            ctx.exit(70)


def not_text(value: object) -> str | None:
    """None when ``value`` is text that UTF-8 can write, else the value shown safely (its
    undecodable bytes as ``\\xff``): an argument or a line made of bytes that are not UTF-8
    reaches Python as lone surrogates, which no file, terminal or JSON document takes."""
    if not isinstance(value, str):
        return None
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raw = value.encode("utf-8", "surrogateescape")
        shown = raw.decode("utf-8", "backslashreplace")
        return shown if len(shown) <= 60 else shown[:59] + "…"
    return None


def _saved_note() -> str:
    """What an interrupted command left behind, for its last line."""
    from solo_ops.io.writing import files_changed

    return ("nothing saved was changed" if files_changed() == 0 else
            "every file written before it is complete: each write is atomic")


def console() -> Console:
    """The console for human-readable output: plain text when stdout is not a terminal, and
    then long lines are not folded (so piped output and logs keep one sentence a line)."""
    return Console(highlight=False, soft_wrap=not sys.stdout.isatty(), emoji=False)


def emit_json(data: Any) -> None:
    """Print exactly one JSON document on stdout (strict JSON: a NaN or an infinity is a bug
    to find, not a ``NaN`` that no JSON reader accepts)."""
    click.echo(json.dumps(data, indent=2, sort_keys=False, ensure_ascii=False, allow_nan=False))


def json_option(f: Any) -> Any:
    return click.option("--json", "as_json", is_flag=True,
                        help="Print one JSON document instead of text.")(f)


SEED = click.IntRange(0, (1 << 256) - 1)
"""A seed on the command line: a whole number from 0 to 2**256 - 1."""


def seed_option(f: Any) -> Any:
    return click.option("--seed", type=SEED, default=None,
                        help="Seed for the dice; the same seed gives the same result.")(f)


def resolve_seed(seed: int | None) -> int:
    """The given seed, or a fresh one of 128 bits from the operating system
    (:func:`solo_ops.core.dice.fresh_seed`): beyond any search, so the hidden facts it decides
    stay hidden. A seed the player chooses is for reproducing a game, not for secrecy."""
    from solo_ops.core.dice import fresh_seed

    if seed is not None:
        return seed
    return fresh_seed()


def stdin_is_terminal() -> bool:
    return sys.stdin.isatty()


CAMPAIGN_SAVES = Path("campaign_saves")
"""Where campaigns are saved unless ``--saves`` says otherwise."""


def campaign_command(name: str, folder: Path) -> str:
    """The one command that goes on with campaign ``name`` saved in ``folder``."""
    default = Path(folder).resolve() == CAMPAIGN_SAVES.resolve()
    where = "" if default else f" --saves {shlex.quote(str(folder))}"
    return f"solo-ops campaign play {shlex.quote(name)}{where}"
