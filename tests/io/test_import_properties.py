"""Property: whatever operatives a 2024 BattleScribe roster or KTDash roster holds, the import reads
back exactly the values written into the file, and the project's roster loader accepts them.

The files are generated here from random operatives (hypothesis), in the two layouts, so the
expected values are known independently of the importer.
"""

from __future__ import annotations

import json
from xml.sax.saxutils import escape, quoteattr

from hypothesis import given, settings
from hypothesis import strategies as st

from solo_ops.io.importers import LeadershipPolicy, parse_team
from solo_ops.io.importers.output import roster_document, squad_document
from solo_ops.io.roster import parse_roster
from tests.support.budget import examples

# (text as the file writes it, rule as solo-ops writes it)
RULES = [("Range 8\"", "range=8"), ("Lethal 5+", "lethal=5"), ("Piercing 1", "piercing=1"),
         ("Piercing Crits 2", "piercing_crits=2"), ("Devastating 3", "devastating=3"),
         ("Balanced", "balanced"), ("Ceaseless", "ceaseless"), ("Rending", "rending"),
         ("Saturate", "saturate"), ("Severe", "severe"), ("Shock", "shock"),
         ("Stun", "stun"), ("Accurate 1", "accurate=1"), ("Hot", "hot")]

names = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Zl", "Zp")),
                min_size=1, max_size=12).map(str.strip).filter(bool)
weapon = st.fixed_dictionaries({
    "name": names, "melee": st.booleans(), "atk": st.integers(1, 8), "hit": st.integers(2, 6),
    "normal": st.integers(0, 7), "crit": st.integers(0, 9),
    "rules": st.lists(st.sampled_from(RULES), unique_by=lambda r: r[1].split("=")[0],
                      max_size=4),
})
operative = st.fixed_dictionaries({
    "type": names, "custom": st.one_of(st.none(), names), "apl": st.integers(1, 4),
    "move": st.integers(2, 9), "save": st.integers(2, 6), "wounds": st.integers(5, 20),
    "leader": st.booleans(),
    "weapons": st.lists(weapon, min_size=1, max_size=3, unique_by=lambda w: w["name"]),
})
teams = st.lists(operative, min_size=1, max_size=6)


def _ros(ops: list[dict]) -> bytes:
    parts = []
    for op in ops:
        custom = f" customName={quoteattr(op['custom'])}" if op["custom"] else ""
        weapons = "".join(
            f'<selection name={quoteattr(w["name"])} type="upgrade"><profiles>'
            f'<profile name={quoteattr(("⚔ " if w["melee"] else "⌖ ") + w["name"])} '
            'typeName="Weapons"><characteristics>'
            f'<characteristic name="ATK">{w["atk"]}</characteristic>'
            f'<characteristic name="HIT">{w["hit"]}+</characteristic>'
            f'<characteristic name="DMG">{w["normal"]}/{w["crit"]}</characteristic>'
            f'<characteristic name="WR">{escape(", ".join(r[0] for r in w["rules"]))}'
            "</characteristic></characteristics></profile></profiles></selection>"
            for w in op["weapons"])
        leader = '<category name="Leader"/>' if op["leader"] else ""
        parts.append(
            f'<selection name={quoteattr(op["type"])}{custom} type="model" number="1">'
            f'<profiles><profile name={quoteattr(op["type"])} typeName="Operative">'
            f'<characteristics><characteristic name="APL">{op["apl"]}</characteristic>'
            f'<characteristic name="Move">{op["move"]}&quot;</characteristic>'
            f'<characteristic name="Save">{op["save"]}+</characteristic>'
            f'<characteristic name="Wounds">{op["wounds"]}</characteristic>'
            "</characteristics></profile></profiles>"
            f"<selections>{weapons}</selections><categories>{leader}</categories></selection>")
    return ('<?xml version="1.0" encoding="UTF-8"?><roster name="r" '
            'gameSystemName="Warhammer 40,000: Kill Team (2024)" '
            'xmlns="http://www.battlescribe.net/schema/rosterSchema"><forces><force '
            f'catalogueName="c"><selections>{"".join(parts)}</selections></force></forces>'
            "</roster>").encode()


def _ktdash(ops: list[dict]) -> bytes:
    doc = {"rosterName": "r", "ops": [{
        "opName": op["custom"] or op["type"], "opTypeName": op["type"],
        "MOVE": f'{op["move"]}"', "APL": op["apl"], "SAVE": f'{op["save"]}+',
        "WOUNDS": op["wounds"], "keywords": "TEAM, LEADER" if op["leader"] else "TEAM",
        "opType": {"basesize": 32},
        "weapons": [{"wepName": w["name"], "wepType": "M" if w["melee"] else "R",
                     "profiles": [{"profileName": "", "ATK": str(w["atk"]),
                                   "HIT": f'{w["hit"]}+', "DMG": f'{w["normal"]}/{w["crit"]}',
                                   "WR": ", ".join(r[0] for r in w["rules"])}]}
                    for w in op["weapons"]]} for op in ops]}
    return json.dumps(doc, ensure_ascii=False).encode("utf-8")


def _check(ops: list[dict], data: bytes, source: str) -> None:
    team = parse_team(data, source, LeadershipPolicy())
    assert len(team.operatives) == len(ops)
    for op, got in zip(ops, team.operatives, strict=True):
        assert got.name == (op["custom"] or op["type"])
        p = got.profile
        assert (p["name"], p["apl"], p["movement"], p["save"], p["wounds"], p["leadership"]) \
            == (op["type"], op["apl"], op["move"], op["save"], op["wounds"],
                8 if op["leader"] else 7)
        assert len(p["weapons"]) == len(op["weapons"])
        for w, gw in zip(op["weapons"], p["weapons"], strict=True):
            expected_rules = [r[1] for r in w["rules"]]
            if w["melee"]:  # a Range rule on a melee weapon is kept as text
                expected_rules = [r for r in expected_rules if not r.startswith("range")]
            assert (gw["attacks"], gw["hit"], gw["damage"], gw["rules"]) == \
                (w["atk"], w["hit"], [w["normal"], w["crit"]], expected_rules)
            assert (gw["type"] == "melee") == w["melee"]
            assert gw["name"] == w["name"]
    parse_roster(roster_document(team)[0], "r.yaml")  # the loader takes every result
    squad_document(team, "Ana")


@settings(max_examples=examples(60), deadline=None)
@given(teams)
def test_battlescribe_2024_values_come_back_exactly(ops: list[dict]) -> None:
    _check(ops, _ros(ops), "r.ros")


@settings(max_examples=examples(60), deadline=None)
@given(teams)
def test_ktdash_values_come_back_exactly(ops: list[dict]) -> None:
    _check(ops, _ktdash(ops), "r.json")
