"""A campaign at the table (``solo-ops campaign serve``): its routes, over the campaign's desk.

The page is the table view's own; between and around the missions it shows the campaign's
part, from ``GET /api/campaign``:

* ``setup`` — the next mission's set-up picture and briefing, and a **ready** button per
  player: the mission starts when every player in it is ready (the host's link readies
  everyone);
* ``mission`` — the mission itself, on the same page (the game routes of
  :mod:`solo_ops.web.api` answer for the mission's table);
* ``ended`` — the mission is over: **record it**, which rolls the survival tests (the game's
  own dice go on, as at the terminal) and writes the after-action report;
* ``report`` — the after-action report with its survival tests (who was carried to safety,
  each roll against its target) and the map of the end, the squads with every model's state,
  injuries and missions played, a recruit in place of each fallen model, and **set up the next
  mission**.

``POST /api/campaign`` ``{"player", "do", ...}`` does one of ``ready``, ``record``, ``next``,
``recruit`` (with ``fallen``, ``id``, ``name``); a player's link acts for that player only
(``ready``, ``recruit`` into their own squad), the host's for anyone. Every change is sent to
every page as ``{"campaign": PHASE, "resync": true}``. The campaign's files and rules are the
desk's (:class:`CampaignDesk`, made by :mod:`solo_ops.cli.campaign_serve`): the same files
``campaign play`` keeps, so the terminal and the page take turns on one campaign.
"""

from __future__ import annotations

import json
from typing import Any, Protocol

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from solo_ops.web.api import json_body, text_of
from solo_ops.web.guard import Refused
from solo_ops.web.server import Desk, TableServer, server_of

CAMPAIGN_KEYS = ("player", "do", "fallen", "id", "name", "token")
"""The keys a campaign request's body may have."""
DOINGS = ("ready", "record", "next", "recruit")


class CampaignDesk(Desk, Protocol):
    """What the campaign routes ask of a served campaign."""

    @property
    def phase(self) -> str: ...

    def document(self, who: str) -> dict[str, Any]:
        """The campaign page's document, as ``who`` (a player or the host) sees it."""
        ...

    def act(self, who: str, player: str | None, do: str, body: dict[str, Any]) -> str:
        """Do ``do`` for ``player`` (None: the host, for everyone); the message to show.
        Raises :class:`~solo_ops.web.guard.Refused` when it cannot be done now."""
        ...

    def picture(self, what: str, phone: bool = False) -> str | None:
        """The set-up picture (``setup``) or the map of the end (``end``) as SVG, if any;
        ``phone``: with the phone's label set, every model and door labelled."""
        ...


def desk_of(server: TableServer) -> CampaignDesk:
    """The served campaign's desk (404 when a single game is served)."""
    if server.desk is None:
        raise Refused(404, "no campaign is served here: this is a single game")
    desk: CampaignDesk = server.desk  # type: ignore[assignment]
    return desk


def changed(server: TableServer, desk: CampaignDesk) -> None:
    """Tell every page the campaign moved on (they fetch it again)."""
    server.hub.publish([json.dumps({"campaign": desk.phase, "resync": True})])


async def api_campaign(request: Request) -> Response:
    """``GET /api/campaign``: the campaign's part of the page now."""
    server = server_of(request)
    desk = desk_of(server)
    who = server.who(request)
    return JSONResponse(await run_in_threadpool(desk.document, who))


async def api_campaign_do(request: Request) -> Response:
    """``POST /api/campaign``: ready, record, next or recruit."""
    server = server_of(request)
    desk = desk_of(server)
    body = await json_body(request, CAMPAIGN_KEYS, '{"player": NAME, "do": "ready"}')
    who = server.who(request, body)
    do = text_of(body, "do")
    if do not in DOINGS:
        raise Refused(400, f"do must be one of {', '.join(DOINGS)}")
    player = body.get("player") or None
    if player is not None:
        player = server.player_of(player)
        if who not in ("host", player):
            raise Refused(403, f"this link is {who}'s: it acts as {who} only")
    elif who != "host":
        player = who
    for key in ("fallen", "id", "name"):
        if key in body:
            text_of(body, key)
    message = await run_in_threadpool(desk.act, who, player, do, body)
    changed(server, desk)
    doc = await run_in_threadpool(desk.document, who)
    return JSONResponse({"ok": True, "message": message, **doc})


async def api_campaign_picture(request: Request) -> Response:
    """``GET /api/campaign/picture.svg?what=setup|end[&layout=phone]``: the set-up picture or
    the map of the end (404 when there is none now); ``layout=phone``: with the phone's label
    set, every model labelled."""
    server = server_of(request)
    desk = desk_of(server)
    server.who(request)
    what = request.query_params.get("what", "setup")
    if what not in ("setup", "end"):
        raise Refused(400, "what must be setup or end")
    layout = request.query_params.get("layout", "full")
    if layout not in ("full", "phone"):
        raise Refused(400, "layout must be full or phone")
    svg = await run_in_threadpool(desk.picture, what, layout == "phone")
    if svg is None:
        raise Refused(404, f"no {'set-up picture' if what == 'setup' else 'map of the end'} "
                      "now")
    return Response(svg.encode("utf-8"), media_type="image/svg+xml",
                    headers={"cache-control": "no-store"})


ROUTES = [
    Route("/api/campaign", api_campaign),
    Route("/api/campaign", api_campaign_do, methods=["POST"]),
    Route("/api/campaign/picture.svg", api_campaign_picture),
]
"""The campaign's routes, added to the table view's (:func:`solo_ops.web.app.create_app`)."""
