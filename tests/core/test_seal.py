"""The seal of a saved document: any change after it was written is found and the first part that
changed is named; the items of a list are a hash chain; every field is covered, those a later
version adds included."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from solo_ops.core.seal import SEAL_KEY, problem, seal, sealed


def campaign() -> dict[str, Any]:
    """A campaign-shaped document (the seal knows nothing of campaigns)."""
    return {"kind": "solo-ops-campaign", "schema_version": 3, "name": "C",
            "squads": [{"player": "Ana", "models": [
                {"id": "kell", "state": "active", "profile": {"wounds": 8, "weapons": [
                    {"name": "bolt pistol", "attacks": 4}]}},
                {"id": "rask", "state": "fallen", "profile": {"wounds": 7}}]}],
            "history": [{"mission": 1, "survival_tests": [{"name": "rask", "roll": 5}]},
                        {"mission": 2, "survival_tests": []},
                        {"event": "replacement", "fallen": "rask"}]}


def sealed_campaign() -> dict[str, Any]:
    return sealed(campaign(), 5)


@pytest.mark.parametrize(("edit", "field", "why"), [
    (lambda d: d["squads"][0]["models"][1].update(state="active"),  # a fallen model back
     "squads[0].models[1].state", "was edited"),
    (lambda d: d["squads"][0]["models"][0]["profile"].update(wounds=99),
     "squads[0].models[0].profile", "was edited"),
    (lambda d: d["squads"][0]["models"][0]["profile"]["weapons"][0].update(attacks=12),
     "squads[0].models[0].profile", "was edited"),
    (lambda d: d["history"][0]["survival_tests"][0].update(roll=1),  # a survival roll
     "history[0].survival_tests[0].roll", "was edited"),
    (lambda d: d["squads"][0]["models"].append(copy.deepcopy(d["squads"][0]["models"][0])),
     "squads[0].models[2]", "was added"),  # a cloned model
    (lambda d: d.update(name="D"), "name", "was edited"),
    (lambda d: d.update(chronicle=["a later version's field"]), "chronicle", "was added"),
    (lambda d: d.pop("name"), "name", "was removed"),
])
def test_an_edit_is_found_and_its_field_named(edit: Any, field: str, why: str) -> None:
    doc = sealed_campaign()
    assert problem(doc) is None
    edit(doc)
    found = problem(doc)
    assert found is not None and found[0] == field and found[1].startswith(why), found


def test_the_history_is_a_hash_chain() -> None:
    """Each item's digest covers the one before: an entry taken out of the middle, or two
    swapped, changes every digest after it, and the first place that differs is named."""
    doc = sealed_campaign()
    parts = doc[SEAL_KEY]["parts"]
    swapped = copy.deepcopy(doc)
    swapped["history"][0], swapped["history"][1] = swapped["history"][1], swapped["history"][0]
    assert problem(swapped) == ("history[0].mission", "was edited after it was saved (it does "
                                                      "not match the file's seal)")
    cut = copy.deepcopy(doc)
    del cut["history"][1]
    assert problem(cut) is not None and problem(cut)[0].startswith("history[1]")  # type: ignore[index]
    # the chain: the same entry at another place has another digest
    again = seal({"history": [doc["history"][1]]}, 5)["parts"]["history[0]"]
    assert again != parts["history[1]"]


def test_the_seal_covers_any_field_and_ignores_key_order() -> None:
    doc = campaign()
    doc["injuries_v2"] = {"kell": [{"mission": 2, "note": "a later version's field"}]}
    sealed(doc, 5)
    reordered = json.loads(json.dumps(dict(reversed(list(doc.items())))))
    assert problem(reordered) is None
    reordered["injuries_v2"]["kell"][0]["mission"] = 3
    assert problem(reordered)[0] == "injuries_v2.kell[0].mission"  # type: ignore[index]


def test_a_damaged_or_edited_seal_is_named() -> None:
    doc = sealed_campaign()
    doc[SEAL_KEY]["whole"] = "0" * 64
    assert problem(doc) == ("seal", "the seal does not match the file (it was edited)")
    doc[SEAL_KEY] = {"version": 1}
    assert problem(doc) == ("seal", "the seal is damaged")
    # a part's digest edited alone changes nothing the seal proves: the whole still matches
    doc = sealed_campaign()
    doc[SEAL_KEY]["parts"]["name"] = "000000000000"
    assert problem(doc) is None


def test_a_shallow_seal_names_top_level_fields() -> None:
    """A game save is sealed one level deep: its ``actions``, ``checkpoint``..."""
    doc = sealed({"actions": [{"type": "engine"}], "seed": 3, "snapshot": {"turn": 1}}, 1)
    assert set(doc[SEAL_KEY]["parts"]) == {"actions", "seed", "snapshot"}
    doc["actions"][0]["type"] = "done"
    assert problem(doc)[0] == "actions"  # type: ignore[index]
