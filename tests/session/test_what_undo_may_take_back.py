"""What ``undo`` may take back (the ``undo`` setting, ``before_dice`` by default): a players'
answer while nothing has been rolled, shown or revealed since it. The dice source is
counter-based (the n-th roll has the same face whatever it is for), so an answer taken back
after dice were shown would let the players see the next dice, or a counter's contents, and
play round them (:func:`solo_ops.game.undo_points.barrier`)."""

from __future__ import annotations

from pathlib import Path

from solo_ops.io.scenario import load_scenario, parse_scenario
from solo_ops.session.opening import start_table
from solo_ops.session.table import GameTable
from tests.support.cp_games import document
from tests.support.paths import SCENARIOS

STANDS = ", and what the table has seen stands (the scenario's setting undo: any allows it)"


def cp_table(folder: Path, **settings: str) -> GameTable:
    """One trooper (a1, Ana's) against one gunner (e1), CP re-rolls asked."""
    doc = document(settings={"turns": 2, **settings})
    table, _notes = start_table(parse_scenario(doc, str(folder / "cp.yaml")), 1,
                                folder / "g.json", folder / "g.jsonl")
    table.advance()
    return table


def test_a_question_that_showed_dice_stands(tmp_path: Path) -> None:
    """A shot whose dice the CP re-roll question shows cannot be taken back (the same dice
    would come out for another shot); "keep" cannot once the defence dice are rolled after
    it. Nothing changes: the question and the save stay as they were."""
    table = cp_table(tmp_path)
    assert table.answer("Ana", "activate a1 engage").ok
    assert table.answer("Ana", "shoot e1 roll").ok
    assert table.prompt().kind == "reroll"
    # the question's step rolled the attack dice (put back while the question waits)
    assert table.state.log[-1]["rolls"] == [] and table.game.pause_shown[3] > 0
    saved = table.save.read_bytes()
    refused = table.undo("Ana")
    assert not refused.ok and refused.refusal == "rule"
    assert refused.message == ("'shoot a1 e1' cannot be taken back: dice have been shown "
                               f"since{STANDS}")
    assert table.prompt().kind == "reroll" and table.save.read_bytes() == saved
    assert table.answer("Ana", "keep").ok
    defence = [r["purpose"] for r in table.state.log[-1]["rolls"]
               if r["seq"] > table.game.pause_shown[3]]
    assert defence and "defence dice" in defence[0]
    refused = table.undo("Ana")
    assert refused.message == ("'keep' cannot be taken back: dice have been rolled since "
                               f"({defence[0]}){STANDS}")


def test_an_answer_with_nothing_rolled_since_is_taken_back(tmp_path: Path) -> None:
    table = cp_table(tmp_path)
    asked = table.prompt().text
    assert table.answer("Ana", "activate a1 engage").ok
    taken = table.undo("Ana")
    assert taken.ok and taken.message == ("Undone: 'activate a1' is taken back; you are back "
                                          "before it.")
    assert table.prompt().text == asked


def test_undo_any_takes_back_an_answer_after_dice(tmp_path: Path) -> None:
    """``undo: any``: the shot is taken back (and, given again, the same dice come out)."""
    table = cp_table(tmp_path, undo="any")
    assert table.answer("Ana", "activate a1 engage").ok
    assert table.answer("Ana", "shoot e1 roll").ok
    question = table.prompt().text
    taken = table.undo("Ana")
    assert taken.ok and taken.message.endswith("(dice already shown come out the same again).")
    assert table.answer("Ana", "shoot e1 roll").ok
    assert table.prompt().text == question


def test_a_counter_seen_stands(tmp_path: Path) -> None:
    """Kell's dash spots counters c1 and c2 on the night raid (seed 3): what they hold is
    known, so the dash stands; the move before it (nothing seen) is taken back."""
    scenario = load_scenario(SCENARIOS / "gallowdark-night-raid.yaml")
    table, _notes = start_table(scenario, 3, tmp_path / "n.json", tmp_path / "n.jsonl")
    table.advance()
    for answer in ("kell", "move 4.16,16.23"):
        assert table.answer("Ana", answer).ok
    assert table.undo("Ana").ok  # the move: nothing was seen
    for answer in ("move 4.16,16.23", "dash 4.5,18"):
        assert table.answer("Ana", answer).ok
    assert {c for c in table.state.counters if table.state.counters[c].resolved} >= {"c1", "c2"}
    refused = table.undo("Ana")
    assert refused.message == ("'move kell dash 4.5,18' cannot be taken back: counter c1 has "
                               f"been seen since{STANDS}")


def test_a_game_gone_on_from_a_checkpoint_counts_the_dice_it_had_rolled() -> None:
    """A checkpoint's steps keep no rolls (``game.checkpoint``): the dice rolled before it are
    read from its dice state, so a roll made before the checkpoint is not taken for one made
    since the answer."""
    from types import SimpleNamespace

    from solo_ops.game.undo_points import barrier

    before = [{"n": 0, "rolls": [], "events": []}, {"n": 1, "rolls": [], "events": []}]
    replayed = [{"n": 2, "rolls": [{"seq": 6, "purpose": "an old roll"}], "events": []}]
    at_checkpoint = SimpleNamespace(base={"checkpoint": {"dice": {"seq": 7}}}, pause_shown={})
    assert barrier(at_checkpoint, before, replayed) is None  # type: ignore[arg-type]
    from_set_up = SimpleNamespace(base=None, pause_shown={})
    assert barrier(from_set_up, before, replayed) == (  # type: ignore[arg-type]
        "dice have been rolled since (an old roll)")


def test_an_answer_the_enemy_has_acted_on_with_a_question_stands(tmp_path: Path) -> None:
    """Kill Team 2018: after the players' answer the enemy's e1 declares a charge at a1 and
    the game asks a1's Reaction. No die has been rolled since, but the players have seen the
    enemy act on the answer (its activation, the charge): the answer stands, as a question's
    step after it always makes it stand (a Guard interrupt's too)."""
    from tests.support.pariah_table import start as pariah_start

    game, state = pariah_start({}, faces=[6, 1] + [3] * 40, a1=(3, 10), e1=(11, 10),
                               command=5)
    table = GameTable(game, state, tmp_path / "p.json", tmp_path / "p.jsonl")
    table.start()
    table.advance()
    for answer in ("a2", "done"):
        assert table.answer("Ana", answer).ok
    assert table.prompt().kind == "reaction"
    assert not table.state.log[-1]["rolls"]  # nothing rolled before the question
    saved = table.save.read_bytes()
    refused = table.undo("Ana")
    assert not refused.ok and refused.refusal == "rule"
    assert refused.message == ("'done a2' cannot be taken back: a question has been asked "
                               "since (what the enemy did before it was told)" + STANDS)
    assert table.prompt().kind == "reaction" and table.save.read_bytes() == saved


def test_a_fights_strike_is_taken_back_when_the_next_die_is_asked(tmp_path: Path) -> None:
    """A fight's strike asked die by die: the answer runs the fight's step again, which asks
    the next die with nothing more told and no die rolled (the fight's dice were shown at
    the first question), so the strike can be taken back -- a question asked since stands
    only when it told the players something new."""
    from solo_ops.game.engine import new_game, pending, step
    from tests.support.fight_games import DICE
    from tests.support.fight_games import document as fight_document

    doc = fight_document()
    doc["seed"] = 51
    game, state = new_game(parse_scenario(doc, "fights.json"), 51, dice_scheme=DICE)
    while pending(game, state).kind == "engine":
        step(game, state, {"type": "engine"})
    table = GameTable(game, state, tmp_path / "f.json", tmp_path / "f.jsonl")
    table.start()
    for answer in ("tam engage", "fight e1 roll"):
        assert table.answer("Ana", answer).ok
    asked = table.prompt()
    assert asked.kind == "fight"
    assert table.answer("Ana", asked.options[0]).ok
    assert table.prompt().kind == "fight"  # the next die
    taken = table.undo("Ana")
    assert taken.ok, taken.message
    assert table.prompt().text == asked.text
