"""Shared test fixtures: paths to the shipped data and a click runner for the CLI."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "solo_ops" / "data" / "scenarios"
ROSTERS = SCENARIOS / "rosters"
BOARDS = SCENARIOS / "boards"


@pytest.fixture
def runner() -> CliRunner:
    """A click test runner that keeps stderr apart from stdout."""
    try:
        return CliRunner(mix_stderr=False)  # click < 8.2
    except TypeError:
        return CliRunner()
