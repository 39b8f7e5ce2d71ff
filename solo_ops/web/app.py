"""The table view's web application: a JSON API, a live event stream and the page.

Everything a response holds is built from the players' view
(:meth:`~solo_ops.session.table.GameTable.view`,
:meth:`~solo_ops.session.table.GameTable.shown`): no
counter contents, hidden orders or planned hidden moves reach the page, the API or the SVG.

Routes (``player`` is a player's name; beyond localhost every route but the static files also
needs a link's ``token`` — a player's, which shows and answers as that player only, or the
host's, which answers for anyone — as a query parameter or an ``X-Solo-Ops-Token`` header):

* ``GET /`` the page; ``GET /static/...`` its script and style sheet;
* ``GET /api/players`` the players' names;
* ``GET /api/view?player=NAME[&since=N]`` ``{"prompt", "records", "score"}`` (``prompt`` and each
  record exactly as ``play --json`` prints them) and, for the page, ``player``, ``players``,
  ``waiting_for``, ``your_turn``, ``narration``, ``models``, ``doors``, ``board``, ``briefing``,
  ``steps``, ``offers`` (the one-thumb answers, :mod:`solo_ops.web.offers`), ``cards`` (each
  model's card, :mod:`solo_ops.view.cards`), ``focus`` (what the question is about);
* ``POST /api/answer`` ``{"player", "answer", "step"}`` → ``{"ok", "message", "prompt"}`` (and
  ``confirm`` when a computed move waits for a yes, ``records`` the new steps); ``step`` is the
  prompt's step number: an answer to an older step is refused (409 "already answered");
* ``GET /api/events?player=NAME`` server-sent events: one ``data:`` line per record as
  ``play --json`` prints it (``{"record": ...}``), then the next prompt (``{"prompt": ...}``),
  an undo as the log writes it (``{"undo": true, "keep": N}``), the end as ``{"result": ...}``;
* ``GET /api/place?player=NAME&x=X&y=Y[&how=move]`` a tap's snapped point, distance around the
  walls and which moves the game takes there (:mod:`solo_ops.web.placing`);
* ``GET /api/join`` (the host only) every player's link with its QR code;
* ``GET /api/setup`` the set-up measured from the table's edges, ``GET /setup-sheet.png`` the
  printable sheet (:mod:`solo_ops.web.setup`);
* ``GET /board.svg?player=NAME[&layout=phone]`` and ``GET /board.png?player=NAME`` the board
  now (``layout=phone``: the phone's label set).

Answers are accepted only from the player whose prompt it is (409 otherwise); bodies are at
most :data:`MAX_BODY` bytes of JSON nested at most three levels (413 beyond, 400 for anything
malformed or deeper, 415 for another content type), an answer is one line of plain text (400
for any control or separator character), and every error is one JSON document with one clear
``message``.

The routes live in modules named for what they own: :mod:`solo_ops.web.guard` (host check,
join token, body limits, one-message errors), :mod:`solo_ops.web.api` (players, view, answers,
tap previews), :mod:`solo_ops.web.stream` (the event stream), :mod:`solo_ops.web.pages` (the
page, its files and the board pictures); what they share for one game is a
:class:`~solo_ops.web.server.TableServer` in the app's ``state``.
"""

from __future__ import annotations

from collections.abc import Iterable
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
    allowed_hosts,
    is_loopback,
)
from solo_ops.web.join import api_join
from solo_ops.web.pages import STATIC, drawing, load_static, page, static_file
from solo_ops.web.server import Desk, Hub, TableServer
from solo_ops.web.setup import api_setup, setup_sheet
from solo_ops.web.stream import KEEP_ALIVE, api_events

__all__ = ["BODY_KEYS", "KEEP_ALIVE", "LOOPBACK", "MAX_ANSWER", "MAX_BODY", "SECURITY_HEADERS",
           "STATIC", "Guard", "Hub", "Refused", "TableServer", "allowed_hosts", "create_app",
           "is_loopback"]


def create_app(table: GameTable | None, *, local_only: bool = True, hosts: Iterable[str] = (),
               desk: Desk | None = None, extra: Iterable[Route] = (),
               base: str | None = None) -> Any:
    """The ASGI application serving ``table`` (or, with ``desk``, a campaign whose mission is
    ``desk.table``; ``extra`` its routes). ``local_only``: served on this computer only, where a
    request without a token is the host's; beyond it (``local_only=False``) every request but
    the static files carries a player's or the host's token. Requests are answered only when
    addressed to localhost's names or one of ``hosts`` exactly. ``base``: the URL the players
    open (the links the host's page shows as QR codes)."""
    server = TableServer(table, Hub(), load_static(), local_only=local_only, desk=desk,
                         base=base)
    routes = [
        Route("/", page),
        Route("/static/{name}", static_file),
        Route("/api/players", api_players),
        Route("/api/view", api_view),
        Route("/api/answer", api_answer, methods=["POST"]),
        Route("/api/events", api_events),
        Route("/api/place", api_place),
        Route("/api/join", api_join),
        Route("/api/setup", api_setup),
        Route("/setup-sheet.png", setup_sheet),
        Route("/board.svg", drawing("svg")),
        Route("/board.png", drawing("png")),
        *extra,
    ]
    app = Starlette(routes=routes, exception_handlers=EXCEPTION_HANDLERS)
    app.state.server = server
    app.state.hub = server.hub
    return Guard(app, hosts=allowed_hosts(hosts))
