"""Every process-wide cache, declared in one place: a name, a bound, and how to clear it.

A module that keeps a cache for the life of the process registers it here when it is
imported::

    LINES = caches.register("hints.lines", Lines(), bound=100_000)

``memory=True`` (the default) marks a cache that remembers *answers*: what it holds
changes what a later call does or how long it takes (the hints' lines and tallies, the
server's sampled answers), so tests start from an empty one: the autouse fixture of
``tests/conftest.py`` calls :func:`clear` before every test, and a test that needs to
forget in the middle calls it too. ``memory=False`` marks the memo of a pure function
(a game's spec, a compiled constant): clearing it changes nothing but time, and
``clear(everything=True)`` includes it.

This module is at the bottom of the layers: it imports nothing from :mod:`pasyans`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Cache:
    """One registered cache: its ``name``, its ``bound`` (the most entries it keeps),
    whether it remembers answers (``memory``) and the function that empties it."""

    name: str
    bound: int
    memory: bool
    empty: Callable[[], Any]


_REGISTRY: dict[str, Cache] = {}


def register(name: str, cache: T, *, bound: int, memory: bool = True) -> T:
    """Register ``cache`` (anything with ``clear()``, or an ``functools.lru_cache``
    function with ``cache_clear()``) under ``name``, and return it. A name is registered
    again only by a module imported again (the newer cache replaces the older);
    ``bound`` must be positive."""
    if bound <= 0:
        raise ValueError(f"cache {name!r}: its bound must be positive, not {bound}")
    empty = getattr(cache, "cache_clear", None) or getattr(cache, "clear", None)
    if empty is None:
        raise TypeError(f"cache {name!r} has neither clear() nor cache_clear()")
    _REGISTRY[name] = Cache(name, bound, memory, empty)
    return cache


def registered() -> dict[str, Cache]:
    """The caches registered so far (by the modules imported so far), by name."""
    return dict(_REGISTRY)


def clear(*, everything: bool = False) -> None:
    """Empty every cache that remembers answers; with ``everything``, the pure memos too."""
    for c in _REGISTRY.values():
        if c.memory or everything:
            c.empty()
