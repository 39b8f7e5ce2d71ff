"""How a Kill Team 2024 fight's odds assume each side blocks: 001 "Alternate Strike or
Block (Only Crits can block Crits)."

``best`` (the engine's and the AI's policy): both sides strike or block to maximise damage dealt
minus damage taken; ``strike``: both always strike, never block. Each policy's joint odds are
checked against a hand calculation on one die a side, and ``solo-ops combat fight`` says which
policy its odds assume. Reading: docs/rules.md, "Exact odds and the command line".
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from solo_ops.rules.kt2024 import AttackSpec
from solo_ops.rules.odds import fight_2024

A = AttackSpec(1, 4, 1, 2, ())  # 1 attack, hit 4+, damage 1/2


D = AttackSpec(1, 4, 3, 4, ())  # 1 attack, hit 4+, damage 3/4


def test_fight_best_policy_hand_computed() -> None:
    """001 "Alternate Strike or Block (Only Crits can block Crits)." Both sides play to
    maximise damage dealt minus damage taken. Each side: crit 1/6, normal 2/6, fail 3/6.
    A crit blocks (the defender's 3 or 4 is worth more than its own 2): crit-vs-crit and
    crit-vs-normal end 0/0; normal-vs-normal is blocked (0/0 beats 1 dealt, 3 taken);
    normal-vs-crit strikes (1/4). In 36ths: (0,0) 1+2+4+9 = 16, (2,0) 3, (1,4) 2, (1,0) 6,
    (0,4) 3, (0,3) 6."""
    odds = fight_2024(A, D, None, None, "best")
    assert odds.joint == {(0, 0): Fraction(16, 36), (0, 3): Fraction(6, 36),
                          (0, 4): Fraction(3, 36), (1, 0): Fraction(6, 36),
                          (1, 4): Fraction(2, 36), (2, 0): Fraction(3, 36)}
    assert odds.dealt.mean == Fraction(7, 18) and odds.taken.mean == Fraction(19, 18)


def test_fight_always_strike_policy_hand_computed() -> None:
    """The simpler reading: both always strike, so dealt and taken are independent: dealt
    2 (1/6), 1 (2/6), 0 (3/6), mean 2/3; taken 4 (1/6), 3 (2/6), mean 5/3. With the defender
    on 2 wounds, the attacker's crit (2) takes it out before it strikes back: (2, 0) 6/36."""
    odds = fight_2024(A, D, None, None, "strike")
    sixths = {0: Fraction(3, 6), 1: Fraction(2, 6), 2: Fraction(1, 6)}
    taken = {0: Fraction(3, 6), 3: Fraction(2, 6), 4: Fraction(1, 6)}
    assert odds.joint == {(d, t): p * q for d, p in sixths.items() for t, q in taken.items()}
    assert odds.dealt.mean == Fraction(2, 3) and odds.taken.mean == Fraction(5, 3)
    capped = fight_2024(A, D, None, 2, "strike")
    assert capped.joint[(2, 0)] == Fraction(6, 36)
    assert (2, 3) not in capped.joint and (2, 4) not in capped.joint
    with pytest.raises(ValueError, match="best, strike"):
        fight_2024(A, D, None, None, "block")


def test_combat_fight_states_and_offers_the_policy(runner) -> None:  # type: ignore[no-untyped-def]
    """``solo-ops combat fight`` says which policy its odds assume; ``--policy strike``."""
    import json

    from solo_ops.cli import main

    args = ["combat", "fight", "--attacks", "1", "--hit", "4", "--damage", "1/2",
            "--defender-attacks", "1", "--defender-hit", "4", "--defender-damage", "3/4"]
    text = runner.invoke(main, args)
    assert text.exit_code == 0, text.output
    assert "Policy: both sides strike or block to maximise damage dealt minus damage taken" \
        in text.output
    out = runner.invoke(main, [*args, "--policy", "strike", "--json"])
    data = json.loads(out.output)
    assert data["policy"] == "strike"
    assert data["dealt"]["mean"] == pytest.approx(2 / 3)
    assert data["taken"]["mean"] == pytest.approx(5 / 3)
    bad = runner.invoke(main, [*args, "--policy", "block"])
    assert bad.exit_code == 2


def test_the_defender_s_helpers_on_the_command_line(runner) -> None:  # type: ignore[no-untyped-def]
    """``--defender-helpers 1`` improves the defender's Hit by one (setting ``fight_assist``):
    a 4+ defender with one helper fights exactly as a 3+ one, both distributions the same."""
    import json

    from solo_ops.cli import main

    base = ["combat", "fight", "--attacks", "3", "--hit", "4", "--damage", "2/3",
            "--defender-attacks", "3", "--defender-damage", "2/3", "--json"]
    helped = json.loads(runner.invoke(main, [*base, "--defender-hit", "4",
                                             "--defender-helpers", "1"]).output)
    better = json.loads(runner.invoke(main, [*base, "--defender-hit", "3"]).output)
    assert helped["defender"]["hit_needed"] == 3 and helped["defender"]["helpers"] == 1
    for side in ("dealt", "taken"):
        assert helped[side] == better[side]
    bad = runner.invoke(main, [*base, "--defender-hit", "4", "--defender-helpers", "7"])
    assert bad.exit_code == 2 and "--defender-helpers: must be 0 to 6, got 7" in bad.output
