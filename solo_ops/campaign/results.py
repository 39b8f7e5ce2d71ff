"""A mission's result as the campaign reads it: from a result file or the ended game's state.

:class:`MissionResult` holds a :class:`ModelOutcome` per hurt or carried squad model;
:func:`parse_mission_result` reads a result file, :func:`result_from_state` turns the
end-of-mission game state into the :class:`MissionResult` that
:func:`solo_ops.campaign.missions.record_mission` applies.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from solo_ops.core.fields import Fields, join_path

if TYPE_CHECKING:
    from solo_ops.game.state import State


OUTCOMES = ("win", "loss", "draw")


# -- mission results ----------------------------------------------------------------------------
@dataclass(frozen=True)
class ModelOutcome:
    """What happened to one squad model in a mission.

    ``carried``: it was still being carried by a friend when the game ended; ``carried_off``: a
    friend carried it off the table. Either counts as carried to safety (RULES-NOTES).
    ``kills``: the enemy models it took down (:func:`kills_in`); ``fought``: it was on the
    table (a model not listed in a result file fought unharmed).
    """

    id: str
    wounds_lost: int = 0
    went_down: bool = False
    carried: bool = False
    carried_off: bool = False
    player: str | None = None
    kills: int = 0
    wounds_of: int | None = None
    """The Wounds it had in the game that counted ``wounds_lost`` when they are not its
    profile's own (a Kill Team 2018 game: :func:`result_from_state`); None in a result file."""

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
OUTCOME_KEYS = ("id", "player", "wounds_lost", "down", "carried", "carried_off", "kills",
                "notes")


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

    A model that went down without ``wounds_lost`` lost every wound it went into the mission
    with (:func:`~solo_ops.campaign.missions.downed_lost_all`, which needs the campaign);
    ``down: true`` with ``wounds_lost: 0`` says two things that cannot both be true and is
    refused naming the field.
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
        lost = m.integer("wounds_lost", 0, minimum=0)
        if down and lost == 0 and m.has("wounds_lost"):
            raise m.error("wounds_lost", "is 0, but the model went down (down: true), which "
                                         "takes every wound it had: give the wounds it lost, "
                                         "or leave wounds_lost out (all it went in with)")
        models.append(ModelOutcome(
            id=mid, wounds_lost=lost, went_down=down, carried=carried,
            carried_off=carried_off, player=m.text("player", None),
            kills=m.integer("kills", 0, minimum=0)))
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


def result_key(result: MissionResult) -> str:
    """A short digest of what a result file says (its parsed content, so a re-indented copy
    of the same file, or one listing its models in another order, has the same key): kept in
    the mission's history entry so that the same result is not recorded twice by mistake
    (:func:`~solo_ops.campaign.missions.record_mission`)."""
    data = asdict(result)
    for model in data["models"]:  # (a result file has none: its keys stay as they were)
        if model.get("wounds_of") is None:
            model.pop("wounds_of", None)
    data["models"] = sorted(data["models"], key=lambda m: m["id"])  # the order means nothing
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def result_from_state(state: State, *, mission: str | None = None,
                      narrative: Iterable[str] = ()) -> MissionResult:
    """The :class:`MissionResult` of an ended game (:class:`solo_ops.game.state.State`).

    Reads every player-side operative's ``wounds_lost``, ``went_down``/``down``,
    ``carried_by`` (still carried: carried to safety) and ``carried_to_safety`` (marked at the
    end), the ``evacuated`` events (carried off the table), and ``state.result`` for the
    outcome, VP and whether every enemy was destroyed. Operative ids must be the campaign's
    model ids.
    """
    outcomes = []
    kills = kills_in(state)
    evacuated = {event.get("carried") for record in state.log
                 for event in record.get("events", ()) if event.get("type") == "evacuated"}
    for op in state.operatives.values():
        if getattr(op, "side", None) != "player":
            continue
        down = bool(getattr(op, "went_down", False) or getattr(op, "down", False))
        # carried off the table (``evacuate``: its carrier keeps it, off the table too), or
        # still carried at the end
        still_carried = getattr(op, "carried_by", None) is not None and op.id not in evacuated
        off = bool(getattr(op, "carried_to_safety", False)) and not still_carried
        outcomes.append(ModelOutcome(
            id=op.id, wounds_lost=int(getattr(op, "wounds_lost", 0) or 0), went_down=down,
            carried=down and still_carried, carried_off=down and off,
            player=getattr(op, "owner", None), kills=kills.get(op.id, 0),
            wounds_of=int(op.profile.wounds)))
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


_ATTACKS = {"shot": "operative", "fight": "attacker", "attack": "attacker",
            "guard_interrupt": "operative"}
"""The events that start an attack, and the key naming who attacks (a player's fight names
its ``operative``)."""


def kills_in(state: State) -> dict[str, int]:
    """How many enemy models each player operative took down in the game: each enemy ``down``
    event is put to the attack it ends in the same step — the last ``shot``, ``fight``,
    ``attack`` or ``guard_interrupt`` event before it with that model as the target (its
    attacker), or a ``fight`` it started (the player's model it fought struck back). A model
    that went down with no attack on it (mines, a Hot weapon of its own) is nobody's kill."""
    kills: dict[str, int] = {}
    players = {op.id for op in state.operatives.values() if getattr(op, "side", None) == "player"}
    for record in state.log:
        attacks: list[tuple[str, str | None, str | None]] = []
        for event in record.get("events", ()):
            kind = event.get("type")
            if kind in _ATTACKS:
                who = event.get(_ATTACKS[kind]) or event.get("operative")
                attacks.append((kind, who, event.get("target")))
            elif kind == "mines":
                attacks.append((kind, None, event.get("operative")))
            elif kind == "down" and event.get("side") == "enemy":
                killer = _killer(attacks, event.get("operative"))
                if killer in players:
                    kills[killer] = kills.get(killer, 0) + 1
    return kills


def _killer(attacks: list[tuple[str, str | None, str | None]], downed: Any) -> str | None:
    """Who took ``downed`` down: the latest attack on it, or the target of a fight it
    started."""
    for kind, attacker, target in reversed(attacks):
        if target == downed:
            return attacker
        if kind == "fight" and attacker == downed:
            return target
    return None


def _harm_text(outcome: ModelOutcome) -> str:
    how = "went down" if outcome.went_down else f"lost {outcome.wounds_lost} wound(s)"
    if outcome.carried_off:
        how += ", carried off the table to safety"
    elif outcome.carried:
        how += ", carried to safety"
    return how

