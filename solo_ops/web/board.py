"""The board for the table view: the players' view drawn as SVG (the page) and PNG (the download).

The picture is :func:`solo_ops.view.board_view.board_scene`'s, the one ``solo-ops map`` draws:
built only from the player view and player records, every label placed clear of the others
(:mod:`solo_ops.view.labels`), the activation being played numbered and drawn from where each
action happened. :func:`geometry` tells the page how SVG pixels map to board inches, for
tapping.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from solo_ops.view import board_view, drawing, render

if TYPE_CHECKING:
    from solo_ops.game.definition import Game
    from solo_ops.game.state import State


def board_svg(game: Game, state: State, view: dict[str, Any], records: list[dict[str, Any]],
              phone: board_view.Focus | None = None) -> str:
    """The players' view as an SVG document (see the module docstring); ``phone``: with the
    phone's label set, labelling what it names."""
    return drawing.svg_text(board_view.board_scene(game, state, view, records, phone=phone))


def board_png(game: Game, state: State, view: dict[str, Any], records: list[dict[str, Any]]
              ) -> bytes:
    """The players' view as a PNG picture (the map download): the same picture as the SVG."""
    return drawing.png_bytes(board_view.board_scene(game, state, view, records))


def geometry(game: Game, state: State) -> dict[str, Any]:
    """How the SVG maps to the board: a point (px, py) in SVG pixels is the board point
    ``x = (px - origin[0]) / scale``, ``y = depth - (py - origin[1]) / scale`` inches."""
    board = game.terrain(state).board
    return {"width": board.width, "depth": board.depth, "scale": render.SCALE,
            "origin": [render.MARGIN_LEFT, render.MARGIN_TOP]}
