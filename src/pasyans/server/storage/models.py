"""The database tables (SQLAlchemy 2 ORM). Migrations in :mod:`pasyans.server.storage.migrations`
must follow every change here."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    PrimaryKeyConstraint,
    String,
    Text,
    UniqueConstraint,
    false,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class Player(Base):
    """An anonymous player. Their devices (:class:`Device`) hold the SHA-256 of each
    device's cookie token: a player is found through a device, never through this row."""

    __tablename__ = "players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    legacy_key: Mapped[str] = mapped_column("token_hash", String(64), unique=True)
    """Once the player's token hash; since migration 0010 a random unique value that no
    request reads (identity is :class:`Device`: docs/devices.md)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    name: Mapped[str | None] = mapped_column(String(40), nullable=True)
    """The display name the player chose for the leaderboards (checked by
    :func:`pasyans.server.daily.names.check_name`); None: shown as "Player <id>"."""
    name_reports: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """How many players reported the current name (hidden from everyone at
    :data:`pasyans.server.daily.names.HIDE_AFTER`); a new name starts again at 0."""


class Device(Base):
    """One browser (cookie) of a player: the SHA-256 of its cookie token. Linking a device
    (docs/devices.md) points its row at another player; unlinking deletes the row, so the
    cookie then names no player."""

    __tablename__ = "devices"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    """A public id (random), what the page shows and unlinks; never the token's hash."""
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    label: Mapped[str] = mapped_column(String(64))
    """The browser and system, from the User-Agent when the device was added."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    """Updated at most once an hour, when the device starts a game or makes a link code."""

    __table_args__ = (Index("ix_devices_player", "player_id"),)


class LinkCode(Base):
    """A one-time code that joins another device to the player (docs/devices.md): only
    its SHA-256 is kept; one live code per player; deleted when used."""

    __tablename__ = "link_codes"

    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[int] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), unique=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class GameRow(Base):
    """One game a player started: its saved-game record plus counters and timestamps.

    The position is rebuilt by replaying ``moves`` (then ``redo`` played and undone) on the
    deal's start (:func:`pasyans.deals.load_game`); the row is the source of truth.
    """

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    options_key: Mapped[str] = mapped_column(String(200))
    """Canonical ``name=value&…`` of every option (sorted), to find the current game."""
    deal: Mapped[int] = mapped_column(BigInteger)
    kind: Mapped[str] = mapped_column(String(16))
    rules_version: Mapped[int] = mapped_column(Integer)
    start: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """The starting layout of a solvable deal (``State.to_json``), kept because a later
    solver may make another layout from the same number; None for a random deal (its
    shuffle is pinned by golden tests) and for rows stored before it existed."""
    difficulty: Mapped[str | None] = mapped_column(String(8), nullable=True)
    """easy, medium or hard for a solvable deal (docs/interfaces.md); None for a random deal
    and for rows stored before difficulties existed."""
    generator: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The solvable-deal generator's version that made ``start`` (None for a random deal)."""
    moves: Mapped[list[str]] = mapped_column(JSON)
    """The moves that led to the current position, in text notation."""
    redo: Mapped[list[str]] = mapped_column(JSON)
    """Undone moves, the next one to redo first."""
    version: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16))
    """playing, won, lost (given up) or abandoned (another game of the same kind started)."""
    undos: Mapped[int] = mapped_column(Integer, default=0)
    hints: Mapped[int] = mapped_column(Integer, default=0)
    restarts: Mapped[int] = mapped_column(Integer, default=0)
    moves_total: Mapped[int] = mapped_column(Integer, default=0)
    """Every move, redo and autocollected card ever played in this game (restarts included)."""
    score: Mapped[int] = mapped_column(Integer, default=0)
    foundation_cards: Mapped[int] = mapped_column(Integer, default=0)
    time_ms: Mapped[int] = mapped_column(BigInteger, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_active_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    first_move_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    daily: Mapped[str | None] = mapped_column(String(10), nullable=True, default=None)
    """The UTC day (``YYYY-MM-DD``) whose daily deal this game is, when it was started as
    that day's ranked attempt (docs/daily.md); None for every other game, practice games
    of a past day's deal included."""

    __table_args__ = (
        Index("ix_games_player_daily", "player_id", "daily"),
        Index("ix_games_player_current", "player_id", "game", "options_key", "status"),
        Index("ix_games_player_created", "player_id", "created_at"),
        # One game in progress per player, game and option set: the database refuses a
        # second one, however requests race (docs/server.md).
        Index(
            "ux_games_one_playing",
            "player_id",
            "game",
            "options_key",
            unique=True,
            sqlite_where=text("status = 'playing'"),
            postgresql_where=text("status = 'playing'"),
        ),
        # The charts' latest finished games, without reading the others.
        Index("ix_games_player_finished", "player_id", "finished_at"),
        Index("ix_games_player_game_finished", "player_id", "game", "finished_at"),
        Index("ix_games_player_key_finished", "player_id", "game", "options_key", "finished_at"),
    )


class GameAction(Base):
    """The answer to one recent action of a game, kept under the id the page gave it
    (``docs/interfaces.md``, "Action ids: exactly once"): a repeated id gets this answer
    again and applies nothing. Written in the action's own transaction; the newest
    :data:`pasyans.server.games.actions.KEPT` of each game are kept."""

    __tablename__ = "game_actions"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    action_id: Mapped[str] = mapped_column(String(64))
    version: Mapped[int] = mapped_column(Integer)
    """The game's version after the action (one step per action): orders them."""
    status: Mapped[int] = mapped_column(Integer)
    answer: Mapped[str] = mapped_column(Text)
    """The answer's JSON as sent (a player view: no hidden card)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        PrimaryKeyConstraint("game_id", "action_id"),
        Index("ix_game_actions_version", "game_id", "version"),
    )


class DealKey:
    """The columns that name one solvable deal (pool entries and deal jobs share them):
    game, option set, difficulty band, deal number and the generator's version."""

    game: Mapped[str] = mapped_column(String(32), sort_order=-1)
    options_key: Mapped[str] = mapped_column(String(200), sort_order=-1)
    difficulty: Mapped[str] = mapped_column(String(8), sort_order=-1)
    deal: Mapped[int] = mapped_column(BigInteger, sort_order=-1)
    generator: Mapped[int] = mapped_column(Integer, sort_order=-1)


class PoolEntry(DealKey, Base):
    """A solvable deal made ahead of time (docs/interfaces.md, "the deal pool"): requests
    take one instead of running the generator. ``taken_at`` is null while it is free; a
    taken entry stays, so that the same number asked for again is found at once."""

    __tablename__ = "deal_pool"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True, sort_order=-2)
    start: Mapped[dict[str, Any]] = mapped_column(JSON)
    measure: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    taken_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    daily: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Made as a daily deal (docs/daily.md): never handed out as a random deal."""

    __table_args__ = (
        UniqueConstraint(
            "game", "options_key", "difficulty", "deal", "generator", name="uq_deal_pool_deal"
        ),
        Index("ix_deal_pool_free", "game", "options_key", "difficulty", "generator", "taken_at"),
    )


class DealJob(DealKey, Base):
    """A requested deal number that was not in the pool: made by ``pasyans worker`` in a
    bounded job (``error`` says why it could not be made)."""

    __tablename__ = "deal_jobs"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True, sort_order=-2)
    requested_by: Mapped[str] = mapped_column(String(64))
    """The client address key that asked first (a cap on pending jobs per address)."""
    requested_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    error: Mapped[str | None] = mapped_column(String(40), nullable=True)

    __table_args__ = (
        UniqueConstraint(
            "game", "options_key", "difficulty", "deal", "generator", name="uq_deal_jobs_deal"
        ),
        Index("ix_deal_jobs_pending", "finished_at", "requested_at"),
        Index("ix_deal_jobs_requester", "requested_by", "requested_at"),
    )


class Verdict(Base):
    """What a bounded search found for one full-information position, shared by every
    worker: ``won`` (``move`` starts the win), ``lost``, or ``unknown`` within ``seconds``."""

    __tablename__ = "verdicts"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    """SHA-256 of the game, its options and the position (:func:`solving.position_key`)."""
    result: Mapped[str] = mapped_column(String(8))
    move: Mapped[str | None] = mapped_column(String(40), nullable=True)
    seconds: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RateCounter(Base):
    """One rate limit's state (GCRA: the theoretical arrival time, in ms since the epoch),
    per limit and per player or client address, shared by every worker."""

    __tablename__ = "rate_limits"

    key: Mapped[str] = mapped_column(String(120), primary_key=True)
    tat_ms: Mapped[int] = mapped_column(BigInteger)


ALL = "*"
"""A ``player_stats`` key column that covers every value (``*`` is in no game id, option
key, kind or difficulty)."""


class PlayerStats(Base):
    """A player's figures over one scope, kept up to date as games finish
    (:mod:`pasyans.server.stats.records`), so reading them costs the same at 10 games or 100,000.

    A game adds to four rows: the total (``*`` everywhere), its game, its option set, and
    its option set with its kind and difficulty (``-`` for none)."""

    __tablename__ = "player_stats"

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(32))
    options_key: Mapped[str] = mapped_column(String(200))
    kind: Mapped[str] = mapped_column(String(16))
    difficulty: Mapped[str] = mapped_column(String(8))
    played: Mapped[int] = mapped_column(Integer, default=0)
    won: Mapped[int] = mapped_column(Integer, default=0)
    given_up: Mapped[int] = mapped_column(Integer, default=0)
    abandoned: Mapped[int] = mapped_column(Integer, default=0)
    clean_wins: Mapped[int] = mapped_column(Integer, default=0)
    current_streak: Mapped[int] = mapped_column(Integer, default=0)
    best_streak: Mapped[int] = mapped_column(Integer, default=0)
    best_time_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    best_time_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    fewest_moves: Mapped[int | None] = mapped_column(Integer, nullable=True)
    fewest_moves_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    won_time_ms: Mapped[int] = mapped_column(BigInteger, default=0)
    """Sum over won games (for the average)."""
    won_moves: Mapped[int] = mapped_column(BigInteger, default=0)
    hints: Mapped[int] = mapped_column(BigInteger, default=0)
    undos: Mapped[int] = mapped_column(BigInteger, default=0)

    __table_args__ = (
        PrimaryKeyConstraint("player_id", "game", "options_key", "kind", "difficulty"),
    )


_BOARD = ("day", "game", "options_key", "difficulty", "clean")
"""The columns that name one leaderboard (its clean wins), first in its two indexes."""


class DailyResult(Base):
    """A won ranked daily game (docs/daily.md), written by the server in the transaction
    of the move that won it, from the stored game: the leaderboards read only this table,
    top-N through its two indexes."""

    __tablename__ = "daily_results"

    day: Mapped[str] = mapped_column(String(10))
    game: Mapped[str] = mapped_column(String(32))
    options_key: Mapped[str] = mapped_column(String(200))
    difficulty: Mapped[str] = mapped_column(String(8))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    clean: Mapped[bool] = mapped_column(Boolean)
    time_ms: Mapped[int] = mapped_column(BigInteger)
    moves: Mapped[int] = mapped_column(Integer)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        PrimaryKeyConstraint("day", "game", "options_key", "difficulty", "player_id"),
        Index("ix_daily_results_time", *_BOARD, "time_ms", "moves", "finished_at"),
        Index("ix_daily_results_moves", *_BOARD, "moves", "time_ms", "finished_at"),
        Index("ix_daily_results_player", "player_id", "day"),
    )


class DailyBoard(Base):
    """The number of clean wins on one daily deal's leaderboards, kept by
    :func:`pasyans.server.daily.boards.record_win` in the same transaction as the result:
    a board's total is one row, whatever the number of players."""

    __tablename__ = "daily_boards"

    day: Mapped[str] = mapped_column(String(10))
    game: Mapped[str] = mapped_column(String(32))
    options_key: Mapped[str] = mapped_column(String(200))
    difficulty: Mapped[str] = mapped_column(String(8))
    clean_wins: Mapped[int] = mapped_column(Integer, default=0)

    __table_args__ = (PrimaryKeyConstraint("day", "game", "options_key", "difficulty"),)


class NameReport(Base):
    """One player's report of another's display name (one per pair and name)."""

    __tablename__ = "name_reports"

    reporter_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (PrimaryKeyConstraint("player_id", "reporter_id", "name"),)


class Health(Base):
    """One row that ``/healthz`` writes, to prove the database takes writes."""

    __tablename__ = "health"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    checked_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AnalysisRow(Base):
    """The analysis of one finished game at one version (docs/analysis.md): asked for by
    ``POST /api/games/{id}/analysis``, made by the deal worker's process family
    (:mod:`pasyans.server.pool.analyses`), then answered from here. ``share`` is the random
    name of its public link (``/analysis/<share>``), which shows this game alone."""

    __tablename__ = "analyses"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    game_version: Mapped[int] = mapped_column(Integer)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    share: Mapped[str] = mapped_column(String(32), unique=True)
    status: Mapped[str] = mapped_column(String(16))
    """queued, running, done or failed."""
    progress: Mapped[float] = mapped_column(Float, default=0.0)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    method: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """How the player's chance was estimated (``Estimate.method``; ``exact``: every card known)."""
    error: Mapped[str | None] = mapped_column(String(40), nullable=True)
    requested_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    __table_args__ = (
        UniqueConstraint("game_id", "game_version", name="uq_analyses_game_version"),
        Index("ix_analyses_pending", "status", "requested_at"),
        Index("ix_analyses_player", "player_id", "status"),
    )
