"""Guard for the players on Gallowdark (issue 28 item 2).

Card 002, Gallowdark: "Guard 1AP: Treated as a Shoot action. Cannot be used in Control Range
with enemies or while Concealed. Operative is ON GUARD until it: Performs any action OR an enemy
ends an action in Control Range OR it's order is changed OR The next TP." -- "On Guard: this
Operative can, interrupt an enemy activation AFTER their first action to Shoot (even in Control
Range -1 to HIT) or Fight (including Hatchway) for free."

An open 30" x 22" board of the Gallowdark killzone: the players' a1 (autogun: 4 attacks, hit 4+,
damage 3/4; 10 wounds, save 5+) at (3, 11); the enemy e1 (6 wounds, the same gun) at (29, 11)
with command 4 ("Hold 12" from enemy", "Unhindered Move": it repositions to (23, 11), then
shoots a1). Every die is scripted; the first two are the initiative roll-off (the players win).
"""

from __future__ import annotations

from typing import Any

import pytest

from solo_ops.core.dice import ScriptedDice
from solo_ops.core.errors import RuleError
from solo_ops.game.engine import new_game, pending, step
from solo_ops.io.scenario import parse_scenario
from solo_ops.view.answers import parse
from solo_ops.view.narrate import lines_for
from solo_ops.view.player import player_record

GUN = {"name": "autogun", "type": "rapid", "range": 24, "attacks": 4, "hit": 4,
       "damage": [3, 4], "strength": 3, "shots": 1}
KNIFE = {"name": "knife", "type": "melee", "attacks": 3, "hit": 4, "damage": [3, 4]}


def profile(name: str, weapons: list[dict[str, Any]], wounds: int = 10) -> dict[str, Any]:
    return {"name": name, "movement": 6, "leadership": 7, "toughness": 3, "wounds": wounds,
            "save": 5, "base_mm": 25.4, "apl": 2, "ws": 4, "bs": 4, "strength": 3,
            "attacks": 1, "weapons": weapons}


def document(killzone: str = "gallowdark", enemy_at: tuple[float, float] = (29, 11),
             command: int = 4) -> dict[str, Any]:
    return {"name": "guard", "edition": "kt2024",
            "board": {"name": "open", "width": 30, "depth": 22, "killzone": killzone,
                      "features": []},
            "roster": {"name": "r", "profiles": {"g": profile("Gunner", [GUN])},
                       "table": {i: "g" for i in range(1, 7)}},
            "engagement": 0, "seed": 1,
            "squads": [{"player": "Ana", "models": [
                {"id": "a1", "name": "Vale", "profile": profile("Trooper", [GUN, KNIFE]),
                 "at": [3, 11]}]}],
            "enemies": [{"id": "u1", "command": command, "models": [
                {"id": "e1", "profile": profile("Gunner", [GUN, KNIFE], 6),
                 "at": list(enemy_at)}]}],
            "settings": {"turns": 1, "cp_rerolls": "never", "fight_choices": "auto"}}


def on_guard(faces: list[int], **options: Any) -> tuple[Any, Any]:
    """a1 activated (Engage), On Guard, done: the enemy's activation is next."""
    game, state = new_game(parse_scenario(document(**options), "guard.json"), 1)
    state.dice = ScriptedDice(faces=[6, 1, *faces])
    step(game, state, {"type": "engine"})
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    record = step(game, state, {"type": "guard", "operative": "a1"})
    assert record["events"][0]["type"] == "on_guard" and state.operatives["a1"].on_guard
    step(game, state, {"type": "done", "operative": "a1"})
    return game, state


def kinds(record: dict[str, Any]) -> list[str]:
    return [e["type"] for e in record["events"]]


def test_the_guard_shoots_after_the_enemys_move_and_its_shot_never_comes() -> None:
    """e1 repositions 6" west (its first action); Vale, On Guard, is asked and shoots it: 4
    crits (6 6 6 6) against 1 1 1 saves, 4 x 4 = 16 damage capped at e1's 6 wounds: e1 is
    incapacitated and its planned shot at Vale is not made."""
    game, state = on_guard([6, 6, 6, 6, 1, 1, 1])
    paused = step(game, state, {"type": "engine"})
    prompt = pending(game, state)
    assert prompt.kind == "guard" and prompt.operative == "a1"
    assert prompt.options == ["shoot e1", "no"]
    assert "Vale is On Guard and e1 has made its first action" in prompt.text
    offered = paused["events"][-1]
    assert offered["type"] == "guard_offered"
    assert [e["type"] for e in offered["so_far"]] == ["enemy_activation", "moved"]
    record = step(game, state, parse("shoot e1", "guard"))
    assert kinds(record)[:2] == ["enemy_activation", "moved"]
    interrupt = next(e for e in record["events"] if e["type"] == "guard_interrupt")
    assert interrupt["side"] == "player" and interrupt["how"] == "shoot"
    shots = [e for e in record["events"] if e["type"] == "attack"]
    assert [(e["attacker"], e["damage"]) for e in shots] == [("a1", 6)]
    assert state.operatives["e1"].down and not state.operatives["a1"].on_guard
    assert state.operatives["a1"].wounds == 10
    words = lines_for(player_record(record))
    assert "  ⚑ Vale is On Guard and interrupts e1's activation: it shoots it with autogun." \
        in words


def test_no_keeps_the_guard_and_the_enemy_goes_on() -> None:
    game, state = on_guard([6, 6, 6, 6, 1, 1, 1])
    step(game, state, {"type": "engine"})
    record = step(game, state, parse("no", "guard"))
    shots = [e for e in record["events"] if e["type"] == "attack"]
    assert [e["attacker"] for e in shots] == ["e1"]  # its planned shot, after the move
    assert state.operatives["a1"].on_guard  # still On Guard for a later activation


def test_no_guard_in_an_enemys_control_range() -> None:
    """002 Guard: "Cannot be used in Control Range with enemies": e1 stands 0.2" from Vale's
    base."""
    game, state = new_game(parse_scenario(document(enemy_at=(4.2, 11), command=1),
                                          "guard.json"), 1)
    state.dice = ScriptedDice(faces=[6, 1, *[6] * 40])
    step(game, state, {"type": "engine"})
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    with pytest.raises(RuleError, match="in control range of an enemy: it cannot go On Guard"):
        step(game, state, {"type": "guard", "operative": "a1"})


def test_the_guard_interrupt_shot_in_control_range_is_minus_one_to_hit() -> None:
    """e1 ends its first action 0.9" from Vale's base: the offer is both, the shot at -1 (the
    autogun's 4+ becomes 5+): 5 5 5 5 are four normal hits of 3, the saves 1 1 1 fail."""
    game, state = on_guard([5, 5, 5, 5, 1, 1, 1], command=4)
    state.operatives["e1"].at = (4.9, 11.0)
    from solo_ops.game import guard

    can = guard.offer(game, state, state.operatives["a1"], state.operatives["e1"])
    assert can == {"weapons": ["autogun"], "fight": True, "penalty": 1}
    events = guard.interrupt(game, state, state.operatives["a1"], state.operatives["e1"], can,
                             {"how": "shoot", "weapon": "autogun"})
    attack = next(e for e in events if e["type"] == "attack")
    assert attack["lines"][0] == "Attack dice (5+, crit 6+): 5 5 5 5."
    assert attack["damage"] == 6  # four normal hits of 3, no save made: capped at 6 wounds


def test_after_a_guard_shot_in_control_range_it_cannot_retaliate_to_fights() -> None:
    """001 Gallowdark On Guard: "After a Shoot in Control Range, this Operative cannot retaliate
    to Fights for the remaining enemy activation". Vale shoots e1 On Guard 0.9" away (-1 to
    hit: 1 1 1 1 all miss), then e1 fights it in the same activation: Vale rolls no dice, and
    e1's knife (3 dice: 4 4 4) strikes three times for 3. Without the bar Vale rolls its own."""
    from solo_ops.game import attacks, guard

    game, state = on_guard([1, 1, 1, 1, 4, 4, 4, 4, 4, 4, 4, 4, 4], command=4)
    vale, e1 = state.operatives["a1"], state.operatives["e1"]
    e1.at = (4.9, 11.0)
    can = guard.offer(game, state, vale, e1)
    guard.interrupt(game, state, vale, e1, can, {"how": "shoot", "weapon": "autogun"})
    assert vale.no_retaliation
    fought = attacks.roll_fight("kt2024", state.dice, e1, vale, 0)
    assert fought.lines[0] == ("Vale cannot retaliate: it shot On Guard within control range "
                               "this activation (001 Gallowdark On Guard).")
    assert "Vale: retained 0 crits, 0 normal hits." in fought.lines
    assert (fought.damage, fought.damage_taken) == (9, 0)
    vale.no_retaliation = False
    again = attacks.roll_fight("kt2024", state.dice, e1, vale, 0)
    assert "Vale: Attack dice (4+, crit 6+): 4 4 4." in again.lines


def test_the_bar_on_retaliating_ends_with_the_enemy_activation() -> None:
    game, state = on_guard([6, 6, 6, 6, 1, 1, 1])
    state.operatives["a1"].no_retaliation = True  # (as a Guard shot in control range leaves)
    step(game, state, {"type": "engine"})
    assert state.operatives["a1"].no_retaliation  # the enemy's activation goes on
    step(game, state, parse("no", "guard"))
    assert not state.operatives["a1"].no_retaliation  # it has ended


def test_the_guard_is_declared_only_where_the_card_allows() -> None:
    """002: only on Gallowdark, not Concealed, not in an enemy's control range; and it is a
    Shoot action: no shot after it in the same activation."""
    game, state = new_game(parse_scenario(document(killzone="volkus"), "v.json"), 1)
    state.dice = ScriptedDice(faces=[6, 1])
    step(game, state, {"type": "engine"})
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    assert "guard" not in pending(game, state).options
    with pytest.raises(RuleError, match="Guard is an action of the Gallowdark killzone"):
        step(game, state, {"type": "guard", "operative": "a1"})
    game, state = new_game(parse_scenario(document(), "g.json"), 1)
    state.dice = ScriptedDice(faces=[6, 1])
    step(game, state, {"type": "engine"})
    step(game, state, {"type": "activate", "operative": "a1", "stance": "conceal"})
    assert "guard" in pending(game, state).options
    with pytest.raises(RuleError, match="Conceal order: it cannot go On Guard"):
        step(game, state, {"type": "guard", "operative": "a1"})
    state.operatives["a1"].stance = "engage"
    step(game, state, {"type": "guard", "operative": "a1"})
    with pytest.raises(RuleError, match="already done shoot this activation"):
        step(game, state, {"type": "shoot", "operative": "a1", "target": "e1", "roll": True,
                           "weapon": "autogun"})


def test_the_guard_ends_when_it_acts_or_an_enemy_ends_an_action_in_its_control_range() -> None:
    game, state = new_game(parse_scenario(document(), "g.json"), 1)
    state.dice = ScriptedDice(faces=[6, 1])
    step(game, state, {"type": "engine"})
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    step(game, state, {"type": "guard", "operative": "a1"})
    record = step(game, state, {"type": "move", "how": "reposition", "operative": "a1",
                                "to": [4, 11]})
    assert {"type": "guard_ended", "operative": "a1", "why": "it performed an action"} \
        in record["events"]
    from solo_ops.game import guard

    a1, e1 = state.operatives["a1"], state.operatives["e1"]
    a1.on_guard = True
    e1.at = (5.5, 11.0)  # within 1" of Vale's base
    assert guard.engaged(game, state, e1) == [{
        "type": "guard_ended", "operative": "a1",
        "why": "e1 ended an action within its control range"}]
    assert not a1.on_guard


def test_a_guard_answer_is_saved_and_replayed_like_any_other() -> None:
    from solo_ops.io.savegame import game_document
    from solo_ops.io.savegame import restore as restore_save

    game, state = new_game(parse_scenario(document(), "g.json"), 1)  # seeded dice: saved
    while pending(game, state).kind == "engine":
        step(game, state, {"type": "engine"})
    assert pending(game, state).kind == "activate"  # seed 1: the players have the initiative
    step(game, state, {"type": "activate", "operative": "a1", "stance": "engage"})
    step(game, state, {"type": "guard", "operative": "a1"})
    step(game, state, {"type": "done", "operative": "a1"})
    step(game, state, {"type": "engine"})
    assert pending(game, state).kind == "guard"
    step(game, state, parse("shoot e1 with autogun", "guard"))
    doc = game_document(game, state)
    _game, again = restore_save(doc, "g")
    assert again.to_dict(secrets=True) == state.to_dict(secrets=True)
    assert {"type": "guard_choice", "how": "shoot", "target": "e1", "weapon": "autogun"} \
        in doc["actions"]
