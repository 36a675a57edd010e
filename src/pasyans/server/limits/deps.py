"""The routes' limit dependencies (``NewGameLimit``, ``HintLimit``, ``UndoRedoLimit``,
``ReplayLimit``, ``LinkLimit``): each counts its
request in the shared counters (:class:`~pasyans.server.limits.rates.SharedLimits`) under
the limits its entry of :mod:`pasyans.server.limits.costly` names."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from pasyans.server.deps import PlayerDep
from pasyans.server.limits.address import client_address
from pasyans.server.limits.costly import HINT, LINK, NEW_GAME, REPLAY, UNDO_REDO
from pasyans.server.limits.rates import SharedLimits


def limits_of(request: Request) -> SharedLimits:
    found: SharedLimits | None = getattr(request.app.state, "limits", None)
    if found is None:
        found = SharedLimits(
            request.app.state.settings,
            request.app.state.sessionmaker,
            request.app.state.write_lock,
        )
        request.app.state.limits = found
    return found


class Charge:
    """A new game's count in the shared counters, made when the route calls it: the
    route first tells a poll of a ``202 deal_preparing`` (which costs nothing) from a
    request that may cost work. Calling it twice counts once."""

    def __init__(self, limits: SharedLimits, names: list[str], player: str, address: str):
        self.limits, self.names, self.player, self.address = limits, names, player, address
        self.done = False

    def __call__(self) -> None:
        if not self.done:
            self.done = True
            self.limits.check(self.names, self.player, self.address)


def _new_game(request: Request, player: PlayerDep) -> Charge:
    """The new game's charge. ``new_player`` counts only a request that brought no
    cookie (as the middleware's precheck does): a browser's first new game comes after
    its ``GET /api/current``, which gave it a cookie, and is counted like anyone's, under
    ``new_game`` per player and per address (issue 33, finding 7: the 85th fresh browser
    from one address in 75 minutes got an empty table)."""
    limits = limits_of(request)
    address = client_address(request, limits.settings)
    names = NEW_GAME.names(bool(getattr(request.state, "cookieless", False)))
    return Charge(limits, names, player, address)


def _hint(request: Request, player: PlayerDep) -> None:
    limits = limits_of(request)
    limits.check(HINT.names(False), player, client_address(request, limits.settings))


NewGameLimit = Annotated[Charge, Depends(_new_game)]
"""The new-game limit: the route calls it (:func:`pasyans.server.games.service.create`)
once it knows the request is not a poll of a deal being prepared."""
HintLimit = Annotated[None, Depends(_hint)]
"""The flood limit on hint and winnable requests; the search itself is counted in
:mod:`pasyans.server.games.solving`, only when one runs."""


def _undo_redo(request: Request, player: PlayerDep) -> None:
    limits = limits_of(request)
    limits.check(UNDO_REDO.names(False), player, client_address(request, limits.settings))


def _replay(request: Request, player: PlayerDep) -> None:
    limits = limits_of(request)
    limits.check(REPLAY.names(False), player, client_address(request, limits.settings))


UndoRedoLimit = Annotated[None, Depends(_undo_redo)]
"""The ``history`` limit on undo and redo."""
ReplayLimit = Annotated[None, Depends(_replay)]
"""The ``history`` limit on a replay step (the same bucket as undo and redo)."""


def _link(request: Request, player: PlayerDep) -> None:
    limits = limits_of(request)
    limits.check(LINK.names(False), player, client_address(request, limits.settings))


LinkLimit = Annotated[None, Depends(_link)]
"""The ``link`` limit on making and trying link codes, per device and per address."""
