"""The fight solver's rewrite (issue #13 item 5) plays every fight exactly as before.

``_OldFightSolver`` below is ``kt2024.FightSolver`` as it was at commit 27b8595, kept verbatim
(only its name and one annotation's module are new). The new solver must give the same ``(value,
move, dealt, taken)`` in every state (so ``resolve_fight``'s steps, the game's logs and the AI's
choices cannot change), and the exact fight odds must equal the Fraction oracle
(``tests/support/odds_oracle.py``) computed with the old solver, Fraction for Fraction and in
the same key order: on the 51 shipped-style fights ``bench/bench_odds.py`` times and on
generated profiles. ``tests/rules/test_odds.py`` checks both against a brute force written from
the policy."""

from __future__ import annotations

from functools import lru_cache
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solo_ops.core.model import parse_weapon_rule
from solo_ops.rules import kt2024, kt2024_fight, odds
from solo_ops.rules.kt2024 import AttackSpec, FightSide
from tests.support import odds_oracle as oracle
from tests.support.budget import examples


class _OldFightSolver:
    """The fight policy's game tree for one :data:`FightRules`, solved by dynamic programming.

    A state is (dice left on each side, wounds left on each side, whose turn, Shock still
    available). Each state is solved once and remembered with its value (damage dealt minus
    damage taken from there on), the move the side to play makes and the damage dealt and taken
    along the rest of the fight, so the whole joint distribution of a fight costs one look-up
    per pair of retained dice.

    Wounds are remembered only up to what can still matter: a side whose wounds exceed the most
    damage the other side's remaining dice can deal (every die striking) can never be capped or
    taken out, so every wound total above that bound plays the same moves with the same
    damage. Replacing it by ``bound + 1`` keeps the states few (wounds 999 and wounds 49 are the
    same fight against 12 dice of 3/4 damage) and changes no move and no number.

    The moves are :func:`_moves` and :func:`_apply` written out inline (this is the hot loop of
    the exact odds); ``tests/rules/test_odds.py`` checks the result against a brute force.
    """

    def __init__(self, rules: kt2024.FightRules):
        self.rules = rules
        (self.a_norm, self.a_crit, self.d_norm, self.d_crit, self.a_brutal, self.d_brutal,
         self.a_shock, self.d_shock) = rules
        self.memo: dict[tuple[int, int, int, int, int, int, int, bool, bool],
                        tuple[int, str | None, int, int]] = {}

    def solve(self, ac: int, an: int, dc: int, dn: int, aw: int, dw: int, turn: int,
              ashock: bool, dshock: bool) -> tuple[int, str | None, int, int]:
        """``(value, move, dealt, taken)`` of a state: the minimax value from the attacker's
        side, the move the side to play makes (None when the fight is over) and the damage
        the attacker deals and takes from here to the end under the policy."""
        bound = dc * self.d_crit + dn * self.d_norm + 1
        if aw > bound:
            aw = bound
        bound = ac * self.a_crit + an * self.a_norm + 1
        if dw > bound:
            dw = bound
        ashock = ashock or not self.a_shock
        dshock = dshock or not self.d_shock
        key = (ac, an, dc, dn, aw, dw, turn, ashock, dshock)
        found = self.memo.get(key)
        if found is not None:
            return found
        if aw <= 0 or dw <= 0 or not (ac or an or dc or dn):
            result: tuple[int, str | None, int, int] = (0, None, 0, 0)
        elif turn == 0 and not (ac or an):
            result = self.solve(ac, an, dc, dn, aw, dw, 1, ashock, dshock)
        elif turn == 1 and not (dc or dn):
            result = self.solve(ac, an, dc, dn, aw, dw, 0, ashock, dshock)
        elif turn == 0:
            result = self._attacker(ac, an, dc, dn, aw, dw, ashock, dshock)
        else:
            result = self._defender(ac, an, dc, dn, aw, dw, ashock, dshock)
        self.memo[key] = result
        return result

    def _attacker(self, ac: int, an: int, dc: int, dn: int, aw: int, dw: int, ashock: bool,
                  dshock: bool) -> tuple[int, str | None, int, int]:
        """The attacker's best move (ties: the order of ``ACTIONS``)."""
        solve = self.solve
        options = []
        if ac:  # strike with a crit (Shock: discard one of the defender's normals, else a crit)
            hit = min(self.a_crit, dw)
            odc, odn, nas = dc, dn, ashock
            if ashock and self.a_shock:
                if odn:
                    odn -= 1
                elif odc:
                    odc -= 1
                nas = False
            v, _, d, t = solve(ac - 1, an, odc, odn, aw, dw - hit, 1, nas, dshock)
            options.append((hit + v, "strike_crit", hit + d, t))
        if an:
            hit = min(self.a_norm, dw)
            v, _, d, t = solve(ac, an - 1, dc, dn, aw, dw - hit, 1, ashock, dshock)
            options.append((hit + v, "strike_normal", hit + d, t))
        if ac and dc:
            v, _, d, t = solve(ac - 1, an, dc - 1, dn, aw, dw, 1, ashock, dshock)
            options.append((v, "block_crit_crit", d, t))
        if an and dn and not self.d_brutal:
            v, _, d, t = solve(ac, an - 1, dc, dn - 1, aw, dw, 1, ashock, dshock)
            options.append((v, "block_normal_normal", d, t))
        if ac and dn:
            v, _, d, t = solve(ac - 1, an, dc, dn - 1, aw, dw, 1, ashock, dshock)
            options.append((v, "block_crit_normal", d, t))
        best = options[0]
        for cand in options[1:]:
            if cand[0] > best[0]:
                best = cand
        return best

    def _defender(self, ac: int, an: int, dc: int, dn: int, aw: int, dw: int, ashock: bool,
                  dshock: bool) -> tuple[int, str | None, int, int]:
        """The defender's best move (lowest value for the attacker; ties as above)."""
        solve = self.solve
        options = []
        if dc:
            hit = min(self.d_crit, aw)
            oac, oan, nds = ac, an, dshock
            if dshock and self.d_shock:
                if oan:
                    oan -= 1
                elif oac:
                    oac -= 1
                nds = False
            v, _, d, t = solve(oac, oan, dc - 1, dn, aw - hit, dw, 0, ashock, nds)
            options.append((v - hit, "strike_crit", d, hit + t))
        if dn:
            hit = min(self.d_norm, aw)
            v, _, d, t = solve(ac, an, dc, dn - 1, aw - hit, dw, 0, ashock, dshock)
            options.append((v - hit, "strike_normal", d, hit + t))
        if dc and ac:
            v, _, d, t = solve(ac - 1, an, dc - 1, dn, aw, dw, 0, ashock, dshock)
            options.append((v, "block_crit_crit", d, t))
        if dn and an and not self.a_brutal:
            v, _, d, t = solve(ac, an - 1, dc, dn - 1, aw, dw, 0, ashock, dshock)
            options.append((v, "block_normal_normal", d, t))
        if dc and an:
            v, _, d, t = solve(ac, an - 1, dc - 1, dn, aw, dw, 0, ashock, dshock)
            options.append((v, "block_crit_normal", d, t))
        best = options[0]
        for cand in options[1:]:
            if cand[0] < best[0]:
                best = cand
        return best


@lru_cache(maxsize=4)
def _old_solver(rules: kt2024.FightRules) -> _OldFightSolver:
    """Stands in for ``kt2024_fight.solvers`` (an lru_cache too: the oracle clears it)."""
    return _OldFightSolver(rules)


@pytest.fixture
def old_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    """``kt2024`` plays its fights with the old solver for the duration of the test."""
    _old_solver.cache_clear()
    monkeypatch.setattr(kt2024_fight, "solvers", _old_solver)


def _rules(*names: str) -> tuple:
    return tuple(parse_weapon_rule(n) for n in names)


def _old_joint(a: AttackSpec, d: AttackSpec, aw: int | None, dw: int | None,
               monkeypatch: pytest.MonkeyPatch) -> tuple[object, ...]:
    """The oracle's fight odds, played by the old solver."""
    with monkeypatch.context() as m:
        _old_solver.cache_clear()
        m.setattr(kt2024_fight, "solvers", _old_solver)
        old = oracle.fight_2024.__wrapped__(a, d, aw, dw)
    return old.joint, list(old.joint), old.dealt.mean, old.taken.mean


def _new_joint(a: AttackSpec, d: AttackSpec, aw: int | None, dw: int | None
               ) -> tuple[object, ...]:
    odds.clear_caches()
    new = odds.fight_2024(a, d, aw, dw)
    return new.joint, list(new.joint), new.dealt.mean, new.taken.mean


# -- state by state --------------------------------------------------------------------------------

WOUNDS = (-1, 0, 1, 2, 3, 4, 5, 6, 7, 9, 12, 17, kt2024.NO_WOUNDS_CAP)
"""Wounds left to try in every state: out already, every small number a blow can cap, large."""


@settings(max_examples=examples(30), deadline=None)
@given(rules=st.tuples(st.integers(0, 6), st.integers(0, 8), st.integers(0, 6),
                       st.integers(0, 8), st.booleans(), st.booleans(), st.booleans(),
                       st.booleans()),
       most=st.integers(1, 3), aw=st.sampled_from(WOUNDS), dw=st.sampled_from(WOUNDS))
def test_every_state_has_the_old_solvers_value_move_and_totals(
        rules: kt2024.FightRules, most: int, aw: int, dw: int) -> None:
    """Every state up to ``most`` dice of each kind a side (both turns, Shock used or not) with
    these wounds and every smaller wound total: the same (value, move, dealt, taken)."""
    new, old = kt2024.FightSolver(rules), _OldFightSolver(rules)
    for ac, an, dc, dn in product(range(most + 1), repeat=4):
        for wa, wd in ((aw, dw), (aw, 3), (2, dw), (aw - 1, dw - 1)):
            for turn, ashock, dshock in product((0, 1), (True, False), (True, False)):
                state = (ac, an, dc, dn, wa, wd, turn, ashock, dshock)
                assert new.solve(*state) == old.solve(*state), (rules, state)


def test_a_deep_state_with_both_shocks_and_brutal_matches_state_by_state() -> None:
    """Five dice of each kind a side (more than any shipped weapon retains), both sides with
    Shock, one Brutal, wounds that cap some blows and not others."""
    rules = (3, 4, 4, 5, True, False, True, True)
    new, old = kt2024.FightSolver(rules), _OldFightSolver(rules)
    for ac, an, dc, dn in product(range(6), repeat=4):
        for wa, wd in ((11, 14), (6, 9), (40, 40)):
            for turn in (0, 1):
                state = (ac, an, dc, dn, wa, wd, turn, True, True)
                assert new.solve(*state) == old.solve(*state), state


def test_a_side_without_dice_strikes_nothing_and_the_other_strikes_all() -> None:
    """Hand-worked: 2 crits of 4 and a normal of 3 against 9 wounds and no dice: 4 + 4 + 3 = 11,
    capped at 9, the crits struck first; the other way round the defender deals min(5, 2)."""
    solver = kt2024.FightSolver((3, 4, 2, 5, False, False, True, True))
    assert solver.solve(2, 1, 0, 0, 5, 9, 0, True, True) == (9, "strike_crit", 9, 0)
    assert solver.solve(2, 1, 0, 0, 5, 9, 1, True, True) == (9, "strike_crit", 9, 0)
    assert solver.solve(0, 0, 1, 0, 2, 9, 0, True, True) == (-2, "strike_crit", 0, 2)
    assert solver.solve(0, 0, 0, 3, 7, 9, 1, True, True) == (-6, "strike_normal", 0, 6)
    assert solver.solve(0, 0, 0, 0, 7, 9, 0, True, True) == (0, None, 0, 0)
    assert solver.solve(1, 0, 1, 0, 0, 9, 0, True, True) == (0, None, 0, 0)
    assert solver.states() == 0  # none of these needed the memo


def test_only_undecided_states_are_remembered() -> None:
    """The memo holds states where both sides have dice and wounds, wounds at most one above
    what the other side can still deal, Shock's bit only with a crit left to strike with."""
    rules = (3, 4, 4, 5, False, True, True, True)
    solver = kt2024.FightSolver(rules)
    for ac, an, dc, dn in product(range(4), repeat=4):
        solver.solve(ac, an, dc, dn, 12, 13, 0, True, True)
    assert solver.states() > 100
    for memo in solver.memo:
        for (ac, an, dc, dn, aw, dw, sh), (value, move, dealt, taken) in memo.items():
            assert (ac or an) and (dc or dn) and aw > 0 and dw > 0
            assert aw <= dc * 5 + dn * 4 + 1 and dw <= ac * 4 + an * 3 + 1
            assert not (sh & 1) or ac
            assert not (sh & 2) or dc
            assert move in kt2024.ACTIONS and value == dealt - taken


@settings(max_examples=60, deadline=None)
@given(sides=st.tuples(*(st.integers(0, 4) for _ in range(4))),
       damage=st.tuples(*(st.integers(0, 6) for _ in range(4))),
       wounds=st.tuples(st.one_of(st.none(), st.integers(1, 20)),
                        st.one_of(st.none(), st.integers(1, 20))),
       flags=st.tuples(*(st.booleans() for _ in range(4))))
def test_resolve_fight_plays_the_old_solvers_steps(
        sides: tuple[int, int, int, int], damage: tuple[int, int, int, int],
        wounds: tuple[int | None, int | None], flags: tuple[bool, bool, bool, bool]) -> None:
    """The rolled fight (the game's logs) takes the same steps with either solver."""
    attacker = FightSide(sides[0], sides[1], damage[0], damage[1], wounds[0], flags[0],
                         flags[1])
    defender = FightSide(sides[2], sides[3], damage[2], damage[3], wounds[1], flags[2],
                         flags[3])
    kt2024.solvers.cache_clear()
    new = kt2024.resolve_fight(attacker, defender)
    saved = kt2024_fight.solvers
    try:
        _old_solver.cache_clear()
        kt2024_fight.solvers = _old_solver
        old = kt2024.resolve_fight(attacker, defender)
    finally:
        kt2024_fight.solvers = saved
    assert new == old


# -- the exact odds --------------------------------------------------------------------------------


@pytest.mark.parametrize("index", range(51))
def test_shipped_fights_equal_the_oracle_played_by_the_old_solver(
        index: int, monkeypatch: pytest.MonkeyPatch) -> None:
    a, d, aw, dw = oracle.shipped_fights(51)[index]
    assert _new_joint(a, d, aw, dw) == _old_joint(a, d, aw, dw, monkeypatch)


FIGHT_RULES = st.lists(st.sampled_from(["brutal", "shock", "balanced", "relentless",
                                        "ceaseless", "lethal=5", "lethal=4", "rending",
                                        "severe", "punishing", "stun", "accurate=1",
                                        "devastating=1", "devastating=2"]),
                       max_size=3, unique=True).map(lambda r: _rules(*r))


@st.composite
def fighters(draw: st.DrawFn) -> AttackSpec:
    """A melee profile: 1-6 attack dice, Hit 2+-6+, crit damage at least normal damage (as
    every datacard has it), some of the rules that change fight dice."""
    normal = draw(st.integers(1, 6))
    return AttackSpec(draw(st.integers(1, 6)), draw(st.integers(2, 6)), normal,
                      draw(st.integers(normal, 8)), draw(FIGHT_RULES))


@settings(max_examples=examples(60), deadline=None)
@given(a=fighters(), d=fighters(), aw=st.one_of(st.none(), st.integers(1, 16)),
       dw=st.one_of(st.none(), st.integers(1, 16)))
def test_generated_fights_equal_the_oracle_played_by_the_old_solver(
        a: AttackSpec, d: AttackSpec, aw: int | None, dw: int | None) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert _new_joint(a, d, aw, dw) == _old_joint(a, d, aw, dw, monkeypatch)


def test_kept_fight_solvers_are_bounded_by_their_states_not_their_number() -> None:
    """Issue #31 item 5: the solvers kept between questions hold at most a budget of solved
    states together (the least recently asked about go first), however few or many that is:
    big solvers (dice and wounds at the limits) are dropped, small ones are all kept."""
    budget = 20_000
    solvers = kt2024_fight.Solvers(budget)
    sizes = []
    for crit in range(3, 9):  # six sets of fight rules, each asked about thousands of states
        solver = solvers((3, crit, 2, 4, False, False, True, True))
        for ac in range(7):
            for dc in range(7):
                for dw in range(1, 25):
                    solver.solve(ac, 6 - ac, dc, 6 - dc, 30, dw, 0, True, True)
        sizes.append(solver.states())
        info = solvers.cache_info()
        assert info.states - solver.states() <= budget  # the others within the budget
    assert min(sizes) > budget / 2  # two or three fit: never all six
    assert solvers.cache_info().currsize <= 3
    small = kt2024_fight.Solvers(budget)
    for damage in range(1, 21):
        small((damage, damage + 1, 1, 2, False, False, False, False)).solve(
            1, 1, 1, 1, 3, 3, 0, True, True)
    assert small.cache_info().currsize == 20  # tiny solvers: every one kept
    assert kt2024_fight.solvers.budget == kt2024_fight.SOLVER_STATES
