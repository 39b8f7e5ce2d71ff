"""Pictures of boards and of the player's view: pure drawing, no decisions.

A :class:`Scene` is built from a :class:`~solo_ops.geometry.board.Board` by
:func:`board_scene` and then decorated by the caller with model bases (:func:`add_disc`),
planned moves, shots and charges (:func:`add_path`), hidden counters (:func:`add_counter`) and
legend lines (:func:`add_legend`). :func:`solo_ops.view.drawing.render_bytes` turns it into
SVG (text, written directly) or PNG (Pillow, no system graphics library), by the file's suffix.

Both outputs come from one list of drawing primitives in pixel coordinates (:func:`primitives`;
the primitive and the symbols several layers share are :mod:`solo_ops.view.shapes`'), so the
SVG and the PNG always show the same thing; every label in it (model ids, counters,
objectives, doors, terrain, sectors, drop zones, the numbered steps) is placed by
:func:`solo_ops.view.labels.place` clear of every other label, base and mark, with a leader line
when it has to sit further out. The board is drawn with ``y = 0`` at the
bottom (sectors 1-3 along the bottom half), :data:`SCALE` pixels per inch, with a 1" grid,
an inch ruler on two edges, the six fog-of-war sectors (dashed, numbered), the drop zones,
terrain coloured by trait, objectives, firing points with their arcs, markers and a legend
(:mod:`solo_ops.view.legend`).
The look (scale, margins, font, colours, line styles) is :mod:`solo_ops.view.picture_style`'s,
re-exported here.

No file is touched here: :func:`solo_ops.io.pictures.save_picture` writes the bytes atomically.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from shapely.geometry import LineString, Point, Polygon

from solo_ops.geometry.board import Board, Feature
from solo_ops.view.labels import Label, Placed, fit_to_width, place, text_width
from solo_ops.view.legend import Entry, board_legend, legend_shapes, legend_swatch
from solo_ops.view.picture_style import (  # the look, re-exported: render.SCALE etc.
    FIRING_POINT_COLOUR,
    FLOOR,
    FULL,
    GAP,
    GRID,
    GRID_MAJOR,
    LEGEND_WIDTH,
    LINE_WIDTH_IN,
    MARGIN_BOTTOM,
    MARGIN_LEFT,
    MARGIN_RIGHT,
    MARGIN_TOP,
    OBJECTIVE_COLOUR,
    OBJECTIVE_RADIUS,
    PATH_STYLES,
    SCALE,
    SIDE_COLOURS,
    STEP_COLOUR,
    TEXT,
    TITLE_SIZE,
    TITLE_SMALLEST,
    ZONE_COLOURS,
    Lettering,
    Style,
)
from solo_ops.view.shapes import (
    DOWN_COLOUR,
    Point2,
    Shape,
    abbrev,
    arrow,
    down_shapes,
    marker_shapes,
    terrain_style,
)


# -- the scene -------------------------------------------------------------------------------
@dataclass
class Scene:
    """A board picture being built: the board, a title, what the caller added on top and the
    legend lines. Build it with :func:`board_scene`; add to it with the ``add_*`` functions."""

    board: Board
    title: str
    overlay: list[tuple[str, Any]] = field(default_factory=list)
    title_tail: str = ""
    """Drawn after the title and never cut where a long title must be (a game's turn, VP and
    CP after the scenario's name)."""
    legend: list[tuple[str, str]] = field(default_factory=list)
    scale: float = SCALE
    portal_states: bool = False
    """Whether door and hatch labels say ``(open)`` or ``(closed)`` (the table view's)."""
    lettering: Lettering = FULL
    """The label set: each kind's size, or left out (:data:`~.picture_style.PHONE`)."""
    named: frozenset[str] | None = None
    """When given, only these doors, hatches and terrain areas are labelled (the phone's:
    what the active operative can reach); the rest are drawn unlabelled."""

    # -- geometry of the picture -----------------------------------------------------------
    @property
    def board_px(self) -> tuple[float, float]:
        return self.board.width * self.scale, self.board.depth * self.scale

    def px(self, x: float, y: float) -> Point2:
        """Board inches to picture pixels (``y = 0`` at the bottom of the board)."""
        return (MARGIN_LEFT + x * self.scale,
                MARGIN_TOP + (self.board.depth - y) * self.scale)

    def legend_entries(self) -> list[Entry]:
        """Legend lines: (swatch style or marker kind, text, swatch shape)."""
        return board_legend(self.board) + [legend_swatch(k, t) for k, t in self.legend]

    @property
    def size(self) -> tuple[int, int]:
        """The picture's size in pixels (width, height)."""
        bw, bh = self.board_px
        if not self.lettering.legend:
            return math.ceil(MARGIN_LEFT + bw + MARGIN_RIGHT), math.ceil(MARGIN_TOP + bh
                                                                         + MARGIN_BOTTOM)
        legend_h = 30.0 + 20.0 * len(self.legend_entries())
        width = MARGIN_LEFT + bw + GAP + LEGEND_WIDTH + MARGIN_RIGHT
        height = MARGIN_TOP + max(bh, legend_h) + MARGIN_BOTTOM
        return math.ceil(width), math.ceil(height)


@dataclass
class _Marks:
    """What the label placer works with while a picture is built: the labels to place, the
    marks no label may cover (``(cx, cy, r)`` pixels) and the lines labels should not cross."""

    labels: list[Label] = field(default_factory=list)
    discs: list[tuple[float, float, float]] = field(default_factory=list)
    lines: list[tuple[Point2, ...]] = field(default_factory=list)


# the order labels are placed in (lower first: nearer their marks)
P_STEP, P_BASE, P_COUNTER, P_OBJECTIVE, P_MARKER, P_PORTAL, P_FEATURE, P_SECTOR, P_ZONE = (
    10, 20, 25, 30, 35, 40, 60, 70, 80)


def board_scene(board: Board, title: str | None = None, title_tail: str = "") -> Scene:
    """A scene showing ``board`` (terrain, sectors, zones, objectives, firing points, markers,
    grid and legend), titled ``title`` (the board's name by default)."""
    return Scene(board=board, title=title or board.name, title_tail=title_tail)


def add_disc(scene: Scene, at: Sequence[float], radius: float, side: str = "player",
             label: str | None = None, *, down: bool = False, token: str | None = None,
             spent: bool = False) -> None:
    """Add a model's base: a disc of ``radius`` inches at ``at``, coloured by ``side``
    (``player``, ``player2``, ``player3`` or ``enemy``), with an optional label; ``down``
    draws it greyed out and crossed; ``token`` is its order token's letter (``E`` engage,
    ``C`` conceal), ``spent`` once it has activated (the token turned over)."""
    if side not in SIDE_COLOURS:
        raise ValueError(f"unknown side {side!r} (known: {', '.join(SIDE_COLOURS)})")
    scene.overlay.append(("disc", ((float(at[0]), float(at[1])), float(radius), side, label,
                                   down, token, spent)))


def add_step(scene: Scene, at: Sequence[float], number: int, text: str) -> None:
    """Add a numbered badge near ``at`` (where an action of the activation shown happened),
    with ``text`` (whose action it was) beside it."""
    scene.overlay.append(("step", ((float(at[0]), float(at[1])), int(number), str(text))))


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


def _ring(scene: Scene, coords: Iterable[Sequence[float]]) -> tuple[Point2, ...]:
    return tuple(scene.px(float(x), float(y)) for x, y, *_ in coords)


def _outline(scene: Scene, poly: Polygon) -> tuple[Point2, ...]:
    return _ring(scene, list(poly.exterior.coords)[:-1])


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


def _zone_shapes(scene: Scene, marks: _Marks) -> list[Shape]:
    """The drop zones, each outlined, its label placed inside it (off the models)."""
    board = scene.board
    out: list[Shape] = []
    for name, poly in board.zones.items():
        colour = ZONE_COLOURS.get(name, "#888888")
        out.append(Shape("polygon", _outline(scene, poly),
                         Style(colour, 0.12, colour, 0.8, 1.5, (6.0, 4.0)), css="zone"))
        c = poly.centroid if poly.contains(poly.centroid) else poly.representative_point()
        minx, miny, maxx, maxy = poly.bounds
        spots = [(x, y) for x in _steps(minx + 1.0, maxx - 1.0, 1.0)
                 for y in _steps(miny + 0.6, maxy - 0.6, 0.6) if poly.contains(Point(x, y))]
        spots.sort(key=lambda p: (round(math.hypot(p[0] - c.x, p[1] - c.y), 6), p))
        cx, cy = scene.px(c.x, c.y)
        marks.labels.append(Label(f"{name} drop zone", (cx, cy, 0.0),
                                  size=scene.lettering.zone, bold=True,
                                  priority=P_ZONE, css="zone-label", colour=colour,
                                  halo=False, places=[scene.px(*p) for p in spots[:200]]))
    return out


def _steps(start: float, stop: float, step: float) -> list[float]:
    """``start``, ``start + step``, ... up to ``stop`` (one value when ``stop < start``)."""
    n = max(0, math.floor((stop - start) / step + 1e-9))
    return [start + i * step for i in range(n + 1)]


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
        _, style = terrain_style(f)
        area = cast(Polygon, f.shape)  # not a line: a polygon
        out.append(Shape("polygon", _outline(scene, area), style, css="terrain"))
        if "vantage" in f.traits and "heavy" in f.traits:  # heavy base under a vantage top
            out.append(Shape("polygon", _outline(scene, area),
                             Style(None, 1.0, "#4f5b66", 1.0, 3.0), css="terrain"))
    return out


def _terrain_line_shapes(scene: Scene, lines: list[Feature], marks: _Marks) -> list[Shape]:
    """Walls and other line terrain, then doors and hatches (closed before open) on top."""
    s = scene.scale
    out: list[Shape] = []
    for f in sorted(lines, key=lambda f: (f.is_portal, f.open)):
        _, style = terrain_style(f)
        assert isinstance(f.shape, LineString)
        pts = _ring(scene, f.shape.coords)
        marks.lines.append(pts)
        if f.is_portal:
            out.append(Shape("polyline", pts, style, css="portal"))
        elif "wall" in f.traits:
            out.append(Shape("polyline", pts,
                             Style(None, 1.0, style.fill, 1.0, LINE_WIDTH_IN * s), css="wall"))
        else:
            out.append(Shape("polyline", pts, Style(None, 1.0, style.stroke, 1.0, 0.1 * s),
                             css="terrain"))
    return out


def _terrain_labels(scene: Scene, areas: list[Feature], lines: list[Feature],
                    marks: _Marks) -> None:
    """The ids of the terrain a player may name, and of the doors and hatches (with whether
    they are open, when the scene says so): one label each, placed — of those the scene
    names, when it names some (:attr:`Scene.named`), at the lettering's sizes."""
    ink = scene.lettering
    for f in areas:  # terrain a player may name ("move kell behind crate-2"), walls aside
        if "wall" not in f.traits and ink.feature and (scene.named is None
                                                       or f.id in scene.named):
            c = f.shape.representative_point()
            cx, cy = scene.px(c.x, c.y)
            marks.labels.append(Label(f.id, (cx, cy, 0.0), size=ink.feature, priority=P_FEATURE,
                                      css="feature-label", colour="#333333"))
    for f in lines:  # doors and hatches carry their ids, as the terminal names them
        if f.is_portal and ink.portal and (scene.named is None or f.id in scene.named):
            mid = f.shape.interpolate(0.5, normalized=True)
            cx, cy = scene.px(mid.x, mid.y)
            text = f.id + ((" (open)" if f.open else " (closed)")
                           if scene.portal_states and ink.portal_words else "")
            marks.labels.append(Label(text, (cx, cy, 3.0), size=ink.portal,
                                      bold=scene.portal_states,
                                      priority=P_PORTAL, css="portal-label",
                                      colour="#5a3000" if scene.portal_states else TEXT))


def _terrain_shapes(scene: Scene, marks: _Marks) -> list[Shape]:
    """Terrain: areas first (floor level, then cover, then upper levels), lines on top; their
    labels go to the placer."""
    board = scene.board
    areas = [f for f in board.features if not f.is_line]
    lines = [f for f in board.features if f.is_line]
    _terrain_labels(scene, areas, lines, marks)
    return _terrain_area_shapes(scene, areas) + _terrain_line_shapes(scene, lines, marks)


def _firing_point_shapes(scene: Scene, marks: _Marks) -> list[Shape]:
    """The firing points' floor squares (above the terrain), marked "FP"."""
    out: list[Shape] = []
    for fp in scene.board.firing_points:
        out.append(Shape("polygon", _outline(scene, fp.area),
                         Style(FIRING_POINT_COLOUR, 0.35, FIRING_POINT_COLOUR, 1.0, 1.5),
                         css="firing-point"))
        c = fp.area.centroid
        cx, cy = scene.px(c.x, c.y)
        marks.labels.append(Label("FP", (cx, cy, 0.0), size=10, bold=True, priority=0,
                                  css="firing-point-label", colour="#ffffff", halo=False,
                                  places=[(cx, cy)]))
    return out


def _sector_shapes(scene: Scene, marks: _Marks) -> list[Shape]:
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
        minx, miny, maxx, maxy = box.bounds
        near_edge = maxy if sector > 3 else miny
        inward = -1.0 if sector > 3 else 1.0
        spots = [(x, near_edge + inward * d) for d in (0.55, 1.3, 2.1)
                 for x in _steps(minx + 0.55, maxx - 0.55, 0.5)]
        cx, cy = scene.px(minx + 0.55, near_edge + inward * 0.55)
        size = scene.lettering.sector
        marks.labels.append(Label(str(sector), (cx, cy, 0.0), size=size, bold=True,
                                  priority=P_SECTOR, css="sector-label", colour="#333333",
                                  halo=False, badge=size * 0.75, badge_fill="#ffffff",
                                  places=[scene.px(*p) for p in spots]))
    return out


def _objective_and_marker_shapes(scene: Scene, marks: _Marks) -> list[Shape]:
    """Objective markers (command nodes, portable ones) and the board's other markers."""
    board = scene.board
    s = scene.scale
    out: list[Shape] = []
    for o in board.objectives:
        cx, cy = scene.px(*o.at)
        kind = "command_node" if o.command_node else "objective"
        label = f"{o.id} (portable)" if o.portable else o.id  # Pick Up / Place Down
        r = OBJECTIVE_RADIUS * s
        out.extend(marker_shapes(kind, cx, cy, r, "objective"))
        marks.discs.append((cx, cy, r))
        marks.labels.append(Label(label, (cx, cy, r), size=scene.lettering.objective,
                                  priority=P_OBJECTIVE, css="objective-label"))
    for m in board.markers:
        cx, cy = scene.px(*m.at)
        out.extend(marker_shapes("marker", cx, cy, 0.3 * s, "marker"))
        marks.discs.append((cx, cy, 0.3 * s))
        marks.labels.append(Label(abbrev(m.kind), (cx, cy, 0.3 * s),
                                  size=scene.lettering.marker, bold=True,
                                  priority=P_MARKER, css="marker-label", colour="#0b5345"))
    return out


def _path_shapes(scene: Scene, pts: list[Point2], pkind: str) -> list[Shape]:
    """A caller's path: the line, stopped short of the base at its end, and its arrow head."""
    colour, width, pdash = PATH_STYLES[pkind]
    style = Style(None, 1.0, colour, 0.95, width, pdash)
    ppx = tuple(scene.px(*p) for p in _shorten(pts, 0.65))
    return [Shape("polyline", ppx, style, css=f"path-{pkind}"),
            arrow(ppx[-2], ppx[-1], style, 9.0 + width)]


TOKEN_COLOURS = {"E": "#e67e22", "C": "#34495e"}  # engage, conceal


def _disc_shapes(scene: Scene, payload: tuple[Any, ...], marks: _Marks) -> list[Shape]:
    """A caller's model base: a disc in its side's colour (grey and crossed when down), its
    order token on its lower left (faded once it has activated), its label to the placer."""
    at, radius, side, label, down, token, spent = payload
    s = scene.scale
    cx, cy = scene.px(*at)
    r = radius * s
    out = (down_shapes(cx, cy, r, side, f"base {side} down") if down else
           [Shape("circle", ((cx, cy),), Style(SIDE_COLOURS[side], 0.9, "#ffffff", 1.0, 1.5),
                  radius=r, css=f"base {side}")])
    marks.discs.append((cx, cy, r))
    ink = scene.lettering
    if token and not down:
        tx, ty, half = cx - r * 0.72, cy + r * 0.72, ink.token_half
        fill = TOKEN_COLOURS.get(token, "#555555")
        out.append(Shape("polygon", ((tx - half, ty - half), (tx + half, ty - half),
                                     (tx + half, ty + half), (tx - half, ty + half)),
                         Style(fill, 0.45 if spent else 1.0, "#ffffff", 1.0, 1.0),
                         css="order-token" + (" spent" if spent else ""), pivot=(tx, ty)))
        out.append(Shape("text", ((tx, ty + ink.token * 0.375),), Style("#ffffff"), text=token,
                         size=ink.token, anchor="middle", bold=True, css="order-token",
                         pivot=(tx, ty)))
        marks.discs.append((tx, ty, half * 1.42))
    if label:
        marks.labels.append(Label(label, (cx, cy, r), size=ink.base, bold=True,
                                  priority=P_BASE,
                                  css="base-label", colour=DOWN_COLOUR if down
                                  else SIDE_COLOURS[side]))
    return out


def _overlay_shapes(scene: Scene, marks: _Marks) -> list[Shape]:
    """The caller's overlay: paths under bases, counters under bases, bases on top; their
    labels and the numbered steps to the placer."""
    s = scene.scale
    out: list[Shape] = []
    rank = {"path": 0, "counter": 1, "step": 2, "disc": 3}
    counters = [p[0] for k, p in scene.overlay if k == "counter"]
    rims = False
    for kind, payload in sorted(scene.overlay, key=lambda e: rank.get(e[0], 9)):
        if rank.get(kind, 9) > rank["counter"] and not rims:
            out += _objective_rims(scene, counters)
            rims = True
        if kind == "path":
            pts, pkind = payload
            shapes = _path_shapes(scene, pts, pkind)
            marks.lines.append(shapes[0].points)
            out.extend(shapes)
        elif kind == "counter":
            at, label = payload
            cx, cy = scene.px(*at)
            out.extend(marker_shapes("counter", cx, cy, 0.5 * s, "counter"))
            marks.discs.append((cx, cy, 0.5 * s))
            if label:
                marks.labels.append(Label(label, (cx, cy, 0.5 * s), priority=P_COUNTER,
                                          size=scene.lettering.counter, css="counter-label"))
        elif kind == "step":
            at, number, text = payload
            cx, cy = scene.px(*at)
            ink = scene.lettering
            marks.labels.append(Label(str(number), (cx, cy, 0.0), size=ink.step, bold=True,
                                      priority=P_STEP, css="step-label", colour="#ffffff",
                                      halo=False, badge=ink.badge, badge_fill=STEP_COLOUR))
            marks.labels.append(Label(text, (cx, cy, ink.badge + 3.0), size=ink.step,
                                      priority=P_STEP + 1,
                                      css="step-label", colour=STEP_COLOUR))
        elif kind == "disc":
            out.extend(_disc_shapes(scene, payload, marks))
    return out if rims else out + _objective_rims(scene, counters)


def _objective_rims(scene: Scene, counters: list[Point2]) -> list[Shape]:
    """The rim of each objective marker a hidden counter stands on, drawn again over the
    counter (and under the models), then the counter's "?" over the rim: both stay readable,
    the counter and where the objective is."""
    out: list[Shape] = []
    marks: list[Shape] = []
    reach = OBJECTIVE_RADIUS + 0.5  # an objective's radius and a counter's
    r = OBJECTIVE_RADIUS * scene.scale
    for o in scene.board.objectives:
        near = [c for c in counters if math.dist(o.at, c) < reach]
        if not near:
            continue
        cx, cy = scene.px(*o.at)
        out.append(Shape("circle", ((cx, cy),), Style(None, 1.0, "#5a4a00", 1.0, 3.5),
                         radius=r, css="objective-rim"))
        out.append(Shape("circle", ((cx, cy),), Style(None, 1.0, OBJECTIVE_COLOUR, 1.0, 1.5),
                         radius=r, css="objective-rim"))
        for c in near:
            marks += marker_shapes("counter", *scene.px(*c), 0.5 * scene.scale, "counter")[1:]
    return out + marks


def _label_shapes(placed: list[Placed]) -> list[Shape]:
    """The placed labels: leader lines, badges, then the texts (class ``label``)."""
    out: list[Shape] = []
    for p in placed:
        if p.leader is not None:
            out.append(Shape("polyline", p.leader, Style(None, 1.0, "#555555", 0.9, 0.8),
                             css="leader"))
    for p in placed:
        lab = p.label
        css = f"label {lab.css}"
        pivot = (lab.mark[0], lab.mark[1])
        if lab.badge:
            (cx, cy) = p.origin
            out.append(Shape("circle", ((cx, cy),), Style(lab.badge_fill, 0.9, "#555555", 0.9,
                                                          1.2), radius=lab.badge, css=css,
                             pivot=pivot))
            out.append(Shape("text", ((cx, cy + lab.size * 0.35),), Style(lab.colour),
                             text=lab.text, size=lab.size, anchor="middle", bold=lab.bold,
                             css=css, pivot=pivot))
        else:
            out.append(Shape("text", (p.origin,), Style(lab.colour), text=lab.text,
                             size=lab.size, bold=lab.bold, css=css, halo=lab.halo,
                             pivot=pivot))
    return out


def _ruler_shapes(scene: Scene) -> list[Shape]:
    """The inch ruler along the bottom and left edges, every other inch numbered."""
    board = scene.board
    s = scene.scale
    _bw, bh = scene.board_px
    x0, y0 = MARGIN_LEFT, MARGIN_TOP
    size = scene.lettering.ruler
    out: list[Shape] = []
    for i in range(0, math.floor(board.width + 1e-9) + 1):
        px = x0 + i * s
        tick = 7.0 if i % 2 == 0 else 4.0
        out.append(Shape("polyline", ((px, y0 + bh), (px, y0 + bh + tick)),
                         Style(None, 1.0, "#333333", 1.0, 1.0), css="ruler"))
        if i % 2 == 0:
            out.append(Shape("text", ((px, y0 + bh + 9 + size),), Style(TEXT), text=f'{i}"',
                             size=size, anchor="middle", css="ruler-label",
                             pivot=(px, y0 + bh)))
    for j in range(0, math.floor(board.depth + 1e-9) + 1):
        py = y0 + bh - j * s
        tick = 7.0 if j % 2 == 0 else 4.0
        out.append(Shape("polyline", ((x0 - tick, py), (x0, py)),
                         Style(None, 1.0, "#333333", 1.0, 1.0), css="ruler"))
        if j % 2 == 0:
            out.append(Shape("text", ((x0 - 9, py + size * 0.35),), Style(TEXT), text=f'{j}"',
                             size=size, anchor="end", css="ruler-label", pivot=(x0, py)))
    return out


def _title_shapes(scene: Scene) -> list[Shape]:
    """The title over the board's left corner, its size and killzone over the right (over
    the legend when a long title leaves no room)."""
    board = scene.board
    bw, _bh = scene.board_px
    x0 = MARGIN_LEFT
    subtitle = f'{board.width:g}" x {board.depth:g}"'
    if board.killzone:
        subtitle += f" · {board.killzone}"
    # within the picture: a long title is drawn smaller, then its name is cut (never its tail)
    title, size = fit_to_width(scene.title, TITLE_SIZE, True,
                               scene.size[0] - x0 - MARGIN_RIGHT, TITLE_SMALLEST,
                               tail=scene.title_tail)
    room = bw - text_width(title, size, True) - text_width(subtitle, 11, False) - 16
    sx, anchor = (x0 + bw, "end") if room > 0 else (x0 + bw + GAP, "start")
    return [Shape("text", ((x0, 24.0),), Style(TEXT), text=title, size=size, bold=True,
                  css="title"),
            Shape("text", ((sx, 24.0 if room > 0 else 40.0),), Style("#666666"),
                  text=subtitle, size=11, anchor=anchor, css="subtitle")]


def primitives(scene: Scene) -> list[Shape]:
    """Everything the picture shows, in painting order, in pixels; every label placed by
    :func:`solo_ops.view.labels.place` once everything it must keep clear of is known."""
    bw, bh = scene.board_px
    marks = _Marks()
    out = _floor_and_grid(scene)
    out += _zone_shapes(scene, marks)
    # firing arcs under the terrain, their floor squares above it
    out += _firing_arc_shapes(scene)
    out += _terrain_shapes(scene, marks)
    out += _firing_point_shapes(scene, marks)
    out += _sector_shapes(scene, marks)
    out += _objective_and_marker_shapes(scene, marks)
    out += _overlay_shapes(scene, marks)
    bounds = (MARGIN_LEFT, MARGIN_TOP, MARGIN_LEFT + bw, MARGIN_TOP + bh)
    out += _label_shapes(place(marks.labels, marks.discs, marks.lines, bounds))
    # frame, ruler and title
    out.append(Shape("polygon", _frame(scene), Style(None, 1.0, "#333333", 1.0, 2.0),
                     css="frame"))
    out += _ruler_shapes(scene)
    if scene.lettering.title:
        out += _title_shapes(scene)
    if scene.lettering.legend:
        out += legend_shapes(scene.legend_entries(), MARGIN_LEFT + bw + GAP, MARGIN_TOP)
    return out


