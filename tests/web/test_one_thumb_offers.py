"""One-thumb answers (web.offers): the page offers the active operative only what the engine
takes now — targets in sight and range, Guard only when it can be taken, a marker only where one
can be picked up — each offered answer taken by the engine, the reasons for the rest in the
engine's words; and only the player asked gets offers."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from solo_ops.core.dice import ScriptedDice
from solo_ops.game.engine import new_game, step
from solo_ops.io.scenario import parse_scenario
from solo_ops.session.table import GameTable
from solo_ops.web.app import create_app
from solo_ops.web.offers import offers
from tests.support.api import ApiClient, make_table
from tests.support.small_table import BOARD, TROOPER


def _table(folder: Path, *, stance: str = "engage", killzone: str | None = None,
           objectives: list[dict[str, Any]] | None = None,
           gun_rules: list[str] | None = None) -> GameTable:
    """The small table (a 30" x 22" board, wall-1 from (15, 4) to (15, 18)): a1 at (3, 20)
    active with ``stance``; e1 at (10, 19), 7" away in sight; e2 at (29, 21), visible past the
    wall's end but 26" away (the lasgun reaches 24"; ``gun_rules``: a1's lasgun's rules)."""
    board = copy.deepcopy(BOARD)
    mine = copy.deepcopy(TROOPER)
    if gun_rules is not None:
        mine["weapons"][0]["rules"] = gun_rules
    if killzone:
        board["killzone"] = killzone
    if objectives is not None:
        board["objectives"] = objectives
    doc = {"name": "offers", "edition": "kt2024", "board": board,
           "roster": {"name": "r", "profiles": {"trooper": copy.deepcopy(TROOPER)},
                      "table": {i: "trooper" for i in range(1, 7)}},
           "engagement": 1, "seed": 1,
           "squads": [{"player": "Ana", "models": [
               {"id": "a1", "profile": mine, "at": [3, 20]},
               {"id": "a2", "profile": copy.deepcopy(TROOPER), "at": [2, 2]}]}],
           "enemies": [{"id": "u1", "command": 5, "models": [
               {"id": "e1", "profile": "trooper", "at": [10, 19]},
               {"id": "e2", "profile": "trooper", "at": [29, 21]}]}],
           "settings": {"turns": 1, "cp_rerolls": "never"}}
    game, state = new_game(parse_scenario(doc, "offers.yaml"), 1)
    state.counters.clear()
    state.dice = ScriptedDice(faces=[6, 1] * 20)  # the players take the initiative
    step(game, state, {"type": "engine"})
    step(game, state, {"type": "activate", "operative": "a1", "stance": stance})
    return GameTable(game, state, folder / "s.json", folder / "s.log.jsonl")


def _answers(tree: list[dict[str, Any]]) -> list[str]:
    out = []
    for offer in tree:
        if "answer" in offer:
            out.append(offer["answer"])
        out += _answers(offer.get("choices", []))
    return out


def test_only_targets_in_sight_and_range_are_offered(tmp_path: Path) -> None:
    table = _table(tmp_path)
    offered = offers(table)
    shoot = next(o for o in offered["offers"] if o.get("word") == "shoot")
    assert [t["target"] for t in shoot["choices"]] == ["e1"]
    # base to base: the centres 7.07" apart (sqrt(7² + 1²)) less two 25 mm bases' radii
    assert shoot["choices"][0]["label"] == 'e1 · 6.1"'
    assert [c.get("answer") or c.get("fill") for c in shoot["choices"][0]["choices"]] == [
        "shoot e1 with lasgun roll", "shoot e1 with lasgun damage "]
    # e2 is in sight past the wall's end but out of the lasgun's 24": the card says so
    assert offered["targets"]["e2"] == {
        "shoot": [], "fight": False,
        "why": 'e2 is 25.0" away: out of range of lasgun (24")'}  # 26.02" less the radii
    assert offered["targets"]["e1"]["shoot"] == ["lasgun"]
    # no enemy within 1": no fight, and why not (the engine's words)
    assert not any(o.get("word") == "fight" for o in offered["offers"])
    assert {"what": "fight", "why": 'a1 has no enemy within 1" (control range) to fight'} in \
        offered["why_not"]
    assert offered["moves"] == ["move", "dash", "charge"]
    # every answer offered is one the engine takes now
    answers = _answers(offered["offers"])
    assert "done" in answers and "shoot e1 with lasgun roll" in answers
    for answer in answers:
        assert table.refusal_of(answer) is None, answer


def test_when_every_enemy_is_refused_for_one_reason_that_reason_is_given(
        tmp_path: Path) -> None:
    """A Heavy lasgun after a move: every enemy is refused for it, and "why not?" says so (it
    said "no enemy is in sight and range", a phone tester saw, with two enemies in sight)."""
    table = _table(tmp_path, gun_rules=["heavy"])
    assert table.answer(None, "move 4,20", then=False).ok
    offered = offers(table)
    why = next(w["why"] for w in offered["why_not"] if w["what"] == "shoot")
    assert why.startswith("lasgun is Heavy: a1 cannot shoot it in an activation in which it "
                          "moved"), why
    assert {t["why"] for t in offered["targets"].values()} == {why}


def test_under_a_conceal_order_no_shot_is_offered_and_the_reason_is_one_tap_away(
        tmp_path: Path) -> None:
    offered = offers(_table(tmp_path, stance="conceal"))
    assert not any(o.get("word") == "shoot" for o in offered["offers"])
    assert {"what": "shoot", "why": "a1 has a Conceal order: it cannot shoot (unless Silent)"} \
        in offered["why_not"]
    assert {"label": "change the order to engage", "answer": "engage", "word": "order"} in \
        offered["offers"]


def test_guard_is_offered_only_where_and_when_it_can_be_taken(tmp_path: Path) -> None:
    """002 Guard: "Treated as a Shoot action. Cannot be used in Control Range with enemies or
    while Concealed." — and only on a Gallowdark board."""
    plain = offers(_table(tmp_path / "plain"))
    assert not any(o.get("word") == "guard" for o in plain["offers"])
    assert not any(w["what"] == "guard" for w in plain["why_not"])  # not a word on this board
    engaged = offers(_table(tmp_path / "engage", killzone="gallowdark"))
    assert {"label": "go On Guard", "answer": "guard", "word": "guard"} in engaged["offers"]
    concealed = offers(_table(tmp_path / "conceal", killzone="gallowdark", stance="conceal"))
    assert not any(o.get("word") == "guard" for o in concealed["offers"])
    assert {"what": "guard", "why": 'a1 has a Conceal order: it cannot go On Guard (002 Guard: '
                                    '"Cannot be used ... while Concealed")'} in \
        concealed["why_not"]


def test_a_marker_is_offered_only_where_one_can_be_picked_up(tmp_path: Path) -> None:
    """001 Pick Up: "Remove a marker that the active Operative controls." obj-1 (portable) is
    1.5" from a1: in control range to its edge; obj-2 is fixed."""
    portable = [{"id": "obj-1", "at": [4.5, 20], "portable": True}, {"id": "obj-2",
                                                                       "at": [26, 11]}]
    offered = offers(_table(tmp_path / "m", objectives=portable))
    picks = [o for o in offered["offers"] if o.get("word") == "pickup"]
    assert picks == [{"label": "pick up obj-1", "answer": "pickup obj-1", "word": "pickup"}]
    assert "obj-1" in offered["reach"]
    plain = offers(_table(tmp_path / "p"))  # the board's objectives are fixed
    assert not any(o.get("word") in ("pickup", "placedown") for o in plain["offers"])
    assert not any(w["what"] in ("pickup", "placedown") for w in plain["why_not"])


def test_only_the_player_asked_gets_offers_and_every_card_says_what_it_can_do(
        tmp_path: Path) -> None:
    table = make_table(tmp_path)  # the co-op example: Ana is asked which operative activates
    with ApiClient(create_app(table), base_url="http://127.0.0.1:8765") as c:
        asked = c.get("/api/view", params={"player": "Ana"}).json()
        assert asked["prompt"]["kind"] == "activate"
        step_ = asked["prompt"]["step"]
        reply = c.post("/api/answer", json={"player": "Ana", "answer": "kell engage",
                                            "step": step_}).json()
        assert reply["ok"], reply
        ana = c.get("/api/view", params={"player": "Ana"}).json()
        ben = c.get("/api/view", params={"player": "Ben"}).json()
    assert ana["your_turn"] and ana["offers"]["offers"][-1] == {
        "label": "done", "answer": "done", "word": "done", "primary": True}
    assert ben["offers"] is None and not ben["your_turn"]
    assert ana["cards"] == ben["cards"] and ana["focus"] == ben["focus"]
    assert ana["cards"]["kell"]["now"][0].startswith("acting now: it can move, dash")
    assert "kell" in ana["focus"]["ids"]
    shots = next((o for o in ana["offers"]["offers"] if o.get("word") == "shoot"), None)
    targets = [t["target"] for t in shots["choices"]] if shots else []
    for enemy, card in ((k, v) for k, v in ana["cards"].items() if v["kind"] == "enemy"):
        if enemy in targets:
            assert card["now"][0].startswith("kell can shoot it"), card
            assert enemy in ana["focus"]["ids"]
        else:
            assert card["now"][0].startswith("kell cannot shoot it: "), card


def test_kill_team_2018_s_movement_phase_offers_its_moves_and_ready(tmp_path: Path) -> None:
    """004: in the movement phase a model moves, Advances, charges, falls back or is Readied
    (it stays put); it shoots in the shooting phase, fights in the fight phase — so the page
    offers the moves, ready and done, and says why not for the shot and the fight."""
    from tests.support.small_table import active

    game, state = active(edition="kt2018")
    table = GameTable(game, state, tmp_path / "s.json", tmp_path / "s.log.jsonl")
    offered = offers(table)
    assert [o["label"] for o in offered["offers"]] == ["ready", "done"]
    assert offered["moves"] == ["move", "advance", "charge"]
    assert {"what": "shoot", "why": "models shoot in the shooting phase"} in offered["why_not"]
    assert {"what": "fight", "why": "models fight in the fight phase"} in offered["why_not"]
    for answer in _answers(offered["offers"]):
        assert table.refusal_of(answer) is None, answer
