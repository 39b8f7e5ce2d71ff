"""Kill Team 2018: a player's charge whose roll cannot reach, moved by the relative words.
004 "the model can move up to its charge distance, as long as that move takes it as close as
possible to at least one of the targets of its charge, and not within 1" of any enemy models".
``move to X`` went the roll's length along the way in, which bends round the inch about
another enemy, and ended farther from the target than it started; the game then refused its
own proposal ("21.59,5.21 does not reach cultist-2 (within 1") and a failed charge must take
it closer to its target"). A play-tester's game: Translocum, seed 11, Gunner Rask's charge at
cultist-2 rolls 6 with 6.1" to go around the walls."""

from __future__ import annotations

from pathlib import Path

import pytest

from solo_ops.core.errors import RuleError
from solo_ops.game import intent
from solo_ops.game.engine import step
from solo_ops.io.opening import load_save
from solo_ops.rules import reach
from tests.support.players import cli_here
from tests.support.portal_board import RADIUS, start

ANSWERS = ["kell", "move 15,7", "done", "overwatch roll", "rask", "ready", "vale", "advance",
           "done", "oro", "move 21,6", "done", "rask", "shoot chaos-marine-3 roll", "done",
           "kell", "shoot cultist-2 roll", "done", "oro", "done", "kell",
           "fight cultist-2 roll", "done", "kell", "fallback 14,4.5", "done", "rask",
           "charge cultist-2"]


def _play(tmp_path: Path, *more: str) -> tuple[str, Path]:
    answers = tmp_path / "answers.txt"
    answers.write_text("\n".join([*ANSWERS, *more, "quit"]) + "\n")
    save = tmp_path / "s.json"
    run = cli_here("play", "translocum-secure-the-facility", "--seed", "11", "--save",
                   str(save), "--answers", str(answers), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "Gunner Rask's charge roll: 2D6: 2, 4 = 6" in run.stdout
    return run.stdout, save


def _gaps(save: Path) -> tuple[float, float]:
    """Rask's way to cultist-2 around the walls, base to base, before and after his charge."""
    game, state = load_save(save)[:2]
    terrain = game.terrain(state)
    rask, target = state.operatives["rask"], state.operatives["cultist-2"]
    before = reach.route_gap(terrain, (16.75, 1.75), rask.radius, target.at, target.radius)
    return before, reach.route_gap(terrain, rask.at, rask.radius, target.at, target.radius)


def test_move_to_the_target_charges_within_the_inch_the_roll_reaches(tmp_path: Path) -> None:
    """Base contact is 6.1" away around the walls, over the roll of 6; a point 0.9" from
    cultist-2 is 5.3" away: ``move to`` takes Rask there and the charge succeeds (the helper
    used to go the roll's length towards base contact, fail the charge, and refuse its own
    point)."""
    out, save = _play(tmp_path, "move to cultist-2", "yes")
    assert "does not reach cultist-2" not in out
    assert ("→ rask would charge from (16.8, 1.8) 5.3\" north to (15.5, 6.9), 0.9\" from "
            "cultist-2 (its charge roll allows 6.0\")") in out
    assert "Gunner Rask charges from (16.8, 1.8) 5.3\" north to (15.5, 6.9)." in out
    assert _gaps(save)[1] <= reach.CONTROL_RANGE


def test_a_charge_that_cannot_reach_goes_as_close_as_it_can(tmp_path: Path) -> None:
    """``move 2 toward cultist-2``: 2" reaches no end within the inch; the move goes to the
    point nearest cultist-2 around the walls (004), which the game takes as a failed charge."""
    out, save = _play(tmp_path, "move 2 toward cultist-2", "yes")
    assert "does not reach cultist-2" not in out
    assert "the charge fails" in out and "Gunner Rask's charge fails: it moves" in out
    before, after = _gaps(save)
    assert reach.CONTROL_RANGE < after < before


def test_base_contact_out_of_reach_points_to_the_words_that_charge(tmp_path: Path) -> None:
    """Sgt Kell's charge at chaos-marine-3 (rolled 10) can end within 1" of it, but no way
    leads into base contact: the refusal says so and names ``move to``, which takes it in."""
    more = ["move 16.8,5.5", "done", "vale", "move 12.5,6", "done", "oro", "advance",
            "move 23,9.5", "yes", "done", "vale", "shoot chaos-marine-3 roll", "done", "kell",
            "charge chaos-marine-3"]
    answers = tmp_path / "answers.txt"
    answers.write_text("\n".join([*ANSWERS, *more, "move into base contact with chaos-marine-3",
                                  "move to chaos-marine-3", "yes", "quit"]) + "\n")
    run = cli_here("play", "translocum-secure-the-facility", "--seed", "11", "--save",
                   str(tmp_path / "s.json"), "--answers", str(answers), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert ("✗ kell has no way into base contact with chaos-marine-3: walls, closed doors, "
            "other models or the inch around enemies are in the way (a charge need only end "
            "within 1\" of chaos-marine-3: 'move to chaos-marine-3' goes as near as it can)"
            ) in out
    assert "Sgt Kell charges from (14.0, 4.5)" in out


def test_a_charge_after_an_advance_is_refused_for_what_it_is(tmp_path: Path) -> None:
    """Vale declares an Advance (rolled), then a charge: 004 "A model that Advances cannot
    charge" is the reason given (it said "has rolled already: say where it goes"); a Ready is
    refused in a whole sentence."""
    answers = tmp_path / "answers.txt"
    answers.write_text("\n".join(["kell", "move 15,7", "done", "overwatch roll", "rask",
                                  "ready", "vale", "advance", "charge cultist-2", "ready",
                                  "quit"]) + "\n")
    run = cli_here("play", "translocum-secure-the-facility", "--seed", "11", "--save",
                   str(tmp_path / "s.json"), "--answers", str(answers), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert ("✗ Trooper Vale has declared an Advance this phase: a model that Advances cannot "
            "charge (004); say where its Advance goes ('move X,Y', 'move 4 toward ...')"
            ) in run.stdout
    assert ("✗ Trooper Vale cannot be Readied: it has declared an Advance this phase: Readying "
            "is instead of a normal move, as that is too\n") in run.stdout


def test_a_roll_that_ends_just_inside_the_inch_charges_home() -> None:
    """Open ground, e1 7.97" away base to base, a charge roll of 7: base contact and the rings
    of ends (out to 0.9") are beyond the roll, but its length along the way in ends 0.97"
    from e1: within the inch, so ``move to e1`` charges there (the first version of the
    rings went to the failed charge's point 1.47" away instead: a reviewer's case)."""
    game, state = start({"a1": (2, 15)}, edition="kt2018", enemy_at=(2 + 2 * RADIUS + 7.97, 15))
    step(game, state, {"type": "activate", "operative": "a1"})
    record = step(game, state, {"type": "move", "how": "charge", "target": "e1"})
    assert any("charge roll: 2D6: 6, 1 = 7" in str(e.get("note")) for e in record["events"])
    found = intent.propose(game, state, {"type": "move", "how": "charge", "relation": "to",
                                         "ref": "e1"})
    assert found.to == (9.0, 15.0) and found.gap is not None and found.gap < 1.0
    step(game, state, found.action)
    assert state.operatives["a1"].charged


def test_a_charge_after_the_advance_was_moved_is_refused_as_a_second_move() -> None:
    """Once the Advance has been moved, a charge is a second move of the phase, and the
    refusal says so (not "say where its Advance goes", which it already did)."""
    game, state = start({"a1": (3, 10)}, edition="kt2018", enemy_at=(12, 10))
    step(game, state, {"type": "activate", "operative": "a1"})
    step(game, state, {"type": "move", "how": "advance"})
    step(game, state, {"type": "move", "to": [5, 10]})
    with pytest.raises(RuleError, match="a1 has already moved this battle round \\(advance\\)"):
        step(game, state, {"type": "move", "how": "charge", "target": "e1"})
