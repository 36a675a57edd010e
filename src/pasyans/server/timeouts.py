"""uvicorn's HTTP protocol with a deadline for a request's headers.

uvicorn closes an idle keep-alive connection (``timeout_keep_alive``) but waits forever
for a connection that sends nothing, or sends its headers a byte at a time ("slowloris"):
each such connection holds a socket and a file descriptor. :class:`HeaderDeadline` closes
it, with ``408 Request Timeout``, when the headers are not all in within
``PASYANS_HEADER_SECONDS`` (default 10) of the connection or of the request's first byte.
``pasyans serve`` runs uvicorn with it; the body has its own deadline in
:class:`pasyans.server.security.Security`.
"""

from __future__ import annotations

import asyncio
import os
from functools import cache

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from pasyans import caches

_408 = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"content-length: 16\r\nconnection: close\r\n\r\nRequest Timeout\n"
)


@cache
def header_seconds() -> float:
    return float(os.environ.get("PASYANS_HEADER_SECONDS", "10"))


caches.register("server.header_seconds", header_seconds, bound=1, memory=False)


class HeaderDeadline(HttpToolsProtocol):
    """:class:`HttpToolsProtocol` that closes a connection whose headers come too late."""

    _deadline: asyncio.TimerHandle | None = None

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
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)
