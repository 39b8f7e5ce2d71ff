"""The phone's board picture: short names, only the models the question is about labelled, the
phone's letter sizes, every label carrying the mark it belongs to (the page scales it about that
point when zoomed out), no title or legend; and a counter on an objective keeps both readable."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from solo_ops.game.engine import new_game
from solo_ops.io.scenario import load_scenario
from solo_ops.view import board_view, drawing, render
from solo_ops.view.board_view import Focus, focus_ids, short_name, short_names
from solo_ops.view.picture_style import MARGIN_BOTTOM, MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, PHONE
from solo_ops.view.player import player_view
from tests.support.paths import BOARDS, SCENARIOS
from tests.support.pictures import SVG, texts_with_class

EXAMPLE = SCENARIOS / "volkus-stronghold-supplement-example.yaml"


def test_short_names_are_ids_when_short_else_initials_and_number() -> None:
    assert short_name("kell") == "kell"
    assert short_name("corvin") == "corvin"
    assert short_name("cultist-5") == "C5"
    assert short_name("marine-1") == "M1"  # 8 characters: past SHORT (7)
    assert short_name("stubber-gunner-12") == "SG12"
    assert short_name("intercessor-sergeant") == "IS"
    assert short_name("sergeant") == "sergea…"


def test_two_models_that_would_share_a_short_name_keep_their_ids() -> None:
    assert short_names(["cultist-5", "commando-5", "marine-1"]) == {
        "cultist-5": "cultist-5", "commando-5": "commando-5", "marine-1": "M1"}
    # a short name that is another model's id is not used either
    assert short_names(["C5", "cultist-5"]) == {"C5": "C5", "cultist-5": "cultist-5"}


def _view() -> dict:
    return {"squads": {"Ana": [{"id": "kell"}, {"id": "vale"}]},
            "enemies": [{"id": "cultist-5", "owner": "u2"}, {"id": "cultist-6", "owner": "u2"},
                        {"id": "marine-1", "owner": "u1"}],
            "pending": {"kind": "act", "operative": "kell", "options": []}}


def test_the_question_is_about_the_active_operative_its_targets_and_the_enemy_that_moved() -> None:
    records = [{"events": [{"type": "enemy_activation", "unit": "u2"},
                           {"type": "moved", "operative": "cultist-5", "from": [1, 1],
                            "to": [2, 2]}]}]
    # u2 just moved (both its models), kell is active, marine-1 is kell's target
    assert focus_ids(_view(), records, ["marine-1"]) == {"kell", "cultist-5", "cultist-6",
                                                         "marine-1"}
    # an id the players cannot see is never named (a target list is the page's, checked anyway)
    assert focus_ids(_view(), [], ["hidden-9"]) == {"kell"}
    choosing = {**_view(), "pending": {"kind": "activate", "options": ["kell", "vale"]}}
    assert focus_ids(choosing, [], []) == {"kell", "vale"}


def _phone_svg() -> ET.Element:
    game, state = new_game(load_scenario(EXAMPLE), 3)
    focus = Focus(frozenset({"kell", "cultist-1"}), frozenset({"door-1"}))
    scene = board_view.board_scene(game, state, player_view(game, state), [], phone=focus)
    return ET.fromstring(drawing.svg_text(scene))


def test_the_phone_picture_labels_only_what_the_question_is_about() -> None:
    root = _phone_svg()
    assert sorted(texts_with_class(root, "base-label")) == ["C1", "kell"]
    assert texts_with_class(root, "portal-label") == ["door-1"]  # the door within reach only
    assert texts_with_class(root, "feature-label") == []  # terrain on a tap
    assert texts_with_class(root, "title") == [] and texts_with_class(root, "legend-text") == []
    # the counters and objectives keep their (short) ids
    assert sorted(texts_with_class(root, "counter-label")) == ["c1", "c2", "c3", "c4", "c5",
                                                               "c6"]
    assert len(texts_with_class(root, "objective-label")) == 5


def test_the_phone_picture_is_the_board_and_its_margins_in_phone_sized_letters() -> None:
    root = _phone_svg()
    width, depth = 30, 22  # volkus-stronghold
    assert root.get("width") == str(round(MARGIN_LEFT + width * render.SCALE + MARGIN_RIGHT))
    assert root.get("height") == str(round(MARGIN_TOP + depth * render.SCALE + MARGIN_BOTTOM))
    texts = list(root.iter(f"{SVG}text"))
    smallest = min(PHONE.base, PHONE.counter, PHONE.objective, PHONE.marker, PHONE.step,
                   PHONE.sector, PHONE.zone, PHONE.ruler, PHONE.token, PHONE.portal or 99)
    assert smallest == 11.0  # the order tokens' letters
    sizes = {float(t.get("font-size", "0")) for t in texts if t.text != "?"}
    assert min(sizes) == smallest
    # every label and ruler number carries the centre of its mark, to be scaled about it
    for t in texts:
        if t.text == "?":  # a counter's mark, drawn with its counter
            continue
        assert re.fullmatch(r"-?[\d.]+ -?[\d.]+", t.get("data-pivot") or ""), t.text


def test_a_counter_on_an_objective_keeps_both_readable() -> None:
    from solo_ops.cli.board import load_board

    board = load_board(BOARDS / "crypt-of-cynosure.yaml")
    objective = board.objectives[0]
    scene = render.board_scene(board)
    render.add_counter(scene, (objective.at[0] + 0.5, objective.at[1]), label="c1")
    render.add_disc(scene, (1.5, 1.5), 0.6, label="kell")
    order = [(el.tag.removeprefix(SVG), el.get("class"), el.text)
             for el in ET.fromstring(drawing.svg_text(scene)).iter()]
    counter = order.index(("circle", "counter", None))
    rims = [i for i, e in enumerate(order) if e[1] == "objective-rim"]
    marks = [i for i, e in enumerate(order) if e == ("text", "counter", "?")]
    base = order.index(("circle", "base player", None))
    # the objective's rim is drawn again over the counter, the counter's "?" over the rim, and
    # the models over both
    assert len(rims) == 2 and counter < rims[0] and len(marks) == 2
    assert marks[0] < rims[0] < rims[1] < marks[1] < base
    # a counter away from every objective changes nothing
    far = render.board_scene(board)
    render.add_counter(far, (0.6, 0.6), label="c2")
    assert "objective-rim" not in drawing.svg_text(far)
