"""001 Fight: "IMPROVE hit stat by 1 for every friendly also within Control Range of the target
AND no other enemy". Past 2+ more helpers change nothing; a fight with eight helpers (a high
engagement level crowding one target) is rolled, not refused as a hit bonus out of range."""

from __future__ import annotations

from types import SimpleNamespace

from solo_ops.core.dice import ScriptedDice
from solo_ops.core.model import Profile, Weapon, WeaponType
from solo_ops.game import attacks


def _fighter(name: str, hit: int) -> SimpleNamespace:
    blade = Weapon("blade", WeaponType.MELEE, attacks=2, hit=hit, damage=(3, 4))
    profile = Profile(name=name, base_mm=25.0, movement=6, leadership=6, toughness=3,
                      wounds=20, save=5, apl=2, weapons=(blade,))
    return SimpleNamespace(id=name, name=name, label=name, profile=profile, wounds=20,
                           injured=False)


def test_eight_helpers_hit_on_2_plus_as_four_do() -> None:
    """A 6+ blade with eight helpers hits on 2+ (6 - 4, the best a Hit stat gets), as with
    four: the two fights roll the same dice to the same result."""
    results = []
    for helpers in (4, 8):
        dice = ScriptedDice(faces=[1, 2, 6, 6] * 8)
        fought = attacks.roll_fight("kt2024", dice, _fighter("a", 6), _fighter("b", 6), helpers)
        results.append((fought.damage, fought.damage_taken))
        assert f"a has {helpers} friendly helper(s): hit 2+." in fought.lines
    assert results[0] == results[1]
