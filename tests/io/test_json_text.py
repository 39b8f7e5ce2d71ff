"""A save's text is ``json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False)``,
byte for byte, although its unchanged parts are not encoded again (issue 39:
``solo_ops.io.json_text.indented_json``, which ``save_json`` writes with)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solo_ops.game.engine import new_game
from solo_ops.io.json_text import indented_json
from solo_ops.io.persistence import save_json
from solo_ops.io.savegame import game_document
from solo_ops.io.scenario import load_scenario
from solo_ops.sim.autopilot import play
from tests.support.budget import examples
from tests.support.paths import SCENARIOS

LEAVES = (st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False,
                                                                  allow_infinity=False)
          | st.text(alphabet=st.sampled_from(list('ab"\\\n\t\u2028\u00e9\u20ac,:[]{}')),
                    max_size=6))
VALUES = st.recursive(LEAVES, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.text(max_size=3) | st.integers(0, 9).map(str),
                                        inner, max_size=4), max_leaves=25)
DOCUMENTS = st.dictionaries(st.text(max_size=4), VALUES, max_size=5)


def dumps(document: Any) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False)


@settings(max_examples=examples(400), deadline=None)
@given(first=DOCUMENTS, second=DOCUMENTS)
def test_the_text_is_json_s_own_and_stays_so_when_parts_are_remembered(
        first: dict[str, Any], second: dict[str, Any]) -> None:
    assert indented_json(first) == dumps(first)
    mixed = {**second, **first}  # values seen before (remembered) beside new ones
    assert indented_json(mixed) == dumps(mixed)
    assert indented_json(first) == dumps(first)  # every value remembered now


def test_what_json_refuses_it_refuses_alike() -> None:
    for bad in ({"a": [1.0, math.nan]}, {"a": {"b": object()}}, {1: "an int key"}):
        try:
            expected: Any = dumps(bad)
        except (TypeError, ValueError) as exc:
            expected = (type(exc), str(exc))
        try:
            got: Any = indented_json(bad)  # type: ignore[arg-type]
        except (TypeError, ValueError) as exc:
            got = (type(exc), str(exc))
        assert got == expected
    loop: dict[str, Any] = {}
    loop["self"] = [loop]
    with pytest.raises(ValueError, match="Circular reference"):
        indented_json({"a": loop})
    assert indented_json({}) == "{}" and indented_json({"a": [], "b": {}}) == dumps(
        {"a": [], "b": {}})


def test_a_played_game_saved_twice_is_json_s_text(tmp_path: Path) -> None:
    """A whole stronghold mission's save, written by ``save_json`` (its scenario remembered
    from the first write at the second): the bytes json itself writes."""
    game, state = new_game(load_scenario(SCENARIOS / "volkus-stronghold-supplement-example.yaml"),
                           3)
    play(game, state, "objective")
    document = game_document(game, state)
    for name in ("a.json", "b.json"):
        save_json(tmp_path / name, document)
        assert (tmp_path / name).read_text(encoding="utf-8") == dumps(document) + "\n"
