"""Shared by the tests: moved from geometry/test_routes.py."""

from __future__ import annotations

from typing import Any

from solo_ops.geometry.board import Board, parse_board


def board(width: float, depth: float, *features: dict[str, Any]) -> Board:
    items = []
    for k, f in enumerate(features):
        item = {"id": f"f{k}", **f}
        items.append(item)
    return parse_board({"name": "test", "width": width, "depth": depth, "features": items},
                       "<test>")


def wall(*pts: tuple[float, float]) -> dict[str, Any]:
    return {"traits": ["wall"], "line": [list(p) for p in pts]}
