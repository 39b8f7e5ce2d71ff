"""How the pictures look: their scale and margins, the font, and every colour and line style.

:mod:`solo_ops.view.render` draws with these (and re-exports them: ``render.SCALE``); change a
colour here and both the SVG and the PNG follow. Sizes are pixels at 1x unless they say inches.
"""

from __future__ import annotations

from dataclasses import dataclass

SCALE = 30.0          # pixels per inch at 1x
PNG_SUPERSAMPLE = 2   # the PNG is drawn this many times larger, then scaled down (smooth edges)
MARGIN_LEFT = 44.0
MARGIN_TOP = 46.0
MARGIN_BOTTOM = 36.0
GAP = 18.0
LEGEND_WIDTH = 230.0
LEGEND_CHARS = 30
"""The longest legend line drawn whole (a longer one ends in an ellipsis)."""
MARGIN_RIGHT = 14.0
TITLE_SIZE, TITLE_SMALLEST = 17.0, 12.0
"""A board picture's title: its font size, and the smallest it is drawn to fit a long name
across the picture (a longer one ends in an ellipsis)."""
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

BACKGROUND = "#ffffff"
FLOOR = "#f4f1ea"
GRID = "#e2ddd2"
GRID_MAJOR = "#cfc8b9"
TEXT = "#222222"

SIDE_COLOURS = {
    "player": "#2f6fdf",
    "player2": "#1f9d55",
    "player3": "#8e44ad",
    "enemy": "#d23b3b",
}
PATH_STYLES = {  # kind -> (colour, width in px, dash or None)
    "move": ("#4a5a6a", 2.0, (6.0, 4.0)),
    "shot": ("#d23b3b", 1.6, None),
    "charge": ("#e67e22", 3.0, None),
    "fight": ("#8e44ad", 2.5, (3.0, 2.0)),
}
COUNTER_COLOUR = "#f0b429"
OBJECTIVE_COLOUR = "#f5c518"
COMMAND_NODE_COLOUR = "#9b59b6"
MARKER_COLOUR = "#16a085"
FIRING_POINT_COLOUR = "#7b3fa0"
STEP_COLOUR = "#4a5a6a"  # the numbered steps of the activation shown
ZONE_COLOURS = {"player": "#2f6fdf", "enemy": "#d23b3b"}
OBJECTIVE_RADIUS = 20.0 / 25.4  # a 40 mm objective marker


@dataclass(frozen=True)
class Style:
    """How a primitive is painted: fill and stroke colours (``#rrggbb``), opacities, stroke
    width in pixels and an optional dash pattern (pixels on, pixels off)."""

    fill: str | None = None
    fill_opacity: float = 1.0
    stroke: str | None = None
    stroke_opacity: float = 1.0
    width: float = 1.0
    dash: tuple[float, float] | None = None


# Terrain styles by trait, in priority order: a feature takes the first that it has.
TERRAIN_STYLES: tuple[tuple[str, str, Style], ...] = (
    ("pitfall", "pitfall", Style("#2d1f3d", 0.9, "#120b1a", 1.0, 1.5)),
    ("hazardous", "hazardous", Style("#f39c12", 0.55, "#c0580f", 1.0, 1.5, (5.0, 3.0))),
    ("wall", "wall", Style("#2b2b2b", 1.0, "#1a1a1a", 1.0, 1.0)),
    ("vantage", "vantage (upper level)", Style("#9cc3f0", 0.55, "#2f6fbf", 1.0, 2.0)),
    ("heavy", "heavy", Style("#7d8a96", 0.9, "#4f5b66", 1.0, 1.2)),
    ("blocking", "blocking", Style("#5b4e6b", 0.85, "#3b2f4a", 1.0, 1.2)),
    ("light", "light", Style("#b9d38a", 0.85, "#7f9a55", 1.0, 1.2)),
    ("accessible", "accessible", Style("#d9c7a3", 0.85, "#9c8a66", 1.0, 1.2)),
    ("obstructing", "obstructing", Style("#e59a9a", 0.7, "#b05050", 1.0, 1.2, (4.0, 3.0))),
    ("exposed", "exposed", Style("#e8e8e8", 0.8, "#9a9a9a", 1.0, 1.0, (3.0, 3.0))),
    ("insignificant", "insignificant", Style("#c7e6e0", 0.6, "#6fa79c", 1.0, 1.0, (3.0, 3.0))),
)
LINE_WIDTH_IN = 0.16  # walls drawn this many inches wide
PORTAL_STYLES = {  # (kind, open?) -> (legend text, style)
    ("door", False): ("door (closed)", Style(None, 1.0, "#8b4513", 1.0, 0.22 * SCALE)),
    ("door", True): ("door (open)", Style(None, 1.0, "#c79a6b", 1.0, 2.0, (4.0, 3.0))),
    ("hatch", False): ("hatch (closed)", Style(None, 1.0, "#e07b00", 1.0, 0.22 * SCALE)),
    ("hatch", True): ("hatch (open)", Style(None, 1.0, "#f5b041", 1.0, 2.0, (4.0, 3.0))),
}


@dataclass(frozen=True)
class Lettering:
    """A picture's label set: the font size (pixels at 1x) of each kind of label, ``None`` to
    leave that kind out (the page shows it on a tap), and whether the title and the legend are
    drawn. :data:`FULL` is the map's and the laptop page's; :data:`PHONE` the phone's, whose
    labels are sized for the page's default zoom on a phone (at least 24 CSS px to the inch:
    a 13 px label is then 10.4 CSS px, its box about 12 CSS px tall)."""

    base: float = 11.0
    counter: float = 10.0
    objective: float = 10.0
    portal: float | None = 9.0
    feature: float | None = 8.0
    marker: float = 8.0
    step: float = 10.0
    badge: float = 8.0       # a step number's round badge (radius)
    sector: float = 12.0
    zone: float = 12.0
    ruler: float = 10.0
    token: float = 8.0
    token_half: float = 5.0  # half the side of an order token's square
    title: bool = True
    legend: bool = True
    portal_words: bool = True  # a door's label says "(open)" / "(closed)" (the table view's)


FULL = Lettering()
PHONE = Lettering(base=15.0, counter=14.0, objective=14.0, portal=13.0, feature=None,
                  marker=13.0, step=14.0, badge=11.0, sector=14.0, zone=14.0, ruler=13.0,
                  token=11.0, token_half=7.0, title=False, legend=False, portal_words=False)
