"""The table view's gatekeeping: host check, tokens, body limits and one-message errors.

:class:`Guard` (ASGI middleware) adds the security headers to every response and refuses a
request addressed to any name but the exact ones the game is served as (:func:`allowed_hosts`:
localhost's names, and beyond localhost this computer's address and name), so a page elsewhere
cannot reach the game through a name of its own that points here (DNS rebinding);
:func:`token_of` finds a request's token (whose it is, is :mod:`solo_ops.session.links`');
:func:`read_body` reads an answer's JSON body within :data:`MAX_BODY` bytes and
:data:`MAX_BODY_DEPTH` levels of nesting; :func:`check_line` refuses text that is not one line
of plain text; :class:`Refused` and the handlers in :data:`EXCEPTION_HANDLERS` turn every error
into one JSON document with one clear ``message``.
"""

from __future__ import annotations

import ipaddress
import json
import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from solo_ops.core.errors import SaveError, SoloOpsError

MAX_BODY = 4096
"""The largest request body accepted, in bytes."""
MAX_BODY_DEPTH = 3
"""The deepest nesting of lists and objects a request body may have (an answer is one flat
object; a deeper body is refused before it is parsed)."""
LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
"""The names a request to a game served on this computer only may be addressed to (the Host
header, without its port), exactly."""
BODY_KEYS = ("player", "answer", "token", "step")
SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy",
     b"default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
     b"script-src 'self'; connect-src 'self'; frame-ancestors 'none'"),
]


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """``text`` as an IP address (IPv6 with or without its brackets; brackets hold IPv6 only),
    or None."""
    bracketed = text.startswith("[") and text.endswith("]")
    try:
        address = ipaddress.ip_address(text[1:-1] if bracketed else text)
    except ValueError:
        return None
    return None if bracketed and address.version != 6 else address


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a bind address) serves this computer only: ``localhost`` or a
    loopback address (``127.0.0.0/8``, ``::1``), decided from the parsed address, never its
    first characters (``127.0.0.1.example.com`` is a name like any other)."""
    address = _address(host.strip())
    return host.strip().lower() == "localhost" or (address is not None and address.is_loopback)


_NAME = re.compile(r"(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
                   r"(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*")
_HOST = re.compile(r"(\[[0-9a-f:.]+\]|[^\[\]:]+)(?::([0-9]{1,5}))?")


def canonical_name(name: str) -> str | None:
    """A host name as the allow-list holds it: an IP address in its one written form (IPv6 in
    brackets), a DNS name in lower case; None for anything that is neither."""
    name = name.strip().lower()
    address = _address(name)
    if address is not None:
        return f"[{address.compressed}]" if address.version == 6 else address.compressed
    if name.startswith("[") or not _NAME.fullmatch(name):
        return None
    return name


def parse_host(header: str) -> tuple[str, int | None] | None:
    """A Host header's ``(name, port)`` (the name by :func:`canonical_name`; the port None
    when it is left out), or None when the header is not exactly a host and an optional
    port: anything after the name or port (``localhost:80@evil.com``, ``[::1]evil``,
    ``localhost:8765/evil``), an unclosed bracket, a port that is not a number 1-65535."""
    found = _HOST.fullmatch(header.strip().lower())
    if found is None:
        return None
    name = canonical_name(found.group(1))
    if name is None:
        return None
    port = found.group(2)
    if port is None:
        return name, None
    if not 1 <= int(port) <= 65535:
        return None
    return name, int(port)


def allowed_hosts(extra: Iterable[str] = ()) -> frozenset[str]:
    """The exact names (:func:`canonical_name`: lower case, an IP address in its one written
    form, IPv6 in brackets, no port) a served game answers to: localhost's and ``extra``
    (beyond localhost: the address and names it is served as)."""
    names = {n for n in (canonical_name(x) for x in (*LOOPBACK_NAMES, *extra)) if n}
    return frozenset(names)


def host_name(header: str) -> str | None:
    """The name in a Host header, without its port (:func:`parse_host`), or None when the
    header is not a host."""
    parsed = parse_host(header)
    return None if parsed is None else parsed[0]


class Refused(Exception):
    """A request refused with an HTTP status and one clear message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


class Guard:
    """ASGI middleware: security headers on every response, and only requests addressed to
    one of ``hosts`` exactly (:func:`allowed_hosts`): a web page elsewhere cannot reach the
    game through a name of its own that points here."""

    def __init__(self, app: Any, *, hosts: frozenset[str], port: int | None = None) -> None:
        self.app, self.hosts, self.port = app, hosts, port

    def allows(self, header: str) -> bool:
        """Whether a request with this Host header is addressed to the game: exactly one of
        its names, and its port when the header gives one and the game's is known."""
        parsed = parse_host(header)
        if parsed is None or parsed[0] not in self.hosts:
            return False
        return parsed[1] is None or self.port is None or parsed[1] == self.port

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        hosts = [v for k, v in scope.get("headers") or [] if k == b"host"]
        host = hosts[0].decode("latin-1") if len(hosts) == 1 else ""
        if not self.allows(host):
            shown = ", ".join(sorted(self.hosts))
            response = JSONResponse({"ok": False, "message": "this game is served only as "
                                     f"{shown}: open it by one of those names"},
                                    status_code=403)
            await response(scope, receive, send)
            return

        async def send_with_headers(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)


def token_of(request: Request, body: dict[str, Any] | None = None) -> str | None:
    """The token a request carries (a query parameter, the ``X-Solo-Ops-Token`` header or the
    body's ``token``), or None; anything but short text is refused."""
    given = request.query_params.get("token") or request.headers.get("x-solo-ops-token") \
        or (body or {}).get("token")
    if given is None or given == "":
        return None
    if not isinstance(given, str) or len(given) > 64:
        raise Refused(403, "this link's token is not valid: ask the host for your link")
    return given


def nesting(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` in JSON ``text`` (brackets inside strings do not
    count); counted before parsing, so no body can exhaust the parser's stack."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def check_line(text: str, what: str = "answer") -> None:
    """Refuse (400) text that is not one line of plain text: any control, format, surrogate,
    private-use or unassigned character, and any separator but the plain space (a line or
    paragraph separator such as U+2028 would start a new line where the terminal reads one)."""
    for i, ch in enumerate(text):
        kind = unicodedata.category(ch)
        if kind[0] == "C" or (kind[0] == "Z" and ch != " "):
            raise Refused(400, f"{what} must be one line of plain text (no control or "
                          f"separator characters: U+{ord(ch):04X} at {i + 1})")


async def read_body(request: Request, keys: tuple[str, ...] = BODY_KEYS) -> dict[str, Any]:
    """The request's body: one JSON object of at most :data:`MAX_BODY` bytes and
    :data:`MAX_BODY_DEPTH` levels, ``keys`` only."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise Refused(413, f"the request body is too large (at most {MAX_BODY} bytes)")
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise Refused(413, f"the request body is too large (at most {MAX_BODY} bytes)")
    shape = 'the body must be one JSON object: {"player": NAME, "answer": TEXT}'
    try:
        text = raw.decode("utf-8")
        if nesting(text) > MAX_BODY_DEPTH:
            raise Refused(400, f"the body is nested too deep (at most {MAX_BODY_DEPTH} "
                          "levels): " + shape)
        body = json.loads(text, parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise Refused(400, shape) from None
    if not isinstance(body, dict):
        raise Refused(400, shape)
    unknown = [k for k in body if k not in keys]
    if unknown:
        raise Refused(400, f"unknown key {str(unknown[0])[:40]!r} in the body (known: "
                      f"{', '.join(keys)})")
    return body


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number")


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
    """An error the game raised (a :class:`SoloOpsError`) with its message: 503 when the game
    could not be saved (a full disk: try again later), else 400 (what the request asked is
    not something the game takes)."""
    message = getattr(exc, "message", None) or str(exc)
    status = 503 if isinstance(exc, SaveError) else 400
    return JSONResponse({"ok": False, "message": message}, status_code=status)


async def crash(request: Request, exc: Exception) -> Response:
    """Anything else: 500 naming the error's type (the game is as it was saved)."""
    return JSONResponse({"ok": False, "message": f"internal error ({type(exc).__name__}); "
                         "the game is as it was saved"}, status_code=500)


EXCEPTION_HANDLERS: dict[Any, Any] = {
    Refused: refused, HTTPException: http_error, SoloOpsError: game_error, Exception: crash}
"""The app's exception handlers, in the order Starlette is given them."""
