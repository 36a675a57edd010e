"""What the endpoints do with a game: rebuild it, change it, store it, describe it.

Every change follows the same path (:func:`change`): lock the player's row, check the
status and version, apply the engine's action to the rebuilt Game, write the row back with
version + 1, commit, and only then answer.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy.orm import Session

from pasyans import deals
from pasyans.engine import MAX_DEAL, Game
from pasyans.errors import PasyansError
from pasyans.rules import resolve_options
from pasyans.rules.registry import RULES_VERSION
from pasyans.server import store
from pasyans.server.cache import GameCache
from pasyans.server.errors import ApiError, storage_error
from pasyans.server.models import GameRow
from pasyans.server.settings import Settings

T = TypeVar("T")


@dataclass
class Context:
    """Everything a request needs to work on games: the session, the player, the cache."""

    session: Session
    token_hash: str
    cache: GameCache
    settings: Settings
    write_lock: threading.Lock | None = None
    """SQLite only: one writer at a time in this process, queued here instead of in
    SQLite's busy handler (which sleeps up to 100 ms between tries)."""


@contextmanager
def writing(ctx: Context) -> Iterator[None]:
    """Hold the process's write lock (SQLite) for a write transaction; a transaction left
    open by an error is rolled back before the lock is released."""
    if ctx.write_lock is None:
        yield
        return
    # Bounded like every other wait on the database: a long queue is a busy database (503).
    if not ctx.write_lock.acquire(timeout=ctx.settings.db_busy_seconds):
        raise storage_error("database_busy")
    try:
        yield
    finally:
        if ctx.session.in_transaction():
            ctx.session.rollback()
        ctx.write_lock.release()


# --- reading ------------------------------------------------------------------------------


def rebuild(row: GameRow) -> Game:
    """The Game of a row, by replay: played moves, then the redo list played and undone.

    The trusted replay: each stored move was checked when played, and is tested again with
    the per-move legality test (a corrupt row raises ``SavedGameError``)."""
    game = deals.load_game(store.saved_record(row), trusted=True)
    for _ in row.redo:
        game.undo()
    game.undos = row.undos
    game.hints = row.hints
    return game


def checkout(ctx: Context, row: GameRow) -> Game:
    """The row's Game, from the cache or rebuilt; the caller owns it until :func:`checkin`."""
    game = ctx.cache.take(row.id, row.version)
    return game if game is not None else rebuild(row)


def checkin(ctx: Context, row: GameRow, game: Game) -> None:
    ctx.cache.put(row.id, row.version, game)


def describe(row: GameRow, game: Game, view: dict[str, Any] | None = None) -> dict[str, Any]:
    """The game object of the API (``docs/api.md``); ``view`` when already computed."""
    return {
        "id": row.id,
        "game": row.game,
        "options": dict(row.options),
        "deal": row.deal,
        "kind": row.kind,
        "status": row.status,
        "version": row.version,
        "time_ms": row.time_ms,
        "view": game.view() if view is None else view,
    }


def read(ctx: Context, row: GameRow) -> dict[str, Any]:
    game = checkout(ctx, row)
    out = describe(row, game)
    checkin(ctx, row, game)
    return out


def owned(ctx: Context, game_id: str, *, for_update: bool = False) -> GameRow:
    row = store.find_game(ctx.session, ctx.token_hash, game_id, for_update=for_update)
    if row is None:
        raise ApiError("not_found", "No such game.", message_ru="Такой партии нет.")
    return row


# --- creating -----------------------------------------------------------------------------


def deal_kind(game_id: str, solvable: bool | None) -> str:
    if solvable is None:
        return deals.default_kind(game_id)
    return "solvable" if solvable else "random"


def create(
    ctx: Context,
    game_id: str,
    options: Mapping[str, object],
    deal: int | None,
    solvable: bool | None,
) -> dict[str, Any]:
    values = resolve_options(game_id, options)
    number = deal if deal is not None else 1 + secrets.randbelow(MAX_DEAL)
    kind = deal_kind(game_id, solvable)
    game = deals.new_game(game_id, number, values, kind)
    view = game.view()
    if ctx.session.in_transaction():
        ctx.session.rollback()
    with writing(ctx):
        ctx.session.connection(execution_options={"pasyans_write": True})
        player = store.ensure_player(ctx.session, ctx.token_hash)
        row = store.add_game(
            ctx.session,
            player,
            game=game_id,
            options=game.options,
            deal=number,
            kind=kind,
            rules_version=RULES_VERSION,
            summary=view["counters"],
            start=game.to_saved().get("start"),
        )
        ctx.session.commit()
    checkin(ctx, row, game)
    return describe(row, game, view)


# --- changing -----------------------------------------------------------------------------


def change(
    ctx: Context,
    game_id: str,
    version: int,
    action: Callable[[Game, GameRow], T],
    *,
    counts_as_move: bool = False,
) -> tuple[dict[str, Any], T]:
    """Apply ``action`` to the game at ``version`` and store the result (see module doc).

    ``action`` gets the Game and the row (to update the redo list and counters) and may
    raise a :class:`PasyansError`, which changes nothing."""
    if ctx.session.in_transaction():
        ctx.session.rollback()  # a write must begin its own transaction (SQLite: IMMEDIATE)
    with writing(ctx):
        return _change(ctx, game_id, version, action, counts_as_move)


def _change(
    ctx: Context,
    game_id: str,
    version: int,
    action: Callable[[Game, GameRow], T],
    counts_as_move: bool,
) -> tuple[dict[str, Any], T]:
    ctx.session.connection(execution_options={"pasyans_write": True})
    row = owned(ctx, game_id, for_update=True)
    if row.status != store.PLAYING:
        raise ApiError("game_over", extra=read(ctx, row))
    if row.version != version:
        raise ApiError("stale_version", extra=read(ctx, row))
    game = checkout(ctx, row)
    key = (row.id, row.version)
    before, position, counters = game.moves_made, game.state, (game.undos, game.hints)
    try:
        result = action(game, row)
    except PasyansError:
        ctx.session.rollback()
        # The engine refuses before changing anything; keep the Game only if that held.
        if (game.moves_made, game.state, (game.undos, game.hints)) == (
            before,
            position,
            counters,
        ):
            ctx.cache.put(*key, game)
        raise
    if len(game.moves) > ctx.settings.max_moves:
        # Refused after the fact (autocollect adds many at once); the changed Game is
        # dropped, the row stays as it was.
        ctx.session.rollback()
        raise ApiError(
            "too_many_moves",
            f"A game holds at most {ctx.settings.max_moves} moves: restart it or start another.",
            message_ru=f"В партии может быть не больше {ctx.settings.max_moves} ходов: "
            "начните её заново или начните новую.",
            status=422,
        )
    t = store.now()
    store.count_activity(row, t, ctx.settings.active_gap_seconds)
    view = game.view()
    # Every action keeps the first min(before, after) moves of the line (a move appends,
    # an undo drops the last, a restart drops all): write only what changed.
    kept = min(before, game.moves_made)
    if kept != before or game.moves_made != before:
        row.moves = list(row.moves[:kept]) + [m.to_str() for m in game.moves[kept:]]
    row.undos = game.undos
    row.hints = game.hints
    row.score = view["counters"]["score"]
    row.foundation_cards = view["counters"]["foundation_cards"]
    if counts_as_move and game.moves_made > before:
        row.moves_total += game.moves_made - before
        if row.first_move_at is None:
            row.first_move_at = t
    if view["flags"]["won"]:
        row.status = "won"
        row.finished_at = t
    row.version += 1
    row.updated_at = t
    ctx.session.commit()
    checkin(ctx, row, game)
    return describe(row, game, view), result


def play(game: Game, row: GameRow, move: str | dict[str, Any]) -> list[dict[str, Any]]:
    events = game.play(move)
    row.redo = []
    return events


def undo(game: Game, row: GameRow) -> list[dict[str, Any]]:
    move = game.undo()
    row.redo = [move.to_str(), *row.redo]
    return [{"type": "undo", "move": move.to_str()}]


def redo(game: Game, row: GameRow) -> list[dict[str, Any]]:
    events = game.redo()
    row.redo = list(row.redo[1:])
    return events


def autocollect(game: Game, row: GameRow) -> list[dict[str, Any]]:
    events = game.autocollect()
    row.redo = []
    return events


def restart(game: Game, row: GameRow) -> list[dict[str, Any]]:
    game.restart()
    row.redo = []
    row.restarts += 1
    return [{"type": "restart"}]


def give_up(game: Game, row: GameRow) -> None:
    row.status = "lost"
    row.finished_at = store.now()


def heartbeat(ctx: Context, game_id: str) -> int:
    """A sign of activity from the page: counts time, changes nothing else."""
    if ctx.session.in_transaction():
        ctx.session.rollback()
    with writing(ctx):
        ctx.session.connection(execution_options={"pasyans_write": True})
        row = owned(ctx, game_id, for_update=True)
        store.count_activity(row, store.now(), ctx.settings.active_gap_seconds)
        ctx.session.commit()
        return row.time_ms
