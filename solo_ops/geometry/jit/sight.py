"""Compiled loops for line of sight (`sight`'s clipping, cut-off and probe stages).

Each function reproduces one numpy routine of the geometry element by element, with the same
IEEE operations in the same order (see :mod:`solo_ops.geometry.jit`); the numpy routine stays
the reference and the fallback. Imported only when numba is available.
"""

from __future__ import annotations

import numpy as np  # noqa: F401

from solo_ops.geometry.jit import njit  # noqa: F401

__all__: list[str] = []
