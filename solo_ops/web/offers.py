"""One-thumb answers: what the page offers the active operative now, each asked of the engine.

The question and its legal answers come first on a phone, so the page offers only answers the
game would take now, and says why not for the rest one tap away. Nothing here decides a rule:
every answer is typed as at the terminal and run through the table's dry run of the engine's
own step (:meth:`~solo_ops.session.table.GameTable.refusal_of`: the state copied, the step
taken on the copy), and the actions' first checks come from
:meth:`~solo_ops.session.table.GameTable.open_actions` — so a target is offered only when the
shot's own checks pass (in sight, in range, not Concealed in cover, the weapon still allowed),
a door only when the operative can open or close it, Guard only when it can go On Guard, a
marker only where there is one to pick up.

:func:`offers` returns the offers as a small tree the page draws as buttons: an offer with an
``answer`` sends it; one with ``choices`` opens them (a shot: its targets, then each weapon to
roll or to report); one with ``fill`` starts the typed answer (a shot you rolled yourself).
``why_not`` gives each refused action's reason (the engine's words), ``targets`` what each enemy
model may be shot or fought with or why not (the model card's "now"), ``reach`` the doors,
hatches and markers within the operative's reach (the phone board labels them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from solo_ops.game.engine import pending
from solo_ops.game.markers import board_now
from solo_ops.game.state import ENEMY, PLAYER
from solo_ops.view import measure
from solo_ops.view.board_view import Focus, focus_ids, short_names

if TYPE_CHECKING:
    from solo_ops.session.table import GameTable

MOVES = {"reposition": "move", "normal": "move", "dash": "dash", "fall_back": "fall back",
         "advance": "advance", "charge": "charge"}
"""The move kinds of :meth:`GameTable.open_actions` in the page's words."""
HANDLED = {"move", "dash", "fallback", "advance", "charge", "shoot", "fight", "door", "hatch",
           "pickup", "placedown", "guard", "carry", "evacuate", "engage", "conceal", "damage",
           "down", "done"}
"""The act prompt's answers offered above (or by a tap on the board, or under "adjust")."""


def _offer(label: str, answer: str | None = None, **more: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"label": label}
    if answer is not None:
        out["answer"] = answer
    out.update({k: v for k, v in more.items() if v is not None})
    return out


def _named(short: dict[str, str], ident: str) -> str:
    """A model as a button names it: its phone label and its id (``C5 (cultist-5)``)."""
    name = short.get(ident, ident)
    return ident if name == ident else f"{name} ({ident})"


def offers(table: GameTable) -> dict[str, Any]:
    """The active operative's offers now (see the module docstring); for any other question,
    no offers (the prompt's own options are its answers)."""
    with table.lock:
        game, state = table.game, table.state
        prompt = pending(game, state)
        if prompt.kind != "act" or state.active_operative is None:
            return {"offers": [], "why_not": [], "targets": {}, "reach": [], "moves": []}
        op = state.operatives[state.active_operative]
        opened = table.open_actions()
        shots, shot_why, targets = _shots(table, opened.get("shoot"))
        fights, fight_why = _fights(table, opened.get("fight"), targets)
        out: list[dict[str, Any]] = []
        why: list[dict[str, str]] = []
        moves = [MOVES[k] for k, v in opened.items() if k in MOVES and v is None]
        for kind, reason in opened.items():
            if kind in MOVES and reason is not None:
                why.append({"what": MOVES[kind], "why": reason})
        if shots:
            out.append(_offer("shoot", choices=shots, word="shoot"))
        elif shot_why:
            why.append({"what": "shoot", "why": shot_why})
        if fights:
            out.append(_offer("fight", choices=fights, word="fight"))
        elif fight_why:
            why.append({"what": "fight", "why": fight_why})
        reach = _plain_offers(table, prompt.options, out, why)
        done_why = _done_refused(table)
        if done_why is None:
            out.append(_offer("done", "done", word="done", primary=True))
        else:  # (a 2018 model that charged and can fight: it must)
            why.append({"what": "done", "why": done_why})
        return {"offers": out, "why_not": why, "targets": targets, "reach": reach,
                "moves": moves, "operative": op.id}


def _done_refused(table: GameTable) -> str | None:
    """Why ``done`` is not an answer now, or None: only a Kill Team 2018 model that charged
    and can still fight is refused it (Hammer of Wrath), so only then is it asked."""
    state = table.state
    op = state.operatives.get(str(state.active_operative))
    if state.edition != "kt2018" or state.phase != "fight" or op is None or not op.charged:
        return None
    return table.refusal_of("done")


def _enemies(table: GameTable) -> list[Any]:
    """The enemy models the players can see on the table (the revealed, standing ones)."""
    state = table.state
    op = state.operatives[str(state.active_operative)]
    foe = ENEMY if op.side == PLAYER else PLAYER
    shown = {o["id"] for o in table.view()["enemies"]} if foe == ENEMY else None
    return [o for o in state.living(foe)
            if o.on_table and o.at is not None and (shown is None or o.id in shown)]


def _shots(table: GameTable, first: str | None
           ) -> tuple[list[dict[str, Any]], str | None, dict[str, dict[str, Any]]]:
    """Each enemy the active operative may shoot now, with the weapons that may fire at it
    (``shoot X with W`` taken by the engine's dry run), to roll or to report; the reason
    when none can be shot; and, per enemy, what the operative may do to it or why not."""
    state = table.state
    op = state.operatives[str(state.active_operative)]
    units = table.game.settings.units
    foes = _enemies(table)
    short = short_names(o.id for o in state.operatives.values())
    targets: dict[str, dict[str, Any]] = {o.id: {"shoot": [], "fight": False, "why": first}
                                          for o in foes}
    if first is not None:
        return [], first, targets
    weapons = [w.name for w in op.profile.ranged_weapons]
    terrain = table.game.terrain(state)
    out = []
    for foe in foes:
        fine, refused = [], None
        for name in weapons:
            why = table.refusal_of(f"shoot {foe.id} with {name}")
            if why is None:
                fine.append(name)
            elif refused is None:
                refused = why
        targets[foe.id] = {"shoot": fine, "fight": False, "why": None if fine else refused}
        if not fine:
            continue
        assert op.at is not None and foe.at is not None
        d = terrain.routes.distance(op.at, foe.at, op.radius, foe.radius).distance
        away = "" if d is None else f" · {measure.length(d, units)}"
        choices = []
        for name in fine:
            choices.append(_offer(f"{name}: solo-ops rolls", f"shoot {foe.id} with {name} roll",
                                  primary=True))
            choices.append(_offer(f"{name}: I rolled it…",
                                  fill=f"shoot {foe.id} with {name} damage "))
        out.append(_offer(f"{_named(short, foe.id)}{away}", target=foe.id, choices=choices))
    # the reason itself when every enemy is refused for one (a Heavy weapon after a move, say)
    reasons = {targets[foe.id]["why"] for foe in foes}
    why = None if out else (
        str(next(iter(reasons))) if len(reasons) == 1 and None not in reasons else
        "no enemy is in sight and range" + ("" if not foes else
                                            ": tap an enemy on the board to see why"))
    return out, why, targets


def _fights(table: GameTable, first: str | None, targets: dict[str, dict[str, Any]]
            ) -> tuple[list[dict[str, Any]], str | None]:
    """Each enemy the active operative may fight now (``fight X roll`` taken by the engine's
    dry run), to roll or to report; the reason when none."""
    if first is not None:
        return [], first
    short = short_names(o.id for o in table.state.operatives.values())
    out = []
    for foe in _enemies(table):
        why = table.refusal_of(f"fight {foe.id} roll")
        targets.setdefault(foe.id, {"shoot": [], "why": None})["fight"] = why is None
        if why is None:
            out.append(_offer(_named(short, foe.id), target=foe.id,
                              choices=[_offer("solo-ops rolls", f"fight {foe.id} roll",
                                              primary=True),
                                       _offer("I rolled it…", fill=f"fight {foe.id} dealt ")]))
    return out, None if out else "no enemy is within control range (1\")"


def _plain_offers(table: GameTable, options: list[str], out: list[dict[str, Any]],
                  why: list[dict[str, str]]) -> list[str]:
    """Doors and hatches, markers, Guard, carrying, the order: each offered only when the
    engine's dry run takes it (added to ``out``; a refused Guard's reason to ``why``), and
    the doors and markers within reach (the phone board labels them)."""
    game, state = table.game, table.state
    heads = {o.split()[0] for o in options}
    reach: list[str] = []
    for f in game.scenario.board.portals():
        word = "hatch" if f.has("hatch") else "door"
        if word not in heads:
            continue
        want = not state.doors.get(f.id, f.open)
        verb = "open" if want else "close"
        if table.refusal_of(f"{word} {f.id} {verb}") is None:
            out.append(_offer(f"{verb} {f.id}", f"{word} {f.id} {verb}", word=word))
            reach.append(f.id)
    if "pickup" in heads:
        board = board_now(game, state, game.terrain(state).board)
        for o in board.objectives:
            if o.portable and table.refusal_of(f"pickup {o.id}") is None:
                out.append(_offer(f"pick up {o.id}", f"pickup {o.id}", word="pickup"))
                reach.append(o.id)
    if "placedown" in heads and table.refusal_of("placedown") is None:
        out.append(_offer("place down the marker here", "placedown", word="placedown"))
    if "guard" in heads:
        refused = table.refusal_of("guard")
        if refused is None:
            out.append(_offer("go On Guard", "guard", word="guard"))
        else:
            why.append({"what": "guard", "why": refused})
    if "carry" in heads:
        for o in state.operatives.values():
            if o.lying and o.carried_by is None and table.refusal_of(f"carry {o.id}") is None:
                out.append(_offer(f"carry {o.id}", f"carry {o.id}", word="carry"))
    if "evacuate" in heads and table.refusal_of("evacuate") is None:
        out.append(_offer("carry off the table (evacuate)", "evacuate", word="evacuate"))
    for order in ("engage", "conceal"):
        if order in heads and table.refusal_of(order) is None:
            out.append(_offer(f"change the order to {order}", order, word="order"))
    for option in options:  # any other plain answer the question lists (2018's ready, ...)
        head = option.split()[0]
        if head in HANDLED or option != option.lower():
            continue
        if table.refusal_of(option) is None:
            out.append(_offer(option, option, word=head))
    return reach


def focus(table: GameTable, offered: dict[str, Any]) -> Focus:
    """What the question is about, for the phone's board and its opening view: the models of
    :func:`~solo_ops.view.board_view.focus_ids` (the active operative, the targets it may shoot
    or fight, the enemy that just moved) and the doors, hatches and markers it can reach."""
    with table.lock:
        targets = [t for t, v in offered["targets"].items() if v.get("shoot") or v.get("fight")]
        ids = focus_ids(table.view(), table.records(), targets)
        return Focus(ids, frozenset(offered["reach"]))


def focus_box(table: GameTable, ids: frozenset[str]) -> list[float] | None:
    """The box (inches: x0, y0, x1, y1) around the bases of ``ids``, for the page to open its
    zoomed board on; None when none of them is on the table."""
    with table.lock:
        pts = [(o.at, o.radius) for o in table.state.operatives.values()
               if o.id in ids and o.at is not None and o.has_base]
    if not pts:
        return None
    return [round(min(p[0] - r for p, r in pts), 2), round(min(p[1] - r for p, r in pts), 2),
            round(max(p[0] + r for p, r in pts), 2), round(max(p[1] + r for p, r in pts), 2)]
