"""Recruits: a new model in place of a fallen one (:func:`replace_model`); a new id for a model
(:func:`rename_model`)."""

from __future__ import annotations

from typing import Any

from solo_ops.campaign.model import ACTIVE, FALLEN, Campaign, SquadModel
from solo_ops.core.errors import InputError
from solo_ops.core.names import id_key, id_problem


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
    problem = id_problem(new_model.id)
    if problem is not None:
        raise InputError(problem, source=source, field="id")
    used = next((i for i in campaign.model_ids() if id_key(i) == id_key(new_model.id)), None)
    if used is not None:
        same = "" if used == new_model.id else f" as {used!r}: ids match ignoring case"
        raise InputError(f"model id {new_model.id!r} is already used in the campaign{same} "
                         "(ids stay taken, even by the fallen)", source=source, field="id")
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



def rename_model(campaign: Campaign, old: str, new: str, *, source: str | None = None
                 ) -> SquadModel:
    """Give the model ``old`` the id ``new``, everywhere the campaign names it: its squad, the
    recruits it replaced or that replaced it, and every mission of the history (who fought,
    their wounds, their survival tests, replacements). The reports' words stay as written.
    ``new`` must be one word and new to the campaign, ignoring case (the model's own id
    aside: ``Kell`` may become ``kell``)."""
    try:
        _squad, model = campaign.find(old)
    except KeyError:
        raise InputError(f"no model {old!r} in campaign {campaign.name!r} (models: "
                         f"{', '.join(campaign.model_ids())})", source=source) from None
    problem = id_problem(new)
    if problem is not None:
        raise InputError(problem, source=source)
    used = next((i for i in campaign.model_ids()
                 if i != old and id_key(i) == id_key(new)), None)
    if used is not None:
        raise InputError(f"model id {new!r} is already used in the campaign"
                         + ("" if used == new else f" as {used!r}: ids match ignoring case"),
                         source=source)
    for m in (m for s in campaign.squads for m in s.models):
        m.replaces = new if m.replaces == old else m.replaces
        m.replaced_by = new if m.replaced_by == old else m.replaced_by
    model.id = new
    for entry in campaign.history:
        _rename_in(entry, old, new)
    campaign.history.append({"event": "rename", "after_mission": campaign.missions_played,
                             "old": old, "new": new,
                             "report": [f"{model.name} ({old}) is {new} from now on."]})
    return model


_ID_KEYS = ("id", "model", "fallen", "new", "replaces", "replaced_by")
"""The keys of a history entry (and of the records in it) that hold a model's id."""


def _rename_in(value: Any, old: str, new: str) -> None:
    """Put ``new`` for the model id ``old`` in a history entry, in place: under the keys of
    :data:`_ID_KEYS` and in the lists of ids (``fought``), at any depth; words stay."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key in _ID_KEYS and item == old:
                value[key] = new
            elif key == "fought" and isinstance(item, list):
                value[key] = [new if i == old else i for i in item]
            else:
                _rename_in(item, old, new)
    elif isinstance(value, list):
        for item in value:
            _rename_in(item, old, new)
