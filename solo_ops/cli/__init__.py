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
    "solo_ops.cli.compile",
)

# Each command's module and the line ``solo-ops --help`` shows for it, so that the list is
# printed without importing any command (click's "lazily loading subcommands" pattern); a
# module is imported only when its command runs. tests/cli/test_lazy_group.py checks this table
# against the commands themselves.
LAZY_COMMANDS: dict[str, tuple[str, str]] = {
    "orders": ("solo_ops.cli.orders", "Roll the solo supplement's enemy orders."),
    "tables": ("solo_ops.cli.orders", "Print the solo supplement's tables."),
    "geom": ("solo_ops.cli.geom",
             "Sight, distance around walls and cover between two points of a board."),
    "board": ("solo_ops.cli.board", "Check and draw board files (scenarios/boards/*.yaml)."),
    "fog": ("solo_ops.cli.fog", "The fog of war: hidden counters."),
    "ai": ("solo_ops.cli.ai", "The enemy's decisions."),
    "combat": ("solo_ops.cli.combat", "Exact odds of Kill Team 2024 attacks (every dice "
               "outcome counted, no sampling)."),
    "new": ("solo_ops.cli.new", "Generate an encounter: board, enemy, engagement, mission, "
            "deployment and fog."),
    "play": ("solo_ops.cli.play", "Play SCENARIO turn by turn (or --resume a save)."),
    "replay": ("solo_ops.cli.play", "Re-run a game from its event LOG to the same final "
               "state, checking every line."),
    "map": ("solo_ops.cli.maps", "Draw the player's view of a saved game to a picture."),
    "campaign": ("solo_ops.cli.campaign", "Keep a campaign: your squads, their wounds and "
                 "losses, mission after mission."),
    "squad": ("solo_ops.cli.imports",
              "Your kill team as a squad file (for new, play and campaigns)."),
    "roster": ("solo_ops.cli.imports",
               "Enemy rosters: the models the fog of war reveals, and their d6 table."),
    "list": ("solo_ops.cli.library", "List the shipped scenarios, boards, rosters and squads "
             "(or one KIND of them)."),
    "serve": ("solo_ops.cli.serve",
              "Serve SCENARIO (or --resume SAVE) as a live web page for the table."),
    "rate": ("solo_ops.cli.rate",
             "Rate SCENARIO: play many missions with the autopilot and count who wins."),
    "compile": ("solo_ops.cli.compile",
                "Compile the geometry's loops now (once per install; rate and new do it by "
                "themselves, in the background, when they find them missing)."),
}


class LazyGroup(SoloOpsGroup):
    """The top-level group: commands listed from :data:`LAZY_COMMANDS`, each module imported
    only when one of its commands is asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*LAZY_COMMANDS, *self.commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.commands:
            return self.commands[cmd_name]
        entry = LAZY_COMMANDS.get(cmd_name)
        if entry is None:
            return None
        for command in importlib.import_module(entry[0]).commands:
            if command.name == cmd_name:
                return command  # type: ignore[no-any-return]
        return None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, LAZY_COMMANDS[name][1]) for name in sorted(LAZY_COMMANDS)]
        rows += [(name, cmd.get_short_help_str(formatter.width))
                 for name, cmd in sorted(self.commands.items()) if name not in LAZY_COMMANDS]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="solo-ops")
def main() -> None:
    """solo-ops: the enemy for your solo or co-op Kill Team game.

    It rolls the solo supplement's orders for every enemy unit, keeps the fog of war hidden,
    works out sight, cover and distances on a digital copy of your board, and keeps your
    squad's campaign. Start with `solo-ops new --help` or read the README.
    """
