"""Typed answers -> action dicts: every word of the vocabulary, and the refusals' reasons."""

from __future__ import annotations

from pathlib import Path

import pytest

from solo_ops.core.errors import RuleError
from solo_ops.view import answers
from solo_ops.view.answers import parse
from tests.support.answers import play, table_scenario


@pytest.mark.parametrize(("text", "kind", "action"), [
    ("activate kell engage", "activate", {"type": "activate", "operative": "kell",
                                          "stance": "engage"}),
    ("kell Conceal", "activate", {"type": "activate", "operative": "kell", "stance": "conceal"}),
    ("kell", "activate", {"type": "activate", "operative": "kell"}),
    ("door d1 open", "activate", {"type": "portal", "feature": "d1", "open": True}),
    ("damage kell 2", "activate", {"type": "damage", "operative": "kell", "amount": 2}),
    ("move 10,4", "act", {"type": "move", "how": "reposition", "to": [10.0, 4.0]}),
    ("move (10, 4.5)", "act", {"type": "move", "how": "reposition", "to": [10.0, 4.5]}),
    ("dash 12,5", "act", {"type": "move", "how": "dash", "to": [12.0, 5.0]}),
    ("fallback 8,3", "act", {"type": "move", "how": "fall_back", "to": [8.0, 3.0]}),
    ("advance 8,3", "act", {"type": "move", "how": "advance", "to": [8.0, 3.0]}),
    ("charge u1-a 12,6", "act", {"type": "move", "how": "charge", "target": "u1-a",
                                 "to": [12.0, 6.0]}),
    ("shoot u1-a with bolt gun damage 3", "act", {"type": "shoot", "target": "u1-a",
                                                  "weapon": "bolt gun", "damage": 3}),
    ("shoot u1-a with boltgun roll", "act", {"type": "shoot", "target": "u1-a",
                                             "weapon": "boltgun", "roll": True}),
    ("fight u1-a dealt 4 taken 3", "act", {"type": "fight", "target": "u1-a", "dealt": 4,
                                           "taken": 3}),
    ("fight u1-a", "act", {"type": "fight", "target": "u1-a", "dealt": 0, "taken": 0}),
    ("hatch h2 close", "act", {"type": "portal", "feature": "h2", "open": False}),
    ("carry jax", "act", {"type": "carry", "target": "jax"}),
    ("evacuate", "act", {"type": "evacuate"}),
    ("ready", "act", {"type": "ready"}),
    ("down jax", "act", {"type": "down", "operative": "jax"}),
    ("done", "act", {"type": "done"}),
    ("pass", "act", {"type": "done"}),
    ("3", "attack", {"type": "attack_damage", "damage": 3}),
    # relative moves (the engine computes the point: solo_ops.game.intent)
    ("move corvin 4 toward obj-2", "act", {"type": "move", "how": "reposition",
                                           "operative": "corvin", "amount": 4.0,
                                           "relation": "toward", "ref": "obj-2"}),
    ("dash 2.5 towards c3", "act", {"type": "move", "how": "dash", "amount": 2.5,
                                    "relation": "toward", "ref": "c3"}),
    ("move corvin to obj-2", "act", {"type": "move", "how": "reposition",
                                     "operative": "corvin", "relation": "to", "ref": "obj-2"}),
    ("move corvin into base contact with cultist-3", "act", {
        "type": "move", "how": "reposition", "operative": "corvin", "relation": "contact",
        "ref": "cultist-3"}),
    ("move contact cultist-3", "act", {"type": "move", "how": "reposition",
                                       "relation": "contact", "ref": "cultist-3"}),
    ("move corvin behind crate-2", "act", {"type": "move", "how": "reposition",
                                           "operative": "corvin", "relation": "behind",
                                           "ref": "crate-2"}),
    ("fallback behind crate-2", "act", {"type": "move", "how": "fall_back",
                                        "relation": "behind", "ref": "crate-2"}),
    ("move corvin 10,4", "act", {"type": "move", "how": "reposition", "operative": "corvin",
                                 "to": [10.0, 4.0]}),
    ("charge cultist-3", "act", {"type": "move", "how": "charge", "relation": "contact",
                                 "ref": "cultist-3"}),
    # issue #27: toward a thing without a distance goes as far as the move allows; a carried
    # friend names his carrier's move; evacuate may name who is carried off
    ("move rask toward edge", "act", {"type": "move", "how": "reposition", "operative": "rask",
                                      "relation": "toward", "ref": "edge"}),
    ("move oro into base contact with rask", "act", {
        "type": "move", "how": "reposition", "operative": "oro", "relation": "contact",
        "ref": "rask"}),
    ("evacuate rask", "act", {"type": "evacuate", "operative": "rask"}),
    ("evacuate", "act", {"type": "evacuate"}),
    ("fight u1-a roll", "act", {"type": "fight", "target": "u1-a", "roll": True}),
    ("fight u1-a roll with knife", "act", {"type": "fight", "target": "u1-a", "roll": True,
                                           "weapon": "knife"}),
    ("damage 4 taken 1", "attack", {"type": "attack_damage", "damage": 4, "taken": 1}),
])
def test_words(text: str, kind: str, action: dict) -> None:
    assert parse(text, kind) == action


def test_centimetres_are_typed_and_come_out_in_inches() -> None:
    assert parse("move 25.4,12.7", "act", "cm") == {"type": "move", "how": "reposition",
                                                    "to": [10.0, 5.0]}
    assert parse("move 5.08 toward obj-1", "act", "cm")["amount"] == 2.0


@pytest.mark.parametrize(("text", "kind", "reason"), [
    ("", "act", "type an answer"),
    ("move", "act", "where to?"),
    ("move 10", "act", "expected a point x,y"),
    ("move ten,4", "act", "expected a point x,y"),
    ("move nan,4", "act", "expected a point x,y"),
    ("charge", "act", "charge whom?"),
    ("move 3 toward", "act", "toward what?"),
    ("move toward", "act", "toward what?"),
    ("evacuate rask now", "act", "e.g. 'evacuate' or 'evacuate rask'"),
    ("move -2 toward obj-1", "act", "how far? a distance above 0"),
    ("move kell to obj-1 now", "act", "to what? name one thing"),
    ("shoot u1 damage 3 roll", "act", "either 'damage N'"),
    ("fight u1 dealt 2 roll", "act", "either 'dealt N taken M'"),
    ("shoot", "act", "shoot whom?"),
    ("shoot u1 damage -2", "act", "cannot be negative"),
    ("shoot u1 damage lots", "act", "damage must be a whole number"),
    ("shoot u1 boltgun", "act", "unexpected 'boltgun'"),
    ("fight u1 dealt x", "act", "damage dealt must be a whole number"),
    ("door d1", "act", "e.g. 'door h1 open'"),
    ("carry", "act", "carry whom?"),
    ("damage sgt", "act", "e.g. 'damage sgt 3'"),
    ("dance", "act", "I don't understand 'dance'"),
    ("move 3,3", "activate", "first say which operative acts"),
    ("done", "activate", "first say which operative acts"),
    ("activate", "activate", "which operative?"),
    ("kell engage now", "activate", "too many words"),
    ("lots", "attack", "damage must be a whole number"),
    ("damage", "attack", "how much damage?"),
])
def test_refusals_say_why(text: str, kind: str, reason: str) -> None:
    with pytest.raises(RuleError, match=reason.replace("?", r"\?").replace("(", r"\(")):
        parse(text, kind)






def _at(save: dict, ident: str) -> list[float]:
    return next(o["at"] for o in save["snapshot"]["operatives"] if o["id"] == ident)


def test_a_relative_move_is_shown_and_waits_for_a_yes(tmp_path: Path) -> None:
    scenario = table_scenario(tmp_path)
    out, save = play(tmp_path, scenario, "A1 engage", "move 1 toward obj-1", "no",
                      "move 1 toward nowhere", "move 1 toward OBJ-1")
    # 1" along (1, 1)/sqrt(2) from (3, 10): (3.71, 10.71); shown, then "no": not moved
    assert ('→ a1 would reposition from (3.0, 10.0) 1.0" north-east to (3.7, 10.7), touching '
            'obj-1 (it can reposition 6.0").') in out
    assert "Not moved." in out
    assert "✗ no thing on the table called 'nowhere' (choose from: " in out
    assert out.count("? Do it? (yes / no)") == 2
    assert _at(save, "a1") == [3.0, 10.0]  # nothing was saved: the answers ran out at a yes/no
    assert [a["type"] for a in save["actions"] if a["type"] != "engine"] == ["activate"]
    # the answer hint is printed once for the kind of prompt, not after every answer
    assert out.count("answers: move X,Y") == 1
    out, save = play(tmp_path, scenario, "a1 engage", "move 1 toward obj-1", "yes", "done")
    assert _at(save, "a1") == [3.71, 10.71]
    moved = [a for a in save["actions"] if a["type"] == "move"]
    assert moved == [{"type": "move", "how": "reposition", "to": [3.71, 10.71],
                      "operative": "a1"}]  # the save holds the concrete point
    assert 'a1 repositions from (3.0, 10.0) 1.0" north-east to (3.7, 10.7).' in out


def test_a_different_answer_at_the_yes_no_question_is_taken_as_the_next_answer(
        tmp_path: Path) -> None:
    scenario = table_scenario(tmp_path)
    out, save = play(tmp_path, scenario, "a1", "move to obj-1", "move 3,10.5")
    assert "Not moved." in out
    assert _at(save, "a1") == [3.0, 10.5]


def test_centimetres_setting_reads_and_prints_centimetres(tmp_path: Path) -> None:
    scenario = table_scenario(tmp_path, units="cm")
    out, save = play(tmp_path, scenario, "a1", "move 10.16,25.4", "status")
    # 10.16 cm = 4", 25.4 cm = 10": a1 moves 1" east
    assert _at(save, "a1") == [4.0, 10.0]
    assert "a1 repositions from (7.6, 25.4) 2.5 cm east to (10.2, 25.4)." in out
    assert "Ana: a1 (10.2, 25.4) 8/8W" in out


def test_charge_into_base_contact_then_fight_roll(tmp_path: Path) -> None:
    scenario = table_scenario(tmp_path, enemy_at=(7, 10))
    out, save = play(tmp_path, scenario, "a1 engage", "charge E", "yes", "fight e roll",
                      "auto all")  # the dice by the engine's advice (game/test_fight_choices.py)
    # base contact due west of e1: (7 - 2r - 0.02, 10) = (5.99575, 10) -> (6.0, 10.0)
    assert "in base contact with e1" in out
    assert [a for a in save["actions"] if a["type"] in ("move", "fight")] == [
        {"type": "move", "how": "charge", "to": [6.0, 10.0], "target": "e1", "operative": "a1"},
        {"type": "fight", "target": "e1", "roll": True, "operative": "a1"}]
    assert "✸ a1 fights e1: deals" in out


def test_a_computed_move_the_engine_would_refuse_is_refused_before_asking(
        tmp_path: Path) -> None:
    scenario = table_scenario(tmp_path, enemy_at=(4.2, 10))
    out, save = play(tmp_path, scenario, "a1 engage", "charge e1")
    # 4.2 - 3 - 2r = 0.22": already in control range, so no charge can start
    assert "✗ a1 is in control range of" in out and "it cannot charge" in out
    assert "Do it?" not in out
    assert _at(save, "a1") == [3.0, 10.0]


def test_the_silent_weapon_is_chosen_under_conceal_and_ids_match_by_prefix() -> None:
    from dataclasses import replace

    from solo_ops.core.model import parse_weapon_rule
    from solo_ops.game import intent
    from solo_ops.game.engine import pending
    from tests.support.small_table import active

    game, state = active(enemy_at=(10, 10), stance="conceal")
    a1 = state.operatives["a1"]
    lasgun = a1.profile.ranged_weapons[0]
    silent = replace(lasgun, name="silenced pistol",
                     rules=(*lasgun.rules, parse_weapon_rule("silent")))
    a1.profile = replace(a1.profile, weapons=(*a1.profile.weapons, silent))
    prompt = pending(game, state)
    got = intent.resolve_ids(game, state, {"type": "shoot", "target": "e", "roll": True}, prompt)
    assert got["weapon"] == "silenced pistol" and got["target"] == "e1"
    got = intent.resolve_ids(game, state, {"type": "shoot", "target": "e1", "weapon": "LAS",
                                           "damage": 2}, prompt)
    assert got["weapon"] == "lasgun"


def test_the_typed_answers() -> None:
    """``counteract OP`` (or the id alone) / ``pass`` at a counteract offer; ``pickup MARKER``
    (``pick up``), ``placedown [X,Y]`` (``place down``)."""
    assert answers.parse("counteract kell", "counteract") == {"type": "counteract",
                                                             "operative": "kell"}
    assert answers.parse("kell", "counteract") == {"type": "counteract", "operative": "kell"}
    assert answers.parse("pass", "counteract") == {"type": "counteract", "pass": True}
    assert answers.parse("damage kell 2", "counteract")["type"] == "damage"
    assert answers.parse("pickup obj-1", "act") == {"type": "pickup", "marker": "obj-1"}
    assert answers.parse("pick up obj-1", "act") == {"type": "pickup", "marker": "obj-1"}
    assert answers.parse("placedown", "act") == {"type": "placedown"}
    assert answers.parse("place down 10,4", "act") == {"type": "placedown", "to": [10.0, 4.0]}
    with pytest.raises(RuleError, match="pick up which marker"):
        answers.parse("pickup", "act")


def test_at_the_activation_question_an_unknown_operative_is_said_before_the_stance(
        tmp_path: Path) -> None:
    """``asdf qwer``: the operative is unknown, and that is what the player hears (it said
    "stance must be engage or conceal, got 'qwer'", which left the name unremarked: a
    play-tester's report); ``a1 away`` names the stance; ``a1 CONCEAL`` is taken."""
    assert parse("asdf qwer", "activate") == {"type": "activate", "operative": "asdf",
                                               "stance": "qwer"}
    out, save = play(tmp_path, table_scenario(tmp_path), "asdf qwer", "a1 away",
                     "a1 CONCEAL", "quit")
    assert "✗ no operative called 'asdf'" in out
    assert "stance must be engage or conceal, got 'qwer'" not in out
    assert "✗ stance must be engage or conceal, got 'away'" in out
    assert {"type": "activate", "operative": "a1", "stance": "conceal"} in save["actions"]
