"""Shared by the tests: moved from game/test_checkpoint.py."""

from __future__ import annotations

from typing import Any

from solo_ops.io.savegame import checkpoint_hash


def reseal(doc: dict[str, Any]) -> None:
    """Seal a save's checkpoint anew over its (edited) steps: what a solo-ops that recorded
    those steps would have written. A test simulates "a newer version plays step N otherwise"
    by editing step N's fingerprint and resealing; an edit without the seal is a forgery
    (``tests/io/test_forgery.py``)."""
    doc["checkpoint"]["hash"] = checkpoint_hash(doc["checkpoint"], doc["steps"])
