"""The table view's web application: a JSON API, a live event stream and the page.

Everything a response holds is built from the players' view
(:meth:`~solo_ops.session.table.GameTable.view`,
:meth:`~solo_ops.session.table.GameTable.shown`): no
counter contents, hidden orders or planned hidden moves reach the page, the API or the SVG.

Routes (``player`` is a player's name; beyond localhost every route but the static files also
needs the game's join ``token``, as a query parameter or an ``X-Solo-Ops-Token`` header):

* ``GET /`` the page; ``GET /static/...`` its script and style sheet;
* ``GET /api/players`` the players' names;
* ``GET /api/view?player=NAME[&since=N]`` ``{"prompt", "records", "score"}`` (``prompt`` and each
  record exactly as ``play --json`` prints them) and, for the page, ``player``, ``players``,
  ``waiting_for``, ``your_turn``, ``narration``, ``models``, ``doors``, ``board``, ``briefing``,
  ``steps``;
* ``POST /api/answer`` ``{"player", "answer"}`` → ``{"ok", "message", "prompt"}`` (and
  ``confirm`` when a computed move waits for a yes, ``records`` the new steps);
* ``GET /api/events?player=NAME`` server-sent events: one ``data:`` line per record as
  ``play --json`` prints it (``{"record": ...}``), then the next prompt (``{"prompt": ...}``),
  an undo as the log writes it (``{"undo": true, "keep": N}``), the end as ``{"result": ...}``;
* ``GET /api/place?player=NAME&x=X&y=Y[&how=move]`` a tap's snapped point, distance around the
  walls and whether it is within the move (:mod:`solo_ops.web.placing`);
* ``GET /board.svg?player=NAME`` and ``GET /board.png?player=NAME`` the board now.

Answers are accepted only from the player whose prompt it is (409 otherwise); bodies are at
most :data:`MAX_BODY` bytes of JSON (413 beyond, 400 for anything malformed, 415 for another
content type), and every error is one JSON document with one clear ``message``.

The routes live in modules named for what they own: :mod:`solo_ops.web.guard` (host check,
join token, body limits, one-message errors), :mod:`solo_ops.web.api` (players, view, answers,
tap previews), :mod:`solo_ops.web.stream` (the event stream), :mod:`solo_ops.web.pages` (the
page, its files and the board pictures); what they share for one game is a
:class:`~solo_ops.web.server.TableServer` in the app's ``state``.
"""

from __future__ import annotations

from typing import Any

from starlette.applications import Starlette
from starlette.routing import Route

from solo_ops.session.table import GameTable
from solo_ops.web.api import MAX_ANSWER, api_answer, api_place, api_players, api_view
from solo_ops.web.guard import (
    BODY_KEYS,
    EXCEPTION_HANDLERS,
    LOOPBACK,
    MAX_BODY,
    SECURITY_HEADERS,
    Guard,
    Refused,
    is_loopback,
    new_token,
)
from solo_ops.web.pages import STATIC, drawing, load_static, page, static_file
from solo_ops.web.server import Hub, TableServer
from solo_ops.web.stream import KEEP_ALIVE, api_events

__all__ = ["BODY_KEYS", "KEEP_ALIVE", "LOOPBACK", "MAX_ANSWER", "MAX_BODY", "SECURITY_HEADERS",
           "STATIC", "Guard", "Hub", "Refused", "TableServer", "create_app", "is_loopback",
           "new_token"]


def create_app(table: GameTable, *, token: str | None = None, local_only: bool = True) -> Any:
    """The ASGI application serving ``table``. With ``token`` (served beyond localhost) every
    request but the static files must carry it; ``local_only`` refuses requests addressed to
    any name but localhost."""
    server = TableServer(table, token, Hub(), load_static())
    routes = [
        Route("/", page),
        Route("/static/{name}", static_file),
        Route("/api/players", api_players),
        Route("/api/view", api_view),
        Route("/api/answer", api_answer, methods=["POST"]),
        Route("/api/events", api_events),
        Route("/api/place", api_place),
        Route("/board.svg", drawing("svg")),
        Route("/board.png", drawing("png")),
    ]
    app = Starlette(routes=routes, exception_handlers=EXCEPTION_HANDLERS)
    app.state.server = server
    app.state.hub = server.hub
    app.state.table = table
    return Guard(app, local_only=local_only)
