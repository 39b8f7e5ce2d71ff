"""A small chart: the players' win rate against the engagement level, with 95% intervals.

Drawn as SVG text or PNG bytes (Pillow, as the board pictures of :mod:`solo_ops.view.drawing`):
one point per level, its Wilson interval as a vertical bar, a line through the points, axes
from level to level and 0-100%. Pure: returns the picture; the caller writes it.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from solo_ops.view.labels import cut_to_width, text_width, wrap_words

WIDTH, HEIGHT = 640, 400
LEFT, RIGHT, TOP, BOTTOM = 70, 30, 64, 60
TITLE_SIZE, TITLE_STEP, TITLE_MARGIN, TITLE_LINES = 16, 20, 12, 2
"""The title's font size and line step (pixels), the room left free at each side, and the
most lines it takes (a longer one ends in an ellipsis)."""
LINE = "#2f6fdf"
AXIS = "#333333"
GRID = "#dddddd"


@dataclass(frozen=True)
class LevelPoint:
    """One engagement level's win rate and its 95% interval (proportions 0-1)."""

    level: int
    rate: float
    lo: float
    hi: float


def title_lines(title: str) -> list[str]:
    """The title broken at spaces into at most :data:`TITLE_LINES` lines, each within the
    picture's width less its margins (DejaVu Sans Bold's own widths): a scenario's name can be
    long, and a title wider than the picture would be cut at both sides."""
    room = WIDTH - 2 * TITLE_MARGIN

    def fits(text: str) -> bool:
        return text_width(text, TITLE_SIZE, True) <= room

    if fits(title):
        return [title]
    # two lines at a colon where both fit (the scenario's name, then what is drawn)
    for at in reversed([k for k in range(len(title)) if title.startswith(": ", k)]):
        head, tail = title[:at + 1], title[at + 2:]
        if TITLE_LINES >= 2 and fits(head) and fits(tail):
            return [head, tail]
    lines = wrap_words(title, fits)
    if len(lines) > TITLE_LINES:
        lines = [*lines[:TITLE_LINES - 1], " ".join(lines[TITLE_LINES - 1:])]
    return [cut_to_width(line, TITLE_SIZE, True, room) for line in lines] or [""]


def _top(lines: Sequence[str]) -> int:
    """Where the plot starts: below the title's lines and the axis label above the plot."""
    return TOP + TITLE_STEP * (len(lines) - 1)


def _layout(points: Sequence[LevelPoint], top: int
            ) -> tuple[list[tuple[float, float, float, float]], list[tuple[float, str]], float]:
    levels = [p.level for p in points]
    lo_l, hi_l = min(levels), max(levels)
    span = max(1, hi_l - lo_l)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - top - BOTTOM

    def x(level: int) -> float:
        return LEFT + (0.5 if hi_l == lo_l else (level - lo_l) / span) * plot_w

    def y(rate: float) -> float:
        return top + (1.0 - rate) * plot_h

    marks = [(x(p.level), y(p.rate), y(p.lo), y(p.hi)) for p in points]
    ticks = [(y(v / 100), f"{v}%") for v in range(0, 101, 20)]
    return marks, ticks, plot_w


def svg(points: Sequence[LevelPoint], title: str) -> str:
    """The chart as an SVG document."""
    lines = title_lines(title)
    top = _top(lines)
    marks, ticks, plot_w = _layout(points, top)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="DejaVu Sans, sans-serif">',
           f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
           f'<title>{_esc(title)}</title>']
    out += [f'<text class="title" x="{WIDTH / 2}" y="{28 + TITLE_STEP * k}" '
            f'text-anchor="middle" font-size="{TITLE_SIZE}" font-weight="bold">{_esc(line)}'
            '</text>' for k, line in enumerate(lines)]
    for ty, label in ticks:
        out.append(f'<line x1="{LEFT}" y1="{ty:.1f}" x2="{LEFT + plot_w}" y2="{ty:.1f}" '
                   f'stroke="{GRID}"/>')
        out.append(f'<text x="{LEFT - 8}" y="{ty + 4:.1f}" text-anchor="end" '
                   f'font-size="12">{label}</text>')
    base = HEIGHT - BOTTOM
    out.append(f'<line x1="{LEFT}" y1="{top}" x2="{LEFT}" y2="{base}" stroke="{AXIS}"/>')
    out.append(f'<line x1="{LEFT}" y1="{base}" x2="{LEFT + plot_w}" y2="{base}" '
               f'stroke="{AXIS}"/>')
    if len(marks) > 1:
        path = " ".join(f"{mx:.1f},{my:.1f}" for mx, my, _, _ in marks)
        out.append(f'<polyline points="{path}" fill="none" stroke="{LINE}" '
                   'stroke-width="2"/>')
    for p, (mx, my, ylo, yhi) in zip(points, marks, strict=True):
        out.append(f'<line class="ci" x1="{mx:.1f}" y1="{ylo:.1f}" x2="{mx:.1f}" '
                   f'y2="{yhi:.1f}" stroke="{AXIS}" stroke-width="1.5"/>')
        for yy in (ylo, yhi):
            out.append(f'<line x1="{mx - 6:.1f}" y1="{yy:.1f}" x2="{mx + 6:.1f}" '
                       f'y2="{yy:.1f}" stroke="{AXIS}" stroke-width="1.5"/>')
        out.append(f'<circle class="level" cx="{mx:.1f}" cy="{my:.1f}" r="5" fill="{LINE}" '
                   f'data-level="{p.level}" data-rate="{p.rate:.4f}"/>')
        out.append(f'<text x="{mx:.1f}" y="{base + 20}" text-anchor="middle" '
                   f'font-size="12">{p.level}</text>')
    out.append(f'<text x="{LEFT + plot_w / 2}" y="{HEIGHT - 15}" text-anchor="middle" '
               'font-size="13">engagement level</text>')
    mid = top + (HEIGHT - top - BOTTOM) / 2
    out.append(f'<text x="18" y="{mid}" text-anchor="middle" font-size="13" '
               f'transform="rotate(-90 18 {mid})">players win (95% interval)</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def png(points: Sequence[LevelPoint], title: str) -> bytes:
    """The chart as PNG data (Pillow)."""
    from PIL import Image, ImageDraw

    from solo_ops.view.drawing import font

    lines = title_lines(title)
    top = _top(lines)
    marks, ticks, plot_w = _layout(points, top)
    image = Image.new("RGB", (WIDTH, HEIGHT), "white")
    draw = ImageDraw.Draw(image)
    for k, line in enumerate(lines):
        draw.text((WIDTH / 2, 28 + TITLE_STEP * k), line, fill=AXIS,
                  font=font(TITLE_SIZE, True), anchor="ms")
    for ty, label in ticks:
        draw.line([(LEFT, ty), (LEFT + plot_w, ty)], fill=GRID)
        draw.text((LEFT - 8, ty + 4), label, fill=AXIS, font=font(12, False), anchor="rs")
    base = HEIGHT - BOTTOM
    draw.line([(LEFT, top), (LEFT, base), (LEFT + plot_w, base)], fill=AXIS)
    if len(marks) > 1:
        draw.line([(mx, my) for mx, my, _, _ in marks], fill=LINE, width=2)
    for p, (mx, my, ylo, yhi) in zip(points, marks, strict=True):
        draw.line([(mx, ylo), (mx, yhi)], fill=AXIS, width=2)
        for yy in (ylo, yhi):
            draw.line([(mx - 6, yy), (mx + 6, yy)], fill=AXIS, width=2)
        draw.ellipse((mx - 5, my - 5, mx + 5, my + 5), fill=LINE)
        draw.text((mx, base + 20), str(p.level), fill=AXIS, font=font(12, False),
                  anchor="ms")
    draw.text((LEFT + plot_w / 2, HEIGHT - 15), "engagement level", fill=AXIS,
              font=font(13, False), anchor="ms")
    draw.text((8, top - 26), "players win (95% interval)", fill=AXIS, font=font(12, False))
    buf = io.BytesIO()
    image.save(buf, format="PNG")  # (zlib level 6: optimize=True cost 0.09 s of 0.33 for 2% less)
    return buf.getvalue()


def render(points: Sequence[LevelPoint], title: str, suffix: str) -> bytes:
    """The chart's bytes for a file suffix (``.svg`` or ``.png``)."""
    suffix = suffix.lower()
    if suffix == ".svg":
        return svg(points, title).encode("utf-8")
    if suffix == ".png":
        return png(points, title)
    raise ValueError(suffix)


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
