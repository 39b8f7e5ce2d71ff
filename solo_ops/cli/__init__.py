"""The ``solo-ops`` command line: thin click commands over the pure core.

Each command parses its options, calls the core, and renders the result as tidy text (rich)
or, with ``--json``, exactly one JSON document on stdout. Any :class:`SoloOpsError` becomes one
line on stderr and exit status 2; nothing the player types can produce a traceback.
"""

from __future__ import annotations

import importlib

import click

from solo_ops import __version__
from solo_ops.cli.common import SoloOpsGroup

# Sub-command modules; each defines ``commands``, a list of click commands or groups.
COMMAND_MODULES = (
    "solo_ops.cli.orders",
    "solo_ops.cli.geom",
    "solo_ops.cli.board",
    "solo_ops.cli.fog",
    "solo_ops.cli.ai",
    "solo_ops.cli.combat",
    "solo_ops.cli.new",
    "solo_ops.cli.play",
    "solo_ops.cli.maps",
    "solo_ops.cli.campaign",
    "solo_ops.cli.imports",
    "solo_ops.cli.library",
    "solo_ops.cli.serve",
    "solo_ops.cli.rate",
)


@click.group(cls=SoloOpsGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="solo-ops")
def main() -> None:
    """solo-ops: the enemy for your solo or co-op Kill Team game.

    It rolls the solo supplement's orders for every enemy unit, keeps the fog of war hidden,
    works out sight, cover and distances on a digital copy of your board, and keeps your
    squad's campaign. Start with `solo-ops new --help` or read the README.
    """


for _name in COMMAND_MODULES:
    for _command in importlib.import_module(_name).commands:
        main.add_command(_command)
