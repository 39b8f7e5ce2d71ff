"""The campaign's chronicle: its story, mission by mission, as a page a group reads, shares or
prints after an evening (``solo-ops campaign chronicle``; the campaign page links it).

For each mission: its title and result, the threat (enemy, level, the win chance predicted with
its interval, the target: :func:`~solo_ops.campaign.threat.prediction_line`), the briefing, the
map of the end, who fought, who went down and who fell, who was carried out, the survival rolls,
and the recruits that joined after it; then each model's record (missions, kills, wounds lost,
times down, injuries, its state now) and how well the predictions held. :func:`story` gathers
it from the campaign save (and the extras the caller reads from the mission files: the briefing
of an older mission, the picture of its end); :func:`html` and :func:`markdown` write it.
HTML: one file, CSS inline, pictures embedded, a column that reads on a phone, and a print
stylesheet (no buttons or colours to waste ink, no section cut across a page). Markdown: the
pictures are files beside it (named by the caller).

Pure: it writes no file and reads none; the caller hands in the pictures' bytes.
"""

from __future__ import annotations

import base64
import html as _html
from dataclasses import dataclass, field
from typing import Any

from solo_ops.campaign.model import (
    ACTIVE,
    FALLEN,
    INJURED,
    RECOVERING,
    WOUNDED,
    Campaign,
    SquadModel,
    wounds_left,
)
from solo_ops.campaign.survival import result_words
from solo_ops.campaign.threat import calibration, percent, prediction_line

OUTCOME_WORDS = {"win": "Victory", "loss": "Defeat", "draw": "Draw"}


@dataclass(frozen=True)
class Extras:
    """What the caller read from a mission's files: its briefing (when the history record has
    none: missions recorded before it kept one) and the picture of its end (PNG bytes)."""

    briefing: tuple[str, ...] = ()
    picture: bytes | None = None


@dataclass
class Mission:
    """One mission of the story (see :func:`story`)."""

    number: int
    title: str
    outcome: str | None
    vp: dict[str, Any] | None
    facts: list[str]
    threat: str | None
    briefing: list[str]
    fought: list[str]
    down: list[str]
    fell: list[str]
    carried: list[str]
    tests: list[dict[str, str]]
    after: list[str]
    narrative: list[str]
    picture: bytes | None = None


@dataclass
class Story:
    """The whole chronicle: the campaign's name, its squads and settings in a few lines, the
    missions, each model's record and the predictions' line."""

    name: str
    intro: list[str]
    missions: list[Mission] = field(default_factory=list)
    records: list[dict[str, Any]] = field(default_factory=list)
    predictions: str = ""


def state_words(model: SquadModel) -> str:
    """A model's state as a player reads it, with what it means for the next mission."""
    if model.state == FALLEN:
        return "fallen" + (f" (replaced by {model.replaced_by})" if model.replaced_by else "")
    if model.state == WOUNDED:
        return "wounded: survival test to roll"
    if model.state == RECOVERING:
        return "recovering: misses the next mission"
    if model.state == INJURED and model.unhealed_wounds:
        left = wounds_left(model.unhealed_wounds, model.parsed_profile().wounds)
        return f"injured: starts the next mission with {left}"
    if model.state == INJURED:
        return f"injured ×{len(model.lasting_injuries)} (lasting)"
    return "fit" if model.state == ACTIVE else model.state


def model_record(campaign: Campaign, model: SquadModel) -> dict[str, int]:
    """A model's record over the campaign's history: missions played, enemy models it took
    down (kills), wounds it lost, times it went down, times it was carried to safety, and its
    injuries (failed survival tests that left a mark)."""
    kills = wounds = down = carried = 0
    for entry in campaign.history:
        for m in entry.get("models", []) if isinstance(entry, dict) else []:
            if m.get("id") != model.id:
                continue
            kills += int(m.get("kills", 0) or 0)
            wounds += int(m.get("wounds_lost", 0) or 0)
            down += 1 if m.get("down") else 0
            carried += 1 if m.get("carried") or m.get("carried_off") else 0
    return {"missions": model.missions, "kills": kills, "wounds": wounds, "down": down,
            "carried": carried, "injuries": len(model.injuries)}


def _name(campaign: Campaign, model_id: str) -> str:
    try:
        squad, model = campaign.find(model_id)
    except KeyError:
        return model_id
    return f"{model.name} ({squad.player})"


def story(campaign: Campaign, extras: dict[int, Extras] | None = None) -> Story:
    """The chronicle of ``campaign`` (``extras``: per mission number, see :class:`Extras`)."""
    extras = extras or {}
    s = campaign.settings
    target = percent(s.target_win) if s.target_win is not None else "none (rolled)"
    intro = [f"{sq.player}: {sq.name} — {', '.join(m.name for m in sq.models)}"
             for sq in campaign.squads]
    intro.append(f"{campaign.missions_played} mission(s) played. Target win chance {target}; "
                 f"a failed survival test: down → {s.down_failure}, wounded → "
                 f"{s.wounded_failure}, injured again → {s.injured_failure}.")
    out = Story(campaign.name, intro)
    for entry in campaign.history:
        if entry.get("event") in ("replacement", "rename") and out.missions:
            out.missions[-1].after.extend(entry.get("report", []) or
                                          [f"{entry.get('new')} replaced {entry.get('fallen')}"])
            continue
        if "mission" not in entry or entry.get("event"):
            continue
        if out.missions and out.missions[-1].number == entry["mission"]:
            continue  # a record of survival tests rolled later: already in the mission
        out.missions.append(_mission(campaign, entry, extras.get(int(entry["mission"]))))
    for squad in campaign.squads:
        for m in squad.models:
            out.records.append({"name": m.name, "id": m.id, "player": squad.player,
                                "state": state_words(m), **model_record(campaign, m)})
    out.predictions = calibration(campaign.history).line()
    return out


def _mission(campaign: Campaign, entry: dict[str, Any], extra: Extras | None) -> Mission:
    number = int(entry["mission"])
    models = entry.get("models", [])
    tests = [t for e in campaign.history if e.get("mission") == number and not e.get("event")
             for t in e.get("survival_tests", [])]
    facts = []
    if entry.get("board"):
        facts.append(f"Board: {entry['board']}")
    if entry.get("enemy"):
        facts.append(f"Enemy: {entry['enemy']} at engagement level {entry.get('engagement')}")
    if entry.get("all_enemies_destroyed"):
        facts.append("Every enemy was destroyed.")
    threat = entry.get("threat")
    threat_text = None
    if threat:
        threat_text = prediction_line(threat)
        if threat.get("by") == "group":
            threat_text += " (the group chose this threat over the proposal)"
    briefing = list(entry.get("briefing") or (extra.briefing if extra else ()))
    return Mission(
        number=number, title=str(entry.get("title") or entry.get("name")
                                 or f"Mission {number}"),
        outcome=entry.get("outcome"), vp=entry.get("vp"), facts=facts, threat=threat_text,
        briefing=briefing,
        fought=[_name(campaign, i) for i in entry.get("fought", [])],
        down=[_name(campaign, m["id"]) for m in models if m.get("down")],
        fell=[f"{t['name']} ({t['player']})" for t in tests if t.get("result") == "fallen"],
        carried=[_name(campaign, m["id"]) + (" — off the table" if m.get("carried_off") else "")
                 for m in models if m.get("carried") or m.get("carried_off")],
        tests=[{"who": f"{t['name']} ({t['player']})", "roll": str(t["roll"]),
                "target": f"{t['target']} or less", "result": result_words(t)} for t in tests],
        after=[], narrative=list(entry.get("narrative", [])),
        picture=extra.picture if extra else None)


def _record_words(r: dict[str, Any]) -> str:
    """``3 missions, 2 kills, 5 wounds lost, down once, 1 injury``."""
    def n(count: int, word: str) -> str:
        return f"{count} {word}{'' if count == 1 else 's'}"

    down = {0: "never down", 1: "down once", 2: "down twice"}.get(r["down"],
                                                                  f"down {r['down']} times")
    return (f"{n(r['missions'], 'mission')}, {n(r['kills'], 'kill')}, "
            f"{n(r['wounds'], 'wound')} lost, {down}, {n(r['injuries'], 'injury')}"
            .replace("injurys", "injuries"))


def _heading(m: Mission) -> str:
    result = OUTCOME_WORDS.get(str(m.outcome), "")
    vp = ""
    if m.vp:
        sides = sorted(m.vp.items(), key=lambda kv: (kv[0] != "player", kv[0]))
        vp = " (VP " + ", ".join(f"{k} {v}" for k, v in sides) + ")"
    head = f"Mission {m.number}"
    if m.title != head:  # an unnamed mission is titled by its number alone
        head += f": {m.title}"
    return head + (f" — {result}{vp}" if result else vp)


CSS = """
:root { color-scheme: light; }
body { font: 17px/1.5 Georgia, 'Times New Roman', serif; margin: 0; color: #1d1b16;
       background: #f6f1e6; }
main { max-width: 44rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.7rem; line-height: 1.2; margin: .4rem 0 .6rem; }
h2 { font-size: 1.3rem; line-height: 1.25; margin: 0 0 .4rem; }
h3 { font-size: 1rem; margin: .8rem 0 .2rem; text-transform: uppercase; letter-spacing: .05em;
     color: #6b5a3a; }
section { background: #fffdf8; border: 1px solid #dccfb4; border-radius: .5rem;
          padding: .8rem 1rem; margin: 1rem 0; }
p { margin: .3rem 0; }
ul { margin: .2rem 0; padding-left: 1.2rem; }
.facts, .intro { color: #4a4232; }
.threat { font-style: italic; }
figure { margin: .6rem 0; }
figure img { width: 100%; height: auto; border: 1px solid #dccfb4; border-radius: .3rem; }
figcaption { font-size: .85rem; color: #6b5a3a; }
.table { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-size: .92rem; }
th, td { text-align: left; padding: .25rem .4rem; border-bottom: 1px solid #e4dac4;
         vertical-align: top; }
th { font-family: system-ui, sans-serif; font-size: .8rem; text-transform: uppercase;
     color: #6b5a3a; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
.briefing p { font-size: .92rem; color: #3d3628; }
.record-cards { display: none; list-style: none; padding: 0; }
.record-cards li { padding: .35rem 0; border-bottom: 1px solid #e4dac4; }
.record-cards .now { display: block; font-style: italic; color: #4a4232; }
@media screen and (max-width: 34rem) {
  .record-table { display: none; }
  .record-cards { display: block; }
}
.win { color: #1d6b2c; } .loss { color: #9a2121; }
@media print {
  body { background: #fff; font-size: 11pt; }
  main { max-width: none; padding: 0; }
  section { border: none; border-top: 1px solid #999; border-radius: 0; padding: .4rem 0;
            break-inside: avoid; page-break-inside: avoid; background: none; }
  figure img { max-height: 12cm; width: auto; max-width: 100%; }
  a { color: inherit; text-decoration: none; }
  .win, .loss { color: #000; }
}
"""


def html(s: Story) -> str:
    """The chronicle as one HTML page (CSS inline, pictures embedded)."""
    e = _html.escape
    parts = ["<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             f"<title>{e(s.name)} — chronicle</title><style>{CSS}</style></head><body><main>",
             f"<h1>The chronicle of {e(s.name)}</h1>", '<div class="intro">']
    parts += [f"<p>{e(line)}</p>" for line in s.intro]
    parts.append("</div>")
    for m in s.missions:
        cls = f' class="{e(str(m.outcome))}"' if m.outcome in ("win", "loss") else ""
        parts.append(f'<section id="mission-{m.number}"><h2{cls}>{e(_heading(m))}</h2>')
        if m.facts:
            parts.append(f'<p class="facts">{e(". ".join(f.rstrip(".") for f in m.facts))}.</p>')
        if m.threat:
            parts.append(f'<p class="threat">{e(m.threat)}.</p>')
        if m.briefing:
            parts.append('<h3>Briefing</h3><div class="briefing">'
                         + "".join(f"<p>{e(b)}</p>" for b in m.briefing) + "</div>")
        if m.picture:
            data = base64.b64encode(m.picture).decode("ascii")
            parts.append(f'<figure><img src="data:image/png;base64,{data}" alt="the map of '
                         f'the end of mission {m.number}"><figcaption>The end of mission '
                         f"{m.number}.</figcaption></figure>")
        for key, title, names in (("fought", "Who fought", m.fought),
                                  ("down", "Who went down", m.down),
                                  ("fell", "Who fell", m.fell),
                                  ("carried", "Carried out", m.carried)):
            if names:
                parts.append(f'<h3>{title}</h3><p data-who="{key}">{e(", ".join(names))}.</p>')
        parts += [f"<p>{e(line)}</p>" for line in m.narrative]
        if m.tests:
            rows = "".join(f"<tr><td>{e(t['who'])}</td><td class=n>{e(t['roll'])}</td>"
                           f"<td>{e(t['target'])}</td><td>{e(t['result'])}</td></tr>"
                           for t in m.tests)
            parts.append('<h3>Survival rolls</h3><div class="table"><table><tr><th>model</th>'
                         "<th>roll</th><th>needed</th><th>result</th></tr>"
                         f"{rows}</table></div>")
        if m.after:
            parts.append("<h3>After the mission</h3>" +
                         "".join(f"<p>{e(a)}</p>" for a in m.after))
        parts.append("</section>")
    parts.append('<section id="records"><h2>The squads\' records</h2>'
                 '<div class="table record-table"><table><tr><th>model</th><th>missions</th>'
                 "<th>kills</th><th>wounds lost</th><th>down</th><th>injuries</th><th>now</th>"
                 "</tr>")
    for r in s.records:
        parts.append(f"<tr><td>{e(r['name'])} ({e(r['player'])})</td>"
                     f"<td class=n>{r['missions']}</td><td class=n>{r['kills']}</td>"
                     f"<td class=n>{r['wounds']}</td><td class=n>{r['down']}</td>"
                     f"<td class=n>{r['injuries']}</td><td>{e(r['state'])}</td></tr>")
    parts.append('</table></div><ul class="record-cards">')
    for r in s.records:  # the same records as lines, for a phone's width
        parts.append(f"<li data-model=\"{e(r['id'])}\"><b>{e(r['name'])}</b> "
                     f"({e(r['player'])}): {e(_record_words(r))}"
                     f"<span class=now>{e(r['state'])}</span></li>")
    parts.append(f"</ul><p>{e(s.predictions)}</p></section>")
    parts.append("</main></body></html>")
    return "\n".join(parts) + "\n"


def markdown(s: Story, pictures: dict[int, str] | None = None) -> str:
    """The chronicle as Markdown; ``pictures``: the file name (beside it) of each mission's
    picture of its end."""
    pictures = pictures or {}
    out = [f"# The chronicle of {s.name}", ""]
    out += [f"{line}  " for line in s.intro] + [""]
    for m in s.missions:
        out += [f"## {_heading(m)}", ""]
        if m.facts:
            out += [". ".join(f.rstrip(".") for f in m.facts) + ".", ""]
        if m.threat:
            out += [f"*{m.threat}.*", ""]
        if m.briefing:
            out += ["### Briefing", ""] + [f"{b}  " for b in m.briefing] + [""]
        if m.number in pictures:
            out += [f"![The end of mission {m.number}]({pictures[m.number]})", ""]
        for title, names in (("Who fought", m.fought), ("Who went down", m.down),
                             ("Who fell", m.fell), ("Carried out", m.carried)):
            if names:
                out += [f"**{title}:** {', '.join(names)}.  "]
        out += [""] + [f"{line}  " for line in m.narrative]
        if m.tests:
            out += ["", "### Survival rolls", "", "| model | roll | needed | result |",
                    "|---|---|---|---|"]
            out += [f"| {t['who']} | {t['roll']} | {t['target']} | {t['result']} |"
                    for t in m.tests]
        if m.after:
            out += ["", "### After the mission", ""] + [f"{a}  " for a in m.after]
        out.append("")
    out += ["## The squads' records", "",
            "| model | missions | kills | wounds lost | down | injuries | now |",
            "|---|---|---|---|---|---|---|"]
    out += [f"| {r['name']} ({r['player']}) | {r['missions']} | {r['kills']} | {r['wounds']} "
            f"| {r['down']} | {r['injuries']} | {r['state']} |" for r in s.records]
    out += ["", s.predictions, ""]
    return "\n".join(out)
