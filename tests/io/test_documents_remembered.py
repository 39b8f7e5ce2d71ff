"""A document read again is the same document, and a copy of its own (issue 39: the suite and
a campaign's proposal read the same scenario, board and rosters many times in one process;
``parse_yaml_text`` remembers each text's data and hands out copies)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from solo_ops.core.documents import PARSED_NODES, parse_yaml_text
from solo_ops.core.errors import InputError
from solo_ops.io.yamlio import read_document
from tests.support.paths import BOARDS

PLAIN = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6)
    | st.floats(allow_nan=False, allow_infinity=False, width=32) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(min_size=1, max_size=6), inner, max_size=4),
    max_leaves=20,
)


def test_a_board_read_twice_is_equal_and_each_read_is_its_own(tmp_path: Path) -> None:
    path = tmp_path / "board.yaml"
    path.write_text((BOARDS / "crypt-of-cynosure.yaml").read_text(encoding="utf-8"),
                    encoding="utf-8")
    first = read_document(path)
    oracle = yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.SafeLoader)
    first["features"][0]["id"] = "changed by the first reader"
    first["features"].append({"id": "added by the first reader"})
    second = read_document(path)
    assert second == oracle  # the reader's changes never reach the next reader
    assert second is not first and second["features"] is not first["features"]
    second["features"].clear()
    assert read_document(path) == oracle


def test_aliases_share_their_value_at_every_read() -> None:
    text = "a: &x [1, 2]\nb: *x\n"
    for _ in range(3):
        data = parse_yaml_text(text, "aliased.yaml")
        assert data == {"a": [1, 2], "b": [1, 2]}
        assert data["a"] is data["b"]  # as PyYAML gives them


def test_a_broken_document_is_refused_at_every_read() -> None:
    text = "a: 1\na: 2\n"
    lines = []
    for _ in range(2):
        with pytest.raises(InputError) as caught:
            parse_yaml_text(text, "twice.yaml")
        lines.append(caught.value.line())
    assert lines[0] == lines[1]
    assert "twice.yaml" in lines[0] and "duplicate key" in lines[0]


@given(PLAIN)
def test_any_plain_document_reads_the_same_every_time(data: object) -> None:
    text = yaml.safe_dump({"v": data})
    first = parse_yaml_text(text, "p.yaml")
    second = parse_yaml_text(text, "p.yaml")
    assert first == second == yaml.load(text, Loader=yaml.SafeLoader)


def test_a_long_document_reads_the_same_every_time_and_each_read_is_its_own() -> None:
    """Beyond the documents remembered (``PARSED_NODES`` values), parsed afresh every time."""
    text = yaml.safe_dump({"rows": [[i, f"row {i}"] for i in range(8000)]})
    assert 8000 * 3 > PARSED_NODES
    first = parse_yaml_text(text, "long.yaml")
    first["rows"].clear()
    second = parse_yaml_text(text, "long.yaml")
    assert len(second["rows"]) == 8000 and second["rows"][7999] == [7999, "row 7999"]
