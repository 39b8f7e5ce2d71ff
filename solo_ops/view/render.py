"""Pictures of boards and of the player's view: pure drawing, no decisions.

A :class:`Scene` is built from a :class:`~solo_ops.geometry.board.Board` by
:func:`board_scene` and then decorated by the caller with model bases (:func:`add_disc`),
planned moves, shots and charges (:func:`add_path`), hidden counters (:func:`add_counter`) and
legend lines (:func:`add_legend`). :func:`render_bytes` turns it into SVG (text, written
directly) or PNG (Pillow, no system graphics library), by the file's suffix.

Both outputs come from one list of drawing primitives in pixel coordinates (:func:`primitives`),
so the SVG and the PNG always show the same thing. The board is drawn with ``y = 0`` at the
bottom (sectors 1-3 along the bottom half), :data:`SCALE` pixels per inch, with a 1" grid,
an inch ruler on two edges, the six fog-of-war sectors (dashed, numbered), the drop zones,
terrain coloured by trait, objectives, firing points with their arcs, markers and a legend.
The look (scale, margins, font, colours, line styles) is :mod:`solo_ops.view.picture_style`'s,
re-exported here.

No file is touched here: :func:`solo_ops.io.pictures.save_picture` writes the bytes atomically.
"""

from __future__ import annotations

import io
import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast
from xml.sax.saxutils import escape

from shapely.geometry import LineString, Point, Polygon

from solo_ops.geometry.board import Board, Feature
from solo_ops.view.picture_style import (  # the look, re-exported: render.SCALE etc.
    BACKGROUND,
    COMMAND_NODE_COLOUR,
    COUNTER_COLOUR,
    FIRING_POINT_COLOUR,
    FLOOR,
    FONT,
    GAP,
    GRID,
    GRID_MAJOR,
    LEGEND_WIDTH,
    LINE_WIDTH_IN,
    MARGIN_BOTTOM,
    MARGIN_LEFT,
    MARGIN_RIGHT,
    MARGIN_TOP,
    MARKER_COLOUR,
    OBJECTIVE_COLOUR,
    OBJECTIVE_RADIUS,
    PATH_STYLES,
    PNG_SUPERSAMPLE,
    PORTAL_STYLES,
    SCALE,
    SIDE_COLOURS,
    TERRAIN_STYLES,
    TEXT,
    ZONE_COLOURS,
    Style,
)

Point2 = tuple[float, float]
_PLAIN = Style()  # a shape's default style: no fill, no stroke


# -- primitives ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Shape:
    """One drawing primitive in pixels: ``kind`` is ``polygon``, ``polyline``, ``circle`` or
    ``text``; ``points`` its vertices (a circle: its centre); ``radius`` for circles; ``text``,
    ``size`` (pixels), ``anchor`` (start/middle/end) and ``bold`` for text; ``css`` a class name
    written into the SVG (tests and stylesheets can find things by it); ``halo`` outlines
    text in white so it stays legible over terrain."""

    kind: str
    points: tuple[Point2, ...]
    style: Style = _PLAIN
    radius: float = 0.0
    text: str = ""
    size: float = 12.0
    anchor: str = "start"
    bold: bool = False
    css: str = ""
    halo: bool = False


@dataclass
class Scene:
    """A board picture being built: the board, a title, what the caller added on top and the
    legend lines. Build it with :func:`board_scene`; add to it with the ``add_*`` functions."""

    board: Board
    title: str
    overlay: list[tuple[str, Any]] = field(default_factory=list)
    legend: list[tuple[str, str]] = field(default_factory=list)
    scale: float = SCALE

    # -- geometry of the picture -----------------------------------------------------------
    @property
    def board_px(self) -> tuple[float, float]:
        return self.board.width * self.scale, self.board.depth * self.scale

    def px(self, x: float, y: float) -> Point2:
        """Board inches to picture pixels (``y = 0`` at the bottom of the board)."""
        return (MARGIN_LEFT + x * self.scale,
                MARGIN_TOP + (self.board.depth - y) * self.scale)

    def legend_entries(self) -> list[tuple[Style | str, str, str]]:
        """Legend lines: (swatch style or marker kind, text, swatch shape)."""
        return _board_legend(self.board) + [_legend_swatch(k, t) for k, t in self.legend]

    @property
    def size(self) -> tuple[int, int]:
        """The picture's size in pixels (width, height)."""
        bw, bh = self.board_px
        legend_h = 30.0 + 20.0 * len(self.legend_entries())
        width = MARGIN_LEFT + bw + GAP + LEGEND_WIDTH + MARGIN_RIGHT
        height = MARGIN_TOP + max(bh, legend_h) + MARGIN_BOTTOM
        return math.ceil(width), math.ceil(height)


def board_scene(board: Board, title: str | None = None) -> Scene:
    """A scene showing ``board`` (terrain, sectors, zones, objectives, firing points, markers,
    grid and legend), titled ``title`` (the board's name by default)."""
    return Scene(board=board, title=title or board.name)


def add_disc(scene: Scene, at: Sequence[float], radius: float, side: str = "player",
             label: str | None = None, *, downed: bool = False) -> None:
    """Add a model's base: a disc of ``radius`` inches at ``at``, coloured by ``side``
    (``player``, ``player2``, ``player3`` or ``enemy``), with an optional label; ``downed``:
    a downed operative lying there (pale, dashed, crossed: its base still takes room)."""
    if side not in SIDE_COLOURS:
        raise ValueError(f"unknown side {side!r} (known: {', '.join(SIDE_COLOURS)})")
    scene.overlay.append(("disc", ((float(at[0]), float(at[1])), float(radius), side, label,
                                   downed)))


def add_path(scene: Scene, points: Iterable[Sequence[float]], kind: str = "move") -> None:
    """Add a route or a line of fire through ``points`` (inches), drawn as ``kind``:
    ``move`` (dashed), ``shot`` (thin red) or ``charge`` (thick orange), with an arrow head."""
    if kind not in PATH_STYLES:
        raise ValueError(f"unknown path kind {kind!r} (known: {', '.join(PATH_STYLES)})")
    pts = [(float(p[0]), float(p[1])) for p in points]
    if len(pts) >= 2:
        scene.overlay.append(("path", (pts, kind)))


def add_counter(scene: Scene, at: Sequence[float], label: str | None = None) -> None:
    """Add a hidden fog-of-war counter: a "?" token at ``at`` with an optional label."""
    scene.overlay.append(("counter", ((float(at[0]), float(at[1])), label)))


def add_legend(scene: Scene, entries: Iterable[tuple[str, str]]) -> None:
    """Add legend lines, each ``(kind, text)``; ``kind`` picks the swatch: a side
    (``player``, ``player2``, ``player3``, ``enemy``), ``counter``, a path kind (``move``,
    ``shot``, ``charge``), ``objective`` or a terrain trait; anything else gets a plain box."""
    scene.legend.extend((str(k), str(t)) for k, t in entries)


# -- building the primitives -----------------------------------------------------------------
def _terrain_style(feature: Feature) -> tuple[str, Style]:
    if feature.is_portal:
        kind = "hatch" if "hatch" in feature.traits else "door"
        text, style = PORTAL_STYLES[(kind, feature.open)]
        return text, style
    for trait, text, style in TERRAIN_STYLES:
        if trait in feature.traits:
            return text, style
    return "terrain", Style("#cccccc", 0.8, "#888888", 1.0, 1.0)


def _board_legend(board: Board) -> list[tuple[Style | str, str, str]]:
    out: list[tuple[Style | str, str, str]] = []
    seen: set[str] = set()
    for f in board.features:
        text, style = _terrain_style(f)
        if text in seen:
            continue
        seen.add(text)
        if f.is_line and "wall" in f.traits and not f.is_portal:
            style = Style(None, 1.0, style.fill, 1.0, LINE_WIDTH_IN * SCALE)
        shape = "line" if f.is_portal or f.is_line else "box"
        out.append((style, text, shape))
    order = [t for _, t, _ in TERRAIN_STYLES] + [v[0] for v in PORTAL_STYLES.values()]
    out.sort(key=lambda e: order.index(e[1]) if e[1] in order else len(order))
    for name, colour in ZONE_COLOURS.items():
        if name in board.zones:
            out.append((Style(colour, 0.12, colour, 0.8, 1.5, (6.0, 4.0)),
                        f"{name} drop zone", "box"))
    for name in board.zones:
        if name not in ZONE_COLOURS:
            out.append((Style("#888888", 0.12, "#888888", 0.8, 1.5, (6.0, 4.0)),
                        f"{name} drop zone", "box"))
    if board.objectives:
        out.append(("objective", "objective marker", "marker"))
    if any(o.command_node for o in board.objectives):
        out.append(("command_node", "command node", "marker"))
    if board.firing_points:
        out.append((Style(FIRING_POINT_COLOUR, 0.12, FIRING_POINT_COLOUR, 0.9, 1.2, (4.0, 3.0)),
                    "firing point and arc", "box"))
    for kind in sorted({m.kind for m in board.markers}):
        out.append(("marker", f"{_abbrev(kind)}: {kind.replace('-', ' ')}", "marker"))
    out.append((Style(None, 1.0, "#555555", 0.9, 1.2, (8.0, 5.0)), "sector boundary", "line"))
    return out


def _legend_swatch(kind: str, text: str) -> tuple[Style | str, str, str]:
    if kind in SIDE_COLOURS:
        return (Style(SIDE_COLOURS[kind], 0.9, "#ffffff", 1.0, 1.5), text, "disc")
    if kind in ("counter", "downed"):
        return (kind, text, "marker")
    if kind in PATH_STYLES:
        colour, width, dash = PATH_STYLES[kind]
        return (Style(None, 1.0, colour, 1.0, width, dash), text, "line")
    if kind in ("objective", "command_node", "marker"):
        return (kind, text, "marker")
    for trait, _, style in TERRAIN_STYLES:
        if trait == kind:
            return (style, text, "box")
    return (Style("#cccccc", 1.0, "#888888", 1.0, 1.0), text, "box")


def _ring(scene: Scene, coords: Iterable[Sequence[float]]) -> tuple[Point2, ...]:
    return tuple(scene.px(float(x), float(y)) for x, y, *_ in coords)


def _outline(scene: Scene, poly: Polygon) -> tuple[Point2, ...]:
    return _ring(scene, list(poly.exterior.coords)[:-1])


def _marker_shapes(kind: str, cx: float, cy: float, r: float, label: str | None,
                   css: str) -> list[Shape]:
    """A symbol centred on (cx, cy) pixels, ``r`` pixels in radius."""
    out: list[Shape] = []
    if kind == "objective" or kind == "command_node":
        colour = COMMAND_NODE_COLOUR if kind == "command_node" else OBJECTIVE_COLOUR
        out.append(Shape("circle", ((cx, cy),), Style(colour, 0.95, "#5a4a00", 1.0, 1.5),
                         radius=r, css=css))
        out.append(Shape("circle", ((cx, cy),), Style(None, 1.0, "#5a4a00", 1.0, 1.0),
                         radius=r * 0.45, css=css))
    elif kind == "counter":
        out.append(Shape("circle", ((cx, cy),), Style(COUNTER_COLOUR, 0.95, "#7a5200", 1.0, 1.5),
                         radius=r, css=css))
        out.append(Shape("text", ((cx, cy + r * 0.42),), Style("#3a2600"), text="?",
                         size=r * 1.3, anchor="middle", bold=True, css=css))
    elif kind == "downed":
        out.extend(_downed_shapes(cx, cy, r, SIDE_COLOURS["player"], css))
    else:  # a diamond
        pts = ((cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy))
        out.append(Shape("polygon", pts, Style(MARKER_COLOUR, 0.9, "#0b5345", 1.0, 1.2),
                         css=css))
    if label:
        out.append(Shape("text", ((cx + r + 2, cy - r * 0.2),), Style(TEXT), text=label,
                         size=10, css=css + "-label", halo=True))
    return out


def _arrow(a: Point2, b: Point2, style: Style, size: float) -> Shape:
    ang = math.atan2(b[1] - a[1], b[0] - a[0])
    left = (b[0] - size * math.cos(ang - 0.45), b[1] - size * math.sin(ang - 0.45))
    right = (b[0] - size * math.cos(ang + 0.45), b[1] - size * math.sin(ang + 0.45))
    return Shape("polygon", (b, left, right), Style(style.stroke, 1.0, style.stroke, 1.0, 1.0),
                 css="arrow")


def _shorten(points: list[Point2], by: float) -> list[Point2]:
    """The path with its last segment pulled back by up to ``by`` inches (at most 40% of it),
    so the arrow head stops at the edge of a base drawn at the end point."""
    (ax, ay), (bx, by_) = points[-2], points[-1]
    length = math.hypot(bx - ax, by_ - ay)
    if length <= 0:
        return points
    cut = min(by, 0.4 * length)
    t = (length - cut) / length
    return [*points[:-1], (ax + (bx - ax) * t, ay + (by_ - ay) * t)]


def _abbrev(kind: str) -> str:
    words = [w for w in kind.replace("_", "-").split("-") if w]
    return "".join(w[0] for w in words).upper()[:3] or "?"


def _frame(scene: Scene) -> tuple[Point2, ...]:
    """The board's rectangle in pixels (corners clockwise from the top left)."""
    bw, bh = scene.board_px
    x0, y0 = MARGIN_LEFT, MARGIN_TOP
    return ((x0, y0), (x0 + bw, y0), (x0 + bw, y0 + bh), (x0, y0 + bh))


def _floor_and_grid(scene: Scene) -> list[Shape]:
    """The floor, and a 1" grid over it, every 6" a little darker."""
    board = scene.board
    s = scene.scale
    bw, bh = scene.board_px
    x0, y0 = MARGIN_LEFT, MARGIN_TOP
    out = [Shape("polygon", _frame(scene), Style(FLOOR, 1.0, None), css="floor")]
    # 1" grid, every 6" a little darker
    for i in range(1, math.floor(board.width + 1e-9) + 1):
        if i >= board.width:
            break
        colour = GRID_MAJOR if i % 6 == 0 else GRID
        out.append(Shape("polyline", ((x0 + i * s, y0), (x0 + i * s, y0 + bh)),
                         Style(None, 1.0, colour, 1.0, 1.0), css="grid"))
    for j in range(1, math.floor(board.depth + 1e-9) + 1):
        if j >= board.depth:
            break
        colour = GRID_MAJOR if j % 6 == 0 else GRID
        py = y0 + bh - j * s
        out.append(Shape("polyline", ((x0, py), (x0 + bw, py)),
                         Style(None, 1.0, colour, 1.0, 1.0), css="grid"))
    return out


def _zone_shapes(scene: Scene) -> list[Shape]:
    """The drop zones, each outlined and labelled off the dashed sector line."""
    board = scene.board
    out: list[Shape] = []
    for name, poly in board.zones.items():
        colour = ZONE_COLOURS.get(name, "#888888")
        out.append(Shape("polygon", _outline(scene, poly),
                         Style(colour, 0.12, colour, 0.8, 1.5, (6.0, 4.0)), css="zone"))
        c = poly.centroid if poly.contains(poly.centroid) else poly.representative_point()
        ly = c.y
        if abs(ly - board.depth / 2.0) < 0.8:  # keep the label off the dashed sector line
            ly += 1.2 if poly.contains(Point(c.x, ly + 1.2)) else -1.2
        cx, cy = scene.px(c.x, ly)
        out.append(Shape("text", ((cx, cy + 4),), Style(colour, 0.55), text=f"{name} drop zone",
                         size=12, anchor="middle", bold=True, css="zone-label"))
    return out


def _firing_arc_shapes(scene: Scene) -> list[Shape]:
    """The firing points' arcs (drawn under the terrain)."""
    return [Shape("polygon", _outline(scene, fp.arc),
                  Style(FIRING_POINT_COLOUR, 0.10, FIRING_POINT_COLOUR, 0.7, 1.2, (4.0, 3.0)),
                  css="firing-arc")
            for fp in scene.board.firing_points]


# terrain areas are painted floor level first, then cover, then upper levels
_AREA_LAYERS = ("pitfall", "hazardous", "insignificant", "exposed", "obstructing", "accessible",
                "light", "blocking", "heavy", "vantage", "wall")


def _area_rank(f: Feature) -> int:
    """The painting layer of a terrain area: its highest trait in :data:`_AREA_LAYERS`."""
    return max((i for i, t in enumerate(_AREA_LAYERS) if t in f.traits), default=0)


def _terrain_area_shapes(scene: Scene, areas: list[Feature]) -> list[Shape]:
    """Terrain areas by layer, a heavy base outlined under a vantage top."""
    out: list[Shape] = []
    for f in sorted(areas, key=_area_rank):
        _, style = _terrain_style(f)
        area = cast(Polygon, f.shape)  # not a line: a polygon
        out.append(Shape("polygon", _outline(scene, area), style, css="terrain"))
        if "vantage" in f.traits and "heavy" in f.traits:  # heavy base under a vantage top
            out.append(Shape("polygon", _outline(scene, area),
                             Style(None, 1.0, "#4f5b66", 1.0, 3.0), css="terrain"))
    return out


def _terrain_line_shapes(scene: Scene, lines: list[Feature]) -> list[Shape]:
    """Walls and other line terrain, then doors and hatches (closed before open) on top."""
    s = scene.scale
    out: list[Shape] = []
    for f in sorted(lines, key=lambda f: (f.is_portal, f.open)):
        _, style = _terrain_style(f)
        assert isinstance(f.shape, LineString)
        pts = _ring(scene, f.shape.coords)
        if f.is_portal:
            out.append(Shape("polyline", pts, style, css="portal"))
        elif "wall" in f.traits:
            out.append(Shape("polyline", pts,
                             Style(None, 1.0, style.fill, 1.0, LINE_WIDTH_IN * s), css="wall"))
        else:
            out.append(Shape("polyline", pts, Style(None, 1.0, style.stroke, 1.0, 0.1 * s),
                             css="terrain"))
    return out


def _terrain_label_shapes(scene: Scene, areas: list[Feature],
                          lines: list[Feature]) -> list[Shape]:
    """The ids of the terrain a player may name, and of the doors and hatches."""
    out: list[Shape] = []
    for f in areas:  # terrain a player may name ("move kell behind crate-2"), walls aside
        if "wall" not in f.traits:
            c = f.shape.representative_point()
            cx, cy = scene.px(c.x, c.y)
            out.append(Shape("text", ((cx, cy + 3),), Style("#333333"), text=f.id, size=8,
                             anchor="middle", css="feature-label", halo=True))
    for f in lines:  # doors and hatches carry their ids, as the terminal names them
        if f.is_portal:
            mid = f.shape.interpolate(0.5, normalized=True)
            cx, cy = scene.px(mid.x, mid.y)
            out.append(Shape("text", ((cx + 4, cy - 4),), Style(TEXT), text=f.id, size=9,
                             css="portal-label", halo=True))
    return out


def _terrain_shapes(scene: Scene) -> list[Shape]:
    """Terrain: areas first (floor level, then cover, then upper levels), lines on top, then
    the labels."""
    board = scene.board
    areas = [f for f in board.features if not f.is_line]
    lines = [f for f in board.features if f.is_line]
    return (_terrain_area_shapes(scene, areas) + _terrain_line_shapes(scene, lines)
            + _terrain_label_shapes(scene, areas, lines))


def _firing_point_shapes(scene: Scene) -> list[Shape]:
    """The firing points' floor squares (above the terrain), marked "FP"."""
    out: list[Shape] = []
    for fp in scene.board.firing_points:
        out.append(Shape("polygon", _outline(scene, fp.area),
                         Style(FIRING_POINT_COLOUR, 0.35, FIRING_POINT_COLOUR, 1.0, 1.5),
                         css="firing-point"))
        c = fp.area.centroid
        cx, cy = scene.px(c.x, c.y)
        out.append(Shape("text", ((cx, cy + 4),), Style("#ffffff"), text="FP", size=10,
                         anchor="middle", bold=True, css="firing-point-label"))
    return out


def _sector_shapes(scene: Scene) -> list[Shape]:
    """The six sectors: dashed boundaries and numbered badges."""
    board = scene.board
    bw, bh = scene.board_px
    x0, y0 = MARGIN_LEFT, MARGIN_TOP
    out: list[Shape] = []
    dash = Style(None, 1.0, "#555555", 0.9, 1.2, (8.0, 5.0))
    for k in (1, 2):
        px = x0 + bw * k / 3.0
        out.append(Shape("polyline", ((px, y0), (px, y0 + bh)), dash, css="sector"))
    out.append(Shape("polyline", ((x0, y0 + bh / 2.0), (x0 + bw, y0 + bh / 2.0)), dash,
                     css="sector"))
    for sector in range(1, 7):
        box = board.sector_box(sector)
        minx, miny, _maxx, maxy = box.bounds
        near_edge = maxy if sector > 3 else miny
        ly = near_edge - 0.55 if sector > 3 else near_edge + 0.55
        cx, cy = scene.px(minx + 0.55, ly)
        out.append(Shape("circle", ((cx, cy),), Style("#ffffff", 0.85, "#555555", 0.9, 1.2),
                         radius=9.0, css="sector-badge"))
        out.append(Shape("text", ((cx, cy + 4.2),), Style("#333333"), text=str(sector),
                         size=12, anchor="middle", bold=True, css="sector-label"))
    return out


def _objective_and_marker_shapes(scene: Scene) -> list[Shape]:
    """Objective markers (command nodes, portable ones) and the board's other markers."""
    board = scene.board
    s = scene.scale
    out: list[Shape] = []
    for o in board.objectives:
        cx, cy = scene.px(*o.at)
        kind = "command_node" if o.command_node else "objective"
        label = f"{o.id} (portable)" if o.portable else o.id  # Pick Up / Place Down
        out.extend(_marker_shapes(kind, cx, cy, OBJECTIVE_RADIUS * s, label, "objective"))
    for m in board.markers:
        cx, cy = scene.px(*m.at)
        out.extend(_marker_shapes("marker", cx, cy, 0.3 * s, None, "marker"))
        out.append(Shape("text", ((cx, cy + 0.3 * s + 10),), Style("#0b5345"),
                         text=_abbrev(m.kind), size=8, anchor="middle", bold=True,
                         css="marker-label"))
    return out


def _path_shapes(scene: Scene, pts: list[Point2], pkind: str) -> list[Shape]:
    """A caller's path: the line, stopped short of the base at its end, and its arrow head."""
    colour, width, pdash = PATH_STYLES[pkind]
    style = Style(None, 1.0, colour, 0.95, width, pdash)
    ppx = tuple(scene.px(*p) for p in _shorten(pts, 0.65))
    return [Shape("polyline", ppx, style, css=f"path-{pkind}"),
            _arrow(ppx[-2], ppx[-1], style, 9.0 + width)]


def _downed_shapes(cx: float, cy: float, r: float, colour: str, css: str) -> list[Shape]:
    """A downed operative's base: pale, a dashed dark rim and a cross over it."""
    k = r * 0.6
    cross = Style(None, 1.0, "#222222", 1.0, 2.0)
    return [Shape("circle", ((cx, cy),), Style(colour, 0.3, "#222222", 1.0, 1.5, (3.0, 2.0)),
                  radius=r, css=css),
            Shape("polyline", ((cx - k, cy - k), (cx + k, cy + k)), cross, css=css),
            Shape("polyline", ((cx - k, cy + k), (cx + k, cy - k)), cross, css=css)]


def _disc_shapes(scene: Scene, at: Point2, radius: float, side: str,
                 label: str | None, downed: bool = False) -> list[Shape]:
    """A caller's model base: a disc in its side's colour (a downed one crossed), with its
    label beside it."""
    s = scene.scale
    cx, cy = scene.px(*at)
    out = (_downed_shapes(cx, cy, radius * s, SIDE_COLOURS[side], f"base downed {side}")
           if downed else
           [Shape("circle", ((cx, cy),), Style(SIDE_COLOURS[side], 0.9, "#ffffff", 1.0, 1.5),
                  radius=radius * s, css=f"base {side}")])
    if label:
        out.append(Shape("text", ((cx + radius * s + 2, cy - radius * s * 0.3),),
                         Style(SIDE_COLOURS[side]), text=label, size=10, bold=True,
                         css="base-label", halo=True))
    return out


def _overlay_shapes(scene: Scene) -> list[Shape]:
    """The caller's overlay: paths under bases, counters and bases on top."""
    s = scene.scale
    out: list[Shape] = []
    for kind, payload in sorted(scene.overlay, key=lambda e: e[0] != "path"):
        if kind == "path":
            pts, pkind = payload
            out.extend(_path_shapes(scene, pts, pkind))
        elif kind == "counter":
            at, label = payload
            cx, cy = scene.px(*at)
            out.extend(_marker_shapes("counter", cx, cy, 0.5 * s, label, "counter"))
        elif kind == "disc":
            at, radius, side, label, downed = payload
            out.extend(_disc_shapes(scene, at, radius, side, label, downed))
    return out


def _ruler_shapes(scene: Scene) -> list[Shape]:
    """The inch ruler along the bottom and left edges, every other inch numbered."""
    board = scene.board
    s = scene.scale
    _bw, bh = scene.board_px
    x0, y0 = MARGIN_LEFT, MARGIN_TOP
    out: list[Shape] = []
    for i in range(0, math.floor(board.width + 1e-9) + 1):
        px = x0 + i * s
        tick = 7.0 if i % 2 == 0 else 4.0
        out.append(Shape("polyline", ((px, y0 + bh), (px, y0 + bh + tick)),
                         Style(None, 1.0, "#333333", 1.0, 1.0), css="ruler"))
        if i % 2 == 0:
            out.append(Shape("text", ((px, y0 + bh + 19),), Style(TEXT), text=f'{i}"',
                             size=10, anchor="middle", css="ruler-label"))
    for j in range(0, math.floor(board.depth + 1e-9) + 1):
        py = y0 + bh - j * s
        tick = 7.0 if j % 2 == 0 else 4.0
        out.append(Shape("polyline", ((x0 - tick, py), (x0, py)),
                         Style(None, 1.0, "#333333", 1.0, 1.0), css="ruler"))
        if j % 2 == 0:
            out.append(Shape("text", ((x0 - 9, py + 3.5),), Style(TEXT), text=f'{j}"',
                             size=10, anchor="end", css="ruler-label"))
    return out


def _title_shapes(scene: Scene) -> list[Shape]:
    """The title over the board's left corner, its size and killzone over the right."""
    board = scene.board
    bw, _bh = scene.board_px
    x0 = MARGIN_LEFT
    subtitle = f'{board.width:g}" x {board.depth:g}"'
    if board.killzone:
        subtitle += f" · {board.killzone}"
    return [Shape("text", ((x0, 24.0),), Style(TEXT), text=scene.title, size=17, bold=True,
                  css="title"),
            Shape("text", ((x0 + bw, 24.0),), Style("#666666"), text=subtitle, size=11,
                  anchor="end", css="subtitle")]


def primitives(scene: Scene) -> list[Shape]:
    """Everything the picture shows, in painting order, in pixels."""
    bw, _bh = scene.board_px
    out = _floor_and_grid(scene)
    out += _zone_shapes(scene)
    # firing arcs under the terrain, their floor squares above it
    out += _firing_arc_shapes(scene)
    out += _terrain_shapes(scene)
    out += _firing_point_shapes(scene)
    out += _sector_shapes(scene)
    out += _objective_and_marker_shapes(scene)
    out += _overlay_shapes(scene)
    # frame, ruler and title
    out.append(Shape("polygon", _frame(scene), Style(None, 1.0, "#333333", 1.0, 2.0),
                     css="frame"))
    out += _ruler_shapes(scene)
    out += _title_shapes(scene)
    out += _legend_shapes(scene, MARGIN_LEFT + bw + GAP, MARGIN_TOP)
    return out


def _legend_shapes(scene: Scene, lx: float, ly: float) -> list[Shape]:
    out: list[Shape] = [Shape("text", ((lx, ly + 12),), Style(TEXT), text="Legend", size=13,
                              bold=True, css="legend-title")]
    y = ly + 34.0
    for swatch, text, shape in scene.legend_entries():
        cx, cy = lx + 12.0, y - 4.0
        if isinstance(swatch, str):
            out.extend(_marker_shapes(swatch, cx, cy, 7.0, None, "legend"))
        elif shape == "line":
            w = min(swatch.width, 6.0)
            st = Style(None, 1.0, swatch.stroke, swatch.stroke_opacity, w, swatch.dash)
            out.append(Shape("polyline", ((lx, cy), (lx + 24.0, cy)), st, css="legend"))
        elif shape == "disc":
            out.append(Shape("circle", ((cx, cy),), swatch, radius=7.0, css="legend"))
        else:
            pts = ((lx, cy - 7.0), (lx + 24.0, cy - 7.0), (lx + 24.0, cy + 7.0), (lx, cy + 7.0))
            out.append(Shape("polygon", pts, swatch, css="legend"))
        out.append(Shape("text", ((lx + 32.0, y),), Style(TEXT), text=_fit(text, 30), size=11,
                         css="legend-text"))
        y += 20.0
    return out


def _fit(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# -- SVG ---------------------------------------------------------------------------------------
def _num(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


def _svg_style(style: Style, *, line: bool = False) -> str:
    parts = []
    if style.fill and not line:
        parts.append(f'fill="{style.fill}"')
        if style.fill_opacity < 1:
            parts.append(f'fill-opacity="{_num(style.fill_opacity)}"')
    else:
        parts.append('fill="none"')
    if style.stroke:
        parts.append(f'stroke="{style.stroke}" stroke-width="{_num(style.width)}"')
        if style.stroke_opacity < 1:
            parts.append(f'stroke-opacity="{_num(style.stroke_opacity)}"')
        if style.dash:
            parts.append(f'stroke-dasharray="{_num(style.dash[0])} {_num(style.dash[1])}"')
        if line:
            parts.append('stroke-linecap="butt" stroke-linejoin="miter"')
    return " ".join(parts)


def svg_text(scene: Scene) -> str:
    """The scene as a standalone SVG document (text)."""
    width, height = scene.size
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="{FONT}">',
        f"<title>{escape(scene.title)}</title>",
        f'<rect width="{width}" height="{height}" fill="{BACKGROUND}"/>',
    ]
    for shp in primitives(scene):
        cls = f' class="{escape(shp.css)}"' if shp.css else ""
        if shp.kind == "polygon":
            pts = " ".join(f"{_num(x)},{_num(y)}" for x, y in shp.points)
            lines.append(f'<polygon{cls} points="{pts}" {_svg_style(shp.style)}/>')
        elif shp.kind == "polyline":
            pts = " ".join(f"{_num(x)},{_num(y)}" for x, y in shp.points)
            lines.append(f'<polyline{cls} points="{pts}" {_svg_style(shp.style, line=True)}/>')
        elif shp.kind == "circle":
            (cx, cy), = shp.points
            lines.append(f'<circle{cls} cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(shp.radius)}" '
                         f'{_svg_style(shp.style)}/>')
        elif shp.kind == "text":
            (tx, ty), = shp.points
            weight = ' font-weight="bold"' if shp.bold else ""
            opacity = (f' fill-opacity="{_num(shp.style.fill_opacity)}"'
                       if shp.style.fill_opacity < 1 else "")
            if shp.halo:
                opacity += (' stroke="#ffffff" stroke-width="3" stroke-opacity="0.85"'
                            ' paint-order="stroke" stroke-linejoin="round"')
            lines.append(f'<text{cls} x="{_num(tx)}" y="{_num(ty)}" font-size="{_num(shp.size)}" '
                         f'text-anchor="{shp.anchor}" fill="{shp.style.fill or TEXT}"'
                         f'{opacity}{weight}>{escape(shp.text)}</text>')
    lines.append("</svg>")
    return "\n".join(lines) + "\n"


# -- PNG ---------------------------------------------------------------------------------------
def _rgba(colour: str | None, opacity: float) -> tuple[int, int, int, int] | None:
    if colour is None:
        return None
    c = colour.lstrip("#")
    return (int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16), round(255 * opacity))


_FONT_CACHE: dict[tuple[int, bool], Any] = {}


def _font(size: float, bold: bool) -> Any:
    from PIL import ImageFont

    key = (max(1, round(size)), bold)
    if key not in _FONT_CACHE:
        names = (["DejaVuSans-Bold.ttf", "Arial Bold.ttf", "arialbd.ttf"] if bold
                 else ["DejaVuSans.ttf", "Arial.ttf", "arial.ttf"])
        font = None
        for name in names:
            try:
                font = ImageFont.truetype(name, key[0])
                break
            except OSError:
                continue
        _FONT_CACHE[key] = font or ImageFont.load_default(size=key[0])
    return _FONT_CACHE[key]


def _dashes(points: Sequence[Point2], on: float, off: float) -> list[tuple[Point2, Point2]]:
    """Split a polyline into the visible pieces of a dash pattern."""
    pieces: list[tuple[Point2, Point2]] = []
    phase, drawing = 0.0, True
    for (ax, ay), (bx, by) in itertools.pairwise(points):
        length = math.hypot(bx - ax, by - ay)
        pos = 0.0
        while pos < length - 1e-9:
            span = (on if drawing else off) - phase
            step = min(span, length - pos)
            if drawing:
                t0, t1 = pos / length, (pos + step) / length
                pieces.append(((ax + (bx - ax) * t0, ay + (by - ay) * t0),
                               (ax + (bx - ax) * t1, ay + (by - ay) * t1)))
            pos += step
            phase += step
            if phase >= (on if drawing else off) - 1e-9:
                phase, drawing = 0.0, not drawing
    return pieces


def png_bytes(scene: Scene) -> bytes:
    """The scene as PNG data (drawn at :data:`PNG_SUPERSAMPLE` times, then smoothed down)."""
    from PIL import Image, ImageDraw

    width, height = scene.size
    k = PNG_SUPERSAMPLE
    image = Image.new("RGB", (width * k, height * k), BACKGROUND)
    draw = ImageDraw.Draw(image, "RGBA")

    def scaled(points: Iterable[Point2]) -> list[Point2]:
        return [(x * k, y * k) for x, y in points]

    def stroke(points: list[Point2], style: Style, closed: bool) -> None:
        colour = _rgba(style.stroke, style.stroke_opacity)
        if colour is None or len(points) < 2:
            return
        w = max(1, round(style.width * k))
        pts = [*points, points[0]] if closed else points
        if style.dash:
            for a, b in _dashes(pts, style.dash[0] * k, style.dash[1] * k):
                draw.line([a, b], fill=colour, width=w)
        else:
            draw.line(pts, fill=colour, width=w, joint="curve" if closed else None)

    for shp in primitives(scene):
        st = shp.style
        if shp.kind == "polygon":
            pts = scaled(shp.points)
            fill = _rgba(st.fill, st.fill_opacity)
            if fill is not None:
                draw.polygon(pts, fill=fill)
            stroke(pts, st, closed=True)
        elif shp.kind == "polyline":
            stroke(scaled(shp.points), st, closed=False)
        elif shp.kind == "circle":
            (cx, cy), = scaled(shp.points)
            r = shp.radius * k
            fill = _rgba(st.fill, st.fill_opacity)
            outline = _rgba(st.stroke, st.stroke_opacity)
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=outline,
                         width=max(1, round(st.width * k)) if outline else 0)
        elif shp.kind == "text":
            (tx, ty), = scaled(shp.points)
            anchor = {"start": "ls", "middle": "ms", "end": "rs"}[shp.anchor]
            draw.text((tx, ty), shp.text, font=_font(shp.size * k, shp.bold),
                      fill=_rgba(st.fill or TEXT, st.fill_opacity), anchor=anchor,
                      stroke_width=int(1.5 * k) if shp.halo else 0,
                      stroke_fill=(255, 255, 255, 220) if shp.halo else None)
    image = image.resize((width, height), Image.Resampling.LANCZOS)
    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


# -- saving ------------------------------------------------------------------------------------
def render_bytes(scene: Scene, suffix: str) -> bytes:
    """The picture's bytes for a file suffix (``.svg`` or ``.png``)."""
    suffix = suffix.lower()
    if suffix == ".svg":
        return svg_text(scene).encode("utf-8")
    if suffix == ".png":
        return png_bytes(scene)
    raise ValueError(suffix)
