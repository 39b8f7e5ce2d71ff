"""Survival tests after a mission: rolling them, their results and the report they return.

After a mission (RULES-NOTES "Campaign"; seed 003 "Basic Campaign Rules"), every squad model
that lost wounds or went down takes a survival test: a d6, rolled through the :class:`Dice` the
caller passes, succeeds on a roll equal to or under its Toughness, +1 if every enemy was
destroyed and +1 more if it was carried to safety. A success heals it. A failure depends on two
settings: ``down_failure`` (a model that went down: ``fallen`` — lost — or ``injured`` — a
lasting injury instead) and ``wounded_failure`` (a model only wounded: ``injury`` — a lasting
injury — or ``none``). There is no natural-roll rule: the roll is compared with the target as it
is, so a 1 always heals (Toughness is at least 1) and a 6 heals only when the target is 6 or
more. Kill Team 2024 profiles have no Toughness: a profile without ``toughness`` uses the
``default_toughness`` setting (3, the same default as rosters, :data:`roster.DEFAULT_TOUGHNESS`).

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
    WOUNDED,
    Campaign,
    CampaignSettings,
    Squad,
    SquadModel,
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
    ``result`` is ``healed``, ``fallen``, ``injury`` (a lasting injury) or ``shaken off``
    (failed, but ``wounded_failure: none``).
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

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player, "model": self.model, "name": self.name,
            "went_down": self.went_down, "wounds_lost": self.wounds_lost,
            "carried_to_safety": self.carried_to_safety, "toughness": self.toughness,
            "bonuses": [[r, a] for r, a in self.bonuses], "target": self.target,
            "roll": self.roll, "passed": self.passed, "result": self.result,
            "dice": self.dice.to_dict(),
        }

    def describe(self) -> str:
        """``rolled 4 against Toughness 3 +1 (every enemy destroyed) = 4 or less: healed``."""
        parts = f"Toughness {self.toughness}"
        for reason, amount in self.bonuses:
            parts += f" {amount:+d} ({reason})"
        if self.bonuses:
            parts += f" = {self.target}"
        text = {"healed": "healed", "fallen": "FALLEN", "injury": "a lasting injury",
                "shaken off": "failed, but no lasting harm"}[self.result]
        return f"rolled {self.roll} against {parts} or less: {text}"


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
                  mission: int) -> SurvivalTest:
    """Roll one model's survival test and apply its result to ``model``.

    Success heals it (``active``, or ``injured`` if it already carries a lasting injury).
    Failure: a model that went down becomes ``fallen`` (or gains a lasting injury under
    ``down_failure: injured``); a model only wounded gains a lasting injury (or nothing under
    ``wounded_failure: none``).
    """
    toughness = model.toughness(settings)
    bonuses = survival_bonuses(all_enemies_destroyed, outcome.carried_to_safety)
    target = toughness + sum(a for _, a in bonuses)
    entry = dice.d6(f"survival test: {model.name} ({model.id}, {player})",
                    note=f"heals on {target} or less")
    passed = entry.value <= target
    if passed:
        result = "healed"
    elif outcome.went_down:
        result = "fallen" if settings.down_failure == "fallen" else "injury"
    else:
        result = "injury" if settings.wounded_failure == "injury" else "shaken off"
    test = SurvivalTest(
        player=player, model=model.id, name=model.name, went_down=outcome.went_down,
        wounds_lost=outcome.wounds_lost, carried_to_safety=outcome.carried_to_safety,
        toughness=toughness, bonuses=bonuses, target=target, roll=entry.value, passed=passed,
        result=result, dice=entry)
    how = "went down" if outcome.went_down else f"lost {outcome.wounds_lost} wound(s)"
    if result == "fallen":
        model.state = FALLEN
        model.note(mission, f"{how}; survival test {test.describe()} — lost in mission "
                            f"{mission}")
    elif result == "injury":
        model.injuries.append({"mission": mission,
                               "note": f"lasting injury: {how} and failed its survival test"})
        model.state = INJURED
        model.note(mission, f"{how}; survival test {test.describe()}")
    else:
        model.state = INJURED if model.injuries else ACTIVE
        model.note(mission, f"{how}; survival test {test.describe()}")
    return test


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
        raise InputError(f"campaign {campaign.name!r} has no survival test to roll (give a "
                         "mission result)", source="--mission-result")
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
                             campaign.settings, dice, mission)
        model.pending = None
        tests.append(test)
        lines.append(f"  {model.name} ({model.id}, {squad.player}) {_harm_text(outcome)}: "
                     f"{test.describe()}.")
    fallen = [t.name for t in tests if t.result == "fallen"]
    if fallen:
        lines.append(f"Fallen: {', '.join(fallen)}. They stay in the campaign history; "
                     "replace them with `solo-ops campaign replace`.")
    record.setdefault("survival_tests", []).extend(t.to_dict() for t in tests)
    record.setdefault("report", []).extend(lines)
    return MissionReport(int(record["mission"]), tuple(tests), tuple(record["report"]),
                         record)


