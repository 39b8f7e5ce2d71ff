"""The set-up that sets up the table: ``GET /api/setup`` and ``GET /setup-sheet.png``.

The page's set-up card (and a campaign's set-up phase) shows the enemy to put out with its
weapons, every hidden counter's place, the roster's table of what a counter may become, the drop
zones, the objective markers and the players' operatives, each measured from two table edges
(:func:`solo_ops.view.setup.setup_doc`); the sheet is the same on one printable page with the
set-up picture (:func:`solo_ops.view.setup.sheet_png`). Both are built from the player view:
a counter's place, never what it holds.
"""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from solo_ops.view import setup
from solo_ops.web.guard import Refused
from solo_ops.web.server import server_of


def _table(request: Request) -> Any:
    server = server_of(request)
    server.who(request)
    table = server.setup_table()
    if table is None:
        raise Refused(409, "no mission is set up now: the campaign page shows what comes next")
    return table


async def api_setup(request: Request) -> Response:
    """``GET /api/setup``: the set-up in words, measured from the table's edges."""
    table = _table(request)

    def run() -> dict[str, Any]:
        with table.lock:
            return setup.setup_doc(table.game, table.state, table.view())

    return JSONResponse(await run_in_threadpool(run), headers={"cache-control": "no-store"})


async def setup_sheet(request: Request) -> Response:
    """``GET /setup-sheet.png``: the printable set-up sheet (one A4 page)."""
    table = _table(request)

    def run() -> bytes:
        with table.lock:
            return setup.sheet_png(table.game, table.state, table.view())

    headers = {"cache-control": "no-store"}
    if request.query_params.get("download"):
        headers["content-disposition"] = 'attachment; filename="setup-sheet.png"'
    return Response(await run_in_threadpool(run), media_type="image/png", headers=headers)
