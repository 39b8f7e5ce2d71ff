"""The campaign: the players' squads carried from mission to mission (pure logic, no files).

A :class:`Campaign` holds the players' :class:`Squad` s, each a list of :class:`SquadModel` s
with a campaign state — ``active``, ``wounded`` (hurt in the last mission, its survival test
not yet rolled), ``injured`` (carries at least one lasting injury; still plays) or ``fallen``
(lost; kept for the record, never deleted) — plus the missions played and their history. It is
plain dataclasses with ``to_dict``/``from_dict`` for the JSON save (:mod:`solo_ops.io.persistence`
writes it; :mod:`solo_ops.cli.campaign` is the edge).

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

The carrying rules are here too, as helpers the game loop can call on its operatives
(:class:`solo_ops.game.state.Operative` has the fields they use): :func:`start_carry`,
:func:`carry_move_limit`, :func:`carry_move_allowance`, :func:`counts_as_moved`,
:func:`carried_to_safety`. :func:`result_from_state` turns the end-of-mission game state into
the :class:`MissionResult` that :func:`record_mission` applies.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from solo_ops.core.dice import Dice, RollEntry
from solo_ops.core.errors import InputError, RuleError, excerpt
from solo_ops.core.fields import Fields, join_path
from solo_ops.core.limits import SCENARIO
from solo_ops.core.model import Profile
from solo_ops.io.roster import DEFAULT_TOUGHNESS, parse_profile

if TYPE_CHECKING:
    from solo_ops.game.state import State


CAMPAIGN_KIND = "solo-ops-campaign"
SCHEMA_VERSION = 1
# schema_version v -> a function turning a version v document into version v + 1
MIGRATIONS: dict[int, Any] = {}

ACTIVE = "active"
WOUNDED = "wounded"
INJURED = "injured"
FALLEN = "fallen"
STATES = (ACTIVE, WOUNDED, INJURED, FALLEN)

DOWN_FAILURES = ("fallen", "injured")
WOUNDED_FAILURES = ("injury", "none")
OUTCOMES = ("win", "loss", "draw")
DIFFICULTIES = ("easy", "normal", "hard", "brutal")  # solo_ops.sim.difficulty.TARGETS

ALL_DESTROYED_BONUS = 1
CARRIED_BONUS = 1
CARRY_MOVE_LIMIT = 4.0

SQUAD_KEYS = ("player", "name", "models", "notes")
MODEL_KEYS = ("id", "name", "profile", "notes")


# -- settings -----------------------------------------------------------------------------------
UNITS = ("in", "cm")
"""The ``units`` a campaign may set (as a scenario's ``units`` setting)."""


@dataclass
class CampaignSettings:
    """The campaign's rule choices (RULES-NOTES: "Both outcomes are settings").

    ``down_failure``: what a failed survival test does to a model that went down — ``fallen``
    (it is lost) or ``injured`` (it keeps a lasting injury). ``wounded_failure``: what it does to
    a model that was only wounded — ``injury`` (a lasting injury) or ``none``.
    ``default_toughness``: the Toughness of a profile without one (Kill Team 2024).
    """

    down_failure: str = "fallen"
    wounded_failure: str = "injury"
    default_toughness: int = DEFAULT_TOUGHNESS
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
                               "default_toughness": self.default_toughness}
        if self.units is not None:
            out["units"] = self.units
        if self.difficulty is not None:
            out["difficulty"] = self.difficulty
        return out

    @classmethod
    def from_dict(cls, data: Any, source: str | None = None,
                  path: str = "settings") -> CampaignSettings:
        s = Fields(data, source, path).only(("down_failure", "wounded_failure",
                                             "default_toughness", "units", "difficulty"))
        return cls(
            units=s.choice("units", UNITS, None),
            difficulty=s.choice("difficulty", DIFFICULTIES, None),
            down_failure=s.choice("down_failure", DOWN_FAILURES, "fallen"),
            wounded_failure=s.choice("wounded_failure", WOUNDED_FAILURES, "injury"),
            default_toughness=s.integer("default_toughness", DEFAULT_TOUGHNESS, minimum=1,
                                        maximum=12),
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
    :class:`Profile`. ``injuries`` are lasting injuries (``{"mission", "note"}``), ``history``
    the model's own story (``{"mission", "text"}``; mission None for events between missions).
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
        """Whether it can take the field (every state but ``fallen``)."""
        return self.state != FALLEN

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
        return data

    @classmethod
    def from_dict(cls, data: Any, source: str | None, path: str) -> SquadModel:
        """A model from a campaign save (every key checked)."""
        m = Fields(data, source, path).only(("id", "name", "profile", "state", "injuries",
                                             "history", "missions", "replaces",
                                             "replaced_by", "pending"))
        model = cls(
            id=m.text("id"),
            name=m.text("name"),
            profile=dict(m.mapping("profile").data),
            state=m.choice("state", STATES),
            injuries=_records(m, "injuries", ("mission", "note")),
            history=_records(m, "history", ("mission", "text")),
            missions=m.integer("missions", 0, minimum=0),
            replaces=m.text("replaces", None),
            replaced_by=m.text("replaced_by", None),
            pending=_pending(m),
        )
        model.parsed_profile(source, join_path(path, "profile"))
        return model


def _pending(m: Fields) -> dict[str, Any] | None:
    if not m.has("pending"):
        return None
    p = m.mapping("pending").only(("mission", "wounds_lost", "down", "carried", "carried_off",
                                   "all_enemies_destroyed"))
    return {"mission": p.integer("mission", minimum=1),
            "wounds_lost": p.integer("wounds_lost", 0, minimum=0),
            "down": p.boolean("down", False), "carried": p.boolean("carried", False),
            "carried_off": p.boolean("carried_off", False),
            "all_enemies_destroyed": p.boolean("all_enemies_destroyed", False)}


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


def parse_squad_model(data: Any, source: str | None, path: str) -> SquadModel:
    """A squad file's model entry ``{id, name, profile}`` (profile keys as in a roster)."""
    m = Fields(data, source, path).only(MODEL_KEYS)
    model_id = m.text("id")
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
        """The models that can take the field next mission (not fallen)."""
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
        if any(m.id == model.id for m in models):
            raise InputError(f"duplicate model id {excerpt(model.id)}", source=source,
                             field=join_path(where, "id"))
        models.append(model)
    return Squad(player=player, name=s.text("name", f"{player}'s squad"), models=models)


# -- the campaign -------------------------------------------------------------------------------
@dataclass
class Campaign:
    """A campaign: its squads, the missions played and their history (one dict per mission)."""

    name: str
    squads: list[Squad]
    settings: CampaignSettings = field(default_factory=CampaignSettings)
    missions_played: int = 0
    history: list[dict[str, Any]] = field(default_factory=list)
    schema_version: int = SCHEMA_VERSION

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
        }

    @classmethod
    def from_dict(cls, data: Any, source: str | None = None) -> Campaign:
        """A campaign from its (already migrated) save document; errors name the field."""
        c = Fields(data, source).only(("schema_version", "kind", "name", "settings",
                                       "missions_played", "squads", "history"))
        squads = [Squad.from_dict(item, source, join_path("squads", i))
                  for i, item in enumerate(c.sequence("squads"))]
        history = c.sequence("history", [])
        for i, entry in enumerate(history):
            _check_history_entry(entry, source, join_path("history", i))
        campaign = cls(
            name=c.text("name"),
            squads=squads,
            settings=CampaignSettings.from_dict(c.raw("settings", {}), source),
            missions_played=c.integer("missions_played", 0, minimum=0),
            history=history,
        )
        _check_unique_ids(campaign, source)
        return campaign


def _check_unique_ids(campaign: Campaign, source: str | None) -> None:
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


def scenario_squads(campaign: Campaign) -> list[dict[str, Any]]:
    """The campaign's squads as a scenario's ``squads`` entries (INTERFACES.md "Scenario"):
    every model that can play (not fallen), with its profile inline and no position (the
    game deploys it). Model ids are the campaign's, so :func:`result_from_state` maps back."""
    return [{"player": s.player, "name": s.name,
             "models": [{"id": m.id, "name": m.name, "profile": copy.deepcopy(m.profile)}
                        for m in s.playable()]}
            for s in campaign.squads if s.playable()]


def add_squad(campaign: Campaign, squad: Squad, source: str | None = None) -> None:
    """Add a squad read from ``source``; its player and model ids must be new."""
    for s in campaign.squads:
        if s.player == squad.player:
            raise InputError(f"two squads for player {squad.player!r}", source=source,
                             field="player")
    taken = set(campaign.model_ids())
    for j, m in enumerate(squad.models):
        if m.id in taken:
            owner = campaign.find(m.id)[0].player
            raise InputError(f"model id {m.id!r} is already used in {owner}'s squad (ids must "
                             "be unique across the campaign)", source=source,
                             field=f"models[{j}].id")
    campaign.squads.append(squad)


# -- mission results ----------------------------------------------------------------------------
@dataclass(frozen=True)
class ModelOutcome:
    """What happened to one squad model in a mission.

    ``carried``: it was still being carried by a friend when the game ended; ``carried_off``: a
    friend carried it off the table. Either counts as carried to safety (RULES-NOTES).
    """

    id: str
    wounds_lost: int = 0
    went_down: bool = False
    carried: bool = False
    carried_off: bool = False
    player: str | None = None

    @property
    def harmed(self) -> bool:
        """Lost wounds or went down: it must take a survival test."""
        return self.went_down or self.wounds_lost > 0

    @property
    def carried_to_safety(self) -> bool:
        return self.carried or self.carried_off


@dataclass(frozen=True)
class MissionResult:
    """A mission's end as the campaign needs it (from the game loop or a result file).

    Models not listed took no harm. ``all_enemies_destroyed`` means no enemy model left on the
    table and no unresolved counter (docs/rules.md).
    """

    models: tuple[ModelOutcome, ...] = ()
    all_enemies_destroyed: bool = False
    mission: str | None = None
    outcome: str | None = None
    vp: dict[str, int] | None = None
    narrative: tuple[str, ...] = ()


RESULT_KEYS = ("mission", "outcome", "vp", "all_enemies_destroyed", "models", "narrative",
               "notes")
OUTCOME_KEYS = ("id", "player", "wounds_lost", "down", "carried", "carried_off", "notes")


def parse_mission_result(data: Any, source: str | None) -> MissionResult:
    """A mission result file (documented in ``docs/campaign-notes.md``)::

        mission: Night raid             # optional: a name for the history
        outcome: win                    # optional: win | loss | draw
        vp: {player: 5, enemy: 2}       # optional
        all_enemies_destroyed: true     # default false
        models:                         # the models that were hurt or carried; others unharmed
          - {id: sgt, wounds_lost: 3}
          - {id: gunner, down: true, carried: true}      # still carried at the end
          - {id: vox, player: Ana, down: true, carried_off: true}   # carried off the table
        narrative: ["The vox-caster was recovered."]
    """
    r = Fields(data, source).only(RESULT_KEYS)
    models = []
    seen: set[str] = set()
    for i, item in enumerate(r.sequence("models", [])):
        where = join_path("models", i)
        m = Fields(item, source, where).only(OUTCOME_KEYS)
        mid = m.text("id")
        if mid in seen:
            raise m.error("id", f"model {mid!r} is listed twice")
        seen.add(mid)
        down = m.boolean("down", False)
        carried = m.boolean("carried", False)
        carried_off = m.boolean("carried_off", False)
        if (carried or carried_off) and not down:
            raise m.error("carried_off" if carried_off else "carried",
                          "only a model that went down can be carried (add down: true)")
        models.append(ModelOutcome(
            id=mid, wounds_lost=m.integer("wounds_lost", 0, minimum=0), went_down=down,
            carried=carried, carried_off=carried_off, player=m.text("player", None)))
    vp = None
    if r.has("vp"):
        v = r.mapping("vp")
        vp = {str(k): v.integer(str(k), minimum=0) for k in v.data}
    narrative = r.raw("narrative", [])
    if isinstance(narrative, str):
        narrative = [narrative]
    if not isinstance(narrative, list) or not all(isinstance(x, str) for x in narrative):
        raise r.error("narrative", "expected a list of lines of text")
    return MissionResult(
        models=tuple(models),
        all_enemies_destroyed=r.boolean("all_enemies_destroyed", False),
        mission=r.text("mission", None),
        outcome=r.choice("outcome", OUTCOMES, None),
        vp=vp,
        narrative=tuple(narrative),
    )


def result_from_state(state: State, *, mission: str | None = None,
                      narrative: Iterable[str] = ()) -> MissionResult:
    """The :class:`MissionResult` of an ended game (:class:`solo_ops.game.state.State`).

    Reads every player-side operative's ``wounds_lost``, ``went_down``/``down``,
    ``carried_by`` (still carried: carried to safety) and ``carried_to_safety`` (carried off
    the table, or marked at the end), and ``state.result`` for the outcome, VP and whether
    every enemy was destroyed. Operative ids must be the campaign's model ids.
    """
    outcomes = []
    for op in state.operatives.values():
        if getattr(op, "side", None) != "player":
            continue
        down = bool(getattr(op, "went_down", False) or getattr(op, "down", False))
        still_carried = getattr(op, "carried_by", None) is not None
        off = bool(getattr(op, "carried_to_safety", False)) and not still_carried
        outcomes.append(ModelOutcome(
            id=op.id, wounds_lost=int(getattr(op, "wounds_lost", 0) or 0), went_down=down,
            carried=down and still_carried, carried_off=down and off,
            player=getattr(op, "owner", None)))
    result = getattr(state, "result", None) or {}
    vp = result.get("vp")
    return MissionResult(
        models=tuple(outcomes),
        all_enemies_destroyed=bool(result.get("all_enemies_destroyed", False)),
        mission=mission,
        outcome=result.get("outcome") if result.get("outcome") in OUTCOMES else None,
        vp=dict(vp) if isinstance(vp, Mapping) else None,
        narrative=tuple(narrative),
    )


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


def _harm_text(outcome: ModelOutcome) -> str:
    how = "went down" if outcome.went_down else f"lost {outcome.wounds_lost} wound(s)"
    if outcome.carried_off:
        how += ", carried off the table to safety"
    elif outcome.carried:
        how += ", carried to safety"
    return how


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
    campaign.missions_played = number
    campaign.history.append(record)
    if not pending_tests(campaign):
        report.append("No survival test: nobody was hurt.")
        return MissionReport(number, (), tuple(report), record)
    if dice is None:
        report.append("Survival tests are still to roll.")
        return MissionReport(number, (), tuple(report), record)
    return run_survival_tests(campaign, dice)


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


def replace_model(campaign: Campaign, player: str, fallen_id: str, new_model: SquadModel,
                  *, source: str | None = None) -> SquadModel:
    """Bring ``new_model`` into ``player``'s squad in place of the fallen ``fallen_id``.

    The fallen model stays in the squad (state ``fallen``, ``replaced_by`` set, a history
    entry); the newcomer is added after it with ``replaces`` set. Its id must be new to the
    campaign (fallen ids stay taken). ``source`` names the new model's file in errors.
    """
    squad = campaign.squad(player)
    try:
        fallen = squad.model(fallen_id)
    except KeyError:
        raise InputError(f"no model {fallen_id!r} in {player}'s squad (models: "
                         f"{', '.join(m.id for m in squad.models)})", source="--model") \
            from None
    if fallen.state != FALLEN:
        raise InputError(f"{fallen.name} ({fallen_id}) is {fallen.state}, not fallen: only a "
                         "fallen model can be replaced", source="--model")
    if fallen.replaced_by:
        raise InputError(f"{fallen.name} ({fallen_id}) was already replaced by "
                         f"{fallen.replaced_by}", source="--model")
    if new_model.id in campaign.model_ids():
        raise InputError(f"model id {new_model.id!r} is already used in the campaign (ids "
                         "stay taken, even by the fallen)", source=source, field="id")
    after = campaign.missions_played or None
    new_model.replaces = fallen_id
    new_model.state = ACTIVE
    new_model.note(after, f"joined {squad.name} in place of {fallen.name} ({fallen_id})")
    fallen.replaced_by = new_model.id
    fallen.note(after, f"replaced by {new_model.name} ({new_model.id})")
    squad.models.insert(squad.models.index(fallen) + 1, new_model)
    campaign.history.append({"event": "replacement", "after_mission": campaign.missions_played,
                             "player": player, "fallen": fallen_id, "new": new_model.id,
                             "report": [f"{new_model.name} ({new_model.id}) joins "
                                        f"{squad.name} in place of {fallen.name}."]})
    return new_model


# -- carrying -----------------------------------------------------------------------------------
class Carrier(Protocol):
    """What the carrying helpers need of an operative (:class:`solo_ops.game.state.Operative`)."""

    id: str
    name: str
    down: bool
    carrying: str | None
    carried_by: str | None
    carried_to_safety: bool
    moved: bool


def start_carry(carrier: Carrier, downed: Carrier) -> dict[str, Any]:
    """``carrier`` has moved to its downed friend ``downed`` and picks it up.

    Sets ``carrier.carrying`` and ``downed.carried_by``; the carrier counts as having moved and
    its actions end for the turn (a Kill Team 2024 operative's AP are spent: ``ap_used`` is
    raised to its APL, when it has those fields). Returns an event for the game log. Raises
    :class:`RuleError` when the pick-up is not allowed. It does not check distance: the caller
    has moved the carrier into base contact (control range) first.
    """
    if getattr(carrier, "down", False):
        raise RuleError(f"{carrier.name} is down and cannot carry anyone")
    if not getattr(downed, "down", False):
        raise RuleError(f"{downed.name} is not down: only a downed friend can be carried")
    if getattr(carrier, "side", None) != getattr(downed, "side", None):
        raise RuleError(f"{downed.name} is not a friend of {carrier.name}")
    if carrier.id == downed.id:
        raise RuleError("a model cannot carry itself")
    if downed.carried_by is not None:
        raise RuleError(f"{downed.name} is already carried by {downed.carried_by}")
    if carrier.carrying is not None:
        raise RuleError(f"{carrier.name} is already carrying {carrier.carrying}")
    carrier.carrying = downed.id
    downed.carried_by = carrier.id
    carrier.moved = True
    profile = getattr(carrier, "profile", None)
    if hasattr(carrier, "ap_used") and profile is not None:
        carrier.ap_used = max(int(carrier.ap_used), int(profile.apl))
    return {"type": "carry", "operative": carrier.id, "carried": downed.id,
            "ends_actions": True, "counts_as_moved": True, "move_limit": CARRY_MOVE_LIMIT}


def carry_move_limit(carrier: Any = None) -> float:
    """How far a carrier may move in a turn: 4 inches (RULES-NOTES "Carrying")."""
    return CARRY_MOVE_LIMIT


def carry_move_allowance(op: Any, allowance: float) -> float:
    """The move ``op`` may still make: ``allowance``, capped for a carrier at 4" a turn less
    what it has moved this turn (``turn_move``): :func:`solo_ops.rules.reach.carry_cap`."""
    from solo_ops.rules import reach

    return reach.carry_cap(op, allowance)


def counts_as_moved(op: Any) -> bool:
    """Whether ``op`` counts as having moved (for shooting): a carrier always does."""
    return bool(getattr(op, "moved", False)) or getattr(op, "carrying", None) is not None


def carried_to_safety(op: Any, *, game_over: bool = True) -> bool:
    """Whether ``op`` was carried to safety: carried off the table (``carried_to_safety``),
    or — once the game is over — still being carried (``carried_by`` set)."""
    if getattr(op, "carried_to_safety", False):
        return True
    return game_over and getattr(op, "carried_by", None) is not None


def drop_carried(carrier: Carrier, carried: Carrier) -> None:
    """Break a carry (the carrier went down or put its friend down): neither is linked now."""
    if carrier.carrying == carried.id:
        carrier.carrying = None
    if carried.carried_by == carrier.id:
        carried.carried_by = None
