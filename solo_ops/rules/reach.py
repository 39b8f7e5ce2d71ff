"""Who can reach whom: control range, engagement, the move allowance and rounding of points.

Side-neutral and pure: every function reads positions, radii and a terrain (anything with
``.sight.visible`` / ``.sight.visibility_matrix`` and ``.routes.distance`` /
``.routes.distances``, i.e. :class:`solo_ops.geometry.terrain.Terrain`) and changes nothing.
These are the only copies of these rules: the AI planner, the enemy's plan application, the
players' actions, the engine, objective control and scoring all ask here.

Stable signatures (other modules import them by name):

``in_control_range(terrain, a_at, a_radius, b_at, b_radius) -> bool``
    Kill Team 2024 control range: "Visible and within 1" of model base" (001). Within 1" is
    measured base to base by the shortest route around walls and closed doors and hatches
    (002 Gallowdark "Distances not measured through walls – shortest route instead"), and
    visible is the geometry's base-to-base sight test (no sight through a wall or a closed
    door). Both must hold, so nothing is ever in control range through a wall.
``engaged_2018(terrain, a_at, a_radius, b_at, b_radius) -> bool``
    Kill Team 2018 "within 1"" for fights and Fall Back, with Pariah Nexus walls: measured
    around walls (004 "Distances cannot be measured through these walls") and never through
    one (004 "Models cannot attack through walls"). The same test as control range.
``within_reach(terrain, op, others, at=None) -> list``
    The operatives of ``others`` (on the table) that ``op`` (at ``at`` if given) is in control
    range of — the one loop every "who is in my control range" question uses.
``control_mask(terrain, points, radius, b_at, b_radius, margin=0.0) -> np.ndarray``
    :func:`in_control_range` for many candidate points of one base against one other base
    (the AI's charge end points); ``margin`` shrinks the 1" so a chosen point stays inside
    after its coordinates are rounded.
``move_allowance(op, how, edition, roll=None) -> float``
    How far ``op`` may move with a move of kind ``how`` this time, for either side: 2024
    ``reposition`` / ``fall_back`` M (M-2" when injured), ``dash`` 3", ``charge`` M+2"; 2018
    ``normal`` / ``fall_back`` M, ``advance`` M+D6, ``charge`` 2D6 (``roll`` when rolled, else
    the most the dice allow: 6 and 12). A model carrying a downed friend moves at most 4" a
    turn in all (RULES-NOTES "Carrying"), less what it has moved this turn (``turn_move``).
``within(terrain, a_at, a_radius, b_at, b_radius, distance) -> bool``
    The same test with another distance and any radius (Kill Team 2024 objective markers:
    :data:`MARKER_RADIUS`, a 40 mm marker measured to its edge; 2018 objectives: 2" to the
    marker's centre, radius 0).
``carry_cap(op, allowance) -> float``
    The carrier's 4"-a-turn cap applied to an allowance (used by :func:`move_allowance`).
``keep_out(terrain, start, radius, enemies, reach=inf) -> KeepOut``
    The enemies' control ranges as a free move keeps out of them (001 Reposition "Cannot move
    within Control Range of an enemy ... cannot finish the move within Control Range of an
    enemy"), for either side: which enemies a walk goes round as a base grown by 1" (their
    whole straight 1" is control range), which it is tested against point by point
    (:meth:`KeepOut.entered`: a wall, closed door or blocking terrain cuts their 1").
``walk_samples(points, step=WALK_STEP) -> np.ndarray``
    Points along a walk every ``step`` inches (its corners and end included).
``round_point(p) -> list[float] | None``
    The one rounding of a position for the record (events, plans): to 0.01".
``base_gap(a, b) -> float``
    The straight gap between two bases (negative if they overlap): a lower bound of the route
    distance, used to skip the geometry for far-apart pairs and for coherency.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import numpy as np

if TYPE_CHECKING:
    from solo_ops.geometry.terrain import Terrain


CONTROL_RANGE = 1.0  # inches, base to base
TOLERANCE = 1e-9  # inches of floating-point slack on every "within"
DASH = 3.0
CHARGE_BONUS = 2.0  # Kill Team 2024: a Charge moves M + 2"
INJURED_MOVE_PENALTY = 2.0  # Kill Team 2024: an injured operative has -2" move
KT2018_ADVANCE_MAX = 6.0  # the most a D6 Advance roll adds
KT2018_CHARGE_MAX = 12.0  # the most a 2D6 charge roll covers
CARRY_MOVE_LIMIT = 4.0  # a carrier moves at most 4" a turn (RULES-NOTES "Carrying")
POINT_PLACES = 2  # positions in the record are rounded to 0.01"
OBJECTIVE_MARKER_MM = 40  # Kill Team 2024 objective markers: 40 mm across (docs/rules.md)
MARKER_RADIUS = OBJECTIVE_MARKER_MM / 25.4 / 2  # inches: control range is to the marker's edge

MOVES_2024 = ("reposition", "dash", "charge", "fall_back")
MOVES_2018 = ("normal", "advance", "charge", "fall_back")


class Based(Protocol):
    """Anything with a base on the table (an operative)."""

    @property
    def at(self) -> tuple[float, float] | None: ...

    @property
    def radius(self) -> float: ...


B = TypeVar("B", bound=Based)


def base_gap(a: Based, b: Based) -> float:
    """The straight distance between two on-table bases' edges (negative if they overlap)."""
    assert a.at is not None and b.at is not None
    return math.hypot(a.at[0] - b.at[0], a.at[1] - b.at[1]) - a.radius - b.radius


def straight_gap(a_at: Sequence[float], a_radius: float, b_at: Sequence[float],
                 b_radius: float) -> float:
    """:func:`base_gap` for bare points and radii."""
    return math.hypot(a_at[0] - b_at[0], a_at[1] - b_at[1]) - a_radius - b_radius


BENDS = 0.05
"""Inches: how much longer than the straight line a way must be to be told as "around the
walls" (the words of the open ground are "away")."""


def bends(walked: float, straight: float) -> bool:
    """Whether a way of ``walked`` inches, ``straight`` as the crow flies, goes round something
    (and may be said to go "around the walls"): longer by more than :data:`BENDS`."""
    return walked > straight + BENDS


def way_words(walked: float, straight: float) -> str:
    """"around the walls" for a way that bends (:func:`bends`), else "away"."""
    return "around the walls" if bends(walked, straight) else "away"


def route_gap(terrain: Terrain, a_at: Sequence[float], a_radius: float, b_at: Sequence[float],
              b_radius: float) -> float:
    """The base-to-base distance around walls and closed doors (inf when there is none)."""
    d = terrain.routes.distance(a_at, b_at, a_radius, b_radius).distance
    return math.inf if d is None else float(d)


def in_control_range(terrain: Terrain, a_at: Sequence[float], a_radius: float,
                     b_at: Sequence[float], b_radius: float) -> bool:
    """Kill Team 2024 control range between two bases (see the module docstring)."""
    return within(terrain, a_at, a_radius, b_at, b_radius, CONTROL_RANGE)


def within(terrain: Terrain, a_at: Sequence[float], a_radius: float, b_at: Sequence[float],
           b_radius: float, distance: float) -> bool:
    """Whether two bases (a marker: radius 0) are within ``distance`` of each other around
    the walls and can see each other: :func:`in_control_range` with another distance (the
    2018 Pariah Nexus objectives' 2")."""
    if straight_gap(a_at, a_radius, b_at, b_radius) > distance + TOLERANCE:
        return False  # a route is never shorter than the straight line
    if route_gap(terrain, a_at, a_radius, b_at, b_radius) > distance + TOLERANCE:
        return False
    return bool(terrain.sight.visible(a_at, b_at, a_radius, b_radius))


def maybe_within(a_at: Sequence[float], a_radius: float, xy: np.ndarray, radii: np.ndarray,
                 distance: float) -> np.ndarray:
    """The indices of the bases (centres ``xy`` (n, 2), ``radii`` (n,)) that may be within
    ``distance`` of ``a``'s, in one pass over them all: the only ones :func:`within` need
    measure. A base is ruled out when its centre is farther from ``a``'s along x or along y
    alone than the distance and the two radii (a straight line, and so a route, is never
    shorter than either), with a millionth of an inch of slack so that rounding never rules
    out a pair :func:`within` would accept."""
    if len(xy) == 0:
        return np.zeros(0, dtype=np.intp)
    reach = distance + TOLERANCE + a_radius + radii + 1e-6
    return np.flatnonzero((np.abs(xy[:, 0] - a_at[0]) <= reach)
                          & (np.abs(xy[:, 1] - a_at[1]) <= reach))


def engaged_2018(terrain: Terrain, a_at: Sequence[float], a_radius: float,
                 b_at: Sequence[float], b_radius: float) -> bool:
    """Kill Team 2018 "within 1"" with walls: the same test as :func:`in_control_range`."""
    return in_control_range(terrain, a_at, a_radius, b_at, b_radius)


def engaged_with_any(terrain: Terrain, a_at: Sequence[float], a_radius: float,
                     centres: Sequence[Sequence[float]], radii: Sequence[float]) -> bool:
    """Kill Team 2018: whether the base at ``a_at`` is within 1" (:func:`engaged_2018`, never
    through a wall) of any of the bases at ``centres`` with ``radii``, measuring only those
    :func:`maybe_within` cannot rule out (a large game's engagement and combat-shooting
    checks: most bases are far away)."""
    xy = np.array(centres, dtype=float).reshape(-1, 2)
    rb = np.array(radii, dtype=float).reshape(-1)
    return any(engaged_2018(terrain, a_at, a_radius, centres[k], float(radii[k]))
               for k in maybe_within(a_at, a_radius, xy, rb, CONTROL_RANGE))


def within_reach(terrain: Terrain, op: Based, others: Iterable[B],
                 at: Sequence[float] | None = None) -> list[B]:
    """The on-table bases of ``others`` (never ``op`` itself) in control range of ``op``
    standing at ``at`` (default: where it is)."""
    here = op.at if at is None else at
    if here is None:
        return []
    out = []
    for other in others:
        if other is op or other.at is None or getattr(other, "down", False):
            continue
        if in_control_range(terrain, here, op.radius, other.at, other.radius):
            out.append(other)
    return out


def control_mask(terrain: Terrain, points: Any, radius: float, b_at: Sequence[float],
                 b_radius: float, margin: float = 0.0) -> np.ndarray:
    """(k,) :func:`in_control_range` of a base of ``radius`` at each of ``points`` against the
    base at ``b_at``, with the 1" shrunk by ``margin``."""
    pts = np.asarray(points, dtype=float).reshape(-1, 2)
    limit = CONTROL_RANGE - margin + TOLERANCE
    out = np.zeros(len(pts), dtype=bool)
    if len(pts) == 0:
        return out
    straight = np.hypot(pts[:, 0] - b_at[0], pts[:, 1] - b_at[1]) - radius - b_radius
    idx = np.flatnonzero(straight <= limit)
    if len(idx) == 0:
        return out
    route = np.asarray(terrain.routes.distances(b_at, b_radius, pts[idx], radius), dtype=float)
    idx = idx[route <= limit]
    if len(idx) == 0:
        return out
    seen = np.asarray(terrain.sight.visibility_matrix(pts[idx], radius, [b_at], b_radius),
                      dtype=bool)[:, 0]
    out[idx[seen]] = True
    return out


WALK_STEP = 0.05
"""Inches between the points of a walk tested against a cut control range (the placement
rule's step)."""


@dataclass(frozen=True)
class KeepOut:
    """The enemies' control ranges as a free move must keep out of them, the same for either
    side (the players' route check, the enemy's candidate end points, the referee audit).

    001 Reposition: "Cannot move within Control Range of an enemy unless they are already in
    Control Range of a friendly and cannot finish the move within Control Range of an enemy";
    001 "Control Range Visible and within 1" of model base" (:func:`in_control_range`). Where
    nothing that stops sight or measuring comes within an enemy's 1" (grown by both bases),
    its control range is that whole straight disc: a walk goes round it as round the enemy's
    base grown by 1" (exact). Where a wall, a closed door or blocking terrain cuts it, only part
    of the disc is control range -- a model round a wall's corner 0.9" away as the crow flies,
    out of sight or more than 1" round the corner, is not in it: such an enemy is *cut*, and a
    walk may go through the rest of its disc, tested point by point every :data:`WALK_STEP`
    (:meth:`entered`). A walk either goes round the cut enemies' discs too (``round_cut``: the
    way that never needs the test, but for the *loose* ones) or through them (tested against
    every cut enemy); a move may take either. *Loose*: the cut enemies whose disc the mover
    starts in (within 1" as the crow flies, not in control range): no walk can go round
    their disc, so every walk is tested against them. The card's "unless they are already in
    Control Range of a friendly" is ``engaged`` (Kill Team 2024, the ``engaged_control_range``
    setting's ``pass``; ``block`` leaves it empty, the older reading).

    ``enemies``: every enemy base ``(x, y, radius)`` in the caller's order; ``cut`` and
    ``loose``: indices into it. ``engaged``: the enemies already in control range of a
    friendly operative of the mover's (:func:`engaged_enemies`): a walk may pass through their
    control range (their bases still block); the move may not *finish* in it, which the
    caller keeps to (the players' end check, the AI's end points)."""

    enemies: tuple[tuple[float, float, float], ...]
    cut: frozenset[int]
    loose: frozenset[int]
    engaged: frozenset[int] = frozenset()

    def grown(self, k: int, *, round_cut: bool) -> float:
        """How much enemy ``k``'s base is grown as a blocker of the walk: 1" (its control
        range) unless the walk goes through it and is tested (0)."""
        if k in self.loose or k in self.engaged or (k in self.cut and not round_cut):
            return 0.0
        return CONTROL_RANGE

    def blockers(self, *, round_cut: bool) -> list[tuple[float, float, float]]:
        """The enemies' bases as blockers of a walk, each grown by :meth:`grown`."""
        return [(x, y, r + self.grown(k, round_cut=round_cut))
                for k, (x, y, r) in enumerate(self.enemies)]

    def tested(self, *, round_cut: bool) -> list[int]:
        """The enemies (indices) a walk with :meth:`blockers` (``round_cut`` alike) is tested
        against."""
        return [k for k in range(len(self.enemies))
                if k in self.loose or (k in self.cut and not round_cut)]

    @property
    def through(self) -> bool:
        """Whether going through a cut disc can be worth it: a cut enemy that is not loose
        (the walks round the discs and through them may then differ)."""
        return bool(self.cut - self.loose)

    def entered(self, terrain: Terrain, points: Any, radius: float, *, round_cut: bool
                ) -> int | None:
        """The first tested enemy (its index) whose control range a base of ``radius``
        walking along ``points`` enters (its end included), or None when the walk keeps out
        of them all."""
        tested = self.tested(round_cut=round_cut)
        if not tested:
            return None
        pts = walk_samples(points)
        for k in tested:  # (the same test as entered_many's, one walk at a time)
            x, y, r = self.enemies[k]
            if control_mask(terrain, pts, radius, (x, y), r).any():
                return k
        return None


    def entered_many(self, terrain: Terrain, walks: Sequence[Any], radius: float, *,
                     round_cut: bool) -> np.ndarray:
        """(n,) :meth:`entered` is not None, for each of ``walks`` (their points) at once."""
        out = np.zeros(len(walks), dtype=bool)
        tested = self.tested(round_cut=round_cut)
        if not tested or not walks:
            return out
        parts = [walk_samples(w) for w in walks]
        owner = np.repeat(np.arange(len(parts)), [len(p) for p in parts])
        pts = np.concatenate(parts)
        for k in tested:
            x, y, r = self.enemies[k]
            out[np.unique(owner[control_mask(terrain, pts, radius, (x, y), r)])] = True
        return out


def keep_out(terrain: Terrain, start: Sequence[float], radius: float,
             enemies: Iterable[Sequence[float]], reach: float = math.inf,
             engaged: Iterable[int] = ()) -> KeepOut:
    """:class:`KeepOut` for a base of ``radius`` moving at most ``reach`` inches from
    ``start`` among ``enemies`` (their bases ``(x, y, radius)``). An enemy whose disc the move
    cannot reach, or whose disc holds the start in its control range (no free move starts
    there), is left round as a disc; one of ``engaged`` (indices: see :class:`KeepOut`) is
    passed through."""
    bases = tuple((float(e[0]), float(e[1]), float(e[2])) for e in enemies)
    passed = frozenset(engaged)
    cut: set[int] = set()
    loose: set[int] = set()
    for k, (x, y, r) in enumerate(bases):
        if k in passed:
            continue
        gap = straight_gap(start, radius, (x, y), r)
        if gap > reach + CONTROL_RANGE + TOLERANCE:
            continue
        if terrain.open_around((x, y), r + CONTROL_RANGE + radius + TOLERANCE):
            continue
        if gap <= CONTROL_RANGE + TOLERANCE:
            if in_control_range(terrain, start, radius, (x, y), r):
                continue
            loose.add(k)
        cut.add(k)
    return KeepOut(bases, frozenset(cut), frozenset(loose), passed)


def passes_engaged(edition: str, setting: str) -> bool:
    """Whether a free move may pass through the control range of an enemy a friendly already
    holds (:func:`engaged_enemies`): Kill Team 2024 Reposition and Dash under the
    ``engaged_control_range`` setting's ``pass``; never in Kill Team 2018 (004 "a model
    cannot be moved within 1\" of any enemy models")."""
    return edition == "kt2024" and setting == "pass"


def engaged_enemies(terrain: Terrain, enemies: Sequence[Sequence[float]],
                    friends: Iterable[Sequence[float]]) -> frozenset[int]:
    """The enemies (indices into ``enemies``, bases ``(x, y, radius)``) already in control
    range of one of ``friends`` (the mover's friendly operatives on the table, itself left
    out): 001 Reposition "Cannot move within Control Range of an enemy unless they are already
    in Control Range of a friendly"."""
    mates = [(float(f[0]), float(f[1]), float(f[2])) for f in friends]
    out = set()
    for k, e in enumerate(enemies):
        for x, y, r in mates:
            if straight_gap((x, y), r, (e[0], e[1]), e[2]) <= CONTROL_RANGE + TOLERANCE and \
                    in_control_range(terrain, (x, y), r, (e[0], e[1]), e[2]):
                out.add(k)
                break
    return frozenset(out)


def walk_samples(points: Any, step: float = WALK_STEP) -> np.ndarray:
    """(n, 2) points along the polyline ``points`` every ``step`` inches of its length, with
    each of its corners and its end."""
    pts = np.asarray(points, dtype=float).reshape(-1, 2)
    out = [pts[:1]]
    for a, b in itertools.pairwise(pts):
        length = float(np.hypot(*(b - a)))
        n = max(1, math.ceil(length / step))
        t = np.arange(1, n + 1, dtype=float)[:, None] / n
        out.append(a + (b - a) * t)
    return np.concatenate(out)


def move_allowance(op: Any, how: str, edition: str, roll: float | None = None) -> float:
    """How far ``op`` may move with a move of kind ``how`` (see the module docstring).

    Raises ``ValueError`` for a kind of move the edition does not have."""
    m = float(op.profile.movement)
    if roll is None and edition == "kt2018":  # a roll already made this phase (004)
        known = getattr(op, {"advance": "advance_roll", "charge": "charge_roll"}.get(how, ""),
                        None)
        roll = None if known is None else float(known)
    if edition == "kt2024":
        if getattr(op, "injured", False):
            m = max(0.0, m - INJURED_MOVE_PENALTY)
        table = {"reposition": m, "fall_back": m, "dash": DASH, "charge": m + CHARGE_BONUS}
    else:
        table = {"normal": m, "fall_back": m,
                 "advance": m + (KT2018_ADVANCE_MAX if roll is None else float(roll)),
                 "charge": KT2018_CHARGE_MAX if roll is None else float(roll)}
    if how not in table:
        raise ValueError(f"no {how!r} move in {edition} (moves: {', '.join(table)})")
    return carry_cap(op, table[how])


def carry_cap(op: Any, allowance: float) -> float:
    """``allowance``, capped for a model carrying a downed friend at 4" a turn less what it
    has moved this turn (``turn_move``); unchanged for anyone else."""
    if getattr(op, "carrying", None) is None:
        return allowance
    used = float(getattr(op, "turn_move", 0.0) or 0.0)
    return max(0.0, min(allowance, CARRY_MOVE_LIMIT - used))


def edge_gap(board: Any, at: Sequence[float], radius: float) -> float:
    """The straight gap from a base at ``at`` to the nearest table edge (inches): a carrier
    within control range of it (1") may carry its friend off (``evacuate``, RULES-NOTES
    "Carrying"; distances to edges are straight, docs/rules.md)."""
    x, y = float(at[0]), float(at[1])
    return min(x, y, float(board.width) - x, float(board.depth) - y) - radius


def at_edge(board: Any, at: Sequence[float], radius: float) -> bool:
    """Whether a base at ``at`` is within 1" of a table edge (:func:`edge_gap`)."""
    return edge_gap(board, at, radius) <= CONTROL_RANGE + 1e-6


def within_words(edition: str) -> str:
    """The words for "within reach of an enemy's fighting" in the edition's vocabulary: Kill
    Team 2024 "in control range of", Kill Team 2018 "within 1\" of" (004)."""
    return "within 1\" of" if edition == "kt2018" else "in control range of"


def round_point(p: Sequence[float] | None) -> list[float] | None:
    """A position as recorded in events and plans: ``[x, y]`` rounded to 0.01"."""
    if p is None:
        return None
    return [round(float(p[0]), POINT_PLACES), round(float(p[1]), POINT_PLACES)]


def move_verb(how: str) -> str:
    """The verb a sentence uses for the move ``how`` ("Kell can move 6.0\""): a 2018 normal
    move is a move, a Fall Back falls back, the others are their own words."""
    return {"normal": "move", "fall_back": "fall back"}.get(how, how.replace("_", " "))
