"""The label placer the pictures share: every label beside what it names, none over another.

A board picture names many things close together — models in base contact, a counter beside a
door, an objective under a charge. :func:`place` puts each :class:`Label` at the first of its
candidate places (around its mark, nearest first: right, left, above, below, the corners, then
the same further out with a leader line back to the mark) where its box meets no label already
placed, no model's base or other mark and stays on the board, preferring places that cross no
line (a wall, a door, an arrow). Labels are placed in order of :attr:`Label.priority` (what the
players act on first: the current activation's numbers, the models, counters, objectives,
doors, terrain, sectors, zones), so the most useful ones sit closest. When no candidate near
the mark is free, a spiral of places further out is searched, with a leader line; a label that
still finds none (a board with no room left) is left out rather than drawn over another.

The boxes are the text's own box (its advance width from the font the PNG uses, DejaVu Sans,
which is also the SVG's first font; its ascent and descent) plus :data:`PAD` on every side, so
two placed labels never touch when drawn. Pure: pixels in, pixels out; both the SVG and the PNG
draw what it returns (:mod:`solo_ops.view.render`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

Point2 = tuple[float, float]
Box = tuple[float, float, float, float]

PAD = 1.5
"""Pixels of clear space around every label's text."""
ASCENT, DESCENT = 0.93, 0.24
"""DejaVu Sans's ascent and descent as fractions of the font size (the text box's height)."""
GAP = 1.5
"""Pixels between a mark's edge and the nearest label place."""
RINGS = (0.0, 9.0, 20.0, 34.0, 50.0)
"""How far out (pixels beyond the nearest place) the candidate rings are; beyond the first, a
leader line joins the label to its mark."""
SPIRAL_STEP = 8.0
SPIRAL_REACH = 260.0
"""The last resort: places on a spiral every :data:`SPIRAL_STEP` pixels out to this far."""
LINE_COST = 40.0
"""What crossing one line costs a place, against 1 for each pixel further from the mark."""


@dataclass
class Label:
    """A text to place beside a mark: ``mark`` is ``(cx, cy, r)`` in pixels (a point when
    ``r`` is 0); ``badge`` a radius to draw the text in a round badge (step numbers,
    sectors); ``places`` preferred box centres to try first (a zone's label inside its zone,
    a sector's badge along its edges) — when given, only those are tried."""

    text: str
    mark: tuple[float, float, float]
    size: float = 10.0
    bold: bool = False
    priority: int = 50
    css: str = "label"
    colour: str = "#222222"
    halo: bool = True
    badge: float = 0.0
    badge_fill: str = "#4a5a6a"
    places: list[Point2] = field(default_factory=list)
    leader_ok: bool = True

    def size_px(self) -> tuple[float, float]:
        """The label's box (width, height) in pixels, padding included."""
        if self.badge:
            side = 2 * self.badge + 2 * PAD
            return side, side
        width = text_width(self.text, self.size, self.bold)
        return width + 2 * PAD, (ASCENT + DESCENT) * self.size + 2 * PAD


@dataclass(frozen=True)
class Placed:
    """A label where :func:`place` put it: its box ``(x0, y0, x1, y1)``, where its text
    starts (``origin``, the baseline's left end; a badge's centre) and the leader line from
    the mark's edge to the box, if it is away from its mark."""

    label: Label
    box: Box
    origin: Point2
    leader: tuple[Point2, Point2] | None


@lru_cache(maxsize=4096)
def text_width(text: str, size: float, bold: bool) -> float:
    """The advance width of ``text`` in pixels: DejaVu Sans's own (through Pillow), or, on a
    machine without it, a generous estimate."""
    font = _font(round(size * 4), bold)
    if font is None:
        return len(text) * size * (0.68 if bold else 0.62)
    return float(font.getlength(text)) / 4.0


def wrap_words(text: str, fits: Callable[[str], bool]) -> list[str]:
    """``text`` broken at spaces into lines, each as long as ``fits`` allows (a word too long
    for a line alone stands alone): the sheet's columns and the chart's title."""
    lines: list[str] = []
    current = ""
    for word in text.split(" "):
        trial = f"{current} {word}".strip()
        if current and not fits(trial):
            lines.append(current)
            current = word
        else:
            current = trial
    return [*lines, current] if current else lines


def cut_to_width(text: str, size: float, bold: bool, width: float) -> str:
    """``text`` as it is where it fits in ``width`` pixels (:func:`text_width`), else its
    longest start that fits with an ellipsis after it."""
    if text_width(text, size, bold) <= width:
        return text
    lo, hi = 0, len(text)  # text[:lo] + "…" fits (or lo is 0)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if text_width(text[:mid].rstrip() + "…", size, bold) <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…"


def fit_to_width(text: str, size: float, bold: bool, width: float, smallest: float,
                 tail: str = "", step: float = 0.5) -> tuple[str, float]:
    """``text + tail`` and the largest size from ``size`` down to ``smallest`` (by ``step``
    pixels: half pixels where the picture is drawn at twice its size, whole ones where a
    font is drawn as it is) at which it fits in ``width`` pixels; at ``smallest`` and still
    too wide, ``text`` is cut (:func:`cut_to_width`) and ``tail`` kept whole. A title is drawn
    smaller before it loses words, and loses its name's end before its status."""
    fitted = size
    while fitted > smallest and text_width(text + tail, fitted, bold) > width:
        fitted = max(smallest, fitted - step)
    if text_width(text + tail, fitted, bold) <= width:
        return text + tail, fitted
    room = max(0.0, width - text_width(tail, fitted, bold))
    return cut_to_width(text, fitted, bold, room) + tail, fitted


@lru_cache(maxsize=16)
def _font(size: int, bold: bool) -> Any:
    from PIL import ImageFont

    try:
        return ImageFont.truetype("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf", size)
    except OSError:
        return None


def boxes_meet(a: Box, b: Box) -> bool:
    """Whether two boxes overlap (touching edges do not)."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


class _Field:
    """What a label may not cover (placed labels, marks, the board's edge) and what it
    should not cross (lines), for one picture."""

    def __init__(self, discs: Sequence[tuple[float, float, float]],
                 lines: Iterable[Sequence[Point2]], bounds: Box) -> None:
        self.discs = np.array(discs, dtype=float).reshape(-1, 3)
        segs = [(a[0], a[1], b[0], b[1]) for line in lines for a, b in itertools.pairwise(line)]
        self.segs = np.array(segs, dtype=float).reshape(-1, 4)
        self.boxes = np.zeros((0, 4))
        self.bounds = bounds

    def free(self, box: Box, own: tuple[float, float, float]) -> bool:
        """Inside the bounds, over no placed label and no mark but its own."""
        x0, y0, x1, y1 = box
        bx0, by0, bx1, by1 = self.bounds
        if x0 < bx0 or y0 < by0 or x1 > bx1 or y1 > by1:
            return False
        b = self.boxes
        if len(b) and np.any((b[:, 0] < x1) & (x0 < b[:, 2]) & (b[:, 1] < y1) & (y0 < b[:, 3])):
            return False
        d = self.discs
        if len(d):
            nx = np.clip(d[:, 0], x0, x1) - d[:, 0]
            ny = np.clip(d[:, 1], y0, y1) - d[:, 1]
            hit = nx * nx + ny * ny < d[:, 2] * d[:, 2]
            if np.any(hit & ~((d[:, 0] == own[0]) & (d[:, 1] == own[1]) & (d[:, 2] == own[2]))):
                return False
        return True

    def crossings(self, box: Box) -> int:
        """How many line segments cross or enter the box."""
        s = self.segs
        if not len(s):
            return 0
        x0, y0, x1, y1 = box
        near = ((np.minimum(s[:, 0], s[:, 2]) < x1) & (np.maximum(s[:, 0], s[:, 2]) > x0)
                & (np.minimum(s[:, 1], s[:, 3]) < y1) & (np.maximum(s[:, 1], s[:, 3]) > y0))
        if not near.any():
            return 0
        return sum(1 for seg in s[near] if _segment_meets_box(seg, box))

    def take(self, box: Box, leader: tuple[Point2, Point2] | None) -> None:
        self.boxes = np.vstack([self.boxes, np.array(box, dtype=float)])
        if leader is not None:
            self.segs = np.vstack([self.segs, np.array([*leader[0], *leader[1]])])


def _segment_meets_box(seg: np.ndarray, box: Box) -> bool:
    """Liang–Barsky: whether the segment crosses the box's interior."""
    x0, y0, x1, y1 = box
    ax, ay, bx, by = (float(v) for v in seg)
    dx, dy = bx - ax, by - ay
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, ax - x0), (dx, x1 - ax), (-dy, ay - y0), (dy, y1 - ay)):
        if p == 0:
            if q <= 0:
                return False
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 >= t1:
            return False
    return True


# directions of the candidate places: (dx, dy) unit offsets, right first (reading order)
_NEAR = ((1, 0), (-1, 0), (0, -1), (0, 1), (1, -1), (-1, -1), (1, 1), (-1, 1))
_FAR = tuple((math.cos(a), math.sin(a)) for a in (i * math.pi / 8 for i in range(16)))


def _around(mark: tuple[float, float, float], w: float, h: float, ring: float,
            directions: Sequence[tuple[float, float]]) -> list[Point2]:
    """Box centres around the mark: each box touching the circle of radius ``r + GAP +
    ring`` from outside, in each direction."""
    cx, cy, r = mark
    reach = r + GAP + ring
    out = []
    for dx, dy in directions:
        # the box centre so that the box's nearest point to the mark is ``reach`` away
        if abs(dx) < 1e-9 or abs(dy) < 1e-9:
            px = cx + dx * (reach + w / 2)
            py = cy + dy * (reach + h / 2)
        else:
            n = math.hypot(dx, dy)
            ux, uy = dx / n, dy / n
            px = cx + ux * reach + math.copysign(w / 2, ux)
            py = cy + uy * reach + math.copysign(h / 2, uy)
        out.append((px, py))
    return out


def _spiral(mark: tuple[float, float, float]) -> list[Point2]:
    cx, cy, r = mark
    return [(cx + radius * dx, cy + radius * dy) for radius, dx, dy in _spiral_steps(r)]


@lru_cache(maxsize=64)
def _spiral_steps(r: float) -> tuple[tuple[float, float, float], ...]:
    """The last resort's places around a mark of radius ``r``: (distance, dx, dy), nearest
    first."""
    out: list[tuple[float, float, float]] = []
    radius = r + SPIRAL_STEP
    while radius <= SPIRAL_REACH:
        count = max(8, int(2 * math.pi * radius / SPIRAL_STEP))
        out.extend((radius, math.cos(2 * math.pi * i / count), math.sin(2 * math.pi * i / count))
                   for i in range(count))
        radius += SPIRAL_STEP
    return tuple(out)


def _leader(mark: tuple[float, float, float], box: Box) -> tuple[Point2, Point2] | None:
    """The line from the mark's edge to the nearest point of the box (None when they touch)."""
    cx, cy, r = mark
    nx, ny = min(max(cx, box[0]), box[2]), min(max(cy, box[1]), box[3])
    d = math.hypot(nx - cx, ny - cy)
    if d <= r + GAP + 2.5:
        return None
    k = r / d if d > 0 else 0.0
    return (cx + (nx - cx) * k, cy + (ny - cy) * k), (nx, ny)


def _origin(label: Label, box: Box) -> Point2:
    if label.badge:
        return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return box[0] + PAD, box[1] + PAD + ASCENT * label.size


def _best(label: Label, fld: _Field) -> Placed | None:
    """The cheapest free place for ``label`` (see the module docstring), or None."""
    w, h = label.size_px()
    if label.places:
        tiers: list[float] = [0.0]
    else:
        tiers = [*RINGS, SPIRAL_REACH] if label.leader_ok else [0.0]
    best: tuple[float, Box] | None = None
    for ring in tiers:
        if best is not None and ring >= best[0]:
            break  # nothing further out can beat it
        if label.places:
            centres = list(label.places)
        elif ring >= SPIRAL_REACH:
            centres = _spiral(label.mark)
        else:
            centres = _around(label.mark, w, h, ring, _NEAR if ring == 0 else _FAR)
        for i, (px, py) in enumerate(centres):
            box = (px - w / 2, py - h / 2, px + w / 2, py + h / 2)
            if not fld.free(box, label.mark):
                continue
            crossed = fld.crossings(box)
            cost = ring + 0.01 * i + LINE_COST * crossed
            if ring >= SPIRAL_REACH:  # the last resort: nearest to the mark first
                cost = ring + math.hypot(px - label.mark[0], py - label.mark[1]) \
                    + LINE_COST * crossed
            if best is None or cost < best[0]:
                best = (cost, box)
            if crossed == 0:
                break  # the places come best first: none later in this tier does better
    if best is None:
        return None
    box = best[1]
    leader = None if label.places else _leader(label.mark, box)
    return Placed(label, box, _origin(label, box), leader)


def place(labels: Sequence[Label], discs: Sequence[tuple[float, float, float]],
          lines: Iterable[Sequence[Point2]], bounds: Box) -> list[Placed]:
    """Place ``labels`` (see the module docstring): ``discs`` the marks no label may cover
    (``(cx, cy, r)`` pixels: bases, counters, objectives...), ``lines`` the polylines they
    should not cross, ``bounds`` the box every label stays in. Deterministic: the same
    picture places its labels the same way."""
    fld = _Field(discs, lines, bounds)
    out: list[Placed] = []
    order = sorted(range(len(labels)), key=lambda i: (labels[i].priority, i))
    for i in order:
        found = _best(labels[i], fld)
        if found is not None:
            fld.take(found.box, found.leader)
            out.append(found)
    return out
