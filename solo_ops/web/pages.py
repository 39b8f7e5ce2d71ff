"""The table view's page and pictures: ``GET /``, ``/static/...``, ``/board.svg``, ``/board.png``.

The page (``static/index.html``), its script and style sheet are read once when the app is made
(:func:`load_static`); the board is drawn from the players' view (:mod:`solo_ops.web.board`)
once per step of the game — every page asks for the same picture — and downloaded as an
attachment with ``download=1``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from importlib import resources

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from solo_ops.view.board_view import Focus
from solo_ops.web import board
from solo_ops.web.guard import Refused
from solo_ops.web.server import server_of, tip

STATIC = {"app.js": "text/javascript; charset=utf-8", "app.css": "text/css; charset=utf-8",
          "setup.js": "text/javascript; charset=utf-8",
          "board.js": "text/javascript; charset=utf-8",
          "campaign.js": "text/javascript; charset=utf-8",
          "index.html": "text/html; charset=utf-8"}


def load_static() -> dict[str, bytes]:
    """The page's files (:data:`STATIC`), read from the package."""
    return {name: resources.files("solo_ops.web").joinpath("static", name).read_bytes()
            for name in STATIC}


async def page(request: Request) -> Response:
    """``GET /``: the page (never cached)."""
    server = server_of(request)
    server.authorised(request)
    return Response(server.static["index.html"], media_type=STATIC["index.html"],
                    headers={"cache-control": "no-store"})


async def static_file(request: Request) -> Response:
    """``GET /static/{name}``: the page's script or style sheet (no token needed)."""
    name = request.path_params["name"]
    if name not in STATIC or name == "index.html":
        raise Refused(404, f"no such file: /static/{name[:40]}")
    return Response(server_of(request).static[name], media_type=STATIC[name],
                    headers={"cache-control": "no-cache"})


def drawing(kind: str) -> Callable[[Request], Awaitable[Response]]:
    """The route drawing the board now as ``kind`` (``svg`` or ``png``); an SVG with
    ``layout=phone`` carries the phone's label set (:class:`~solo_ops.view.board_view.Focus`:
    the models and doors the question is about labelled, in letters sized for a phone)."""
    async def handler(request: Request) -> Response:
        server = server_of(request)
        table = server.table
        server.acting(request, request.query_params.get("player"))
        layout = request.query_params.get("layout", "full")
        if layout not in ("full", "phone") or (layout == "phone" and kind != "svg"):
            raise Refused(400, "layout must be full or phone (phone: board.svg only)")

        def run() -> bytes:
            with table.lock:
                key = (id(table), tip(table), f"{kind}-{layout}")  # every page asks for these
                if key in server.pictures:
                    return server.pictures[key]
                view = table.view()
                records = table.records()
                if kind == "svg":
                    phone = None
                    if layout == "phone":
                        found = server.offers()["focus"]
                        phone = Focus(frozenset(found["ids"]), frozenset(found["features"]))
                    data = board.board_svg(table.game, table.state, view, records,
                                           phone).encode("utf-8")
                else:
                    data = board.board_png(table.game, table.state, view, records)
                for old in [k for k in server.pictures if k[:2] != key[:2]]:
                    del server.pictures[old]  # only the game as it is now is asked for
                server.pictures[key] = data
                return data

        data = await run_in_threadpool(run)
        headers = {"cache-control": "no-store"}
        if request.query_params.get("download"):
            headers["content-disposition"] = f'attachment; filename="board.{kind}"'
        media = "image/svg+xml" if kind == "svg" else "image/png"
        return Response(data, media_type=media, headers=headers)

    return handler
