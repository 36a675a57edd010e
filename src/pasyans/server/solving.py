"""Hint and winnability answers, computed outside any write transaction (a search may take
``hint_seconds``; no row or database lock is held meanwhile)."""

from __future__ import annotations

from typing import Any, Literal

from pasyans.engine import Game, apply
from pasyans.position import State
from pasyans.server import service, store
from pasyans.server.errors import ApiError
from pasyans.solver import hints

HINT_RU = {
    "none": "Полезного хода нет.",
    "heuristic": "Этот ход выглядит полезным.",
    "solver": "Этот ход ведёт к победе.",
    "sampled": "Этот ход ведёт к победе в большинстве вариантов расклада скрытых карт.",
}


def _game_at(ctx: service.Context, game_id: str, version: int) -> tuple[Any, Game]:
    row = service.owned(ctx, game_id)
    if row.status != store.PLAYING:
        raise ApiError("game_over", extra=service.read(ctx, row))
    if row.version != version:
        raise ApiError("stale_version", extra=service.read(ctx, row))
    return row, service.checkout(ctx, row)


def history(game: Game) -> list[State]:
    """The positions the player went through to reach the current one (oldest first)."""
    states = [game.start]
    for m in game.moves:
        states.append(apply(game.spec, states[-1], m))
    return states[:-1]


def hint_for(ctx: service.Context, game_id: str, version: int) -> dict[str, Any]:
    row, game = _game_at(ctx, game_id, version)
    try:
        found = hints.suggest(
            game.spec, game.state, seconds=ctx.settings.hint_seconds, history=history(game)
        )
    finally:
        service.checkin(ctx, row, game)
        ctx.session.rollback()  # end the read; the hint is counted in a write of its own
    move = found.move
    message_ru = getattr(found, "message_ru", None) or HINT_RU.get(found.source, found.message)
    return {
        "move": None if move is None else {"text": move.to_str(), "json": move.to_json()},
        "source": found.source,
        "winnable": found.winnable,
        "message": found.message,
        "message_ru": message_ru,
    }


Result = Literal["won", "lost", "unknown"]


def _result(value: object) -> Result:
    value = getattr(value, "value", value)
    if value is True or value == "won":
        return "won"
    if value is False or value == "lost":
        return "lost"
    return "unknown"


def winnable_for(ctx: service.Context, game_id: str, version: int) -> dict[str, Any]:
    """``{"result": won|lost|unknown, "estimate": …}``: with hidden cards the result stays
    "unknown" (unless the visible position decides it) and ``estimate`` gives the share of
    sampled ways the hidden cards could lie that are winnable (``won``, ``lost``,
    ``samples``, ``percent``); null when every card is known."""
    row, game = _game_at(ctx, game_id, version)
    try:
        seconds = ctx.settings.winnable_seconds
        result = _result(hints.winnable(game.spec, game.state, seconds=seconds))
        found = None
        if result == "unknown":
            found = hints.estimate(game.spec, game.state, hints.Budget(seconds=seconds))
        return {"result": result, "estimate": None if found is None else found.to_json()}
    finally:
        service.checkin(ctx, row, game)
        ctx.session.rollback()
