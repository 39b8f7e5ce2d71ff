"""The next campaign mission's threat, for ``campaign play`` and ``campaign serve``: the enemy and
engagement level proposed for the win chance the group chose, rated by simulated missions of
the squads as they stand (:func:`solo_ops.sim.proposal.propose`), with a progress bar while it
runs, its CPU time measured, and the group's override.

:func:`threaten` is the generator's rating hook (``Options.rate``): given the mission's
document (board, mission and squads fixed, the enemy the dice rolled), it proposes — or, when
the group chose the enemy or the level, rates their choice — and returns the level and the
briefing's line; the threat record (:mod:`solo_ops.campaign.threat`) goes into the campaign
save with the mission. :func:`override` makes the group's choice the threat of a mission set up
again (its prediction from the proposal's ratings when it was rated, else rated now).
"""

from __future__ import annotations

import resource
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from solo_ops.campaign import Campaign, CampaignSettings
from solo_ops.campaign.threat import percent
from solo_ops.core.errors import InputError

ProgressFn = Callable[[int, int, str], None]


def target_of(settings: CampaignSettings) -> float | None:
    """The campaign's target win chance: its difficulty word's (``new --difficulty``) or its
    ``target_win``; None: missions rolled as ``solo-ops new`` rolls them."""
    if settings.difficulty is not None:
        from solo_ops.sim.difficulty import TARGETS

        return TARGETS[settings.difficulty]
    return settings.target_win


def start_level(campaign: Campaign) -> int:
    """Where the search starts: the level played last mission (the squads change a little from
    one mission to the next), else :data:`~solo_ops.sim.proposal.START`."""
    from solo_ops.sim.proposal import START

    for entry in reversed(campaign.history):
        threat = entry.get("threat") if isinstance(entry, dict) else None
        if threat and isinstance(threat.get("level"), int) and threat["level"] >= 1:
            return int(threat["level"])
    return START


def cpu_seconds() -> float:
    """CPU time of this process and of its children that have ended (the rating's workers, once
    their pool is closed): user and system."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


@dataclass
class Threatening:
    """One mission's threat being made: what the group fixed (``enemy``, ``level``), the
    rosters to choose among (name -> document), the campaign's target and where the search
    starts; after :func:`threaten`, the ``record`` to keep and the CPU ``seconds`` it took."""

    target: float
    number: int
    seed: int
    rosters: dict[str, dict[str, Any]]
    start: int
    enemy: str | None = None
    level: int | None = None
    budget: int | None = None
    progress: ProgressFn | None = None
    show: bool = False
    record: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0
    played: int = 0
    candidates: int = 0
    rolled: str = ""
    interrupted: bool = False
    """The rating was stopped (Ctrl-C): the best found so far is proposed."""


def _rate(how: Threatening, doc: dict[str, Any], order: list[str],
          levels: tuple[int, ...]) -> Any:
    """:func:`~solo_ops.sim.proposal.propose` over ``order`` at ``levels`` with a progress bar
    (a terminal) or ``how.progress`` (the page). The kernels when compiled; else their
    compile starts at once, at the lowest priority: the command goes on (``campaign play``
    plays the mission at the table, a page's server runs on), and its next rating has them."""
    from solo_ops.cli.compile import prepare
    from solo_ops.cli.rate import progress_bar
    from solo_ops.sim import proposal, rating

    variants = proposal.variants_of(doc, {name: how.rosters[name] for name in order},
                                    "the next mission")
    before = cpu_seconds()
    label = f"rating mission {how.number} for {percent(how.target)} to win"
    with progress_bar(how.show and sys.stderr.isatty(), label) as bar:
        report = bar or how.progress
        found = proposal.propose(variants, order, how.target, seed=how.seed,
                                 jobs=rating.default_jobs(),
                                 kernels=prepare(after_this_command=False),
                                 budget=how.budget or proposal.BUDGET, start=how.start,
                                 levels=levels, progress=report)
    how.seconds += cpu_seconds() - before
    how.played += found.played
    how.candidates += len(found.rated)
    if found.interrupted:
        import click

        how.interrupted = True
        click.echo(f"Rating stopped by Ctrl-C after {found.played} missions: the best so far "
                   "is proposed.", err=True)
    return found


def threaten(how: Threatening, doc: dict[str, Any], rolled: str) -> tuple[int, str]:
    """The generator's rating hook: propose the threat of mission ``doc`` (``rolled``: the
    enemy the dice rolled, tried first), or rate the group's choice. Sets ``doc``'s roster to
    the enemy chosen and ``how.record``; returns the level and the briefing's line."""
    from solo_ops.sim.proposal import LEVELS

    names = sorted(how.rosters)
    if how.enemy is not None:
        order = [how.enemy]
    else:
        at = names.index(rolled) if rolled in names else 0
        order = [rolled] + [n for n in names[at + 1:] + names[:at] if n != rolled]
    levels = (how.level,) if how.level is not None else LEVELS
    found = _rate(how, doc, order, levels)
    chosen = found.chosen
    doc["roster"] = how.rosters[chosen.enemy]
    by = "group" if how.level is not None else "proposal"  # an enemy given: its level proposed
    how.record = {
        "mission": how.number, "seed": how.seed, "target": how.target,
        "proposed": {**_rating(chosen), "known": found.known},
        "enemy": chosen.enemy, "level": chosen.level, "by": by,
        "predicted": _rating(chosen) if chosen.missions else None,
        "rated": [r.to_dict() for r in found.rated], "played": found.played,
    }
    return chosen.level, _line(how)


def _rating(rated: Any) -> dict[str, Any]:
    return {"enemy": rated.enemy, "level": rated.level, "win_rate": round(rated.win_rate, 4),
            "interval": [round(rated.lo, 4), round(rated.hi, 4)], "missions": rated.missions}


def _line(how: Threatening) -> str:
    """The briefing's words: who chose the threat, :func:`~solo_ops.campaign.threat.
    prediction_line`, whether its win chance is known to ± 8 points, and what the rating cost
    in all (:func:`~solo_ops.campaign.threat.rating_cost`)."""
    from solo_ops.campaign.threat import prediction_line, rating_cost
    from solo_ops.sim.sequential import DEFAULT_WIDTH

    record = how.record
    predicted = record["predicted"]
    known = predicted is not None and \
        (predicted["interval"][1] - predicted["interval"][0]) / 2 <= DEFAULT_WIDTH + 1e-9
    stopped = " was stopped (Ctrl-C)" if how.interrupted else "'s budget ran out"
    note = "" if known else ("; its win chance not yet known to ± 8 points when the rating"
                             f"{stopped}")
    who = "proposed" if record["by"] == "proposal" else "the group's choice"
    if not how.played:
        return f"{who}: {prediction_line(record)}{note} (rated when it was proposed)"
    return (f"{who}: {prediction_line(record)}{note}; "
            f"{rating_cost(how.played, how.candidates, how.seconds)}")


def override(how: Threatening, doc: dict[str, Any], previous: dict[str, Any]
             ) -> tuple[int, str]:
    """The generator's hook for a mission set up again with the group's choice: the enemy and
    level fixed, the prediction taken from ``previous`` (the proposal's record) when it rated
    them, else rated now."""
    enemy = how.enemy or previous["enemy"]
    level = how.level or int(previous["level"])
    if enemy not in how.rosters:
        raise InputError(f"unknown enemy {enemy!r} (enemies: {', '.join(sorted(how.rosters))})",
                         source="enemy")
    known = next((r for r in previous.get("rated", [])
                  if (r["enemy"], r["level"]) == (enemy, level)), None)
    if known is None:
        how.enemy, how.level = enemy, level
        lv, _line_text = threaten(how, doc, enemy)
        rated = previous.get("rated", []) + [r for r in how.record["rated"]
                                             if (r["enemy"], r["level"]) == (enemy, level)]
        how.record.update(proposed=previous["proposed"], rated=rated,
                          played=previous.get("played", 0) + how.record["played"])
        return lv, _line(how)
    doc["roster"] = how.rosters[enemy]
    how.record = {**previous, "enemy": enemy, "level": level,
                  "by": "proposal" if (enemy, level) == (previous["proposed"]["enemy"],
                                                         previous["proposed"]["level"])
                  else "group",
                  "predicted": {k: known[k] for k in ("enemy", "level", "win_rate",
                                                      "interval", "missions")}}
    return level, _line(how)


def hook(how: Threatening, previous: dict[str, Any] | None
         ) -> Callable[[dict[str, Any]], tuple[int, str]]:
    """The generator's ``Options.rate`` for this mission: :func:`threaten` the document (the
    enemy the dice rolled tried first), or :func:`override` with ``previous`` (the threat of
    the mission set up before, for the same mission with the group's choice)."""
    def rate(doc: dict[str, Any]) -> tuple[int, str]:
        rolled = next((name for name, data in how.rosters.items() if data is doc["roster"]),
                      sorted(how.rosters)[0])
        how.rolled = rolled
        if previous is not None:
            return override(how, doc, previous)
        return threaten(how, doc, rolled)

    return rate


def enemy_note(notes: list[str], how: Threatening, doc: dict[str, Any]) -> list[str]:
    """The briefing's enemy line, saying the enemy was proposed (or chosen) when it is not the
    one the dice rolled."""
    chosen = how.record.get("enemy")
    if not chosen or chosen == how.rolled:
        return notes
    title = doc["roster"].get("name", chosen)
    rolled = how.rosters.get(how.rolled, {}).get("name", how.rolled)
    why = "proposed" if how.record.get("by") == "proposal" else "the group's choice"
    return [f"Enemy: {title} ({why}; the dice rolled {rolled})." if n.startswith("Enemy: ")
            else n for n in notes]
