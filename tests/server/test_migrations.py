"""Migrations: applied at start, idempotent, safe from several processes at once, and in
step with the ORM models."""

from __future__ import annotations

import subprocess
import sys

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, inspect
from sqlalchemy.pool import NullPool

from pasyans.server import migrate
from pasyans.server.models import Base


def head(url: str) -> str:
    """The newest revision: every migration must chain to a single head."""
    heads = ScriptDirectory.from_config(migrate.alembic_config(url)).get_heads()
    assert len(heads) == 1, heads
    return str(heads[0])


def test_upgrade_makes_the_tables_and_is_idempotent(db_url: str) -> None:
    migrate.upgrade(db_url)
    migrate.upgrade(db_url)
    engine = create_engine(db_url, poolclass=NullPool)
    try:
        with engine.connect() as conn:
            assert {"players", "games", "alembic_version"} <= set(inspect(conn).get_table_names())
            ctx = MigrationContext.configure(conn)
            assert ctx.get_current_revision() == head(db_url)
            diff = compare_metadata(ctx, Base.metadata)
            assert diff == [], diff
    finally:
        engine.dispose()


def test_several_processes_migrate_at_once(db_url: str) -> None:
    code = "import sys; from pasyans.server import migrate; migrate.upgrade(sys.argv[1])"
    procs = [
        subprocess.Popen([sys.executable, "-c", code, db_url], stderr=subprocess.PIPE)
        for _ in range(4)
    ]
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err.decode()
    engine = create_engine(db_url, poolclass=NullPool)
    try:
        with engine.connect() as conn:
            assert MigrationContext.configure(conn).get_current_revision() == head(db_url)
    finally:
        engine.dispose()


def test_0002_keeps_games_stored_before_it(db_url: str) -> None:
    """A row stored under 0001 (no ``start``) survives the upgrade and still loads."""
    from sqlalchemy import text

    from pasyans.server import store

    migrate.upgrade(db_url, "0001")
    engine = create_engine(db_url, poolclass=NullPool)
    try:
        with engine.begin() as conn:
            conn.execute(
                text("INSERT INTO players (id, token_hash, created_at) VALUES (1, :h, :t)"),
                {"h": "a" * 64, "t": "2026-11-29 10:00:00+00:00"},
            )
            conn.execute(
                text(
                    "INSERT INTO games (id, player_id, game, options, options_key, deal, kind,"
                    " rules_version, moves, redo, version, status, undos, hints, restarts,"
                    " moves_total, score, foundation_cards, time_ms, created_at, updated_at,"
                    " last_active_at) VALUES ('g1', 1, 'spider', :o, 'suits=1', 5, 'random',"
                    " 1, :m, :r, 2, 'playing', 0, 0, 0, 1, 499, 0, 0, :t, :t, :t)"
                ),
                {
                    "o": '{"suits": "1"}',
                    "m": '["t3>t7"]',
                    "r": "[]",
                    "t": "2026-11-29 10:00:00+00:00",
                },
            )
        migrate.upgrade(db_url)
        from sqlalchemy.orm import Session

        from pasyans.deals import load_game
        from pasyans.server.models import GameRow

        with Session(engine) as session:
            row = session.get(GameRow, "g1")
            assert row is not None and row.start is None and row.moves == ["t3>t7"]
            game = load_game(store.saved_record(row))
            assert [m.to_str() for m in game.moves] == ["t3>t7"]
    finally:
        engine.dispose()
