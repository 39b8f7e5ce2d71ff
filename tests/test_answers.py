"""Typed answers -> action dicts: every word of the vocabulary, and the refusals' reasons."""

from __future__ import annotations

import pytest

from solo_ops.core.errors import RuleError
from solo_ops.view.answers import parse


@pytest.mark.parametrize(("text", "kind", "action"), [
    ("activate kell engage", "activate", {"type": "activate", "operative": "kell",
                                          "stance": "engage"}),
    ("kell Conceal", "activate", {"type": "activate", "operative": "kell", "stance": "conceal"}),
    ("kell", "activate", {"type": "activate", "operative": "kell"}),
    ("door d1 open", "activate", {"type": "portal", "feature": "d1", "open": True}),
    ("damage kell 2", "activate", {"type": "damage", "operative": "kell", "amount": 2}),
    ("move 10,4", "act", {"type": "move", "how": "reposition", "to": [10.0, 4.0]}),
    ("move (10, 4.5)", "act", {"type": "move", "how": "reposition", "to": [10.0, 4.5]}),
    ("dash 12,5", "act", {"type": "move", "how": "dash", "to": [12.0, 5.0]}),
    ("fallback 8,3", "act", {"type": "move", "how": "fall_back", "to": [8.0, 3.0]}),
    ("advance 8,3", "act", {"type": "move", "how": "advance", "to": [8.0, 3.0]}),
    ("charge u1-a 12,6", "act", {"type": "move", "how": "charge", "target": "u1-a",
                                 "to": [12.0, 6.0]}),
    ("shoot u1-a with bolt gun damage 3", "act", {"type": "shoot", "target": "u1-a",
                                                  "weapon": "bolt gun", "damage": 3}),
    ("shoot u1-a with boltgun roll", "act", {"type": "shoot", "target": "u1-a",
                                             "weapon": "boltgun", "roll": True}),
    ("fight u1-a dealt 4 taken 3", "act", {"type": "fight", "target": "u1-a", "dealt": 4,
                                           "taken": 3}),
    ("fight u1-a", "act", {"type": "fight", "target": "u1-a", "dealt": 0, "taken": 0}),
    ("hatch h2 close", "act", {"type": "portal", "feature": "h2", "open": False}),
    ("carry jax", "act", {"type": "carry", "target": "jax"}),
    ("evacuate", "act", {"type": "evacuate"}),
    ("ready", "act", {"type": "ready"}),
    ("down jax", "act", {"type": "down", "operative": "jax"}),
    ("done", "act", {"type": "done"}),
    ("pass", "act", {"type": "done"}),
    ("3", "attack", {"type": "attack_damage", "damage": 3}),
    ("damage 4 taken 1", "attack", {"type": "attack_damage", "damage": 4, "taken": 1}),
])
def test_words(text: str, kind: str, action: dict) -> None:
    assert parse(text, kind) == action


@pytest.mark.parametrize(("text", "kind", "reason"), [
    ("", "act", "type an answer"),
    ("move", "act", "where to?"),
    ("move 10", "act", "expected a point x,y"),
    ("move ten,4", "act", "expected a point x,y"),
    ("move nan,4", "act", "expected a point x,y"),
    ("charge u1-a", "act", "charge whom and to where?"),
    ("shoot", "act", "shoot whom?"),
    ("shoot u1 damage -2", "act", "cannot be negative"),
    ("shoot u1 damage lots", "act", "damage must be a whole number"),
    ("shoot u1 boltgun", "act", "unexpected 'boltgun'"),
    ("fight u1 dealt x", "act", "damage dealt must be a whole number"),
    ("door d1", "act", "e.g. 'door h1 open'"),
    ("carry", "act", "carry whom?"),
    ("damage sgt", "act", "e.g. 'damage sgt 3'"),
    ("dance", "act", "I don't understand 'dance'"),
    ("move 3,3", "activate", "first say which operative acts"),
    ("done", "activate", "first say which operative acts"),
    ("activate", "activate", "which operative?"),
    ("kell engage now", "activate", "too many words"),
    ("kell away", "activate", "stance must be engage or conceal, got 'away'"),
    ("lots", "attack", "damage must be a whole number"),
    ("damage", "attack", "how much damage?"),
])
def test_refusals_say_why(text: str, kind: str, reason: str) -> None:
    with pytest.raises(RuleError, match=reason.replace("?", r"\?").replace("(", r"\(")):
        parse(text, kind)
