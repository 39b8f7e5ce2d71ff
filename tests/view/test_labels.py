"""The label placer the pictures share, and the activation the board draws (issue #30): no two
labels' boxes ever meet, none covers another model or mark, every one stays on the board; the
activation shown is the one being played, each action drawn from where it happened."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from solo_ops.view import labels
from solo_ops.view.board_view import activation
from solo_ops.view.labels import Label, boxes_meet, place
from tests.support.budget import examples

BOUNDS = (0.0, 0.0, 600.0, 400.0)
discs_st = st.lists(st.tuples(st.floats(20, 580), st.floats(20, 380), st.floats(6, 20)),
                    min_size=1, max_size=40)
words = st.text(alphabet="abcdefghijk-0123456789", min_size=1, max_size=14)


def _disc_meets_box(d: tuple[float, float, float], box: tuple[float, float, float, float]
                    ) -> bool:
    cx, cy, r = d
    nx, ny = min(max(cx, box[0]), box[2]), min(max(cy, box[1]), box[3])
    return math.hypot(nx - cx, ny - cy) < r - 1e-9


@settings(max_examples=examples(60))
@given(discs=discs_st, names=st.lists(words, min_size=40, max_size=40),
       sizes=st.lists(st.sampled_from([8.0, 10.0, 11.0, 12.0]), min_size=40, max_size=40),
       lines=st.lists(st.lists(st.tuples(st.floats(0, 600), st.floats(0, 400)), min_size=2,
                               max_size=4), max_size=8))
def test_placed_labels_never_meet_and_cover_no_other_mark(
        discs: list[tuple[float, float, float]], names: list[str], sizes: list[float],
        lines: list[list[tuple[float, float]]]) -> None:
    wanted = [Label(names[i], d, size=sizes[i]) for i, d in enumerate(discs)]
    placed = place(wanted, discs, lines, BOUNDS)
    for i, a in enumerate(placed):
        x0, y0, x1, y1 = a.box
        assert BOUNDS[0] <= x0 and BOUNDS[1] <= y0 and x1 <= BOUNDS[2] and y1 <= BOUNDS[3]
        for b in placed[i + 1:]:
            assert not boxes_meet(a.box, b.box), (a.label.text, b.label.text)
        for d in discs:
            if d != a.label.mark:
                assert not _disc_meets_box(d, a.box), (a.label.text, d)
        if a.leader is not None:  # a leader joins the mark's edge to the box
            (lx, ly), (bx, by) = a.leader
            cx, cy, r = a.label.mark
            assert math.hypot(lx - cx, ly - cy) <= r + 1e-6
            assert x0 - 1e-6 <= bx <= x1 + 1e-6 and y0 - 1e-6 <= by <= y1 + 1e-6
    # on a board with room to spare every label finds a place
    if len(discs) <= 12:
        assert len(placed) == len(wanted)


def test_a_lone_label_sits_right_of_its_mark_and_moves_off_a_neighbour() -> None:
    mark = (100.0, 100.0, 10.0)
    (alone,) = place([Label("kell", mark)], [mark], [], BOUNDS)
    w, h = Label("kell", mark).size_px()
    assert alone.box == (100 + 10 + labels.GAP, 100 - h / 2, 100 + 10 + labels.GAP + w,
                         100 + h / 2)
    assert alone.leader is None
    neighbour = (100.0 + 10 + labels.GAP + w / 2, 100.0, 9.0)  # a base where it would go
    placed = place([Label("kell", mark)], [mark, neighbour], [], BOUNDS)
    assert placed[0].box[2] <= 100 - 10  # then to its left, the next place in order


def test_the_activation_is_drawn_from_where_each_action_happened() -> None:
    """cultist-5 shoots from where it stands, then charges: the shot is drawn from its
    starting point (not from where it ends); an earlier activation is not drawn; a step
    paused for a re-roll shows its own activation so far."""
    where = {"cultist-5": (7.25, 3.25), "idris": (9.25, 2.75), "marine-1": (16.0, 19.5)}
    earlier = {"n": 2, "events": [
        {"type": "enemy_activation", "unit": "u1"},
        {"type": "moved", "operative": "marine-1", "from": [16, 21], "to": [16, 19.5],
         "route": [[16, 21], [16, 19.5]]}]}
    now = {"n": 3, "events": [
        {"type": "enemy_activation", "unit": "u3"},
        {"type": "attack", "attacker": "cultist-5", "target": "idris"},
        {"type": "charged", "operative": "cultist-5", "target": "idris", "from": [3.25, 5.25],
         "to": [7.25, 3.25], "route": [[3.25, 5.25], [4.75, 3.27], [7.25, 3.25]]}]}
    who, steps = activation([earlier, now], where)
    assert who == "u3"
    assert [(s.kind, s.actor, s.points) for s in steps] == [
        ("shot", "cultist-5", ((3.25, 5.25), (9.25, 2.75))),
        ("charge", "cultist-5", ((3.25, 5.25), (4.75, 3.27), (7.25, 3.25)))]
    paused = {"n": 3, "events": [{"type": "reroll_offered", "so_far": now["events"][:2]}]}
    who, steps = activation([earlier, paused], {**where, "cultist-5": (3.25, 5.25)})
    assert who == "u3" and [s.kind for s in steps] == ["shot"]
    player = {"n": 4, "events": [{"type": "activated", "operative": "kell"}]}
    assert activation([earlier, now, player], where) == ("kell", [])


def test_a_charge_that_fell_short_is_drawn_as_far_as_it_went() -> None:
    """A Kill Team 2018 charge that falls short moves the model as far as it rolled: it is
    drawn (a charge step) and later steps start from where it stopped; a charge that failed
    where the model stood (a 2024 charge that cannot end in control range) draws nothing. A
    step paused for a 2018 Reaction shows its activation so far."""
    where = {"cultist-5": (14.1, 2.7), "rask": (16.8, 1.8), "marine-6": (16.0, 3.4)}
    now = {"n": 5, "events": [
        {"type": "enemy_activation", "unit": "u4"},
        {"type": "charged", "operative": "marine-6", "target": "rask", "from": [20, 6],
         "to": [16.0, 3.4], "route": [[20, 6], [16.0, 3.4]]},
        {"type": "charge_failed", "operative": "cultist-5", "target": "rask",
         "from": [12, 3], "to": [14.1, 2.7], "route": [[12, 3], [14.1, 2.7]]},
        {"type": "charge_failed", "operative": "marine-6", "target": "rask",
         "from": [16.0, 3.4], "to": [16.0, 3.4]},
        {"type": "attack", "attacker": "cultist-5", "target": "rask"}]}
    who, steps = activation([now], where)
    assert who == "u4"
    assert [(s.kind, s.actor, s.points) for s in steps] == [
        ("charge", "marine-6", ((20.0, 6.0), (16.0, 3.4))),
        ("charge", "cultist-5", ((12.0, 3.0), (14.1, 2.7))),
        ("shot", "cultist-5", ((14.1, 2.7), (16.8, 1.8)))]
    paused = {"n": 5, "events": [{"type": "reaction_offered", "so_far": now["events"][:2]}]}
    who, steps = activation([paused], {**where, "marine-6": (20.0, 6.0)})
    assert who == "u4" and [(s.kind, s.actor) for s in steps] == [("charge", "marine-6")]
