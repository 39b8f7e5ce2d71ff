"""A mission to and from the campaign: the squads it sends and recording what came back.

:func:`scenario_squads` gives the next mission's squads (every model that can play);
:func:`record_mission` applies the :class:`~solo_ops.campaign.results.MissionResult` of a
played mission — each model's history, the survival tests (through
:mod:`solo_ops.campaign.survival`), the history record and the after-action report.
"""

from __future__ import annotations

import copy
from typing import Any

from solo_ops.campaign.model import FALLEN, WOUNDED, Campaign
from solo_ops.campaign.results import MissionResult, ModelOutcome, _harm_text
from solo_ops.campaign.survival import MissionReport, pending_tests, run_survival_tests
from solo_ops.core.dice import Dice
from solo_ops.core.errors import InputError


def scenario_squads(campaign: Campaign) -> list[dict[str, Any]]:
    """The campaign's squads as a scenario's ``squads`` entries (INTERFACES.md "Scenario"):
    every model that can play (not fallen), with its profile inline and no position (the
    game deploys it). Model ids are the campaign's, so :func:`result_from_state` maps back."""
    return [{"player": s.player, "name": s.name,
             "models": [{"id": m.id, "name": m.name, "profile": copy.deepcopy(m.profile)}
                        for m in s.playable()]}
            for s in campaign.squads if s.playable()]


def _resolve_outcomes(campaign: Campaign, result: MissionResult,
                      source: str | None) -> dict[str, ModelOutcome]:
    outcomes: dict[str, ModelOutcome] = {}
    for i, o in enumerate(result.models):
        where = f"models[{i}]"
        try:
            squad, model = campaign.find(o.id)
        except KeyError:
            raise InputError(f"no model {o.id!r} in campaign {campaign.name!r} (models: "
                             f"{', '.join(campaign.model_ids())})", source=source,
                             field=f"{where}.id") from None
        if o.player is not None and o.player != squad.player:
            raise InputError(f"model {o.id!r} belongs to {squad.player}, not {o.player}",
                             source=source, field=f"{where}.player")
        if model.state == FALLEN:
            raise InputError(f"{model.name} ({o.id}) has fallen and cannot have played",
                             source=source, field=f"{where}.id")
        outcomes[o.id] = o
    return outcomes


def record_mission(campaign: Campaign, result: MissionResult, dice: Dice | None, *,
                   source: str | None = None) -> MissionReport:
    """Apply a mission's result: histories, survival tests and an after-action report.

    The game loop calls it with :func:`result_from_state` of the ended game; the CLI with a
    result file. Every squad model that is not fallen played the mission (its ``missions``
    count goes up); each one that lost wounds or went down becomes ``wounded`` and then, when
    ``dice`` is given, takes its survival test (:func:`run_survival_tests`: squad order, model
    order). With ``dice=None`` the tests stay pending for a later :func:`run_survival_tests`.
    Unharmed models are not tested; fallen models stay in their squads. ``campaign`` changes
    in place, and not at all if the result names an unknown or fallen model or tests from an
    earlier mission are still pending (``source`` names the result in those errors).
    """
    waiting = pending_tests(campaign)
    if waiting:
        names = ", ".join(m.id for _, m in waiting)
        raise InputError(f"survival tests from mission {campaign.missions_played} are still "
                         f"to roll ({names}): roll them before recording another mission",
                         source=source)
    outcomes = _resolve_outcomes(campaign, result, source)
    number = campaign.missions_played + 1
    title = result.mission or f"Mission {number}"
    head = f"Mission {number}: {title}"
    if result.outcome:
        head += f" — {result.outcome}"
    if result.vp:
        head += ", VP " + ", ".join(f"{k} {v}" for k, v in result.vp.items())
    lines = [head]
    if result.all_enemies_destroyed:
        lines.append("Every enemy was destroyed: +1 Toughness to every survival test.")
    lines.extend(result.narrative)
    for squad in campaign.squads:
        lines.append(f"{squad.player} — {squad.name}:")
        for model in squad.models:
            if not model.can_play:
                continue
            model.missions += 1
            outcome = outcomes.get(model.id)
            if outcome is None or not outcome.harmed:
                model.note(number, f"played {title} unharmed")
                lines.append(f"  {model.name} ({model.id}): unharmed.")
                continue
            model.state = WOUNDED
            model.pending = {
                "mission": number, "wounds_lost": outcome.wounds_lost,
                "down": outcome.went_down, "carried": outcome.carried,
                "carried_off": outcome.carried_off,
                "all_enemies_destroyed": result.all_enemies_destroyed,
            }
            lines.append(f"  {model.name} ({model.id}): {_harm_text(outcome)}.")
    report: list[str] = list(lines)
    record: dict[str, Any] = {
        "mission": number, "name": title, "outcome": result.outcome,
        "vp": dict(result.vp) if result.vp else None,
        "all_enemies_destroyed": result.all_enemies_destroyed,
        "narrative": list(result.narrative),
        "models": [{"id": o.id, "wounds_lost": o.wounds_lost, "down": o.went_down,
                    "carried": o.carried, "carried_off": o.carried_off}
                   for o in result.models],
        "survival_tests": [],
        "report": report,
    }
    campaign.history.append(record)  # the campaign's missions played: now ``number``
    if not pending_tests(campaign):
        report.append("No survival test: nobody was hurt.")
        return MissionReport(number, (), tuple(report), record)
    if dice is None:
        report.append("Survival tests are still to roll.")
        return MissionReport(number, (), tuple(report), record)
    return run_survival_tests(campaign, dice)


