"""ASGI middleware: security headers, the request body limit and the player cookie.

Pure ASGI (no ``BaseHTTPMiddleware``), so it costs little and sees every answer,
errors included.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
from collections.abc import Iterable
from http.cookies import SimpleCookie
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pasyans.server.docs import DOCS_CSP
from pasyans.server.errors import EN, RU
from pasyans.server.settings import Settings
from pasyans.server.store import hash_token

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


def _header(scope: Scope, name: bytes) -> str | None:
    headers: Iterable[tuple[bytes, bytes]] = scope.get("headers", ())
    for k, v in headers:
        if k == name:
            return v.decode("latin-1")
    return None


class Security:
    """Adds the security headers, enforces ``max_body_bytes`` and gives every ``/api``
    request a player token (``request.state.token_hash``), setting the cookie when new."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings

    def is_https(self, scope: Scope) -> bool:
        if self.settings.secure_cookies == "always":
            return True
        if self.settings.secure_cookies == "never":
            return False
        if scope.get("scheme") == "https":
            return True
        forwarded = _header(scope, b"x-forwarded-proto")
        return self.settings.trust_proxy and (forwarded or "").split(",")[0].strip() == "https"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        https = self.is_https(scope)
        csp = DOCS_CSP if scope["path"].startswith("/docs") else CSP
        extra: list[tuple[bytes, bytes]] = [(b"content-security-policy", csp.encode()), *HEADERS]
        if https:
            extra.append((b"strict-transport-security", b"max-age=31536000"))
        if scope["path"].startswith("/api"):
            token, is_new = self._token(scope)
            scope.setdefault("state", {})["token_hash"] = hash_token(token)
            if is_new:
                extra.append((b"set-cookie", self._cookie(token, https).encode("latin-1")))

        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() not in _OURS]
                message = {**message, "headers": headers + extra}
            await send(message)

        body_receive = await self._limited_body(scope, receive)
        if body_receive is None:
            await self._error(send_with_headers, scope, 413, "body_too_large")
            return
        try:
            await self.app(scope, body_receive, send_with_headers)
        except Exception:
            # Answered here rather than by Starlette's outermost error middleware, so that
            # a 500 carries the security headers too.
            log.exception("unhandled error on %s %s", scope.get("method"), scope["path"])
            if started:
                raise
            await self._error(send_with_headers, scope, 500, "internal_error")

    def _token(self, scope: Scope) -> tuple[str, bool]:
        raw = _header(scope, b"cookie")
        if raw:
            jar: SimpleCookie = SimpleCookie()
            try:
                jar.load(raw)
            except Exception:
                jar = SimpleCookie()
            morsel = jar.get(COOKIE)
            if morsel is not None and _TOKEN_RE.match(morsel.value):
                return morsel.value, False
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
        if length is not None and (not length.isdigit() or int(length) > limit):
            return None
        if scope["method"] in ("GET", "HEAD", "OPTIONS") and length is None:
            return receive
        chunks: list[bytes] = []
        size = 0
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

    async def _error(self, send: Any, scope: Scope, status: int, code: str) -> None:
        accept = (_header(scope, b"accept-language") or "").lower()
        ru = accept.startswith("ru")
        body = json.dumps(
            {
                "error": {
                    "code": code,
                    "message": RU[code] if ru else EN[code],
                    "message_en": EN[code],
                    "message_ru": RU[code],
                }
            },
            ensure_ascii=False,
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
