"""Command Point re-rolls (issue 14 item 7) of the dice solo-ops rolls for the players, and CP
spent at the table.

Sources: card 001, "Re-Roll Attack/Defence Dice for 1CP." (**CP Re-Roll**); card 002, "Re-Roll
an Attack/Defence Dice for 1CP. Dice can only be re-rolled once."; 001/002 Balanced, "You can
re-roll one of your attack dice."

The table is open (30" x 22", no terrain). The enemy e1 (Fire Teams, command 1: remain
stationary, fire at will) stands 9" from the players' operative a1; both carry an autogun
(4 attack dice, hit 4+, damage 3/4) and have 10 wounds, Save 5+ and three defence dice. Every die
is scripted: the first two faces are the initiative roll-off (players, then solo-ops). In
turning point 1 the players have 2 + 1 CP, +1 without the initiative (card 001).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from solo_ops.core.dice import ScriptedDice
from solo_ops.core.errors import RuleError
from solo_ops.core.model import WeaponRule
from solo_ops.game import checkpoint, cp
from solo_ops.game.engine import Game, new_game, pending, step
from solo_ops.game.state import State
from solo_ops.io.savegame import game_document
from solo_ops.io.savegame import restore as restore_save
from solo_ops.io.scenario import parse_scenario
from solo_ops.rules import kt2024
from solo_ops.sim import autopilot
from solo_ops.view.answers import parse
from solo_ops.view.narrate import lines_for
from solo_ops.view.player import player_record
from tests.support.cp_games import GUN, document
from tests.support.players import cli_here, small_scenario, write_answers


def start(faces: list[int], **options: Any) -> tuple[Game, State]:
    """A game without hidden counters, its dice after set-up scripted with ``faces``."""
    game, state = new_game(parse_scenario(document(**options), "cp.yaml"), 1)
    state.counters.clear()
    state.dice = ScriptedDice(faces=faces)
    return game, state


def shot_event(record: dict[str, Any]) -> dict[str, Any]:
    return next(e for e in record["events"] if e["type"] == "attack")


ENEMY_SHOT = [1, 6, 4, 4, 6, 2, 2, 1, 5]
"""Initiative 1 v 6 (the enemy first); e1's attack dice 4 4 6 2 (a crit, two normal hits);
a1's defence dice 2 1 5 (one normal save, two failures): 4 + 3 + 3 - 3 = 7 damage."""


# -- the pause -------------------------------------------------------------------------------------
def test_the_enemy_shot_pauses_for_a_defence_reroll_when_the_players_have_cp() -> None:
    """001: "Re-Roll Attack/Defence Dice for 1CP." -- a1's defence dice 2 1 5 have two
    failures and the players have 4 CP: the game asks before the damage is dealt."""
    game, state = start(ENEMY_SHOT)
    step(game, state, {"type": "engine"})
    assert state.cp["player"] == 4
    record = step(game, state, {"type": "engine"})
    assert [e["type"] for e in record["events"]] == ["reroll_offered"]
    assert record["rolls"] == []  # the paused step rolled nothing yet
    prompt = pending(game, state)
    assert (prompt.kind, prompt.side, prompt.player, prompt.operative) == (
        "reroll", "player", "Ana", "a1")
    assert prompt.options == ["reroll 1", "reroll 2", "keep"]
    assert "#1 2 (fail), #2 1 (fail), #3 5" in prompt.text
    assert "you have 4 CP" in prompt.text
    # what the saves are against: e1's 4 4 6 2 retained a crit and two normal hits
    assert "1 crit(s) and 2 normal hit(s) to save against" in prompt.text
    assert state.operatives["a1"].wounds == 10 and state.cp["player"] == 4


def test_no_pause_without_cp() -> None:
    """001: the re-roll costs 1CP -- with none left, nothing is asked and the shot resolves."""
    game, state = start(ENEMY_SHOT)
    step(game, state, {"type": "engine"})
    state.cp["player"] = 0
    step(game, state, {"type": "engine"})
    assert pending(game, state).kind == "activate"
    assert state.operatives["a1"].wounds == 3


def test_no_pause_without_a_failed_die() -> None:
    """001 "Re-Roll Attack/Defence Dice for 1CP": the game asks only when a die failed -- the
    defence dice 5 6 5 all save (a crit save and two normal saves block everything)."""
    game, state = start([1, 6, 4, 4, 6, 2, 5, 6, 5])
    step(game, state, {"type": "engine"})
    step(game, state, {"type": "engine"})
    assert pending(game, state).kind == "activate"
    assert state.operatives["a1"].wounds == 10 and state.cp["player"] == 4


# -- the answer ------------------------------------------------------------------------------------
def test_reroll_replaces_the_die_and_the_damage_follows() -> None:
    """002: "Re-Roll an Attack/Defence Dice for 1CP." -- die #2 (a 1) re-rolled to a 6: a crit
    save blocks the crit (4) and the 5 a normal hit (3): 3 damage instead of 7; 1 CP spent; the
    re-roll is one logged D6 naming the die and the face it replaces. Die #1 still failed, so
    the question comes again; ``keep`` ends it."""
    game, state = start([*ENEMY_SHOT, 6])
    step(game, state, {"type": "engine"})
    step(game, state, {"type": "engine"})
    step(game, state, {"type": "reroll", "die": 2})
    assert pending(game, state).kind == "reroll"
    record = step(game, state, {"type": "reroll", "keep": True})
    assert state.operatives["a1"].wounds == 7
    assert state.cp["player"] == 3
    assert shot_event(record)["lines"][2:5] == [
        "Defence dice (5+): 2 1 5.", "CP re-roll of defence die 2 (was 1): 6.",
        "Saves: 1 crit, 1 normal; blocked 1 crits and 1 normal hits."]
    last = record["rolls"][-1]
    assert (last["purpose"], last["faces"], last["ref"]) == (
        "e1 shoots a1 (autogun): CP re-roll of defence die 2 (was 1)", [6],
        record["rolls"][-2]["seq"])
    spent = [e for e in record["events"] if e["type"] == "cp_spent"]
    assert spent == [{"type": "cp_spent", "side": "player", "player": "Ana", "operative": "a1",
                      "amount": 1, "cp": 3, "why": "re-roll of a1's defence die 2 (was 1)"}]
    words = lines_for(player_record(record))
    assert "  You spend 1 CP (re-roll of a1's defence die 2 (was 1)): 3 CP left." in words
    assert pending(game, state).kind == "activate"


def test_each_cp_rerolls_one_die_and_the_question_comes_again() -> None:
    """002: "Re-Roll an Attack/Defence Dice for 1CP. Dice can only be re-rolled once." -- die
    #2 re-rolled to a 3 still fails: asked again with 3 CP left, die #2 marked already
    re-rolled; re-rolling it again is refused; die #1 re-rolled to a 5 saves: 4 damage."""
    game, state = start([*ENEMY_SHOT, 3, 5])
    step(game, state, {"type": "engine"})
    step(game, state, {"type": "engine"})
    step(game, state, {"type": "reroll", "die": 2})
    prompt = pending(game, state)
    assert prompt.kind == "reroll" and prompt.options == ["reroll 1", "keep"]
    assert "#2 3 (fail, already re-rolled)" in prompt.text and "you have 3 CP" in prompt.text
    with pytest.raises(RuleError, match="already been re-rolled"):
        step(game, state, {"type": "reroll", "die": 2})
    record = step(game, state, {"type": "reroll", "die": 1})
    assert state.operatives["a1"].wounds == 6  # saves 5 5 block two normal hits: 4 damage
    assert state.cp["player"] == 2
    assert [e["cp"] for e in record["events"] if e["type"] == "cp_spent"] == [3, 2]


def test_cp_goes_down_by_one_and_never_below_zero() -> None:
    """001: "Re-Roll Attack/Defence Dice for 1CP." -- with 1 CP the one re-roll (2 -> 3, still
    a failure) spends it; nothing more is asked, and no CP can be spent at the table."""
    game, state = start([*ENEMY_SHOT, 3])
    step(game, state, {"type": "engine"})
    state.cp["player"] = 1
    step(game, state, {"type": "engine"})
    step(game, state, {"type": "reroll", "die": 1})
    assert state.cp["player"] == 0
    assert pending(game, state).kind == "activate"
    assert state.operatives["a1"].wounds == 3
    with pytest.raises(RuleError, match="you have 0 CP"):
        step(game, state, {"type": "cp", "amount": 1})


def test_keep_resolves_exactly_as_without_the_question() -> None:
    """001 "Re-Roll ... for 1CP" is the players' choice -- ``keep`` spends nothing, and the
    step's events and dice are exactly those of the same game with ``cp_rerolls: never``."""
    game, state = start(ENEMY_SHOT)
    step(game, state, {"type": "engine"})
    step(game, state, {"type": "engine"})
    kept = step(game, state, {"type": "reroll", "keep": True})
    never_game, never_state = start(ENEMY_SHOT, settings={"cp_rerolls": "never"})
    step(never_game, never_state, {"type": "engine"})
    plain = step(never_game, never_state, {"type": "engine"})
    assert kept["action"] == {"type": "reroll", "keep": True}
    assert (kept["events"], kept["rolls"]) == (plain["events"], plain["rolls"])
    assert state.to_dict(secrets=True) == never_state.to_dict(secrets=True)
    assert state.cp["player"] == 4


def test_other_answers_wait_for_the_reroll() -> None:
    """The question must be answered first; a re-roll answer with no question is refused."""
    game, state = start(ENEMY_SHOT)
    step(game, state, {"type": "engine"})
    with pytest.raises(RuleError, match="no dice are waiting"):
        step(game, state, {"type": "reroll", "die": 1})
    step(game, state, {"type": "engine"})
    before = copy.deepcopy(state.to_dict(secrets=True))
    for action in ({"type": "engine"}, {"type": "cp", "amount": 1},
                   {"type": "reroll", "die": 4}, {"type": "reroll", "die": 0}):
        with pytest.raises(RuleError):
            step(game, state, action)
    assert state.to_dict(secrets=True) == before and pending(game, state).kind == "reroll"


def test_the_state_keeps_its_objects_through_a_pause_and_a_refusal() -> None:
    """The pause puts the state back in place: an operative object held by a caller is the
    one the game goes on with, through the question, a refused answer and the re-roll (002
    "Re-Roll an Attack/Defence Dice for 1CP")."""
    game, state = start([*ENEMY_SHOT, 6, 6])
    a1, ops = state.operatives["a1"], state.operatives
    step(game, state, {"type": "engine"})
    step(game, state, {"type": "engine"})
    with pytest.raises(RuleError):
        step(game, state, {"type": "reroll", "die": 9})
    step(game, state, {"type": "reroll", "die": 1})
    step(game, state, {"type": "reroll", "die": 2})  # 6 6 5: every hit saved
    assert state.operatives is ops and state.operatives["a1"] is a1
    assert a1.wounds == 10 and state.cp["player"] == 2


# -- attack dice ----------------------------------------------------------------------------------
PLAYER_SHOT = [6, 1, 5, 1, 5, 2]
"""Initiative 6 v 1 (the players first); a1's attack dice 5 1 5 2 (two normal hits)."""


def players_shoot(faces: list[int], weapon: dict[str, Any] | None = None
                  ) -> tuple[Game, State, dict[str, Any]]:
    game, state = start(faces, player_weapon=weapon)
    step(game, state, {"type": "engine"})
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    record = step(game, state, {"type": "shoot", "target": "e1", "weapon": GUN["name"]
                                if weapon is None else weapon["name"], "roll": True})
    return game, state, record


def test_a_players_rolled_shot_pauses_and_a_rerolled_attack_die_adds_damage() -> None:
    """001: "Re-Roll Attack/Defence Dice for 1CP." -- a1's attack die #2 (a 1) re-rolled to a
    6 is a crit; e1's defence 5 1 1 blocks a normal hit: 4 + 3 = 7 damage (3 without)."""
    game, state, record = players_shoot([*PLAYER_SHOT, 6, 5, 1, 1])
    assert [e["type"] for e in record["events"]] == ["reroll_offered"]
    assert pending(game, state).options == ["reroll 2", "reroll 4", "keep"]
    step(game, state, {"type": "reroll", "die": 2})
    assert pending(game, state).kind == "reroll"  # die #4 still failed, 3 CP left
    record = step(game, state, {"type": "reroll", "keep": True})
    assert state.operatives["e1"].wounds == 3 and state.cp["player"] == 2
    assert shot_event(record)["lines"][:3] == [
        "Attack dice (4+, crit 6+): 5 1 5 2.", "CP re-roll of attack die 2 (was 1): 6.",
        "Retained: 1 crits, 2 normal hits."]
    assert pending(game, state).kind == "act"  # a1 goes on with its activation

    game, state, _ = players_shoot([*PLAYER_SHOT, 5, 1, 1])
    step(game, state, {"type": "reroll", "keep": True})
    assert state.operatives["e1"].wounds == 7 and state.cp["player"] == 3


def test_a_die_rerolled_by_balanced_cannot_be_cp_rerolled() -> None:
    """002: "Dice can only be re-rolled once."; Balanced: "You can re-roll one of your attack
    dice." -- dice 1 5 5 5: Balanced re-rolls the 1 to a 2 (still a failure); no die is left
    that a CP could re-roll, so nothing is asked."""
    balanced = {**GUN, "name": "balanced gun", "rules": ["balanced"]}
    game, state, record = players_shoot([6, 1, 1, 5, 5, 5, 2, 1, 1, 1], balanced)
    assert pending(game, state).kind == "act"
    assert state.cp["player"] == 3 and not any(e["type"] == "cp_spent"
                                                 for e in record["events"])
    assert "Balanced re-rolls 1: 2." in shot_event(record)["lines"]

    # dice 1 2 5 5: Balanced re-rolls die #1 (1 -> 3); die #2 may still be CP re-rolled
    game, state, _ = players_shoot([6, 1, 1, 2, 5, 5, 3, 6, 1, 1, 1], balanced)
    prompt = pending(game, state)
    assert prompt.options == ["reroll 2", "keep"]
    assert "#1 3 (fail, already re-rolled)" in prompt.text
    with pytest.raises(RuleError, match="already been re-rolled"):
        step(game, state, {"type": "reroll", "die": 1})
    record = step(game, state, {"type": "reroll", "die": 2})
    assert shot_event(record)["lines"][1:3] == ["Balanced re-rolls 1: 3.",
                                               "CP re-roll of attack die 2 (was 2): 6."]
    assert state.operatives["e1"].wounds == 0 or state.operatives["e1"].down


def test_rules_layer_refuses_a_die_already_rerolled() -> None:
    """002: "Dice can only be re-rolled once." -- the combat rules themselves refuse a chooser
    that names a die a weapon rule re-rolled."""
    balanced = kt2024.AttackSpec(4, 4, 3, 4, (WeaponRule("balanced"),))
    offers: list[kt2024.RerollOffer] = []

    def choose(offer: kt2024.RerollOffer) -> int | None:
        offers.append(offer)
        return 0

    with pytest.raises(ValueError, match="attack die 1 cannot be re-rolled"):
        kt2024.roll_attack_dice(ScriptedDice(faces=[1, 5, 5, 5, 2]), balanced, "t", choose)
    assert offers[0].rerolled == (0,) and offers[0].failed == (0,)
    assert offers[0].improvable == ()


def test_a_fight_the_player_rolls_offers_the_players_attack_dice() -> None:
    """001: "Re-Roll Attack/Defence Dice for 1CP." -- in ``fight X roll`` both sides roll
    first; then the players may re-roll their own attack dice (not the enemy's)."""
    doc = document()
    doc["squads"][0]["models"][0]["at"] = [18.5, 11]  # in base contact with e1
    doc["squads"][0]["models"][0]["profile"]["weapons"] = [
        GUN, {"name": "knife", "type": "melee", "attacks": 3, "hit": 4, "damage": [3, 4]}]
    doc["enemies"][0]["models"][0]["profile"]["weapons"] = [
        GUN, {"name": "claw", "type": "melee", "attacks": 3, "hit": 4, "damage": [3, 4]}]
    game, state = new_game(parse_scenario(doc, "fight.yaml"), 1)
    state.counters.clear()
    # initiative 6 v 1; a1 rolls 1 4 4, e1 rolls 1 1 1; a1's die #1 re-rolled to a 6
    state.dice = ScriptedDice(faces=[6, 1, 1, 4, 4, 1, 1, 1, 6])
    step(game, state, {"type": "engine"})
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    step(game, state, {"type": "fight", "target": "e1", "roll": True})
    prompt = pending(game, state)
    assert prompt.kind == "reroll" and prompt.options == ["reroll 1", "keep"]
    assert "a1's attack dice (hit 4+): #1 1 (fail), #2 4, #3 4" in prompt.text
    record = step(game, state, {"type": "reroll", "die": 1})
    fight = next(e for e in record["events"] if e["type"] == "fight")
    assert "a1: CP re-roll of attack die 1 (was 1): 6." in fight["lines"]
    assert fight["damage"] == 4 + 3 + 3 and fight["damage_taken"] == 0
    assert state.operatives["e1"].wounds == 0 or state.operatives["e1"].down


def test_a_fight_the_enemy_starts_offers_the_players_attack_dice() -> None:
    """001: "Re-Roll Attack/Defence Dice for 1CP." -- e1 (melee only) fights a1 in its
    activation: e1 rolls 4 4 1, a1 rolls 1 5 2; a1's die #1 re-rolled to a 6 (a crit), die #3
    kept."""
    doc = document()
    doc["squads"][0]["models"][0]["at"] = [18.5, 11]  # within control range of e1
    doc["squads"][0]["models"][0]["profile"]["weapons"] = [
        GUN, {"name": "knife", "type": "melee", "attacks": 3, "hit": 4, "damage": [3, 4]}]
    doc["enemies"][0]["models"][0]["profile"]["weapons"] = [
        {"name": "claw", "type": "melee", "attacks": 3, "hit": 4, "damage": [3, 4]}]
    game, state = new_game(parse_scenario(doc, "fight.yaml"), 1)
    state.counters.clear()
    state.dice = ScriptedDice(faces=[1, 6, 4, 4, 1, 1, 5, 2, 6])
    step(game, state, {"type": "engine"})
    step(game, state, {"type": "engine"})
    prompt = pending(game, state)
    assert prompt.kind == "reroll" and prompt.options == ["reroll 1", "reroll 3", "keep"]
    # the players see e1's dice before they choose
    assert prompt.text.startswith("Ana: e1 fights a1; e1's dice (4+): 4 4 1. a1's attack dice "
                                  "(hit 4+): #1 1 (fail)")
    step(game, state, {"type": "reroll", "die": 1})
    record = step(game, state, {"type": "reroll", "keep": True})
    fight = next(e for e in record["events"] if e["type"] == "fight")
    assert {"e1: retained 0 crits, 2 normal hits.", "a1: CP re-roll of attack die 1 (was 1): 6.",
            "a1: retained 1 crits, 1 normal hits."} <= set(fight["lines"])
    assert state.cp["player"] == 3


# -- the setting, 2018 and the enemy ---------------------------------------------------------------
def test_setting_never_asks_nothing() -> None:
    """``cp_rerolls: never`` (docs/rules.md): the shot resolves in the one step, as before
    CP re-rolls existed."""
    game, state = start(ENEMY_SHOT, settings={"cp_rerolls": "never"})
    step(game, state, {"type": "engine"})
    record = step(game, state, {"type": "engine"})
    assert shot_event(record)["damage"] == 7 and pending(game, state).kind == "activate"
    assert state.cp["player"] == 4


def test_the_enemy_never_spends_cp_on_its_dice() -> None:
    """003 gives the enemy no CP rules: its attack dice 1 1 1 1 are not re-rolled although it
    has 3 CP (docs/rules.md)."""
    game, state = start([1, 6, 1, 1, 1, 1])
    step(game, state, {"type": "engine"})
    record = step(game, state, {"type": "engine"})
    assert shot_event(record)["damage"] == 0 and state.cp["enemy"] == 3
    assert len(record["rolls"]) == 1


def test_kill_team_2018_never_asks() -> None:
    """004 holds no CP re-roll (its Tactics are Sure Footing, Barge Through, Access Override,
    ...): a 2018 game never pauses for one, whatever CP the players hold."""
    doc = document()
    doc["edition"] = "kt2018"
    game, state = new_game(parse_scenario(doc, "2018.yaml"), 1)
    state.counters.clear()
    state.cp["player"] = 3
    assert not cp.armed(game, state, {"type": "engine"})
    for _ in range(6):
        if pending(game, state).kind != "engine":
            break
        step(game, state, {"type": "engine"})
        assert pending(game, state).kind != "reroll"


# -- CP spent at the table -------------------------------------------------------------------------
def test_cp_spent_at_the_table_is_recorded_and_refused_beyond_what_they_have() -> None:
    """001 "Re-Roll Attack/Defence Dice for 1CP" for dice the players roll themselves, and the
    card's "Ploy: Use a strategy ploy" (their team's own ploys): ``cp N`` keeps the total
    true; more than they have is refused."""
    game, state = start([6, 1])
    step(game, state, {"type": "engine"})
    assert pending(game, state).kind == "activate" and state.cp["player"] == 3
    record = step(game, state, parse("cp 2 Command Re-roll", "activate"))
    assert record["events"] == [{"type": "cp_spent", "side": "player", "player": "Ana",
                                 "amount": 2, "cp": 1, "why": "Command Re-roll"}]
    with pytest.raises(RuleError, match="you have 1 CP: you cannot spend 2"):
        step(game, state, parse("spend 2 cp", "activate"))
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    step(game, state, parse("spend 1cp", "act"))
    assert state.cp["player"] == 0


def test_cp_is_accepted_at_the_attack_prompt() -> None:
    """With ``enemy_attacks: player`` the players roll their defence dice themselves and may
    record a CP re-roll there (001 "Re-Roll Attack/Defence Dice for 1CP")."""
    game, state = start([1, 6], settings={"enemy_attacks": "player"})
    step(game, state, {"type": "engine"})
    step(game, state, {"type": "engine"})
    assert pending(game, state).kind == "attack"
    step(game, state, parse("cp 1", "attack"))
    assert state.cp["player"] == 3 and pending(game, state).kind == "attack"


def test_answers_parse_the_reroll_and_cp_words() -> None:
    """The words of docs/guide.md: ``reroll N`` (the die's place as shown), ``keep``,
    ``cp N [why]`` and ``spend N cp``."""
    assert parse("reroll 2", "reroll") == {"type": "reroll", "die": 2}
    assert parse("re-roll die #3", "reroll") == {"type": "reroll", "die": 3}
    assert parse("keep", "reroll") == {"type": "reroll", "keep": True}
    assert parse("no", "reroll") == {"type": "reroll", "keep": True}
    assert parse("cp 1", "act") == {"type": "cp", "amount": 1}
    assert parse("spend 1 cp on a ploy", "attack") == {"type": "cp", "amount": 1,
                                                        "why": "on a ploy"}
    for bad in ("reroll", "reroll two", "shoot e1 roll"):
        with pytest.raises(RuleError):
            parse(bad, "reroll")
    with pytest.raises(RuleError):
        parse("cp 0", "act")


# -- saves, checkpoints, the autopilot ------------------------------------------------------------
def autoplay(game: Game, state: State, *, until: str | None = None) -> None:
    """Answer every prompt with the autopilot (its documented re-roll policy included) until
    the game ends or a prompt of kind ``until`` comes."""
    for _ in range(5000):
        prompt = pending(game, state)
        if prompt.kind in ("ended", until):
            return
        autopilot.answer(game, state, prompt)
    raise AssertionError("the game did not end")


def test_save_and_resume_at_the_pause_give_the_same_game(tmp_path: Path) -> None:
    """A save made at the question (the game rebuilt from the seed and the answers) goes on
    exactly as the game that was never saved (002 "Re-Roll an Attack/Defence Dice for
    1CP")."""
    from solo_ops.io.scenario import load_scenario

    path = small_scenario(tmp_path, seed=3)

    def paused() -> tuple[Game, State]:
        game, state = new_game(load_scenario(path), 3)
        autoplay(game, state, until="reroll")
        assert pending(game, state).kind == "reroll"
        return game, state

    game, state = paused()
    autoplay(game, state)
    expected = state.to_dict(secrets=True), [r["rolls"] for r in state.log]

    game, state = paused()
    doc = json.loads(json.dumps(game_document(game, state)))
    game2, state2 = restore_save(doc, "save.json")
    assert pending(game2, state2).to_dict() == pending(game, state).to_dict()
    autoplay(game2, state2)
    assert (state2.to_dict(secrets=True), [r["rolls"] for r in state2.log]) == expected


def test_a_checkpoint_at_the_pause_goes_on_as_the_game() -> None:
    """:mod:`solo_ops.game.checkpoint` at the question: the loaded state asks the same and the
    answers give the same game (001 "Re-Roll Attack/Defence Dice for 1CP")."""
    faces = [*ENEMY_SHOT, 1, 2]

    def paused() -> tuple[Game, State]:
        game, state = start(faces)
        step(game, state, {"type": "engine"})
        step(game, state, {"type": "engine"})
        return game, state

    def finish(game: Game, state: State) -> tuple[Any, ...]:
        step(game, state, {"type": "reroll", "die": 2})
        last = step(game, state, {"type": "reroll", "keep": True})
        return state.to_dict(secrets=True), last["events"], last["rolls"]

    game, state = paused()
    expected = finish(game, state)
    game, state = paused()
    loaded = checkpoint.load(json.loads(json.dumps(checkpoint.dump(state))), game)
    assert pending(game, loaded).to_dict() == pending(game, state).to_dict()
    assert finish(game, loaded) == expected


def strip_pauses(state: State) -> list[tuple[Any, ...]]:
    """The records of a game with the questions taken out: (events, rolls) per step."""
    return [(json.dumps(r["events"]), json.dumps(r["rolls"])) for r in state.log
            if not r["events"] or r["events"][0].get("type") != "reroll_offered"]


def test_a_seeded_game_answered_keep_is_the_game_with_the_setting_never(tmp_path: Path
                                                                         ) -> None:
    """The question changes nothing until it is answered with a re-roll: a seeded autopilot
    game (every question answered ``keep``) has step for step the events and dice of the
    same game under ``cp_rerolls: never``."""
    from solo_ops.io.scenario import load_scenario

    path = small_scenario(tmp_path, seed=3)
    games = {}
    for mode in ("ask", "never"):
        scenario = load_scenario(path)
        if mode == "never":
            text = path.read_text().replace("settings: {turns: 2}",
                                            "settings: {turns: 2, cp_rerolls: never}")
            other = tmp_path / "never.yaml"
            other.write_text(text)
            scenario = load_scenario(other)
        game, state = new_game(scenario, 3)
        asked = 0
        for _ in range(5000):
            prompt = pending(game, state)
            if prompt.kind == "ended":
                break
            if prompt.kind == "reroll":
                asked += 1
                step(game, state, {"type": "reroll", "keep": True})
                continue
            autopilot.answer(game, state, prompt)
        games[mode] = (state, asked)
    ask_state, asked = games["ask"]
    never_state, none_asked = games["never"]
    assert asked > 0 and none_asked == 0
    assert strip_pauses(ask_state) == strip_pauses(never_state)
    assert ask_state.to_dict(secrets=True) == never_state.to_dict(secrets=True)


# -- end to end through the real command ----------------------------------------------------------
def test_play_answers_a_reroll_end_to_end(tmp_path: Path) -> None:
    """``solo-ops play`` with ``--answers`` and then ``--resume ... --answer reroll N``: the game
    pauses at the question (001 "Re-Roll Attack/Defence Dice for 1CP"), saves there, and the
    answer given after resuming ends in the same game as the in-process one. (The command
    runs in this process, through click's runner: the test is about the answers, not the
    process.)"""
    from solo_ops.io.scenario import load_scenario

    path = small_scenario(tmp_path, seed=1)  # its first re-roll question: at the 9th answer
    game, state = new_game(load_scenario(path), 1)
    lines: list[str] = []
    first_reroll = None
    for _ in range(5000):
        prompt = pending(game, state)
        if prompt.kind == "ended":
            break
        if prompt.kind == "engine":
            step(game, state, {"type": "engine"})
            continue
        if prompt.kind == "reroll":
            die = prompt.options[0].split()[-1] if prompt.options[0] != "keep" else None
            text = f"reroll {die}" if die else "keep"
            first_reroll = len(lines) if first_reroll is None else first_reroll
        elif prompt.kind == "activate":
            text = f"activate {prompt.options[0]} engage"
        elif prompt.kind == "fight":  # a fight's next die (game/test_fight_choices.py): the advice
            text = "auto"
        elif prompt.kind == "act":
            text = "done"
            op = state.operatives[str(prompt.operative)]
            for enemy in state.living("enemy"):
                try:
                    step(copy.deepcopy(game), copy.deepcopy(state),
                         {"type": "shoot", "target": enemy.id, "roll": True,
                          "weapon": op.profile.ranged_weapons[0].name})
                except RuleError:
                    continue
                text = f"shoot {enemy.id} with {op.profile.ranged_weapons[0].name} roll"
                break
        else:
            text = "1"
        lines.append(text)
        step(game, state, parse(text, prompt.kind))
    assert state.ended and first_reroll is not None
    assert lines[first_reroll].startswith("reroll ")
    head = write_answers(tmp_path, lines[:first_reroll], "head.txt")
    run = cli_here("play", str(path), "--save", "g.json", "--answers", str(head),
                   cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "Spend 1 CP to re-roll one die" in run.stdout
    assert "answers: reroll" in run.stdout
    rest = lines[first_reroll:]
    answered = 0  # the answers to this question and to any that follows it at once
    while rest[answered].startswith("reroll") or rest[answered] == "keep":
        answered += 1
    args = ["play", "--resume", "g.json"]
    for line in rest[:answered]:
        args += ["--answer", line]
    more = write_answers(tmp_path, rest[answered:], "rest.txt")
    run = cli_here(*args, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "CP re-roll of" in run.stdout and "You spend 1 CP" in run.stdout
    run = cli_here("play", "--resume", "g.json", "--answers", str(more), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    saved = json.loads((tmp_path / "g.json").read_text(encoding="utf-8"))
    assert saved["snapshot"] == state.to_dict(secrets=True)


# -- what the players see before the question ------------------------------------------------------
def test_a_pause_in_the_enemy_activation_words_what_the_enemy_did_first_and_only_once(
        tmp_path: Path) -> None:
    """001: "Re-Roll Attack/Defence Dice for 1CP." -- the players choose after seeing what
    happened, as at the table: the paused step's record words e1's activation so far (its
    order and shot), and the step's final record, which runs the activation again from its
    start, is not worded twice at the table (GameTable)."""
    from solo_ops.session.table import GameTable

    game, state = start(ENEMY_SHOT)
    table = GameTable(game, state, tmp_path / "g.json", tmp_path / "g.log.jsonl")
    table.engine_step()  # the turning point starts
    paused = table.engine_step()
    offered = next(e for e in paused["events"] if e["type"] == "reroll_offered")
    assert offered["so_far"][0]["type"] == "enemy_activation"
    assert offered["so_far"][0]["unit"] == "u1"
    before = table.lines_of(paused)
    # e1's activation is worded before the question (the same words as the events' own)
    assert before and before == lines_for({"events": offered["so_far"]})
    outcome = table.answer("Ana", "keep")
    assert outcome.ok, outcome.message
    final = outcome.records[0]
    full = lines_for(player_record(final))
    assert full[:len(before)] == before  # the re-run opens with the same events
    after = table.lines_of(final)
    assert after == full[len(before):] and after  # said once: only what follows
    assert any("damage" in line for line in after)
    # the log keeps the whole step (replay and audits read every event)
    assert final["events"][0]["type"] == "enemy_activation"


def test_history_words_a_paused_step_once_when_the_game_is_opened_again(
        tmp_path: Path) -> None:
    """001: "Re-Roll Attack/Defence Dice for 1CP." -- the same game opened again (a resumed
    terminal, the web page's history): the paused step's words and then the final step's,
    without its opening lines a second time, as the live table said them."""
    from solo_ops.session.table import GameTable

    game, state = start(ENEMY_SHOT)
    live = GameTable(game, state, tmp_path / "g.json", tmp_path / "g.log.jsonl")
    live.engine_step()
    paused = live.engine_step()
    outcome = live.answer("Ana", "keep")
    assert outcome.ok, outcome.message
    said = [live.lines_of(r) for r in state.log[paused["n"]:paused["n"] + 2]]
    again = GameTable(game, state, tmp_path / "g.json", tmp_path / "g.log.jsonl")
    history = {item["n"]: item["lines"] for item in again.narration(paused["n"])}
    assert [history[paused["n"]], history[paused["n"] + 1]] == said
    before = lines_for({"events": next(e for e in paused["events"]
                                       if e["type"] == "reroll_offered")["so_far"]})
    whole = lines_for(player_record(state.log[paused["n"] + 1]))
    assert whole[:len(before)] == before and history[paused["n"] + 1] == whole[len(before):]


def test_no_question_when_the_saves_already_block_every_hit() -> None:
    """002 "Re-Roll an Attack/Defence Dice for 1CP." -- a re-roll is worth a CP only while
    damage gets through: e1's attack dice 4 1 1 1 retain one normal hit, a1's defence dice
    1 1 6 hold a crit save that blocks it, so the two failed saves are not asked about."""
    game, state = start([1, 6, 4, 1, 1, 1, 1, 1, 6])
    step(game, state, {"type": "engine"})
    record = step(game, state, {"type": "engine"})
    assert pending(game, state).kind != "reroll"
    assert shot_event(record)["damage"] == 0 and state.cp["player"] == 4
    assert not any(e["type"] in ("reroll_offered", "cp_spent") for e in record["events"])


def test_the_board_at_the_question_shows_what_the_enemy_did_before_it() -> None:
    """001: "Re-Roll Attack/Defence Dice for 1CP." -- the players are told the enemy's moves,
    charges and damage before the question (``so_far``), so the view (status, maps, the web
    board) shows the models there, although the state keeps them where they were until the
    answer runs the step again (its record then opens with the same events). Bheta-Decima,
    seed 2, played by the autopilot, pauses in enemy activations that moved before the
    question."""
    from solo_ops.io import library
    from solo_ops.io.scenario import load_scenario
    from solo_ops.view.player import player_view

    game, state = new_game(autopilot.simulated(load_scenario(library.resolve(
        "scenario", "bheta-decima-refinery-strike"))), 2)  # fights by the policy, unasked
    checked = 0
    while not state.ended and checked < 3:
        prompt = pending(game, state)
        if prompt.kind == "reroll":
            offered = next(e for e in state.log[-1]["events"] if e["type"] == "reroll_offered")
            told = {e["operative"]: e for e in offered.get("so_far", [])
                    if e["type"] in ("moved", "charged") and e.get("to")}
            if told:
                view = player_view(game, state)
                models = {m["id"]: m for m in view["enemies"]}
                for ops in view["squads"].values():
                    models.update((m["id"], m) for m in ops)
                for op, event in told.items():
                    assert state.operatives[op].at != tuple(event["to"])  # not yet in state
                    assert models[op]["at"] == [round(v, 3) for v in event["to"]]
                hurt = {e["operative"]: e["wounds"] for e in offered["so_far"]
                        if e["type"] == "damage"}
                for op, wounds in hurt.items():
                    assert models[op]["wounds"] == wounds != state.operatives[op].wounds
                checked += 1
        autopilot.answer(game, state, prompt, "objective")
    assert checked >= 2


def test_a_game_opened_again_at_the_question_tells_what_led_to_it_once(tmp_path: Path) -> None:
    """001: "Re-Roll Attack/Defence Dice for 1CP." -- a player who resumes a game saved at
    the question is told e1's activation so far first (as the live table told it), and after
    the answer only what follows."""
    from solo_ops.session.table import GameTable

    game, state = start(ENEMY_SHOT)
    live = GameTable(game, state, tmp_path / "g.json", tmp_path / "g.log.jsonl")
    live.engine_step()
    paused = live.engine_step()
    told_live = live.lines_of(paused)
    assert told_live and told_live[0].startswith("▶ Enemy u1")
    again = GameTable(game, state, tmp_path / "g.json", tmp_path / "g.log.jsonl")
    assert again.paused_story() == told_live
    outcome = again.answer("Ana", "keep")
    assert outcome.ok, outcome.message
    after = again.lines_of(outcome.records[0])
    whole = lines_for(player_record(outcome.records[0]))
    assert after == whole[len(told_live):] and after
    assert again.paused_story() == []  # no question now: nothing to retell


def test_resumed_at_a_second_question_in_one_activation_the_whole_activation_is_told(
        tmp_path: Path) -> None:
    """001: "Re-Roll Attack/Defence Dice for 1CP." -- Bheta-Decima, seed 1, autopilot: an
    enemy activation asks twice (a question on a shot, then a later one in the same
    activation). A player who resumes at the second question is told the whole activation
    from its start (its activation line, every model's plan and the first shot), not only
    what came after the first question. (The first seed that plays it: the dice and the
    enemy's sequences decide which.)"""
    from solo_ops.io import library
    from solo_ops.io.scenario import load_scenario
    from solo_ops.session.table import GameTable
    from solo_ops.session.words import narration_table

    game, state = new_game(autopilot.simulated(load_scenario(library.resolve(
        "scenario", "bheta-decima-refinery-strike"))), 1)  # fights by the policy, unasked
    while True:
        assert not state.ended, "the game ended before a second question in one activation"
        prompt = pending(game, state)
        if (prompt.kind == "reroll" and len(state.log) > 1 and any(
                e["type"] == "reroll_offered" for e in state.log[-2]["events"])):
            break
        autopilot.answer(game, state, prompt, "objective")
    table = GameTable(game, state, tmp_path / "g.json", tmp_path / "g.log.jsonl")
    story = table.paused_story()
    assert story == lines_for(player_record(state.log[-1]), table=narration_table(game, state))
    assert story[0].startswith("▶ Enemy")
    # the history (and the live table) says the second paused step without the first's lines
    said = table.lines_of(state.log[-1])
    assert said and said == story[len(table.lines_of(state.log[-2])):]
