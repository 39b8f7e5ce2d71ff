"""Kill Team 2024 attack and defence dice: the specs and the steps the odds and rolled mode share.

:class:`AttackSpec` / :class:`DefenceSpec` describe an attack and its defender. The steps after
them are small and deterministic so that the exact odds (:mod:`solo_ops.rules.odds`) and the
rolled mode (:mod:`solo_ops.rules.kt2024_rolled`) take the very same ones: how one attack die
reads (:func:`classify`, Lethal), Ceaseless's value, :func:`after_roll` (Obscured, Punishing,
Rending, Severe), the defence dice collected (Piercing, Piercing Crits), cover saves
(Saturate), how one defence die reads, the allocation of saves (Brutal), a shot's damage
(Devastating) and Hot's damage.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from solo_ops.core.errors import InputError, excerpt
from solo_ops.core.limits import bounds
from solo_ops.core.model import Weapon, WeaponRule

# -- specs ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AttackSpec:
    """One operative's attack dice with one weapon.

    ``hit`` is the weapon's Hit stat (``x+``); ``normal`` / ``crit`` its damage. ``injured``
    worsens the Hit stat by 1 (card: "Wounds below 50% = -1 to hit"); ``hit_bonus`` improves it
    by that much (fight: +1 per friendly helper). ``accurate_bonus`` is Accurate from outside
    the weapon (Vantage: Accurate 1 from 2" above, Accurate 2 from 4").
    """

    attacks: int
    hit: int
    normal: int
    crit: int
    rules: tuple[WeaponRule, ...] = ()
    injured: bool = False
    hit_bonus: int = 0
    accurate_bonus: int = 0

    def __post_init__(self) -> None:
        _check_int(self.attacks, "--attacks", "attacks")
        _check_int(self.hit, "--hit", "hit")
        _check_int(self.normal, "--damage", "damage")
        _check_int(self.crit, "--damage", "damage")
        _check_int(self.hit_bonus, "hit_bonus", "hit_bonus")
        _check_int(self.accurate_bonus, "accurate_bonus", "accurate_bonus")
        for rule in self.rules:
            if not isinstance(rule, WeaponRule):
                raise InputError(f"not a weapon rule: {excerpt(rule)}", source="--rule")

    @classmethod
    def from_weapon(cls, weapon: Weapon, *, injured: bool = False, hit_bonus: int = 0,
                    accurate_bonus: int = 0) -> AttackSpec:
        """The spec for ``weapon`` (which must have its Kill Team 2024 characteristics)."""
        if weapon.attacks is None or weapon.hit is None or weapon.damage is None:
            raise InputError(f"{weapon.name} has no Kill Team 2024 attacks, hit and damage",
                             field="weapons")
        return cls(weapon.attacks, weapon.hit, weapon.damage[0], weapon.damage[1],
                   tuple(weapon.rules), injured, hit_bonus, accurate_bonus)

    # rule look-ups -------------------------------------------------------------------------
    def has(self, name: str) -> bool:
        return any(r.name == name for r in self.rules)

    def value(self, name: str, default: int = 0) -> int:
        """The number of rule ``name`` (the largest if it appears twice), or ``default``."""
        values = [r.value for r in self.rules if r.name == name and isinstance(r.value, int)]
        return max(values) if values else default

    @property
    def hit_needed(self) -> int:
        """The effective Hit stat: injured +1 (worse), helpers -1 each; kept within 2+..6+."""
        return min(6, max(2, self.hit + (1 if self.injured else 0) - self.hit_bonus))

    @property
    def crit_needed(self) -> int:
        """A 6 is a crit; Lethal x+ makes x and more crits (a 1 never is)."""
        lethal = self.value("lethal", 6)
        return min(6, max(2, lethal))

    @property
    def accurate(self) -> int:
        """Accurate x, combining sources: one source gives x; two or more stack to Accurate 2
        (card: "Stacking Accurate x's are treated as Accurate 2 (this takes precedence)")."""
        sources = [r.value for r in self.rules if r.name == "accurate"]
        if self.accurate_bonus:
            sources.append(self.accurate_bonus)
        if not sources:
            return 0
        return int(sources[0]) if len(sources) == 1 else 2

    @property
    def devastating(self) -> int:
        """Damage each retained crit inflicts at once (both forms of Devastating)."""
        best = 0
        for r in self.rules:
            if r.name == "devastating":
                best = max(best, r.value[1] if isinstance(r.value, tuple) else int(r.value))
        return best


@dataclass(frozen=True)
class DefenceSpec:
    """The defender: defence dice, Save stat, wounds left (None: uncapped), cover, obscured."""

    dice: int = 3
    save: int = 4
    wounds: int | None = None
    cover: bool = False
    obscured: bool = False

    def __post_init__(self) -> None:
        _check_int(self.dice, "--defence-dice", "defence_dice")
        _check_int(self.save, "--save", "save")
        if self.wounds is not None:
            _check_int(self.wounds, "--wounds", "wounds")


def _check_int(value: object, name: str, limit: str) -> None:
    """Refuse a value outside the shared limit ``limit`` (:mod:`solo_ops.core.limits`)."""
    low, high = bounds(limit)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InputError(f"must be a whole number from {low} to {high}, got {excerpt(value)}",
                         source=name)


# -- attack dice ---------------------------------------------------------------------------------

CRIT, NORMAL, FAIL = "crit", "normal", "fail"


def classify(face: int, spec: AttackSpec) -> str:
    """One attack die: ``crit`` at or above the crit threshold, ``normal`` at or above the Hit
    stat, else ``fail``. A 1 always fails."""
    if face == 1:
        return FAIL
    if face >= spec.crit_needed:
        return CRIT
    if face >= spec.hit_needed:
        return NORMAL
    return FAIL


def ceaseless_value(fail_faces: Iterable[int]) -> int | None:
    """Ceaseless re-rolls every die showing one value: the value with the most failed dice,
    the lowest value on a tie. None when nothing failed."""
    counts: dict[int, int] = {}
    for face in fail_faces:
        counts[face] = counts.get(face, 0) + 1
    if not counts:
        return None
    return min(counts, key=lambda f: (-counts[f], f))


@dataclass(frozen=True)
class Retained:
    """Attack dice after every rule that changes results: crits and normal hits retained."""

    crits: int
    normals: int
    fails: int
    applied: tuple[str, ...] = ()


def after_roll(crits: int, normals: int, fails: int, spec: AttackSpec,
               obscured: bool = False) -> Retained:
    """Apply the rules that change results after the roll, in this fixed order.

    1. Obscured (shooting only): every crit becomes a normal hit, then one normal hit is
       discarded. No crit is retained, so no crit rule (Punishing, Rending, Severe,
       Devastating, Piercing Crits, Stun) applies.
    2. Punishing: if any crit is retained, one failed die is retained as a normal hit.
    3. Rending: if any crit is retained, one normal hit becomes a crit.
    4. Severe: if no crit is retained, one normal hit becomes a crit (Devastating and
       Piercing Crits apply to it; Punishing and Rending were already decided).
    """
    applied: list[str] = []
    if obscured:
        normals += crits
        crits = 0
        applied.append("obscured: crits become normal hits")
        if normals:
            normals -= 1
            fails += 1
            applied.append("obscured: one normal hit discarded")
        return Retained(crits, normals, fails, tuple(applied))
    if spec.has("punishing") and crits and fails:
        fails -= 1
        normals += 1
        applied.append("Punishing: a failed die retained as a normal hit")
    if spec.has("rending") and crits and normals:
        normals -= 1
        crits += 1
        applied.append("Rending: a normal hit becomes a crit")
    if spec.has("severe") and not crits and normals:
        normals -= 1
        crits += 1
        applied.append("Severe: a normal hit becomes a crit")
    return Retained(crits, normals, fails, tuple(applied))


# -- defence ---------------------------------------------------------------------------------


def defence_dice_count(spec: AttackSpec, defence: DefenceSpec, crits: int) -> int:
    """Defence dice collected: Piercing x removes x; Piercing Crits x removes x only when a
    crit is retained. If both apply the larger counts (they do not add)."""
    cut = spec.value("piercing")
    if crits:
        cut = max(cut, spec.value("piercing_crits"))
    return max(0, defence.dice - cut)


def cover_saves(spec: AttackSpec, defence: DefenceSpec, dice: int,
                kept: Retained | None = None) -> int:
    """Normal saves retained without rolling: one in cover (none with Saturate, or when
    Piercing left no dice), unless it could block nothing (:func:`cover_useless`: the
    defender "can" retain it, 001, and rolls that die instead). Each is one of the collected
    dice, so one fewer is rolled. ``kept``: the hits to save against (None: not known yet)."""
    if defence.cover and not spec.has("saturate") and dice > 0:
        return 0 if cover_useless(spec, defence, dice, kept) else 1
    return 0


def cover_useless(spec: AttackSpec, defence: DefenceSpec, dice: int,
                  kept: Retained | None) -> str | None:
    """Why a retained cover save could block nothing here, or None. Then rolling that die
    instead is never worse (a 6 is a crit save, which blocks anything): with Brutal ("Your
    opponent can only block with Crits", 002) a normal save blocks nothing; with no normal hit
    to block, a normal save blocks a crit only as one of a pair, which needs a second normal
    save: none can come when it is the only die (``dice`` 1) or when no rolled die can be a
    normal save (Save 6+: a 6 is a crit)."""
    if spec.has("brutal"):
        return "the weapon is Brutal: only crit saves block, a normal save blocks nothing"
    if kept is not None and kept.normals == 0 and kept.crits and (dice == 1
                                                                   or defence.save >= 6):
        return ("no normal hit to block, and no second normal save to pair with against a "
                "crit")
    return None


def classify_save(face: int, save: int) -> str:
    """One defence die: 6 is a crit save, ``save``+ a normal save, else a fail (1 fails)."""
    if face == 6:
        return CRIT
    if face != 1 and face >= save:
        return NORMAL
    return FAIL


@dataclass(frozen=True)
class Blocks:
    """How the defender allocated its saves and the damage that got through."""

    crits_blocked: int
    normals_blocked: int
    damage: int  # unblocked hits' damage (Devastating not included)


def allocate_saves(crits: int, normals: int, crit_saves: int, normal_saves: int,
                   normal_damage: int, crit_damage: int, brutal: bool = False) -> Blocks:
    """Block the most damage: a normal save blocks a normal hit, two normal saves block a crit,
    a crit save blocks either. With Brutal only crit saves block. Ties: the allocation that
    blocks more crits."""
    if brutal:
        normal_saves = 0
    best: Blocks | None = None
    for a in range(min(crit_saves, crits) + 1):  # crit saves on crits
        b = min(crit_saves - a, normals)  # the rest on normal hits
        for c in range(min(normal_saves // 2, crits - a) + 1):  # pairs on crits
            d = min(normal_saves - 2 * c, normals - b)  # singles on normal hits
            cb, nb = a + c, b + d
            damage = (crits - cb) * crit_damage + (normals - nb) * normal_damage
            cand = Blocks(cb, nb, damage)
            if best is None or (damage, -cb) < (best.damage, -best.crits_blocked):
                best = cand
    assert best is not None
    return best


def shot_damage(spec: AttackSpec, defence: DefenceSpec, retained: Retained,
                crit_saves: int, normal_saves: int) -> tuple[int, Blocks]:
    """Total damage of a shot (Devastating plus unblocked hits), capped at ``wounds``."""
    blocks = allocate_saves(retained.crits, retained.normals, crit_saves, normal_saves,
                            spec.normal, spec.crit, spec.has("brutal"))
    total = spec.devastating * retained.crits + blocks.damage
    if defence.wounds is not None:
        total = min(total, defence.wounds)
    return total, blocks


def save_chances(count: int, save: int) -> list[tuple[int, int, Fraction]]:
    """Every ``(crit saves, normal saves, chance)`` of ``count`` rolled defence dice
    (:func:`classify_save`), exactly."""
    normal_faces = max(0, 6 - max(save, 2))  # save+ but not 6 (a crit) and never a 1
    fail_faces = 6 - 1 - normal_faces
    out = []
    for crits in range(count + 1):
        for normals in range(count - crits + 1):
            fails = count - crits - normals
            ways = (math.comb(count, crits) * math.comb(count - crits, normals)
                    * normal_faces**normals * fail_faces**fails)
            if ways:
                out.append((crits, normals, Fraction(ways, 6**count)))
    return out


def cover_means(spec: AttackSpec, defence: DefenceSpec, kept: Retained, dice: int
                ) -> tuple[Fraction, Fraction]:
    """The exact mean damage of a shot against ``kept`` hits when the defender, with ``dice``
    defence dice collected, retains its cover save and rolls the rest, and when it rolls them
    all (what the players' cover question shows)."""
    means = []
    for free in (1, 0):
        mean = Fraction(0)
        for crits, normals, chance in save_chances(dice - free, defence.save):
            mean += chance * shot_damage(spec, defence, kept, crits, normals + free)[0]
        means.append(mean)
    return means[0], means[1]


# -- Hot -----------------------------------------------------------------------------------------


def hot_damage(face: int, hit: int) -> int:
    """Hot: after the weapon is used roll a D6; below the weapon's Hit stat the shooter takes
    twice the roll."""
    return face * 2 if face < hit else 0
