"""How much the heavy tests try: a quarter of their full budget by default (the README's test
command, a developer's run), the full budget with ``SOLO_OPS_TEST_BUDGET=full`` (CI runs the
``slow`` tests that way after the README's command: ``.ci/run``), and with
``SOLO_OPS_TEST_BUDGET=stats`` the full budget and the long statistical runs as well.

The heavy tests are the property tests that check fast code against a slow oracle and the
fuzzers: each example or case is checked exactly as before, only fewer are drawn by default.
Hypothesis under CI is derandomized, so every run draws the same examples either way.

The long statistical runs (:data:`STATS`) are the whole-campaign samples that take about 10
minutes of CPU on the standard machine and 14 on the slower one of 2026-11-30 (six campaigns a
target through the real
``campaign play``: ``tests/e2e/test_campaign_targets.py``): run by hand, and before a change to
what they measure is merged; their quick versions run on every run."""

from __future__ import annotations

import os

_ASKED = os.environ.get("SOLO_OPS_TEST_BUDGET", "").strip().lower()

STATS = _ASKED == "stats"
"""The long statistical runs too (``SOLO_OPS_TEST_BUDGET=stats``, which is also :data:`FULL`)."""

FULL = _ASKED == "full" or STATS
"""The full budget (``SOLO_OPS_TEST_BUDGET=full``, or ``stats``)."""


def examples(full: int, share: int = 4) -> int:
    """``full`` with the full budget, else ``full // share`` (at least 2)."""
    return full if FULL else max(2, full // share)
