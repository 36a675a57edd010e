"""uvicorn's HTTP protocol with a deadline and a size cap for a request's head.

uvicorn closes an idle keep-alive connection (``timeout_keep_alive``) but waits forever
for a connection that sends nothing, or sends its headers a byte at a time ("slowloris"):
each such connection holds a socket and a file descriptor. :class:`HeaderDeadline` closes
it, with ``408 Request Timeout``, when the headers are not all in within
``PASYANS_HEADER_SECONDS`` (default 10) of the connection or of the request's first byte.
It also caps the head (request line and headers) at ``PASYANS_MAX_HEAD_BYTES`` (default
8 KB): a larger one answers ``431 Request Header Fields Too Large`` and the connection is
closed as the bytes arrive, before the parser has kept them or any middleware or route
has run (uvicorn's httptools parser has no such cap: a 50 MB header was read whole).
``pasyans serve`` runs uvicorn with it; the body has its own deadline in
:class:`pasyans.server.security.Security`.
"""

from __future__ import annotations

import asyncio
import json
import os
from functools import cache, lru_cache

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from pasyans import caches, messages

_408 = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"content-length: 16\r\nconnection: close\r\n\r\nRequest Timeout\n"
)


LINGER_SECONDS = 1.0
LINGER_BYTES = 1 << 20


@cache
def header_seconds() -> float:
    return float(os.environ.get("PASYANS_HEADER_SECONDS", "10"))


caches.register("server.header_seconds", header_seconds, bound=1, memory=False)


@cache
def max_head_bytes() -> int:
    return int(os.environ.get("PASYANS_MAX_HEAD_BYTES", "8192"))


@cache
def _head_too_large() -> bytes:
    return _answer(431, "Request Header Fields Too Large", "head_too_large")


@lru_cache(maxsize=4)
def _answer(status: int, reason: str, code: str) -> bytes:
    """A whole closing answer in the API's error format (``error.<code>`` of the
    catalogue)."""
    en, ru = messages.both(f"error.{code}")
    inner = {"code": code, "message": en, "message_en": en, "message_ru": ru}
    body = json.dumps({"code": code, "message": en, "error": inner}, ensure_ascii=False).encode()
    return (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    ).encode() + body


caches.register("server.max_head_bytes", max_head_bytes, bound=1, memory=False)
caches.register("server.head_too_large", _head_too_large, bound=1, memory=False)
caches.register("server.closing_answers", _answer, bound=4, memory=False)


class HeaderDeadline(HttpToolsProtocol):
    """:class:`HttpToolsProtocol` that closes a connection whose headers come too late."""

    _deadline: asyncio.TimerHandle | None = None
    _head = 0  # bytes of the current request's head received so far
    _in_head = True  # the current request's head is not all in
    _tail = b""  # the last bytes of the head so far (an end split between two reads)

    _discarded = -1  # after a 431: bytes read and dropped (-1: none refused)

    def data_received(self, data: bytes) -> None:
        if self._discarded >= 0:
            self._discarded += len(data)
            if self._discarded > LINGER_BYTES:
                self.transport.close()
            return
        if self._in_head:
            end = (self._tail + data).find(b"\r\n\r\n")
            size = self._head + (len(data) if end < 0 else end + 4 - len(self._tail))
            if size > max_head_bytes():
                self._refuse_head()
                return
            self._head = size
            self._tail = (self._tail + data)[-3:]
        super().data_received(data)

    def send_400_response(self, msg: str) -> None:
        """An HTTP request the parser refuses (a bad ``Content-Length``, say): 400 in the
        API's error format rather than uvicorn's plain text."""
        self._disarm()
        if not self.transport.is_closing():
            self.transport.write(_answer(400, "Bad Request", "bad_request"))
            self.transport.close()

    def _refuse_head(self) -> None:
        """Answer 431 and close. The rest of the head still on its way is read and dropped
        for a moment (at most :data:`LINGER_SECONDS` and :data:`LINGER_BYTES`): closed
        with unread bytes, the connection would be reset and the client could lose the
        answer."""
        self._disarm()
        if self.transport.is_closing():
            return
        self.transport.write(_head_too_large())
        self._discarded = 0
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self.loop.call_later(LINGER_SECONDS, self.transport.close)

    def _arm(self) -> None:
        if self._deadline is None:
            self._deadline = self.loop.call_later(header_seconds(), self._too_late)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_late(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.write(_408)
            self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        self._in_head = False
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._in_head, self._head, self._tail = True, 0, b""

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)
