"""Server settings, read from ``PASYANS_*`` environment variables (pydantic-settings)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Everything the server can be told. ``Settings()`` reads the environment; tests build
    one directly: ``Settings(database_url="sqlite:///...")``."""

    model_config = SettingsConfigDict(env_prefix="PASYANS_", extra="ignore")

    data_dir: Path = Field(default=Path("data"), description="Created at start.")
    database_url: str = Field(
        default="",
        description="SQLAlchemy URL; empty means a SQLite file pasyans.sqlite3 in data_dir. "
        "PostgreSQL: postgresql+psycopg://user:password@host/dbname.",
    )
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=1, le=65535)
    workers: int = Field(default=1, ge=1, le=64)
    migrate_on_start: bool = Field(
        default=True, description="Apply Alembic migrations when the app is built."
    )
    secure_cookies: Literal["auto", "always", "never"] = Field(
        default="auto",
        description="auto: Secure cookies when the request came over https.",
    )
    trust_proxy: bool = Field(
        default=False,
        description="Believe X-Forwarded-Proto / X-Forwarded-For from the reverse proxy.",
    )
    forwarded_allow_ips: str = Field(
        default="127.0.0.1", description="Proxies uvicorn trusts when trust_proxy is on."
    )
    max_body_bytes: int = Field(default=16 * 1024, ge=256)
    hint_seconds: float = Field(
        default=0.25,
        gt=0,
        le=30,
        description="Search budget of one hint (with hidden cards: all its samples "
        "together); never more than 0.25 s (SOLVER_CPU_CAP).",
    )
    winnable_seconds: float = Field(
        default=0.25, gt=0, le=60, description="Search budget; never more than 0.25 s."
    )
    solver_processes: int = Field(
        default=1,
        ge=0,
        le=16,
        description="Processes per web worker that run hint and winnability searches "
        "(0: in the request's thread, which slows the worker's other requests meanwhile).",
    )
    solver_prestart: bool = Field(
        default=True,
        description="Start the search processes with the server (in the background), so "
        "the first hint does not wait for them; off: at the first search.",
    )
    active_gap_seconds: float = Field(
        default=30.0, gt=0, description="Longest gap between signs of activity that counts."
    )
    max_moves: int = Field(
        default=5000,
        ge=10,
        description="Longest move list of a game (rebuilding it costs time per request); a "
        "move beyond it is refused with too_many_moves.",
    )
    game_cache_size: int = Field(default=256, ge=0, description="Rebuilt games kept per process.")
    rate_search_per_minute: float = Field(
        default=60,
        ge=0,
        validation_alias=AliasChoices(
            "rate_search_per_minute",
            "rate_hint_per_minute",
            "PASYANS_RATE_SEARCH_PER_MINUTE",
            "PASYANS_RATE_HINT_PER_MINUTE",
        ),
        description="Hints and winnability checks that run a search (the ``search`` limit), "
        "per player; 0: no limit. The old name ``rate_hint_per_minute`` "
        "(``PASYANS_RATE_HINT_PER_MINUTE``) still works.",
    )
    rate_search_burst: int = Field(
        default=30,
        ge=1,
        validation_alias=AliasChoices(
            "rate_search_burst",
            "rate_hint_burst",
            "PASYANS_RATE_SEARCH_BURST",
            "PASYANS_RATE_HINT_BURST",
        ),
        description="The ``search`` limit's burst; the old name ``rate_hint_burst`` still works.",
    )
    rate_search_address_per_minute: float = Field(
        default=60,
        ge=0,
        description="Searches per client address at most (the address's share, "
        "rate_address_factor times a player's, is capped to this); 0: no cap.",
    )
    rate_search_address_burst: int = Field(default=30, ge=1)
    rate_hint_any_per_minute: float = Field(
        default=240, ge=0, description="Every hint and winnability request (flood limit)."
    )
    rate_hint_any_burst: int = Field(default=120, ge=1)
    rate_new_game_per_minute: float = Field(default=60, ge=0, description="0: no limit.")
    rate_new_game_burst: int = Field(default=30, ge=1)
    rate_history_per_minute: float = Field(
        default=120,
        ge=0,
        description="Undo, redo and replay requests (each rebuilds or checks a line), per "
        "player and (rate_address_factor times) per address; 0: no limit.",
    )
    rate_history_burst: int = Field(default=60, ge=1)
    rate_link_per_minute: float = Field(
        default=6,
        ge=0,
        description="Link codes made and link codes tried (the ``link`` limit), per player and "
        "(rate_address_factor times) per address; 0: no limit (docs/devices.md: the "
        "guessing arithmetic rests on it).",
    )
    rate_link_burst: int = Field(default=10, ge=1)
    rate_address_factor: float = Field(
        default=4,
        ge=1,
        description="Per client address: this many times a player's allowance.",
    )
    rate_new_player_per_hour: float = Field(
        default=60,
        ge=0,
        description="New games an hour one client address may ask for without a cookie "
        "(each a new player); a browser has its cookie before its first game. 0: no cap.",
    )
    rate_new_player_burst: int = Field(default=20, ge=1)
    rate_refusal_delay_seconds: float = Field(
        default=1.0,
        ge=0,
        le=10,
        description="A 429 rate_limited answer is held this long (at most its Retry-After) "
        "before it is sent: a client looping on refused requests is answered at a bounded "
        "rate. The wait holds no thread and no database connection; 0: answer at once.",
    )
    rate_address_concurrency: int = Field(
        default=4,
        ge=0,
        description="Costly requests (new games, hints, winnability checks) of one client "
        "address in progress at once in one worker, held refusals included; more wait their "
        "turn (no thread held). 0: no cap.",
    )
    pool_worker: bool = Field(
        default=True, description="`pasyans serve` also runs `pasyans worker` (the deal pool)."
    )
    pool_target: int = Field(
        default=10, ge=0, description="Free solvable deals kept per game, options, difficulty."
    )
    pool_job_seconds: float = Field(
        default=60, gt=0, description="Longest time one solvable deal may take to make."
    )
    analysis_seconds: float = Field(
        default=60, gt=0, description="Longest time one game's analysis may take."
    )
    pool_games: str = Field(default="", description="Games the worker fills, comma-separated.")
    pool_worker_nice: int = Field(
        default=10,
        ge=0,
        le=19,
        description="Niceness of the deal worker's generator children (also SCHED_IDLE); "
        "0: not lowered.",
    )
    pool_max_pending: int = Field(default=500, ge=1, description="Queued deal numbers, in all.")
    pool_max_pending_per_address: int = Field(default=3, ge=1)
    pool_requested_per_hour: int = Field(
        default=6,
        ge=0,
        description="Deal numbers missing from the pool that one client address may have "
        "made in an hour (the worker's CPU per address); 0: no cap.",
    )
    pool_inline: bool = Field(
        default=False,
        description="Make a solvable deal missing from the pool inside the request (tests and "
        "development only: a request may then take seconds).",
    )
    sqlite_synchronous: Literal["FULL", "NORMAL"] = Field(
        default="FULL",
        description="FULL: every commit survives a power loss; NORMAL: only a process crash.",
    )
    sqlite_group_commit: bool = Field(
        default=True,
        description="With FULL: acknowledge a write after one shared fsync of the log, taken "
        "after the write lock is released, instead of SQLite's fsync inside every commit.",
    )
    db_pool_size: int = Field(default=5, ge=1)
    db_busy_seconds: float = Field(
        default=5.0,
        gt=0,
        le=9,
        description="Longest wait for a lock or a pooled connection (SQLite busy timeout, "
        "PostgreSQL lock_timeout); then 503 database_busy. Keep it below the proxy's timeout.",
    )
    db_statement_seconds: float = Field(
        default=8.0, gt=0, le=9.5, description="PostgreSQL statement_timeout."
    )
    db_connect_seconds: float = Field(
        default=3.0, gt=0, le=9, description="Longest wait to open a database connection."
    )
    keep_alive_seconds: float = Field(
        default=5.0, gt=0, description="An idle keep-alive connection is closed after this."
    )
    header_seconds: float = Field(
        default=10.0, gt=0, description="A request's headers must arrive within this."
    )
    max_connections: int = Field(
        default=2000,
        ge=10,
        description="Open connections and requests at once per worker; beyond it new"
        " requests answer 503 at once (uvicorn's limit_concurrency).",
    )
    answer_seconds: float = Field(
        default=10.0,
        gt=0,
        description="A request not answered within this gets 503 (a stalled disk, a hung lock).",
    )
    max_head_bytes: int = Field(
        default=8192,
        ge=1024,
        description="Largest request head (request line and headers); larger: 431 and close.",
    )
    body_seconds: float = Field(
        default=10.0, gt=0, description="A request's body must arrive within this (408)."
    )
    log_level: str = "info"

    def resolved_database_url(self) -> str:
        """The database URL, with the SQLite default filled in (and its directory made)."""
        if self.database_url:
            return self.database_url
        self.data_dir.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{(self.data_dir / 'pasyans.sqlite3').resolve()}"

    @property
    def rate_hint_per_minute(self) -> float:
        """The old name of :attr:`rate_search_per_minute` (it always fed the ``search``
        limit), kept for callers that read it."""
        return self.rate_search_per_minute

    @property
    def rate_hint_burst(self) -> int:
        """The old name of :attr:`rate_search_burst`."""
        return self.rate_search_burst
