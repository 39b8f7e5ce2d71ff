"""How much the heavy tests try: a quarter of their full budget by default (the README's test
command, a developer's run), the full budget with ``SOLO_OPS_TEST_BUDGET=full`` (CI runs the
``slow`` tests that way after the README's command: ``.ci/run``).

The heavy tests are the property tests that check fast code against a slow oracle and the
fuzzers: each example or case is checked exactly as before, only fewer are drawn by default.
Hypothesis under CI is derandomized, so every run draws the same examples either way."""

from __future__ import annotations

import os

FULL = os.environ.get("SOLO_OPS_TEST_BUDGET", "").strip().lower() == "full"


def examples(full: int, share: int = 4) -> int:
    """``full`` with the full budget, else ``full // share`` (at least 2)."""
    return full if FULL else max(2, full // share)
