"""Names as players expect them (:mod:`solo_ops.core.names`): numbered names in counting order,
and names listed as a sentence lists them."""

from __future__ import annotations

from solo_ops.core.names import join_names, natural_key


def test_numbered_names_sort_as_counted() -> None:
    names = ["hatch-10", "c2", "hatch-2", "c12", "c1", "door"]
    assert sorted(names, key=natural_key) == ["c1", "c2", "c12", "door", "hatch-2", "hatch-10"]


def test_names_are_listed_as_a_sentence() -> None:
    assert join_names([]) == ""
    assert join_names(["a1"]) == "a1"
    assert join_names(["a1", "a2"]) == "a1 and a2"
    assert join_names(["leader-9", "leader-10", "gunner-8"]) == "leader-9, leader-10 and gunner-8"
