"""The table view's gatekeeping: host check, join token, body limits and one-message errors.

:class:`Guard` (ASGI middleware) adds the security headers to every response and, served on
localhost, refuses requests addressed to any other name; :func:`check_token` asks for the
game's join token beyond localhost; :func:`read_body` reads an answer's JSON body within
:data:`MAX_BODY` bytes; :class:`Refused` and the handlers in :data:`EXCEPTION_HANDLERS` turn
every error into one JSON document with one clear ``message``.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from solo_ops.core.errors import SoloOpsError

MAX_BODY = 4096
"""The largest request body accepted, in bytes."""
LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")
BODY_KEYS = ("player", "answer", "token")
SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy",
     b"default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
     b"script-src 'self'; connect-src 'self'; frame-ancestors 'none'"),
]


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a bind address) serves this computer only."""
    return host in LOOPBACK or host.startswith("127.")


def new_token() -> str:
    """A per-game join token (printed at start, in every join link)."""
    return secrets.token_urlsafe(12)


class Refused(Exception):
    """A request refused with an HTTP status and one clear message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


class Guard:
    """ASGI middleware: security headers on every response, and — when served on localhost —
    only requests addressed to localhost (a web page elsewhere cannot reach the game through
    a name that points here)."""

    def __init__(self, app: Any, *, local_only: bool) -> None:
        self.app, self.local_only = app, local_only

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self.local_only:
            host = dict(scope.get("headers") or []).get(b"host", b"").decode("latin-1")
            name = host.rsplit(":", 1)[0] if not host.startswith("[") else \
                host.split("]")[0] + "]"
            if name not in LOOPBACK and not name.startswith("127."):
                response = JSONResponse({"ok": False, "message": "this game is served to this "
                                         "computer only (open it as localhost or 127.0.0.1)"},
                                        status_code=403)
                await response(scope, receive, send)
                return

        async def send_with_headers(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)


def check_token(request: Request, token: str | None,
                body: dict[str, Any] | None = None) -> None:
    """Refuse (403) a request without the game's join ``token`` (none needed on localhost)."""
    if token is None:
        return
    given = request.query_params.get("token") or request.headers.get("x-solo-ops-token") \
        or (body or {}).get("token")
    if not isinstance(given, str) or not secrets.compare_digest(given.encode(),
                                                                token.encode()):
        raise Refused(403, "this game needs its join token: open the link that "
                      "`solo-ops serve` printed for you")


async def read_body(request: Request) -> dict[str, Any]:
    """The request's body: one JSON object of at most :data:`MAX_BODY` bytes, known keys only."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise Refused(413, f"the request body is too large (at most {MAX_BODY} bytes)")
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise Refused(413, f"the request body is too large (at most {MAX_BODY} bytes)")
    try:
        body = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise Refused(400, 'the body must be one JSON object: {"player": NAME, "answer": '
                      'TEXT}') from None
    if not isinstance(body, dict):
        raise Refused(400, 'the body must be one JSON object: {"player": NAME, "answer": '
                      'TEXT}')
    unknown = [k for k in body if k not in BODY_KEYS]
    if unknown:
        raise Refused(400, f"unknown key {str(unknown[0])[:40]!r} in the body (known: "
                      f"{', '.join(BODY_KEYS)})")
    return body


# -- errors ------------------------------------------------------------------------------------
async def refused(request: Request, exc: Exception) -> Response:
    """A :class:`Refused` request: its status and its message."""
    assert isinstance(exc, Refused)
    return JSONResponse({"ok": False, "message": exc.message}, status_code=exc.status)


async def http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own refusals (no such page, method not allowed) as one clear message."""
    assert isinstance(exc, HTTPException)
    text = {404: f"no such page: {request.url.path[:60]}",
            405: f"{request.method} is not allowed on {request.url.path[:60]}"}
    return JSONResponse({"ok": False, "message": text.get(exc.status_code,
                                                           str(exc.detail))},
                        status_code=exc.status_code)


async def game_error(request: Request, exc: Exception) -> Response:
    """An error the game raised (a :class:`SoloOpsError`): 500 with its message."""
    message = getattr(exc, "message", None) or str(exc)
    return JSONResponse({"ok": False, "message": message}, status_code=500)


async def crash(request: Request, exc: Exception) -> Response:
    """Anything else: 500 naming the error's type (the game is as it was saved)."""
    return JSONResponse({"ok": False, "message": f"internal error ({type(exc).__name__}); "
                         "the game is as it was saved"}, status_code=500)


EXCEPTION_HANDLERS: dict[Any, Any] = {
    Refused: refused, HTTPException: http_error, SoloOpsError: game_error, Exception: crash}
"""The app's exception handlers, in the order Starlette is given them."""
