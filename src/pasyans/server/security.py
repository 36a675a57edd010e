"""ASGI middleware: security headers, the request body limit and the player cookie;
``HEAD`` wherever ``GET`` works, ``Cache-Control: no-store`` on the API, JSON-only request
bodies; and a log filter that escapes control characters.

Pure ASGI (no ``BaseHTTPMiddleware``), so it costs little and sees every answer,
errors included. Over 400 lines because the checks that must run before any work (the
cookie, the body, the costly routes' slots) live in this one middleware, in their order.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import math
import re
import secrets
from collections.abc import Iterable, Sequence
from typing import Any

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pasyans import messages
from pasyans.server.docs import DOCS_CSP
from pasyans.server.errors import RETRY_AFTER_SECONDS, ApiError, error_body
from pasyans.server.limits.address import client_address
from pasyans.server.limits.costly import costly
from pasyans.server.limits.rates import SharedLimits
from pasyans.server.limits.slots import AddressSlots, retry_after
from pasyans.server.settings import Settings
from pasyans.server.storage.store import hash_token

log = logging.getLogger("pasyans.server")

COOKIE = "pasyans_player"
COOKIE_MAX_AGE = 365 * 24 * 3600
_TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{43}$")

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
HEADERS: list[tuple[bytes, bytes]] = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
]

_OURS = {b"content-security-policy", *(name for name, _ in HEADERS)}
_NO_STORE = (b"cache-control", b"no-store")
_BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})


def is_json(content_type: str | None) -> bool:
    """Whether a ``Content-Type`` names JSON (``application/json``, parameters allowed)."""
    media = (content_type or "").split(";", 1)[0].strip().lower()
    return media == "application/json"


def trusted(peer: str | None, allow: str) -> bool:
    """Whether ``peer`` (the address the connection came from) is one of the proxies
    ``allow`` lists: addresses or networks, comma-separated, or ``*`` for any (uvicorn's
    ``forwarded_allow_ips``)."""
    if not peer:
        return False
    entries = [e.strip() for e in allow.split(",") if e.strip()]
    if "*" in entries:
        return True
    try:
        address = ipaddress.ip_address(peer)
    except ValueError:
        return peer in entries  # a Unix socket path, say
    for entry in entries:
        try:
            if address in ipaddress.ip_network(entry, strict=False):
                return True
        except ValueError:
            continue
    return False


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def escape_control(text: str) -> str:
    r"""Control characters as escapes, so a request cannot forge or break log lines.

    >>> escape_control("GET /api/games/\x00\nINFO forged")
    'GET /api/games/\\x00\\nINFO forged'
    """
    named = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
    return _CONTROL.sub(
        lambda m: (
            named.get(m.group(), f"\\x{ord(m.group()):02x}")
            if ord(m.group()) < 0x100
            else f"\\u{ord(m.group()):04x}"
        ),
        text,
    )


class EscapeControl(logging.Filter):
    """A log filter (put on handlers) that escapes control characters in the message and
    its arguments: uvicorn's access line carries the decoded request path, where
    ``%00%0A…`` would otherwise start a forged line."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = escape_control(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(escape_control(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {
                k: escape_control(v) if isinstance(v, str) else v for k, v in record.args.items()
            }
        return True


def _header(scope: Scope, name: bytes) -> str | None:
    headers: Iterable[tuple[bytes, bytes]] = scope.get("headers", ())
    for k, v in headers:
        if k == name:
            return v.decode("latin-1")
    return None


class _BadLength(Exception):
    """A ``Content-Length`` that is not a number."""


_ABANDONED: set[asyncio.Future[None]] = set()
"""Requests answered 503 by the deadline, still running (kept from the collector)."""


def _forget(task: asyncio.Future[None]) -> None:
    _ABANDONED.discard(task)
    if not task.cancelled():
        task.exception()  # retrieved: an abandoned request's error is not reported twice


def player_token(raw: str | None) -> str | None:
    """The player's token from a ``Cookie`` header, or None (no valid one).

    One pass over the header, linear in its length: no ``http.cookies`` (its unquoting is
    quadratic in backslashes on CPython before 3.11.10, CVE-2024-7592, and ran in the event
    loop on every request; docs/security.md, "Request heads"). The token is URL-safe
    base64, never quoted; the first pair named ``pasyans_player`` whose value is a token is
    the player's (a browser sends the cookie of the most specific path first)."""
    if not raw:
        return None
    for pair in raw.split(";"):
        name, eq, value = pair.partition("=")
        if eq and name.strip() == COOKIE:
            value = value.strip()
            if _TOKEN_RE.fullmatch(value):
                return value
    return None


class Security:
    """Adds the security headers, enforces ``max_body_bytes`` and gives every ``/api``
    request a player token (``request.state.token_hash``), setting the cookie when new.
    With ``limits``, refuses at once a new game or a hint whose rate limit this process
    already knows to be spent (:meth:`SharedLimits.precheck`): no body parsing, no
    database.

    Abusive clients are slowed rather than answered at full speed (docs/security.md,
    "Slowing limited clients"): a ``429`` is held ``rate_refusal_delay_seconds`` (at most
    its ``Retry-After``) in the event loop, after the route has finished and released its
    thread and database session; and the costly requests of one client address run at most
    ``rate_address_concurrency`` at once per process, held refusals included. A client
    looping on refused requests then gets at most that many answers per delay. A player
    who is never refused is never delayed."""

    def __init__(
        self, app: ASGIApp, settings: Settings, limits: SharedLimits | None = None
    ) -> None:
        self.app = app
        self.settings = settings
        self.limits = limits
        self.delay = settings.rate_refusal_delay_seconds
        self.slots = (
            AddressSlots(settings.rate_address_concurrency, wait_seconds=5.0)
            if settings.rate_address_concurrency > 0
            else None
        )

    def is_https(self, scope: Scope) -> bool:
        if self.settings.secure_cookies == "always":
            return True
        if self.settings.secure_cookies == "never":
            return False
        if scope.get("scheme") == "https":
            return True
        if not self.settings.trust_proxy:
            return False
        # uvicorn (``proxy_headers``) has already applied the header of a trusted proxy to
        # ``scheme``; here only a peer in ``forwarded_allow_ips`` is believed.
        client = scope.get("client")
        if not trusted(client[0] if client else None, self.settings.forwarded_allow_ips):
            return False
        forwarded = _header(scope, b"x-forwarded-proto")
        return (forwarded or "").split(",")[0].strip() == "https"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check one request before the app sees it, and dress its answer. Long because
        its steps must run in this order before any work (the cookie read once and
        removed, the headers of the answer, the body's size and type, the costly routes'
        slots), and each refusal answers at once; each step's rule is a helper."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        head = scope["method"] == "HEAD"
        if head:  # answered as GET without the body, wherever GET works
            scope = {**scope, "method": "GET"}
        cookie = _header(scope, b"cookie")
        if cookie is not None:
            # Read here once (:func:`player_token`), then kept from everything after:
            # Starlette's ``Request.cookies``, which FastAPI reads on every request, unquotes
            # with ``http.cookies`` (quadratic in backslashes: CVE-2024-7592).
            scope = {**scope, "headers": [(k, v) for k, v in scope["headers"] if k != b"cookie"]}
        path: str = scope["path"]
        https = self.is_https(scope)
        csp = DOCS_CSP if path.startswith("/docs") else CSP
        extra: list[tuple[bytes, bytes]] = [(b"content-security-policy", csp.encode()), *HEADERS]
        if https:
            extra.append((b"strict-transport-security", b"max-age=31536000"))
        api = path.startswith("/api")
        token_hash = ""
        is_new = False
        if api:
            token, is_new = self._token(cookie)
            token_hash = hash_token(token)
            state = scope.setdefault("state", {})
            state["token_hash"] = token_hash
            # No valid cookie came: what the ``new_player`` limit counts (a browser's first
            # request, GET /api/current, gets its cookie for free; docs/security.md,
            # "Newcomers").
            state["cookieless"] = is_new
            if is_new:
                extra.append((b"set-cookie", self._cookie(token, https).encode("latin-1")))

        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() not in _OURS]
                if (api or path == "/healthz") and not any(
                    k.lower() == b"cache-control" for k, _ in headers
                ):
                    headers.append(_NO_STORE)
                message = {**message, "headers": headers + extra}
            elif head and message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        try:
            body_receive = await self._limited_body(scope, receive)
        except TimeoutError:
            await self._error(send_with_headers, scope, 408, "request_timeout")
            return
        except _BadLength:
            await self._error(send_with_headers, scope, 400, "bad_request")
            return
        if body_receive is None:
            await self._error(send_with_headers, scope, 413, "body_too_large")
            return
        if (
            api
            and scope["method"] in _BODY_METHODS
            and not is_json(_header(scope, b"content-type"))
        ):
            await self._error(send_with_headers, scope, 415, "unsupported_media_type")
            return
        route = costly(scope["method"], path) if api else None
        if route is None:
            await self._app(scope, body_receive, send_with_headers, path, lambda: started)
            return
        address = client_address(Request(scope), self.settings)
        if self.slots is None:
            await self._costly(scope, body_receive, send_with_headers, path, token_hash,
                               route.names(is_new), address, lambda: started)  # fmt: skip
            return
        async with self.slots.hold(address) as got:
            if not got:  # this address already has its share in progress: refused at once
                await self._refuse(send_with_headers, scope, self.slots.wait_seconds)
                return
            await self._costly(scope, body_receive, send_with_headers, path, token_hash,
                               route.names(is_new), address, lambda: started)  # fmt: skip

    async def _app(
        self, scope: Scope, receive: Receive, send: Send, path: str, started: Any
    ) -> None:
        """The app, answered ``503 database_unavailable`` (``Retry-After``) when it has not
        begun its answer within ``answer_seconds``: a frozen disk holds a thread in a
        read, a write or an fsync that no timeout of the database reaches, and every wait
        must end below the proxy's timeout (docs/deploy.md, "Timeouts"). The abandoned
        request runs on; what it sends later is dropped."""
        late = begun = False
        loop = asyncio.get_running_loop()
        # One future and one timer per request (not a second task and ``asyncio.wait``:
        # this runs on every request, docs/performance.md, "CPU per move").
        gate: asyncio.Future[None] = loop.create_future()

        def open_gate(_: object = None) -> None:
            if not gate.done():
                gate.set_result(None)

        async def guarded(message: Message) -> None:
            nonlocal begun
            if late:
                return
            if message["type"] == "http.response.start":
                begun = True
                open_gate()
            await send(message)

        task = asyncio.ensure_future(self._run(scope, receive, guarded, path, started))
        task.add_done_callback(open_gate)
        timer = loop.call_later(self.settings.answer_seconds, open_gate)
        try:
            await gate
        finally:
            timer.cancel()
        if task.done() or begun:
            await task
            return
        late = True
        _ABANDONED.add(task)
        task.add_done_callback(_forget)
        log.warning("no answer within %s s on %s %s: 503", self.settings.answer_seconds,
                    scope.get("method"), path)  # fmt: skip
        retry = str(RETRY_AFTER_SECONDS).encode()
        await self._error(send, scope, 503, "database_unavailable", [(b"retry-after", retry)])

    async def _run(
        self, scope: Scope, receive: Receive, send: Send, path: str, started: Any
    ) -> None:
        try:
            await self.app(scope, receive, send)
        except Exception:
            # Answered here rather than by Starlette's outermost error middleware, so that
            # a 500 carries the security headers too.
            log.exception("unhandled error on %s %s", scope.get("method"), path)
            if started():
                raise
            await self._error(send, scope, 500, "internal_error")

    async def _costly(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        path: str,
        token_hash: str,
        names: list[str],
        address: str,
        started: Any,
    ) -> None:
        """A new game, hint or winnability check: the precheck, then the app; a ``429``
        (from either) is held back and sent after the refusal delay."""
        held: list[Message] = []

        async def hold_refusal(message: Message) -> None:
            if held or (
                message["type"] == "http.response.start"
                and message["status"] == 429
                and self.delay > 0
            ):
                held.append(message)
                return
            await send(message)

        wait = 0.0 if self.limits is None else self.limits.precheck(names, token_hash, address)
        if wait > 0:
            await self._refuse(hold_refusal, scope, wait)
        else:
            # A held answer counts as started: an error after it is raised, not answered.
            await self._app(scope, receive, hold_refusal, path, lambda: started() or held)
        if held:
            # The route is done: its thread and its database session are free. Only this
            # coroutine waits (a timer in the event loop).
            await asyncio.sleep(min(self.delay, retry_after(held[0]) or self.delay))
            for message in held:
                await send(message)

    async def _refuse(self, send: Any, scope: Scope, wait: float) -> None:
        """429 ``rate_limited``, the answer the route's limit gives (the connection stays
        open)."""
        err = ApiError("rate_limited", headers={"Retry-After": str(max(1, math.ceil(wait)))})
        body = json.dumps(error_body(Request(scope), err), ensure_ascii=False).encode()
        await send(
            {
                "type": "http.response.start",
                "status": err.status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    *((k.lower().encode(), v.encode()) for k, v in (err.headers or {}).items()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    def _token(self, cookie: str | None) -> tuple[str, bool]:
        found = player_token(cookie)
        if found is not None:
            return found, False
        return secrets.token_urlsafe(32), True

    def _cookie(self, token: str, https: bool) -> str:
        parts = [
            f"{COOKIE}={token}",
            "Path=/",
            f"Max-Age={COOKIE_MAX_AGE}",
            "HttpOnly",
            "SameSite=Lax",
        ]
        if https:
            parts.append("Secure")
        return "; ".join(parts)

    async def _limited_body(self, scope: Scope, receive: Receive) -> Receive | None:
        """Read the body up to the limit: a new ``receive`` that replays it, or None when it
        is too large (by ``Content-Length`` or by what actually arrived)."""
        limit = self.settings.max_body_bytes
        length = _header(scope, b"content-length")
        if length is not None and not length.isdigit():
            raise _BadLength
        if length is not None and int(length) > limit:
            return None
        if scope["method"] in ("GET", "HEAD", "OPTIONS") and length is None:
            return receive
        chunks: list[bytes] = []
        size = 0
        # A body sent slowly on purpose holds a worker: it must arrive in time.
        async with asyncio.timeout(self.settings.body_seconds):
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return receive
                chunk = message.get("body", b"")
                size += len(chunk)
                if size > limit:
                    return None
                chunks.append(chunk)
                if not message.get("more_body", False):
                    break
        body = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        return replay

    async def _error(
        self,
        send: Any,
        scope: Scope,
        status: int,
        code: str,
        headers: Sequence[tuple[bytes, bytes]] = (),
    ) -> None:
        accept = (_header(scope, b"accept-language") or "").lower()
        ru = accept.startswith("ru")
        en, ru_text = messages.both(f"error.{code}")
        message = ru_text if ru else en
        inner = {"code": code, "message": message, "message_en": en, "message_ru": ru_text}
        body = json.dumps(
            {"code": code, "message": message, "error": inner}, ensure_ascii=False
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    *([_NO_STORE] if scope["path"].startswith("/api") else []),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                    *headers,
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
