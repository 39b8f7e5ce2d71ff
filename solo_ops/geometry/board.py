"""Boards: the table, its terrain features with their traits, zones, objectives and sectors.

A :class:`Board` is immutable plain data plus shapely shapes. Opening a door or hatch makes a
new board (:meth:`Board.with_open`), so a game's board is always derivable from the scenario
and the actions taken. The meaning of each trait for movement, sight, measuring, cover and
obscuring lives in the small ``Feature.*`` predicates below, so every query agrees on it.

Coordinates are inches, ``x`` along the long edge (``width``) and ``y`` along the short edge
(``depth``), origin at a corner. Sectors follow ``shared/RULES-NOTES.md``: thirds along x,
halves along y; 1-3 left to right in the half nearer y = 0, 4-6 in the other half.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, is_dataclass, replace
from functools import cached_property
from typing import Any, cast

import shapely
from shapely.geometry import LineString, Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.validation import explain_validity

from solo_ops.core.errors import InputError, excerpt
from solo_ops.core.fields import Fields, Ids, join_path
from solo_ops.core.limits import BOARD

TRAITS = frozenset({
    "wall", "door", "hatch", "blocking", "heavy", "light", "accessible", "exposed",
    "insignificant", "vantage", "pitfall", "hazardous", "obstructing",
    "stronghold",  # Volkus: the stronghold's footprint (rules.killzones); no terrain effect
})
EDGE_TOLERANCE = 1e-6
BOARD_KEYS = ("name", "width", "depth", "features", "zones", "objectives", "firing_points",
              "markers", "killzone", "notes")
FEATURE_KEYS = ("id", "traits", "polygon", "line", "height", "open", "label", "notes")
NO_CLIMB = "no-climb"
"""A trait only a move's own board gives (never a board file): no move climbs onto the
feature (001 Dash "cannot be used to climb"); walking on it from where the model stands on it,
and dropping off it, are as before."""


@dataclass(frozen=True, eq=False)
class Feature:
    """One terrain feature: an id, its traits and its shape (a footprint or a thin line)."""

    id: str
    traits: frozenset[str]
    shape: Polygon | LineString
    height: float | None = None
    open: bool = False
    label: str | None = None

    @property
    def is_line(self) -> bool:
        return isinstance(self.shape, LineString)

    def has(self, trait: str) -> bool:
        return trait in self.traits

    @property
    def is_portal(self) -> bool:
        """A door or hatch: a wall while closed."""
        return "door" in self.traits or "hatch" in self.traits

    @property
    def closed_portal(self) -> bool:
        return self.is_portal and not self.open

    @property
    def effective_traits(self) -> frozenset[str]:
        """Traits as they apply now: an open hatch is accessible, insignificant and exposed;
        an open door is gone (2018: removed from the board); closed ones act as walls."""
        if not self.is_portal:
            return self.traits
        if self.open:
            if "hatch" in self.traits:
                return frozenset({"hatch", "accessible", "insignificant", "exposed"})
            return frozenset({"door"})
        return self.traits | {"wall"}

    # -- what the trait means to each kind of query -------------------------------------------
    @property
    def blocks_movement(self) -> bool:
        """Walls, closed doors and hatches, and pitfalls cannot be walked through."""
        t = self.effective_traits
        return "wall" in t or "pitfall" in t

    @property
    def blocks_visibility(self) -> bool:
        """Walls, closed doors and hatches and ``blocking`` features stop sight."""
        t = self.effective_traits
        return "wall" in t or "blocking" in t

    @property
    def blocks_measuring(self) -> bool:
        """Distances go around walls and closed doors (pitfalls do not affect measuring)."""
        return "wall" in self.effective_traits

    @property
    def gives_cover(self) -> bool:
        """Terrain that can put a target in cover: anything solid that is not exposed or
        insignificant (pitfalls and hazardous ground alone give none)."""
        t = self.effective_traits
        if "exposed" in t or "insignificant" in t:
            return False
        return bool(t & {"heavy", "light", "wall", "blocking"})

    @property
    def obscures(self) -> bool:
        """Heavy terrain (walls count as Heavy, as do closed hatches and doors)."""
        t = self.effective_traits
        if "insignificant" in t:
            return False
        return "heavy" in t or "wall" in t

    @property
    def is_light_only(self) -> bool:
        """Light terrain that is not also heavy (Seek Light ignores it)."""
        t = self.effective_traits
        return "light" in t and not (t & {"heavy", "wall", "blocking"})


@dataclass(frozen=True)
class Objective:
    id: str
    at: tuple[float, float]
    label: str | None = None
    command_node: bool = False
    portable: bool = False  # Kill Team 2024 Pick Up / Place Down may move it (docs/rules.md)


@dataclass(frozen=True)
class FiringPoint:
    """A Pariah Nexus firing point: a footprint on the floor and the firing arc it overlooks."""

    id: str
    area: Polygon
    arc: Polygon


@dataclass(frozen=True)
class Marker:
    """A named spot with no terrain effect of its own (spatial lacerators, annuli, nodes...)."""

    id: str
    kind: str
    at: tuple[float, float]


@dataclass(frozen=True, eq=False)
class Board:
    """A killzone: its size, features, zones, objectives and Pariah Nexus extras."""

    name: str
    width: float
    depth: float
    features: tuple[Feature, ...] = ()
    zones: Mapping[str, Polygon] = field(default_factory=dict)
    objectives: tuple[Objective, ...] = ()
    firing_points: tuple[FiringPoint, ...] = ()
    markers: tuple[Marker, ...] = ()
    killzone: str | None = None
    source: str | None = None

    @cached_property
    def outline(self) -> Polygon:
        return box(0.0, 0.0, self.width, self.depth)

    @cached_property
    def identity(self) -> tuple[Any, ...]:
        """Everything the board is made of, exactly (its shapes as WKB), as one hashable
        value: two boards with the same identity are the same board, whichever file or object
        they came from (:meth:`~solo_ops.geometry.terrain.TerrainCache.shared` keys on it)."""
        return cast(tuple[Any, ...], _exact(self))

    def feature(self, feature_id: str) -> Feature:
        for f in self.features:
            if f.id == feature_id:
                return f
        raise KeyError(feature_id)

    @cached_property
    def _portals(self) -> tuple[Feature, ...]:
        """The doors and hatches, in board order (found once: a board never changes)."""
        return tuple(f for f in self.features if f.is_portal)

    def portals(self) -> list[Feature]:
        return list(self._portals)

    def with_open(self, changes: Mapping[str, bool]) -> Board:
        """A new board with the named doors/hatches opened (True) or closed (False)."""
        if not changes:
            return self
        ids = {f.id for f in self.features}
        for fid in changes:
            if fid not in ids:
                raise InputError(f"no door or hatch called {excerpt(fid)} on this board")
            if not self.feature(fid).is_portal:
                raise InputError(f"{excerpt(fid)} is not a door or hatch")
        features = tuple(
            replace(f, open=bool(changes[f.id])) if f.id in changes else f for f in self.features
        )
        return replace(self, features=features)

    def with_changes(self, changes: Iterable[tuple[str, str]]) -> Board:
        """A new board with features changed for a while (Kill Team 2018 Pariah Nexus
        effects): ``(id, "remove")`` takes the feature off the board (004 Structural
        Transponder "remove one Ultra-close Confines terrain feature"; Dimensional
        Destabilisation: walls an Advance moves through), ``(id, "pitfall")`` makes it block
        movement only, as a pitfall does (Power Flux's active petrific divisors, Hazardous
        Conduit Flares' starslave conduits for an Advance), ``(id, "no-climb")`` lets no move
        climb onto it (a Kill Team 2024 Dash: :data:`NO_CLIMB`)."""
        changes = tuple(changes)
        if not changes:
            return self
        removed = {fid for fid, how in changes if how == "remove"}
        added = {"pitfall": "pitfall", "no-climb": NO_CLIMB}
        extra: dict[str, set[str]] = {}
        for fid, how in changes:
            if how in added:
                extra.setdefault(fid, set()).add(added[how])
        features = tuple(
            replace(f, traits=f.traits | extra[f.id]) if f.id in extra else f
            for f in self.features if f.id not in removed)
        return replace(self, features=features)

    def door_state(self) -> dict[str, bool]:
        """``{portal id: open?}`` for every door and hatch (part of a game's state)."""
        return {f.id: f.open for f in self._portals}

    def on_board(self, x: float, y: float, radius: float = 0.0) -> bool:
        tol = EDGE_TOLERANCE
        return (radius - tol <= x <= self.width - radius + tol
                and radius - tol <= y <= self.depth - radius + tol)

    # -- sectors --------------------------------------------------------------------------------
    def sector_of(self, x: float, y: float) -> int:
        """The fog-of-war sector (1-6) containing the point: the table cut "into thirds along a
        long table edge, and then in half along a short table edge" (supplement), whichever way
        the board lies. Sectors 1-3 run along the long edge in the half nearer its origin."""
        along, across = (x, y) if self.width >= self.depth else (y, x)
        long_side, short_side = max(self.width, self.depth), min(self.width, self.depth)
        col = min(2, max(0, int(along // (long_side / 3.0))))
        row = 0 if across < short_side / 2.0 else 1
        return row * 3 + col + 1

    def sector_box(self, sector: int) -> Polygon:
        """The rectangle of ``sector`` (1-6) (see :meth:`sector_of`)."""
        if not 1 <= sector <= 6:
            raise ValueError(f"sector must be 1-6, got {sector}")
        col = (sector - 1) % 3
        row = (sector - 1) // 3
        if self.width >= self.depth:
            w3, d2 = self.width / 3.0, self.depth / 2.0
            return box(col * w3, row * d2, (col + 1) * w3, (row + 1) * d2)
        d3, w2 = self.depth / 3.0, self.width / 2.0
        return box(row * w2, col * d3, (row + 1) * w2, (col + 1) * d3)

    def sector_centre(self, sector: int) -> tuple[float, float]:
        c = self.sector_box(sector).centroid
        return (c.x, c.y)


# -- loading ---------------------------------------------------------------------------------
def _polygon(points: list[tuple[float, float]], where: Fields, key: str) -> Polygon:
    if len(points) < 3:
        raise where.error(key, f"a polygon needs at least 3 points, got {len(points)}")
    poly = Polygon(points)
    if poly.area <= 0:
        raise where.error(key, "polygon has no area (its points are in a line)")
    if not poly.is_valid:
        reason = explain_validity(poly)
        kind = "self-intersecting polygon" if "Self-intersection" in reason else "invalid polygon"
        raise where.error(key, f"{kind} ({reason})")
    return poly


def _inside_board(shape: Any, width: float, depth: float, where: Fields, key: str) -> None:
    minx, miny, maxx, maxy = shape.bounds
    tol = EDGE_TOLERANCE
    if minx < -tol or miny < -tol or maxx > width + tol or maxy > depth + tol:
        raise where.error(
            key,
            f"lies off the board (spans x {minx:g}..{maxx:g}, y {miny:g}..{maxy:g} on a "
            f"{width:g} x {depth:g} board)",
        )


def parse_feature(data: Any, source: str | None, path: str, width: float, depth: float) -> Feature:
    f = Fields(data, source, path).only(FEATURE_KEYS)
    fid = f.text("id")
    traits_raw = f.sequence("traits")
    if not traits_raw:
        raise f.error("traits", "needs at least one trait")
    traits = set()
    for i, trait in enumerate(traits_raw):
        name = str(trait).strip().lower()
        if name not in TRAITS:
            raise f.error(
                join_path("traits", i),
                f"unknown trait {excerpt(trait)} (known: {', '.join(sorted(TRAITS))})",
            )
        traits.add(name)
    has_poly, has_line = f.has("polygon"), f.has("line")
    if has_poly == has_line:
        raise f.error(None, "needs exactly one of polygon or line")
    if has_poly:
        shape: Polygon | LineString = _polygon(f.points("polygon"), f, "polygon")
        key = "polygon"
    else:
        points = f.points("line", at_least=2)
        shape = LineString(points)
        if shape.length <= 0:
            raise f.error("line", "line has no length")
        if not shape.is_simple:
            raise f.error("line", "self-intersecting line")
        key = "line"
    _inside_board(shape, width, depth, f, key)
    is_portal = "door" in traits or "hatch" in traits
    if f.has("open") and not is_portal:
        raise f.error("open", "only doors and hatches can be open or closed")
    return Feature(
        id=fid,
        traits=frozenset(traits),
        shape=shape,
        height=f.number("height", None, minimum=0),
        open=f.boolean("open", False),
        label=f.text("label", None),
    )


def _check_size(b: Fields) -> None:
    """Refuse a board beyond :data:`solo_ops.core.limits.BOARD` before building any shape, so
    no board file can make a distance or a picture take minutes or gigabytes."""
    counts = (("features", BOARD.features), ("objectives", BOARD.items),
              ("markers", BOARD.items), ("firing_points", BOARD.items))
    for key, most in counts:
        items = b.sequence(key, [])
        if len(items) > most:
            raise b.error(key, f"has {len(items)} entries; a board may have at most {most}")
    corners = 0

    def count(points: Any) -> int:
        return len(points) if isinstance(points, (list, tuple)) else 0

    for item in b.sequence("features", []) + b.sequence("firing_points", []):
        if isinstance(item, Mapping):
            corners += sum(count(item.get(k)) for k in ("polygon", "line", "arc"))
    if b.has("zones"):
        zones = b.mapping("zones")
        if len(zones.data) > BOARD.zones:
            raise b.error("zones", f"has {len(zones.data)} zones; at most {BOARD.zones}")
        corners += sum(count(v) for v in zones.data.values())
    if corners > BOARD.corners:
        raise b.error(None, f"has {corners} corners in all its shapes; a board may have at "
                            f"most {BOARD.corners}")


def parse_board(data: Any, source: str | None, path: str = "") -> Board:
    """Check a board document (``shared/INTERFACES.md``) and build a :class:`Board`.
    Sizes and counts are limited (:data:`solo_ops.core.limits.BOARD`)."""
    b = Fields(data, source, path).only(BOARD_KEYS)
    width = b.number("width", positive=True, maximum=BOARD.inches)
    depth = b.number("depth", positive=True, maximum=BOARD.inches)
    _check_size(b)
    features: list[Feature] = []
    claim = Ids(source).claim

    for i, item in enumerate(b.sequence("features", [])):
        where = join_path(join_path(path, "features"), i)
        feat = parse_feature(item, source, where, width, depth)
        claim(feat.id, where)
        features.append(feat)
    zones: dict[str, Polygon] = {}
    if b.has("zones"):
        z = b.mapping("zones")
        for name in z.data:
            poly = _polygon(z.points(str(name)), z, str(name))
            _inside_board(poly, width, depth, z, str(name))
            zones[str(name)] = poly
    objectives = []
    for i, item in enumerate(b.sequence("objectives", [])):
        where = join_path(join_path(path, "objectives"), i)
        o = Fields(item, source, where).only(("id", "at", "label", "command_node", "portable"))
        oid = o.text("id")
        at = o.point("at")
        if not (0 <= at[0] <= width and 0 <= at[1] <= depth):
            raise o.error("at", f"point {at[0]:g},{at[1]:g} is off the board")
        claim(oid, where)
        objectives.append(
            Objective(oid, at, o.text("label", None), o.boolean("command_node", False),
                      o.boolean("portable", False))
        )
    firing_points = []
    for i, item in enumerate(b.sequence("firing_points", [])):
        where = join_path(join_path(path, "firing_points"), i)
        fp = Fields(item, source, where).only(("id", "polygon", "arc"))
        fid = fp.text("id")
        area = _polygon(fp.points("polygon"), fp, "polygon")
        arc = _polygon(fp.points("arc"), fp, "arc")
        _inside_board(area, width, depth, fp, "polygon")
        claim(fid, where)
        firing_points.append(FiringPoint(fid, area, arc))
    markers = []
    for i, item in enumerate(b.sequence("markers", [])):
        where = join_path(join_path(path, "markers"), i)
        m = Fields(item, source, where).only(("id", "kind", "at"))
        mid = m.text("id")
        at = m.point("at")
        if not (0 <= at[0] <= width and 0 <= at[1] <= depth):
            raise m.error("at", f"point {at[0]:g},{at[1]:g} is off the board")
        claim(mid, where)
        markers.append(Marker(mid, m.text("kind"), at))
    return Board(
        name=b.text("name"),
        width=width,
        depth=depth,
        features=tuple(features),
        zones=zones,
        objectives=tuple(objectives),
        firing_points=tuple(firing_points),
        markers=tuple(markers),
        killzone=b.text("killzone", None),
        source=source,
    )


def board_to_data(board: Board) -> dict[str, Any]:
    """The board as plain data in the file format (for inline boards in generated scenarios)."""
    def pts(shape: Any) -> list[list[float]]:
        coords = shape.exterior.coords[:-1] if isinstance(shape, Polygon) else shape.coords
        return [[round(x, 6), round(y, 6)] for x, y in coords]

    features = []
    for f in board.features:
        item: dict[str, Any] = {"id": f.id, "traits": sorted(f.traits)}
        item["line" if f.is_line else "polygon"] = pts(f.shape)
        if f.height is not None:
            item["height"] = f.height
        if f.is_portal:
            item["open"] = f.open
        if f.label:
            item["label"] = f.label
        features.append(item)
    data: dict[str, Any] = {"name": board.name, "width": board.width, "depth": board.depth,
                            "features": features}
    if board.killzone:
        data["killzone"] = board.killzone
    if board.zones:
        data["zones"] = {k: pts(v) for k, v in board.zones.items()}
    if board.objectives:
        data["objectives"] = [
            {"id": o.id, "at": list(o.at), **({"label": o.label} if o.label else {}),
             **({"command_node": True} if o.command_node else {}),
             **({"portable": True} if o.portable else {})}
            for o in board.objectives
        ]
    if board.firing_points:
        data["firing_points"] = [
            {"id": fp.id, "polygon": pts(fp.area), "arc": pts(fp.arc)} for fp in board.firing_points
        ]
    if board.markers:
        data["markers"] = [{"id": m.id, "kind": m.kind, "at": list(m.at)} for m in board.markers]
    return data


def _exact(value: Any) -> Any:
    """:attr:`Board.identity` of one value: a dataclass by its fields, a shape by its WKB, a
    mapping by its items in their order (the zones are listed and drawn in it), a set sorted,
    a list as a tuple."""
    if isinstance(value, BaseGeometry):
        return shapely.to_wkb(value)
    if is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__,
                *(_exact(getattr(value, f.name)) for f in fields(value)))
    if isinstance(value, Mapping):
        return ("{}", *((str(k), _exact(v)) for k, v in value.items()))
    if isinstance(value, (set, frozenset)):
        return ("set", *sorted(_exact(v) for v in value))
    if isinstance(value, (list, tuple)):
        return ("()", *(_exact(v) for v in value))
    return value


def union_of(shapes: Iterable[Any]) -> Any:
    """The union of shapes (an empty geometry when there are none)."""
    shapes = list(shapes)
    if not shapes:
        return shapely.GeometryCollection()
    return shapely.union_all(shapes)


def point(x: float, y: float) -> Point:
    return Point(x, y)

