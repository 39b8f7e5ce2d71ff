"""The drawing primitive of every board picture and the symbols its layers share.

A :class:`Shape` is one polygon, polyline, circle or text in pixels, the unit
:mod:`solo_ops.view.render` builds a picture from and :mod:`solo_ops.view.drawing` writes as SVG
or PNG. The symbols here are drawn in more than one place (on the board, over a hidden counter,
in the legend): the objective, command-node, counter, marker and downed-model symbols
(:func:`marker_shapes`, :func:`down_shapes`), a path's arrow head (:func:`arrow`), a marker
kind's badge letters (:func:`abbrev`) and a terrain feature's legend name and style
(:func:`terrain_style`). The colours are :mod:`solo_ops.view.picture_style`'s.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from solo_ops.geometry.board import Feature
from solo_ops.view.picture_style import (
    COMMAND_NODE_COLOUR,
    COUNTER_COLOUR,
    MARKER_COLOUR,
    OBJECTIVE_COLOUR,
    PORTAL_STYLES,
    SIDE_COLOURS,
    TERRAIN_STYLES,
    Style,
)

Point2 = tuple[float, float]
"""A point in pixels (``x`` right, ``y`` down)."""
_PLAIN = Style()  # a shape's default style: no fill, no stroke


@dataclass(frozen=True)
class Shape:
    """One drawing primitive in pixels: ``kind`` is ``polygon``, ``polyline``, ``circle`` or
    ``text``; ``points`` its vertices (a circle: its centre); ``radius`` for circles; ``text``,
    ``size`` (pixels), ``anchor`` (start/middle/end) and ``bold`` for text; ``css`` a class name
    written into the SVG (tests and stylesheets can find things by it); ``halo`` outlines
    text in white so it stays legible over terrain; ``pivot`` the point a label belongs to
    (the centre of its mark), which the page scales it about to keep it legible when the
    board is zoomed out."""

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
    pivot: Point2 | None = None


def terrain_style(feature: Feature) -> tuple[str, Style]:
    """A terrain feature's name in the legend and its style (a door or hatch by whether it is
    open, other terrain by its first trait with a style)."""
    if feature.is_portal:
        kind = "hatch" if "hatch" in feature.traits else "door"
        text, style = PORTAL_STYLES[(kind, feature.open)]
        return text, style
    for trait, text, style in TERRAIN_STYLES:
        if trait in feature.traits:
            return text, style
    return "terrain", Style("#cccccc", 0.8, "#888888", 1.0, 1.0)


def marker_shapes(kind: str, cx: float, cy: float, r: float, css: str) -> list[Shape]:
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
    elif kind == "downed":  # a downed operative lying there, as its base is drawn
        out.extend(down_shapes(cx, cy, r, "player", css))
    else:  # a diamond
        pts = ((cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy))
        out.append(Shape("polygon", pts, Style(MARKER_COLOUR, 0.9, "#0b5345", 1.0, 1.2),
                         css=css))
    return out


def arrow(a: Point2, b: Point2, style: Style, size: float) -> Shape:
    """An arrow head of ``size`` pixels at ``b``, pointing away from ``a``, in ``style``'s
    stroke colour."""
    ang = math.atan2(b[1] - a[1], b[0] - a[0])
    left = (b[0] - size * math.cos(ang - 0.45), b[1] - size * math.sin(ang - 0.45))
    right = (b[0] - size * math.cos(ang + 0.45), b[1] - size * math.sin(ang + 0.45))
    return Shape("polygon", (b, left, right), Style(style.stroke, 1.0, style.stroke, 1.0, 1.0),
                 css="arrow")


def abbrev(kind: str) -> str:
    """A marker kind's badge: the first letters of its words, at most three (``"?"``)."""
    words = [w for w in kind.replace("_", "-").split("-") if w]
    return "".join(w[0] for w in words).upper()[:3] or "?"


DOWN_COLOUR = "#9a9a9a"
"""The grey of a downed model's base and label."""


def down_shapes(cx: float, cy: float, r: float, side: str, css: str) -> list[Shape]:
    """A downed model's base (its base still takes room on the table): greyed, a dashed rim in
    its side's colour, crossed."""
    k = r * 0.55
    cross = Style(None, 1.0, "#333333", 1.0, 2.0)
    return [Shape("circle", ((cx, cy),), Style(DOWN_COLOUR, 0.55, SIDE_COLOURS[side], 1.0, 1.5,
                                               (3.0, 2.0)), radius=r, css=css),
            Shape("polyline", ((cx - k, cy - k), (cx + k, cy + k)), cross, css="down"),
            Shape("polyline", ((cx - k, cy + k), (cx + k, cy - k)), cross, css="down")]
