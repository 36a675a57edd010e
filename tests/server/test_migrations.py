"""Migrations: applied at start, idempotent, safe from several processes at once, and in
step with the ORM models."""

from __future__ import annotations

import subprocess
import sys

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from server_helpers import without_bands
from sqlalchemy import create_engine, inspect
from sqlalchemy.pool import NullPool

from pasyans.server.storage import migrate
from pasyans.server.storage.models import Base


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
    code = "import sys; from pasyans.server.storage import migrate; migrate.upgrade(sys.argv[1])"
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

    from pasyans.server.storage import store

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
        from pasyans.server.storage.models import GameRow

        with Session(engine) as session:
            row = session.get(GameRow, "g1")
            assert row is not None and row.start is None and row.moves == ["t3>t7"]
            game = load_game(store.saved_record(row))
            assert [m.to_str() for m in game.moves] == ["t3>t7"]
    finally:
        engine.dispose()


def test_0004_abandons_duplicates_and_fills_the_kept_figures(db_url: str) -> None:
    """Games stored before 0004: two in progress for one option set (a race of old) and
    finished ones. After the upgrade one is in progress, and the kept figures equal a
    recount."""
    from alembic import command
    from sqlalchemy import select, text
    from sqlalchemy.orm import Session

    from pasyans.server.stats import records as stats
    from pasyans.server.storage.models import GameRow

    migrate.upgrade(db_url)
    command.downgrade(migrate.alembic_config(db_url), "0003")  # a shared PostgreSQL: from head
    engine = create_engine(db_url, poolclass=NullPool)
    with engine.begin() as conn:
        conn.execute(text("DELETE FROM games"))
        conn.execute(text("DELETE FROM players"))
    insert = text(
        "INSERT INTO games (id, player_id, game, options, options_key, deal, kind,"
        " rules_version, moves, redo, version, status, undos, hints, restarts, moves_total,"
        " score, foundation_cards, time_ms, created_at, updated_at, last_active_at,"
        " first_move_at, finished_at) VALUES (:id, 1, 'spider', :o, 'suits=1', 5, 'random',"
        " 1, :m, '[]', 2, :status, 0, 0, 0, 1, 499, 0, :ms, :t, :t, :t, :t, :end)"
    )
    games = [
        ("p1", "playing", "2026-11-29 10:00:00+00:00", None, 0),
        ("p2", "playing", "2026-11-29 11:00:00+00:00", None, 0),
        ("w1", "won", "2026-11-28 10:00:00+00:00", "2026-11-28 10:10:00+00:00", 5000),
        ("l1", "lost", "2026-11-28 11:00:00+00:00", "2026-11-28 11:10:00+00:00", 7000),
        ("w2", "won", "2026-11-28 12:00:00+00:00", "2026-11-28 12:10:00+00:00", 3000),
    ]
    try:
        with engine.begin() as conn:
            conn.execute(
                text("INSERT INTO players (id, token_hash, created_at) VALUES (1, :h, :t)"),
                {"h": "c" * 64, "t": "2026-11-28 09:00:00+00:00"},
            )
            for gid, status, t, end, ms in games:
                conn.execute(
                    insert,
                    {"id": gid, "o": '{"suits": "1"}', "m": '["t3>t7"]', "status": status,
                     "t": t, "end": end, "ms": ms},
                )  # fmt: skip
        migrate.upgrade(db_url)
        with Session(engine) as s:
            status = dict(s.execute(select(GameRow.id, GameRow.status)).all())
            assert status["p2"] == "playing" and status["p1"] == "abandoned"
            kept = stats.kept_statistics(s, 1)
            assert without_bands(kept) == stats.statistics(stats.records(s, 1))
            assert (kept["total"]["played"], kept["total"]["won"]) == (4, 2)
            assert kept["total"]["best_time"]["id"] == "w2"
    finally:
        engine.dispose()


def test_0010_makes_each_player_a_device_and_forgets_the_players_token(db_url: str) -> None:
    """A player stored before 0010 keeps their games under their cookie: their token hash
    becomes their first device, and ``players.token_hash`` no longer holds it."""
    from alembic import command
    from sqlalchemy import text
    from sqlalchemy.orm import Session

    from pasyans.server.storage import store

    migrate.upgrade(db_url)
    command.downgrade(migrate.alembic_config(db_url), "0007_actions")
    engine = create_engine(db_url, poolclass=NullPool)
    token = store.hash_token("x" * 43)
    try:
        with engine.begin() as conn:
            conn.execute(text("DELETE FROM games"))
            conn.execute(text("DELETE FROM players"))
            conn.execute(
                text("INSERT INTO players (id, token_hash, created_at) VALUES (7, :h, :t)"),
                {"h": token, "t": "2026-11-29 10:00:00+00:00"},
            )
        migrate.upgrade(db_url)
        with Session(engine) as s:
            assert store.player_id(s, token) == 7
            legacy = s.execute(text("SELECT token_hash FROM players WHERE id = 7")).scalar_one()
            assert legacy == "p7"
            assert store.ensure_player(s, token) == 7
        command.downgrade(migrate.alembic_config(db_url), "0007_actions")
        with engine.connect() as conn:
            back = conn.execute(text("SELECT token_hash FROM players WHERE id = 7")).scalar_one()
            assert back == token
        migrate.upgrade(db_url)
    finally:
        engine.dispose()
