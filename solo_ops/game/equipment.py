"""The Kill Team 2024 card's universal equipment, set up in a scenario, as board terrain.

Barricades, razor wire and ladders become terrain features (so sight, cover and routes
respect them at once); mines, the ammo cache and the comms device become markers (mines go
off under the first operative to come near: :mod:`solo_ops.game.mines`; nothing reads the
other two yet: docs/rules.md lists what of the equipment is not played). Sizes are not on
the card: the defaults below are typical of the physical kits and can be overridden with
``size: [length, width]``.

Scenario entry: ``{kind: light-barricade, at: [x, y], angle: 30, owner: Ana}`` (``angle`` in
degrees from the x axis; ``id`` optional).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from shapely import affinity
from shapely.geometry import Polygon, box

from solo_ops.core.fields import Fields, check_number, join_path
from solo_ops.geometry.board import Board, Feature, Marker
from solo_ops.geometry.shapes import terrain_at, terrain_words

# kind -> (traits, default size [length, width] in inches) for equipment that is terrain
TERRAIN_EQUIPMENT: dict[str, tuple[frozenset[str], tuple[float, float]]] = {
    "light-barricade": (frozenset({"light"}), (4.0, 0.5)),
    "heavy-barricade": (frozenset({"heavy"}), (4.0, 1.0)),
    "portable-barricade": (frozenset({"light"}), (3.0, 0.5)),
    "razor-wire": (frozenset({"obstructing", "exposed"}), (4.0, 1.0)),
    "ladder": (frozenset({"exposed"}), (1.0, 0.5)),
}
MARKER_EQUIPMENT = ("mines", "ammo-cache", "comms-device")
KINDS = (*TERRAIN_EQUIPMENT, *MARKER_EQUIPMENT)
MINE_TRIGGER_RANGE = 1.0  # control range: "The first time ANY Operative is within Control Range"


@dataclass(frozen=True)
class EquipmentItem:
    """One piece of set-up equipment."""

    id: str
    kind: str
    at: tuple[float, float]
    angle: float = 0.0
    size: tuple[float, float] | None = None
    owner: str | None = None

    @property
    def is_terrain(self) -> bool:
        return self.kind in TERRAIN_EQUIPMENT

    def footprint(self) -> Polygon:
        """The item's rectangle on the board (terrain equipment only)."""
        length, width = self.size or TERRAIN_EQUIPMENT[self.kind][1]
        rect = box(-length / 2, -width / 2, length / 2, width / 2)
        rect = affinity.rotate(rect, self.angle, origin=(0, 0))
        return affinity.translate(rect, self.at[0], self.at[1])


def parse_equipment(items: list[Any], source: str | None, board: Board) -> list[EquipmentItem]:
    """Check the scenario's ``equipment`` list against the board."""
    result = []
    ids = {f.id for f in board.features} | {m.id for m in board.markers}
    for i, item in enumerate(items):
        where = join_path("equipment", i)
        e = Fields(item, source, where).only(("id", "kind", "at", "angle", "size", "owner"))
        kind = e.choice("kind", KINDS)
        eid = e.text("id", f"{kind}-{i + 1}")
        if eid in ids:
            raise e.error("id", f"duplicate id {eid!r}")
        ids.add(eid)
        at = e.point("at")
        size = None
        if e.has("size"):
            pts = e.sequence("size")
            if len(pts) != 2:
                raise e.error("size", "expected [length, width]")
            size_path = join_path(where, "size")
            size = (check_number(pts[0], source, join_path(size_path, 0), positive=True),
                    check_number(pts[1], source, join_path(size_path, 1), positive=True))
        angle = e.number("angle", 0.0, minimum=-360, maximum=360)
        entry = EquipmentItem(eid, kind, at, angle, size, e.text("owner", None))
        if entry.is_terrain:
            shape = entry.footprint()
            minx, miny, maxx, maxy = shape.bounds
            if minx < 0 or miny < 0 or maxx > board.width or maxy > board.depth:
                raise e.error("at", f"{kind} at {at[0]:g},{at[1]:g} does not fit on the board")
        elif not board.on_board(*at):
            raise e.error("at", f"point {at[0]:g},{at[1]:g} is off the board")
        elif (solid := terrain_at(board.features, *at)) is not None:
            raise e.error("at", f"point {at[0]:g},{at[1]:g} is inside {terrain_words(solid)}")
        result.append(entry)
    return result


def apply_equipment(board: Board, items: list[EquipmentItem]) -> Board:
    """The board with terrain equipment added as features and the rest as markers."""
    if not items:
        return board
    features = list(board.features)
    markers = list(board.markers)
    for item in items:
        if item.is_terrain:
            traits = TERRAIN_EQUIPMENT[item.kind][0]
            features.append(Feature(item.id, traits, item.footprint(), label=item.kind))
        else:
            markers.append(Marker(item.id, item.kind, item.at))
    return replace(board, features=tuple(features), markers=tuple(markers))
