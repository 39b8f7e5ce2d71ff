"""Roster files: the shipped ones load; bad ones get one clear error naming file and field."""

from __future__ import annotations

from pathlib import Path

import pytest

from solo_ops.core.documents import parse_yaml_text
from solo_ops.core.errors import InputError
from solo_ops.core.model import WeaponRule, WeaponType, parse_weapon_rule
from solo_ops.io.roster import load_roster, parse_roster
from tests.support.paths import ROSTERS

SHIPPED = sorted(ROSTERS.glob("*.yaml"))


def test_at_least_the_example_and_three_more_rosters() -> None:
    assert len(SHIPPED) >= 4
    assert (ROSTERS / "traitor-cult.yaml") in SHIPPED


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_shipped_roster_loads_with_a_mix_of_weapons(path: Path) -> None:
    roster = load_roster(path)
    assert sorted(roster.table) == [1, 2, 3, 4, 5, 6]
    kinds = {w.type for prof in roster.profiles.values() for w in prof.weapons}
    assert WeaponType.MELEE in kinds
    assert kinds & {WeaponType.RAPID, WeaponType.HEAVY, WeaponType.SPECIAL}
    for prof in roster.profiles.values():
        assert prof.weapons, prof.name
        for weapon in prof.weapons:
            assert weapon.attacks and weapon.hit and weapon.damage, (prof.name, weapon.name)
        old = prof.for_edition("kt2018")
        assert old.ws and old.bs and old.strength and old.attacks


def test_supplement_example_roster() -> None:
    roster = load_roster(ROSTERS / "traitor-cult.yaml")
    assert roster.table == {1: "cultist", 2: "cultist", 3: "cultist", 4: "chaos-marine",
                            5: "berserker", 6: "berserker"}
    assert roster.profile_for_roll(5).name == "Khorne Berserker"
    cultist = roster.profiles["cultist"]
    assert cultist.for_edition("kt2018").wounds == 1
    assert cultist.for_edition("kt2024").wounds == 7


GOOD = """
name: Test
profiles:
  grunt:
    movement: 6
    wounds: 7
    save: 5
    weapons:
      - {name: gun, type: rapid, range: 24}
table: {1: grunt, 2: grunt, 3: grunt, 4: grunt, 5: grunt, 6: grunt}
"""


def load_text(text: str) -> object:
    return parse_roster(parse_yaml_text(text, "r.yaml"), "r.yaml")


def test_defaults_for_2024_profiles() -> None:
    roster = load_text(GOOD)
    grunt = roster.profiles["grunt"]  # type: ignore[attr-defined]
    assert (grunt.leadership, grunt.toughness, grunt.base_mm, grunt.apl, grunt.defence_dice) == (
        7, 3, 32.0, 2, 3)


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        (("type: rapid", "type: laser"), "profiles.grunt.weapons[0].type", "unknown value 'laser'"),
        (("movement: 6", "movement: fast"), "profiles.grunt.movement", "expected a number"),
        (("wounds: 7", "wounds: 0"), "profiles.grunt.wounds", "at least 1"),
        (("save: 5", "sav: 5"), "profiles.grunt.sav", "unknown key"),
        (("6: grunt}", "6: ogre}"), "table.6", "not a profile"),
        (("6: grunt}", "7: grunt}"), "table.7", "extra face"),
        (("5: grunt, 6: grunt}", "5: grunt}"), "table", "missing face 6"),
        (("range: 24}", "range: 24, rules: [lethal]}"), "profiles.grunt.weapons[0].rules[0]",
         "needs a value"),
        (("range: 24}", "range: 24, rules: [sneaky]}"), "profiles.grunt.weapons[0].rules[0]",
         "unknown weapon rule"),
        (("    wounds: 7\n", ""), "profiles.grunt.wounds", "is required"),
    ],
)
def test_bad_roster_names_file_and_field(change: tuple[str, str], field: str, message: str) -> None:
    text = GOOD.replace(*change)
    assert text != GOOD
    with pytest.raises(InputError) as err:
        load_text(text)
    assert err.value.source == "r.yaml"
    assert err.value.field == field
    assert message in err.value.message
    assert err.value.line().startswith(f"r.yaml: {field}: ")


@pytest.mark.parametrize("value", ["-1", "0", "13"])
def test_a_shared_value_is_named_where_it_is_written_beside_edition_overrides(
        value: str) -> None:
    """A profile with a ``kt2018:`` mapping: a bad Toughness written among the shared values
    is named there (``profiles.grunt.toughness``), not under the edition the file does not
    write it in (a play-tester read ``profiles.grunt.kt2018.toughness``)."""
    text = GOOD.replace("    save: 5\n", f"    save: 5\n    toughness: {value}\n"
                                          "    kt2018: {wounds: 1}\n")
    with pytest.raises(InputError) as err:
        load_text(text)
    assert err.value.field == "profiles.grunt.toughness"
    # a bad value under the edition is still named there
    text = GOOD.replace("    save: 5\n", f"    save: 5\n    kt2018: {{toughness: {value}}}\n")
    with pytest.raises(InputError) as err:
        load_text(text)
    assert err.value.field == "profiles.grunt.kt2018.toughness"


def test_malformed_yaml_names_the_line(tmp_path: Path) -> None:
    bad = tmp_path / "broken.yaml"
    bad.write_text("name: x\nprofiles: [unclosed\n")
    with pytest.raises(InputError) as err:
        load_roster(bad)
    assert err.value.source == str(bad)
    assert err.value.field and err.value.field.startswith("line ")


def test_missing_roster_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="file not found"):
        load_roster(tmp_path / "nope.yaml")


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("lethal=5", WeaponRule("lethal", 5)),
        ("Lethal 5+", None),
        ("piercing_crits=1", WeaponRule("piercing_crits", 1)),
        ("seek-light", WeaponRule("seek_light")),
        ("devastating=3", WeaponRule("devastating", 3)),
        ("devastating=1:3", WeaponRule("devastating", (1.0, 3))),
        ("heavy=dash", WeaponRule("heavy", "dash")),
        ("torrent=2", WeaponRule("torrent", 2.0)),
    ],
)
def test_weapon_rule_parsing(text: str, rule: WeaponRule | None) -> None:
    if rule is None:
        with pytest.raises(ValueError):
            parse_weapon_rule(text)
    else:
        assert parse_weapon_rule(text) == rule
