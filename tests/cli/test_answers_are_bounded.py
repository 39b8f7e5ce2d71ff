"""Every input answered quickly (issue #41, item 4): an answers file is bounded by the work it
asks. The issue's files — 140,000 ``status`` lines (295 s of CPU), 200,000 ``undo`` lines,
500,000 empty lines — are refused before the game opens, or stop in one line at the limit
(core.limits.ANSWERS) with every step before it saved; a file that sprays answers until one
fits whoever's turn it is still plays."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from solo_ops.cli import main, play
from solo_ops.core.errors import InputError
from solo_ops.core.limits import ANSWERS, AnswerLimits
from tests.support.players import small_scenario


def run(folder: Path, lines: list[str], *args: str) -> tuple[int, str, str, Path]:
    """``play`` of a small game (or ``args``) with ``lines`` as its answers file."""
    scenario = small_scenario(folder)
    answers = folder / "answers.txt"
    answers.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    save = folder / "g.json"
    result = CliRunner().invoke(main, ["play", str(scenario), "--save", str(save),
                                       "--answers", str(answers), *args])
    return result.exit_code, result.stdout, result.stderr, save


def test_a_file_longer_than_the_limit_is_refused_before_the_game_opens(tmp_path: Path) -> None:
    """The issue's 140,000 ``status`` lines: one line, exit 2, no save made."""
    code, _out, err, save = run(tmp_path, ["status"] * 140_000)
    assert code == 2 and err == (f"solo-ops: error: {tmp_path / 'answers.txt'}: has 140,000 "
                                 "lines; an answers file has at most 10,000\n")
    assert not save.exists()
    many = CliRunner().invoke(main, ["play", str(small_scenario(tmp_path)), "--save",
                                     str(save), *["--answer", "status"] * 10_001])
    assert many.exit_code == 2 and many.stderr == ("solo-ops: error: --answer: 10,001 answers; "
                                                   "at most 10,000\n")
    assert not save.exists()


def test_status_after_status_stops_at_the_limit_and_the_steps_before_are_saved(
        tmp_path: Path) -> None:
    """An activation, then ``status`` 250 times: the 201st in a row (line 202) stops the
    answers; the activation is in the save."""
    code, out, err, save = run(tmp_path, ["kell", *["status"] * 250])
    assert code == 2 and err.count("\n") == 1
    assert err == (f"solo-ops: error: {tmp_path / 'answers.txt'}: the answers stop at line 202: "
                   "they ask for more than 200 answers in a row that play nothing, the most a "
                   "file of answers may (every step before it is saved)\n")
    assert out.count("> status") == 201
    actions = json.loads(save.read_text(encoding="utf-8"))["actions"]
    assert {"type": "activate", "operative": "kell"} in [
        {k: a[k] for k in ("type", "operative") if k in a} for a in actions]


def test_blank_lines_and_comments_are_read_on_without_asking_again(tmp_path: Path) -> None:
    """The issue's empty lines: read on, the question asked once (they took 0.3 ms each,
    asking again every time)."""
    code, out, _err, _save = run(tmp_path, ["", "# a comment"] * 4_000 + ["status"])
    assert code == 0
    assert out.count("? Ana: which operative do you activate?") == 2  # before and after status
    assert out.count("> ") == 1  # only the answer is echoed


def counted(lines: list[str], steps: list[str]) -> play.Answers:
    """An :class:`Answers` fed ``lines``, each counted as ``steps`` says (``played``, or the kind
    of answer that played nothing), as the session counts them."""
    answers = play.Answers(iter(lines), "a.txt")
    for _line, kind in zip(answers, steps, strict=True):
        if kind == "played":
            answers.played()
        else:
            answers.spend(kind)
    return answers


@pytest.mark.parametrize(("kind", "limit", "what"), [
    ("meta", ANSWERS.meta, "help, status or save answers"),
    ("undos", ANSWERS.undos, "undo answers"),
    ("maps", ANSWERS.maps, "map answers"),
])
def test_each_kind_of_answer_has_its_limit_in_all(kind: str, limit: int, what: str) -> None:
    """Even with a step played between every two (none in a row), the kind's total stops at its
    limit: the answer over it, on the line it is read."""
    steps = [s for _ in range(limit) for s in (kind, "played")]
    counted([""] * len(steps), steps)
    with pytest.raises(InputError) as stopped:
        counted([""] * (len(steps) + 1), [*steps, kind])
    assert stopped.value.line() == (f"a.txt: the answers stop at line {2 * limit + 1}: they ask "
                                    f"for more than {limit} {what}, the most a file of answers "
                                    "may (every step before it is saved)")


def test_refusals_that_lead_to_an_answer_are_not_in_a_row() -> None:
    """A spray: 150 refusals, one answer that plays, again and again: no limit is reached;
    201 refusals in a row are."""
    steps = ([*["refused"] * 150, "played"]) * 30
    assert counted([""] * len(steps), steps).read == len(steps)
    with pytest.raises(InputError, match="line 201: they ask for more than 200 answers in a row"):
        counted([""] * 201, ["refused"] * 201)


def test_the_cpu_of_answers_that_play_nothing_is_bounded(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """The backstop of the counts: refusals that each search routes may not take more than
    ``idle_cpu`` seconds together (the CPU each took is the session's measure; here given)."""
    monkeypatch.setattr(play, "ANSWERS", AnswerLimits(idle_cpu=1.0))
    answers = play.Answers(iter(["a", "b", "c"]), "a.txt")
    next(answers)
    answers.spend("refused", 0.6)
    next(answers)
    with pytest.raises(InputError, match="line 2: they ask for answers that play nothing to "
                                         "take more than 1 s of CPU"):
        answers.spend("refused", 0.6)
