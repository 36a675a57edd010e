"""The routes' limit dependencies, ``NewGameLimit`` and ``HintLimit``: each counts its
request in the shared counters (:class:`~pasyans.server.limits.rates.SharedLimits`) under
the limits its entry of :mod:`pasyans.server.limits.costly` names."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from pasyans.server.deps import PlayerDep, SessionDep
from pasyans.server.limits.address import client_address
from pasyans.server.limits.costly import HINT, NEW_GAME
from pasyans.server.limits.rates import SharedLimits
from pasyans.server.storage import store


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



def _new_game(request: Request, player: PlayerDep, session: SessionDep) -> None:
    limits = limits_of(request)
    address = client_address(request, limits.settings)
    is_new = "new_player" in limits.address and store.player_id(session, player) is None
    names = NEW_GAME.names(is_new)
    if session.in_transaction():
        session.rollback()
    limits.check(names, player, address)


def _hint(request: Request, player: PlayerDep) -> None:
    limits = limits_of(request)
    limits.check(HINT.names(False), player, client_address(request, limits.settings))


NewGameLimit = Annotated[None, Depends(_new_game)]
HintLimit = Annotated[None, Depends(_hint)]
"""The flood limit on hint and winnable requests; the search itself is counted in
:mod:`pasyans.server.games.solving`, only when one runs."""
