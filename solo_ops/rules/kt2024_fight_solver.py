"""The Kill Team 2024 fight policy's game tree, solved once per set of fight rules.

:class:`_FightSolver` answers, for a fight state, the move the side to play makes and the damage
dealt and taken along the rest of the fight under the policy :func:`~solo_ops.rules.kt2024_fight.
resolve_fight` documents. Its turns are closures built by the functions below, one per move
(strike with a crit, with Shock; strike with a normal; block a crit with a crit; block a normal
with a normal, not against Brutal; block a normal with a crit), then one per side's turn, and
the entry point that normalises a state. This is the hot loop of the exact odds
(:func:`~solo_ops.rules.odds.fight_2024`): the closures read their rules and memos as locals.
"""

from __future__ import annotations

from collections.abc import Callable

# Action order for ties (equal value): strike before block, crits first.
_ACTIONS = ("strike_crit", "strike_normal", "block_crit_crit", "block_normal_normal",
            "block_crit_normal")


FightRules = tuple[int, int, int, int, bool, bool, bool, bool]
"""(attacker normal, attacker crit, defender normal, defender crit, attacker brutal, defender
brutal, attacker shock, defender shock): what a fight's damage and moves depend on."""

_FightResult = tuple[int, str | None, int, int]
"""``(value, move, dealt, taken)`` of a fight state (see :meth:`_FightSolver.solve`)."""

_FightKey = tuple[int, int, int, int, int, int, int]
"""A normalised fight state: ``(ac, an, dc, dn, aw, dw, shock)`` (see :class:`_FightSolver`)."""

_SC, _SN, _BCC, _BNN, _BCN = _ACTIONS

_Move = Callable[[_FightKey], tuple[int, int, int]]
"""One move from a normalised state: its ``(value, dealt, taken)`` to the end of the fight."""

_Play = Callable[[_FightKey], _FightResult]
"""One side's turn in a normalised state: its best move, remembered in that side's memo."""

_Get = Callable[[_FightKey], _FightResult | None]
"""A memo's ``get``: the remembered result of a state, or None."""

_Solve = Callable[[int, int, int, int, int, int, int, bool, bool], _FightResult]
"""The solver's entry point, :meth:`_FightSolver.solve`."""


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

    The moves are :func:`~solo_ops.rules.kt2024_fight._moves` and
    :func:`~solo_ops.rules.kt2024_fight._apply` written out inline, one closure a move (this is
    the hot loop of the exact odds); ``tests/rules/test_odds.py`` checks the result against a brute
    force and ``tests/rules/test_fight_solver_unchanged.py`` against the previous solver, state by
    state.
    """

    def __init__(self, rules: FightRules):
        self.rules = rules
        self.memo: tuple[dict[_FightKey, _FightResult], dict[_FightKey, _FightResult]] = ({}, {})
        self.solve = self._build()

    def _build(self) -> _Solve:
        """The solver's functions, closures over its rules and memos (locals are the fastest
        names Python has)."""
        memo0, memo1 = self.memo
        get0, get1 = memo0.get, memo1.get
        # The two turns call each other: ``plays`` holds the attacker's (0) and the defender's
        # (1) once both are built.
        plays: list[_Play] = []
        attacker = _attacker_plays(self.rules, memo0, get1, plays)
        defender = _defender_plays(self.rules, memo1, get0, plays)
        plays.extend((attacker, defender))
        return _solve(self.rules, get0, get1, attacker, defender)

    def states(self) -> int:
        """How many states are remembered (both memos)."""
        return len(self.memo[0]) + len(self.memo[1])


# In every move below: (v, d, t) is a move's (value, dealt, taken) from the next state on, plus
# what the move itself deals. A next state where one side has no dice left is worked out on the
# spot (the other side deals min(its dice's damage, wounds)); otherwise ``b``/``b2`` are the new
# wound bounds, and the next state is looked up in the memo of the side to play next (``get``),
# or solved by that side's turn (``plays[0]`` the attacker's, ``plays[1]`` the defender's).


def _attacker_strike_crit(rules: FightRules, get1: _Get, plays: list[_Play]) -> _Move:
    """The attacker's crit strike: crit damage; Shock (its first crit strike) also discards one
    of the defender's successes, a normal if it has one, else a crit."""
    a_norm, a_crit, d_norm, d_crit = rules[:4]

    def strike_crit(k: _FightKey) -> tuple[int, int, int]:
        """Strike with a crit (the attacker to play, ``ac`` > 0)."""
        ac, an, dc, dn, aw, dw, sh = k
        if a_crit >= dw:
            return dw, dw, 0
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
                v, _, d, t = get1(key) or plays[1](key)
        elif ac == 1 and not an:
            x = dc * d_crit + dn * d_norm
            t = x if x < aw else aw
            v = -t
            d = 0
        else:
            key = (ac - 1, an, dc, dn, aw, ndw, sh)
            v, _, d, t = get1(key) or plays[1](key)
        return a_crit + v, a_crit + d, t

    return strike_crit


def _attacker_strike_normal(rules: FightRules, get1: _Get, plays: list[_Play]) -> _Move:
    """The attacker's normal strike: normal damage."""
    a_norm, _, d_norm, d_crit = rules[:4]

    def strike_normal(k: _FightKey) -> tuple[int, int, int]:
        """Strike with a normal (the attacker to play, ``an`` > 0)."""
        ac, an, dc, dn, aw, dw, sh = k
        if a_norm >= dw:
            return dw, dw, 0
        if not ac and an == 1:
            x = dc * d_crit + dn * d_norm
            t = x if x < aw else aw
            v = -t
            d = 0
        else:
            key = (ac, an - 1, dc, dn, aw, dw - a_norm, sh)
            v, _, d, t = get1(key) or plays[1](key)
        return v + a_norm, d + a_norm, t

    return strike_normal


def _defender_strike_crit(rules: FightRules, get0: _Get, plays: list[_Play]) -> _Move:
    """The defender's crit strike: crit damage; Shock (its first crit strike) also discards one
    of the attacker's successes, a normal if it has one, else a crit."""
    a_norm, a_crit, d_norm, d_crit = rules[:4]

    def strike_crit(k: _FightKey) -> tuple[int, int, int]:
        """Strike with a crit (the defender to play, ``dc`` > 0)."""
        ac, an, dc, dn, aw, dw, sh = k
        if d_crit >= aw:
            return -aw, 0, aw
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
                v, _, d, t = get0(key) or plays[0](key)
        elif dc == 1 and not dn:
            x = ac * a_crit + an * a_norm
            v = d = x if x < dw else dw
            t = 0
        else:
            key = (ac, an, dc - 1, dn, naw, dw, sh)
            v, _, d, t = get0(key) or plays[0](key)
        return v - d_crit, d, d_crit + t

    return strike_crit


def _defender_strike_normal(rules: FightRules, get0: _Get, plays: list[_Play]) -> _Move:
    """The defender's normal strike: normal damage."""
    a_norm, a_crit, d_norm, _ = rules[:4]

    def strike_normal(k: _FightKey) -> tuple[int, int, int]:
        """Strike with a normal (the defender to play, ``dn`` > 0)."""
        ac, an, dc, dn, aw, dw, sh = k
        if d_norm >= aw:
            return -aw, 0, aw
        if not dc and dn == 1:
            x = ac * a_crit + an * a_norm
            v = d = x if x < dw else dw
            t = 0
        else:
            key = (ac, an, dc, dn - 1, aw - d_norm, dw, sh)
            v, _, d, t = get0(key) or plays[0](key)
        return v - d_norm, d, t + d_norm

    return strike_normal


def _block_crit_with_crit(rules: FightRules, get: _Get, plays: list[_Play], then: int
                          ) -> _Move:
    """A crit blocks a crit ("only crits block crits"): one crit off each side, whichever side
    blocks; ``then`` is the side to play next, ``get`` its memo's look-up."""
    a_norm, a_crit, d_norm, d_crit = rules[:4]

    def block_crit_crit(k: _FightKey) -> tuple[int, int, int]:
        """Block a crit with a crit (``ac`` and ``dc`` > 0)."""
        ac, an, dc, dn, aw, dw, sh = k
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
            v, _, d, t = get(key) or plays[then](key)
        return v, d, t

    return block_crit_crit


def _block_normal_with_normal(rules: FightRules, get: _Get, plays: list[_Play], then: int
                              ) -> _Move:
    """A normal blocks a normal (not allowed against a Brutal weapon: its turn checks): one
    normal off each side, whichever side blocks; ``then`` and ``get`` as above."""
    a_norm, a_crit, d_norm, d_crit = rules[:4]

    def block_normal_normal(k: _FightKey) -> tuple[int, int, int]:
        """Block a normal with a normal (``an`` and ``dn`` > 0)."""
        ac, an, dc, dn, aw, dw, sh = k
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
            v, _, d, t = get(key) or plays[then](key)
        return v, d, t

    return block_normal_normal


def _attacker_block_normal_with_crit(rules: FightRules, get1: _Get, plays: list[_Play]
                                     ) -> _Move:
    """The attacker blocks one of the defender's normals with a crit."""
    a_norm, a_crit, d_norm, d_crit = rules[:4]

    def block_crit_normal(k: _FightKey) -> tuple[int, int, int]:
        """Block a normal with a crit (the attacker to play, ``ac`` and ``dn`` > 0)."""
        ac, an, dc, dn, aw, dw, sh = k
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
            v, _, d, t = get1(key) or plays[1](key)
        return v, d, t

    return block_crit_normal


def _defender_block_normal_with_crit(rules: FightRules, get0: _Get, plays: list[_Play]
                                     ) -> _Move:
    """The defender blocks one of the attacker's normals with a crit."""
    a_norm, a_crit, d_norm, d_crit = rules[:4]

    def block_crit_normal(k: _FightKey) -> tuple[int, int, int]:
        """Block a normal with a crit (the defender to play, ``dc`` and ``an`` > 0)."""
        ac, an, dc, dn, aw, dw, sh = k
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
            v, _, d, t = get0(key) or plays[0](key)
        return v, d, t

    return block_crit_normal


# In both turns below: (bv, bm, bd, bt) is the best move so far, (v, d, t) the move weighed.


def _attacker_plays(rules: FightRules, memo0: dict[_FightKey, _FightResult], get1: _Get,
                    plays: list[_Play]) -> _Play:
    """The attacker's turn: the move that is best for the attacker (the highest value)."""
    d_brutal = rules[5]
    strike_crit = _attacker_strike_crit(rules, get1, plays)
    strike_normal = _attacker_strike_normal(rules, get1, plays)
    block_crit_crit = _block_crit_with_crit(rules, get1, plays, 1)
    block_normal_normal = _block_normal_with_normal(rules, get1, plays, 1)
    block_crit_normal = _attacker_block_normal_with_crit(rules, get1, plays)

    def attacker(k: _FightKey) -> _FightResult:
        """The attacker to play in state ``k`` (normalised, both sides with dice and
        wounds): its best move (ties: the order of ``_ACTIONS``), remembered."""
        ac, an, dc, dn, _, _, _ = k
        bv = bd = bt = 0
        bm = None
        if ac:  # strike with a crit
            bv, bd, bt = strike_crit(k)
            bm = _SC
        if an:  # strike with a normal
            v, d, t = strike_normal(k)
            if bm is None or v > bv:
                bv, bm, bd, bt = v, _SN, d, t
        if ac and dc:  # block a crit with a crit
            v, d, t = block_crit_crit(k)
            if v > bv:
                bv, bm, bd, bt = v, _BCC, d, t
        if an and dn and not d_brutal:  # block a normal with a normal
            v, d, t = block_normal_normal(k)
            if v > bv:
                bv, bm, bd, bt = v, _BNN, d, t
        if ac and dn:  # block a normal with a crit
            v, d, t = block_crit_normal(k)
            if v > bv:
                bv, bm, bd, bt = v, _BCN, d, t
        r = memo0[k] = (bv, bm, bd, bt)
        return r

    return attacker


def _defender_plays(rules: FightRules, memo1: dict[_FightKey, _FightResult], get0: _Get,
                    plays: list[_Play]) -> _Play:
    """The defender's turn: the move that is best for the defender (the lowest value)."""
    a_brutal = rules[4]
    strike_crit = _defender_strike_crit(rules, get0, plays)
    strike_normal = _defender_strike_normal(rules, get0, plays)
    block_crit_crit = _block_crit_with_crit(rules, get0, plays, 0)
    block_normal_normal = _block_normal_with_normal(rules, get0, plays, 0)
    block_crit_normal = _defender_block_normal_with_crit(rules, get0, plays)

    def defender(k: _FightKey) -> _FightResult:
        """The defender to play in state ``k``: its best move (the lowest value for the
        attacker; ties as above), remembered."""
        ac, an, dc, dn, _, _, _ = k
        bv = bd = bt = 0
        bm = None
        if dc:  # strike with a crit
            bv, bd, bt = strike_crit(k)
            bm = _SC
        if dn:  # strike with a normal
            v, d, t = strike_normal(k)
            if bm is None or v < bv:
                bv, bm, bd, bt = v, _SN, d, t
        if dc and ac:  # block a crit with a crit
            v, d, t = block_crit_crit(k)
            if v < bv:
                bv, bm, bd, bt = v, _BCC, d, t
        if dn and an and not a_brutal:  # block a normal with a normal
            v, d, t = block_normal_normal(k)
            if v < bv:
                bv, bm, bd, bt = v, _BNN, d, t
        if dc and an:  # block a normal with a crit
            v, d, t = block_crit_normal(k)
            if v < bv:
                bv, bm, bd, bt = v, _BCN, d, t
        r = memo1[k] = (bv, bm, bd, bt)
        return r

    return defender


def _solve(rules: FightRules, get0: _Get, get1: _Get, attacker: _Play, defender: _Play
           ) -> _Solve:
    """The solver's entry point: a decided state answered on the spot, any other normalised
    (wound bounds, Shock's bits) and looked up, or solved by the side to play."""
    a_norm, a_crit, d_norm, d_crit, _, _, a_shock, d_shock = rules

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
