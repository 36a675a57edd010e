"""Servers for the server tests: a real ``pasyans serve`` in its own process group, and an
in-process app on a SQLite file."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

from devtools import free_port
from fastapi import FastAPI
from server_helpers import STARTED, wait_until_started

from pasyans.server.app import create_app
from pasyans.server.settings import Settings

PASYANS = Path(sys.executable).parent / "pasyans"


class Serve:
    """``pasyans serve`` on a free port of 127.0.0.1, in its own process group, with no
    ``PASYANS_*`` setting of the caller's environment: its data directory is ``data``
    next to ``log``, ``env`` adds settings, ``workers`` passes ``--workers``. Its output
    is appended to ``log`` (a server started again on the same database appends to the
    same log). With ``wait`` (the default), returns once ``/healthz`` answers and one
    worker has started (see ``wait_until_started``). A context manager: leaving it stops
    the server."""

    def __init__(
        self,
        log: Path,
        env: dict[str, str] | None = None,
        workers: int | None = None,
        *,
        wait: bool = True,
        preexec_fn: Callable[[], None] | None = None,
    ) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = log
        full = {k: v for k, v in os.environ.items() if not k.startswith("PASYANS_")}
        full["PASYANS_DATA_DIR"] = str(log.parent / "data")
        full.update(env or {})
        args = [str(PASYANS), "serve", "--host", "127.0.0.1", "--port", str(self.port)]
        if workers is not None:
            args += ["--workers", str(workers)]
        before = log.read_text().count(STARTED) if log.exists() else 0
        self._out = log.open("a")
        self.proc = subprocess.Popen(args, env=full, stdout=self._out, stderr=subprocess.STDOUT,
                                     start_new_session=True, preexec_fn=preexec_fn)  # fmt: skip
        if wait:
            try:
                wait_until_started(self.proc, self.base, log, 1, before)
            except BaseException:
                self.stop()
                raise

    def kill(self) -> None:
        """SIGKILL to the server and its workers: no shutdown code runs."""
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=20)
        self._out.close()

    def stop(self) -> None:
        """SIGTERM to the server (it stops its workers), SIGKILL to the group after 20 s."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        self._out.close()

    def __enter__(self) -> Serve:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()


def sqlite_app(tmp_path: Path, **changes: object) -> FastAPI:
    """An app on a fresh SQLite file in ``tmp_path``: no search process started ahead, no
    limit on new games or players; ``changes`` are more settings."""
    values: dict[str, object] = {
        "database_url": f"sqlite:///{tmp_path / 'app.sqlite3'}",
        "data_dir": tmp_path / "data",
        "solver_prestart": False,
        "rate_new_game_per_minute": 0,
        "rate_new_player_per_hour": 0,
    }
    values.update(changes)
    return create_app(Settings(**values))  # type: ignore[arg-type]
