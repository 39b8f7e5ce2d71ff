"""The shipped weapons play their Kill Team 2018 type (``type_2018``), not the supplement's
troop-type category (``type``): the plasma gun (``special``; 2018 "24" Rapid Fire 1") makes two
hit rolls within half range, the big shoota (``heavy``; 2018 "36" Assault 3") makes three, never
six, takes no Heavy -1 after a move and may fire after an Advance at -1 (004 ASSAULT "You can
choose to shoot with a model with an Assault weapon ... even if it Advanced ... you must
subtract 1 from any hit rolls"), the heavy bolter (``heavy``, Heavy 3) is -1 after a move (004
HEAVY "If a model with a Heavy weapon moved in the preceding Movement phase, you must subtract 1
from any hit rolls"). Rapid Fire: the Core Manual's "doubles the number of attacks it makes if
its target is within half the weapon's maximum range"."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from solo_ops.core.model import Weapon
from solo_ops.game import attacks
from solo_ops.game.engine import step
from solo_ops.io.roster import load_roster
from solo_ops.io.yamlio import read_document
from solo_ops.rules import kt2018
from tests.support.pariah_table import rolls, shooting_phase
from tests.support.paths import ROSTERS


def _shipped(roster: str, profile: str) -> dict[str, Any]:
    return copy.deepcopy(read_document(ROSTERS / f"{roster}.yaml")["profiles"][profile])


def _hit_rolls(shooter: dict[str, Any], weapon: str, gap: float) -> int:
    game, state = shooting_phase(shooter, gap)
    since = len(state.log)
    step(game, state, {"type": "activate", "operative": "a1"})
    step(game, state, {"type": "shoot", "target": "e1", "weapon": weapon, "roll": True})
    return sum(1 for r in rolls(state, since)
               if r["purpose"].startswith(f"a1 shoots e1 ({weapon})") and ": hit roll " in
               r["purpose"])


@pytest.mark.parametrize(("gap", "shots"), [(9.0, 2), (16.0, 1)])
def test_the_rapid_fire_plasma_gun_doubles_within_half_range(gap: float, shots: int) -> None:
    """Plasma gun, Rapid Fire 1, 24": two hit rolls 9" away (within 12"), one at 16"."""
    assert _hit_rolls(_shipped("militarum-platoon", "plasma-gunner"), "plasma gun", gap) == shots


@pytest.mark.parametrize("gap", [9.0, 20.0])
def test_the_assault_big_shoota_never_doubles(gap: float) -> None:
    """Big shoota, Assault 3, 36": three hit rolls within half range (18") and beyond it."""
    assert _hit_rolls(_shipped("ork-mob", "big-shoota"), "big shoota", gap) == 3


class _Op:
    """A model for :func:`attacks.attack_2018`: its 2018 profile, place, base and state."""

    def __init__(self, roster: str, key: str, at: tuple[float, float],
                 moved_how: str | None = None) -> None:
        self.profile = load_roster(ROSTERS / f"{roster}.yaml").profiles[key].for_edition(
            "kt2018")
        self.at, self.radius, self.wounds, self.flesh_wounds = at, 0.5, 1, 0
        self.moved_how, self.advanced = moved_how, moved_how == "advance"


def _weapon(op: _Op, name: str) -> Weapon:
    return next(w for w in op.profile.weapons if w.name == name)


def test_heavy_and_assault_read_the_2018_type_after_a_move() -> None:
    target = _Op("traitor-cult", "cultist", (10.0, 0.0))
    orks = _Op("ork-mob", "big-shoota", (0.0, 0.0), moved_how="normal")
    attack = attacks.attack_2018(_weapon(orks, "big shoota"), orks, target)
    assert attack is not None and attack.shots_factor == 1
    assert ("Heavy, moved", -1) not in attack.hit_modifiers
    guard = _Op("militarum-platoon", "heavy-bolter", (0.0, 0.0), moved_how="normal")
    attack = attacks.attack_2018(_weapon(guard, "heavy bolter"), guard, target)
    assert attack is not None and ("Heavy, moved", -1) in attack.hit_modifiers
    advanced = _Op("ork-mob", "big-shoota", (0.0, 0.0), moved_how="advance")
    shoota = _weapon(advanced, "big shoota")
    assert kt2018.may_fire_after(shoota.kt2018_type, "advance")
    attack = attacks.attack_2018(shoota, advanced, target)
    assert attack is not None and ("Assault, advanced", -1) in attack.hit_modifiers
    assert not kt2018.may_fire_after(_weapon(guard, "heavy bolter").kt2018_type, "advance")


def test_the_synaptic_disintegrator_is_rapid_fire_at_24_inches() -> None:
    """Deathmark's synaptic disintegrator, 2018 "24" Rapid Fire 1" (its roster type ``heavy``
    is the supplement's Support): doubled 12" away, at long range 13" away, no Heavy -1."""
    mark = _Op("necron-patrol", "deathmark", (0.0, 0.0), moved_how="normal")
    gun = _weapon(mark, "synaptic disintegrator")
    near = attacks.attack_2018(gun, mark, _Op("traitor-cult", "cultist", (13.0, 0.0)))
    far = attacks.attack_2018(gun, mark, _Op("traitor-cult", "cultist", (14.0, 0.0)))
    assert near is not None and near.shots_factor == 2 and not near.long_range
    assert far is not None and far.shots_factor == 1 and far.long_range
    assert not near.heavy_moved


def test_the_planners_odds_count_the_plasma_guns_second_shot() -> None:
    """The enemy's planner asks the odds with the 2018 type: plasma gun (BS 4+: hit 1/2; S 7
    against T 3: wound 2+, 5/6; AP -3 against Sv 6+: no save) against a cultist (1 wound):
    one shot 5/12; two shots 1 - (7/12)^2 = 95/144."""
    gunner = _Op("militarum-platoon", "plasma-gunner", (0.0, 0.0))
    cultist = _Op("traitor-cult", "cultist", (30.0, 0.0))
    expected = attacks.expected_for("kt2018")
    gun = _weapon(gunner, "plasma gun")
    assert expected(gun, gunner, cultist, None, distance=10.0) == pytest.approx(95 / 144)
    assert expected(gun, gunner, cultist, None, distance=13.0) == pytest.approx(5 / 12)
