"""``pasyans worker``: keep the solvable-deal pool topped up, and run the analyses of
finished games (docs/deploy.md, docs/analysis.md).

Runs beside the web processes, on the same database (``PASYANS_DATABASE_URL``): it makes
the deal numbers players asked for first, each in a child process stopped after
``PASYANS_POOL_JOB_SECONDS``, then keeps ``PASYANS_POOL_TARGET`` free solvable deals for
every game, option set and difficulty. Several workers (on several machines) may run at
once: jobs and entries are claimed in the database. ``pasyans serve`` starts one unless
``PASYANS_POOL_WORKER=false``.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
from types import FrameType
from typing import Annotated

import typer
from typer import Option

from pasyans.cli.app import app


@app.command()
def worker(
    once: Annotated[
        bool, Option(help="Do what is needed now (jobs, then the top-up), then exit.")
    ] = False,
    target: Annotated[
        int | None, Option(help="Free deals kept per game, options and difficulty [10].", min=0)
    ] = None,
    games: Annotated[str | None, Option(help="Only these games, comma-separated [all].")] = None,
    migrate_first: Annotated[
        bool, Option("--migrate/--no-migrate", help="Apply the migrations first.")
    ] = True,
    parent: Annotated[
        int | None, Option(help="Stop when the process with this id ends (pasyans serve).")
    ] = None,
) -> None:
    """Make solvable deals ahead of time, into the database the site uses.

    Long because of its command-line options (typer reads them from the signature) and the
    late imports of the web stack: the body is short."""
    # Imported here, not at the top (not to hide a circle): the web stack (FastAPI,
    # SQLAlchemy, uvicorn) loads only for the commands that run it, so `pasyans play`,
    # `deal` and `solve` start without it.
    from pasyans.server.pool import daily
    from pasyans.server.pool.analyses import AnalysisRunner
    from pasyans.server.pool.entries import PoolWorker, WorkerConfig
    from pasyans.server.settings import Settings
    from pasyans.server.storage import migrate
    from pasyans.server.storage.checkpoint import defer_checkpoints
    from pasyans.server.storage.db import make_engine, make_sessionmaker

    settings = Settings()
    logging.basicConfig(
        level=settings.log_level.upper(), format="%(asctime)s %(name)s %(levelname)s %(message)s"
    )
    url = settings.resolved_database_url()
    if migrate_first:
        migrate.upgrade(url)
    chosen = games if games is not None else settings.pool_games
    config = WorkerConfig(
        target=settings.pool_target if target is None else target,
        job_seconds=settings.pool_job_seconds,
        games=tuple(g.strip() for g in chosen.split(",") if g.strip()),
        nice=settings.pool_worker_nice,
    )
    # The generator's children run below everything (SCHED_IDLE). This process does not:
    # it takes the database's write lock, and preempted while holding it (an idle-class
    # process is, whenever a core is wanted) it held up every web worker's write
    # (docs/notes/2026-12-03-moved-runs.md, "Group commit, and the deal worker's priority").
    # What the worker writes (made deals, the jobs' state) can be made again: on SQLite it
    # commits without an fsync of its own (NORMAL in WAL mode survives a crash of the
    # process, not a power loss), so it holds the database's write lock for less time and
    # the web processes' writes wait less in SQLite's busy handler behind it.
    # It never fsyncs either: its checkpoints are left to the web processes' checkpoint
    # threads, whose fsyncs (and group flushes of the log) see any failure of the disk,
    # and stop the writes until the database is checked (server/groupsync.py, Health).
    engine = make_engine(url, pool_size=1, synchronous="NORMAL")
    defer_checkpoints(engine)
    pool_worker = PoolWorker(make_sessionmaker(engine), config, daily.schedule_ahead)
    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    if parent is not None:

        def watch() -> None:  # the server may end without stopping us (SIGKILL, say)
            while not stop.wait(1.0):
                if os.getppid() != parent:
                    stop.set()

        threading.Thread(target=watch, daemon=True).start()
    pool_worker.stop = stop
    runner = AnalysisRunner(
        pool_worker.maker, seconds=settings.analysis_seconds, nice=config.nice, stop=stop
    )
    pool_worker.more.append(runner.step)
    try:
        if once:
            while not stop.is_set() and pool_worker.step():
                pass
        else:
            typer.echo(f"pasyans worker: pool target {config.target}", err=True)
            pool_worker.run(stop)
    finally:
        engine.dispose()
    typer.echo(f"pasyans worker: made {pool_worker.made} deal(s)", err=True)
