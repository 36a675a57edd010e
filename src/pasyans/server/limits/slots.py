"""Per-address concurrency of the costly requests, and the held refusal's wait.

:class:`AddressSlots` lets at most ``rate_address_concurrency`` costly requests of one
client address run at once in a process (docs/security.md, "Slowing limited clients");
:func:`retry_after` reads the wait a ``429`` names.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from starlette.types import Message


class _Slot:
    __slots__ = ("free", "users")

    def __init__(self, size: int) -> None:
        self.free = asyncio.Semaphore(size)
        self.users = 0


class AddressSlots:
    """At most ``size`` requests of one client address in progress at once (in this
    process's event loop); the others wait their turn in the loop, holding no thread, for at
    most ``wait_seconds``. An address's entry lives only while it has requests in progress.
    (One app served from several event loops, as tests do, counts per loop.)"""

    def __init__(self, size: int, wait_seconds: float) -> None:
        self.size = size
        self.wait_seconds = wait_seconds
        self._slots: dict[tuple[asyncio.AbstractEventLoop, str], _Slot] = {}

    def in_progress(self, address: str) -> int:
        slot = self._slots.get((asyncio.get_running_loop(), address))
        return 0 if slot is None else slot.users

    @contextlib.asynccontextmanager
    async def hold(self, address: str) -> AsyncIterator[bool]:
        """Yields True with a slot held, or False when none came free in time."""
        key = (asyncio.get_running_loop(), address)
        slot = self._slots.get(key)
        if slot is None:
            slot = self._slots[key] = _Slot(self.size)
        slot.users += 1
        got = False
        try:
            try:
                async with asyncio.timeout(self.wait_seconds):
                    await slot.free.acquire()
                    got = True
            except TimeoutError:
                pass
            yield got
        finally:
            if got:
                slot.free.release()
            slot.users -= 1
            if slot.users == 0 and self._slots.get(key) is slot:
                del self._slots[key]


def retry_after(message: Message) -> float:
    """The ``Retry-After`` seconds of an answer's start message (0.0 when absent)."""
    for k, v in message.get("headers", ()):
        if k.lower() == b"retry-after":
            try:
                return float(v)
            except ValueError:
                return 0.0
    return 0.0
