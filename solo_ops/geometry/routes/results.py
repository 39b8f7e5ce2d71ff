"""What the routes answer: :class:`Route` (a measured distance), :class:`Walk` (a walking
path) and :class:`Reach` (where a move can end).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from solo_ops.geometry.routes.common import Point2


# -- results ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Route:
    """A measured distance between two bases' edges and the route, centre to centre.

    ``distance`` is ``None`` (and ``points`` empty) when walls and closed doors leave no route.
    """

    distance: float | None
    points: tuple[Point2, ...]


@dataclass(frozen=True)
class Walk:
    """A walking path for a base: its centre's points, geometric length and movement cost."""

    points: tuple[Point2, ...]
    length: float
    cost: float
    radius: float = field(default=0.0, compare=False)  # the walking base's (razor wire reach)


@dataclass(eq=False)
class Reach:
    """Where a base can end a move: candidate end points (the start first), the movement each
    costs, and the walk to each (built on demand by :meth:`path`)."""

    points: np.ndarray
    cost: np.ndarray
    walk_of: Callable[[int], Walk] = field(repr=False)

    def path(self, i: int) -> Walk:
        """The walk from the start to ``points[i]``."""
        return self.walk_of(int(i))

    def subset(self, keep: np.ndarray) -> Reach:
        """Some of the end points (indices ``keep``, in that order), renumbered: ``path(i)``
        of the answer is this one's ``path(keep[i])``."""
        kept = np.asarray(keep, dtype=int)
        walk_of = self.walk_of
        return Reach(self.points[kept], self.cost[kept], lambda i: walk_of(int(kept[int(i)])))

    @property
    def walks(self) -> list[Walk]:
        """Every candidate's walk (builds them all; prefer :meth:`path`)."""
        return [self.walk_of(i) for i in range(len(self.points))]
