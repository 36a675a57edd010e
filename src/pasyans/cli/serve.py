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
import os
import subprocess
import sys
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
    url = settings.resolved_database_url()
    migrate.upgrade(url)
    # Workers read their settings from the environment: hand over what was decided here.
    os.environ["PASYANS_DATABASE_URL"] = url
    os.environ["PASYANS_DATA_DIR"] = str(settings.data_dir)
    os.environ["PASYANS_MIGRATE_ON_START"] = "false"
    os.environ["PASYANS_HEADER_SECONDS"] = str(settings.header_seconds)
    where = "SQLite " + url.removeprefix("sqlite:///") if url.startswith("sqlite") else "PostgreSQL"
    typer.echo(
        f"Pasyans on http://{settings.host}:{settings.port} ({settings.workers} worker(s), {where})"
    )
    worker = None
    if settings.pool_worker if pool_worker is None else pool_worker:
        # Its own process (niced), so that making deals never slows a request down. It
        # stops by itself when this process ends (uvicorn may end it by re-raising SIGTERM).
        worker = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "pasyans",
                "worker",
                "--no-migrate",
                "--parent",
                str(os.getpid()),
            ]
        )
    try:
        _run(uvicorn, settings, reload)
    finally:
        if worker is not None:
            worker.terminate()
            try:
                worker.wait(timeout=10)
            except subprocess.TimeoutExpired:
                worker.kill()


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
    )
