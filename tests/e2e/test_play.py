"""End to end through the real ``solo-ops`` command, driven by answers files: a subprocess
where the process itself is under test (the scripted game, byte for byte again, SIGKILL, the
errors' exit status, the README's commands), the command group run in this process through
click's runner elsewhere (``cli_here``: the same command, spared an interpreter's start).

The answers are produced by a small deterministic "player" (:func:`bot_answers`) that plays the
game in-process through :mod:`solo_ops.game.engine` — moving, shooting with solo-ops' dice, ending
activations — and writes down what it typed. Feeding the same lines to ``solo-ops play`` must
then give the same game: that is the scripting promise. On top of it: determinism byte for
byte, SIGKILL at random moments then ``--resume``, undo, refusals, co-op prompts, both editions
to the end, and ``replay``.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from solo_ops.core.dice import short_id
from solo_ops.game.engine import new_game, pending, step
from solo_ops.io.scenario import load_scenario
from solo_ops.sim import autopilot
from tests.support.paths import SCENARIOS
from tests.support.players import bot_answers, cli, cli_here, small_scenario, write_answers
from tests.support.saves import default_files, default_save


def files_of(folder: Path, game: dict[str, Any]) -> tuple[Path, Path]:
    """The save and log ``play`` writes for the small game in ``folder``, by default."""
    return default_files(folder, game["scenario"])


def player_actions(save: Path) -> int:
    doc = json.loads(save.read_text(encoding="utf-8"))
    return sum(1 for a in doc["actions"] if a["type"] != "engine")


@pytest.fixture(scope="module")
def game2024(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A small 2024 game: its scenario, the bot's answers and the final snapshot."""
    folder = tmp_path_factory.mktemp("g2024")
    path = small_scenario(folder)
    rolls: list[int] = []
    lines, final = bot_answers(path, 5, rolls_after=rolls)
    return {"folder": folder, "scenario": path, "lines": lines, "final": final,
            "rolls_after": rolls}


@pytest.fixture(scope="module")
def reference(game2024: dict[str, Any], tmp_path_factory: pytest.TempPathFactory
              ) -> dict[str, Any]:
    """The small 2024 game played once through ``solo-ops play --answers``, uninterrupted."""
    folder = tmp_path_factory.mktemp("reference")
    answers = write_answers(folder, game2024["lines"])
    run = cli("play", str(game2024["scenario"]), "--answers", str(answers), cwd=folder)
    assert run.returncode == 0, run.stderr
    save, log = files_of(folder, game2024)
    return {"folder": folder, "run": run, "save": save.read_bytes(), "log": log.read_bytes()}


def test_scripted_2024_game_reaches_the_end_with_a_summary(game2024: dict[str, Any],
                                                          reference: dict[str, Any]) -> None:
    run, tmp_path = reference["run"], reference["folder"]
    assert "Turning point 1" in run.stdout and "Turning point 2" in run.stdout
    assert "Battle over" in run.stdout and "══ Summary ══" in run.stdout
    assert "✗" not in run.stdout  # every scripted answer was accepted
    save, log = files_of(tmp_path, game2024)
    doc = json.loads(save.read_text())
    assert doc["snapshot"] == json.loads(json.dumps(game2024["final"]))
    assert doc["snapshot"]["ended"] is True
    # replay re-runs it from the log to the same final state
    rep = cli("replay", str(log.relative_to(tmp_path)), "--json", cwd=tmp_path)
    assert rep.returncode == 0, rep.stderr
    out = json.loads(rep.stdout)
    assert out["identical"] is True and out["view"]["ended"] is True


def test_same_seed_and_answers_give_identical_save_and_log(game2024: dict[str, Any],
                                                          reference: dict[str, Any],
                                                          tmp_path: Path) -> None:
    answers = write_answers(tmp_path, game2024["lines"])
    run = cli("play", str(game2024["scenario"]), "--answers", str(answers), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    save, log = files_of(tmp_path, game2024)
    assert save.read_bytes() == reference["save"] and log.read_bytes() == reference["log"]
    assert run.stdout == reference["run"].stdout
    # every die is in the log
    records = [json.loads(line) for line in reference["log"].decode().splitlines()]
    assert records[0]["kind"] == "solo-ops-log"
    assert sum(len(r.get("rolls", [])) for r in records[1:]) > 10


def test_sigkill_at_random_moments_then_resume_reaches_the_same_end(
        game2024: dict[str, Any], reference: dict[str, Any], tmp_path: Path) -> None:
    answers = write_answers(tmp_path, game2024["lines"])
    ref_save = json.loads(reference["save"])
    ref_log = reference["log"]

    folder = tmp_path / "killed"
    folder.mkdir()
    save, killed_log = files_of(folder, game2024)
    rng = random.Random(1234)
    env = dict(os.environ, COLUMNS="100")

    def steps_saved() -> int:
        try:
            return len(json.loads(save.read_text())["actions"])
        except (OSError, ValueError):
            return -1

    kills = 0
    for attempt in range(5):
        if save.exists():
            done = player_actions(save)
            rest = write_answers(tmp_path, game2024["lines"][done:], "rest.txt")
            args = ["play", "--resume", str(save), "--answers", str(rest)]
        else:
            args = ["play", str(game2024["scenario"]), "--answers", str(answers)]
        proc = subprocess.Popen([sys.executable, "-m", "solo_ops", *args], cwd=folder,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        if attempt < 4:
            # let it make a few more steps, then kill it at a random moment
            target = steps_saved() + rng.randint(1, 6)
            while proc.poll() is None and steps_saved() < target:
                time.sleep(0.02)
            time.sleep(rng.uniform(0.0, 0.15))
            if proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
                proc.wait()
                kills += 1
                continue
        proc.wait(timeout=120)
        assert proc.returncode == 0, proc.stderr.read() if proc.stderr else ""
        if json.loads(save.read_text())["snapshot"]["ended"]:
            break
    else:  # pragma: no cover - the last run is never killed
        raise AssertionError("the game did not finish")
    assert kills >= 2
    final = json.loads(save.read_text())
    assert final["snapshot"] == ref_save["snapshot"]
    assert final["actions"] == ref_save["actions"]
    # the log was caught up after each kill: the same records as the uninterrupted game
    assert killed_log.read_bytes() == ref_log


def test_undo_takes_back_the_last_answer_and_keeps_the_dice(game2024: dict[str, Any],
                                                           tmp_path: Path) -> None:
    """With ``undo: any`` an answer after which dice were shown can be taken back: the game
    is replayed without it and, given again, it plays out identically."""
    lines = game2024["lines"]
    scenario = small_scenario(tmp_path, settings="undo: any")  # the same game
    # the first answer after which solo-ops rolled dice (an enemy activation, hidden moves or
    # the next turning point's initiative)
    k = next(i for i, n in enumerate(game2024["rolls_after"]) if n > 0)
    assert lines[k] == "done"
    script = [*lines[:k + 1], "undo", *lines[k:]]
    answers = write_answers(tmp_path, script)
    run = cli_here("play", str(scenario), "--answers", str(answers), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "Undone: 'done" in run.stdout
    # what followed the answer comes out again, identically, when it is given again
    before, after = run.stdout.split("> undo", 1)
    shown = before.rsplit("> done", 1)[1].split("\n? ")[0]
    assert shown.strip() and shown in after.split("> done", 1)[1]
    save, log = default_files(tmp_path, scenario)
    doc = json.loads(save.read_text())
    assert doc["snapshot"] == json.loads(json.dumps(game2024["final"]))
    # the log keeps what happened, marks the undo, and replays to the same end
    assert any(json.loads(line).get("undo") for line in log.read_text().splitlines())
    rep = cli_here("replay", str(log), "--json", cwd=tmp_path)
    assert rep.returncode == 0, rep.stderr
    assert json.loads(rep.stdout)["identical"] is True
    # nothing to undo before the first answer
    first = cli_here("play", str(scenario), "--save", "x.json", "--answer", "undo",
                     cwd=tmp_path)
    assert "✗ nothing to undo" in first.stdout


def test_what_the_table_has_seen_stands(game2024: dict[str, Any], tmp_path: Path) -> None:
    """By default (``undo: before_dice``) an answer after which solo-ops rolled dice cannot
    be taken back (the next dice, or a counter's contents, would be known and played round):
    the undo is refused in one line naming the roll, nothing changes and the game goes on to
    the same end; an answer with nothing rolled since is taken back."""
    lines = game2024["lines"]
    k = next(i for i, n in enumerate(game2024["rolls_after"]) if n > 0)
    script = [*lines[:k + 1], "undo", *lines[k + 1:]]
    run = cli_here("play", str(game2024["scenario"]), "--answers",
                   str(write_answers(tmp_path, script)), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    save, log = files_of(tmp_path, game2024)
    assert json.loads(save.read_text())["snapshot"] == json.loads(
        json.dumps(game2024["final"]))
    records = [r for r in map(json.loads, log.read_text().splitlines()) if "action" in r]
    assert not any("undo" in r for r in map(json.loads, log.read_text().splitlines()))
    answered = [i for i, r in enumerate(records) if r["action"]["type"] not in ("engine",
                                                                               "setup")]
    # the first step after the answer that rolled: a counter it revealed is named first,
    # else its first roll in the open
    shown = next(r for r in records[answered[k] + 1:answered[k + 1]] if r["rolls"])
    seen = [e["counter"] for e in shown["events"] if e["type"] in (
        "counter_spotted", "counter_revealed", "false_alarm")]
    first_roll = next(r["purpose"] for r in shown["rolls"] if not r.get("secret"))
    why = (f"counter {seen[0]} has been seen since" if seen
           else f"dice have been rolled since ({first_roll})")
    refused = [line for line in run.stdout.splitlines() if "cannot be taken back" in line]
    assert refused == [f"✗ 'done {records[answered[k]]['action']['operative']}' cannot be "
                       f"taken back: {why}, and what the table has seen stands (the "
                       "scenario's setting undo: any allows it)"], run.stdout
    # the first answer (an activation: nothing rolled) is taken back
    taken = cli_here("play", str(game2024["scenario"]), "--save", "y.json", "--answer",
                     lines[0], "--answer", "undo", cwd=tmp_path)
    assert lines[0] == "activate kell engage"
    assert "Undone: 'activate kell' is taken back; you are back before it." in taken.stdout


def test_nonsense_and_a_point_inside_a_wall_are_refused_and_asked_again(
        game2024: dict[str, Any], tmp_path: Path) -> None:
    first = game2024["lines"][0]  # "activate kell engage" (or another operative)
    # pillar-1 of the Gallowdark corridors is a wall: x 11-12, y 10.6-11.4
    script = ["fly", "kell away", "move 3,3", first, "move 11.5,11", "shoot", "damage kell lots",
              "done",
              "quit"]
    run = cli_here("play", str(game2024["scenario"]), "--answers",
              str(write_answers(tmp_path, script)), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "✗ no operative called 'fly'" in out
    assert "✗ stance must be engage or conceal, got 'away'" in out
    assert "✗ first say which operative acts" in out
    # issue #27: a point inside terrain is answered with the nearest point where the base
    # fits (here too far for the move: refused, saying both)
    assert "✗ At 11.5,11 pillar-1 is there; the nearest point where its base fits is " in out
    # (a straight way on open ground: no "around the walls")
    assert "but that is 9.8\" of movement; Sgt Kell can reposition 6.0\"" in out
    assert "✗ shoot whom?" in out
    assert "✗ damage must be a whole number" in out
    # each refusal is followed by the same question again
    refusals = out.count("✗")
    assert refusals == 6
    for chunk in out.split("✗")[1:]:
        assert "\n? " in chunk
    assert f"Saved to {files_of(Path(), game2024)[0]}" in out


def test_play_errors_are_one_line_with_exit_2(tmp_path: Path) -> None:
    """The first error as the process exits with it; the two others run in this process
    (``cli_here``: the same command group, its internal errors' tracebacks kept in stderr)."""
    run = cli("play", "nowhere.yaml", cwd=tmp_path)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert run.stderr.count("\n") == 1 and "nowhere.yaml" in run.stderr
    (tmp_path / "bad.json").write_text("{\"kind\": \"solo-ops-game\"}")
    run = cli_here("play", "--resume", "bad.json", cwd=tmp_path)
    assert run.returncode == 2 and "bad.json" in run.stderr and "Traceback" not in run.stderr
    run = cli_here("replay", "bad.json", cwd=tmp_path)
    assert run.returncode == 2 and "bad.json" in run.stderr


def test_2018_game_played_to_the_end(tmp_path: Path) -> None:
    path = small_scenario(tmp_path, "kt2018", board="translocum-chamber", seed=6)
    lines, final = bot_answers(path, 6)
    run = cli_here("play", str(path), "--answers", str(write_answers(tmp_path, lines)),
                   cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "Battle round 1" in out and "— Movement phase —" in out
    assert "— Shooting phase —" in out and "— Fight phase —" in out
    assert "Battle over" in out and "Result: " in out and "✗" not in out
    doc = json.loads(default_save(tmp_path, path).read_text())
    assert doc["snapshot"] == json.loads(json.dumps(final))
    assert doc["snapshot"]["ended"] and doc["snapshot"]["result"]["turns"] >= 1


def test_coop_prompts_name_whose_turn_it_is(tmp_path: Path) -> None:
    path = SCENARIOS / "volkus-stronghold-supplement-example.yaml"
    scenario = load_scenario(path)

    def opening(seed: int) -> tuple[list[str], str]:
        """The answers to the CP re-roll questions before the first question a player is
        asked in a game of ``seed``, and that question's kind."""
        game, state = new_game(scenario, seed)
        keeps: list[str] = []
        while (prompt := pending(game, state)).kind in ("engine", "reroll"):
            step(game, state, {"type": "reroll", "keep": True} if prompt.kind == "reroll"
                 else {"type": "engine"})
            keeps += ["--answer", "keep"] if prompt.kind == "reroll" else []
        return keeps, prompt.kind

    # a game whose first question to a player is which operative to activate (in some games
    # the enemy's first activation ends in a fight, whose dice are asked first)
    seed = next(s for s in range(1, 60) if opening(s)[1] == "activate")
    keeps = opening(seed)[0]
    run = cli_here("play", str(path), "--seed", str(seed), "--save", "coop.json", "--json", *keeps,
              "--answer", "nobody engage", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    prompts = [json.loads(line)["prompt"] for line in run.stdout.splitlines()
               if line.startswith("{\"prompt\"")]
    assert prompts and prompts[0]["player"] in ("Ana", "Ben")
    assert prompts[0]["text"].startswith(prompts[0]["player"] + ":")
    refused = [json.loads(line) for line in run.stdout.splitlines() if "refused" in line]
    assert refused and "no operative called 'nobody'" in refused[0]["refused"]
    # play the two squads' first activations: the prompts alternate between the players
    game, state = new_game(scenario, seed)
    seen = []
    while len(seen) < 4:
        prompt = pending(game, state)
        if prompt.kind == "engine":
            step(game, state, {"type": "engine"})
            continue
        if prompt.kind == "activate":
            seen.append(prompt.player)
            step(game, state, {"type": "activate", "operative": prompt.options[0]})
        elif prompt.kind == "act":
            step(game, state, {"type": "done"})
        else:  # the enemy's attacks and fights: as the autopilot answers them
            autopilot.answer(game, state, prompt)
    assert seen[:2] in (["Ana", "Ben"], ["Ben", "Ana"])
    assert seen[2] == seen[0] and seen[3] == seen[1]


def test_map_of_a_save_shows_no_hidden_facts(game2024: dict[str, Any], tmp_path: Path) -> None:
    answers = write_answers(tmp_path, game2024["lines"][:6])
    run = cli_here("play", str(game2024["scenario"]), "--answers", str(answers), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    save = files_of(tmp_path, game2024)[0]
    m = cli_here("map", str(save), "--out", "now.svg", "--json", cwd=tmp_path)
    assert m.returncode == 0, m.stderr
    svg = (tmp_path / "now.svg").read_text()
    doc = json.loads(save.read_text())
    hidden = [c for c in doc["snapshot"]["counters"]]
    assert json.loads(m.stdout)["counters"] == [{"id": c["id"], "at": c["at"]} for c in hidden]
    for word in ("hidden_order", "hidden order", "command"):
        assert word not in svg
    for c in hidden:
        assert f"({c['hidden_order']})" not in svg
    png = cli_here("map", str(save), "--out", "now.png", cwd=tmp_path)
    assert png.returncode == 0 and (tmp_path / "now.png").read_bytes()[:4] == b"\x89PNG"


def test_new_then_play_as_the_readme_says(tmp_path: Path) -> None:
    new = cli("new", "--seed", "7", "--engagement", "1", cwd=tmp_path)
    assert new.returncode == 0, new.stderr
    encounter = f"encounter-{short_id(7, 'encounter')}"  # never the seed in the name
    assert f"solo-ops play {encounter}.yaml" in new.stdout
    assert (tmp_path / f"{encounter}.png").exists()
    run = cli("play", f"{encounter}.yaml", "--answer", "status", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "Turn 1" in run.stdout and "No more answers" in run.stdout
    save = default_save(Path(), tmp_path / f"{encounter}.yaml")
    assert f"Continue with `solo-ops play --resume {save}`" in run.stdout
    resumed = cli("play", "--resume", str(save), "--answer", "help", cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert "Resuming" in resumed.stdout and "activate kell conceal" in resumed.stdout


# -- running `play SCENARIO` again never loses a game (issue 11, item 1) ----------------------
def test_playing_the_same_scenario_again_resumes_and_never_shortens_the_game(
        game2024: dict[str, Any], tmp_path: Path) -> None:
    lines = game2024["lines"]
    scenario = str(game2024["scenario"])
    save, log = files_of(tmp_path, game2024)
    first = cli_here("play", scenario, "--answers", str(write_answers(tmp_path, lines[:6])),
                cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    save_1, log_1 = save.read_bytes(), log.read_bytes()
    actions_1 = json.loads(save_1)["actions"]
    assert player_actions(save) == 6

    # the README's command again, with no answers: the game is resumed, nothing is rewritten
    again = cli_here("play", scenario, cwd=tmp_path, stdin="")
    assert again.returncode == 0, again.stderr
    assert "Resuming the unfinished game of" in again.stdout and "--new" in again.stdout
    assert save.read_bytes() == save_1 and log.read_bytes() == log_1

    # and with more answers it goes on from there: the log and the actions only grow
    more = cli_here("play", scenario, "--answers",
                    str(write_answers(tmp_path, lines[6:9], "b.txt")), cwd=tmp_path)
    assert more.returncode == 0, more.stderr
    log_2 = log.read_bytes()
    actions_2 = json.loads(save.read_bytes())["actions"]
    assert log_2.startswith(log_1) and len(log_2) > len(log_1)
    assert actions_2[:len(actions_1)] == actions_1 and player_actions(save) == 9

    # --new moves the old save, backup and log aside, byte for byte, and starts afresh
    fresh = cli_here("play", scenario, "--new", cwd=tmp_path, stdin="")
    assert fresh.returncode == 0, fresh.stderr
    aside = sorted(p.name for p in (tmp_path / "saves").iterdir() if ".old-" in p.name)
    assert [name.split(".old-")[0] for name in aside] == [save.name.split(".")[0]] * 3
    assert sorted(name.split(".", 2)[2] for name in aside) == ["json", "json.bak", "log.jsonl"]
    moved = {name.split(".", 2)[2]: tmp_path / "saves" / name for name in aside}
    assert moved["log.jsonl"].read_bytes() == log_2
    assert json.loads(moved["json"].read_bytes())["actions"] == actions_2
    assert "moved aside" in fresh.stdout
    assert player_actions(save) == 0


def test_a_finished_game_is_never_resumed_silently(reference: dict[str, Any],
                                                   game2024: dict[str, Any]) -> None:
    folder = reference["folder"]
    save = files_of(folder, game2024)[0]
    before = sorted((p.name, p.read_bytes()) for p in (folder / "saves").iterdir())
    for args in (["play", str(game2024["scenario"])], ["play", "--resume", str(save)]):
        run = cli_here(*args, "--answer", "status", cwd=folder)
        assert run.returncode == 0, run.stderr
        result = json.loads(reference["save"])["snapshot"]["result"]
        named = save if args[1] == "--resume" else save.relative_to(folder)
        assert run.stdout.startswith(f"{named} is a finished game: "
                                     f"{result['outcome'].upper()} after "
                                     f"{result['turns']} turning points")
        assert "Nothing was changed. Start another with `solo-ops play" in run.stdout
        assert "--new" in run.stdout
    assert sorted((p.name, p.read_bytes()) for p in (folder / "saves").iterdir()) == before
