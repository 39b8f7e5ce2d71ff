"""Kill Team 2024 fights: the strike/block policy, its steps, and Devastating before it.

Both sides' retained dice (:class:`FightSide`) are resolved by :func:`resolve_fight` with a
documented deterministic policy, answered by the fight solver
(:mod:`solo_ops.rules.kt2024_fight_solver`, one per set of fight rules, kept by
:func:`solvers`); :func:`fight_totals` asks for the totals alone (the exact odds), and
:func:`fight_with_devastating` applies Devastating first, as the rolled fight and the odds both
do.

A side may also choose its own moves (the players, die by die: 001 "Alternate Strike or Block"):
:func:`resolve_fight` then asks that side's :data:`FightChooser` with a :class:`FightChoice` (the
dice left, the wounds, and each legal move with where it leads when both sides then play the
policy; the policy's own move is the advice) whenever it has more than one legal move and the
other side still has dice to block or strike back with.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from solo_ops.rules.kt2024_dice import CRIT, NORMAL, AttackSpec, Retained
from solo_ops.rules.kt2024_fight_solver import ACTIONS, FightRules, FightSolver

NO_WOUNDS_CAP = 10**6
"""Stands in for "no wound limit" where a fight needs a number (damage is never this high)."""


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
class FightOption:
    """One legal move of the side to play and where it leads: the damage that side deals and
    takes from this move to the end of the fight when both sides then play the policy (the
    dice are rolled, so this is certain), and whether it is the policy's own move."""

    move: str  # one of ACTIONS ("strike_crit", "block_crit_normal", ...)
    dealt: int
    taken: int
    advised: bool = False


@dataclass(frozen=True)
class FightStep:
    """One resolved die: who (``attacker``/``defender``), ``strike`` or ``block``, with which
    kind of die, against which kind (blocks) and damage dealt (strikes). ``options``: the
    moves that side could have made, with their outcomes (kept when the other side chooses
    its own moves, to explain the policy's choice); ``chosen``: the side chose this move
    itself (not the policy)."""

    side: str
    action: str
    die: str
    against: str | None = None
    damage: int = 0
    shock: str | None = None  # the opponent's die kind Shock discarded
    options: tuple[FightOption, ...] = ()
    chosen: bool = False
    full: int = 0  # a strike's damage before the cap at the wounds left

    @property
    def move(self) -> str:
        """The move's name in :data:`ACTIONS`."""
        return f"{self.action}_{self.die}" + (f"_{self.against}" if self.against else "")


@dataclass(frozen=True)
class FightChoice:
    """What a side choosing its own moves sees before resolving a die: its dice left and the
    other side's (``(crits, normals)``), both sides' wounds left and damage per die
    (``(normal, crit)``), the moves it may make with their outcomes (:class:`FightOption`),
    the steps resolved so far, and whether its next crit strike sets off Shock and whether
    the other side's weapon is Brutal (blocks with crits only). ``side`` is ``attacker`` or
    ``defender``; ``lines`` (the dice as rolled, the steps so far) and ``names`` (its own, the
    other side's) are added by the caller."""

    side: str
    mine: tuple[int, int]
    theirs: tuple[int, int]
    wounds: tuple[int, int]
    damage: tuple[tuple[int, int], tuple[int, int]]
    options: tuple[FightOption, ...]
    steps: tuple[FightStep, ...] = ()
    shock: bool = False
    brutal: bool = False
    lines: tuple[str, ...] = field(default=(), compare=False)
    names: tuple[str, str] = field(default=("", ""), compare=False)

    @property
    def advice(self) -> str:
        """The policy's move (the engine's advice)."""
        return next(o.move for o in self.options if o.advised)


FightChooser = Callable[[FightChoice], str]
"""Asked when a side choosing its own moves has a real choice: the move it makes (one of the
choice's options)."""


@dataclass(frozen=True)
class FightOutcome:
    dealt: int  # damage the attacker dealt (capped at the defender's wounds)
    taken: int  # damage the attacker took (capped at its wounds)
    steps: tuple[FightStep, ...] = ()


def _moves(me: tuple[int, int], opp: tuple[int, int], opp_brutal: bool) -> list[str]:
    mc, mn = me
    oc, on = opp
    out = []
    for act in ACTIONS:
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


SOLVER_STATES = 1_000_000
"""How many solved fight states the kept solvers may hold together (about 205 bytes each, so
about 200 MB; measured: 12 attacks against 12 at damage 3/5 against 2/4 and every wound total
up to 60 solves 1,158,484 states in 238 MB). Real profiles solve a few thousand."""


class _CacheInfo(NamedTuple):
    currsize: int
    """Solvers kept."""
    states: int
    """States they hold together."""


class Solvers:
    """One solver per set of fight rules (the two weapons' damage, Brutal and Shock), kept
    while the AI keeps asking about them — as many as fit in :data:`SOLVER_STATES` solved
    states together, the least recently asked about going first: bounded by the memory they
    hold, not by their number (four solvers of profiles at the limits held 766 MB). A solver
    grows as it is asked; the kept ones are trimmed each time a new one is made, so at most
    the budget plus the solver in use are held. For real profiles a solver is rebuilt in
    milliseconds, and :func:`~solo_ops.rules.odds.fight_2024` keeps its own results.
    ``cache_clear`` and ``cache_info`` answer as ``functools.lru_cache``'s do."""

    def __init__(self, budget: int = SOLVER_STATES) -> None:
        self.budget = budget
        self._kept: OrderedDict[FightRules, FightSolver] = OrderedDict()

    def __call__(self, rules: FightRules) -> FightSolver:
        solver = self._kept.get(rules)
        if solver is not None:
            self._kept.move_to_end(rules)
            return solver
        held = sum(s.states() for s in self._kept.values())
        while self._kept and held > self.budget:
            _rules, oldest = self._kept.popitem(last=False)
            held -= oldest.states()
        solver = self._kept[rules] = FightSolver(rules)
        return solver

    def cache_clear(self) -> None:
        self._kept.clear()

    def cache_info(self) -> _CacheInfo:
        return _CacheInfo(len(self._kept), sum(s.states() for s in self._kept.values()))


solvers = Solvers()
"""The kept fight solvers (see :class:`Solvers`)."""


def _fight_value(ac: int, an: int, dc: int, dn: int, aw: int, dw: int, turn: int,
                 ashock: bool, dshock: bool, rules: FightRules) -> tuple[int, str | None]:
    """Minimax value (damage dealt minus damage taken, from the attacker's side) of a fight
    state, and the move the side to play makes. ``turn`` 0 is the attacker, 1 the defender.
    ``ashock`` / ``dshock``: that side can still trigger Shock."""
    value, act, _, _ = solvers(rules).solve(ac, an, dc, dn, aw, dw, turn, ashock, dshock)
    return value, act


def fight_totals(attacker: FightSide, defender: FightSide) -> tuple[int, int]:
    """``(dealt, taken)`` of :func:`resolve_fight` without building its steps (the exact odds
    ask this once per pair of retained dice)."""
    aw = attacker.wounds if attacker.wounds is not None else NO_WOUNDS_CAP
    dw = defender.wounds if defender.wounds is not None else NO_WOUNDS_CAP
    _, _, dealt, taken = solvers(_fight_rules(attacker, defender)).solve(
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


def resolve_fight(attacker: FightSide, defender: FightSide,
                  choosers: tuple[FightChooser | None, FightChooser | None] = (None, None)
                  ) -> FightOutcome:
    """Resolve a fight's dice: the attacker resolves first, then they alternate, each
    resolving one success by striking or blocking (only crits block crits); a side with no
    dice left lets the other resolve the rest. The fight ends when either side is out of
    wounds.

    Policy (deterministic, both sides alike): play the move that is best for the side playing
    it assuming the opponent does the same, where "best" is damage dealt minus damage taken
    (each capped at the wounds left); ties go to strike-with-crit, strike-with-normal,
    block-crit-with-crit, block-normal-with-normal, block-normal-with-crit, in that order.
    Devastating is applied before this (see :func:`fight_devastating`).

    ``choosers`` (the attacker's, the defender's): a side with a chooser makes its own moves
    (001 "Alternate Strike or Block"): it is asked whenever it has more than one legal move
    and the other side still has dice (with none left, every order of its strikes deals the
    same). The other side's steps then keep their options, to explain the policy's moves.
    """
    aw = attacker.wounds if attacker.wounds is not None else NO_WOUNDS_CAP
    dw = defender.wounds if defender.wounds is not None else NO_WOUNDS_CAP
    rules = _fight_rules(attacker, defender)
    ac, an, dc, dn = attacker.crits, attacker.normals, defender.crits, defender.normals
    ashock = dshock = True
    turn = 0
    steps: list[FightStep] = []
    dealt = taken = 0
    explain = any(c is not None for c in choosers)
    while aw > 0 and dw > 0 and (ac or an or dc or dn):
        if turn == 0 and not (ac or an):
            turn = 1  # a side with no dice left lets the other resolve the rest
        elif turn == 1 and not (dc or dn):
            turn = 0
        now = (ac, an, dc, dn, aw, dw, ashock, dshock)
        _, act = _fight_value(*now[:6], turn, ashock, dshock, rules)
        assert act is not None
        options: tuple[FightOption, ...] = ()
        chosen = False
        if explain and (dc or dn if turn == 0 else ac or an):
            options = fight_options(now, turn, rules)
        chooser = choosers[turn]
        if chooser is not None and len(options) > 1:
            pick = chooser(_choice(now, turn, rules, options, tuple(steps)))
            if pick not in {o.move for o in options}:
                raise ValueError(f"{pick!r} is not a legal move here")
            act, chosen = pick, True
        state, amount, shocked = _apply(act, turn, *now, rules)
        ac, an, dc, dn, aw, dw, ashock, dshock = state
        parts = act.split("_")
        against = parts[2] if parts[0] == "block" else None
        if turn == 0:
            dealt += amount
        else:
            taken += amount
        full = (rules[1] if parts[1] == CRIT else rules[0]) if turn == 0 else (
            rules[3] if parts[1] == CRIT else rules[2])
        steps.append(FightStep("attacker" if turn == 0 else "defender", parts[0], parts[1],
                               against, amount, shocked,
                               options if chooser is None else (), chosen,
                               full if parts[0] == "strike" else 0))
        turn = 1 - turn
    return FightOutcome(dealt, taken, tuple(steps))


_FightState = tuple[int, int, int, int, int, int, bool, bool]
"""``(ac, an, dc, dn, aw, dw, ashock, dshock)``: dice and wounds left, Shock still unused."""


def fight_options(now: _FightState, turn: int, rules: FightRules
                  ) -> tuple[FightOption, ...]:
    """Every legal move of the side to play (``turn`` 0 the attacker, 1 the defender) in
    state ``now``, in :data:`ACTIONS` order, each with the damage that side deals and takes
    from it to the end of the fight when both sides then play the policy; the policy's own
    move is marked ``advised``."""
    ac, an, dc, dn, aw, dw, ashock, dshock = now
    solve = solvers(rules).solve
    advised = solve(ac, an, dc, dn, aw, dw, turn, ashock, dshock)[1]
    me, opp = ((ac, an), (dc, dn)) if turn == 0 else ((dc, dn), (ac, an))
    out = []
    for act in _moves(me, opp, rules[5] if turn == 0 else rules[4]):
        after, amount, _ = _apply(act, turn, *now, rules)
        _, _, rest_dealt, rest_taken = solve(*after[:6], 1 - turn, after[6], after[7])
        if turn == 0:
            mine_dealt, mine_taken = amount + rest_dealt, rest_taken
        else:
            mine_dealt, mine_taken = amount + rest_taken, rest_dealt
        out.append(FightOption(act, mine_dealt, mine_taken, act == advised))
    return tuple(out)


def _choice(now: _FightState, turn: int, rules: FightRules, options: tuple[FightOption, ...],
            steps: tuple[FightStep, ...]) -> FightChoice:
    """The :class:`FightChoice` of the side to play (``turn``) in state ``now``."""
    ac, an, dc, dn, aw, dw, ashock, dshock = now
    a_norm, a_crit, d_norm, d_crit, a_brutal, d_brutal, a_shock, d_shock = rules
    if turn == 0:
        return FightChoice("attacker", (ac, an), (dc, dn), (aw, dw),
                           ((a_norm, a_crit), (d_norm, d_crit)), options, steps,
                           a_shock and ashock, d_brutal)
    return FightChoice("defender", (dc, dn), (ac, an), (dw, aw),
                       ((d_norm, d_crit), (a_norm, a_crit)), options, steps,
                       d_shock and dshock, a_brutal)


def fight_devastating(spec: AttackSpec, crits: int, wounds: int | None) -> int:
    """Devastating in a fight: each retained crit inflicts its damage as soon as the dice are
    retained, before anyone strikes (capped at ``wounds``)."""
    amount = spec.devastating * crits
    return amount if wounds is None else min(amount, wounds)


def devastating_before(attacker: AttackSpec, defender: AttackSpec, a: Retained, d: Retained,
                       attacker_wounds: int | None, defender_wounds: int | None
                       ) -> tuple[int, int]:
    """Devastating before a fight: the attacker's amount first, then the defender's unless
    the attacker's took it out (each capped at the wounds left)."""
    dev_a = fight_devastating(attacker, a.crits, defender_wounds)
    dw = None if defender_wounds is None else defender_wounds - dev_a
    dev_d = 0 if dw == 0 else fight_devastating(defender, d.crits, attacker_wounds)
    return dev_a, dev_d


def fight_with_devastating(attacker: AttackSpec, defender: AttackSpec, a: Retained,
                           d: Retained, attacker_wounds: int | None,
                           defender_wounds: int | None, *, steps: bool = True,
                           choosers: tuple[FightChooser | None, FightChooser | None] = (
                               None, None)) -> tuple[FightOutcome, tuple[int, int]]:
    """Devastating (attacker's first, then the defender's if still standing), then the
    strike/block sequence; returns the outcome (totals include Devastating) and the two
    Devastating amounts. ``steps=False`` leaves the outcome's steps out (the exact odds need
    only the totals, which are then one look-up). ``choosers``: see :func:`resolve_fight`."""
    dev_a, dev_d = devastating_before(attacker, defender, a, d, attacker_wounds,
                                      defender_wounds)
    dw = None if defender_wounds is None else defender_wounds - dev_a
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
    out = resolve_fight(*sides, choosers)
    return FightOutcome(out.dealt + dev_a, out.taken + dev_d, out.steps), (dev_a, dev_d)
