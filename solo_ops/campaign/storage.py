"""The campaign save as a document: its kind, schema version, migrations and record readers.

:meth:`Campaign.to_dict <solo_ops.campaign.model.Campaign.to_dict>` writes ``kind`` and
``schema_version``; the CLI hands :data:`CAMPAIGN_KIND`, :data:`SCHEMA_VERSION` and
:data:`MIGRATIONS` to :mod:`solo_ops.io.persistence`, which reads and writes the file (this
package never writes files). The helpers here check the plain records a save holds — a model's
injuries and history, its pending survival test, the campaign's history entries — as the
``from_dict`` methods of :mod:`solo_ops.campaign.model` read them back.
"""

from __future__ import annotations

from typing import Any

from solo_ops.core.fields import Fields, join_path

CAMPAIGN_KIND = "solo-ops-campaign"
SCHEMA_VERSION = 4
"""1 had no ``links`` (the table's links, made when the campaign is first served); 2 had no
``injured_failure`` and ``target_win`` settings, no unhealed wounds, no proposal; 3 had no
seal. 4 is sealed (:mod:`solo_ops.core.seal`, :data:`SEAL_DEPTH`)."""
SEALED_SINCE = 4
"""The first schema written sealed: a save of it without a seal, or whose seal does not match,
was edited after it was saved and is refused, naming the field."""
SEAL_DEPTH = 5
"""How deep the seal names what changed: ``squads[0].models[2].state``,
``history[3].survival_tests[0].roll``. The seal covers every field a save holds, those a later
version adds included; the items of a list are chained, so the history is a hash chain."""


def _v1_to_v2(doc: dict[str, Any]) -> dict[str, Any]:
    doc.setdefault("links", None)
    return doc


def _v2_to_v3(doc: dict[str, Any]) -> dict[str, Any]:
    """A campaign started before the wounds not healed and the proposed threats keeps the
    readings it was played by: its ``wounded_failure`` as written (``injury``: a lasting
    injury with no effect on play), a second failure that only adds another
    (``injured_failure: play``), and its next missions rolled as before (no ``target_win``;
    a ``difficulty`` it was given still rates them)."""
    settings = doc.setdefault("settings", {})
    if isinstance(settings, dict):
        settings.setdefault("wounded_failure", "injury")
        settings.setdefault("injured_failure", "play")
        settings.setdefault("target_win", None)
    return doc


def _v3_to_v4(doc: dict[str, Any]) -> dict[str, Any]:
    """Schema 3 had no seal: the campaign is read as it is (its missions played checked
    against its history, as every campaign's) and sealed when it is first saved, which its
    reader does at once (:func:`solo_ops.cli.campaign_files.load_campaign`)."""
    return doc


# schema_version v -> a function turning a version v document into version v + 1
MIGRATIONS: dict[int, Any] = {1: _v1_to_v2, 2: _v2_to_v3, 3: _v3_to_v4}


def missions_in(history: list[Any]) -> int:
    """How many missions the ``history`` records: the number of its last mission record (a
    replacement is not a mission; a survival record repeats its mission's number). The
    campaign's ``missions_played`` is this, never a number kept beside it."""
    played = 0
    for entry in history:
        if isinstance(entry, dict) and "event" not in entry \
                and isinstance(entry.get("mission"), int) \
                and not isinstance(entry.get("mission"), bool):
            played = max(played, entry["mission"])
    return played


def check_mission_numbers(history: list[Any], source: str | None) -> None:
    """Refuse a history whose missions do not follow one another (1, 2, 3...; a survival
    record may repeat the mission before it): one line naming the entry."""
    last = 0
    for i, entry in enumerate(history):
        number = entry.get("mission") if isinstance(entry, dict) and "event" not in entry \
            else None
        if number is None:
            continue
        if number not in (last, last + 1) or number < 1:
            raise Fields(entry, source, join_path("history", i)).error(
                "mission", f"mission {number} follows mission {last}: the history's missions "
                           "go 1, 2, 3...")
        last = number


def _pending(m: Fields) -> dict[str, Any] | None:
    """A model's survival test still to roll: what happened to it in the mission and, when it
    went into the mission injured, ``injured`` and the ``unhealed`` wounds it carried in."""
    if not m.has("pending"):
        return None
    p = m.mapping("pending").only(("mission", "wounds_lost", "down", "carried", "carried_off",
                                   "all_enemies_destroyed", "injured", "unhealed"))
    out = {"mission": p.integer("mission", minimum=1),
           "wounds_lost": p.integer("wounds_lost", 0, minimum=0),
           "down": p.boolean("down", False), "carried": p.boolean("carried", False),
           "carried_off": p.boolean("carried_off", False),
           "all_enemies_destroyed": p.boolean("all_enemies_destroyed", False)}
    if p.has("injured"):
        out["injured"] = p.boolean("injured")
        out["unhealed"] = p.integer("unhealed", 0, minimum=0)
    return out


def _injuries(m: Fields) -> list[dict[str, Any]]:
    """A model's injuries: ``{mission, note}`` (a lasting injury) or, for a wound not healed,
    with ``wounds`` (how many it carried) and, once healed, ``healed`` (the mission)."""
    out = []
    for i, item in enumerate(m.sequence("injuries", [])):
        r = Fields(item, m.source, join_path(join_path(m.path, "injuries"), i)).only(
            ("mission", "note", "wounds", "healed"))
        injury: dict[str, Any] = {"mission": r.integer("mission", None, minimum=1),
                                  "note": r.text("note")}
        if r.has("wounds"):
            injury["wounds"] = r.integer("wounds", minimum=0)
            if r.raw("healed", None) is not None:
                injury["healed"] = r.integer("healed", minimum=1)
        out.append(injury)
    return out


def _check_history_entry(entry: Any, source: str | None, path: str) -> None:
    """A history entry of a campaign save, as far as the game reads it again: an edited entry
    (a report that is not a list of lines, a survival test without its roll...) is an input
    error naming the field, not a crash when the campaign is shown."""
    h = Fields(entry, source, path)
    h.integer("mission", None, minimum=0)
    for key in ("report", "narrative"):
        for i, line in enumerate(h.sequence(key, [])):
            if not isinstance(line, str):
                raise h.error(join_path(key, i), "expected a line of text")
    for i, test in enumerate(h.sequence("survival_tests", [])):
        t = Fields(test, source, join_path(join_path(path, "survival_tests"), i))
        t.text("name")
        t.integer("roll")
        t.integer("target")
        t.text("result")
    if h.has("files"):
        h.mapping("files")


def _records(m: Fields, key: str, keys: tuple[str, str]) -> list[dict[str, Any]]:
    out = []
    for i, item in enumerate(m.sequence(key, [])):
        r = Fields(item, m.source, join_path(join_path(m.path, key), i)).only(keys)
        out.append({keys[0]: r.integer(keys[0], None, minimum=1), keys[1]: r.text(keys[1])})
    return out

