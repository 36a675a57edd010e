"""The costly requests, declared once: which method and path, and which rate limits
count it.

Two places read this list: the ASGI middleware (:class:`pasyans.server.security.Security`),
which refuses a request whose bucket this process already knows to be full before the
body is parsed, and the routes' dependencies (:mod:`pasyans.server.limits.deps`), which
count it in the shared counters. ``tests/server/test_limits.py`` checks that the routes
carrying a limit are exactly the ones listed here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Costly:
    """One costly route: ``method`` and ``path`` (a pattern of the whole path), the rate
    limits every such request counts against, and whether one that brings no cookie also
    counts against ``new_player``."""

    name: str
    method: str
    path: re.Pattern[str]
    limits: tuple[str, ...]
    new_player: bool = False

    def names(self, is_new: bool) -> list[str]:
        """The limits one request counts against; ``is_new``: it brings no cookie."""
        return [*self.limits, "new_player"] if self.new_player and is_new else list(self.limits)


NEW_GAME = Costly(
    "new_game",
    "POST",
    re.compile(r"^/api/(?:(?:daily/)?games|analyses/[^/]+/practice)$"),
    ("new_game",),
    True,
)
"""A new game (``POST /api/games``, ``POST /api/daily/games``: it may run the generator
of solvable deals), or a practice game from an analysis (it replays the analysed game's
line)."""
HINT = Costly("hint", "POST", re.compile(r"^/api/games/[^/]+/(?:hint|winnable)$"), ("hint",))
"""A hint or winnability check; the ``search`` limit is counted later, only when a search
runs (:mod:`pasyans.server.games.solving`)."""

UNDO_REDO = Costly(
    "undo_redo", "POST", re.compile(r"^/api/games/[^/]+/(?:undo|redo)$"), ("history",)
)
"""Undo and redo: each makes a new version, and a replay per version rebuilds the line."""
REPLAY = Costly(
    "replay",
    "GET",
    re.compile(r"^/api/(?:games/[^/]+/replay|analyses/[^/]+/(?:position|way))$"),
    ("history",),
)
"""A replay step, a position of an analysis (a step of the game, then of the winning
line), or a chunk of the winning line (``/way``): each rebuilds and checks the game's line."""

LINK = Costly("link", "POST", re.compile(r"^/api/devices/(?:code|link)$"), ("link",))
"""A link code made or tried (docs/devices.md): the limit is what keeps codes from being
guessed, so a flood of tries is refused before its body is read."""

COSTLY: tuple[Costly, ...] = (NEW_GAME, HINT, UNDO_REDO, REPLAY, LINK)


def costly(method: str, path: str) -> Costly | None:
    """The costly route ``method path`` is, or None."""
    for route in COSTLY:
        if method == route.method and route.path.match(path) is not None:
            return route
    return None
