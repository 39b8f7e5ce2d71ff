"""Compiled inner loops for the geometry (numba), used where many missions are played.

The geometry's answers come from numpy array code: a question about a few dozen points is a
few dozen numpy calls of 1-2 µs each, whatever the size of the arrays, and after four passes
of optimisation that fixed cost is most of a mission (CHANGELOG.md, issue #13's passes).
The modules of this package hold the same computations written as numba loops, one function
per numpy routine they replace, each element computed by the same IEEE operations in the same
order, so the floats and booleans are the numpy code's to the last bit and games do not change
(``tests/geometry/test_jit_*.py`` compare both on every shipped board and whole games;
``bench/log_digests.py --check`` compares every shipped scenario's games).

When they are used (:data:`ENABLED`, read by the geometry at every call):

- in the simulator's missions (``solo-ops rate``, ``new --difficulty``, a campaign's
  difficulty) and at the table (``play``, ``serve``) once they are compiled:
  :func:`use_in_simulation`, as the command decides (``solo_ops.cli.compile.prepare``).
  Compiling them costs 35-45 s of CPU once per install and is done in the background (``solo-ops
  compile``) while the first commands use the numpy code; loading numba and the compiled code
  then costs about half a second once per command (:func:`preload`: a rating's worker
  processes are forked with it loaded). One-off commands keep the numpy code;
- everywhere, with ``SOLO_OPS_JIT=1`` in the environment; nowhere, with ``SOLO_OPS_JIT=0``;
- never where numba is not installed (:data:`AVAILABLE`: it is a dependency where it has
  wheels, 64-bit x86 and ARM; elsewhere ``pip install -e ".[fast]"`` asks for it) or where
  numba's own ``NUMBA_DISABLE_JIT`` is set (the loops would run as plain Python, far slower
  than numpy).

numba is imported only when a kernel is first called (:func:`kernels`) or preloaded. Compiled
code is cached on disk (numba's ``cache=True``) where ``NUMBA_CACHE_DIR`` says, which the
commands set to the user's cache folder (``solo_ops.io.compiled``); where numba finds no
writable place at all, it compiles in every process.
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


def why_unavailable() -> str:
    """Why the kernels cannot be used here, in a player's words (for a command's note when
    :data:`AVAILABLE` is false): numba's own switch set, or numba not installed."""
    if os.environ.get("NUMBA_DISABLE_JIT", "0").strip() not in ("", "0"):
        return "NUMBA_DISABLE_JIT is set here"
    return "numba is not installed here"


ENABLED: bool = AVAILABLE and MODE == "1"


def use_in_simulation(on: bool = True) -> None:
    """Turn the kernels on for this process's missions (a ``rate`` worker's start), unless the
    environment says ``SOLO_OPS_JIT=0`` or numba is not there; ``on`` False (the caller found
    them not yet compiled: they are being compiled elsewhere) keeps the numpy code unless
    ``SOLO_OPS_JIT=1``."""
    global ENABLED
    ENABLED = AVAILABLE and MODE != "0" and (on or MODE == "1")


MODULES = ("bases", "distance", "movement", "sight", "walls")
"""The kernel modules of this package."""


def compiled_signatures() -> list[dict[str, Any]]:
    """Every kernel the geometry called in this process (not the helpers they call, which are
    compiled into them) with the argument types it was compiled for, as plain data (JSON):
    ``{"module", "name", "args": [[type, ...], ...]}``, a type being ``["array", dtype, ndim,
    layout, readonly]`` or ``[scalar name]``. Kernels of other types are left out (they load
    at their first call instead)."""
    import sys

    out: list[dict[str, Any]] = []
    for name in MODULES:
        module = sys.modules.get(f"{__name__}.{name}")
        if module is None:
            continue
        for attr, value in sorted(vars(module).items()):
            sigs = getattr(value, "signatures", None)
            if (name, attr) not in _ASKED or not sigs:
                continue
            encoded = [_encode(sig) for sig in sigs]
            args = [e for e in encoded if e is not None]
            if args:
                out.append({"module": name, "name": attr, "args": args})
    return out


def _encode(sig: tuple[Any, ...]) -> list[list[Any]] | None:
    from numba.core import types

    out: list[list[Any]] = []
    for t in sig:
        if isinstance(t, types.Array):
            out.append(["array", str(t.dtype), t.ndim, t.layout, not t.mutable])
        elif isinstance(t, (types.Integer, types.Float, types.Boolean)):
            out.append([str(t)])
        else:
            return None
    return out


def decode_signature(args: list[list[Any]]) -> tuple[Any, ...]:
    """A kernel's argument types as :func:`compiled_signatures` records them (plain lists),
    turned back into numba's types: the signature :func:`preload` compiles."""
    from numba.core import types

    def one(t: list[Any]) -> Any:
        if t[0] == "array":
            _, dtype, ndim, layout, readonly = t
            kind: Any = types.Array  # the layout is checked by numba, not by the type stubs
            return kind(_scalar(dtype), int(ndim), str(layout), readonly=bool(readonly))
        return _scalar(t[0])

    def _scalar(name: str) -> Any:
        value = getattr(types, str(name), None)
        if not isinstance(value, (types.Integer, types.Float, types.Boolean)):
            raise ValueError(f"not a numba scalar type: {name!r}")
        return value

    return tuple(one(t) for t in args)


def preload(entries: list[dict[str, Any]]) -> int:
    """Load the kernels ``entries`` (:func:`compiled_signatures`, as recorded after they were
    compiled) into this process from numba's cache, so that worker processes forked from it
    start with them (none loads or compiles anything itself). Returns how many were loaded;
    an entry that no longer matches a kernel is passed over (it loads at its first call)."""
    loaded = 0
    for entry in entries:
        try:
            module = importlib.import_module(f"{__name__}.{entry['module']}")
            dispatcher = getattr(module, str(entry["name"]))
            for args in entry["args"]:
                dispatcher.compile(decode_signature(args))
                loaded += 1
        except (AttributeError, KeyError, TypeError, ValueError, ImportError):
            continue
    return loaded


class _Kernels:
    """A kernel module, imported (with numba) when one of its kernels is first asked for; each
    kernel asked for is then kept on this object, so later calls cost a plain attribute lookup
    (a test that replaces a kernel replaces it here, on the object the geometry calls), and its
    name is noted in :data:`_ASKED` (the kernels the geometry calls from Python, which
    :func:`compiled_signatures` records)."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__"):
            raise AttributeError(attr)
        module: ModuleType = importlib.import_module(f"{__name__}.{self._name}")
        if attr.startswith("_") or not hasattr(module, attr):
            raise AttributeError(f"{module.__name__} has no {attr!r}")
        _ASKED.add((self._name, attr))
        return self.__dict__.setdefault(attr, getattr(module, attr))


_ASKED: set[tuple[str, str]] = set()


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
