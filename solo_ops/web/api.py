"""The table view's JSON API: players, the view, answers (undo included) and tap previews.

* ``GET /api/players`` the players' names and who the link is (``you``);
* ``GET /api/view?player=NAME[&since=N]`` the players' view of the game for the page;
* ``POST /api/answer`` ``{"player", "answer", "step"}`` → ``{"ok", "message", "prompt"}`` (and
  ``confirm``, ``records``, ``meta``); the update also goes to every page's event stream;
* ``GET /api/place?player=NAME&x=X&y=Y[&how=move]`` a tap's snapped point and the moves the
  game takes there (:mod:`solo_ops.web.placing`).

Answers are accepted only from the player whose prompt it is (409 otherwise), and only for the
step they name (409 "already answered" for an older one: a double tap changes nothing); a
player's link answers only as that player (403), the host's for anyone.
"""

from __future__ import annotations

import errno
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from solo_ops.core.errors import RuleError
from solo_ops.session.table import GameTable, Outcome
from solo_ops.view import answers, cards
from solo_ops.view.player import summary_lines
from solo_ops.web import board, placing
from solo_ops.web.guard import BODY_KEYS, Refused, check_line, read_body
from solo_ops.web.server import TableServer, server_of
from solo_ops.web.stream import publish

MAX_ANSWER = 500
"""The longest answer accepted, in characters."""

PAGE_HELP = (
    "On this page you answer by tapping: the question is under the board, and its buttons "
    "are the answers the game takes now, each already checked by the game.",
    "{who}",
    "Moving: pick the kind of move under \"tap the board to:\", then tap the board where the "
    "model ends, or drag the model in the yellow ring. The page shows the route and the "
    "distance, and a button for each move the game takes there (\"move here\"); Cancel sends "
    "nothing.",
    "Shooting and fighting: shoot lists only the enemies in sight and range, then each weapon "
    "that can fire: \"solo-ops rolls\" rolls for you, \"I rolled it…\" takes the damage your "
    "own dice did. fight lists the enemies within reach.",
    "{done} \"why not?\" says why the other actions are not offered; \"adjust\" holds the "
    "corrections (damage…, down…) for when the table and the game disagree.",
    "Other questions (a re-roll, a fight's next die, a cover save, a Reaction) show their "
    "answers as buttons. A blue button is the usual answer; ★ marks the engine's advice. A "
    "button ending in … starts the answer in the answer box: finish it with the word buttons "
    "under the box and tap Send.",
    "The board: tap a model for its card (wounds, weapons, what it can do now). Drag to pan, "
    "pinch or + / − to zoom, ▣ shows the whole board.",
    "Undo takes back your last answer; Status lists the table as you may see it; Map (SVG) and "
    "Map (PNG) download the board.",
    "Typing instead: open \"type an answer\" and write the answer in words (done, shoot ID "
    "roll, move ID to obj-2, where ID is a model's id); the buttons under the box add the ids "
    "and words that can follow. Every typed answer is listed under \"typed answers\" below.",
)
"""The page's help (``help``, the Help button): what to tap, each kind of button, and that
typing is there too; ``{who}`` and ``{done}`` are the edition's (:func:`page_help`)."""

PAGE_WORDS = {
    "kt2024": ("Who acts: tap an operative's button (pick engage or conceal first to change "
               "its order, or leave it as it is).", "done ends the activation."),
    "kt2018": ("Who acts: tap the button of the model that acts in this phase; in the "
               "shooting phase, \"pass: the rest hold fire\" ends your part of it at once.",
               "done ends the model's turn in this phase."),
}


def page_help(edition: str) -> str:
    """The page's help (:data:`PAGE_HELP`) in ``edition``'s words, one paragraph a line."""
    who, done = PAGE_WORDS.get(edition, PAGE_WORDS["kt2024"])
    return "\n".join(line.format(who=who, done=done) for line in PAGE_HELP)


def typed_help(edition: str) -> str:
    """The typed answers, as the terminal's ``help`` lists them, less what only the terminal
    has (its keys, ``map FILE``, ``quit``): the page's words for the answer box."""
    words = answers.help_text(edition).split("\nAt any prompt:")[0]
    return words + "\nAt any prompt: help, status, undo (as the buttons of the same names)."



def score(view: dict[str, Any]) -> dict[str, Any]:
    """The score line of a view: VP, CP, turn, phase and the end."""
    return {"vp": dict(view["vp"]), "cp": dict(view["cp"]), "turn": view["turn"],
            "phase": view["phase"], "ended": view["ended"], "result": view["result"]}


def models(table: GameTable, view: dict[str, Any]) -> list[dict[str, Any]]:
    """The models on the board as the page draws them: squads, enemies, counters."""
    radius = {o.id: o.radius for o in table.state.operatives.values()}
    out = []
    for player, ops in view["squads"].items():
        for o in ops:
            out.append({"id": o["id"], "side": "player", "player": player, "at": o["at"],
                        "radius": radius[o["id"]], "down": o["down"]})
    for o in view["enemies"]:
        out.append({"id": o["id"], "side": "enemy", "at": o["at"],
                    "radius": radius[o["id"]], "down": o["down"]})
    for c in view["counters"]:
        out.append({"id": c["id"], "side": "counter", "at": c["at"], "radius": 0.5,
                    "down": False})
    return out


def now_words(card: dict[str, Any], offered: dict[str, Any], prompt: dict[str, Any],
              edition: str = "kt2024") -> list[str]:
    """What a model on a card can do now, from the engine's offers: the active operative's
    answers; what it may do to an enemy, or why not; whether a friend may still act."""
    ident, active = card["id"], offered.get("operative")
    if ident == active:
        done = [o["label"] for o in offered["offers"] if o.get("word") != "done"]
        return [f"acting now: it can {', '.join(offered['moves'] + done) or 'end its turn'}"]
    target = offered["targets"].get(ident)
    if target is not None and active is not None:
        out = []
        if target.get("shoot"):
            out.append(f"{active} can shoot it ({', '.join(target['shoot'])})")
        if target.get("fight"):
            out.append(f"{active} can fight it")
        if not out and target.get("why"):
            out.append(f"{active} cannot shoot it: {target['why']}")
        return out
    if card["kind"] == "player" and prompt.get("kind") == "activate":
        word = "may act now" if edition == "kt2018" else "may activate now"  # 2018: phases
        return [word] if ident in prompt.get("options", []) else []
    return []


def cards_doc(table: GameTable, offered: dict[str, Any], prompt: dict[str, Any]
              ) -> dict[str, dict[str, Any]]:
    """Every model card (:func:`solo_ops.view.cards.cards`) with what it can do now."""
    shown = cards.cards(table.game, table.state, table.view())
    for card in shown.values():
        card["now"] = now_words(card, offered, prompt, table.state.edition)
    return shown


def view_doc(server: TableServer, player: str | None, since: int) -> dict[str, Any]:
    """``/api/view``'s document for ``player`` (None: the host's page, which answers for
    whoever is asked): records and narration from step ``since``; the one-thumb offers for
    the player asked, the model cards and what the question is about (``focus``)."""
    table = server.table
    with table.lock:
        view = table.view()
        prompt = server.prompt_doc()
        asked = prompt.get("player")
        mine = asked is not None and (player is None or asked == player)
        offered = server.offers()
        return {
            "prompt": prompt,
            "records": table.records(since),
            "score": score(view),
            "summary": summary_lines(view) if view["ended"] else [],
            "offers": {k: offered[k] for k in ("offers", "why_not", "moves")} if mine else None,
            "focus": offered["focus"],
            "cards": cards_doc(table, offered, prompt),
            "player": player,
            "players": table.players,
            "game": (table.game.links or {}).get("id"),
            "waiting_for": None if mine or asked is None else asked,
            "your_turn": mine,
            "open": {placing.WORDS.get(k, k): why for k, why in table.open_actions().items()}
            if mine else {},
            "narration": table.narration(since),
            "models": models(table, view),
            "doors": dict(view["doors"]),
            "board": board.geometry(table.game, table.state),
            "briefing": table.briefing() if since == 0 else [],
            "scenario": view["scenario"],
            "edition": view["edition"],
            "steps": len(table.state.log),
        }


def since_of(request: Request) -> int:
    """The ``since`` query parameter: a step number (0 when absent)."""
    raw = request.query_params.get("since", "0")
    if not raw.isdigit() or len(raw) > 9:
        raise Refused(400, f"since must be a step number (0 or more), not {raw[:20]!r}")
    return int(raw)


async def api_players(request: Request) -> Response:
    """``GET /api/players``: the players' names, who this link is (a player or ``host``) and
    whether a campaign is served."""
    server = server_of(request)
    who = server.who(request)
    return JSONResponse({"players": server.players, "you": who,
                         "campaign": server.desk is not None, "playing": server.playing})


async def api_view(request: Request) -> Response:
    """``GET /api/view``: the players' view of the game for ``player``."""
    server = server_of(request)
    player = server.acting(request, request.query_params.get("player"))
    since = since_of(request)
    return JSONResponse(await run_in_threadpool(view_doc, server, player, since))


async def json_body(request: Request, keys: tuple[str, ...], example: str) -> dict[str, Any]:
    """A POST's JSON body (``keys`` only), or 415 for another content type."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise Refused(415, f"send the answer as JSON (Content-Type: application/json): "
                      f"{example}")
    return await read_body(request, keys)


def step_of(body: dict[str, Any]) -> int | None:
    """The body's ``step`` (the prompt's step number), or None when it names none."""
    step = body.get("step")
    if step is None:
        return None
    if not isinstance(step, int) or isinstance(step, bool) or not 0 <= step < 10**9:
        raise Refused(400, "step must be the prompt's step number (a whole number)")
    return step


def text_of(body: dict[str, Any], key: str = "answer") -> str:
    """The body's answer: text, one line, at most :data:`MAX_ANSWER` characters."""
    answer = body.get(key)
    if not isinstance(answer, str):
        raise Refused(400, f'{key} must be text, e.g. {{"player": "Ana", "{key}": "done"}}')
    if len(answer) > MAX_ANSWER:
        raise Refused(400, f"{key} is too long ({len(answer)} characters; at most "
                      f"{MAX_ANSWER})")
    check_line(answer, key)
    return answer


async def answer_body(request: Request, server: TableServer
                      ) -> tuple[str | None, str, int | None]:
    """The answer's JSON body, checked: whose answer it is (None: the host's, for whoever
    is asked), its text (one short line) and the step it answers."""
    body = await json_body(request, BODY_KEYS, '{"player": NAME, "answer": TEXT, "step": N}')
    player = server.acting(request, body.get("player"), body)
    return player, text_of(body), step_of(body)


def answer_message(table: GameTable, outcome: Outcome) -> str:
    """The reply's message: the outcome's, or what the page says for ``help`` (what to tap:
    :func:`page_help`), ``map`` and ``quit``."""
    message = outcome.message
    if outcome.meta == "help":
        message = page_help(table.game.edition)
    elif outcome.meta == "map":
        message = "Download the map: board.svg or board.png (links under the board)."
    elif outcome.meta in ("quit", "exit") and outcome.ok:
        message = (f"The game is saved after every step ({table.save.name}). Close the page "
                   "when you like; the host stops the server with Ctrl+C and goes on later "
                   f"with `solo-ops serve --resume {table.save}` or `solo-ops play "
                   f"--resume {table.save}`.")
    return message


def answer_status(outcome: Outcome) -> int:
    """The reply's status: 409 out of turn, after the end or for an answered step, 507/500
    when saving failed."""
    status = 409 if outcome.refusal in ("turn", "ended", "stale") else 200
    if outcome.refusal == "save":  # the step was taken back: the game is as last saved
        status = 507 if outcome.errno == errno.ENOSPC else 500
    return status


async def api_answer(request: Request) -> Response:
    """``POST /api/answer``: take a player's answer, send the update to every page."""
    server = server_of(request)
    table = server.table
    player, answer, step = await answer_body(request, server)
    outcome = await run_in_threadpool(lambda: table.answer(player, answer, step=step))
    await publish(server, outcome)
    message = answer_message(table, outcome)
    doc: dict[str, Any] = {"ok": outcome.ok, "message": message, "prompt": server.prompt_doc()}
    if outcome.confirm is not None:
        doc["confirm"] = outcome.confirm
        if outcome.proposal is not None:  # the page draws it on the board, as a tap's
            doc["route"] = [[round(x, 2), round(y, 2)] for x, y in outcome.proposal.route]
    if outcome.records:
        doc["records"] = [table.shown(r) for r in outcome.records]
    if outcome.meta:
        doc["meta"] = outcome.meta
    if outcome.meta == "help":
        doc["typed"] = typed_help(table.game.edition)
    status = answer_status(outcome)
    return JSONResponse(doc, status_code=status)


MOVE_WORDS = ("move", "dash", "fallback", "advance", "charge")
"""The first words of the prompt's options that a tap on the board can answer."""


def tap_words(prompt: dict[str, Any]) -> list[str]:
    """The moves a tap may answer now: the prompt's options that are a move to ``X,Y``."""
    return [o.split()[0] for o in prompt.get("options", [])
            if o.split()[0] in MOVE_WORDS and "X,Y" in o]


async def api_place(request: Request) -> Response:
    """``GET /api/place``: where a tap at (x, y) lands and which moves the game takes there."""
    server = server_of(request)
    table = server.table
    server.acting(request, request.query_params.get("player"))
    q = request.query_params
    try:
        x, y = float(q.get("x", "")), float(q.get("y", ""))
    except ValueError:
        raise Refused(400, "x and y must be numbers (inches)") from None
    how = q.get("how", "move")
    if how not in placing.KINDS:
        raise Refused(400, f"how must be one of {', '.join(MOVE_WORDS)}")
    try:
        placing.move_kind(how, table.game.edition)
    except RuleError as exc:  # a move the edition lacks: a bad request, not the game's word
        raise Refused(400, str(exc)) from None

    def run() -> dict[str, Any]:
        with table.lock:
            offered = tap_words(table.prompt_doc())
            return placing.preview(table.game, table.state, x, y, how,
                                   check=table.refusal_of, offered=offered)

    try:
        return JSONResponse({"ok": True, **await run_in_threadpool(run)})
    except RuleError as exc:
        return JSONResponse({"ok": False, "message": str(exc)})
