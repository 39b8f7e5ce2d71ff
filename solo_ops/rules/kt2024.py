"""Kill Team 2024 shooting and fighting: attack dice, defence dice, and every weapon rule.

The rules are split into small deterministic steps that both the exact odds
(:mod:`solo_ops.rules.odds`) and the rolled mode below share, so the two can never disagree:

1. :class:`AttackSpec` / :class:`DefenceSpec` describe the attack and the defender.
2. Attack dice: Accurate retains dice as normal hits unrolled; the rest are rolled, then
   re-rolled by the fixed policy (:func:`ceaseless_value`, Relentless, Balanced): failed dice
   only, never successes, each die at most once. In rolled mode a side may then re-roll dice
   not yet re-rolled for Command Points (:func:`cp_rerolls`, asked through a chooser).
3. :func:`after_roll` applies the rules that change results after the roll, in one fixed order:
   Obscured, Punishing, Rending, Severe (see ``docs/rules.md, "Combat"``).
4. :func:`defence_dice_count` (Piercing, Piercing Crits), :func:`cover_saves` (cover, Saturate),
   then :func:`allocate_saves` blocks the most damage it can (Brutal: crit saves only).
5. :func:`resolve_fight` plays a melee exchange with a documented deterministic policy.

Targeting and movement rules (Blast, Torrent, Heavy, Range, Silent, Limited, Seek, the distance
form of Devastating) do not change dice; they are answered by the small functions at the end
of this module, which the engine and the AI ask before and after an attack.

Rolled mode (:func:`roll_shot`, :func:`roll_fight`, :func:`roll_hot`) rolls through the game's
:class:`~solo_ops.core.dice.Dice`, so every die is logged with its purpose.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from solo_ops.core.dice import Dice
from solo_ops.core.errors import InputError, excerpt
from solo_ops.core.limits import bounds
from solo_ops.core.model import Weapon, WeaponRule

NO_WOUNDS_CAP = 10**6
"""Stands in for "no wound limit" where a fight needs a number (damage is never this high)."""

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


def cover_saves(spec: AttackSpec, defence: DefenceSpec, dice: int) -> int:
    """Normal saves retained without rolling: one in cover (none with Saturate, or when
    Piercing left no dice). Each is one of the collected dice, so one fewer is rolled."""
    if defence.cover and not spec.has("saturate") and dice > 0:
        return 1
    return 0


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


# -- fight ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FightSide:
    """One side of a fight: retained dice, damage, wounds left, and its weapon's fight rules."""

    crits: int
    normals: int
    normal: int
    crit: int
    wounds: int | None = None
    brutal: bool = False  # the opponent can only block this side's dice with crits
    shock: bool = False


@dataclass(frozen=True)
class FightStep:
    """One resolved die: who (``attacker``/``defender``), ``strike`` or ``block``, with which
    kind of die, against which kind (blocks) and damage dealt (strikes)."""

    side: str
    action: str
    die: str
    against: str | None = None
    damage: int = 0
    shock: str | None = None  # the opponent's die kind Shock discarded


@dataclass(frozen=True)
class FightOutcome:
    dealt: int  # damage the attacker dealt (capped at the defender's wounds)
    taken: int  # damage the attacker took (capped at its wounds)
    steps: tuple[FightStep, ...] = ()


# Action order for ties (equal value): strike before block, crits first.
_ACTIONS = ("strike_crit", "strike_normal", "block_crit_crit", "block_normal_normal",
            "block_crit_normal")


def _moves(me: tuple[int, int], opp: tuple[int, int], opp_brutal: bool) -> list[str]:
    mc, mn = me
    oc, on = opp
    out = []
    for act in _ACTIONS:
        if act == "strike_crit" and mc:
            out.append(act)
        elif act == "strike_normal" and mn:
            out.append(act)
        elif act == "block_crit_crit" and mc and oc:
            out.append(act)
        elif act == "block_normal_normal" and mn and on and not opp_brutal:
            out.append(act)
        elif act == "block_crit_normal" and mc and on:
            out.append(act)
    return out


FightRules = tuple[int, int, int, int, bool, bool, bool, bool]
"""(attacker normal, attacker crit, defender normal, defender crit, attacker brutal, defender
brutal, attacker shock, defender shock): what a fight's damage and moves depend on."""

_FightResult = tuple[int, str | None, int, int]
"""``(value, move, dealt, taken)`` of a fight state (see :meth:`_FightSolver.solve`)."""

_FightKey = tuple[int, int, int, int, int, int, int]
"""A normalised fight state: ``(ac, an, dc, dn, aw, dw, shock)`` (see :class:`_FightSolver`)."""

_SC, _SN, _BCC, _BNN, _BCN = _ACTIONS


class _FightSolver:
    """The fight policy's game tree for one :data:`FightRules`, solved by dynamic programming.

    A state is (dice left on each side, wounds left on each side, whose turn, Shock still
    available). Each state is solved once and remembered with its value (damage dealt minus
    damage taken from there on), the move the side to play makes and the damage dealt and taken
    along the rest of the fight, so the whole joint distribution of a fight costs one look-up
    per pair of retained dice.

    Only states where both sides still have dice and wounds are remembered, each in the memo of
    the side to play (``memo[0]`` the attacker's, ``memo[1]`` the defender's), under a
    normalised key ``(ac, an, dc, dn, aw, dw, shock)`` that every state playing the same moves
    with the same numbers shares:

    * Wounds are kept only up to what can still matter: a side whose wounds exceed the most
      damage the other side's remaining dice can deal (every die striking) can never be capped
      or taken out, so every wound total above that bound plays the same moves with the same
      damage. Replacing it by ``bound + 1`` keeps the states few (wounds 999 and wounds 49 are
      the same fight against 12 dice of 3/4 damage) and changes no move and no number.
    * ``shock`` is the sum of 1 while the attacker can still trigger Shock (its weapon has it,
      not used yet, and a crit is left to strike with) and 2 likewise for the defender: a side
      without crits can never trigger it again, so the flag no longer tells states apart.

    States need no memo when the fight is already decided: a side out of wounds ends it, and
    when one side has no dice left the other strikes with the rest (nothing is left to block),
    dealing ``min(its dice's damage, wounds left)`` whatever the order: every order ties and the
    tie goes to a crit strike first (:data:`_ACTIONS`). Each move's next state is worked out,
    normalised and looked up where the move is made, so a remembered state costs one dict
    look-up and no call.

    The moves are :func:`_moves` and :func:`_apply` written out inline (this is the hot loop of
    the exact odds); ``tests/test_odds.py`` checks the result against a brute force and
    ``tests/test_fight12.py`` against the previous solver, state by state.
    """

    def __init__(self, rules: FightRules):
        self.rules = rules
        self.memo: tuple[dict[_FightKey, _FightResult], dict[_FightKey, _FightResult]] = ({}, {})
        self.solve = self._build()

    def _build(self) -> Callable[[int, int, int, int, int, int, int, bool, bool], _FightResult]:
        """The solver's functions, closures over its rules and memos (locals are the fastest
        names Python has)."""
        a_norm, a_crit, d_norm, d_crit, a_brutal, d_brutal, a_shock, d_shock = self.rules
        memo0, memo1 = self.memo
        get0, get1 = memo0.get, memo1.get

        # In both functions below: (v, d, t) is a move's (value, dealt, taken) from the next
        # state on, plus what the move itself deals; (bv, bm, bd, bt) the best move so far. A
        # next state where one side has no dice left is worked out on the spot (the other side
        # deals min(its dice's damage, wounds)); otherwise ``b``/``b2`` are the new wound bounds.

        def attacker(k: _FightKey) -> _FightResult:
            """The attacker to play in state ``k`` (normalised, both sides with dice and
            wounds): its best move (ties: the order of ``_ACTIONS``), remembered."""
            ac, an, dc, dn, aw, dw, sh = k
            bv = bd = bt = 0
            bm = None
            if ac:  # strike with a crit
                if a_crit >= dw:
                    bv = bd = dw
                else:
                    ndw = dw - a_crit
                    if sh & 1:  # Shock: discard a defender's normal, else a crit
                        if dn:
                            odc, odn = dc, dn - 1
                        else:
                            odc, odn = dc - 1, dn
                        if not (odc or odn):
                            x = (ac - 1) * a_crit + an * a_norm
                            v = d = x if x < ndw else ndw
                            t = 0
                        elif ac == 1 and not an:
                            x = odc * d_crit + odn * d_norm
                            t = x if x < aw else aw
                            v = -t
                            d = 0
                        else:
                            b = odc * d_crit + odn * d_norm + 1
                            key = (ac - 1, an, odc, odn, aw if aw < b else b, ndw,
                                   sh & 2 if odc else 0)
                            v, _, d, t = get1(key) or defender(key)
                    elif ac == 1 and not an:
                        x = dc * d_crit + dn * d_norm
                        t = x if x < aw else aw
                        v = -t
                        d = 0
                    else:
                        key = (ac - 1, an, dc, dn, aw, ndw, sh)
                        v, _, d, t = get1(key) or defender(key)
                    bv = a_crit + v
                    bd = a_crit + d
                    bt = t
                bm = _SC
            if an:  # strike with a normal
                if a_norm >= dw:
                    v = d = dw
                    t = 0
                else:
                    if not ac and an == 1:
                        x = dc * d_crit + dn * d_norm
                        t = x if x < aw else aw
                        v = -t
                        d = 0
                    else:
                        key = (ac, an - 1, dc, dn, aw, dw - a_norm, sh)
                        v, _, d, t = get1(key) or defender(key)
                    v += a_norm
                    d += a_norm
                if bm is None or v > bv:
                    bv, bm, bd, bt = v, _SN, d, t
            if ac and dc:  # block a crit with a crit
                if dc == 1 and not dn:
                    x = (ac - 1) * a_crit + an * a_norm
                    v = d = x if x < dw else dw
                    t = 0
                elif ac == 1 and not an:
                    x = (dc - 1) * d_crit + dn * d_norm
                    t = x if x < aw else aw
                    v = -t
                    d = 0
                else:
                    b = (dc - 1) * d_crit + dn * d_norm + 1
                    b2 = (ac - 1) * a_crit + an * a_norm + 1
                    nsh = sh
                    if ac == 1:
                        nsh &= 2
                    if dc == 1:
                        nsh &= 1
                    key = (ac - 1, an, dc - 1, dn, aw if aw < b else b, dw if dw < b2 else b2,
                           nsh)
                    v, _, d, t = get1(key) or defender(key)
                if v > bv:
                    bv, bm, bd, bt = v, _BCC, d, t
            if an and dn and not d_brutal:  # block a normal with a normal
                if not dc and dn == 1:
                    x = ac * a_crit + (an - 1) * a_norm
                    v = d = x if x < dw else dw
                    t = 0
                elif not ac and an == 1:
                    x = dc * d_crit + (dn - 1) * d_norm
                    t = x if x < aw else aw
                    v = -t
                    d = 0
                else:
                    b = dc * d_crit + (dn - 1) * d_norm + 1
                    b2 = ac * a_crit + (an - 1) * a_norm + 1
                    key = (ac, an - 1, dc, dn - 1, aw if aw < b else b, dw if dw < b2 else b2,
                           sh)
                    v, _, d, t = get1(key) or defender(key)
                if v > bv:
                    bv, bm, bd, bt = v, _BNN, d, t
            if ac and dn:  # block a normal with a crit
                if not dc and dn == 1:
                    x = (ac - 1) * a_crit + an * a_norm
                    v = d = x if x < dw else dw
                    t = 0
                elif ac == 1 and not an:
                    x = dc * d_crit + (dn - 1) * d_norm
                    t = x if x < aw else aw
                    v = -t
                    d = 0
                else:
                    b = dc * d_crit + (dn - 1) * d_norm + 1
                    b2 = (ac - 1) * a_crit + an * a_norm + 1
                    key = (ac - 1, an, dc, dn - 1, aw if aw < b else b, dw if dw < b2 else b2,
                           sh & 2 if ac == 1 else sh)
                    v, _, d, t = get1(key) or defender(key)
                if v > bv:
                    bv, bm, bd, bt = v, _BCN, d, t
            r = memo0[k] = (bv, bm, bd, bt)
            return r

        def defender(k: _FightKey) -> _FightResult:
            """The defender to play in state ``k``: its best move (the lowest value for the
            attacker; ties as above), remembered."""
            ac, an, dc, dn, aw, dw, sh = k
            bv = bd = bt = 0
            bm = None
            if dc:  # strike with a crit
                if d_crit >= aw:
                    bv = -aw
                    bt = aw
                else:
                    naw = aw - d_crit
                    if sh & 2:  # Shock: discard an attacker's normal, else a crit
                        if an:
                            oac, oan = ac, an - 1
                        else:
                            oac, oan = ac - 1, an
                        if not (oac or oan):
                            x = (dc - 1) * d_crit + dn * d_norm
                            t = x if x < naw else naw
                            v = -t
                            d = 0
                        elif dc == 1 and not dn:
                            x = oac * a_crit + oan * a_norm
                            v = d = x if x < dw else dw
                            t = 0
                        else:
                            b = oac * a_crit + oan * a_norm + 1
                            key = (oac, oan, dc - 1, dn, naw, dw if dw < b else b,
                                   sh & 1 if oac else 0)
                            v, _, d, t = get0(key) or attacker(key)
                    elif dc == 1 and not dn:
                        x = ac * a_crit + an * a_norm
                        v = d = x if x < dw else dw
                        t = 0
                    else:
                        key = (ac, an, dc - 1, dn, naw, dw, sh)
                        v, _, d, t = get0(key) or attacker(key)
                    bv = v - d_crit
                    bd = d
                    bt = d_crit + t
                bm = _SC
            if dn:  # strike with a normal
                if d_norm >= aw:
                    v = -aw
                    d = 0
                    t = aw
                else:
                    if not dc and dn == 1:
                        x = ac * a_crit + an * a_norm
                        v = d = x if x < dw else dw
                        t = 0
                    else:
                        key = (ac, an, dc, dn - 1, aw - d_norm, dw, sh)
                        v, _, d, t = get0(key) or attacker(key)
                    v -= d_norm
                    t += d_norm
                if bm is None or v < bv:
                    bv, bm, bd, bt = v, _SN, d, t
            if dc and ac:  # block a crit with a crit
                if dc == 1 and not dn:
                    x = (ac - 1) * a_crit + an * a_norm
                    v = d = x if x < dw else dw
                    t = 0
                elif ac == 1 and not an:
                    x = (dc - 1) * d_crit + dn * d_norm
                    t = x if x < aw else aw
                    v = -t
                    d = 0
                else:
                    b = (dc - 1) * d_crit + dn * d_norm + 1
                    b2 = (ac - 1) * a_crit + an * a_norm + 1
                    nsh = sh
                    if ac == 1:
                        nsh &= 2
                    if dc == 1:
                        nsh &= 1
                    key = (ac - 1, an, dc - 1, dn, aw if aw < b else b, dw if dw < b2 else b2,
                           nsh)
                    v, _, d, t = get0(key) or attacker(key)
                if v < bv:
                    bv, bm, bd, bt = v, _BCC, d, t
            if dn and an and not a_brutal:  # block a normal with a normal
                if not dc and dn == 1:
                    x = ac * a_crit + (an - 1) * a_norm
                    v = d = x if x < dw else dw
                    t = 0
                elif not ac and an == 1:
                    x = dc * d_crit + (dn - 1) * d_norm
                    t = x if x < aw else aw
                    v = -t
                    d = 0
                else:
                    b = dc * d_crit + (dn - 1) * d_norm + 1
                    b2 = ac * a_crit + (an - 1) * a_norm + 1
                    key = (ac, an - 1, dc, dn - 1, aw if aw < b else b, dw if dw < b2 else b2,
                           sh)
                    v, _, d, t = get0(key) or attacker(key)
                if v < bv:
                    bv, bm, bd, bt = v, _BNN, d, t
            if dc and an:  # block a normal with a crit
                if dc == 1 and not dn:
                    x = ac * a_crit + (an - 1) * a_norm
                    v = d = x if x < dw else dw
                    t = 0
                elif not ac and an == 1:
                    x = (dc - 1) * d_crit + dn * d_norm
                    t = x if x < aw else aw
                    v = -t
                    d = 0
                else:
                    b = (dc - 1) * d_crit + dn * d_norm + 1
                    b2 = ac * a_crit + (an - 1) * a_norm + 1
                    key = (ac, an - 1, dc - 1, dn, aw if aw < b else b, dw if dw < b2 else b2,
                           sh & 1 if dc == 1 else sh)
                    v, _, d, t = get0(key) or attacker(key)
                if v < bv:
                    bv, bm, bd, bt = v, _BCN, d, t
            r = memo1[k] = (bv, bm, bd, bt)
            return r

        def solve(ac: int, an: int, dc: int, dn: int, aw: int, dw: int, turn: int,
                  ashock: bool, dshock: bool) -> _FightResult:
            """``(value, move, dealt, taken)`` of a state: the minimax value from the attacker's
            side, the move the side to play makes (None when the fight is over) and the damage
            the attacker deals and takes from here to the end under the policy. ``turn`` 0 is
            the attacker, 1 the defender; ``ashock`` / ``dshock``: that side has not used
            Shock yet."""
            if aw <= 0 or dw <= 0:
                return (0, None, 0, 0)
            if not (ac or an):
                if not (dc or dn):
                    return (0, None, 0, 0)
                x = dc * d_crit + dn * d_norm
                x = x if x < aw else aw
                return (-x, _SC if dc else _SN, 0, x)
            if not (dc or dn):
                x = ac * a_crit + an * a_norm
                x = x if x < dw else dw
                return (x, _SC if ac else _SN, x, 0)
            b = dc * d_crit + dn * d_norm + 1
            if aw > b:
                aw = b
            b = ac * a_crit + an * a_norm + 1
            if dw > b:
                dw = b
            sh = ((1 if a_shock and ashock and ac else 0)
                  | (2 if d_shock and dshock and dc else 0))
            key = (ac, an, dc, dn, aw, dw, sh)
            if turn:
                return get1(key) or defender(key)
            return get0(key) or attacker(key)

        return solve

    def states(self) -> int:
        """How many states are remembered (both memos)."""
        return len(self.memo[0]) + len(self.memo[1])


@lru_cache(maxsize=4)
def _solver(rules: FightRules) -> _FightSolver:
    """One solver per set of fight rules (the two weapons' damage, Brutal and Shock), kept
    while the AI keeps asking about them. Four bound the memory even for profiles at the
    limits (about 200 MB each for 12 attacks against 12 with the worst wounds); for real
    profiles a solver is rebuilt in milliseconds, and :func:`~solo_ops.rules.odds.fight_2024`
    keeps its own results."""
    return _FightSolver(rules)


def _fight_value(ac: int, an: int, dc: int, dn: int, aw: int, dw: int, turn: int,
                 ashock: bool, dshock: bool, rules: FightRules) -> tuple[int, str | None]:
    """Minimax value (damage dealt minus damage taken, from the attacker's side) of a fight
    state, and the move the side to play makes. ``turn`` 0 is the attacker, 1 the defender.
    ``ashock`` / ``dshock``: that side can still trigger Shock."""
    value, act, _, _ = _solver(rules).solve(ac, an, dc, dn, aw, dw, turn, ashock, dshock)
    return value, act


def fight_totals(attacker: FightSide, defender: FightSide) -> tuple[int, int]:
    """``(dealt, taken)`` of :func:`resolve_fight` without building its steps (the exact odds
    ask this once per pair of retained dice)."""
    aw = attacker.wounds if attacker.wounds is not None else NO_WOUNDS_CAP
    dw = defender.wounds if defender.wounds is not None else NO_WOUNDS_CAP
    _, _, dealt, taken = _solver(_fight_rules(attacker, defender)).solve(
        attacker.crits, attacker.normals, defender.crits, defender.normals, aw, dw, 0,
        True, True)
    return dealt, taken


def _fight_rules(attacker: FightSide, defender: FightSide) -> FightRules:
    return (attacker.normal, attacker.crit, defender.normal, defender.crit,
            attacker.brutal, defender.brutal, attacker.shock, defender.shock)


def _apply(act: str, side: int, ac: int, an: int, dc: int, dn: int, aw: int, dw: int,
           ashock: bool, dshock: bool, rules: FightRules
           ) -> tuple[tuple[int, int, int, int, int, int, bool, bool], int, str | None]:
    """The state after ``side`` plays ``act``; also the damage dealt and what Shock discarded."""
    a_norm, a_crit, d_norm, d_crit, _ab, _db, a_has_shock, d_has_shock = rules
    # view from the acting side
    if side == 0:
        mc, mn, oc, on, ow = ac, an, dc, dn, dw
        norm, crit, can_shock = a_norm, a_crit, ashock and a_has_shock
    else:
        mc, mn, oc, on, ow = dc, dn, ac, an, aw
        norm, crit, can_shock = d_norm, d_crit, dshock and d_has_shock
    dealt = 0
    shocked = None
    if act == "strike_crit":
        mc -= 1
        dealt = crit
        if can_shock:
            if on:
                on -= 1
                shocked = NORMAL
            elif oc:
                oc -= 1
                shocked = CRIT
            if side == 0:
                ashock = False
            else:
                dshock = False
    elif act == "strike_normal":
        mn -= 1
        dealt = norm
    elif act == "block_crit_crit":
        mc -= 1
        oc -= 1
    elif act == "block_normal_normal":
        mn -= 1
        on -= 1
    elif act == "block_crit_normal":
        mc -= 1
        on -= 1
    dealt = min(dealt, ow)
    ow -= dealt
    if side == 0:
        return (mc, mn, oc, on, aw, ow, ashock, dshock), dealt, shocked
    return (oc, on, mc, mn, ow, dw, ashock, dshock), dealt, shocked


def resolve_fight(attacker: FightSide, defender: FightSide) -> FightOutcome:
    """Resolve a fight's dice: the attacker resolves first, then they alternate, each
    resolving one success by striking or blocking (only crits block crits); a side with no
    dice left lets the other resolve the rest. The fight ends when either side is out of
    wounds.

    Policy (deterministic, both sides alike): play the move that is best for the side playing
    it assuming the opponent does the same, where "best" is damage dealt minus damage taken
    (each capped at the wounds left); ties go to strike-with-crit, strike-with-normal,
    block-crit-with-crit, block-normal-with-normal, block-normal-with-crit, in that order.
    Devastating is applied before this (see :func:`fight_devastating`).
    """
    aw = attacker.wounds if attacker.wounds is not None else NO_WOUNDS_CAP
    dw = defender.wounds if defender.wounds is not None else NO_WOUNDS_CAP
    rules = _fight_rules(attacker, defender)
    ac, an, dc, dn = attacker.crits, attacker.normals, defender.crits, defender.normals
    ashock = dshock = True
    turn = 0
    steps: list[FightStep] = []
    dealt = taken = 0
    while aw > 0 and dw > 0 and (ac or an or dc or dn):
        if turn == 0 and not (ac or an):
            turn = 1  # a side with no dice left lets the other resolve the rest
        elif turn == 1 and not (dc or dn):
            turn = 0
        _, act = _fight_value(ac, an, dc, dn, aw, dw, turn, ashock, dshock, rules)
        assert act is not None
        state, amount, shocked = _apply(act, turn, ac, an, dc, dn, aw, dw, ashock, dshock,
                                        rules)
        ac, an, dc, dn, aw, dw, ashock, dshock = state
        parts = act.split("_")
        against = parts[2] if parts[0] == "block" else None
        if turn == 0:
            dealt += amount
        else:
            taken += amount
        steps.append(FightStep("attacker" if turn == 0 else "defender", parts[0], parts[1],
                               against, amount, shocked))
        turn = 1 - turn
    return FightOutcome(dealt, taken, tuple(steps))


def fight_devastating(spec: AttackSpec, crits: int, wounds: int | None) -> int:
    """Devastating in a fight: each retained crit inflicts its damage as soon as the dice are
    retained, before anyone strikes (capped at ``wounds``)."""
    amount = spec.devastating * crits
    return amount if wounds is None else min(amount, wounds)


def hot_damage(face: int, hit: int) -> int:
    """Hot: after the weapon is used roll a D6; below the weapon's Hit stat the shooter takes
    twice the roll."""
    return face * 2 if face < hit else 0


# -- rolled mode ---------------------------------------------------------------------------------


@dataclass
class DiceResult:
    """Attack dice as rolled and re-rolled (indices into ``faces``), before :func:`after_roll`."""

    faces: list[int]
    accurate: int
    rerolled: list[int] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    seq: int | None = None  # the log number of the roll (re-rolls refer to it)

    def counts(self, spec: AttackSpec) -> tuple[int, int, int]:
        kinds = [classify(f, spec) for f in self.faces]
        return kinds.count(CRIT), kinds.count(NORMAL) + self.accurate, kinds.count(FAIL)


@dataclass(frozen=True)
class RerollOffer:
    """Dice their owner may re-roll one of for 1 Command Point (card 001 "Re-Roll
    Attack/Defence Dice for 1CP"; 002 "Dice can only be re-rolled once"), shown after the
    roll and every weapon re-roll. Indices are 0-based places in ``faces`` (the rolled dice:
    Accurate and cover saves are not rolled, so not among them)."""

    what: str  # "attack" | "defence"
    label: str  # the roll's purpose so far ("e1 shoots Vale (autogun)")
    faces: tuple[int, ...]
    failed: tuple[int, ...]  # dice that failed (missed, or failed to save)
    rerolled: tuple[int, ...]  # dice already re-rolled (a weapon rule or CP): not again
    needed: int  # the Hit stat or the Save it was rolled against
    title: str = ""  # what the roll is, for people ("e1 fights Vale"); ``label`` if empty

    @property
    def eligible(self) -> tuple[int, ...]:
        """Dice that may still be re-rolled."""
        return tuple(i for i in range(len(self.faces)) if i not in self.rerolled)

    @property
    def improvable(self) -> tuple[int, ...]:
        """Failed dice that may still be re-rolled (worth asking about)."""
        return tuple(i for i in self.failed if i not in self.rerolled)


CpChooser = Callable[[RerollOffer], int | None]
"""Asked after a side's dice are rolled: the index of a die to re-roll for 1 CP, or None.
It is asked again after each re-roll, until it says None."""


def cp_rerolls(dice: Dice, faces: list[int], rerolled: list[int], what: str, label: str,
               needed: int, failed: Callable[[int], bool], choose: CpChooser | None,
               ref: int | None = None, title: str = "") -> list[str]:
    """Command Point re-rolls of ``faces`` (changed in place; re-rolled indices added to
    ``rerolled``): ``choose`` picks a die not yet re-rolled, or None to keep. Each re-roll is
    one logged D6 whose purpose names the die and the face it replaces. Returns the lines."""
    lines: list[str] = []
    while choose is not None:
        offer = RerollOffer(what, label, tuple(faces),
                            tuple(i for i in range(len(faces)) if failed(faces[i])),
                            tuple(sorted(rerolled)), needed, title)
        pick = choose(offer)
        if pick is None:
            break
        if pick not in offer.eligible:
            raise ValueError(f"{what} die {pick + 1} cannot be re-rolled")
        old = faces[pick]
        entry = dice.d6(f"{label}: CP re-roll of {what} die {pick + 1} (was {old})", ref=ref)
        faces[pick] = entry.face
        rerolled.append(pick)
        lines.append(f"CP re-roll of {what} die {pick + 1} (was {old}): {entry.face}.")
    return lines


def roll_attack_dice(dice: Dice, spec: AttackSpec, label: str, cp: CpChooser | None = None
                     ) -> DiceResult:
    """Roll the attack dice for ``spec`` (after Accurate) and apply the re-roll policy:
    Relentless re-rolls every failed die; otherwise Ceaseless re-rolls the failed value with
    the most dice, then Balanced re-rolls one failed die not yet re-rolled. Then ``cp`` (when
    given) may re-roll dice not yet re-rolled for Command Points (:func:`cp_rerolls`). Every
    roll is logged on ``dice`` with a purpose starting with ``label``."""
    result = _roll_attack_dice(dice, spec, label)
    if cp is not None and result.faces:
        result.lines.extend(attack_cp_rerolls(dice, result, spec, label, cp))
    return result


def attack_cp_rerolls(dice: Dice, result: DiceResult, spec: AttackSpec, label: str,
                      cp: CpChooser | None, title: str = "") -> list[str]:
    """Command Point re-rolls of rolled attack dice (see :func:`cp_rerolls`)."""
    return cp_rerolls(dice, result.faces, result.rerolled, "attack", label, spec.hit_needed,
                      lambda face: classify(face, spec) == FAIL, cp, result.seq, title)


def _roll_attack_dice(dice: Dice, spec: AttackSpec, label: str) -> DiceResult:
    accurate = min(spec.accurate, spec.attacks)
    result = DiceResult([], accurate)
    if accurate:
        result.lines.append(f"Accurate {spec.accurate}: {accurate} dice retained as normal "
                            "hits without rolling.")
    count = spec.attacks - accurate
    if count <= 0:
        return result
    entry = dice.pool(f"{label}: attack dice, hit {spec.hit_needed}+", count)
    result.faces = list(entry.faces)
    result.seq = entry.seq
    result.lines.append(f"Attack dice ({spec.hit_needed}+, crit {spec.crit_needed}+): "
                        f"{_faces(result.faces)}.")

    def failed(i: int) -> bool:
        return classify(result.faces[i], spec) == FAIL and i not in result.rerolled

    def reroll(indices: list[int], why: str) -> None:
        if not indices:
            return
        again = dice.pool(f"{label}: re-roll ({why})", len(indices), ref=entry.seq)
        before = [result.faces[i] for i in indices]
        for i, face in zip(indices, again.faces, strict=True):
            result.faces[i] = face
        result.rerolled.extend(indices)
        result.lines.append(f"{why} re-rolls {_faces(before)}: {_faces(list(again.faces))}.")

    if spec.has("relentless"):
        reroll([i for i in range(count) if failed(i)], "Relentless")
    else:
        if spec.has("ceaseless"):
            value = ceaseless_value(result.faces[i] for i in range(count) if failed(i))
            if value is not None:
                reroll([i for i in range(count) if failed(i) and result.faces[i] == value],
                       f"Ceaseless ({value}s)")
        if spec.has("balanced"):
            first = next((i for i in range(count) if failed(i)), None)
            if first is not None:
                reroll([first], "Balanced")
    return result


def _faces(faces: Sequence[int]) -> str:
    return " ".join(str(f) for f in faces) if faces else "none"


@dataclass
class ShotRoll:
    """A rolled shot: damage to the target and what the engine needs to know afterwards."""

    damage: int
    crits: int
    normals: int
    devastating: int
    stun: bool
    lines: list[str]


def roll_shot(dice: Dice, spec: AttackSpec, defence: DefenceSpec, label: str = "shoot", *,
              attack_cp: CpChooser | None = None, defence_cp: CpChooser | None = None
              ) -> ShotRoll:
    """Roll one shooting attack through ``dice`` (every die logged) and resolve it with the
    same steps as the exact odds. ``attack_cp`` / ``defence_cp``: the shooter's / the
    defender's Command Point re-rolls (:func:`cp_rerolls`), offered after each roll."""
    rolled = roll_attack_dice(dice, spec, label, attack_cp)
    lines = list(rolled.lines)
    c, n, f = rolled.counts(spec)
    kept = after_roll(c, n, f, spec, defence.obscured)
    lines.extend(a[0].upper() + a[1:] + "." for a in kept.applied)
    lines.append(f"Retained: {kept.crits} crits, {kept.normals} normal hits.")
    if not kept.crits and not kept.normals:
        return ShotRoll(0, 0, 0, 0, False, [*lines, "No hits: no damage."])
    collected = defence_dice_count(spec, defence, kept.crits)
    if collected < defence.dice:
        lines.append(f"Piercing: the defender collects {collected} of {defence.dice} "
                     "defence dice.")
    retained_saves = cover_saves(spec, defence, collected)
    if defence.cover and not retained_saves and spec.has("saturate"):
        lines.append("Saturate: no cover save.")
    elif retained_saves:
        lines.append("Cover: one normal save retained without rolling.")
    csaves, nsaves = 0, retained_saves
    to_roll = collected - retained_saves
    if to_roll:
        entry = dice.pool(f"{label}: defence dice, save {defence.save}+", to_roll)
        faces = list(entry.faces)
        lines.append(f"Defence dice ({defence.save}+): {_faces(faces)}.")
        against = (f"{label}: {kept.crits} crit(s) and {kept.normals} normal hit(s) to save "
                   f"against{'; one normal save retained for cover' if retained_saves else ''}")
        lines.extend(cp_rerolls(dice, faces, [], "defence", label, defence.save,
                                lambda face: classify_save(face, defence.save) == FAIL,
                                _while_damaged(defence_cp, spec, defence, kept,
                                               retained_saves),
                                entry.seq, against))
        kinds = [classify_save(face, defence.save) for face in faces]
        csaves += kinds.count(CRIT)
        nsaves += kinds.count(NORMAL)
    damage, blocks = shot_damage(spec, defence, kept, csaves, nsaves)
    dev = spec.devastating * kept.crits
    if dev:
        lines.append(f"Devastating: {kept.crits} crits inflict {dev} damage at once.")
    if spec.has("brutal") and nsaves:
        lines.append("Brutal: only crit saves block.")
    lines.append(f"Saves: {csaves} crit, {nsaves} normal; blocked {blocks.crits_blocked} crits "
                 f"and {blocks.normals_blocked} normal hits.")
    lines.append(f"Damage: {damage}.")
    stun = spec.has("stun") and kept.crits > 0
    if stun:
        lines.append("Stun: the target loses 1 APL until the end of its next activation.")
    return ShotRoll(damage, kept.crits, kept.normals, dev, stun, lines)


def _while_damaged(choose: CpChooser | None, spec: AttackSpec, defence: DefenceSpec,
                   kept: Retained, retained_saves: int) -> CpChooser | None:
    """``choose``, asked only while the saves rolled so far still let damage through: a
    defender whose dice already block every hit has nothing to re-roll for."""
    if choose is None:
        return None

    def ask(offer: RerollOffer) -> int | None:
        kinds = [classify_save(face, defence.save) for face in offer.faces]
        damage, _ = shot_damage(spec, defence, kept, kinds.count(CRIT),
                                kinds.count(NORMAL) + retained_saves)
        return choose(offer) if damage > 0 else None

    return ask


@dataclass
class FightRoll:
    dealt: int
    taken: int
    stun_defender: bool
    stun_attacker: bool
    lines: list[str]


def roll_fight(dice: Dice, attacker: AttackSpec, defender: AttackSpec,
               attacker_wounds: int | None, defender_wounds: int | None,
               names: tuple[str, str] = ("attacker", "defender"), *,
               cp: tuple[CpChooser | None, CpChooser | None] = (None, None)) -> FightRoll:
    """Roll a fight: both sides roll attack dice (logged), then each side's Command Point
    re-rolls (``cp``: the attacker's, the defender's; after both rolled, as at the table),
    apply Devastating, then resolve with :func:`resolve_fight`'s policy."""
    lines: list[str] = []
    kept = []
    sides = ((attacker, names[0]), (defender, names[1]))
    rolls = [(_roll_attack_dice(dice, spec, f"fight, {name}"), spec, name)
             for spec, name in sides]
    for index, ((rolled, spec, name), choose) in enumerate(zip(rolls, cp, strict=True)):
        if choose is not None and rolled.faces:
            # the players see the other side's dice before they choose, as at the table
            other, other_spec, other_name = rolls[1 - index]
            shown = f"{other_name}'s dice ({other_spec.hit_needed}+): {_faces(other.faces)}"
            if other.accurate:
                shown += f" and {other.accurate} retained by Accurate"
            rolled.lines.extend(attack_cp_rerolls(dice, rolled, spec, f"fight, {name}",
                                                  choose, f"{names[0]} fights {names[1]}; "
                                                  f"{shown}"))
        lines.extend(f"{name}: {line}" for line in rolled.lines)
        ret = after_roll(*rolled.counts(spec), spec)
        lines.extend(f"{name}: {a}." for a in ret.applied)
        lines.append(f"{name}: retained {ret.crits} crits, {ret.normals} normal hits.")
        kept.append(ret)
    outcome, dev = fight_with_devastating(attacker, defender, kept[0], kept[1],
                                          attacker_wounds, defender_wounds)
    if dev[0]:
        lines.append(f"{names[0]}: Devastating inflicts {dev[0]} damage.")
    if dev[1]:
        lines.append(f"{names[1]}: Devastating inflicts {dev[1]} damage.")
    for step in outcome.steps:
        who = names[0] if step.side == "attacker" else names[1]
        if step.action == "strike":
            text = f"{who} strikes with a {step.die} hit for {step.damage} damage"
            if step.shock:
                text += f" (Shock discards a {step.shock} hit)"
        else:
            text = f"{who} blocks a {step.against} hit with a {step.die}"
        lines.append(text + ".")
    lines.append(f"Damage dealt {outcome.dealt}, taken {outcome.taken}.")
    return FightRoll(outcome.dealt, outcome.taken,
                     attacker.has("stun") and kept[0].crits > 0,
                     defender.has("stun") and kept[1].crits > 0, lines)


def fight_with_devastating(attacker: AttackSpec, defender: AttackSpec, a: Retained,
                           d: Retained, attacker_wounds: int | None,
                           defender_wounds: int | None, *, steps: bool = True
                           ) -> tuple[FightOutcome, tuple[int, int]]:
    """Devastating (attacker's first, then the defender's if still standing), then the
    strike/block sequence; returns the outcome (totals include Devastating) and the two
    Devastating amounts. ``steps=False`` leaves the outcome's steps out (the exact odds need
    only the totals, which are then one look-up)."""
    dev_a = fight_devastating(attacker, a.crits, defender_wounds)
    dw = None if defender_wounds is None else defender_wounds - dev_a
    dev_d = 0 if dw == 0 else fight_devastating(defender, d.crits, attacker_wounds)
    aw = None if attacker_wounds is None else attacker_wounds - dev_d
    if aw == 0 or dw == 0:
        return FightOutcome(dev_a, dev_d), (dev_a, dev_d)
    sides = (FightSide(a.crits, a.normals, attacker.normal, attacker.crit, aw,
                       attacker.has("brutal"), attacker.has("shock")),
             FightSide(d.crits, d.normals, defender.normal, defender.crit, dw,
                       defender.has("brutal"), defender.has("shock")))
    if not steps:
        dealt, taken = fight_totals(*sides)
        return FightOutcome(dealt + dev_a, taken + dev_d), (dev_a, dev_d)
    out = resolve_fight(*sides)
    return FightOutcome(out.dealt + dev_a, out.taken + dev_d, out.steps), (dev_a, dev_d)


def roll_hot(dice: Dice, weapon_hit: int, label: str) -> tuple[int, str]:
    """Hot: one D6 after the weapon is used (once per action, after all its targets)."""
    entry = dice.d6(f"{label}: Hot")
    damage = hot_damage(entry.face, weapon_hit)
    text = (f"Hot: rolled {entry.face}, below {weapon_hit}+: {damage} damage to the shooter."
            if damage else f"Hot: rolled {entry.face}, no damage.")
    return damage, text


# -- targeting and movement rules (data the engine asks) ------------------------------------------


def in_range(weapon: Weapon, distance: float) -> bool:
    """Range x (and the weapon's own range): only targets within it are valid."""
    reach = weapon.effective_range
    return reach is None or distance <= reach + 1e-9


def may_shoot_while_concealed(weapon: Weapon) -> bool:
    """Silent: the operative can shoot with this weapon while it has a Conceal order."""
    return weapon.has("silent")


def heavy_allowed_moves(weapon: Weapon) -> tuple[str, ...] | None:
    """Heavy: None if the weapon is not Heavy; else the moves still allowed in the activation
    it shoots (before or after): none for plain Heavy, ``("dash",)`` for Heavy (Dash only)."""
    rule = weapon.rule("heavy")
    if rule is None:
        return None
    return (str(rule.value),) if rule.value else ()


def may_shoot_after_move(weapon: Weapon, moved_how: str | None) -> bool:
    """Heavy: not in an activation in which the operative moved (unless the move was the one
    Heavy (x) allows). Guard shots (out of activation) are unaffected: pass ``None``."""
    allowed = heavy_allowed_moves(weapon)
    return allowed is None or moved_how is None or moved_how in allowed


def uses_left(weapon: Weapon, used: int) -> int | None:
    """Limited x: uses left (an action with several targets counts once); None: unlimited."""
    rule = weapon.rule("limited")
    return None if rule is None else max(0, int(rule.value) - used)


def valid_target(weapon: Weapon, *, visible: bool, concealed: bool, in_cover: bool,
                 cover_light_only: bool = False) -> bool:
    """Whether an operative may be shot: Engaged ones if visible; Concealed ones if visible and
    not in cover. Seek: terrain gives no cover for this; Seek Light: light terrain gives none.
    Seek changes targeting only: a target in cover still keeps its cover save."""
    if not visible:
        return False
    if not concealed:
        return True
    if weapon.has("seek"):
        return True
    if weapon.has("seek_light") and cover_light_only:
        return True
    return not in_cover


@dataclass(frozen=True)
class Secondary:
    """How a weapon picks extra targets after the primary one.

    ``kind`` is ``blast`` or ``torrent``; ``radius`` the inches from the primary target. Blast:
    enemies within ``radius`` and visible to the primary target, ignoring Conceal, each shot in
    cover / obscured exactly when the primary was. Torrent: any other valid targets (of the
    shooter) within ``radius``, each with its own cover. Each extra target is a full attack.
    """

    kind: str
    radius: float
    needs_visible_to_primary: bool
    needs_valid_for_shooter: bool
    cover_from_primary: bool


def secondary_rule(weapon: Weapon) -> Secondary | None:
    """The Blast or Torrent rule of ``weapon`` as data (Blast first if it had both)."""
    blast = weapon.rule("blast")
    if blast is not None:
        return Secondary("blast", float(blast.value), True, False, True)
    torrent = weapon.rule("torrent")
    if torrent is not None:
        return Secondary("torrent", float(torrent.value), False, True, False)
    return None


@dataclass(frozen=True)
class Candidate:
    """Another operative near the primary target, as the engine sees it."""

    id: str
    distance_to_primary: float
    visible_to_primary: bool
    valid_for_shooter: bool
    enemy_of_shooter: bool = True


def secondary_targets(weapon: Weapon, candidates: Iterable[Candidate]) -> list[str]:
    """Ids of the extra targets Blast or Torrent adds (in the order given)."""
    rule = secondary_rule(weapon)
    if rule is None:
        return []
    out = []
    for c in candidates:
        if not c.enemy_of_shooter or c.distance_to_primary > rule.radius + 1e-9:
            continue
        if rule.needs_visible_to_primary and not c.visible_to_primary:
            continue
        if rule.needs_valid_for_shooter and not c.valid_for_shooter:
            continue
        out.append(c.id)
    return out


def devastating_splash(weapon: Weapon) -> tuple[float, int] | None:
    """The distance form of Devastating (``x" Devastating y``): ``(x, y)``; each retained crit
    also inflicts y on every other operative (either side) visible to and within x of the
    target. None for plain Devastating."""
    rule = weapon.rule("devastating")
    if rule is not None and isinstance(rule.value, tuple):
        return float(rule.value[0]), int(rule.value[1])
    return None


def vantage_accurate(height_above: float) -> int:
    """Vantage against an Engaged target: Accurate 1 from 2" above, Accurate 2 from 4"."""
    if height_above >= 4:
        return 2
    if height_above >= 2:
        return 1
    return 0
