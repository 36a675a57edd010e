"""``pasyans serve``: run the web site (uvicorn) on 127.0.0.1:8000 by default.

Migrations run once, here in the parent process, before uvicorn starts its workers; each
worker then builds the app from the environment without migrating again.

Connections are timed out: an idle keep-alive connection after ``keep_alive_seconds``,
one whose headers are not in after ``header_seconds``
(:class:`~pasyans.server.timeouts.HeaderDeadline`). Every log line has its control
characters escaped (:class:`~pasyans.server.security.EscapeControl`).
"""

from __future__ import annotations

import copy
import errno
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from typer import Option

from pasyans.cli.app import app


def log_config(level: str) -> dict[str, Any]:
    """uvicorn's logging setup, with :class:`EscapeControl` on every handler and the
    ``pasyans`` loggers writing through the same handler."""
    from uvicorn.config import LOGGING_CONFIG

    config: dict[str, Any] = copy.deepcopy(LOGGING_CONFIG)
    config["filters"] = {"escape": {"()": "pasyans.server.security.EscapeControl"}}
    for handler in config["handlers"].values():
        handler["filters"] = [*handler.get("filters", []), "escape"]
    config["loggers"]["pasyans"] = {
        "handlers": ["default"],
        "level": level.upper(),
        "propagate": False,
    }
    return config


@app.command()
def serve(
    host: Annotated[str | None, Option(help="Address to listen on [127.0.0.1].")] = None,
    port: Annotated[int | None, Option(help="Port [8000].", min=1, max=65535)] = None,
    workers: Annotated[
        int | None, Option(help="Worker processes [1]; use PostgreSQL for more.", min=1, max=64)
    ] = None,
    data_dir: Annotated[Path | None, Option(help="Where the SQLite file lives [./data].")] = None,
    reload: Annotated[bool, Option(help="Restart on code changes (development).")] = False,
    pool_worker: Annotated[
        bool | None,
        Option("--worker/--no-worker", help="Also run `pasyans worker` (the deal pool) [yes]."),
    ] = None,
) -> None:
    """Run the site: the JSON API, the browser table and the /docs page."""
    # Imported here, not at the top (not to hide a circle): the web stack (FastAPI,
    # SQLAlchemy, uvicorn) loads only for the commands that run it, so `pasyans play`,
    # `deal` and `solve` start without it.
    import uvicorn

    from pasyans.server.settings import Settings
    from pasyans.server.storage import migrate

    overrides: dict[str, object] = {}
    for name, value in (("host", host), ("port", port), ("workers", workers)):
        if value is not None:
            overrides[name] = value
    if data_dir is not None:
        overrides["data_dir"] = data_dir
    settings = Settings(**overrides)  # type: ignore[arg-type]
    raise_file_limit()
    url = settings.resolved_database_url()
    _migrate_or_exit(migrate, url)
    # Workers read their settings from the environment: hand over what was decided here.
    os.environ["PASYANS_DATABASE_URL"] = url
    os.environ["PASYANS_DATA_DIR"] = str(settings.data_dir)
    os.environ["PASYANS_MIGRATE_ON_START"] = "false"
    os.environ["PASYANS_HEADER_SECONDS"] = str(settings.header_seconds)
    os.environ["PASYANS_MAX_HEAD_BYTES"] = str(settings.max_head_bytes)
    where = "SQLite " + url.removeprefix("sqlite:///") if url.startswith("sqlite") else "PostgreSQL"
    typer.echo(
        f"Pasyans on http://{settings.host}:{settings.port} ({settings.workers} worker(s), {where})"
    )
    worker = None
    if settings.pool_worker if pool_worker is None else pool_worker:
        # Its own process (niced), so that making deals never slows a request down. It
        # stops by itself when this process ends (uvicorn may end it by re-raising SIGTERM).
        command = [sys.executable, "-m", "pasyans", "worker", "--no-migrate"]
        worker = Supervised([*command, "--parent", str(os.getpid())])
        worker.start()
    try:
        _run(uvicorn, settings, reload)
    finally:
        if worker is not None:
            worker.close()


def _migrate_or_exit(migrate: Any, url: str) -> None:
    """Apply the migrations; a database that cannot be written (a read-only disk or data
    directory, a full disk, a server that is down) stops the start with one clear line and
    exit code 1, not a traceback: the server needs to write (docs/deploy.md)."""
    from sqlalchemy import make_url

    from pasyans.server.errors import storage_code

    try:
        migrate.upgrade(url)
    except Exception as e:
        code = storage_code(e)
        if isinstance(e, OSError) and e.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
            code = "database_read_only"  # the migration lock's file beside the database
        elif isinstance(e, OSError) and e.errno == errno.ENOSPC:
            code = "database_full"
        if code is None:
            raise
        why = {
            "database_read_only": "is read-only",
            "database_full": "is on a full disk",
            "database_busy": "stayed locked by another process",
        }.get(code, "cannot be opened for writing")
        where = make_url(url).render_as_string(hide_password=True)
        cause = (str(getattr(e, "orig", e)).splitlines() or [type(e).__name__])[0]
        typer.echo(f"pasyans: cannot start: the database {where} {why} ({cause}); the"
                   " server needs to write there (docs/deploy.md)", err=True)  # fmt: skip
        raise typer.Exit(1) from None


class Supervised:
    """The deal worker, started again whenever it ends (killed, crashed, out of memory)
    while the server runs: after 1 s, doubling up to 60 s while it keeps dying within a
    minute of its start. ``/healthz`` reports a pool that is not refilled meanwhile."""

    def __init__(self, args: list[str]) -> None:
        self.args = args
        self.proc: subprocess.Popen[bytes] | None = None
        self.restarts = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="pasyans-supervisor",
                                        daemon=True)  # fmt: skip

    def start(self) -> None:
        self.proc = subprocess.Popen(self.args)
        self._thread.start()

    def _watch(self) -> None:
        delay = 1.0
        started = time.monotonic()
        while not self._stop.wait(0.5):
            assert self.proc is not None
            code = self.proc.poll()
            if code is None:
                continue
            lived = time.monotonic() - started
            delay = 1.0 if lived > 60 else min(60.0, delay * 2)
            typer.echo(f"pasyans: the deal worker ended (code {code}); starting it again "
                       f"in {delay:.0f} s", err=True)  # fmt: skip
            if self._stop.wait(delay):
                return
            self.proc = subprocess.Popen(self.args)
            self.restarts += 1
            started = time.monotonic()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        if self.proc is None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def _run(uvicorn: Any, settings: Any, reload: bool) -> None:
    # (here for the reason given in `serve`: the web stack loads only to serve)
    from pasyans.server.timeouts import HeaderDeadline

    uvicorn.run(
        "pasyans.server.app:app_from_env",
        factory=True,
        host=settings.host,
        port=settings.port,
        workers=None if reload else settings.workers,
        reload=reload,
        proxy_headers=settings.trust_proxy,
        forwarded_allow_ips=settings.forwarded_allow_ips,
        log_level=settings.log_level,
        log_config=log_config(settings.log_level),
        server_header=False,
        # A worker that takes longer to start (importing the app on a busy machine) is not
        # "hung": uvicorn's 5 s (and, under a load of 10 on 2 cores, even 30 s) would kill
        # and restart it over and over.
        timeout_worker_healthcheck=120,
        http=HeaderDeadline,
        timeout_keep_alive=max(1, round(settings.keep_alive_seconds)),
        limit_concurrency=settings.max_connections,
    )


def raise_file_limit() -> tuple[int, int]:
    """Raise this process's limit of open files (each connection holds one) from its soft
    value to the hard one, for the workers it starts too: at systemd's default soft limit of
    1,024, 1,200 idle connections left the listener unable to accept a real request. Gives
    (soft, hard) after."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass  # kept as it was: docs/deploy.md sets LimitNOFILE in the unit
    return soft, hard
