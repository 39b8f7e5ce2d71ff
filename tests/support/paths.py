"""Where the tests find the repository and the shipped data."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"
ROSTERS = SCENARIOS / "rosters"
BOARDS = SCENARIOS / "boards"
FIXTURES = ROOT / "tests" / "support" / "fixtures"
