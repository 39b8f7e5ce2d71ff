"""Joining by QR code: ``GET /api/join``, each player's link as a QR code for the host's page.

The host's page shows every player's link as a QR code under the player's name, so each player
joins by pointing a phone's camera at the host's screen instead of typing a 60-character link
with its token. The links are the ones ``serve`` prints (:func:`player_link`, on the URL the
server was started for, else the one the host's page was opened on); only the host sees them
(a player's link is refused: it would hand out every other player's token).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from solo_ops.session.links import HOST
from solo_ops.view import qr
from solo_ops.web.guard import Refused
from solo_ops.web.server import server_of


def player_link(base: str, player: str, links: dict[str, Any]) -> str:
    """``player``'s link: the page on ``base`` with the player's name and token."""
    return f"{base}?{urlencode({'player': player, 'token': links['players'][player]})}"


def join_doc(base: str, players: list[str], links: dict[str, Any]) -> dict[str, Any]:
    """Every player's link and its QR code (an SVG document)."""
    return {"players": [{"player": p, "url": (url := player_link(base, p, links)),
                         "qr": qr.svg(url)} for p in players]}


async def api_join(request: Request) -> Response:
    """``GET /api/join``: the players' links with their QR codes (the host only)."""
    server = server_of(request)
    if server.who(request) != HOST:
        raise Refused(403, "only the host's page shows the players' links")
    links = server.links
    if links is None:
        raise Refused(409, "this game has no links yet")
    base = server.base or str(request.base_url)
    doc = await run_in_threadpool(join_doc, base, list(server.players), links)
    return JSONResponse(doc, headers={"cache-control": "no-store"})
