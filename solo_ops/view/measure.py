"""Points, distances and directions as the players read and type them: one rounding rule.

Everything the terminal prints about where a model is or how far it went goes through
:func:`point` and :func:`length`, so the same spot reads the same in the deployment line, the
enemy's move line, ``status`` and a confirmation. The board is measured in inches inside the
engine; a game whose ``settings: {units: cm}`` says so is shown (and typed) in centimetres.

The rounding rule: to the nearest tenth of the unit shown, as Python's ``format(v, ".1f")``
does it (the exact binary value decides; an exact half such as 10.25 goes to the even tenth,
10.2) — the same rule the AI planner's explanations use, so a point reads the same in the
planner's "why" and in the move line. A point is first rounded to the 0.01" the record keeps
(``reach.round_point``): the engine's state may hold the planned 10.9537 where the event
records 10.95, and both read 10.9. Directions use the board's axes: +y (up in every picture)
is north, +x is east.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from solo_ops.rules import reach

CM_PER_INCH = 2.54
UNITS = ("in", "cm")

COMPASS = ("east", "north-east", "north", "north-west", "west", "south-west", "south",
           "south-east")
"""Eight compass words, counter-clockwise from +x (east); +y is north."""


def _scale(units: str) -> float:
    if units not in UNITS:
        raise ValueError(f"unknown units {units!r} (known: {', '.join(UNITS)})")
    return CM_PER_INCH if units == "cm" else 1.0


def tenth(value: float) -> str:
    """``value`` to one decimal place (see the module docstring), never ``-0.0``."""
    text = f"{float(value):.1f}"
    return "0.0" if text == "-0.0" else text


def point(p: Sequence[float] | None, units: str = "in") -> str:
    """``(6.2, 15.8)``: a board point (inches) in the players' units; ``off the table`` for
    None."""
    if p is None:
        return "off the table"
    k = _scale(units)
    x, y = (float(v) for v in (reach.round_point(p) or p))  # as the record keeps it
    return f"({tenth(x * k)}, {tenth(y * k)})"


def length(d: float | None, units: str = "in") -> str:
    """``2.1"`` or ``5.3 cm``: a distance (inches) in the players' units; ``no route`` when
    there is none."""
    if d is None or not math.isfinite(d):
        return "no route"
    value = tenth(float(d) * _scale(units))
    return f'{value}"' if units == "in" else f"{value} cm"


def to_inches(value: float, units: str = "in") -> float:
    """A number the player typed in ``units``, in inches (the engine's unit)."""
    return float(value) / _scale(units)


def compass(a: Sequence[float], b: Sequence[float]) -> str:
    """The compass word for going from ``a`` to ``b`` (+y north, +x east), one of
    :data:`COMPASS`; empty when they are the same point (to 0.05")."""
    dx, dy = float(b[0]) - float(a[0]), float(b[1]) - float(a[1])
    if math.hypot(dx, dy) < 0.05:
        return ""
    angle = math.degrees(math.atan2(dy, dx)) % 360.0
    return COMPASS[int((angle + 22.5) // 45.0) % 8]
