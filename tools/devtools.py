"""Helpers for the project's own tests and benchmarks: a free local port, a throwaway
PostgreSQL cluster on 127.0.0.1, and a script of ``benchmarks/`` or ``tools/`` loaded as a
module. Not used by the site itself."""

from __future__ import annotations

import glob
import importlib.util
import os
import pwd
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any


def load_script(path: Path, name: str) -> ModuleType:
    """The script at ``path`` (not a package module) loaded as the module ``name``,
    registered in ``sys.modules`` first (dataclasses look their module up there), with
    its own folder on ``sys.path`` while it runs (a benchmark imports its neighbours)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    sys.path.append(str(path.parent))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(path.parent))
    return module


class PostgresUnavailable(RuntimeError):
    """No PostgreSQL binaries, or no ``postgres`` user to run them as root."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def pg_bin() -> Path | None:
    """The directory of ``initdb`` and ``pg_ctl`` (``PASYANS_PG_BIN``, Debian's, or PATH)."""
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


def as_postgres(cmd: list[str]) -> list[str]:
    """Run as ``postgres`` when we are root (initdb refuses root); as ourselves otherwise."""
    if os.geteuid() != 0:
        return cmd
    if shutil.which("runuser"):
        return ["runuser", "-u", "postgres", "--", *cmd]
    return ["su", "postgres", "-s", "/bin/sh", "-c", shlex.join(cmd)]


@contextmanager
def throwaway_postgres(
    database: str, *, fsync: bool, server_options: str = "", stop_mode: str = "immediate"
) -> Iterator[str]:
    """``initdb`` into a temporary directory, start on 127.0.0.1 on a free port, create
    ``database``; yields its SQLAlchemy URL and always stops and removes the cluster.

    Raises :class:`PostgresUnavailable` when it cannot be started here at all.
    """
    bin_dir = pg_bin()
    if bin_dir is None:
        raise PostgresUnavailable("no initdb/pg_ctl found (install the postgresql package)")
    owner = None
    if os.geteuid() == 0:
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            raise PostgresUnavailable("running as root and there is no 'postgres' user") from None
    tmp = Path(tempfile.mkdtemp(prefix="pasyans-pg-"))
    if owner is not None:
        os.chown(tmp, owner.pw_uid, owner.pw_gid)
    tmp.chmod(0o700)
    data, port = tmp / "data", free_port()
    pg_ctl = str(bin_dir / "pg_ctl")

    def run(cmd: list[str]) -> None:
        out = subprocess.run(as_postgres(cmd), capture_output=True, text=True, timeout=120)
        if out.returncode != 0:
            log = tmp / "server.log"
            tail = log.read_text()[-2000:] if log.exists() else ""
            raise RuntimeError(f"{cmd[0]} failed: {out.stdout}{out.stderr}{tail}")

    started = False
    try:
        run([str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust",
             "-E", "UTF8", "--no-sync"])  # fmt: skip
        options = f"{'' if fsync else '-F '}-k {tmp} -h 127.0.0.1 -p {port} {server_options}"
        run([pg_ctl, "-D", str(data), "-l", str(tmp / "server.log"), "-o", options.strip(),
             "-w", "start"])  # fmt: skip
        started = True
        run([str(bin_dir / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "postgres",
             database])  # fmt: skip
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/{database}"
    finally:
        if started:
            subprocess.run(
                as_postgres([pg_ctl, "-D", str(data), "-m", stop_mode, "-w", "stop"]),
                capture_output=True,
                timeout=60,
            )
        shutil.rmtree(tmp, ignore_errors=True)


# --- a Spine layout that autocollect wins, for tests of endings and statistics ---------------


def collectable_spine() -> Any:
    """A default Spine layout that autocollect wins from move 0 (no real deal is ever like
    this: the generator refuses trivial deals). Every pile holds its cards in falling rank
    from bottom to top, so the lowest card left is always on top of some pile; ``t4>t2``
    (seven onto eight of diamonds) is a legal detour that keeps it so."""
    from pasyans.cards import make_card, parse_card
    from pasyans.position import Table
    from pasyans.rules import get_game

    spec = get_game("spine")
    table = Table.empty(len(spec.piles))
    high = list(range(13, 7, -1))  # K … 8
    spine = [parse_card("8S")]
    for x in range(8):
        cards = [make_card(r, x % 4) for r in high]
        if x == 3:  # t4: K … 9 of spades, then the seven of diamonds
            cards = [*cards[:-1], parse_card("7D")]
        table.piles[spec.index[f"t{x + 1}"]] = tuple(cards)
    rest = [make_card(r, s) for r in range(7, 0, -1) for s in range(4) for _ in range(2)]
    rest.remove(parse_card("7D"))
    table.piles[spec.index["spine"]] = tuple(spine + rest)
    return table.freeze()


def pool_collectable(
    session: Any, deal: int, difficulty: str = "medium", generator: int | None = None
) -> None:
    """Put :func:`collectable_spine` in the deal pool as default Spine's solvable ``deal``
    as generator version ``generator`` made it (default: the current one; a daily deal:
    its day's, :func:`pasyans.deals.daily_generator`) (tests: a game won by one
    autocollect). The caller commits."""
    from pasyans import deals
    from pasyans.server.pool import entries as pool
    from pasyans.server.storage import store

    version = deals.GENERATOR_VERSION if generator is None else generator
    made = deals.SolvableDeal(collectable_spine(), difficulty, 0.0, version)
    key = store.options_key({"empty": "kings", "runs": "single", "spine": "56"})
    pool.add(session, "spine", key, deal, made)
