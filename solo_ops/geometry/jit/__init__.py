"""Compiled inner loops for the geometry (numba), used where many missions are played.

The geometry's answers come from numpy array code: a question about a few dozen points is a
few dozen numpy calls of 1-2 µs each, whatever the size of the arrays, and after four passes
of optimisation that fixed cost is most of a mission (docs/performance.md, "Issue #13").
The modules of this package hold the same computations written as numba loops, one function
per numpy routine they replace, each element computed by the same IEEE operations in the same
order, so the floats and booleans are the numpy code's to the last bit and games do not change
(``tests/test_jit*.py`` compare both on every shipped board and whole games;
``bench/log_digests.py --check`` compares every shipped scenario's games).

When they are used (:data:`ENABLED`, read by the geometry at every call):

- in the simulator's missions (``solo-ops rate``, ``new --difficulty``, a campaign's
  difficulty): :func:`use_in_simulation`, called by every worker as it starts. Loading numba
  and its cached machine code costs about half a second a process, and compiling them the
  first time after an install a few seconds: worth it for hundreds of missions, not for one
  command's answer, so one-off commands and the game at the table keep the numpy code;
- everywhere, with ``SOLO_OPS_JIT=1`` in the environment; nowhere, with ``SOLO_OPS_JIT=0``;
- never where numba is not installed (:data:`AVAILABLE`: it is a dependency where it has
  wheels, 64-bit x86 and ARM; elsewhere ``pip install -e ".[fast]"`` asks for it) or where
  numba's own ``NUMBA_DISABLE_JIT`` is set (the loops would run as plain Python, far slower
  than numpy).

numba is imported only when a kernel is first called (:func:`kernels`). Compiled code is cached
on disk next to these modules (numba's ``cache=True``; a per-user cache directory when that is
not writable; none at all: compiled in every process).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from collections.abc import Callable
from types import ModuleType
from typing import Any, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])

MODE: str = os.environ.get("SOLO_OPS_JIT", "").strip() or "auto"
"""``SOLO_OPS_JIT``: "0" never, "1" always, anything else (unset): in simulated missions."""


def _available() -> bool:
    """Whether numba is installed and allowed to compile (checked without importing it)."""
    if os.environ.get("NUMBA_DISABLE_JIT", "0").strip() not in ("", "0"):
        return False
    try:
        return importlib.util.find_spec("numba") is not None
    except (ImportError, ValueError):
        return False


AVAILABLE: bool = _available()
ENABLED: bool = AVAILABLE and MODE == "1"


def use_in_simulation() -> None:
    """Turn the kernels on for this process's missions (a ``rate`` worker's start), unless the
    environment says ``SOLO_OPS_JIT=0`` or numba is not there."""
    global ENABLED
    ENABLED = AVAILABLE and MODE != "0"


class _Kernels:
    """A kernel module, imported (with numba) when one of its kernels is first asked for; its
    names are then copied onto this object, so later calls cost a plain attribute lookup (a
    test that replaces a kernel replaces it here, on the object the geometry calls)."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__"):
            raise AttributeError(attr)
        module: ModuleType = importlib.import_module(f"{__name__}.{self._name}")
        names = {k: v for k, v in vars(module).items() if not k.startswith("__")}
        for k, v in names.items():
            self.__dict__.setdefault(k, v)
        if attr not in names:
            raise AttributeError(f"{module.__name__} has no {attr!r}")
        return self.__dict__[attr]


def kernels(name: str) -> Any:
    """The kernel module ``solo_ops.geometry.jit.<name>``, loaded on first use: the geometry
    modules hold one each and call it only when :data:`ENABLED`."""
    return _Kernels(name)


def njit(fn: F) -> F:
    """Compile ``fn`` with numba: no Python objects, cached on disk, numpy's error model
    (a division by zero gives inf or nan as numpy does, never an exception). Where numba finds
    no writable cache directory at all, it compiles in every process instead."""
    import numba

    try:
        compiled: Any = numba.njit(cache=True, nogil=True, error_model="numpy")(fn)
    except RuntimeError:  # "cannot cache function ...: no locator available"
        compiled = numba.njit(cache=False, nogil=True, error_model="numpy")(fn)
    return cast(F, compiled)
