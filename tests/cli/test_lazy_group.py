"""The lazy command group: ``solo-ops --help`` lists every command without importing them,
and the listed help lines are the commands' own."""

from __future__ import annotations

import importlib
import subprocess
import sys

from click.testing import CliRunner

from solo_ops.cli import COMMAND_MODULES, LAZY_COMMANDS, main


def test_the_lazy_table_is_every_command_of_every_module_with_its_own_help() -> None:
    found: dict[str, tuple[str, str]] = {}
    for name in COMMAND_MODULES:
        for command in importlib.import_module(name).commands:
            found[command.name] = (name, command.get_short_help_str(limit=200))
    assert found == LAZY_COMMANDS


def test_every_command_resolves_and_the_help_lists_them() -> None:
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0
    for name in LAZY_COMMANDS:
        assert f"  {name} " in result.output
        assert main.get_command(None, name).name == name  # type: ignore[arg-type,union-attr]
    bad = CliRunner().invoke(main, ["nonsense"])
    assert bad.exit_code == 2 and "nonsense" in bad.stderr


def test_help_imports_no_command_and_none_of_the_heavy_libraries() -> None:
    code = ("import sys\nfrom solo_ops.cli import main\n"
            "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
            "heavy = sorted(m for m in sys.modules if m.split('.')[0] in "
            "('numpy', 'shapely', 'PIL') or m.startswith(('solo_ops.game', 'solo_ops.cli.')) "
            "and m != 'solo_ops.cli.common')\n"
            "print('HEAVY', heavy)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert "HEAVY []" in out.stdout, out.stdout + out.stderr


def test_a_group_alone_prints_its_help_as_the_bare_command_does(runner: CliRunner) -> None:
    """``solo-ops tables`` (a group without its command) prints the group's help, as
    ``solo-ops`` alone prints the whole list: not the help folded into an "error:" line."""
    bare = runner.invoke(main, [])
    for group in ("tables", "campaign", "board"):
        alone = runner.invoke(main, [group])
        helped = runner.invoke(main, [group, "--help"])
        assert alone.exit_code == bare.exit_code  # click >= 8.2 says 2 for both
        assert alone.output.strip() == helped.output.strip(), group
        assert "error" not in alone.output
