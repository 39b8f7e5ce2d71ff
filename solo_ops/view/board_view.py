"""The players' view as a board picture: what the page's board and ``solo-ops map`` both draw.

Built only from the player view (:func:`solo_ops.view.player.player_view`) and player records
(:func:`~solo_ops.view.player.player_record`), so nothing hidden reaches it:

* the players' models and the revealed enemies with their ids — and their wounds when hurt
  (``marine-1 9/14``) — each with its order token (Kill Team 2024: ``E`` engage, ``C`` conceal,
  faded once it has activated); downed operatives lying on the table greyed and crossed
  (their bases still take room), a friend carried as its carrier's ``⇐`` label; downed enemies
  are gone from the killzone;
* unknown counters as "?" counters with their ids (never what is in them);
* doors and hatches with their ids and whether they are open;
* the activation being played, or the last one played: each move, charge, shot and fight of it
  numbered in order and drawn from where it happened (a shot from where the shooter stood
  when it fired, not where it stands now, and along a line it sees by where the two bases
  still see each other on the table as it is: ``Sight.sight_line``, the centres' line when it
  is clear, else a clear line between the two bases), the models' ids beside the numbers.
  While a step waits for the players' answer (a CP re-roll, a Guard, a 2018 Reaction: the
  pauses of :data:`~solo_ops.game.events.PAUSES`) it is the activation of that step, as far
  as the players were told (the pause event's ``so_far``);
* the title: the turn, the victory points and the players' command points.

On a phone (:class:`Focus`) the picture carries a phone-sized label set instead
(:data:`~solo_ops.view.picture_style.PHONE`): larger letters, short names (``C5`` for
``cultist-5``, :func:`short_names`), and only the models the question is about labelled (the
active operative, its targets, the enemy that just moved: :func:`focus_ids`), only the doors
and terrain it can reach; the page shows the rest on a tap. No title and no legend: the page
has its own header, and the map download keeps both.

Every label goes through the one placer (:mod:`solo_ops.view.labels`) and the picture through
:mod:`solo_ops.view.render`, so the SVG and the PNG show the same thing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from solo_ops.game import markers
from solo_ops.game.events import PAUSES
from solo_ops.rules.editions import turn_name
from solo_ops.view import render
from solo_ops.view.picture_style import LEGEND_CHARS, PHONE

if TYPE_CHECKING:
    from solo_ops.game.definition import Game
    from solo_ops.game.state import State

STARTS = ("activated", "enemy_activation", "counteract")
"""The events that begin an activation (a player's, an enemy unit's, a counteract)."""
TOKENS = {"engage": "E", "conceal": "C"}


@dataclass(frozen=True)
class Step:
    """One action of the activation shown: ``kind`` (a path kind of
    :data:`~solo_ops.view.picture_style.PATH_STYLES`), its points (board inches, from where
    it happened) and whose action it was."""

    kind: str
    points: tuple[tuple[float, float], ...]
    actor: str
    target: str | None = None
    """Whom a shot or a fight was at (None for a move)."""


def _events(records: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every shown event in order, a paused step's ``so_far`` in place of its question."""
    for record in records:
        for event in record.get("events", []):
            if event.get("type") in PAUSES:
                yield from event.get("so_far", [])
            else:
                yield event


MOVING = ("moved", "charged", "charge_failed")
"""The events that move a model (a 2018 charge that falls short moves it as far as it rolled)."""


def activation(records: list[dict[str, Any]], where: dict[str, tuple[float, float]]
               ) -> tuple[str | None, list[Step]]:
    """The activation being played (or the last one played) in ``records`` (player records):
    who (a unit's or an operative's id) and its steps, each from where it happened. ``where``
    is where every model stands now."""
    events = list(_events(records))
    start = max((i for i, e in enumerate(events) if e.get("type") in STARTS), default=None)
    if start is None:
        return None, []
    head = events[start]
    who = head.get("unit") or head.get("operative")
    tail = events[start:]
    pos = dict(where)
    for e in reversed(tail):  # back to where each model stood when the activation began
        if e.get("type") in MOVING and e.get("from") is not None:
            pos[e["operative"]] = (float(e["from"][0]), float(e["from"][1]))
    steps: list[Step] = []
    for e in tail:
        kind = e.get("type")
        if kind in MOVING and e.get("to") is not None:
            route = e.get("route") or [e.get("from"), e["to"]]
            points = tuple((float(p[0]), float(p[1])) for p in route if p is not None)
            if len(set(points)) >= 2:  # (a charge that failed where it stood moved nowhere)
                steps.append(Step("move" if kind == "moved" and e.get("how") != "charge"
                                  else "charge", points, e["operative"]))
            pos[e["operative"]] = (float(e["to"][0]), float(e["to"][1]))
        elif kind in ("attack", "shot", "fight"):
            actor = e.get("attacker") or e.get("operative")
            target = e.get("target")
            if actor in pos and target in pos and pos[actor] != pos[target]:
                steps.append(Step("fight" if kind == "fight" else "shot",
                                  (pos[actor], pos[target]), str(actor), str(target)))
    return who, steps


@dataclass(frozen=True)
class Focus:
    """A phone's board: the models labelled (by :func:`focus_ids`) and the doors, hatches and
    terrain labelled (those the active operative can reach); everything else is drawn
    unlabelled, named on a tap."""

    models: frozenset[str]
    features: frozenset[str] | None = frozenset()
    """The doors, hatches and terrain labelled (None: every door and hatch)."""


SHORT = 7
"""An id this long or shorter is its own short name."""


def short_name(ident: str) -> str:
    """A phone label's name for a model: the id when short (``kell``), else the initials of
    its words and its number (``cultist-5`` → ``C5``, ``stubber-gunner-12`` → ``SG12``), else
    its first letters (``sergeant`` → ``sergea…``)."""
    if len(ident) <= SHORT:
        return ident
    words = [w for w in re.split(r"[-_ .]+", ident) if w]
    if len(words) >= 2 and words[-1].isdigit():
        return "".join(w[0] for w in words[:-1]).upper() + words[-1]
    if len(words) >= 2:
        return "".join(w[0] for w in words).upper()
    return ident[:SHORT - 1] + "…"


def short_names(idents: Iterable[str]) -> dict[str, str]:
    """Every id's short name (:func:`short_name`), the id itself where two would share one."""
    ids = sorted(set(idents))
    short = {i: short_name(i) for i in ids}
    taken: dict[str, int] = {}
    for name in short.values():
        taken[name] = taken.get(name, 0) + 1
    return {i: (s if taken[s] == 1 and (s == i or s not in short) else i)
            for i, s in short.items()}


def focus_ids(view: dict[str, Any], records: list[dict[str, Any]],
              targets: Iterable[str] = ()) -> frozenset[str]:
    """The models a question is about: the operative asked about (the active one), the
    ``targets`` it has (the page's offers), whoever acted in the activation shown (the enemy
    that just moved: every model of its unit), and, while the players choose who activates,
    the operatives they may choose."""
    pending = view.get("pending") or {}
    out = set(targets)
    if pending.get("operative"):
        out.add(str(pending["operative"]))
    if pending.get("kind") == "activate":
        out.update(str(o) for o in pending.get("options", []))
    where = {o["id"]: (0.0, 0.0) for o in _models(view)}
    who, steps = activation(records, where)
    out.update(step.actor for step in steps)
    if who is not None:
        out.add(who)
        out.update(o["id"] for o in view["enemies"] if o.get("owner") == who)
    known = {o["id"] for o in _models(view)}
    return frozenset(out & known)


def _models(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [o for ops in view["squads"].values() for o in ops] + list(view["enemies"])


def _label(o: dict[str, Any], name: str | None = None) -> str:
    """A model's label: its id (or ``name``), what it carries, its wounds when hurt, or that
    it is down."""
    text = (name or o["id"]) + (" ⇐" + o["carrying"] if o.get("carrying") else "")
    text += " ⚑" + o["marker"] if o.get("marker") else ""  # a carried marker
    if o.get("down"):
        return text + " (down)"
    wounds, most = o.get("wounds"), o.get("max_wounds")
    if isinstance(wounds, int) and isinstance(most, int) and wounds < most:
        text += f" {wounds}/{most}"
    return text


def _disc(scene: render.Scene, o: dict[str, Any], radius: float, side: str,
          edition: str, names: dict[str, str] | None) -> None:
    """A model's base; ``names``: the phone's short names of the models it labels (None:
    every model labelled by its id)."""
    token = TOKENS.get(str(o.get("stance"))) if edition == "kt2024" else None
    label = _label(o) if names is None else _label(o, names[o["id"]]) if o["id"] in names \
        else None
    render.add_disc(scene, tuple(o["at"]), radius, side=side, label=label,
                    down=bool(o.get("down")), token=token, spent=bool(o.get("activated")))


def title(game: Game, view: dict[str, Any]) -> str:
    """The picture's title: the scenario, the turn, the VP and both sides' CP (the enemy's
    too: the players know what it holds, as at a table)."""
    return "".join(title_parts(view))


def title_parts(view: dict[str, Any]) -> tuple[str, str]:
    """:func:`title` as the scenario's name and the rest (the status a picture never cuts)."""
    turn = turn_name(view["edition"])
    vp = view["vp"]
    tail = (f" — {turn} {view['turn']} · VP you {vp.get('player', 0)} / "
            f"solo-ops {vp.get('enemy', 0)}")
    if view["cp"]:
        tail += (f" · CP you {view['cp'].get('player', 0)} / solo-ops "
                 f"{view['cp'].get('enemy', 0)}")
    return str(view["scenario"]), tail


def board_scene(game: Game, state: State, view: dict[str, Any],
                records: list[dict[str, Any]], *, reveal: bool = False,
                phone: Focus | None = None) -> render.Scene:
    """The players' view drawn (see the module docstring); ``phone``: with the phone's label
    set, labelling what it names."""
    terrain = game.terrain(state)
    board = markers.board_now(game, state, terrain.board)  # carried / placed-down markers
    head, tail = title_parts(view)
    scene = render.board_scene(board, title=head, title_tail=tail)
    scene.portal_states = True
    names = short = None
    if phone is not None:
        scene = replace(scene, lettering=PHONE, named=phone.features)
        short = short_names(o["id"] for o in _models(view))
        names = {i: short[i] for i in phone.models if i in short}
    radius = {o.id: o.radius for o in state.operatives.values()}
    players = list(view["squads"])
    where: dict[str, tuple[float, float]] = {}
    for index, ops in enumerate(view["squads"].values()):
        side = "player" if index == 0 else f"player{min(index, 2) + 1}"
        for o in ops:
            if o["at"] is not None and not o.get("carried_by"):  # (carried: its carrier's ⇐)
                _disc(scene, o, radius[o["id"]], side, view["edition"], names)
                where[o["id"]] = (float(o["at"][0]), float(o["at"][1]))
    for o in view["enemies"]:
        if o["at"] is not None and not o["down"]:  # a downed enemy leaves the killzone
            _disc(scene, o, radius[o["id"]], "enemy", view["edition"], names)
            where[o["id"]] = (float(o["at"][0]), float(o["at"][1]))
    for c in view["counters"]:
        label = c["id"] if not reveal else f"{c['id']} ({c.get('hidden_order')})"
        render.add_counter(scene, tuple(c["at"]), label=label)
    who, steps = activation(records, where)
    for number, step in enumerate(steps, start=1):
        points = step.points
        if step.kind == "shot" and step.target in radius:  # along a line it sees by
            line = terrain.sight.sight_line(points[0], points[-1], radius[step.actor],
                                            radius[step.target])
            points = line if line is not None else points
        render.add_path(scene, points, kind=step.kind)
        render.add_step(scene, step.points[0], number,
                        step.actor if short is None else short.get(step.actor, step.actor))
    entries = [("player", f"{p}'s squad") for p in players[:1]]
    entries += [(f"player{min(i, 1) + 2}", f"{p}'s squad") for i, p in enumerate(players[1:])]
    entries += [("enemy", "revealed enemies"), ("counter", "hidden counter (unknown)")]
    if any(o["down"] and o["at"] is not None and not o.get("carried_by")
           for ops in view["squads"].values() for o in ops):
        entries.append(("downed", "out of action: its base stays" if view["edition"] == "kt2018"
                        else "downed: its base stays"))
    if who is not None and steps:  # (an activation with nothing drawn names no steps)
        tail = ": steps in order"  # the numbered circles: who acts, each step's number
        room = LEGEND_CHARS - len(tail)
        name = who if len(who) <= room else who[:room - 1] + "…"
        entries.append(("move", name + tail))
    render.add_legend(scene, entries)
    return scene
