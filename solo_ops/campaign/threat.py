"""The threat of each mission as the campaign keeps it: what was proposed, what was played, what
it predicted — and, once missions are played, how well the predictions held.

``campaign play`` and ``campaign serve`` propose the next mission's enemy and engagement level
for the win chance the group chose (:mod:`solo_ops.sim.proposal` rates them; the command line
composes the two, since ``sim`` and ``campaign`` stand side by side). The proposal is kept in
the campaign save as :attr:`Campaign.threat <solo_ops.campaign.model.Campaign.threat>` while
the mission is set up and played, and copied into the mission's history record when it is
recorded, with the actual result beside it. A threat record::

    {"mission": 3, "seed": 41, "target": 0.5,
     "proposed": {"enemy": "ork-mob", "level": 2, "win_rate": 0.52, "interval": [0.4, 0.64],
                  "missions": 64, "known": false},
     "enemy": "ork-mob", "level": 2, "by": "proposal",      # what is played; "group": overridden
     "predicted": {"win_rate": 0.52, "interval": [0.4, 0.64], "missions": 64},  # or null
     "rated": [{"enemy", "level", "wins", "missions", "win_rate", "interval"}, ...],
     "played": 64,
     "asked": {"board": null, "roster": null, "edition": null, "engagement": null}}

(``asked``: what the group asked of the mission's generation — ``campaign play --board`` and
the like — so that it can be set up again with the same board when the group overrides.)

:func:`calibration` compares the predictions of the missions played with their results.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from solo_ops.core.fields import Fields, check_number, join_path

THREAT_KEYS = ("mission", "seed", "target", "proposed", "enemy", "level", "by", "predicted",
               "rated", "played", "asked")
BY = ("proposal", "group")
Z95 = 1.959963984540054


def check_threat(data: Any, source: str | None, path: str) -> dict[str, Any]:
    """A threat record of a save (the module docstring), every field checked; one-line errors
    naming the field."""
    t = Fields(data, source, path).only(THREAT_KEYS)
    t.integer("mission", minimum=1)
    t.integer("seed", None, minimum=0)
    t.number("target", minimum=0, maximum=1)
    t.text("enemy")
    t.integer("level", minimum=0, maximum=6)
    t.choice("by", BY)
    t.integer("played", 0, minimum=0)
    for key in ("proposed", "predicted"):
        if t.raw(key, None) is not None:
            _check_rating(t.mapping(key).data, source, join_path(path, key))
    for i, item in enumerate(t.sequence("rated", [])):
        _check_rating(item, source, join_path(join_path(path, "rated"), i))
    if t.raw("asked", None) is not None:
        a = t.mapping("asked").only(("board", "roster", "edition", "engagement"))
        for key in ("board", "roster", "edition"):
            a.text(key, None)
        a.integer("engagement", None, minimum=1, maximum=6)
    return dict(t.data)


def _check_rating(data: Any, source: str | None, path: str) -> None:
    r = Fields(data, source, path).only(("enemy", "level", "wins", "missions", "win_rate",
                                         "interval", "known"))
    r.number("win_rate", minimum=0, maximum=1)
    r.integer("missions", minimum=0)
    interval = r.sequence("interval")
    if len(interval) != 2:
        raise r.error("interval", "expected [low, high]")
    for i, value in enumerate(interval):
        check_number(value, source, join_path(join_path(path, "interval"), i), 0, 1, False)


def percent(chance: float) -> str:
    """``0.625`` as ``63%``: a chance in whole percent, halves rounded up (as the page's
    ``Math.round`` does, so the terminal, the page and the chronicle say the same)."""
    return f"{math.floor(100 * float(chance) + 0.5 + 1e-9)}%"


def prediction_line(threat: dict[str, Any]) -> str:
    """The one statement of a mission's threat, the same in the terminal, on the page and in
    the chronicle: the enemy and level played, the win chance the rating gave them with its 95%
    interval and the simulated missions of theirs it rests on, and the group's target apart::

        ork-mob at level 2: you win 55% (95% interval 43-67%, rated on 64 simulated missions);
        target 50%

    The missions are the chosen candidate's own: a proposal may rate others too (every
    candidate's missions are in ``played``; :func:`rating_cost` says so)."""
    p = threat.get("predicted")
    head = f"{threat['enemy']} at level {threat['level']}"
    target = f"target {percent(threat['target'])}"
    if not p:
        return f"{head}: not rated; {target}"
    lo, hi = p["interval"]
    return (f"{head}: you win {percent(p['win_rate'])} (95% interval {percent(lo)[:-1]}-"
            f"{percent(hi)}, rated on {p['missions']} simulated missions); {target}")


def rating_cost(played: int, candidates: int, seconds: float) -> str:
    """What a proposal's rating cost in all, said apart from the prediction (whose missions are
    the chosen candidate's only): ``the rating played 64 simulated missions in all, over 2
    candidates, in 19.6 s of CPU``."""
    over = f"over {candidates} candidates" if candidates != 1 else "over 1 candidate"
    return (f"the rating played {played} simulated missions in all, {over}, in "
            f"{seconds:.1f} s of CPU")


@dataclass(frozen=True)
class Calibration:
    """How well the predictions held over the missions played with one.

    ``missions``: the missions with a prediction and a result; ``expected``: the wins the
    predictions add up to (the sum of the predicted win rates); ``won``: the wins; ``band``:
    the 95% range of wins the predictions allow (normal approximation of the sum of the
    missions' Bernoulli trials, variance the sum of p(1-p)); ``brier``: the mean squared
    difference between the predicted rate and the result (1 a win, 0 else: 0 is perfect, a
    coin's 50% scores 0.25); ``mean_target``: the targets' mean."""

    missions: int
    expected: float
    won: int
    band: tuple[float, float]
    brier: float
    mean_target: float
    rows: tuple[dict[str, Any], ...]

    @property
    def held(self) -> bool:
        """Whether the wins lie inside the predictions' 95% band."""
        return self.band[0] <= self.won <= self.band[1]

    def line(self) -> str:
        if not self.missions:
            return "Predictions: none yet (no mission played with a proposal)."
        lo, hi = self.band
        verdict = "the predictions held" if self.held else "the predictions did not hold"
        return (f"Predictions: {self.missions} mission(s), {self.expected:.1f} win(s) "
                f"expected, {self.won} won (95% band {lo:.1f}-{hi:.1f}): {verdict}; Brier "
                f"score {self.brier:.2f} (0 is perfect, always saying 50% scores 0.25); "
                f"target {percent(self.mean_target)} on average.")

    def to_dict(self) -> dict[str, Any]:
        return {"missions": self.missions, "expected_wins": round(self.expected, 4),
                "won": self.won, "band95": [round(v, 4) for v in self.band],
                "held": self.held, "brier": round(self.brier, 4),
                "mean_target": round(self.mean_target, 4), "rows": list(self.rows)}


def calibration(history: list[dict[str, Any]]) -> Calibration:
    """The predictions of the missions in ``history`` against their results (a mission
    recorded without a prediction or without a result is left out)."""
    rows = []
    for entry in history:
        threat = entry.get("threat") if isinstance(entry, dict) else None
        if not threat or not threat.get("predicted") or entry.get("outcome") is None:
            continue
        p = float(threat["predicted"]["win_rate"])
        rows.append({"mission": entry.get("mission"), "target": float(threat["target"]),
                     "predicted": p, "interval": list(threat["predicted"]["interval"]),
                     "outcome": entry["outcome"], "won": entry["outcome"] == "win"})
    n = len(rows)
    expected = sum(r["predicted"] for r in rows)
    won = sum(1 for r in rows if r["won"])
    spread = Z95 * math.sqrt(sum(r["predicted"] * (1 - r["predicted"]) for r in rows))
    brier = sum((r["predicted"] - (1.0 if r["won"] else 0.0)) ** 2 for r in rows) / n if n \
        else 0.0
    mean_target = sum(r["target"] for r in rows) / n if n else 0.0
    return Calibration(n, expected, won, (max(0.0, expected - spread), min(n, expected + spread)),
                       brier, mean_target, tuple(rows))
