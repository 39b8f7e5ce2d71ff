"""The background compile takes only the CPU the commands leave (issue #39, the first run).

``solo-ops compile --background`` runs in a session of its own (Ctrl-C at the command that
started it must not stop it). Linux groups processes by session and shares the CPU between the
groups first, so ``nice 19`` alone ranked the compile only against itself: on two cores it took
one from the command (measured: 19 s of CPU during a first ``rate --missions 20 --jobs 2``).
:func:`solo_ops.cli.compile.yield_the_cpu` also puts its session's group at the lowest priority.
It is checked in a process of its own, started as the command starts the compile (a new
session), since it lowers the priority of the process that calls it for good.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

PROBE = """
import os
from solo_ops.cli.compile import yield_the_cpu
yield_the_cpu()
print(os.nice(0))
try:
    print(open("/proc/self/autogroup").read().strip())
except OSError:
    print("no autogroup")
"""


@pytest.mark.skipif(not hasattr(os, "nice"), reason="no process priorities here")
def test_the_compile_and_its_session_group_run_at_the_lowest_priority() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                          start_new_session=True, timeout=60, check=True)
    niceness, group = done.stdout.splitlines()
    assert int(niceness) == 19
    if Path("/proc/sys/kernel/sched_autogroup_enabled").exists() and group != "no autogroup":
        assert group.endswith("nice 19"), group
