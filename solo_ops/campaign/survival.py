"""Survival tests after a mission: rolling them, their results and the report they return.

After a mission (RULES-NOTES "Campaign"; seed 003 "Basic Campaign Rules"), every squad model
that lost wounds or went down — and every model that went into it with a wound not healed —
takes a survival test: a d6, rolled through the :class:`Dice` the caller passes, succeeds on a
roll equal to or under its Toughness, +1 if every enemy was destroyed and +1 more if it was
carried to safety. A success heals it (003: "A successful roll will heal the wound and the model
will continue on as normal"). A failure depends on three settings (docs/rules.md "Campaign"):
``down_failure`` (a model that went down: ``fallen`` — lost — or ``injured`` — hurt as a
wounded model is, every wound lost), ``wounded_failure`` (a model only wounded: ``carry`` — the
wound is not healed: it starts the next mission without the wounds it lost, at least 1 left —,
``injury`` — a lasting injury with no effect on play — or ``none``) and ``injured_failure`` (a
model that was already injured going into the mission: ``rest`` — it misses the next mission to
recover —, ``play`` or ``fallen``). There is no natural-roll rule: the roll is compared with the
target as it is, so a 1 always heals (Toughness is at least 1) and a 6 heals only when the
target is 6 or more. Kill Team 2024 profiles have no Toughness: a profile without
``toughness`` uses the ``default_toughness`` setting (3, the same default as rosters,
:data:`roster.DEFAULT_TOUGHNESS`).

:func:`pending_tests` lists the models still to test and :func:`run_survival_tests` rolls them,
returning the :class:`MissionReport` (also what
:func:`solo_ops.campaign.missions.record_mission` returns).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solo_ops.campaign.model import (
    ACTIVE,
    FALLEN,
    INJURED,
    RECOVERING,
    WOUNDED,
    Campaign,
    CampaignSettings,
    Squad,
    SquadModel,
    wounds_left,
)
from solo_ops.campaign.results import ModelOutcome, _harm_text
from solo_ops.core.dice import Dice, RollEntry
from solo_ops.core.errors import InputError

ALL_DESTROYED_BONUS = 1
CARRIED_BONUS = 1


# -- survival tests -----------------------------------------------------------------------------
@dataclass(frozen=True)
class SurvivalTest:
    """One survival test and what came of it.

    ``target`` is Toughness plus ``bonuses``; the test passes when ``roll`` ≤ ``target``.
    ``result`` is ``healed``, ``fallen``, ``injury`` (a wound not healed — ``unhealed`` wounds
    of ``max_wounds`` still lost — or, with ``unhealed`` 0, a lasting injury), ``recovering``
    (failed again while injured: it misses the next mission) or ``shaken off`` (failed, but
    ``wounded_failure: none``). ``injured``: it went into the mission injured.
    """

    player: str
    model: str
    name: str
    went_down: bool
    wounds_lost: int
    carried_to_safety: bool
    toughness: int
    bonuses: tuple[tuple[str, int], ...]
    target: int
    roll: int
    passed: bool
    result: str
    dice: RollEntry
    injured: bool = False
    unhealed: int = 0
    max_wounds: int = 0

    def to_dict(self) -> dict[str, Any]:
        out = {
            "player": self.player, "model": self.model, "name": self.name,
            "went_down": self.went_down, "wounds_lost": self.wounds_lost,
            "carried_to_safety": self.carried_to_safety, "toughness": self.toughness,
            "bonuses": [[r, a] for r, a in self.bonuses], "target": self.target,
            "roll": self.roll, "passed": self.passed, "result": self.result,
            "dice": self.dice.to_dict(),
        }
        if self.injured:
            out["injured"] = True
        if self.unhealed:
            out["unhealed"] = self.unhealed
            out["max_wounds"] = self.max_wounds
        return out

    def describe(self) -> str:
        """``rolled 4 against Toughness 3 +1 (every enemy destroyed) = 4 or less: healed``."""
        parts = f"Toughness {self.toughness}"
        for reason, amount in self.bonuses:
            parts += f" {amount:+d} ({reason})"
        if self.bonuses:
            parts += f" = {self.target}"
        return f"rolled {self.roll} against {parts} or less: {result_words(self.to_dict())}"


def result_words(test: dict[str, Any]) -> str:
    """What a survival test's result means, in words (``test``: :meth:`SurvivalTest.to_dict`,
    as the history keeps it)."""
    result = test.get("result")
    unhealed, most = int(test.get("unhealed", 0) or 0), int(test.get("max_wounds", 0) or 0)
    left = wounds_left(unhealed, most) if most else "fewer wounds"
    if result == "injury" and unhealed:
        return f"the wound is not healed: it starts the next mission with {left}"
    return {"healed": "healed", "fallen": "FALLEN", "injury": "a lasting injury",
            "recovering": "failed again while injured: it misses the next mission to recover",
            "shaken off": "failed, but no lasting harm"}.get(str(result), str(result))


def survival_bonuses(all_enemies_destroyed: bool,
                     carried_to_safety: bool) -> tuple[tuple[str, int], ...]:
    """The additions to Toughness for the test (RULES-NOTES: +1 and +1 more)."""
    bonuses: list[tuple[str, int]] = []
    if all_enemies_destroyed:
        bonuses.append(("every enemy destroyed", ALL_DESTROYED_BONUS))
    if carried_to_safety:
        bonuses.append(("carried to safety", CARRIED_BONUS))
    return tuple(bonuses)


def survival_test(model: SquadModel, player: str, outcome: ModelOutcome,
                  all_enemies_destroyed: bool, settings: CampaignSettings, dice: Dice,
                  mission: int, *, injured: bool = False, unhealed: int = 0) -> SurvivalTest:
    """Roll one model's survival test and apply its result to ``model``.

    ``injured``: it went into the mission injured, carrying ``unhealed`` wounds. Success heals
    it (:meth:`SquadModel.heal`). Failure: a model that went down becomes ``fallen`` (under
    ``down_failure: injured`` it is hurt as a wounded model is, every wound lost); a model
    injured before follows ``injured_failure``; a model only wounded ``wounded_failure``
    (module docstring).
    """
    toughness = model.toughness(settings)
    bonuses = survival_bonuses(all_enemies_destroyed, outcome.carried_to_safety)
    target = toughness + sum(a for _, a in bonuses)
    entry = dice.d6(f"survival test: {model.name} ({model.id}, {player})",
                    note=f"heals on {target} or less")
    passed = entry.value <= target
    most = model.parsed_profile().wounds
    missing = most if outcome.went_down else min(most, unhealed + outcome.wounds_lost)
    result = "healed" if passed else _failure(outcome, settings, injured)
    keeps = result in ("recovering", "injury") and (
        settings.wounded_failure == "carry" or (injured and unhealed > 0))
    test = SurvivalTest(
        player=player, model=model.id, name=model.name, went_down=outcome.went_down,
        wounds_lost=outcome.wounds_lost, carried_to_safety=outcome.carried_to_safety,
        toughness=toughness, bonuses=bonuses, target=target, roll=entry.value, passed=passed,
        result=result, dice=entry, injured=injured, unhealed=missing if keeps else 0,
        max_wounds=most)
    how = _how(outcome, injured, unhealed, most)
    _apply(model, test, mission, how)
    return test


def _failure(outcome: ModelOutcome, settings: CampaignSettings, injured: bool) -> str:
    """A failed test's result by the settings (the module docstring)."""
    if outcome.went_down and settings.down_failure == "fallen":
        return "fallen"
    if injured:
        return {"rest": "recovering", "play": "injury",
                "fallen": "fallen"}[settings.injured_failure]
    return "shaken off" if settings.wounded_failure == "none" else "injury"


def _how(outcome: ModelOutcome, injured: bool, unhealed: int, most: int) -> str:
    """What happened to it, for its history: ``lost 2 wound(s)``, ``went down``, ``played
    unharmed (went in hurt, with 5 of 7 wounds)`` (``unhealed`` of its ``most`` Wounds not
    healed when it went in)."""
    how = _harm_text(outcome) if outcome.harmed else "played unharmed"
    if injured and unhealed:
        how += f" (went in hurt, with {wounds_left(unhealed, most)})"
    elif injured:
        how += " (went in injured)"
    return how


def _apply(model: SquadModel, test: SurvivalTest, mission: int, how: str) -> None:
    """The test's result on ``model``: its state, unhealed wounds, injuries and history."""
    said = f"{how}; survival test {test.describe()}"
    if test.result == "healed":
        model.heal(mission)
        model.note(mission, said)
    elif test.result == "fallen":
        model.state = FALLEN
        model.unhealed_wounds = 0
        model.note(mission, f"{said} — lost in mission {mission}")
    elif test.result in ("injury", "recovering"):
        what = "went down" if test.went_down else f"lost {test.wounds_lost} wound(s)" \
            if test.wounds_lost else "played hurt"
        again = " again while injured" if test.injured else ""
        injury: dict[str, Any] = {"mission": mission}
        if test.unhealed:  # in the words of the survival test's line (its "failed again
            # while injured" already said here)
            words = ("it misses the next mission to recover" if test.result == "recovering"
                     else result_words(test.to_dict()))
            injury["note"] = f"{what} and failed its survival test{again}: {words}"
            injury["wounds"] = test.unhealed
        else:
            injury["note"] = f"lasting injury: {what} and failed its survival test{again}"
        model.injuries.append(injury)
        model.unhealed_wounds = test.unhealed
        model.state = RECOVERING if test.result == "recovering" else INJURED
        model.note(mission, said)
    else:  # shaken off
        model.state = INJURED if model.lasting_injuries else ACTIVE
        model.note(mission, said)


@dataclass(frozen=True)
class MissionReport:
    """What :func:`record_mission` or :func:`run_survival_tests` did: the mission number, its
    tests, the after-action report lines and the history record."""

    mission: int
    tests: tuple[SurvivalTest, ...]
    lines: tuple[str, ...]
    record: dict[str, Any]


def pending_tests(campaign: Campaign) -> list[tuple[Squad, SquadModel]]:
    """The ``wounded`` models whose survival test has not been rolled yet, in squad order."""
    return [(s, m) for s in campaign.squads for m in s.models
            if m.state == WOUNDED and m.pending is not None]


def run_survival_tests(campaign: Campaign, dice: Dice) -> MissionReport:
    """Roll every pending survival test (models left ``wounded`` by :func:`record_mission`).

    Adds the tests and their report lines to the last mission's history record and returns
    that mission's report (its ``tests`` are the ones rolled now). Raises :class:`InputError`
    when no test is pending.
    """
    waiting = pending_tests(campaign)
    if not waiting:
        raise InputError(f"campaign {campaign.name!r} has no survival test waiting to be "
                         "rolled: they are rolled when a mission is recorded (`campaign play` "
                         "records a played one; `--mission-result FILE` one played on paper)",
                         source="survival")
    record = campaign.history[-1] if campaign.history else None
    if record is None or record.get("mission") != campaign.missions_played:
        record = {"mission": campaign.missions_played, "name": None, "survival_tests": [],
                  "report": []}
        campaign.history.append(record)
    tests: list[SurvivalTest] = []
    lines: list[str] = ["Survival tests:"]
    for squad, model in waiting:
        pending = model.pending or {}
        outcome = ModelOutcome(
            id=model.id, wounds_lost=int(pending.get("wounds_lost", 0)),
            went_down=bool(pending.get("down", False)),
            carried=bool(pending.get("carried", False)),
            carried_off=bool(pending.get("carried_off", False)), player=squad.player)
        mission = int(pending.get("mission", campaign.missions_played))
        test = survival_test(model, squad.player, outcome,
                             bool(pending.get("all_enemies_destroyed", False)),
                             campaign.settings, dice, mission,
                             injured=bool(pending.get("injured", False)),
                             unhealed=int(pending.get("unhealed", 0)))
        model.pending = None
        tests.append(test)
        how = _how(outcome, test.injured, int(pending.get("unhealed", 0)), test.max_wounds)
        lines.append(f"  {model.name} ({model.id}, {squad.player}) {how}: "
                     f"{test.describe()}.")
    fallen = [t.name for t in tests if t.result == "fallen"]
    if fallen:
        they, them = ("They stay", "them") if len(fallen) > 1 else ("It stays", "it")
        lines.append(f"Fallen: {', '.join(fallen)}. {they} in the campaign history; "
                     f"replace {them} with `solo-ops campaign replace`.")
    record.setdefault("survival_tests", []).extend(t.to_dict() for t in tests)
    record.setdefault("report", []).extend(lines)
    return MissionReport(int(record["mission"]), tuple(tests), tuple(record["report"]),
                         record)


