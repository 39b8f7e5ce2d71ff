"""Weapon rules as other tools write them, read into the combat engine's rule names."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solo_ops.core.model import WEAPON_RULES, parse_weapon_rule
from solo_ops.io.importers.weapons import (
    shape_distance,
    split_rules,
    translate_rules,
    translate_token,
)


@pytest.mark.parametrize(("cell", "rules", "unknown"), [
    # Kill Team 2024 (BattleScribe / New Recruit "WR")
    ('Range 8", Hot, Lethal 5+, Piercing 1', ["range=8", "hot", "lethal=5", "piercing=1"], []),
    ("Heavy (Dash only), Ceaseless, Piercing Crits 1",
     ["heavy=dash", "ceaseless", "piercing_crits=1"], []),
    ("Heavy (**Reposition** only)", ["heavy=reposition"], []),
    ('Blast 2", Saturate, Seek Light, Silent', ["blast=2", "saturate", "seek_light", "silent"],
     []),
    ('1" Devastating 2, Torrent 1"', ["devastating=1:2", "torrent=1"], []),
    ("Accurate 1, Balanced, Brutal, Punishing, Relentless, Rending, Severe, Shock, Stun, Seek",
     ["accurate=1", "balanced", "brutal", "punishing", "relentless", "rending", "severe",
      "shock", "stun", "seek"], []),
    ("Limited 1, Devastating 3", ["limited=1", "devastating=3"], []),
    # KTDash / killteamjson short codes
    ('Rng 8", PrcCrit1', ["range=8", "piercing_crits=1"], []),
    ("Hvy (DashOnly), Sat, Dev3, Prc1, Bal, Sev, Rlt, Rnd, Sil",
     ["heavy=dash", "saturate", "devastating=3", "piercing=1", "balanced", "severe",
      "relentless", "rending", "silent"], []),
    ("Tor1\", Acc1, Lim", ["torrent=1", "accurate=1", "limited=1"], []),
    # Kill Team 2021: shapes and crit rules
    ("Rng ⬟, AP1", ["range=6", "piercing=1"], []),
    ("Rng ⬟, Torrent ⬤, MW3, P1", ["range=6", "torrent=2", "devastating=3",
                                  "piercing_crits=1"], []),
    ("Rng [SQUARE], Torrent [TRI], Splash 1", ["range=3", "torrent=1", "devastating=2:1"], []),
    # what the engine does not play is kept as text, never dropped
    ("Poison*, Indirect, Anti-PSYKER*, Lethal 5+", ["lethal=5"],
     ["Poison*", "Indirect", "Anti-PSYKER*"]),
    ("-", [], []),
    ("", [], []),
])
def test_rule_cells(cell: str, rules: list[str], unknown: list[str]) -> None:
    reading = translate_rules(split_rules(cell))
    assert reading.rules == rules
    assert reading.unknown == unknown


def test_two_accurate_make_accurate_2() -> None:
    # 002: "Stacking Accurate x's are treated as Accurate 2"
    assert translate_rules(["Accurate 1", "Accurate 1"]).rules == ["accurate=2"]


def test_split_keeps_parentheses_together() -> None:
    assert split_rules('Heavy (Dash only, really), Range 9"') == \
        ["Heavy (Dash only, really)", 'Range 9"']


@pytest.mark.parametrize(("text", "inches"), [
    ("3⬤", 6.0), ("2⬤", 4.0), ("⬟", 6.0), ("▲", 1.0), ("2■", 6.0), ("3[CIRCLE]", 6.0),
    ('6"', None), ("abc", None),
])
def test_2021_distances(text: str, inches: float | None) -> None:
    assert shape_distance(text) == inches


# Every rule written by the importer is one the roster loader's parser accepts unchanged.
_TOKENS = st.sampled_from([
    "Range 8\"", "Rng 6\"", "Lethal 4+", "Piercing 2", "Prc1", "PrcCrit1", "Devastating 4",
    "Dev2", "MW3", "P1", "AP2", "Blast 2\"", "Torrent 1\"", "Hvy (DashOnly)", "Heavy",
    "Accurate 2", "Limited 2", "Silent", "Stun", "Sat", "Seek Light", "Poison*", "Indirect",
    "2\" Devastating 1", "Rng ⬟", "Torrent ⬤", "Splash 2",
])


@given(st.lists(_TOKENS, max_size=8))
def test_translated_rules_parse_back(tokens: list[str]) -> None:
    reading = translate_rules(tokens)
    names = [parse_weapon_rule(r).name for r in reading.rules]
    assert len(names) == len(set(names))  # one of each rule
    assert all(name in WEAPON_RULES for name in names)
    assert [parse_weapon_rule(r).text() for r in reading.rules] == reading.rules
    # nothing lost: every token is a rule of the weapon or kept as text
    for token in tokens:
        text = translate_token(token)
        if text is None:
            assert token in reading.unknown
        else:
            assert parse_weapon_rule(text).name in names
