"""The switch the compiled-geometry tests flip: run a block with numba's kernels on or off."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from solo_ops.geometry import jit


@contextmanager
def compiled(on: bool) -> Iterator[None]:
    """Run the block with the compiled loops on or off (restored after)."""
    was = jit.ENABLED
    jit.ENABLED = on
    try:
        yield
    finally:
        jit.ENABLED = was
