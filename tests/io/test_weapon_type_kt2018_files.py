"""A weapon's Kill Team 2018 type in a roster (``type_2018``): read beside ``type``, which stays
the solo supplement's troop-type category (003 "Troop types ... Fire Teams ... Support"), the way
``range_2018`` sits beside ``range``. Good values (rapid, assault, heavy, pistol, grenade) load;
anything else, or a 2018 type on a melee weapon, is refused in one line naming the file and the
field (shared/INTERFACES.md "Bad input ... exits non-zero with one line on stderr naming the file
and the field")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from solo_ops.cli import main
from solo_ops.core.documents import parse_yaml_text
from solo_ops.core.errors import InputError
from solo_ops.core.model import Roster, WeaponType
from solo_ops.io.roster import parse_roster

ROSTER = """
name: Test
profiles:
  gunner:
    movement: 6
    wounds: 7
    save: 5
    weapons:
      - {name: plasma gun, type: special, type_2018: rapid, range_2018: 24, shots: 1}
      - {name: knife, type: melee}
table: {1: gunner, 2: gunner, 3: gunner, 4: gunner, 5: gunner, 6: gunner}
"""


def _load(text: str) -> Roster:
    return parse_roster(parse_yaml_text(text, "r.yaml"), "r.yaml")


@pytest.mark.parametrize("kind", ["rapid", "assault", "heavy", "pistol", "grenade"])
def test_each_2018_type_is_read_beside_the_troop_type(kind: str) -> None:
    gun = _load(ROSTER.replace("type_2018: rapid", f"type_2018: {kind}")).profiles[
        "gunner"].weapons[0]
    assert gun.type is WeaponType.SPECIAL  # the supplement's category, unchanged
    assert gun.kt2018_type is WeaponType(kind)
    assert gun.kt2018_type == kind


def test_without_type_2018_the_2018_rules_read_type_as_before() -> None:
    gun = _load(ROSTER.replace("type_2018: rapid, ", "")).profiles["gunner"].weapons[0]
    assert gun.type_2018 is None and gun.kt2018_type is WeaponType.SPECIAL
    knife = _load(ROSTER).profiles["gunner"].weapons[1]
    assert knife.kt2018_type is WeaponType.MELEE


def test_the_kt2018_variant_keeps_both_types() -> None:
    """The profile's 2018 variant takes ``range_2018`` as its range and keeps ``type`` (the
    troop type of a 2018 game reads it) and ``type_2018``."""
    gun = _load(ROSTER).profiles["gunner"].for_edition("kt2018").weapons[0]
    assert (gun.range, gun.type, gun.kt2018_type) == (24.0, WeaponType.SPECIAL,
                                                      WeaponType.RAPID)


@pytest.mark.parametrize(("change", "message"), [
    (("type_2018: rapid", "type_2018: special"), "unknown value 'special' (expected one of: "
                                                 "rapid, assault, heavy, pistol, grenade)"),
    (("type_2018: rapid", "type_2018: laser"), "unknown value 'laser'"),
    (("type_2018: rapid", "type_2018: melee"), "unknown value 'melee'"),
    (("type_2018: rapid", "type_2018: 3"), "unknown value 3"),
])
def test_an_unknown_2018_type_names_the_file_and_field(change: tuple[str, str],
                                                       message: str) -> None:
    with pytest.raises(InputError) as caught:
        _load(ROSTER.replace(*change))
    text = str(caught.value)
    assert text.startswith("r.yaml: profiles.gunner.weapons[0].type_2018: "), text
    assert message in text and "\n" not in text


def test_a_melee_weapon_has_no_2018_ranged_type() -> None:
    with pytest.raises(InputError) as caught:
        _load(ROSTER.replace("{name: knife, type: melee}",
                             "{name: knife, type: melee, type_2018: pistol}"))
    assert str(caught.value) == ("r.yaml: profiles.gunner.weapons[1].type_2018: a melee weapon "
                                 "has no Kill Team 2018 ranged type")


def test_the_command_refuses_a_bad_2018_type_in_one_line(tmp_path: Path, runner: Any) -> None:
    path = tmp_path / "my-roster.yaml"
    path.write_text(ROSTER.replace("type_2018: rapid", "type_2018: special"))
    result = runner.invoke(main, ["orders", "unit", "--roster", str(path), "--seed", "1"])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr
    assert f"{path}: profiles.gunner.weapons[0].type_2018: unknown value 'special'" in lines[0]
    good = tmp_path / "good-roster.yaml"
    good.write_text(ROSTER)
    assert runner.invoke(main, ["orders", "unit", "--roster", str(good), "--seed", "1"]
                         ).exit_code == 0
