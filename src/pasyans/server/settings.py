"""Server settings, read from ``PASYANS_*`` environment variables (pydantic-settings)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field
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
        default=0.2, gt=0, le=30, description="Search budget of one hint (p95 target 300 ms)."
    )
    winnable_seconds: float = Field(default=2.0, gt=0, le=60)
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
    rate_hint_per_minute: float = Field(default=30, ge=0, description="0: no limit.")
    rate_hint_burst: int = Field(default=10, ge=1)
    rate_new_game_per_minute: float = Field(default=60, ge=0, description="0: no limit.")
    rate_new_game_burst: int = Field(default=30, ge=1)
    sqlite_synchronous: Literal["FULL", "NORMAL"] = Field(
        default="FULL",
        description="FULL: every commit survives a power loss; NORMAL: only a process crash.",
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
