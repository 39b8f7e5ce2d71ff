"""Run many ``solo-ops`` commands in one process, each as the command line runs it.

``python -m tests.support.command_batch`` reads a JSON list of ``[name, [arg, ...]]`` on stdin
and runs each command through click's test runner (the same ``solo_ops.cli.main`` group, its
errors turned into one stderr line and exit status 2 as at the terminal), one after the other,
in the folder it was started in. For each it prints one JSON line: ``{"name", "code", "stderr",
"cpu", "wall"}`` (CPU and wall seconds of that command). A command still running after
``HANG`` seconds (the first argument; a read of a pipe with no writer would wait forever) ends
the process with the tracebacks of its threads on stderr, so the caller knows which command
hung: the last one without its line.

One process for many commands spares a fresh interpreter and its imports for each (the tests
of hostile files run some 120 commands); the caller caps the process's memory and CPU as it
capped each command's own process (tests/cli/test_hostile_files.py).
"""

from __future__ import annotations

import faulthandler
import json
import resource
import sys
import time

from click.testing import CliRunner

from solo_ops.cli import main as solo_ops


def _runner() -> CliRunner:
    """A runner that keeps stderr apart from stdout (click < 8.2 must be asked)."""
    try:
        return CliRunner(mix_stderr=False)  # type: ignore[call-arg]
    except TypeError:
        return CliRunner()


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def run(commands: list[tuple[str, list[str]]], hang: float) -> None:
    """Run ``commands`` in turn (see the module docstring), printing a line for each."""
    runner = _runner()
    for name, args in commands:
        faulthandler.dump_traceback_later(hang, exit=True)
        cpu, wall = _cpu(), time.perf_counter()
        result = runner.invoke(solo_ops, args)
        faulthandler.cancel_dump_traceback_later()
        print(json.dumps({"name": name, "code": result.exit_code, "stderr": result.stderr,
                          "cpu": _cpu() - cpu, "wall": time.perf_counter() - wall}),
              flush=True)


if __name__ == "__main__":
    run([(str(n), [str(a) for a in args]) for n, args in json.load(sys.stdin)],
        float(sys.argv[1]))
