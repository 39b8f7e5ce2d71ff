"""Kill Team 2018's hit modifiers for moving and for firing points (004).

* HEAVY: "If a model with a Heavy weapon moved in the preceding Movement phase, you must
  subtract 1 from any hit rolls made when firing that weapon this battle round."
* ASSAULT: "... even if it Advanced earlier in that battle round. If it does so, it can only
  fire Assault weapons, and you must subtract 1 from any hit rolls".
* Firing points: "if any part of its base is on a firing point ... If that line lies within
  the firing arc ... add 1 to the hit roll for that attack."

The rules are :mod:`solo_ops.rules.kt2018` and the odds
:func:`solo_ops.rules.odds_2018.attack_2018`.
Reading: docs/rules.md, "Kill Team 2018 (Pariah Nexus): phases and reactions".
"""

from __future__ import annotations

from fractions import Fraction


def _attack(**kw: object) -> object:
    from solo_ops.core.model import DiceExpr
    from solo_ops.rules import kt2018

    return kt2018.Attack2018(shots=DiceExpr(0, 0, 1), skill=4, strength=4, **kw)  # type: ignore


def test_heavy_assault_and_firing_point_hit_modifiers() -> None:
    """004 Heavy: "If a model with a Heavy weapon moved in the preceding Movement phase, you
    must subtract 1 from any hit rolls made when firing that weapon this battle round."
    Assault: "... even if it Advanced ... you must subtract 1 from any hit rolls". Firing
    points: "it is said to be benefiting from that firing point: add 1 to the hit roll".
    BS 4+: 3/6 to hit; -1 needs 5+ (2/6); +1 needs 3+ (4/6)."""
    from solo_ops.rules import kt2018
    from solo_ops.rules.odds_2018 import attack_2018

    target = kt2018.Target2018(toughness=4, save=7, wounds=1)
    p_hit = {name: attack_2018(_attack(**kw), target).extras["p_hit"]  # type: ignore[arg-type]
             for name, kw in (("plain", {}), ("heavy", {"heavy_moved": True}),
                              ("assault", {"assault_advanced": True}),
                              ("point", {"firing_point": True}))}
    assert p_hit == {"plain": Fraction(3, 6), "heavy": Fraction(2, 6),
                     "assault": Fraction(2, 6), "point": Fraction(4, 6)}
    assert kt2018.heavy_moved("heavy", "normal") and not kt2018.heavy_moved("heavy", None)
    assert not kt2018.heavy_moved("rapid", "normal")
    assert kt2018.assault_advanced("assault", True) and not kt2018.assault_advanced("rapid", True)
    assert kt2018.may_fire_after("assault", "advance")
    assert not kt2018.may_fire_after("rapid", "advance")
    assert not kt2018.may_fire_after("assault", "fall_back")
    assert kt2018.may_fire_after("heavy", "normal")


def test_firing_point_needs_the_base_on_it_and_the_target_in_its_arc() -> None:
    """004: "if any part of its base is on a firing point ... If that line lies within the
    firing arc ... add 1". A firing point 0-2 x 0-2 overlooking the arc x 0-2, y 2-10."""
    from types import SimpleNamespace

    from shapely.geometry import box

    from solo_ops.rules import kt2018

    fp = SimpleNamespace(id="fp-1", area=box(0, 0, 2, 2), arc=box(0, 2, 2, 10))
    assert kt2018.on_firing_point([fp], (1, 1), 0.5, (1, 8), 0.5) == "fp-1"
    assert kt2018.on_firing_point([fp], (2.4, 1), 0.5, (1, 8), 0.5) == "fp-1"  # edge on it
    assert kt2018.on_firing_point([fp], (2.6, 1), 0.5, (1, 8), 0.5) is None
    assert kt2018.on_firing_point([fp], (1, 1), 0.5, (5, 8), 0.5) is None  # out of the arc
