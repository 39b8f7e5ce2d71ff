"""The one declaration of event kinds (``solo_ops.game.events``) agrees with the code.

Every ``"type"`` the game, AI, campaign and rules code writes is a declared event kind (or an
action kind); code that marks an event secret does so only for kinds declared secret; the
player view drops declared-secret kinds even when the emitter forgot its flag, and unknown
kinds too; narration has words for every open kind or lists it as deliberately silent.
"""

from __future__ import annotations

import re

from solo_ops.core.dice import SeededDice
from solo_ops.game import events
from solo_ops.view import narrate
from solo_ops.view.player import player_record
from tests.support.events import PACKAGE, emitted_event_types


def test_every_kind_the_code_writes_is_declared() -> None:
    written = emitted_event_types()
    assert {"moved", "hidden_order", "enemy_activation", "vp"} <= written  # the scan works
    undeclared = written - set(events.EVENTS) - events.ACTION_KINDS
    assert not undeclared, f"event kinds written but not declared: {sorted(undeclared)}"
    unused = set(events.EVENTS) - written
    assert not unused, f"declared kinds nobody writes: {sorted(unused)}"


def test_code_marks_only_secret_kinds_secret() -> None:
    """Every dict literal with ``"secret": True`` in the game code is of a secret kind."""
    marked: set[str] = set()
    for folder in ("game", "ai", "campaign", "rules"):
        for path in (PACKAGE / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            for literal in re.findall(r'\{"type": "([a-z_0-9]+)"[^{}]*?"secret": True', text):
                marked.add(literal)
    assert marked == {"hidden_order", "hidden_plan", "counter_command"}
    assert all(events.EVENTS[kind] is events.SECRET for kind in marked)


def test_the_view_drops_secret_and_unknown_kinds_whatever_their_flag() -> None:
    dice = SeededDice(seed=1)
    secret_roll = dice.d6("anything at all", secret=True).to_dict()
    open_roll = dice.d6("initiative").to_dict()
    record = {"n": 3, "action": {"type": "engine"}, "rolls": [secret_roll, open_roll],
              "events": [
                  {"type": "hidden_order", "counter": "c1", "hidden_order": 5},  # no flag
                  {"type": "brand_new_kind", "counter": "c1", "hidden_order": 5},
                  {"type": "moved", "operative": "kell", "secret": True},
                  {"type": "moved", "operative": "kell"},
              ]}
    shown = player_record(record)
    assert shown["events"] == [{"type": "moved", "operative": "kell"}]
    assert shown["rolls"] == [open_roll]  # marked by the roller, whatever its words
    assert player_record(record, reveal=True) == record


def test_narration_covers_every_open_kind_and_silences_the_secret_ones() -> None:
    for kind, secret in events.EVENTS.items():
        if secret:
            assert kind in narrate.SILENT and kind not in narrate.WORDS, kind
        else:
            assert kind in narrate.WORDS or kind in narrate.SILENT, kind
