"""An undo names the answer it takes back as the player typed it: a CP re-roll declined is
"'keep' is taken back", not the action's kind ("'reroll'"), and the same for a fight's die, a
Guard interrupt and a useless cover save (the questions asked in the middle of a step).

Each typed answer is read by the terminal's own parser (:func:`solo_ops.view.answers.parse`)
and the words an undo says for it must give the same answer back."""

from __future__ import annotations

import pytest

from solo_ops.session.words import describe
from solo_ops.view.answers import parse

TYPED = [
    ("reroll", "keep", "'keep'"),
    ("reroll", "no", "'keep'"),
    ("reroll", "reroll 2", "'reroll 2'"),
    ("reroll", "re-roll die #3", "'reroll 3'"),
    ("fight", "strike 1", "'strike 1'"),
    ("fight", "block 2", "'block 2'"),
    ("fight", "block 1 against 3", "'block 1 3'"),
    ("fight", "auto", "'auto'"),
    ("fight", "auto all", "'auto all'"),
    ("guard", "no", "'no'"),
    ("guard", "shoot u1-a with boltgun", "'shoot u1-a with boltgun'"),
    ("guard", "fight u1-a", "'fight u1-a'"),
    ("cover", "roll", "'roll'"),
    ("cover", "keep", "'keep'"),
    ("reaction", "no", "'no'"),
    ("reaction", "retreat 3,11.5", "'retreat 3,11.5'"),
    ("reaction", "overwatch roll", "'overwatch roll'"),
    ("reaction", "overwatch with lasgun roll", "'overwatch with lasgun roll'"),
    ("reaction", "overwatch damage 2", "'overwatch damage 2'"),
]


@pytest.mark.parametrize(("kind", "text", "said"), TYPED)
def test_a_mid_step_answer_is_named_as_typed(kind: str, text: str, said: str) -> None:
    assert describe(parse(text, kind)) == said
    # and what is said is itself an answer the question takes, meaning the same
    assert parse(said.strip("'"), kind) == parse(text, kind)


def test_other_answers_keep_their_kind_and_names() -> None:
    assert describe({"type": "done", "operative": "kell"}) == "'done kell'"
    # a plain move as typed: no 2024 word in a 2018 game (its normal move is stored so too)
    assert describe({"type": "move", "operative": "vale", "how": "reposition",
                     "to": [12.0, 4.5]}) == "'move vale 12,4.5'"
    assert describe({"type": "move", "operative": "vale", "how": "dash",
                     "to": [12.0, 4.5]}) == "'move vale dash 12,4.5'"
