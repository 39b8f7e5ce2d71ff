"""Shared by the tests: moved from view/test_narrate.py."""

from __future__ import annotations

import re

from tests.support.paths import ROOT

PACKAGE = ROOT / "solo_ops"


def emitted_event_types() -> set[str]:
    """Every event type the engine can emit, read from the source: ``"type": "x"`` in the
    game, AI and campaign packages (and the one chosen by a conditional)."""
    found: set[str] = set()
    for folder in ("game", "ai", "campaign", "rules"):
        for path in (PACKAGE / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            found |= set(re.findall(r'"type": "([a-z_0-9]+)"', text))
            found |= set(re.findall(r'"type": "[a-z_0-9]+" if [^"]+ else "([a-z_0-9]+)"', text))
    return found
