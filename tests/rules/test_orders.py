"""From models to units: troop type, ties and splits, the Leadership modifier and its cap."""

from __future__ import annotations

import pytest

from solo_ops.core.dice import ScriptedDice
from solo_ops.core.model import Profile, Weapon, WeaponType
from solo_ops.core.tables import TroopType, order_table
from solo_ops.io.roster import load_roster
from solo_ops.rules.orders import (
    command_radius,
    form_units,
    leadership_modifier,
    leads,
    model_troop_type,
    roll_command,
    troop_type,
)
from tests.support.paths import ROSTERS


def w(kind: str, name: str | None = None) -> Weapon:
    t = WeaponType(kind)
    return Weapon(name or kind, t, None if t is WeaponType.MELEE else 24.0)


def p(ld: int, *kinds: str, name: str = "m") -> Profile:
    return Profile(name, 6, ld, 3, 1, 5, 25, tuple(w(k, f"{k}{i}") for i, k in enumerate(kinds)))


@pytest.mark.parametrize(
    ("leadership", "modifier"),
    [(1, 0), (6, 0), (7, 0), (8, 1), (9, 2), (10, 3), (12, 5)],
)
def test_leadership_modifier(leadership: int, modifier: int) -> None:
    assert leadership_modifier(leadership) == modifier


@pytest.mark.parametrize(
    ("face", "leadership", "command"),
    [(1, 7, 1), (4, 7, 4), (6, 7, 6), (3, 8, 4), (5, 8, 6), (6, 8, 6), (4, 10, 6), (1, 10, 4)],
)
def test_command_is_d6_plus_modifier_capped_at_6(face: int, leadership: int, command: int) -> None:
    dice = ScriptedDice(faces=[face])
    roll = roll_command(dice, leadership)
    assert (roll.roll, roll.modifier, roll.command) == (face, max(0, leadership - 7), command)
    assert dice.log[0].value == command
    assert dice.log[0].faces == (face,)


def test_most_common_weapon_type_wins() -> None:
    models = [p(6, "rapid"), p(6, "rapid"), p(6, "melee")]
    assert troop_type(models) is TroopType.FIRE_TEAMS
    # counting every weapon (the older reading, ``troop_count: every_weapon``)
    assert troop_type([p(6, "melee"), p(6, "melee", "rapid")], "every_weapon") is TroopType.MELEE
    assert troop_type([p(6, "heavy"), p(6, "special"), p(6, "rapid")]) is TroopType.SUPPORT


def test_tie_goes_to_the_highest_leadership_model() -> None:
    assert troop_type([p(6, "rapid"), p(8, "melee")]) is TroopType.MELEE
    assert troop_type([p(9, "heavy"), p(8, "melee")]) is TroopType.SUPPORT


def test_full_tie_means_split() -> None:
    assert troop_type([p(8, "rapid"), p(8, "melee")]) is None


def test_sidearms_do_not_count_unless_nothing_else() -> None:
    assert troop_type([p(6, "melee", "pistol", "pistol")]) is TroopType.MELEE
    assert troop_type([p(6, "pistol")]) is TroopType.FIRE_TEAMS
    assert troop_type([p(6)]) is TroopType.MELEE  # no weapons at all: it fights in melee
    assert model_troop_type(p(6, "grenade")) is TroopType.SUPPORT


def test_supplement_split_example() -> None:
    """One Chaos Marine and one Khorne Berserker: types tie, Leadership ties, so the unit splits
    and both parts keep command 4 on their own tables (the supplement's worked example)."""
    roster = load_roster(ROSTERS / "traitor-cult.yaml")
    marine, berserker = roster.profiles["chaos-marine"], roster.profiles["berserker"]
    units = form_units([("marine", marine), ("berserker", berserker)], command=4)
    assert [(u.models, u.troop, u.command) for u in units] == [
        (("marine",), TroopType.FIRE_TEAMS, 4),
        (("berserker",), TroopType.MELEE, 4),
    ]
    assert units[0].order == order_table("fire-teams")[4]
    assert units[1].order == order_table("melee")[4]
    assert units[0].order.move.code == "hold_12"
    assert units[1].order.move.code == "towards_closest_enemy"


def test_split_keeps_every_model() -> None:
    models = [("a", p(8, "rapid")), ("b", p(8, "melee")), ("c", p(5, "rapid")),
              ("d", p(5, "melee"))]
    units = form_units(models, command=2)
    assert sorted(m for u in units for m in u.models) == ["a", "b", "c", "d"]
    assert all(u.command == 2 for u in units)


def test_unit_without_tie_keeps_together() -> None:
    roster = load_roster(ROSTERS / "traitor-cult.yaml")
    cultist = roster.profiles["cultist"]
    units = form_units([("c1", cultist), ("c2", cultist)], command=3)
    assert len(units) == 1
    assert units[0].troop is TroopType.FIRE_TEAMS
    assert units[0].leadership == 6


def test_leaders_and_command_radius() -> None:
    assert leads(8, 6)
    assert not leads(7, 7)
    assert not leads(6, 8)
    assert command_radius(8) == 8.0


def test_form_units_rejects_bad_command() -> None:
    with pytest.raises(ValueError):
        form_units([("a", p(6, "rapid"))], command=7)
