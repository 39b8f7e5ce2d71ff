"""Squads, their models and the campaign as data: states, settings, parsing, to and from dict.

A :class:`Campaign` holds the players' :class:`Squad` s, each a list of :class:`SquadModel` s
with a campaign state — ``active``, ``wounded`` (its survival test not yet rolled),
``injured`` (a wound not healed: it starts the next mission without the wounds it lost, at least
1 left, ``unhealed_wounds``; or, under ``wounded_failure: injury``, a lasting injury with no
effect on play), ``recovering`` (failed again while injured: it misses the next mission) or
``fallen`` (lost; kept for the record, never deleted) — plus the missions played and their
history. It is plain dataclasses with ``to_dict``/``from_dict`` for the JSON save
(:mod:`solo_ops.io.persistence` writes it; :mod:`solo_ops.cli.campaign` is the edge).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from solo_ops.campaign.storage import (
    CAMPAIGN_KIND,
    SCHEMA_VERSION,
    _check_history_entry,
    _injuries,
    _pending,
    _records,
    check_mission_numbers,
    missions_in,
)
from solo_ops.campaign.threat import check_threat
from solo_ops.core.errors import InputError, excerpt
from solo_ops.core.fields import Fields, join_path, read_links
from solo_ops.core.limits import SCENARIO
from solo_ops.core.model import Profile
from solo_ops.core.names import id_key, id_problem, reserved_player
from solo_ops.core.seal import SEAL_KEY
from solo_ops.io.roster import DEFAULT_TOUGHNESS, parse_profile

ACTIVE = "active"
WOUNDED = "wounded"
INJURED = "injured"
RECOVERING = "recovering"
FALLEN = "fallen"
STATES = (ACTIVE, WOUNDED, INJURED, RECOVERING, FALLEN)

DOWN_FAILURES = ("fallen", "injured")
WOUNDED_FAILURES = ("carry", "injury", "none")
INJURED_FAILURES = ("rest", "play", "fallen")
TARGET_WIN = 0.5
"""The win chance the next missions are proposed for when ``campaign new`` is not told."""
DIFFICULTIES = ("easy", "normal", "hard", "brutal")  # solo_ops.sim.difficulty.TARGETS

SQUAD_KEYS = ("player", "name", "models", "notes")
MODEL_KEYS = ("id", "name", "profile", "notes")


def wounds_left(lost: int, most: int) -> str:
    """The wounds a model of ``most`` Wounds has left after losing ``lost`` and not healing
    them, as every line about a wound not healed says it: ``1 of 8 wounds`` (at least 1
    left: the game starts it so, ``PlacedModel.starting_wounds``)."""
    return f"{max(1, most - lost)} of {most} wounds"


# -- settings -----------------------------------------------------------------------------------
UNITS = ("in", "cm")
"""The ``units`` a campaign may set (as a scenario's ``units`` setting)."""


@dataclass
class CampaignSettings:
    """The campaign's rule choices (RULES-NOTES: "Both outcomes are settings"; docs/rules.md
    "Campaign"), chosen at ``campaign new``.

    ``down_failure``: what a failed survival test does to a model that went down — ``fallen``
    (it is lost) or ``injured`` (it is hurt as a wounded model is, every wound lost).
    ``wounded_failure``: what it does to a model that was only wounded — ``carry`` (the wound is
    not healed: 003 "A successful roll will heal the wound"; it starts the next mission without
    the wounds it lost, at least 1 left), ``injury`` (a lasting injury with no effect on play)
    or ``none``. ``injured_failure``: what a failed test does to a model already injured going
    into the mission — ``rest`` (it misses the next mission to recover, then comes back
    healed), ``play`` (it plays on, still hurt) or ``fallen``.
    ``default_toughness``: the Toughness of a profile without one (Kill Team 2024).
    """

    down_failure: str = "fallen"
    wounded_failure: str = "carry"
    injured_failure: str = "rest"
    default_toughness: int = DEFAULT_TOUGHNESS
    target_win: float | None = TARGET_WIN
    """The players' win chance the next missions are proposed for (``--target-win``): each
    next mission's enemy and engagement level are rated by simulated missions of the squads as
    they stand; ``None``: rolled as ``solo-ops new`` rolls them (D3+1)."""
    units: str | None = None
    """How the missions show and read distances (``in`` or ``cm``); ``None``: each mission's
    own ``units`` setting (inches). Written to the campaign file only when set."""
    difficulty: str | None = None
    """``easy``, ``normal``, ``hard`` or ``brutal``: each next mission's engagement level is
    the one rated nearest that word's win rate (``solo-ops new --difficulty``); ``None``: the
    generator's D3+1. Written to the campaign file only when set."""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"down_failure": self.down_failure,
                               "wounded_failure": self.wounded_failure,
                               "injured_failure": self.injured_failure,
                               "default_toughness": self.default_toughness,
                               "target_win": self.target_win}
        if self.units is not None:
            out["units"] = self.units
        if self.difficulty is not None:
            out["difficulty"] = self.difficulty
        return out

    @classmethod
    def from_dict(cls, data: Any, source: str | None = None,
                  path: str = "settings") -> CampaignSettings:
        s = Fields(data, source, path).only(("down_failure", "wounded_failure",
                                             "injured_failure", "default_toughness", "units",
                                             "difficulty", "target_win"))
        off = isinstance(s.data, dict) and "target_win" in s.data and s.data["target_win"] is None
        target = None if off else s.number("target_win", TARGET_WIN, minimum=0)
        if target is not None and not 0 < target < 1:
            raise s.error("target_win", f"{target:g} is not a chance between 0 and 1 "
                                        "(exclusive)")
        return cls(
            units=s.choice("units", UNITS, None),
            difficulty=s.choice("difficulty", DIFFICULTIES, None),
            down_failure=s.choice("down_failure", DOWN_FAILURES, "fallen"),
            wounded_failure=s.choice("wounded_failure", WOUNDED_FAILURES, "carry"),
            injured_failure=s.choice("injured_failure", INJURED_FAILURES, "rest"),
            default_toughness=s.integer("default_toughness", DEFAULT_TOUGHNESS, minimum=1,
                                        maximum=12),
            target_win=target,
        )


# -- squads -------------------------------------------------------------------------------------
def _plain(value: Any, source: str | None, path: str) -> Any:
    """A JSON-safe deep copy of ``value`` (a profile as written), or an error naming it."""
    try:
        return json.loads(json.dumps(value, allow_nan=False))
    except (TypeError, ValueError):
        raise InputError("holds a value that is not plain data (text, numbers, lists, "
                         "mappings)", source=source, field=path) from None


@dataclass
class SquadModel:
    """One member of a player's squad and its campaign record.

    ``profile`` is the profile as the squad file wrote it (plain data, the roster keys), so the
    save keeps exactly what the player typed; :meth:`parsed_profile` gives the checked
    :class:`Profile`. ``injuries`` are the failed survival tests that left a mark
    (``{"mission", "note"}``: a lasting injury; with ``wounds``: a wound not healed, which
    ``healed`` names the mission of once it is), ``history`` the model's own story
    (``{"mission", "text"}``; mission None for events between missions).
    ``unhealed_wounds``: the wounds it lost and has not healed — it starts the next mission
    without them, at least 1 left (:meth:`starting_wounds_lost`).
    """

    id: str
    name: str
    profile: dict[str, Any]
    state: str = ACTIVE
    injuries: list[dict[str, Any]] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)
    missions: int = 0
    replaces: str | None = None
    replaced_by: str | None = None
    pending: dict[str, Any] | None = None
    unhealed_wounds: int = 0

    def parsed_profile(self, source: str | None = None, path: str | None = None) -> Profile:
        """The checked profile (raises :class:`InputError` naming ``source`` and the field)."""
        return parse_profile(self.profile, source, path or f"{self.id}.profile", self.id)

    def toughness(self, settings: CampaignSettings) -> int:
        """Toughness for survival tests: the profile's, else the ``default_toughness`` setting."""
        if self.profile.get("toughness") is not None:
            return self.parsed_profile().toughness
        return settings.default_toughness

    @property
    def can_play(self) -> bool:
        """Whether it can take the field next mission (not ``fallen`` nor ``recovering``)."""
        return self.state not in (FALLEN, RECOVERING)

    @property
    def lasting_injuries(self) -> list[dict[str, Any]]:
        """Its lasting injuries (``wounded_failure: injury``): the ones no roll heals."""
        return [i for i in self.injuries if i.get("wounds") is None]

    @property
    def open_wound(self) -> bool:
        """Whether it carries a wound not healed (``wounded_failure: carry``): it takes a
        survival test after its next mission even if it is not hurt again."""
        return any(i.get("wounds") is not None and i.get("healed") is None
                   for i in self.injuries)

    def heal(self, mission: int | None) -> None:
        """Its wounds healed: none unhealed, its open wound marked healed in ``mission``, and
        ``active`` again (``injured`` while it keeps a lasting injury)."""
        self.unhealed_wounds = 0
        for injury in self.injuries:
            if injury.get("wounds") is not None and injury.get("healed") is None:
                injury["healed"] = mission
        self.state = INJURED if self.lasting_injuries else ACTIVE

    def starting_wounds_lost(self) -> int:
        """The wounds it starts its next mission without (a scenario's ``wounds_lost``: the
        game leaves it at least 1)."""
        return self.unhealed_wounds if self.state == INJURED else 0

    def note(self, mission: int | None, text: str) -> None:
        """Add an entry to the model's history."""
        self.history.append({"mission": mission, "text": text})

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id, "name": self.name, "profile": copy.deepcopy(self.profile),
            "state": self.state, "injuries": copy.deepcopy(self.injuries),
            "history": copy.deepcopy(self.history), "missions": self.missions,
        }
        if self.replaces:
            data["replaces"] = self.replaces
        if self.replaced_by:
            data["replaced_by"] = self.replaced_by
        if self.pending is not None:
            data["pending"] = dict(self.pending)
        if self.unhealed_wounds:
            data["unhealed_wounds"] = self.unhealed_wounds
        return data

    @classmethod
    def from_dict(cls, data: Any, source: str | None, path: str) -> SquadModel:
        """A model from a campaign save (every key checked)."""
        m = Fields(data, source, path).only(("id", "name", "profile", "state", "injuries",
                                             "history", "missions", "replaces",
                                             "replaced_by", "pending", "unhealed_wounds"))
        model = cls(
            id=m.text("id"),
            name=m.text("name"),
            profile=dict(m.mapping("profile").data),
            state=m.choice("state", STATES),
            injuries=_injuries(m),
            history=_records(m, "history", ("mission", "text")),
            missions=m.integer("missions", 0, minimum=0),
            replaces=m.text("replaces", None),
            replaced_by=m.text("replaced_by", None),
            pending=_pending(m),
            unhealed_wounds=m.integer("unhealed_wounds", 0, minimum=0, maximum=1000),
        )
        model.parsed_profile(source, join_path(path, "profile"))
        return model


def parse_squad_model(data: Any, source: str | None, path: str) -> SquadModel:
    """A squad file's model entry ``{id, name, profile}`` (profile keys as in a roster)."""
    m = Fields(data, source, path).only(MODEL_KEYS)
    model_id = m.text("id")
    problem = id_problem(model_id)
    if problem is not None:
        raise m.error("id", problem)
    profile_data = m.mapping("profile")
    profile = parse_profile(profile_data.data, source, profile_data.path, model_id)
    del profile  # checked; the save keeps the profile as written
    name = m.text("name", model_id)
    return SquadModel(id=model_id, name=name,
                      profile=_plain(dict(profile_data.data), source, profile_data.path))


@dataclass
class Squad:
    """One player's squad: its models in order, the fallen included."""

    player: str
    name: str
    models: list[SquadModel]

    def model(self, model_id: str) -> SquadModel:
        """The model with ``model_id`` (KeyError when there is none)."""
        for m in self.models:
            if m.id == model_id:
                return m
        raise KeyError(model_id)

    def playable(self) -> list[SquadModel]:
        """The models that can take the field next mission (not fallen nor recovering)."""
        return [m for m in self.models if m.can_play]

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "name": self.name,
                "models": [m.to_dict() for m in self.models]}

    @classmethod
    def from_dict(cls, data: Any, source: str | None, path: str) -> Squad:
        s = Fields(data, source, path).only(("player", "name", "models"))
        models = [SquadModel.from_dict(item, source, join_path(join_path(path, "models"), i))
                  for i, item in enumerate(s.sequence("models"))]
        return cls(s.text("player"), s.text("name"), models)


def parse_squad(data: Any, source: str | None) -> Squad:
    """A squad file (INTERFACES.md "Squad"): ``player``, ``name``, ``models``.

    Every problem is an :class:`InputError` naming ``source`` and the field, e.g.
    ``vesper.yaml: models[1].profile.wounds: is required``.
    """
    s = Fields(data, source).only(SQUAD_KEYS)
    player = s.text("player")
    if reserved_player(player):
        raise s.error("player", str(reserved_player(player)))
    items = s.sequence("models")
    if not items:
        raise s.error("models", "a squad needs at least one model")
    if len(items) > SCENARIO.models:
        raise s.error("models", f"has {len(items)} models; a squad may have at most "
                                f"{SCENARIO.models}")
    models: list[SquadModel] = []
    for i, item in enumerate(items):
        where = join_path("models", i)
        model = parse_squad_model(item, source, where)
        if any(id_key(m.id) == id_key(model.id) for m in models):
            raise InputError(f"duplicate model id {excerpt(model.id)} (ids match ignoring "
                             "case)", source=source, field=join_path(where, "id"))
        models.append(model)
    return Squad(player=player, name=s.text("name", f"{player}'s squad"), models=models)


# -- the campaign -------------------------------------------------------------------------------
@dataclass
class Campaign:
    """A campaign: its squads and their history (one dict per mission, and one per
    replacement); the missions played are the history's (:attr:`missions_played`)."""

    name: str
    squads: list[Squad]
    settings: CampaignSettings = field(default_factory=CampaignSettings)
    history: list[dict[str, Any]] = field(default_factory=list)
    schema_version: int = SCHEMA_VERSION
    links: dict[str, Any] | None = None
    """The campaign's links at the table (``campaign serve``): one token per player and the
    host's, made once and kept for every mission (:mod:`solo_ops.session.links`)."""
    threat: dict[str, Any] | None = None
    """The next mission's threat while it is set up and played: the enemy and level proposed
    for the win chance the group chose, what is played and its prediction
    (:mod:`solo_ops.campaign.threat`); moved into the mission's history record when it is
    recorded."""

    @property
    def missions_played(self) -> int:
        """How many missions were played: the history's last mission record
        (:func:`~solo_ops.campaign.storage.missions_in`), so the two can never disagree."""
        return missions_in(self.history)

    def squad(self, player: str) -> Squad:
        """The squad of ``player`` (an :class:`InputError` listing the players otherwise)."""
        for s in self.squads:
            if s.player == player:
                return s
        known = ", ".join(s.player for s in self.squads)
        raise InputError(f"no squad for player {player!r} (players: {known})",
                         source="--player")

    def find(self, model_id: str) -> tuple[Squad, SquadModel]:
        """The squad and model with ``model_id`` (ids are unique across the campaign)."""
        for s in self.squads:
            for m in s.models:
                if m.id == model_id:
                    return s, m
        raise KeyError(model_id)

    def model_ids(self) -> list[str]:
        return [m.id for s in self.squads for m in s.models]

    def to_dict(self) -> dict[str, Any]:
        """The save document (``kind`` and ``schema_version`` included)."""
        return {
            "schema_version": SCHEMA_VERSION, "kind": CAMPAIGN_KIND, "name": self.name,
            "settings": self.settings.to_dict(), "missions_played": self.missions_played,
            "squads": [s.to_dict() for s in self.squads],
            "history": copy.deepcopy(self.history),
            "links": copy.deepcopy(self.links),
            **({"threat": copy.deepcopy(self.threat)} if self.threat is not None else {}),
        }

    @classmethod
    def from_dict(cls, data: Any, source: str | None = None) -> Campaign:
        """A campaign from its (already migrated) save document; errors name the field."""
        c = Fields(data, source).only(("schema_version", "kind", "name", "settings",
                                       "missions_played", "squads", "history", "links",
                                       "threat", SEAL_KEY))
        squads = [Squad.from_dict(item, source, join_path("squads", i))
                  for i, item in enumerate(c.sequence("squads"))]
        history = c.sequence("history", [])
        for i, entry in enumerate(history):
            _check_history_entry(entry, source, join_path("history", i))
            if isinstance(entry, dict) and entry.get("threat") is not None:
                check_threat(entry["threat"], source, join_path(join_path("history", i),
                                                                "threat"))
        check_mission_numbers(history, source)
        played = c.integer("missions_played", missions_in(history), minimum=0)
        if played != missions_in(history):
            raise c.error("missions_played", f"says {played} missions were played, the "
                                             f"history records {missions_in(history)}")
        threat = c.raw("threat", None)
        if threat is not None:
            threat = check_threat(threat, source, "threat")
        campaign = cls(
            name=c.text("name"),
            squads=squads,
            settings=CampaignSettings.from_dict(c.raw("settings", {}), source),
            history=history,
            links=read_links(c.raw("links", None), source or "campaign"),
            threat=threat,
        )
        _check_unique_ids(campaign, source)
        return campaign


def _check_unique_ids(campaign: Campaign, source: str | None) -> None:
    """A saved campaign's ids are unique as written (a campaign saved before ids were compared
    ignoring case still loads: :func:`unnameable` finds such ids before a mission is played,
    and ``campaign rename`` mends them)."""
    seen: dict[str, str] = {}
    for i, s in enumerate(campaign.squads):
        if s.player in [q.player for q in campaign.squads[:i]]:
            raise InputError(f"two squads for player {s.player!r}", source=source,
                             field=join_path(join_path("squads", i), "player"))
        for j, m in enumerate(s.models):
            if m.id in seen:
                raise InputError(
                    f"model id {m.id!r} is already used in {seen[m.id]}'s squad (ids must be "
                    "unique across the campaign: the game table holds every squad)",
                    source=source,
                    field=join_path(join_path(join_path("squads", i), "models"), j) + ".id")
            seen[m.id] = s.player


def unnameable(campaign: Campaign) -> list[tuple[str, str]]:
    """The ids of the campaign's models that an answer could not name, each with why: not one
    word (:func:`~solo_ops.core.names.id_problem`) or the same as another's ignoring case
    (answers match ids so). Only a campaign saved before these were refused has any; a
    mission cannot be played with them (``campaign rename`` gives such a model a new id)."""
    out: list[tuple[str, str]] = []
    seen: dict[str, str] = {}
    for m in (m for s in campaign.squads for m in s.models):
        problem = id_problem(m.id)
        if problem is not None:
            out.append((m.id, problem))
        elif id_key(m.id) in seen:
            out.append((m.id, f"id {m.id!r} is {seen[id_key(m.id)]!r} to an answer (ids are "
                              "matched ignoring case)"))
        seen.setdefault(id_key(m.id), m.id)
    return out


def new_campaign(name: str, squads: Iterable[Squad],
                 settings: CampaignSettings | None = None,
                 sources: list[str] | None = None) -> Campaign:
    """Start a campaign with ``squads`` (one per player; model ids unique across all).

    ``sources`` (the squad files, in the same order) are named in errors.
    """
    squads = list(squads)
    if not squads:
        raise InputError("a campaign needs at least one squad", source="--squad")
    campaign = Campaign(name=name, squads=[], settings=settings or CampaignSettings())
    for i, squad in enumerate(squads):
        add_squad(campaign, squad, sources[i] if sources and i < len(sources) else None)
    for s in squads:
        for m in s.models:
            m.note(None, f"joined {s.name} ({s.player}) at the start of the campaign")
    return campaign


def add_squad(campaign: Campaign, squad: Squad, source: str | None = None) -> None:
    """Add a squad read from ``source``; its player and model ids must be new, and a campaign
    sends every squad on each mission, so it holds at most as many as a scenario may."""
    if len(campaign.squads) >= SCENARIO.squads:
        raise InputError(f"a campaign has at most {SCENARIO.squads} squads (the most a "
                         "mission can hold)", source=source)
    for s in campaign.squads:
        if s.player == squad.player:
            raise InputError(f"two squads for player {squad.player!r}", source=source,
                             field="player")
    taken = {id_key(i): i for i in campaign.model_ids()}
    for j, m in enumerate(squad.models):
        if id_key(m.id) in taken:
            owner = campaign.find(taken[id_key(m.id)])[0].player
            raise InputError(f"model id {m.id!r} is already used in {owner}'s squad (ids must "
                             "be unique across the campaign, ignoring case)", source=source,
                             field=f"models[{j}].id")
    campaign.squads.append(squad)

