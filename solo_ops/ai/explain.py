"""The words of the planner's explanations: points, inches, move verbs, cover, doors.

Each action's note and each line of a plan's ``explain`` is written where the planner decides
it; these are the shared words they are made of, so a point or a distance reads the same in
every sentence.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from solo_ops.ai.cover import COVER_AND_OBSCURED, HIDDEN, IN_COVER
from solo_ops.game.state import Operative
from solo_ops.rules import reach


def fmt_pt(p: Sequence[float]) -> str:
    """A point to a tenth, as every other line shows it: first rounded to the 0.01" the record
    keeps (``reach.round_point``), so a planned (8.06, 10.9537) reads (8.1, 10.9) here as in
    the table's instruction and ``status``, which print the recorded (8.06, 10.95)."""
    rounded = reach.round_point(p)
    assert rounded is not None, "a point to show"
    return f"({rounded[0]:.1f}, {rounded[1]:.1f})"


def inches(d: float | None) -> str:
    if d is None or not math.isfinite(d):
        return "no route"
    return f'{d:.1f}"'


def cost_inches(d: float | None) -> str:
    """A move's cost as its event records it (to the 0.01" the record keeps, as
    :func:`fmt_pt` shows a point) and so as the line that tells the table to make the move
    shows it: a planned 4.9497" move reads 5.0" in its explanation as in that line (from the
    recorded 4.95), never 4.9" in one and 5.0" in the next."""
    return inches(None if d is None else round(d, 2))


def _verb(kind: str) -> str:
    return {"reposition": "repositions", "dash": "dashes", "normal": "moves",
            "advance": "advances", "fall_back": "falls back", "charge": "charges"}.get(kind,
                                                                                       "moves")


def engaged_words(edition: str) -> str:
    """How a model within reach of an enemy's melee is said: Kill Team 2024 "in control range
    of", Kill Team 2018 "within 1\" of" (004)."""
    return "within 1\" of" if edition == "kt2018" else "in control range of"


def _cover_words(level: int, threat: Operative) -> str:
    """The explanation's words for where a "To cover" move ends."""
    return {HIDDEN: f" It is hidden from {threat.label} there (out of its sight).",
            COVER_AND_OBSCURED: f" It is in cover from {threat.label} and obscured there.",
            IN_COVER: f" It is in cover from {threat.label} there (not obscured).",
            }.get(level, f" It is not in cover from {threat.label} there.")


def _portal_word(feature: Any) -> str:
    return "hatch" if feature.has("hatch") else "door"
