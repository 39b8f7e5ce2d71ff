"""libyaml's parser under the strict loader reads every document as the pure-Python one does
(issue 39: a command's start and the suite spent a sixth of their time in PyYAML's Python
scanner). ``solo_ops.core.documents.LOADERS`` lists the loaders ``parse_yaml_text`` tries in
turn: libyaml's first (when PyYAML has it), then the pure one, which reads again whatever the
first refuses, so that the error a player sees is the one it always was.

What is held here: every shipped YAML file and random plain data written by PyYAML in every
style read to the same data by both; texts broken at random positions, when both read them, to
the same data; a refused document named by the pure loader's words."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from solo_ops.core import documents
from solo_ops.core.documents import LOADERS, parse_yaml_text
from solo_ops.core.errors import InputError
from tests.support.budget import examples
from tests.support.paths import ROOT

SHIPPED = sorted([*ROOT.glob("scenarios/**/*.yaml"), *ROOT.glob("solo_ops/**/*.yaml")])

PLAIN = st.recursive(
    st.none() | st.booleans() | st.integers(-10**20, 10**20)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(min_size=1, max_size=8), inner, max_size=4),
    max_leaves=24,
)

two_loaders = pytest.mark.skipif(len(LOADERS) < 2, reason="PyYAML was built without libyaml")


def read(loader: Any, text: str) -> tuple[str, Any]:
    """``("data", value)`` or ``("refused", error name)`` for ``text`` read by ``loader``."""
    instance = None
    try:
        instance = loader(text)
        return "data", instance.get_single_data()
    except Exception as exc:  # any refusal, named by its kind
        return "refused", type(exc).__name__
    finally:
        if instance is not None:
            instance.dispose()


def test_the_pure_loader_is_the_last_word() -> None:
    assert LOADERS[-1].__name__ == "_StrictLoader"
    assert len(SHIPPED) > 30  # the glob found the shipped boards, rosters, squads and tables


@two_loaders
@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_every_shipped_file_reads_the_same_with_both(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    fast, pure = (read(loader, text) for loader in LOADERS)
    assert pure[0] == "data"
    assert fast == pure


@two_loaders
@settings(max_examples=examples(200), deadline=None)
@given(data=PLAIN, style=st.sampled_from([False, True, None]), unicode=st.booleans())
def test_data_written_by_pyyaml_reads_back_the_same_with_both(data: Any, style: bool | None,
                                                               unicode: bool) -> None:
    text = yaml.safe_dump({"value": data}, default_flow_style=style, allow_unicode=unicode)
    fast, pure = (read(loader, text) for loader in LOADERS)
    assert pure[0] == "data"  # (not always ``data`` again: PyYAML writes U+0085 raw, reads a space)
    assert fast == pure


NOISE = [*":-[]{},#&*!|>'\"%@`\t\n ?\\", "  ", "\n- ", ": ", "\u00a0", "~", "&a ", "*a", "<<: ",
         "---\n", "...\n", "0x1f", ".inf"]


@two_loaders
def test_texts_broken_at_random_mean_the_same_to_both_when_both_read_them() -> None:
    """Shipped texts with up to four characters inserted or removed at random (seeded):
    where both loaders read a text, the same data (most do; where the pure one refuses,
    :func:`parse_yaml_text` reads it with that one and its error is named, below)."""
    rng = random.Random(39)
    texts = [p.read_text(encoding="utf-8") for p in SHIPPED]
    both = 0
    tries = examples(2000)
    for _ in range(tries):
        text = rng.choice(texts)[: rng.randrange(200, 900)]
        for _ in range(rng.randint(1, 4)):
            k = rng.randrange(len(text) + 1)
            text = (text[:k] + rng.choice(NOISE) + text[k:] if rng.random() < 0.5
                    else text[:k] + text[k + rng.randint(1, 3):])
        fast, pure = (read(loader, text) for loader in LOADERS)
        if fast[0] == pure[0] == "data":
            both += 1
            assert fast == pure, text
    assert both > tries // 2  # the property was tested on many texts, not on a few


@two_loaders
@pytest.mark.parametrize("text", [
    "a: [1, 2\n", "a: 1\na: 2\n", "a: &x [*x]\n", "a:\n  - 1\n - 2\n", "a: \x07\n",
    "a: " + "[" * 45 + "]" * 45 + "\n", "a: *nowhere\n", "a: 'open\n",
], ids=["unclosed", "duplicate", "self-alias", "indent", "control", "deep", "alias", "quote"])
def test_a_refused_document_is_named_by_the_pure_loader(text: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(InputError) as both:
        parse_yaml_text(text, "broken.yaml")
    monkeypatch.setattr(documents, "LOADERS", LOADERS[-1:])
    with pytest.raises(InputError) as pure_only:
        parse_yaml_text(text, "broken.yaml")
    assert both.value.line() == pure_only.value.line()
    assert "broken.yaml" in both.value.line()
