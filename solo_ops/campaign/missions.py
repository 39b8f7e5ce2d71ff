"""A mission to and from the campaign: the squads it sends and recording what came back.

:func:`scenario_squads` gives the next mission's squads (every model that can play);
:func:`record_mission` applies the :class:`~solo_ops.campaign.results.MissionResult` of a
played mission — each model's history, the survival tests (through
:mod:`solo_ops.campaign.survival`), the history record and the after-action report.
"""

from __future__ import annotations

import copy
import math
from dataclasses import replace
from typing import Any

from solo_ops.campaign.model import (
    FALLEN,
    INJURED,
    RECOVERING,
    WOUNDED,
    Campaign,
    SquadModel,
    wounds_left,
)
from solo_ops.campaign.results import MissionResult, ModelOutcome, _harm_text
from solo_ops.campaign.survival import MissionReport, pending_tests, run_survival_tests
from solo_ops.campaign.threat import prediction_line
from solo_ops.core.dice import Dice
from solo_ops.core.errors import InputError, excerpt


def scenario_squads(campaign: Campaign) -> list[dict[str, Any]]:
    """The campaign's squads as a scenario's ``squads`` entries (INTERFACES.md "Scenario"):
    every model that can play (not fallen, not recovering), with its profile inline and no
    position (the game deploys it); an injured model with its ``wounds_lost`` (a wound not
    healed: it starts the game without them, at least 1 left). Model ids are the campaign's,
    so :func:`result_from_state` maps back."""
    return [{"player": s.player, "name": s.name,
             "models": [_entry(m) for m in s.playable()]}
            for s in campaign.squads if s.playable()]


def recover_when_nobody_plays(campaign: Campaign) -> list[str]:
    """When no model can play the next mission but some are ``recovering``, they recover now
    (whole, as after a mission they sat out): a mission needs someone to play it, so the one
    they rest through is the one nobody could play (docs/rules.md "Campaign"). Returns their
    names; nothing changes when someone can play."""
    if any(s.playable() for s in campaign.squads):
        return []
    number = campaign.missions_played + 1
    names = []
    for squad in campaign.squads:
        for model in squad.models:
            if model.state == RECOVERING:
                model.heal(number - 1 if number > 1 else None)
                model.note(None, f"recovered: nobody else could play mission {number}")
                names.append(model.name)
    return names


def mission_title(campaign: Campaign, number: int) -> str:
    """The name of the scenario of mission ``number`` of ``campaign`` (``Vesper: mission 2``):
    what ``campaign play`` and ``campaign serve`` name it, and how its save is known as this
    campaign's (:func:`mission_mismatch`)."""
    return f"{campaign.name}: mission {number}"


def mission_mismatch(campaign: Campaign, number: int, title: Any, squads: Any,
                     seed: Any) -> str | None:
    """Why a game (its scenario's ``title`` and ``squads`` entries, its ``seed``) is not
    mission ``number`` of ``campaign``, in words, or None when it is: the mission is named
    after the campaign and its number (:func:`mission_title`), its squads are the models of
    this campaign that can play (:func:`scenario_squads`: the players and their model ids),
    and, when the campaign keeps the threat it set this mission up with, its seed is that
    threat's. A save copied in from another campaign's folder fails the first, or the second
    when the two campaigns share a name."""
    if title != mission_title(campaign, number):
        return (f"its game is {excerpt(title)}, not {mission_title(campaign, number)!r} (a "
                "save from another campaign, or from another mission)")
    mine = {s["player"]: sorted(m["id"] for m in s["models"])
            for s in scenario_squads(campaign)}
    theirs: dict[str, list[str]] = {}
    for squad in squads if isinstance(squads, list) else []:
        if isinstance(squad, dict):
            models = squad.get("models")
            theirs[str(squad.get("player"))] = sorted(
                str(m.get("id")) for m in (models if isinstance(models, list) else [])
                if isinstance(m, dict))
    if theirs != mine:
        return (f"its squads ({_squads_words(theirs)}) are not the models of campaign "
                f"{campaign.name!r} that can play ({_squads_words(mine)}): a save from "
                "another campaign")
    threat = campaign.threat
    if threat is not None and threat.get("mission") == number \
            and isinstance(threat.get("seed"), int) and threat["seed"] != seed:
        return ("its seed is not the one the campaign set this mission up with (a save from "
                "another campaign of the same name and squads)")
    return None


def _squads_words(squads: dict[str, list[str]]) -> str:
    return "; ".join(f"{player}: {', '.join(ids)}" for player, ids in squads.items()) \
        or "none"


def share_of_wounds(lost: int, have: int, into: int) -> int:
    """``lost`` wounds of ``have`` as the same share of ``into`` wounds: what is left, rounded
    to the nearest (halves up) and at least 1 while some was left. A campaign counts a wound in
    its profile's own Wounds (Kill Team 2024's), a Kill Team 2018 game in the 2018 ones (Sgt
    Kell: 8 and 2): 3 of 8 lost go in as 1 of 2 lost, 1 of 2 lost comes back as 4 of 8."""
    if lost <= 0 or have == into or have <= 0:
        return max(0, lost)
    left = have - lost
    if left <= 0:
        return into
    return into - max(1, math.floor(left * into / have + 0.5))


def fit_to_edition(campaign: Campaign, squads: list[dict[str, Any]], edition: str) -> None:
    """The ``wounds_lost`` of the scenario ``squads`` (:func:`scenario_squads`) in the Wounds of
    the edition the mission is played in (:func:`share_of_wounds`), in place: a model 5 of 8
    wounds into a Kill Team 2018 game of 2 Wounds goes in with 1 (the game refuses more
    wounds lost than a model has)."""
    for squad in squads:
        for entry in squad.get("models", []):
            lost = int(entry.get("wounds_lost", 0) or 0)
            if not lost:
                continue
            _, model = campaign.find(str(entry["id"]))
            profile = model.parsed_profile()
            fitted = share_of_wounds(lost, profile.wounds, profile.for_edition(edition).wounds)
            entry["wounds_lost"] = fitted


def _entry(model: SquadModel) -> dict[str, Any]:
    entry: dict[str, Any] = {"id": model.id, "name": model.name,
                             "profile": copy.deepcopy(model.profile)}
    if model.starting_wounds_lost():
        entry["wounds_lost"] = model.starting_wounds_lost()
    return entry


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
        if model.state in (FALLEN, RECOVERING):
            why = "has fallen" if model.state == FALLEN else "is recovering (it misses this " \
                "mission)"
            raise InputError(f"{model.name} ({o.id}) {why} and cannot have played",
                             source=source, field=f"{where}.id")
        if o.wounds_of is not None:  # a game's count: in the campaign's Wounds from here on
            o = replace(o, wounds_lost=share_of_wounds(
                o.wounds_lost, o.wounds_of, model.parsed_profile().wounds), wounds_of=None)
        outcomes[o.id] = o
    return outcomes


def check_wounds_lost(campaign: Campaign, result: MissionResult, source: str | None) -> None:
    """Refuse a result file's ``wounds_lost`` above what the model can lose: its Wounds, in the
    edition that gives it more (a result file does not say which edition the mission was
    played in), less the wounds not healed it went in without. A played game's count is the
    game's own (a Kill Team 2018 flesh wound leaves a model at 1 wound to lose again), so only
    result files are checked."""
    for i, o in enumerate(result.models):
        try:
            _, model = campaign.find(o.id)
        except KeyError:
            continue  # named in record_mission's own check
        profile = model.parsed_profile(source, f"models[{i}].profile")
        most = max(profile.for_edition(edition).wounds for edition in ("kt2024", "kt2018"))
        # a model that went in hurt had only what its wound not healed left it (at least 1,
        # as the game leaves it: downed_lost_all counts a fall the same way)
        had = max(1, most - model.starting_wounds_lost())
        if o.wounds_lost > had:
            went_in = ("" if had == most
                       else f", and went in hurt with {had} of them (a wound not healed)")
            raise InputError(f"{model.name} ({o.id}) has {most} wounds{went_in}: it cannot "
                             f"have lost {o.wounds_lost}", source=source,
                             field=f"models[{i}].wounds_lost")


def downed_lost_all(campaign: Campaign, result: MissionResult) -> MissionResult:
    """``result`` with every model that went down and whose loss was not given (a result
    file's ``down: true`` without ``wounds_lost``) counted as losing every wound it went into
    the mission with: its Wounds, less a wound not healed (at least 1) — what a played game
    records for a model taken down (docs/rules.md "Campaign"). Models the campaign does not
    know are left for :func:`record_mission` to refuse."""
    outcomes = []
    for o in result.models:
        try:
            _, model = campaign.find(o.id)
        except KeyError:
            outcomes.append(o)
            continue
        if o.went_down and o.wounds_lost == 0:
            most = model.parsed_profile().wounds
            o = replace(o, wounds_lost=max(1, most - model.starting_wounds_lost()))
        outcomes.append(o)
    return replace(result, models=tuple(outcomes))


def _played(model: SquadModel, outcome: ModelOutcome | None, number: int, title: str,
            all_destroyed: bool) -> str:
    """A model that played the mission: its count, and its survival test made pending when it
    was hurt or went in with a wound not healed. The report's line."""
    model.missions += 1
    injured = model.state == INJURED
    harmed = outcome is not None and outcome.harmed
    if not harmed and not model.open_wound:
        model.note(number, f"played {title} unharmed")
        return f"  {model.name} ({model.id}): unharmed."
    outcome = outcome or ModelOutcome(id=model.id)
    model.pending = {
        "mission": number, "wounds_lost": outcome.wounds_lost,
        "down": outcome.went_down, "carried": outcome.carried,
        "carried_off": outcome.carried_off, "all_enemies_destroyed": all_destroyed,
        "injured": injured, "unhealed": model.unhealed_wounds if injured else 0,
    }
    model.state = WOUNDED
    if harmed:
        return f"  {model.name} ({model.id}): {_harm_text(outcome)}."
    left = wounds_left(model.unhealed_wounds, model.parsed_profile().wounds)
    return (f"  {model.name} ({model.id}): unharmed, but it went in hurt, with {left} (a "
            "wound not healed): a survival test to heal it.")


def _history_record(result: MissionResult, outcomes: dict[str, ModelOutcome], number: int,
                    title: str, fought: list[str], report: list[str], key: str | None
                    ) -> dict[str, Any]:
    """The campaign history's entry for a mission recorded (``report`` shared: the report's
    lines still to come are added to it); each model's wounds as ``outcomes`` count them, in
    the campaign's own Wounds (a Kill Team 2018 game's count converted), as the report and
    the survival tests do."""
    record: dict[str, Any] = {
        "mission": number, "name": title, "outcome": result.outcome,
        "vp": dict(result.vp) if result.vp else None,
        "all_enemies_destroyed": result.all_enemies_destroyed,
        "narrative": list(result.narrative),
        "models": [{"id": o.id, "wounds_lost": o.wounds_lost, "down": o.went_down,
                    "carried": o.carried, "carried_off": o.carried_off, "kills": o.kills}
                   for o in (outcomes.get(r.id, r) for r in result.models)],
        "fought": fought,
        "survival_tests": [],
        "report": report,
    }
    if key is not None:
        record["result_key"] = key
    return record


def _check_not_recorded(campaign: Campaign, key: str | None, again: bool,
                        source: str | None) -> None:
    """Refuse a result file already recorded for an earlier mission (same ``key``)."""
    if key is None or again:
        return
    for entry in campaign.history:
        if entry.get("result_key") == key:
            raise InputError(
                f"this result was already recorded as mission {entry.get('mission')} "
                f"({entry.get('name')}): recording it again would count that mission twice "
                "(if the group played another mission with exactly this result, add --again)",
                source=source)


def record_mission(campaign: Campaign, result: MissionResult, dice: Dice | None, *,
                   source: str | None = None, key: str | None = None,
                   again: bool = False) -> MissionReport:
    """Apply a mission's result: histories, survival tests and an after-action report.

    The game loop calls it with :func:`result_from_state` of the ended game; the CLI with a
    result file. Every squad model that is not fallen played the mission (its ``missions``
    count goes up); each one that lost wounds or went down becomes ``wounded`` and then, when
    ``dice`` is given, takes its survival test (:func:`run_survival_tests`: squad order, model
    order). With ``dice=None`` the tests stay pending for a later :func:`run_survival_tests`.
    A model that went into the mission with a wound not healed is tested even if unharmed;
    other unharmed models are not. A ``recovering`` model sat the mission out and is fit again
    (:meth:`SquadModel.heal`); fallen models stay in their squads. ``campaign`` changes
    in place, and not at all if the result names an unknown or fallen model or tests from an
    earlier mission are still pending (``source`` names the result in those errors).

    ``key`` (:func:`~solo_ops.campaign.results.result_key`, given for a result file) is kept
    in the history entry; a result whose key an earlier mission already has is refused (it
    would count that mission twice) unless ``again`` says the group really played another
    mission with exactly that result.
    """
    _check_not_recorded(campaign, key, again, source)
    waiting = pending_tests(campaign)
    if waiting:
        names = ", ".join(m.id for _, m in waiting)
        raise InputError(f"survival tests from mission {campaign.missions_played} are still "
                         f"to roll ({names}): roll them before recording another mission",
                         source=source)
    if not any(s.playable() for s in campaign.squads):  # as `campaign play` sets one up
        if not any(m.state == RECOVERING for s in campaign.squads for m in s.models):
            raise InputError(f"campaign {campaign.name!r} has no model left who can play, so no "
                             "mission can have been played: replace the fallen with "
                             "`solo-ops campaign replace`", source=source)
        recover_when_nobody_plays(campaign)  # the mission they rest through is nobody's
    outcomes = _resolve_outcomes(campaign, result, source)
    number = campaign.missions_played + 1
    fought = [m.id for s in campaign.squads for m in s.models if m.can_play]
    title = result.mission or f"Mission {number}"
    head = f"Mission {number}: {title}" if result.mission else title  # never "Mission 2: Mission 2"
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
            if model.state == RECOVERING:
                model.heal(number)
                model.note(number, f"rested through {title} and recovered")
                lines.append(f"  {model.name} ({model.id}): rested through this mission and "
                             "is fit again.")
                continue
            if not model.can_play:
                continue
            lines.append(_played(model, outcomes.get(model.id), number, title,
                                 result.all_enemies_destroyed))
    report: list[str] = list(lines)
    record = _history_record(result, outcomes, number, title, fought, report, key)
    threat = campaign.threat
    if threat is not None and threat.get("mission") == number:
        record["threat"] = threat
        report.insert(1, "Threat: " + prediction_line(threat) + (
            "" if threat.get("by") == "proposal" else " (the group's choice)"))
    campaign.threat = None
    campaign.history.append(record)  # the campaign's missions played: now ``number``
    if not pending_tests(campaign):
        report.append("No survival test: nobody was hurt.")
        return MissionReport(number, (), tuple(report), record)
    if dice is None:
        report.append("Survival tests are still to roll.")
        return MissionReport(number, (), tuple(report), record)
    return run_survival_tests(campaign, dice)


