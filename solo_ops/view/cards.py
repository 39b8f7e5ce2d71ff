"""Model cards: what a tap on a model (or a counter, or an objective) shows on the page.

Built from the player view only (:func:`solo_ops.view.player.player_view`): the players' own
operatives and the revealed enemies, with their name, wounds, order and weapons; a hidden
counter says only that it is one (what it holds is never known before one of the players'
operatives sees it); an objective marker its id and where it is. What a model can do now is
the page's (:mod:`solo_ops.web.offers`, asked of the engine), added to the card there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from solo_ops.game.markers import board_now
from solo_ops.rules import kt2018
from solo_ops.view import measure
from solo_ops.view.board_view import short_names
from solo_ops.view.picture_style import OBJECTIVE_RADIUS

if TYPE_CHECKING:
    from solo_ops.core.model import Weapon
    from solo_ops.game.definition import Game
    from solo_ops.game.state import State

ORDERS = {"engage": "Engage", "conceal": "Conceal"}
COUNTER_RADIUS = 0.5
"""A hidden counter's radius in inches, as the pictures draw it."""


TYPE_WORDS_2018 = {"rapid": "Rapid Fire", "assault": "Assault", "heavy": "Heavy",
                   "pistol": "Pistol", "grenade": "Grenade"}
"""A Kill Team 2018 weapon type as a datasheet writes it, before its number of shots."""

ABILITY_WORDS_2018 = {"gauss": "Gauss (a wound roll of 6+ is resolved with AP -4)"}
"""A Kill Team 2018 weapon ability as a card says it (``Weapon.abilities_2018``)."""


def weapon_words(w: Weapon, edition: str, units: str = "in") -> str:
    """One weapon in a line, by the edition's characteristics: ``autogun: 4 attacks, hits on
    4+, damage 2/3`` (2024) or ``autogun (Rapid Fire 1, 24"): S3 AP0 D1`` (2018: its 2018
    type and shots, ``Weapon.kt2018_type``; a ``special`` weapon with no 2018 type says
    ``special``), never the Kill Team 2024 weapon rules (Lethal, Brutal ...) a 2018 game does
    not play: its own abilities (``Weapon.abilities_2018``: Gauss) instead."""
    if edition == "kt2018":
        rules = ", ".join(ABILITY_WORDS_2018.get(a, a) for a in w.abilities_2018)
        reach = "" if w.is_melee or w.range is None else f', {measure.length(w.range, units)}'
        strength = w.strength if w.strength is not None else "user"
        damage = w.damage_2018.text() if w.damage_2018 is not None else "1"
        kind = w.kt2018_type.value
        if kind in TYPE_WORDS_2018:
            kind = f"{TYPE_WORDS_2018[kind]} {w.shots.text() if w.shots is not None else 1}"
        text = f"{w.name} ({kind}{reach}): S{strength} AP{w.ap} D{damage}"
    else:
        rules = ", ".join(r.text() for r in w.rules)
        parts = [f"{w.attacks} attacks" if w.attacks is not None else "",
                 f"hits on {w.hit}+" if w.hit is not None else "",
                 f"damage {w.damage[0]}/{w.damage[1]}" if w.damage is not None else ""]
        kind = "melee" if w.is_melee else "ranged"
        text = f"{w.name} ({kind}): " + ", ".join(p for p in parts if p)
        if w.effective_range is not None and not w.is_melee:
            text += f", range {measure.length(w.effective_range, units)}"
    return text + (f"; {rules}" if rules else "")


def _state_words(o: dict[str, Any], edition: str) -> list[str]:
    """What the player view says about a model's condition, in words."""
    out = []
    if o.get("down"):
        out.append("down")
    elif edition == "kt2024" and o.get("stance"):
        order = ORDERS.get(str(o["stance"]), str(o["stance"]))
        out.append(f"{order} order" + (", activated" if o.get("activated") else ", ready"))
    elif o.get("activated"):
        out.append("activated this battle round")
    if o.get("flesh_wounds") and not o.get("down"):  # Kill Team 2018: boxes marked
        out.append(f"flesh wounds {o['flesh_wounds']}/{kt2018.FLESH_WOUND_BOXES}")
    for key, words in (("on_guard", "On Guard"), ("stunned", "stunned (-1 APL)"),
                       ("injured", "injured"), ("shaken", "shaken"),
                       ("carried_to_safety", "carried to safety")):
        if o.get(key):
            out.append(words)
    if o.get("carrying"):
        out.append(f"carrying {o['carrying']}")
    if o.get("carried_by"):
        out.append(f"carried by {o['carried_by']}")
    if o.get("marker"):
        out.append(f"carrying {o['marker']}")
    return out


def cards(game: Game, state: State, view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """A card for every model, counter and objective marker the players see, by id: ``id``,
    ``short`` (the phone label), ``name``, ``kind`` (``player``, ``enemy``, ``counter``,
    ``objective``), ``player``, ``wounds`` (``"9/14"``), ``state`` (order and condition words),
    ``weapons`` (a line each), ``at`` (where, in the players' units), and ``xy`` and ``radius``
    (inches: where a tap finds it)."""
    units = game.settings.units
    edition = view["edition"]
    models = [(o, "player", player) for player, ops in view["squads"].items() for o in ops]
    models += [(o, "enemy", None) for o in view["enemies"]]
    short = short_names(o["id"] for o, _, _ in models)
    out: dict[str, dict[str, Any]] = {}
    for o, kind, player in models:
        op = state.operatives[o["id"]]  # a model the view shows: its profile is no secret
        out[o["id"]] = {
            "id": o["id"], "short": short[o["id"]], "name": o["name"], "kind": kind,
            "player": player, "profile": o.get("profile"),
            "wounds": f"{o['wounds']}/{o['max_wounds']}", "state": _state_words(o, edition),
            "weapons": [weapon_words(w, edition, units) for w in op.profile.weapons],
            "at": measure.point(o["at"], units), "xy": o["at"], "radius": op.radius}
    for c in view["counters"]:
        out[c["id"]] = {"id": c["id"], "short": c["id"], "name": "hidden counter",
                        "kind": "counter", "at": measure.point(c["at"], units),
                        "xy": c["at"], "radius": COUNTER_RADIUS,
                        "state": ["what it holds is found when one of your operatives sees it"],
                        "weapons": []}
    for obj in board_now(game, state, game.terrain(state).board).objectives:
        out.setdefault(obj.id, {
            "id": obj.id, "short": obj.id, "kind": "objective", "weapons": [],
            "name": "command node" if obj.command_node else "objective marker",
            "at": measure.point(obj.at, units), "xy": [obj.at[0], obj.at[1]],
            "radius": OBJECTIVE_RADIUS,
            "state": ["portable: Pick Up / Place Down"] if obj.portable else []})
    return out
