"""One wording (issue 28 item 7): one point format, the order roll's modifier with its reason,
capped damage said as capped, and the Kill Grade briefing that matches the scoring and says it
is a reading from outside the sources. (The documented command lines:
tests/project/test_docs_commands.py.)
"""

from __future__ import annotations

import math
import re
from pathlib import Path

from solo_ops.core.dice import ScriptedDice
from solo_ops.game import missions, scoring
from solo_ops.rules.kt2024 import AttackSpec, DefenceSpec, FightSide, resolve_fight, step_line
from solo_ops.rules.kt2024_rolled import roll_shot
from solo_ops.view import measure
from solo_ops.view.narrate import WORDS, Table, lines_for
from tests.support.players import cli_here


def test_damage_capped_at_the_wounds_left_says_so() -> None:
    """Three normal hits of 3 (4 dice hit 4+: 4 4 4 1) against 3 defence dice that all fail
    (1 1 2, save 4+): 9 damage gets through to a target with 4 wounds left."""
    shot = roll_shot(ScriptedDice(faces=[4, 4, 4, 1, 1, 1, 2]), AttackSpec(4, 4, 3, 4),
                     DefenceSpec(3, 4, 4), "e1 shoots Vale")
    assert shot.damage == 4
    assert shot.lines[-1] == "Damage: 4 (9 got through, capped at 4 wounds left)."
    whole = roll_shot(ScriptedDice(faces=[4, 4, 4, 1, 1, 1, 2]), AttackSpec(4, 4, 3, 4),
                      DefenceSpec(3, 4, 10), "e1 shoots Vale")
    assert whole.lines[-1] == "Damage: 9."


def test_a_capped_strike_in_a_fight_says_so() -> None:
    """Two normal strikes of 3 against 4 wounds: 3, then 1 of 3 (capped at 1 wound left)."""
    out = resolve_fight(FightSide(0, 2, 3, 4), FightSide(0, 0, 3, 4, wounds=4))
    lines = [step_line(step, ("Tam", "e1")) for step in out.steps]
    assert lines == ["Tam strikes with a normal hit for 3 damage.",
                     "Tam strikes with a normal hit for 1 damage (3, capped at 1 wound left)."]


def test_the_order_roll_says_why_it_is_modified() -> None:
    """Leadership 10: +1 for each point over 7 (the supplement's order roll); 4 + 3 = 7 is
    capped at command 6."""
    event = {"type": "counter_revealed", "counter": "c1",
             "models": [{"id": "m1", "profile": "Immortal", "at": [1.0, 2.0]}],
             "units": [{"id": "u1", "type": "fire-teams", "command": 6}],
             "order_roll": {"roll": 4, "modifier": 3, "command": 6, "leadership": 10}}
    lines = WORDS["counter_revealed"](event, Table())
    assert lines[-1] == ("  Unit u1 (fire-teams): order roll 4 +3 (Leadership 10: +1 for each "
                         "point over 7) → command 6 (capped at 6).")


def test_the_kill_grade_briefing_matches_the_scoring_and_is_labelled() -> None:
    text = missions.KILL_OP
    assert "a reading from outside the sources" in text
    for n, shown in re.findall(r"N = (\d+)[^:]*: ([\d, ]+)", text):
        thresholds = [int(k) for k in shown.split(", ")]
        reached = [min(kills for kills in range(0, 13)
                       if scoring.kill_grade(kills, int(n)) >= grade) for grade in range(1, 6)]
        assert thresholds == reached, n
    assert scoring.counted_note(3) == ", counted as 5" and scoring.counted_note(7) == ""


def test_new_prints_points_as_play_does(tmp_path: Path) -> None:
    """``new`` and ``play`` print a point the same way (view.measure: a tenth, one rule)."""
    made = cli_here("new", "--seed", "7", "--out", str(tmp_path / "e.yaml"), cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    import yaml

    doc = yaml.safe_load((tmp_path / "e.yaml").read_text(encoding="utf-8"))
    places = {m["id"]: m["at"] for squad in doc["squads"] for m in squad["models"]}
    for ident, at in places.items():
        assert f"{ident} at {measure.point(at)}" in made.stdout
    assert not re.search(r"\(\d+\.\d\d", made.stdout)  # no point to two decimals


def test_a_planned_move_reads_as_its_recorded_cost_everywhere() -> None:
    """The planner's deathmark-4 moved from (5.0, 5.5) to (8.5, 2.0): 4.9497", recorded as a
    cost of 4.95. Its explanation said "moves 4.9"" and the next line, the one the table moves
    it by, "5.0"" (a 2018 play-test, 2026-12-02). A move's cost is said as the record keeps
    it, to 0.01" first, as a point is: 5.0" in both. Other distances (how far an enemy is) are
    not recorded and read as measured."""
    from solo_ops.ai.explain import cost_inches, inches

    planned = math.dist((5.0, 5.5), (8.5, 2.0))
    assert round(planned, 4) == 4.9497 and round(planned, 2) == 4.95
    assert cost_inches(planned) == cost_inches(4.95) == measure.length(4.95) == '5.0"'
    assert inches(planned) == '4.9"'
    assert cost_inches(None) == cost_inches(math.inf) == "no route"


def test_every_enemy_move_s_explanation_gives_the_cost_its_table_line_gives() -> None:
    """In whole games of both editions, each enemy move's planned words ("moves 4.9" to
    ...") and the line the table moves it by ("→ deathmark-4: from ... 5.0" ...") give the
    same movement: the planner's cost said as its event records it."""
    from solo_ops.game.engine import new_game
    from solo_ops.io.scenario import load_scenario
    from solo_ops.sim import autopilot
    from tests.support.paths import SCENARIOS

    said = re.compile(r"^\S+ (?:moves|repositions|dashes|advances|falls back|Advances) "
                      r"(\d+\.\d)\"")
    checked = 0
    for name, seed in (("crypt-objective-ultima", 33), ("gallowdark-night-raid", 501)):
        game, state = new_game(load_scenario(SCENARIOS / f"{name}.yaml"), seed)
        autopilot.play(game, state, "objective")
        for record in state.log:
            for e in record.get("events", []):
                if e.get("type") != "moved" or "note" not in e:
                    continue
                m = said.match(e["note"])
                if m is None or "stops" in e["note"]:
                    continue
                line = " ".join(lines_for({"events": [e]}, edition=game.scenario.edition))
                assert f" {m.group(1)}\" " in line, (e["note"], line)
                checked += 1
    assert checked >= 10


def test_a_planned_point_reads_as_its_recorded_point_everywhere() -> None:
    """The planner may plan (8.06, 10.9537); the event records (8.06, 10.95). The planner's
    explanation, the move line and ``status`` all read (8.1, 10.9): each rounds to the
    record's 0.01" first (a play-tester saw (8.1, 11.0) in the explanation and status and
    (8.1, 10.9) in the move line the models are put by)."""
    from solo_ops.ai.explain import fmt_pt
    from solo_ops.rules.reach import round_point

    planned = (8.06, 10.9537)
    recorded = round_point(planned)
    assert recorded == [8.06, 10.95]
    shown = {fmt_pt(planned), fmt_pt(recorded), measure.point(planned),
             measure.point(recorded)}
    assert shown == {"(8.1, 10.9)"}
    # an exact half at the record's grid goes as format(v, ".1f") says (the binary value)
    assert measure.point((10.25, 0.349999)) == fmt_pt((10.25, 0.349999)) == "(10.2, 0.3)"
