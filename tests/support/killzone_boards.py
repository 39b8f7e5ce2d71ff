"""A slag channel for the killzone tests: hazardous ground across a 20" x 12" board (y 4-8)."""

from __future__ import annotations

SLAG = {"traits": ["hazardous"], "polygon": [[0, 4], [20, 4], [20, 8], [0, 8]]}
