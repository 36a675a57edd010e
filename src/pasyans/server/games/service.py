"""What the endpoints do with a game: rebuild it, change it, store it, describe it.

Every change follows the same path (:func:`change`): lock the player's row, check the
status and version, apply the engine's action to the rebuilt Game, write the row back with
version + 1, commit, and only then answer.

Over 400 lines because every state change goes through one versioned, locked transaction
(:func:`change`): creating, reading and changing a game share its context, its lock and
its error handling.
"""

from __future__ import annotations

import secrets
import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

import pydantic_core
from sqlalchemy import Connection, Engine, bindparam, update
from sqlalchemy.orm import Session

from pasyans import deals
from pasyans.engine import MAX_DEAL, Game
from pasyans.engine.core import check_deal_number
from pasyans.engine.moves import Move
from pasyans.errors import OptionError, PasyansError
from pasyans.position import State
from pasyans.rules import resolve_options
from pasyans.rules.registry import RULES_VERSION
from pasyans.server.daily import boards
from pasyans.server.errors import ApiError, from_engine, storage_code, storage_error
from pasyans.server.games import actions
from pasyans.server.games.cache import GameCache
from pasyans.server.limits.address import client_address
from pasyans.server.players.devices import device_label
from pasyans.server.pool import entries as pool
from pasyans.server.settings import Settings
from pasyans.server.stats import records as stats
from pasyans.server.storage import groupsync, store
from pasyans.server.storage.db import health, log_flusher
from pasyans.server.storage.models import GameRow
from pasyans.server.storage.store import AnyRow, GameData

T = TypeVar("T")


@dataclass
class Context:
    """Everything a request needs to work on games: the session, the player, the cache.

    The session is made when first used: a change works on a connection of its own
    (:func:`change`) and needs none."""

    maker: Callable[[], Session]
    token_hash: str
    cache: GameCache
    settings: Settings
    write_lock: threading.Lock | None = None
    """SQLite only: one writer at a time in this process, queued here instead of in
    SQLite's busy handler (which sleeps up to 100 ms between tries)."""
    request: Any = None
    """The request (its client address is worked out only when a limit needs it)."""
    limits: Any = None
    """The app's :class:`~pasyans.server.limits.rates.SharedLimits` (None: no limits)."""
    engine: Engine | None = None
    """The database (else the session's)."""
    _session: Session | None = field(default=None, repr=False)

    @property
    def session(self) -> Session:
        if self._session is None:
            self._session = self.maker()
        return self._session

    def end_read(self) -> None:
        """Roll back the session's transaction, if one is open (a write must begin its
        own: SQLite's ``BEGIN IMMEDIATE``)."""
        if self._session is not None and self._session.in_transaction():
            self._session.rollback()

    @property
    def has_session(self) -> bool:
        """Whether the session was made (:meth:`close` then has work to do)."""
        return self._session is not None

    def close(self) -> None:
        if self._session is not None:
            self._session.close()
            self._session = None

    def connect(self) -> Connection:
        engine = self.engine if self.engine is not None else self.session.get_bind()
        assert isinstance(engine, Engine)
        return engine.connect()

    @property
    def address(self) -> str:
        """The client's address key (:func:`pasyans.server.limits.address.client_address`)."""
        if self.request is None:
            return ""
        return client_address(self.request, self.settings)


@contextmanager
def writing(ctx: Context) -> Iterator[None]:
    """Hold the process's write lock (SQLite) for a write transaction; a transaction left
    open by an error is rolled back before the lock is released. A commit made inside is
    flushed to the disk after the lock is released, before the caller goes on
    (:mod:`pasyans.server.storage.groupsync`: one fsync for a group of writes)."""
    if ctx.write_lock is None:
        yield
        return
    engine = ctx.engine if ctx.engine is not None else ctx.session.get_bind()
    found = health(engine) if isinstance(engine, Engine) else None
    try:
        with groupsync.deferred():
            # Bounded like every other wait on the database: a long queue is a busy
            # database (503).
            if not ctx.write_lock.acquire(timeout=ctx.settings.db_busy_seconds):
                raise storage_error("database_busy")
            try:
                if found is not None and found.failed is not None:
                    # An earlier fsync failed: no write until the database is checked,
                    # which this process's writer (holding the lock) tries now and then.
                    found.recover()
                    found.check()
                yield
            finally:
                ctx.end_read()
                ctx.write_lock.release()
    except sqlite3.OperationalError as e:  # the group flush failed: not acknowledged
        if found is not None and groupsync.is_io_error(e):
            found.fail(e)
        raise storage_error(storage_code(e) or "database_unavailable") from e


# --- reading ------------------------------------------------------------------------------


def rebuild(row: AnyRow) -> Game:
    """The Game of a row, by replay: played moves, then the redo list played and undone.

    The trusted replay: each stored move was checked when played, and is tested again with
    the per-move legality test (a corrupt row raises ``SavedGameError``)."""
    game = deals.load_game(store.saved_record(row), trusted=True)
    while game.moves_made > len(row.moves):  # one undo takes back a move and its auto-moves
        game.undo()
    game.mark_saved()
    game.undos = row.undos
    game.hints = row.hints
    return game


def checkout(ctx: Context, row: GameData, conn: Connection | None = None) -> Game:
    """The row's Game, from the cache or rebuilt (its move lists read first, on ``conn`` or
    the session's connection, if they were not); the caller owns it until
    :func:`checkin`."""
    game = ctx.cache.take(row.id, row.version)
    if game is not None:
        row.options = game.options
        return game
    store.load_lines(conn if conn is not None else ctx.session.connection(), row)
    return rebuild(row)


def checkin(ctx: Context, row: AnyRow, game: Game) -> None:
    ctx.cache.put(row.id, row.version, game)


def describe(row: AnyRow, game: Game, view: dict[str, Any] | None = None) -> dict[str, Any]:
    """The game object of the API (``docs/api.md``); ``view`` when already computed."""
    return {
        "id": row.id,
        "game": row.game,
        "options": dict(row.options),
        "deal": row.deal,
        "kind": row.kind,
        "difficulty": row.difficulty,
        "generator": row.generator if row.kind == "solvable" else None,
        "status": row.status,
        "version": row.version,
        "time_ms": row.time_ms,
        "daily": row.daily,
        "view": game.view() if view is None else view,
    }


def read(ctx: Context, row: GameData, conn: Connection | None = None) -> dict[str, Any]:
    """The game as read, answered only once the version read is on the disk
    (:func:`durable_read`)."""
    game = checkout(ctx, row, conn)
    out = describe(row, game)
    checkin(ctx, row, game)
    durable_read(ctx)
    return out


def durable_read(ctx: Context) -> None:
    """No answer shows a version whose group flush has not ended: with group commit a
    commit is visible to readers before its flush (docs/server.md, "Durability"). Inside
    :func:`writing` (a 409's state) the wait runs with the block's own flush, after the
    lock is released."""
    engine = ctx.engine if ctx.engine is not None else ctx.session.get_bind()
    flusher = log_flusher(engine) if isinstance(engine, Engine) else None
    if flusher is not None:
        try:
            groupsync.barrier(flusher)
        except sqlite3.OperationalError as e:  # the flush failed: no answer
            raise storage_error(storage_code(e) or "database_unavailable") from e


def owned(ctx: Context, game_id: str, *, for_update: bool = False, lines: bool = True) -> GameData:
    conn = ctx.session.connection()
    row = store.find_game(conn, ctx.token_hash, game_id, for_update=for_update, lines=lines)
    if row is None:
        raise not_found()
    return row


def not_found() -> ApiError:
    return ApiError("not_found", text="error.no_such_game")


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
    difficulty: str | None = None,
    *,
    charge: Callable[[], None] = lambda: None,
    generator: int | None = None,
) -> dict[str, Any]:
    """A new game. A solvable deal comes from the pool (:mod:`pasyans.server.pool.entries`): never
    made here, so the request stays fast; a number the pool does not have is queued and
    the answer is ``202 deal_preparing`` with ``Retry-After``.

    ``charge`` counts the request in the rate limits (raising 429): called before any
    work, except on a poll of a deal already being prepared (the same request again
    while its job is unfinished), which costs nothing (issue 33: the 21st poll of a
    newcomer answered 429).

    ``generator``: the version that made the solvable deal ``deal`` (a deal link names
    it; None: the current one): the pool keeps each version's deals apart and makes an
    older version's on request, with the same limits. Checked first, for any kind, so an
    unknown version is refused whatever else the request says; without a deal number
    only the current version is dealt (the pool holds no other's spare deals)."""
    version = requested_version(generator)
    values = resolve_options(game_id, options)
    kind = deal_kind(game_id, solvable)
    if kind == "solvable":
        if "solvable" not in deals.kinds_for(game_id, values):
            raise OptionError(
                "Solvable deals are not offered for this game with these options:"
                " choose a random deal.",
                "solvable_unavailable",
            )
        band = difficulty or pool.DEFAULT_DIFFICULTY
        if deal is not None:
            check_deal_number(deal)
        elif version is not None:
            raise OptionError(
                f"generator version {version} is only dealt by number: give a deal number"
                f" (a new deal without one is made by version {pool.generator_version()})"
            )
        key = store.options_key(values)
        if not pool.waiting(ctx.session, game_id, key, band, deal, version):
            ctx.end_read()
            charge()
        return _create_solvable(ctx, game_id, values, deal, band, version)
    ctx.end_read()
    charge()
    number = deal if deal is not None else 1 + secrets.randbelow(MAX_DEAL)
    game = deals.new_game(game_id, number, values, kind)
    return store_new(ctx, game, None)


def requested_version(generator: int | None) -> int | None:
    """The generator version a new game asks for: None for the current one, or an older
    version this code makes (:func:`pasyans.deals.check_generator`'s ``OptionError``
    otherwise)."""
    if generator is None or deals.check_generator(generator) == pool.generator_version():
        return None
    return generator


def store_new(
    ctx: Context,
    game: Game | None,
    entry: Callable[[], Game | None] | None,
    daily: str | None = None,
) -> dict[str, Any]:
    """Insert the new game (and with ``entry``, claim its pool entry in the same
    transaction: ``entry`` answers None when the pool has none); ``daily``: the day whose
    ranked daily game it is (docs/daily.md)."""
    ctx.end_read()
    with writing(ctx):
        ctx.session.connection(execution_options={"pasyans_write": True})
        if entry is not None:
            game = entry()
            if game is None:
                ctx.session.rollback()
                raise Missing
        assert game is not None
        view = game.view()
        agent = ctx.request.headers.get("user-agent") if ctx.request is not None else None
        player = store.ensure_player(ctx.session, ctx.token_hash, device_label(agent))
        row = store.add_game(
            ctx.session,
            player,
            game=game.id,
            options=game.options,
            deal=game.deal,
            kind=game.kind,
            rules_version=RULES_VERSION,
            summary=view["counters"],
            start=game.to_saved().get("start"),
            difficulty=game.difficulty,
            generator=game.generator,
            daily=daily,
        )
        ctx.session.commit()
    checkin(ctx, row, game)
    return describe(row, game, view)


class Missing(Exception):
    """The pool has no entry for the request."""


def _create_solvable(
    ctx: Context,
    game_id: str,
    values: dict[str, str],
    deal: int | None,
    difficulty: str,
    generator: int | None = None,
) -> dict[str, Any]:
    if deal is not None:
        check_deal_number(deal)
    key = store.options_key(values)

    def entry() -> Game | None:
        s = ctx.session
        if deal is not None:
            found = pool.lookup(s, game_id, key, difficulty, deal, generator)
        else:
            found = pool.take(s, game_id, key, difficulty) or pool.reuse(
                s, game_id, key, difficulty
            )
        if found is None:
            return None
        start = State.from_json(found.start)
        return Game(
            game_id,
            found.deal,
            values,
            start=start,
            kind="solvable",
            difficulty=found.difficulty,
            generator=found.generator,
        )

    for attempt in range(2):
        try:
            return store_new(ctx, None, entry)
        except Missing:
            if attempt == 0 and ctx.settings.pool_inline:
                _make_inline(ctx, game_id, values, key, deal, difficulty, generator)
                continue
            break
    _queue(ctx, game_id, key, difficulty, deal, generator)
    raise AssertionError("unreachable")  # pragma: no cover - _queue always raises


def _make_inline(
    ctx: Context,
    game_id: str,
    values: dict[str, str],
    key: str,
    deal: int | None,
    band: str,
    generator: int | None = None,
) -> None:
    """``pool_inline`` (tests, development): make the missing deal here, then store it."""
    number = deal if deal is not None else 1 + secrets.randbelow(MAX_DEAL)
    try:
        made = pool.make_older(game_id, values, number, band, generator)
    except PasyansError as e:
        raise from_engine(e) from e
    with writing(ctx):
        ctx.session.connection(execution_options={"pasyans_write": True})
        pool.add(ctx.session, game_id, key, number, made)
        ctx.session.commit()


def _queue(
    ctx: Context, game_id: str, key: str, band: str, deal: int | None, generator: int | None
) -> None:
    """Ask the worker for the deal; always raises the answer (202, 422, 429 or 503)."""
    with writing(ctx):
        ctx.session.connection(execution_options={"pasyans_write": True})
        state, error = pool.request(
            ctx.session,
            game_id,
            key,
            band,
            deal,
            ctx.address or "unknown",
            max_pending=ctx.settings.pool_max_pending,
            max_pending_per_address=ctx.settings.pool_max_pending_per_address,
            max_per_hour_per_address=ctx.settings.pool_requested_per_hour,
            generator=generator,
        )
        ctx.session.commit()
    if state in ("queued", "pending"):
        raise ApiError(
            "deal_preparing",
            status=202,
            headers={"Retry-After": "2"},
            extra={"deal": deal, "difficulty": band},
        )
    if state == "failed":
        raise ApiError(
            "no_solvable_deal",
            f"No solvable layout could be made for deal {deal} ({error}): try another number.",
            status=422,
        )
    if state == "too_many":
        raise ApiError("rate_limited", headers={"Retry-After": "10"})
    if state == "hourly":
        raise ApiError("rate_limited", headers={"Retry-After": "600"})
    raise ApiError(
        "pool_busy",
        status=503,
        headers={"Retry-After": "30"},
    )


# --- changing -----------------------------------------------------------------------------


def change(
    ctx: Context,
    game_id: str,
    version: int,
    action: Callable[[Game, GameData], T],
    *,
    counts_as_move: bool = False,
) -> tuple[dict[str, Any], T]:
    """Apply ``action`` to the game at ``version`` and store the result (see module doc).

    ``action`` gets the Game and the row (to update the redo list and counters) and may
    raise a :class:`PasyansError`, which changes nothing."""
    ctx.end_read()  # a write must begin its own transaction (SQLite: IMMEDIATE)
    with writing(ctx):
        return _change(ctx, game_id, version, action, counts_as_move)


def _change(
    ctx: Context,
    game_id: str,
    version: int,
    action: Callable[[Game, GameData], T],
    counts_as_move: bool,
) -> tuple[dict[str, Any], T]:
    # A connection of its own, not the session's: the hot path needs none of the ORM's
    # layers (docs/performance.md, "CPU per move"). Leaving the block rolls back on any
    # error and commits otherwise.
    with ctx.connect() as conn:
        conn.execution_options(pasyans_write=True)  # SQLite: BEGIN IMMEDIATE (db.py)
        with conn.begin():
            row = _locked(ctx, conn, game_id)
            game, view, result = _apply(ctx, conn, row, version, action, counts_as_move)
    game.mark_saved()
    checkin(ctx, row, game)
    return describe(row, game, view), result


def act(
    ctx: Context,
    game_id: str,
    version: int,
    action: Callable[[Game, GameData], T],
    build: Callable[[dict[str, Any], T], dict[str, Any]],
    *,
    action_id: str | None = None,
    counts_as_move: bool = False,
) -> actions.Answer:
    """:func:`change` with an action id (``docs/interfaces.md``, "Action ids"): the answer
    (``build`` of the game object and the action's result) is kept under ``action_id`` in
    the same transaction, and a repeated id is answered with the kept answer, applying
    nothing. Without an id, :func:`change` and ``build``."""
    ctx.end_read()
    with writing(ctx), ctx.connect() as conn:
        conn.execution_options(pasyans_write=True)  # SQLite: BEGIN IMMEDIATE (db.py)
        with conn.begin():
            row = _locked(ctx, conn, game_id)
            if action_id is not None:
                # After the lock: a repeat racing the first waits for it, then finds it.
                kept = actions.find(conn, row.id, action_id)
                if kept is not None:
                    return kept
            game, view, result = _apply(ctx, conn, row, version, action, counts_as_move)
            out = actions.Answer(
                200, pydantic_core.to_json(build(describe(row, game, view), result))
            )
            if action_id is not None:
                actions.keep(conn, row.id, action_id, row.version, out, row.updated_at)
    game.mark_saved()
    checkin(ctx, row, game)
    return out


def replayed(ctx: Context, game_id: str, action_id: str | None) -> actions.Answer | None:
    """The kept answer of ``action_id`` in this player's game, read without a lock (for an
    action that does costly work before :func:`act`, such as a hint); None when there is
    none, or no id."""
    if action_id is None:
        return None
    row = owned(ctx, game_id, lines=False)
    return actions.find(ctx.session.connection(), row.id, action_id)


def _locked(ctx: Context, conn: Connection, game_id: str) -> GameData:
    """The player's game row, locked for the transaction."""
    row = store.find_game(conn, ctx.token_hash, game_id, for_update=True, lines=False)
    if row is None:
        raise not_found()
    return row


def _apply(
    ctx: Context,
    conn: Connection,
    row: GameData,
    version: int,
    action: Callable[[Game, GameData], T],
    counts_as_move: bool,
) -> tuple[Game, dict[str, Any], T]:
    """Apply ``action`` to the stored game at ``version`` and write the row, in the
    caller's transaction. Long because every write of an action happens here, in one
    order that the durability and statistics rules depend on (the checks, the action,
    the counters, the row, a daily win, the kept figures)."""
    if row.status != store.PLAYING:
        raise ApiError("game_over", extra=read(ctx, row, conn))
    if row.version != version:
        raise ApiError("stale_version", extra=read(ctx, row, conn))
    game = checkout(ctx, row, conn)
    key = (row.id, row.version)
    before, position, counters = game.moves_made, game.state, (game.undos, game.hints)
    line = game.moves if counts_as_move else []
    try:
        result = action(game, row)
    except PasyansError:
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
        raise ApiError(
            "too_many_moves",
            text="error.too_many_moves_max",
            params={"max_moves": ctx.settings.max_moves},
            status=422,
        )
    t = store.now()
    store.count_activity(row, t, ctx.settings.active_gap_seconds)
    view = game.view()
    # Only the moves added at the end are written, unless moves were taken back or
    # replaced (undo, retarget, restart): docs/performance.md, "CPU per move".
    added = game.line_changes()
    row.moves = game.saved_moves()
    row.redo = game.redo_moves()
    row.undos = game.undos
    row.hints = game.hints
    row.score = view["counters"]["score"]
    row.foundation_cards = view["counters"]["foundation_cards"]
    # Moves played: the new line beyond what it shares with the old one (a retarget
    # replaces the last move and its auto-moves, and plays them anew). A line that only
    # grew shares all of the old one: no walk over the whole game on every move.
    played = 0
    if counts_as_move:
        played = len(added) if added is not None else _played(line, game.moves)
    if played:
        row.moves_total += played
        if row.first_move_at is None and row.kind != store.PRACTICE:  # practice: uncounted
            row.first_move_at = t
    if view["flags"]["won"]:
        row.status = "won"
        row.finished_at = t
    row.version += 1
    row.updated_at = t
    store.write_game(conn, row, added)
    if row.status == "won" and row.daily is not None:
        boards.record_win(conn, row, len(row.moves))  # a verified daily win (docs/daily.md)
    if row.status != store.PLAYING and row.first_move_at is not None:
        # A game that has just finished joins the player's kept figures, in the same
        # transaction (the ORM's flush hook does the same for rows written by the ORM).
        stats.record_finish(conn, row.player_id, stats.record_of(row))
    return game, view, result


def _played(old: list[Move], new: list[Move]) -> int:
    same = 0
    for a, b in zip(old, new, strict=False):
        if a != b:
            break
        same += 1
    return len(new) - same


def play(
    game: Game, row: GameData, move: str | dict[str, Any], auto: bool = False
) -> list[dict[str, Any]]:
    events = game.play(move, auto=auto)
    row.redo = []
    return events


def retarget(
    game: Game, row: GameData, move: str | dict[str, Any], auto: bool = False
) -> list[dict[str, Any]]:
    """Smart-move cycling: the last move's cards go elsewhere (one move, not an undo)."""
    events = game.retarget(move, auto=auto)
    row.redo = []
    return [{"type": "retarget"}, *events]


def undo(game: Game, row: GameData) -> list[dict[str, Any]]:
    move = game.undo()
    row.redo = game.redo_moves()
    return [{"type": "undo", "move": move.to_str()}]


def redo(game: Game, row: GameData) -> list[dict[str, Any]]:
    events = game.redo()
    row.redo = game.redo_moves()
    return events


def autocollect(game: Game, row: GameData) -> list[dict[str, Any]]:
    events = game.autocollect()
    row.redo = []
    return events


def restart(game: Game, row: GameData) -> list[dict[str, Any]]:
    game.restart()
    row.redo = []
    row.restarts += 1
    return [{"type": "restart"}]


def give_up(game: Game, row: GameData) -> None:
    row.status = "lost"
    row.finished_at = store.now()


def heartbeat(ctx: Context, game_id: str) -> int:
    """A sign of activity from the page: counts time, changes nothing else."""
    ctx.end_read()
    with writing(ctx):
        conn = ctx.session.connection(execution_options={"pasyans_write": True})
        row = store.find_game(conn, ctx.token_hash, game_id, for_update=True, lines=False)
        if row is None:
            raise not_found()
        store.count_activity(row, store.now(), ctx.settings.active_gap_seconds)
        conn.execute(_HEARTBEAT, {"game_id": row.id, "time_ms": row.time_ms,
                                  "last_active_at": row.last_active_at})  # fmt: skip
        ctx.session.commit()
        return row.time_ms


_HEARTBEAT = (
    update(GameRow)
    .where(GameRow.id == bindparam("game_id"))
    .values(time_ms=bindparam("time_ms"), last_active_at=bindparam("last_active_at"))
)
