"""The players' fights die by die (issue 28 item 1): strike or block, as Kill Team 2024 plays them.

Source: card 001, "Both roll attack dice. Alternate Strike or Block (Only Crits can block
Crits)."; 002 Brutal "Your opponent can only block with Crits." The players resolve their own
dice one at a time (setting ``fight_choices: ask``); the enemy follows the documented policy
(``rules/kt2024_fight.resolve_fight``) and says why; each choice shows where it leads.

The CLI and web tests use an open 30" x 22" board with no counters (engagement 0): Tam (4
wounds, knife: 3 attacks, hit 3+, Lethal 5+, damage 3/4) stands in control range of the enemy e1
(an Immortal: 10 wounds, claw: 3 attacks, hit 3+, Lethal 5+, damage 3/5). With seed 17 on the
first dice scheme (tests/support/fight_games.DICE: a saved game keeps its dice) the players have
the initiative; in ``fight e1 roll`` Tam rolls 3 4 5 (one crit, two normals) and e1 rolls 1 3 6
(one crit, one normal).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solo_ops.core.dice import ScriptedDice
from solo_ops.core.errors import RuleError
from solo_ops.game.engine import new_game, pending, step
from solo_ops.io.savegame import game_document
from solo_ops.io.savegame import restore as restore_save
from solo_ops.io.scenario import load_scenario, parse_scenario
from solo_ops.rules.kt2024_fight import FightChoice, FightSide, resolve_fight
from solo_ops.session.table import GameTable
from solo_ops.sim import autopilot
from solo_ops.view.answers import parse
from tests.support.budget import examples
from tests.support.fight_games import SEED, document, new_fight, saved_fight
from tests.support.players import cli_here, small_scenario


def at_the_question(**settings: Any) -> tuple[Any, Any]:
    """Seed 17, in process: Tam activated and ``fight e1 roll`` answered."""
    game, state = new_fight(document(**settings))
    while pending(game, state).kind == "engine":
        step(game, state, {"type": "engine"})
    step(game, state, {"type": "activate", "operative": "tam", "stance": "engage"})
    step(game, state, {"type": "fight", "operative": "tam", "target": "e1", "roll": True})
    return game, state


def fight_event(record: dict[str, Any]) -> dict[str, Any]:
    return next(e for e in record["events"] if e["type"] == "fight")


# -- the question ---------------------------------------------------------------------------------
def test_the_question_shows_the_dice_the_wounds_and_where_each_choice_leads() -> None:
    """001 "Alternate Strike or Block (Only Crits can block Crits)": Tam (crit 4, normals 3)
    against e1's crit (5) and normal (3). By hand, each move then both sides by the policy:
    strike the crit -> e1 blocks nothing it can use... e1's crit and normal strike 5 -> Tam
    (4 W) is out, having dealt 4; block e1's crit with the crit -> e1 strikes its normal (3,
    Tam to 1 W; blocking ties at -3 and strike goes first), Tam strikes both normals (6)."""
    game, state = at_the_question()
    prompt = pending(game, state)
    assert prompt.kind == "fight" and prompt.player == "Ana" and prompt.operative == "tam"
    assert prompt.options == ["strike 1", "strike 2", "block 1", "block 2", "block 1 2",
                              "auto", "auto all"]
    text = prompt.text.splitlines()
    assert text[1] == "  Tam (4 W left): #1 crit (4 dmg), #2 normal (3 dmg), #3 normal (3 dmg)"
    assert text[2] == "  e1 (10 W left): #1 crit (5 dmg), #2 normal (3 dmg)"
    outcomes = {o["answer"]: (o["dealt"], o["taken"], o["advised"])
                for o in prompt.data["options"]}
    assert outcomes == {"strike 1": (4, 4, False), "strike 2": (3, 4, False),
                        "block 1": (6, 3, True), "block 2": (0, 4, False),
                        "block 1 2": (0, 4, False)}
    assert ("  ★ block 1    block a crit with a crit → you deal 6, take 3 (Tam 1 W left, e1 4 W "
            "left)") in text
    # the fight so far was told before the question, and the board is untouched
    offered = state.log[-1]["events"][-1]
    assert offered["type"] == "fight_offered"
    assert offered["lines"][:2] == ["Tam: Attack dice (3+, crit 5+): 3 4 5.",
                                    "Tam: retained 1 crits, 2 normal hits."]
    assert state.operatives["tam"].wounds == 4 and state.operatives["e1"].wounds == 10


def test_the_player_blocks_a_crit_and_the_enemy_says_why_it_strikes() -> None:
    """The player's ``block 1`` (their crit blocks e1's crit), then e1's policy move with its
    reason, then Tam's two normals (no choice left: e1 has no dice): Tam 1 W, e1 4 W."""
    game, state = at_the_question()
    record = step(game, state, parse("block 1", "fight"))
    fight = fight_event(record)
    steps = [line for line in fight["lines"] if "strikes" in line or "blocks" in line]
    assert steps == [
        "Tam blocks a crit hit with a crit.",
        "e1 strikes with a normal hit for 3 damage (its policy, the most damage dealt minus "
        "taken: this way it deals 3 and takes 6; to block a normal hit with a normal hit "
        "instead it would deal 0 and take 3: the same, and on a tie the policy strikes before "
        "it blocks, crits first).",
        "Tam strikes with a normal hit for 3 damage.",
        "Tam strikes with a normal hit for 3 damage."]
    assert (fight["damage"], fight["damage_taken"]) == (6, 3)
    assert state.operatives["tam"].wounds == 1 and state.operatives["e1"].wounds == 4


def test_auto_takes_the_advice_and_auto_all_the_rest_of_the_fight() -> None:
    """``auto`` is the policy's move (the advice), exactly what ``fight_choices: auto`` does
    without asking: the same fight, the same dice, the same wounds."""
    game, state = at_the_question()
    step(game, state, parse("auto", "fight"))
    auto_game, auto_state = at_the_question(fight_choices="auto")
    assert pending(auto_game, auto_state).kind == "act"  # nothing was asked
    asked, unasked = fight_event(state.log[-1])["lines"], fight_event(auto_state.log[-1])["lines"]
    # the same lines, but the enemy's reasons are told only where the players choose
    assert [line.split(" (its policy")[0].rstrip(".") for line in asked] == \
        [line.rstrip(".") for line in unasked]
    assert any("(its policy" in line for line in asked)
    assert [o.wounds for o in state.operatives.values()] == \
        [o.wounds for o in auto_state.operatives.values()]


def test_refusals_name_the_rule_and_change_nothing() -> None:
    game, state = at_the_question()
    before = json.dumps(state.to_dict(secrets=True), sort_keys=True)
    with pytest.raises(RuleError, match="only crits block crits"):
        step(game, state, {"type": "fight_choice", "move": "block", "die": 2, "against": 1})
    with pytest.raises(RuleError, match="a number from 1 to 3"):
        step(game, state, parse("strike 4", "fight"))
    with pytest.raises(RuleError, match="first resolve your die in the fight"):
        step(game, state, {"type": "done", "operative": "tam"})
    with pytest.raises(RuleError, match="'strike N', 'block N'"):
        parse("hit 1", "fight")
    assert json.dumps(state.to_dict(secrets=True), sort_keys=True) == before


def test_brutal_lets_only_crits_block() -> None:
    """002 Brutal "Your opponent can only block with Crits": against a Brutal claw Tam's
    normals cannot block, and the question says why."""
    doc = document()
    doc["roster"]["profiles"]["immortal"]["weapons"][0]["rules"] = ["lethal=5", "brutal"]
    game, state = new_fight(doc, "brutal.json")
    while pending(game, state).kind == "engine":
        step(game, state, {"type": "engine"})
    step(game, state, {"type": "activate", "operative": "tam", "stance": "engage"})
    step(game, state, {"type": "fight", "operative": "tam", "target": "e1", "roll": True})
    prompt = pending(game, state)
    assert "their weapon is Brutal: you block with crits only" in prompt.text
    assert "block 2" not in prompt.options
    with pytest.raises(RuleError, match="Brutal, only crits block"):
        step(game, state, parse("block 2", "fight"))


# -- a fight the enemy starts ---------------------------------------------------------------------
def test_a_fight_the_enemy_starts_asks_after_its_explained_first_die() -> None:
    """e1 (melee only, in control range) fights a1 in its own activation: scripted dice, the
    initiative 1 v 6 (the enemy first); e1 rolls 5 4 1 (a crit, a normal), a1 rolls 6 3 1 (a
    crit, a normal). e1 resolves first by the policy (its reason told), then a1 is asked."""
    doc = document()
    doc["squads"][0]["models"][0]["id"] = "a1"
    doc["squads"][0]["models"][0]["profile"]["wounds"] = 10
    game, state = new_game(parse_scenario(doc, "enemy.json"), SEED)
    state.dice = ScriptedDice(faces=[1, 6, 5, 4, 1, 6, 3, 1])
    step(game, state, {"type": "engine"})
    paused = step(game, state, {"type": "engine"})
    prompt = pending(game, state)
    assert prompt.kind == "fight" and prompt.operative == "a1"
    offered = paused["events"][-1]
    assert offered["so_far"][0]["type"] == "enemy_activation"  # the header, before the question
    # by hand: e1's crit strike (5) then Tam's crit blocks e1's normal and Tam's normal
    # strikes (3): e1 deals 5 + 3 = 8 and takes 7 -- or, blocking Tam's normal with its
    # normal, Tam's crit blocks e1's crit: nothing either way (1 beats 0 for e1)
    assert offered["lines"][-1] == (
        "e1 strikes with a crit hit for 5 damage (its policy, the most damage dealt minus "
        "taken: this way it deals 8 and takes 7; to block a normal hit with a normal hit "
        "instead it would deal 0 and take 0).")
    assert "  Tam (5 W left): #1 crit (4 dmg), #2 normal (3 dmg)" in prompt.text
    record = step(game, state, parse("block 1", "fight"))
    assert record["events"][0]["type"] == "enemy_activation"
    assert fight_event(record)["lines"][-3:] == [
        "Tam blocks a normal hit with a crit.", "Tam strikes with a normal hit for 3 damage.",
        "Damage dealt 5, taken 3."]
    assert (state.operatives["a1"].wounds, state.operatives["e1"].wounds) == (5, 7)


# -- saved, undone, replayed ----------------------------------------------------------------------
def test_play_answer_blocks_a_crit_and_resumes_at_the_question(tmp_path: Path) -> None:
    """Through the real command (run in this process): ``fight e1 roll`` pauses at the
    question and saves there; the game resumed with ``--answer 'block 1'`` ends as the
    in-process game, and the save's actions hold the answer as typed."""
    save = saved_fight(tmp_path)
    first = cli_here("play", "--resume", str(save), "--answer", "tam engage",
                     "--answer", "fight e1 roll", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    assert "★ block 1    block a crit with a crit → you deal 6, take 3" in first.stdout
    assert "Tam: Attack dice (3+, crit 5+): 3 4 5." in first.stdout
    second = cli_here("play", "--resume", str(save), "--answer", "block 1", "--answer", "quit",
                      cwd=tmp_path)
    assert second.returncode == 0, second.stderr
    assert "Tam blocks a crit hit with a crit." in second.stdout
    assert "e1 loses 6 wound(s) (4 left)" in second.stdout
    doc = json.loads(save.read_text(encoding="utf-8"))
    assert {"type": "fight_choice", "move": "block", "die": 1} in doc["actions"]
    _game, state = restore_save(doc, str(save))
    assert state.operatives["tam"].wounds == 1 and state.operatives["e1"].wounds == 4


def test_undo_goes_back_to_the_question_and_another_answer_plays_another_fight(
        tmp_path: Path) -> None:
    game, state = at_the_question()
    table = GameTable(game, state, tmp_path / "g.json", tmp_path / "g.log.jsonl")
    table.start()
    asked = table.prompt().text
    assert table.answer("Ana", "block 1").ok
    assert state.operatives["tam"].wounds == 1
    undone = table.undo("Ana")
    assert undone.ok and table.prompt().text == asked
    outcome = table.answer("Ana", "strike 1")
    assert outcome.ok, outcome.message
    assert table.state.operatives["tam"].down and table.state.operatives["e1"].wounds == 6
    doc = json.loads(json.dumps(game_document(table.game, table.state)))
    _game, again = restore_save(doc, "g")
    assert again.to_dict(secrets=True) == table.state.to_dict(secrets=True)


def test_the_web_api_takes_the_block_and_shows_the_buttons(tmp_path: Path) -> None:
    from solo_ops.web.app import create_app
    from tests.support.api import ApiClient

    game, state = new_fight(document())
    table = GameTable(game, state, tmp_path / "w.json", tmp_path / "w.log.jsonl")
    table.start()
    table.advance()
    with ApiClient(create_app(table), base_url="http://127.0.0.1:8765") as client:
        for answer in ("tam engage", "fight e1 roll"):
            reply = client.post("/api/answer", json={"player": "Ana", "answer": answer})
            assert reply.json()["ok"], reply.json()
        view = client.get("/api/view", params={"player": "Ana"}).json()
        prompt = view["prompt"]
        assert prompt["kind"] == "fight" and "auto all" in prompt["options"]
        assert [o["answer"] for o in prompt["data"]["options"] if o["advised"]] == ["block 1"]
        reply = client.post("/api/answer", json={"player": "Ana", "answer": "block 1"})
        assert reply.json()["ok"], reply.json()
        view = client.get("/api/view", params={"player": "Ana"}).json()
    said = [line for step_ in view["narration"] for line in step_["lines"]]
    assert "    Tam blocks a crit hit with a crit." in said
    assert any(line.startswith("  e1 loses 6 wound(s) (4 left)") for line in said)
    assert table.state.operatives["tam"].wounds == 1
    # the page's buttons for this question: tests/e2e/test_browser_table.py


# -- the rules: the outcomes shown are the outcomes played ----------------------------------------
SIDE = st.builds(FightSide, st.integers(0, 3), st.integers(0, 3), st.integers(1, 4),
                 st.integers(1, 6), st.integers(1, 9), st.booleans(), st.booleans())


@settings(max_examples=examples(150), deadline=None)
@given(SIDE, SIDE, st.integers(0, 1))
def test_every_option_leads_where_it_says_and_the_advice_is_the_policy(
        attacker: FightSide, defender: FightSide, side: int) -> None:
    """For any fight: the advice at every question reproduces the policy's fight exactly, and
    each option's (dealt, taken) is what the fight then comes to, resolved step by step with
    that move first and the advice after (an independent path through ``_apply``)."""
    policy = resolve_fight(attacker, defender)
    asked: list[FightChoice] = []

    def advice(choice: FightChoice) -> str:
        asked.append(choice)
        return choice.advice

    choosers: list[Any] = [None, None]
    choosers[side] = advice
    played = resolve_fight(attacker, defender, (choosers[0], choosers[1]))
    assert (played.dealt, played.taken) == (policy.dealt, policy.taken)
    assert [s.move for s in played.steps] == [s.move for s in policy.steps]
    if not asked:
        return
    first = asked[0]
    for option in first.options:
        moves = iter([option.move])

        def one_then_advice(choice: FightChoice, moves: Any = moves) -> str:
            return next(moves, choice.advice)

        choosers[side] = one_then_advice
        out = resolve_fight(attacker, defender, (choosers[0], choosers[1]))
        before = [s for s in out.steps[:len(first.steps)]]
        gone_dealt = sum(s.damage for s in before if s.side == first.side)
        gone_taken = sum(s.damage for s in before if s.side != first.side)
        mine = (out.dealt, out.taken) if side == 0 else (out.taken, out.dealt)
        assert (mine[0] - gone_dealt, mine[1] - gone_taken) == (option.dealt, option.taken)


# -- the simulator --------------------------------------------------------------------------------
def test_the_autopilot_answers_through_the_policy_as_fight_choices_auto_plays(
        tmp_path: Path) -> None:
    """A whole game where the players fight: the autopilot's ``auto all`` answers give the
    same game as the simulator's ``fight_choices: auto`` (one more log record a fight: the
    step that paused, then the answer's, which holds what the step did), and simulated
    scenarios never pause for a fight."""
    scenario = load_scenario(small_scenario(tmp_path, turns=2, engagement=3))
    game, state = new_game(scenario, 12)
    autopilot.play(game, state, "aggressive")
    sim_game, sim_state = new_game(autopilot.simulated(scenario), 12)
    autopilot.play(sim_game, sim_state, "aggressive")
    paused = sum(1 for r in state.log if r["action"]["type"] == "fight_choice")
    assert paused > 0
    assert not any(r["action"]["type"] == "fight_choice" for r in sim_state.log)
    assert len(state.log) == len(sim_state.log) + paused
    assert state.result == sim_state.result
    assert [o.wounds for o in state.operatives.values()] == \
        [o.wounds for o in sim_state.operatives.values()]
