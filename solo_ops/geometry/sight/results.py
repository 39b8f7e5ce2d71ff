"""The answers of the cover questions: :class:`CoverResult` and :class:`CoverMatrix`.

:class:`CoverResult` is one attacker against one target; :class:`CoverMatrix` every attacker
(rows) against every target (columns).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class CoverResult:
    """Cover of one target from one attacker.

    ``visible``: the attacker can see the target at all. ``in_cover`` / ``obscured``: as in the
    package docstring (both False when not visible). ``valid_target``: may be shot at (here the
    same as ``visible``; callers layer concealment and range on top). ``vantage_accurate``:
    Accurate 1 or 2 from Vantage, when a caller that knows the target's order adds it (the
    enemy's planner, as the dice will: :func:`solo_ops.rules.kt2024.vantage_accuracy`).
    """

    visible: bool
    in_cover: bool
    obscured: bool
    valid_target: bool = True
    vantage_accurate: int = 0


@dataclass
class CoverMatrix:
    """Cover of every target (columns) from every attacker (rows), as boolean arrays."""

    visible: np.ndarray
    in_cover: np.ndarray
    obscured: np.ndarray
