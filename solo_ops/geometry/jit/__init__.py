"""Compiled inner loops for the geometry, when numba is installed (the ``fast`` extra).

The geometry's answers come from numpy array code: a question about a few dozen points is a
few dozen numpy calls of 1-2 µs each, whatever the size of the arrays, and after four passes
of optimisation that fixed cost is most of a mission (docs/performance.md, "Issue #13").
The modules of this package hold the same computations written as numba loops, one function
per numpy routine they replace, each element computed by the same IEEE operations in the same
order, so the floats and booleans are the numpy code's to the last bit and games do not change
(``tests/test_jit.py`` compares both on every shipped board; ``bench/log_digests.py --check``
compares whole games).

Whether they are used:

- :data:`AVAILABLE` -- numba imports (``pip install -e ".[fast]"``) and its own
  ``NUMBA_DISABLE_JIT`` is not set (the loops would then run as plain Python, far slower than
  numpy);
- :data:`ENABLED` -- used at call time by the geometry; True when available unless the
  environment says ``SOLO_OPS_JIT=0``. Tests set it to compare both paths in one process.

Compiled code is cached on disk next to these modules (numba's ``cache=True``; a per-user cache
directory when that is not writable), so only the first run after an install compiles.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])


def _available() -> bool:
    """Whether numba can compile the loops here."""
    try:
        import numba
    except Exception:  # not installed, or a broken install: the numpy code serves
        return False
    return not getattr(numba.config, "DISABLE_JIT", 0)


AVAILABLE: bool = _available()
ENABLED: bool = AVAILABLE and os.environ.get("SOLO_OPS_JIT", "1").strip() != "0"


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
