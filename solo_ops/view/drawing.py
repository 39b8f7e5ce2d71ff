"""A scene's pictures: the one list of drawing primitives written as SVG text or drawn as PNG.

:func:`svg_text` writes the primitives of :func:`solo_ops.view.render.primitives` directly as
SVG; :func:`png_bytes` draws the same primitives with Pillow (no system graphics library), at
:data:`~solo_ops.view.picture_style.PNG_SUPERSAMPLE` times the size, then smoothed down; so
the two always show the same thing, labels where the placer put them. :func:`render_bytes`
picks by a file's suffix. No file is touched here: :func:`solo_ops.io.pictures.save_picture`
writes the bytes atomically.
"""

from __future__ import annotations

import io
import itertools
import math
from collections.abc import Iterable, Sequence
from typing import Any
from xml.sax.saxutils import escape

from solo_ops.view.picture_style import BACKGROUND, FONT, PNG_SUPERSAMPLE, TEXT, Style
from solo_ops.view.render import Scene, primitives
from solo_ops.view.shapes import Point2


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
        f"<title>{escape(scene.title + scene.title_tail)}</title>",
        f'<rect width="{width}" height="{height}" fill="{BACKGROUND}"/>',
    ]
    for shp in primitives(scene):
        cls = f' class="{escape(shp.css)}"' if shp.css else ""
        if shp.pivot is not None:  # the page scales a label about it (zoomed out)
            cls += f' data-pivot="{_num(shp.pivot[0])} {_num(shp.pivot[1])}"'
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


def font(size: float, bold: bool) -> Any:
    """DejaVu Sans (bold or not) at ``size`` pixels, for Pillow: the PNG pictures' font, or
    Arial where DejaVu is missing, or Pillow's own."""
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
            draw.text((tx, ty), shp.text, font=font(shp.size * k, shp.bold),
                      fill=_rgba(st.fill or TEXT, st.fill_opacity), anchor=anchor,
                      stroke_width=int(1.5 * k) if shp.halo else 0,
                      stroke_fill=(255, 255, 255, 220) if shp.halo else None)
    image = image.resize((width, height), Image.Resampling.LANCZOS)
    buf = io.BytesIO()
    image.save(buf, format="PNG")  # (zlib level 6: optimize=True cost 0.09 s of 0.33 for 2% less)
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
