"""``solo-ops campaign rename NAME --model OLD --to NEW``: a new id for a squad model.

An answer names a model by its id, word by word and ignoring case, so ids are one word and
unique ignoring case (:func:`solo_ops.core.names.id_problem`). A campaign saved before that was
refused may hold an id no answer can name (``Brother Kell``, or ``Kell`` beside ``kell``);
``campaign play`` and ``campaign serve`` refuse to set up a mission with one
(:func:`check_nameable`) and point here. The rename is :func:`solo_ops.campaign.rename_model`.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from solo_ops.campaign import Campaign, rename_model
from solo_ops.campaign.model import unnameable
from solo_ops.cli.campaign_files import campaign_path, change_campaign, saves_option
from solo_ops.cli.common import console, emit_json, json_option
from solo_ops.core.errors import InputError
from solo_ops.core.names import id_key
from solo_ops.io.opening import mission_paths


def check_nameable(campaign: Campaign, path: Path) -> None:
    """Refuse to play a mission of a campaign holding an id no answer can name, in one line
    naming the campaign save, the id and the command that mends it."""
    found = unnameable(campaign)
    if found:
        old, why = found[0]
        word = _free_id(campaign, "-".join(old.replace(",", " ").split()).lower() or "model",
                        old)
        raise InputError(
            f"{why}: no answer could name that model in a mission; give it a new id first: "
            f"solo-ops campaign rename {shlex.quote(campaign.name)} --model {shlex.quote(old)} "
            f"--to {shlex.quote(word)}", source=str(path))


def _free_id(campaign: Campaign, word: str, old: str) -> str:
    """``word``, or ``word-2``, ``word-3`` ...: the first no other model of the campaign uses,
    ignoring case (a suggestion for ``old``'s new id)."""
    taken = {id_key(i) for i in campaign.model_ids() if i != old}
    guess, n = word, 1
    while id_key(guess) in taken:
        n += 1
        guess = f"{word}-{n}"
    return guess


@click.command("rename")
@click.argument("name")
@click.option("--model", "old", required=True, help="The model's id now.")
@click.option("--to", "new", required=True, help="Its new id: one word, new to the campaign.")
@saves_option
@json_option
def campaign_rename(name: str, old: str, new: str, saves: Path | None, as_json: bool) -> None:
    """Give a squad model a new id (everywhere the campaign names it; the reports' words
    stay). Not while a mission is set up or in play: its squads hold the old id."""
    path = campaign_path(name, saves)

    def apply(c: Campaign) -> None:
        save = mission_paths(path, c.missions_played + 1)["save"]
        if save.exists():
            raise InputError(f"mission {c.missions_played + 1} of campaign {c.name!r} is set up "
                             f"with the old id ({save}): play it out first, or move it aside "
                             "with `campaign play --new`", source="--model")
        rename_model(c, old, new, source="--to")

    change_campaign(path, name, apply)
    if as_json:
        emit_json({"campaign": name, "path": str(path), "old": old, "new": new})
        return
    console().print(f"{old} is {new} from now on. Saved to {path}.", markup=False)
