"""Shared fixtures. ``postgres_url``: a throwaway PostgreSQL server for the whole session.

It runs ``initdb`` into a temporary directory (as user ``postgres`` when the tests run as
root), starts the server with ``pg_ctl`` on 127.0.0.1 on a free port with fsync off,
creates the database ``pasyans_test`` and stops the server however the session ends.
Without PostgreSQL binaries the PostgreSQL tests are skipped locally and FAIL in CI
(``CI=true``).
"""

from __future__ import annotations

import glob
import os
import pwd
import shlex
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


def _pg_bin() -> Path | None:
    explicit = os.environ.get("PASYANS_PG_BIN")
    candidates = [explicit] if explicit else []
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    on_path = shutil.which("pg_ctl")
    if on_path:
        candidates.append(str(Path(on_path).parent))
    for c in candidates:
        if c and (Path(c) / "pg_ctl").is_file() and (Path(c) / "initdb").is_file():
            return Path(c)
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _as_postgres(cmd: list[str]) -> list[str]:
    """Run as ``postgres`` when we are root (initdb refuses root); as ourselves otherwise."""
    if os.geteuid() != 0:
        return cmd
    if shutil.which("runuser"):
        return ["runuser", "-u", "postgres", "--", *cmd]
    return ["su", "postgres", "-s", "/bin/sh", "-c", shlex.join(cmd)]


def _unavailable(reason: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"PostgreSQL is required in CI: {reason}")
    pytest.skip(f"PostgreSQL not available: {reason}")


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """``postgresql+psycopg://postgres@127.0.0.1:PORT/pasyans_test`` of a fresh server."""
    bin_dir = _pg_bin()
    if bin_dir is None:
        _unavailable("no initdb/pg_ctl found (install the postgresql package)")
        raise AssertionError("unreachable")
    if os.geteuid() == 0:
        try:
            pw = pwd.getpwnam("postgres")
        except KeyError:
            _unavailable("running as root and there is no 'postgres' user")
            raise AssertionError("unreachable") from None
    tmp = Path(tempfile.mkdtemp(prefix="pasyans-pg-"))
    data = tmp / "data"
    if os.geteuid() == 0:
        os.chown(tmp, pw.pw_uid, pw.pw_gid)
    tmp.chmod(0o700)
    port = free_port()
    pg_ctl = str(bin_dir / "pg_ctl")
    started = False

    def run(cmd: list[str]) -> None:
        out = subprocess.run(_as_postgres(cmd), capture_output=True, text=True, timeout=120)
        if out.returncode != 0:
            log = tmp / "server.log"
            tail = log.read_text()[-2000:] if log.exists() else ""
            raise RuntimeError(f"{cmd[0]} failed: {out.stdout}{out.stderr}{tail}")

    try:
        run(
            [
                str(bin_dir / "initdb"),
                "-D",
                str(data),
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
            ]
        )
        options = f"-F -k {tmp} -h 127.0.0.1 -p {port}"
        run([pg_ctl, "-D", str(data), "-l", str(tmp / "server.log"), "-o", options, "-w", "start"])
        started = True
        run([str(bin_dir / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "postgres",
             "pasyans_test"])  # fmt: skip
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/pasyans_test"
    finally:
        if started:
            subprocess.run(
                _as_postgres([pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"]),
                capture_output=True,
                timeout=60,
            )
        shutil.rmtree(tmp, ignore_errors=True)
