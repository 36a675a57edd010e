"""Load benchmark: N simulated players against a real ``pasyans serve`` on 127.0.0.1.

Each player has its own cookie (so its own games), starts a game and plays legal moves
picked at random from its view's list, waiting a think time between moves, for a bounded
time; a finished or stuck game is replaced by a new one. Prints requests/s, the p50, p95
and p99 latency of a move (client side) and the error count, per player count::

    uv run python benchmarks/load.py --players 16 64 256 --duration 25
    uv run python benchmarks/load.py --postgres --workers 2 --players 16 64 256
    uv run python benchmarks/load.py --database-url postgresql+psycopg://... --workers 2

``--postgres`` starts a throwaway PostgreSQL cluster (initdb into a temporary directory,
fsync on, 127.0.0.1, free port) and removes it afterwards. ``--think 0`` gives a closed
loop with no pause: the saturation throughput. Client and server share the machine.

``--costly N`` measures what costly clients do to everyone else: each player count is run
twice on the same server, first quiet, then with N more clients that send only costly
requests as fast as they are answered (solvable new games with numbers not in the pool,
hints and winnability checks on positions no one asked about, half of them without a
cookie, so each request is a new player). Every simulated client has its own address
(``X-Forwarded-For`` from 127.0.0.1, a trusted proxy). It prints both rows, what the
costly clients got, and the ratio of the moves' p99 (target: under 2)::

    uv run python benchmarks/load.py --players 16 --costly 4 --duration 20

``--costly-hidden`` changes what they ask for: hints and Winnable? checks on positions
with hidden cards (Spider 4 suits), each a search of samples of the hidden cards. Before
the quiet run the server is left to settle (its search processes start in the background).

The costly clients run in a process of their own (the players' event loop times the
moves). The server's CPU is given in all and by role: the web process(es), the search
children, the deal worker. ``--baseline REV`` measures the server of another git revision
too, alternating with this tree's, a fresh server each run, ``--rounds`` times, and
prints the medians of the p99 ratio::

    uv run python benchmarks/load.py --players 16 --costly 4 --duration 20 --baseline d760ee7
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import devtools
from devtools import free_port

PASYANS = Path(sys.executable).parent / "pasyans"


@contextmanager
def throwaway_postgres() -> Iterator[str]:
    """A fresh cluster (durable: fsync on) on 127.0.0.1; yields its SQLAlchemy URL."""
    try:
        with devtools.throwaway_postgres(
            "pasyans_load", fsync=True, server_options="-c max_connections=200", stop_mode="fast"
        ) as url:
            yield url
    except devtools.PostgresUnavailable as e:
        raise SystemExit(f"PostgreSQL cannot be started here: {e}") from e


# --- the server ---------------------------------------------------------------------------


ROLES = ("web", "solver", "deals")
"""The server's processes: the web process(es); the search children (the forkserver and
its children); the deal worker (``pasyans worker`` and its generator children)."""


def group_cpu_by_role(pgid: int) -> dict[str, float]:
    """CPU seconds (user + system, with those of reaped children, which land in their
    parent's) of the live processes of the process group ``pgid``, by role (:data:`ROLES`)."""
    tick = os.sysconf("SC_CLK_TCK")
    procs: dict[int, tuple[int, str, float]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            cmdline = (stat.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except (OSError, UnicodeDecodeError):
            continue
        if int(fields[2]) == pgid:  # fields after the name: state, ppid, pgrp, ...
            cpu = sum(int(f) for f in fields[11:15]) / tick  # utime stime cutime cstime
            procs[int(stat.parent.name)] = (int(fields[1]), cmdline, cpu)
    out = dict.fromkeys(ROLES, 0.0)
    for pid, (_, _, cpu) in procs.items():
        role, p = "web", pid
        while p in procs:
            ppid, cmdline, _ = procs[p]
            if "forkserver" in cmdline:
                role = "solver"
                break
            if "pasyans worker" in cmdline:
                role = "deals"
                break
            p = ppid
        out[role] += cpu
    return out


def group_cpu_seconds(pgid: int) -> float:
    """CPU seconds of every live process of the process group ``pgid`` (see
    :func:`group_cpu_by_role`)."""
    return sum(group_cpu_by_role(pgid).values())


def settle(pgid: int, most: float = 60.0) -> None:
    """Wait until the web process and the search processes are idle (under 5% of a core
    over half a second, at most ``most`` seconds): a fresh server starts its search
    processes in the background (the forkserver imports the solver: a second on a quiet
    machine, up to 16 s on a busy one), and the quiet run measured that start-up too. The
    deal worker is not waited for (filling a fresh pool, it is never idle)."""
    deadline = time.monotonic() + most
    busy = lambda cpu: cpu["web"] + cpu["solver"]  # noqa: E731
    before = busy(group_cpu_by_role(pgid))
    while time.monotonic() < deadline:
        time.sleep(0.5)
        now = busy(group_cpu_by_role(pgid))
        if now - before < 0.025:
            return
        before = now


@dataclass
class Server:
    base: str
    pgid: int


@contextmanager
def serve(database_url: str | None, workers: int, extra_env: dict[str, str]) -> Iterator[Server]:
    """``pasyans serve`` on a free port of 127.0.0.1 (its own process group)."""
    tmp = Path(tempfile.mkdtemp(prefix="pasyans-load-"))
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PASYANS_")}
    env.update(PASYANS_DATA_DIR=str(tmp / "data"), PASYANS_LOG_LEVEL="warning", **extra_env)
    if database_url:
        env["PASYANS_DATABASE_URL"] = database_url
    args = [str(PASYANS), "serve", "--host", "127.0.0.1", "--port", str(port),
            "--workers", str(workers)]  # fmt: skip
    log = (tmp / "server.log").open("w")
    proc = subprocess.Popen(args, env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                raise SystemExit((tmp / "server.log").read_text())
            try:
                if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("the server did not start:\n" + (tmp / "server.log").read_text())
            time.sleep(0.2)
        settle(proc.pid)
        yield Server(base, proc.pid)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        with contextlib.suppress(ProcessLookupError):  # whatever the server left behind
            os.killpg(proc.pid, signal.SIGTERM)
        log.close()
        shutil.rmtree(tmp, ignore_errors=True)


# --- the players --------------------------------------------------------------------------


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)  # seconds, moves only
    starts: list[float] = field(default_factory=list)  # monotonic, each move's start
    requests: int = 0
    errors: int = 0
    error_kinds: dict[str, int] = field(default_factory=dict)
    games: int = 0
    measure_from: float = 0.0
    """Monotonic time when the warm-up ends: requests before it are not counted."""

    def error(self, kind: str) -> None:
        self.errors += 1
        self.error_kinds[kind] = self.error_kinds.get(kind, 0) + 1


def address(group: int, i: int) -> dict[str, str]:
    """A client address of its own (198.18.0.0/15 is for benchmarks), as a proxy says it."""
    return {"X-Forwarded-For": f"198.{18 + group}.{i // 250}.{i % 250 + 1}"}


async def player(
    base: str,
    game: str,
    deadline: float,
    think: float,
    rnd: random.Random,
    tally: Tally,
    who: int = 0,
) -> None:
    limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
    async with httpx.AsyncClient(
        base_url=base, timeout=30, limits=limits, headers=address(0, who)
    ) as client:
        state: dict[str, Any] | None = None
        await asyncio.sleep(rnd.uniform(0, max(think, 0.05)))  # do not all start at once
        while time.monotonic() < deadline:
            try:
                if state is None or state["status"] != "playing" or not state["view"]["moves"]:
                    r = await client.post("/api/games", json={"game": game})
                    tally.requests += time.monotonic() >= tally.measure_from
                    if r.status_code != 201:
                        tally.error(f"new game {r.status_code}")
                        await asyncio.sleep(1)
                        continue
                    state = r.json()
                    tally.games += 1
                    continue
                move = rnd.choice(state["view"]["moves"])["text"]
                body = {"move": move, "version": state["version"]}
                t0 = time.perf_counter()
                r = await client.post(f"/api/games/{state['id']}/moves", json=body)
                elapsed = time.perf_counter() - t0
                counted = time.monotonic() - elapsed >= tally.measure_from
                tally.requests += counted
                if r.status_code == 200:
                    if counted:
                        tally.latencies.append(elapsed)
                        tally.starts.append(time.monotonic() - elapsed)
                    state = r.json()
                else:
                    tally.error(f"move {r.status_code}")
                    state = None
            except httpx.HTTPError as e:
                tally.error(type(e).__name__)
                state = None
            if think > 0:
                await asyncio.sleep(rnd.uniform(0.5 * think, 1.5 * think))


def percentile(sorted_values: list[float], p: float) -> float:
    if not sorted_values:
        return float("nan")
    k = min(len(sorted_values) - 1, max(0, round(p / 100 * (len(sorted_values) - 1))))
    return sorted_values[k]


@dataclass
class Cpu:
    """CPU seconds spent in the measured window, by the server (by role) and the clients."""

    server: dict[str, float]
    players: float
    costly: float = 0.0

    @property
    def server_total(self) -> float:
        return sum(self.server.values())


async def run_load(
    server: Server,
    players: int,
    duration: float,
    warmup: float,
    think: float,
    game: str,
    costly: int = 0,
    costly_tally: CostlyTally | None = None,
) -> tuple[Tally, Cpu]:
    """Run the players for ``warmup + duration`` seconds; the tally of the last
    ``duration`` seconds and the CPU seconds in them. The costly clients run in a process
    of their own, so that the players' event loop (which times the moves) does not wait
    behind theirs."""
    start = time.monotonic()
    tally = Tally(measure_from=start + warmup)
    deadline = tally.measure_from + duration
    cpu: list[Any] = []
    attack = None
    if costly:
        ctx = multiprocessing.get_context("spawn")
        receive, send = ctx.Pipe(duplex=False)
        attack = ctx.Process(
            target=_costly_process, args=(server.base, costly, start + warmup, deadline, send)
        )
        attack.start()
        send.close()

    async def snapshot() -> None:
        await asyncio.sleep(warmup)
        cpu.extend((group_cpu_by_role(server.pgid), time.process_time()))

    await asyncio.gather(
        snapshot(),
        *(
            player(server.base, game, deadline, think, random.Random(i), tally, i)
            for i in range(players)
        ),
    )
    after = group_cpu_by_role(server.pgid)
    used = Cpu({k: after[k] - cpu[0][k] for k in ROLES}, time.process_time() - cpu[1])
    if attack is not None:
        got: tuple[CostlyTally, float] = await asyncio.to_thread(receive.recv)
        attack.join()
        if costly_tally is not None:
            costly_tally.answers.update(got[0].answers)
            costly_tally.latencies.extend(got[0].latencies)
        used.costly = got[1]
    return tally, used


def _costly_process(
    base: str, n: int, measure_from: float, deadline: float, send: Connection
) -> None:
    """The costly clients (a process of their own): sends back their tally and the CPU
    seconds this process spent after ``measure_from``."""
    tally = CostlyTally()

    async def run() -> float:
        marks: list[float] = []

        async def mark() -> None:
            await asyncio.sleep(max(0.0, measure_from - time.monotonic()))
            marks.append(time.process_time())

        kind = hidden_client if os.environ.get("PASYANS_LOAD_COSTLY") == "hidden" else costly_client
        clients = (kind(base, deadline, random.Random(1000 + i), tally, i) for i in range(n))
        await asyncio.gather(mark(), *clients)
        return time.process_time() - marks[0]

    used = asyncio.run(run())
    send.send((tally, used))
    send.close()


@dataclass
class CostlyTally:
    answers: dict[str, int] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)

    def add(self, what: str, status: int, elapsed: float) -> None:
        key = f"{what} {status}"
        self.answers[key] = self.answers.get(key, 0) + 1
        self.latencies.append(elapsed)


async def random_move(
    client: httpx.AsyncClient, g: dict[str, Any], rnd: random.Random
) -> dict[str, Any] | None:
    """Play a random legal move of game ``g``: the game after it, None when refused."""
    move = rnd.choice(g["view"]["moves"])["text"]
    body = {"version": g["version"], "move": move}
    r = await client.post(f"/api/games/{g['id']}/moves", json=body)
    return dict(r.json()) if r.status_code == 200 else None


Post = Callable[[str, str, dict[str, Any]], Awaitable[httpx.Response]]


@contextlib.asynccontextmanager
async def costly_session(
    base: str, group: int, who: int, tally: CostlyTally, fresh_player: bool
) -> AsyncIterator[tuple[httpx.AsyncClient, Post]]:
    """A costly client's connection (one, kept alive, from an address of its own) and its
    ``post(what, path, body)``, which times each answer into ``tally``; with
    ``fresh_player`` every request goes without a cookie (a new player each time)."""
    limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
    async with httpx.AsyncClient(
        base_url=base, timeout=30, limits=limits, headers=address(group, who)
    ) as client:

        async def post(what: str, path: str, body: dict[str, Any]) -> httpx.Response:
            if fresh_player:
                client.cookies.clear()
            t0 = time.perf_counter()
            r = await client.post(path, json=body)
            tally.add(what, r.status_code, time.perf_counter() - t0)
            return r

        yield client, post


async def hidden_client(
    base: str, deadline: float, rnd: random.Random, tally: CostlyTally, who: int
) -> None:
    """``--costly-hidden``: hints and Winnable? checks on random Spider 4-suit deals (cards
    hidden: each answer searches samples of the hidden cards, up to 0.25 s), a random
    move after each, a new deal when the game ends or a limit refuses."""
    async with costly_session(base, 2, who, tally, fresh_player=False) as (client, post):
        while time.monotonic() < deadline:
            try:
                new = {"game": "spider", "options": {"suits": 4}, "solvable": False}
                r = await post("new spider", "/api/games", new)
                if r.status_code != 201:
                    await asyncio.sleep(0.05)
                    continue
                g = r.json()
                while time.monotonic() < deadline and g["view"]["moves"]:
                    r = await post("hint hidden", f"/api/games/{g['id']}/hint",
                                   {"version": g["version"]})  # fmt: skip
                    if r.status_code != 200:
                        break
                    g = r.json()
                    r = await post("winnable hidden", f"/api/games/{g['id']}/winnable",
                                   {"version": g["version"]})  # fmt: skip
                    moved = await random_move(client, g, rnd)
                    if moved is None:
                        break
                    g = moved
            except httpx.HTTPError as e:
                tally.add(type(e).__name__, 0, 0.0)


async def costly_client(
    base: str, deadline: float, rnd: random.Random, tally: CostlyTally, who: int
) -> None:
    """Only costly requests, no pause: solvable deals by number (Spider 4 suits, rarely
    in the pool), then a random Spine deal (no card hidden: every new position needs a
    search) with a winnability check and a hint after each random move. Odd clients send
    no cookie (a new player every time)."""
    async with costly_session(base, 1, who, tally, fresh_player=who % 2 == 1) as (client, post):
        while time.monotonic() < deadline:
            try:
                deal = 1 + rnd.randrange(2_000_000_000)
                new = {"game": "spider", "options": {"suits": 4}, "solvable": True, "deal": deal}
                await post("new solvable", "/api/games", new)
                r = await post("new spine", "/api/games", {"game": "spine", "solvable": False})
                if r.status_code != 201:
                    await asyncio.sleep(0.05)
                    continue
                g = r.json()
                for _ in range(5):
                    v = {"version": g["version"]}
                    await post("winnable", f"/api/games/{g['id']}/winnable", v)
                    r = await post("hint", f"/api/games/{g['id']}/hint", v)
                    if r.status_code == 200:
                        g = r.json()
                    if not g["view"]["moves"] or who % 2:
                        break
                    moved = await random_move(client, g, rnd)
                    if moved is None:
                        break
                    g = moved
            except httpx.HTTPError as e:
                tally.add(type(e).__name__, 0, 0.0)


def report(label: str, players: int, duration: float, tally: Tally, cpu: Cpu) -> str:
    lat = sorted(tally.latencies)
    p50, p95, p99 = (percentile(lat, p) * 1000 for p in (50, 95, 99))
    mean = statistics.fmean(lat) * 1000 if lat else float("nan")
    roles = " / ".join(f"{cpu.server[r] / duration:.0%}" for r in ROLES)
    client = f"{cpu.players / duration:.0%}"
    if cpu.costly:
        client += f" + {cpu.costly / duration:.0%}"
    line = (
        f"| {label} | {players} | {tally.requests / duration:.0f} | {len(lat)} | "
        f"{p50:.1f} | {p95:.1f} | {p99:.1f} | {mean:.1f} | {tally.errors} | "
        f"{cpu.server_total / duration:.0%} | {roles} | {client} |"
    )
    if tally.error_kinds:
        line += f" {tally.error_kinds}"
    return line


HEADER = (
    "| setup | players | req/s | moves | p50 ms | p95 ms | p99 ms | mean ms | errors "
    "| server CPU | web / solver / deals | client CPU (players + costly) |\n"
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
)


def measure(server: Server, args: argparse.Namespace, label: str, n: int) -> float | None:
    """One player count on ``server``: the quiet row, and with ``--costly`` the row with
    the costly clients and what they got; returns the p99 ratio (None without costly)."""
    tally, cpu = asyncio.run(run_load(server, n, args.duration, args.warmup, args.think, args.game))
    print(report(label, n, args.duration, tally, cpu), flush=True)
    if not args.costly:
        return None
    quiet = percentile(sorted(tally.latencies), 99)
    trace(args.trace, label, "quiet", tally)
    attack = CostlyTally()
    tally, cpu = asyncio.run(
        run_load(server, n, args.duration, args.warmup, args.think, args.game, args.costly, attack)
    )
    print(report(f"{label} + {args.costly} costly", n, args.duration, tally, cpu), flush=True)
    trace(args.trace, label, "costly", tally)
    loud = percentile(sorted(tally.latencies), 99)
    lat = sorted(attack.latencies)
    print(
        f"#   costly clients: {len(lat)} requests, p50 {percentile(lat, 50) * 1000:.0f} "
        f"ms, answers {dict(sorted(attack.answers.items()))}"
    )
    print(f"#   move p99 with costly clients / quiet: {loud / quiet:.2f}", flush=True)
    return float(loud / quiet)


def trace(path: str | None, label: str, phase: str, tally: Tally) -> None:
    """With ``--trace FILE``: append every counted move as a CSV row (setup, phase, its
    start in seconds from the phase's first, its latency in ms), to see whether slow
    moves come together (a stall of the whole server) or alone (a queue)."""
    if path is None or not tally.starts:
        return
    first = min(tally.starts)
    with open(path, "a", encoding="utf-8") as f:
        for start, latency in zip(tally.starts, tally.latencies, strict=True):
            f.write(f"{label},{phase},{start - first:.4f},{latency * 1000:.2f}\n")


def export(revision: str, into: Path) -> Path:
    """The ``src`` directory of ``revision``, exported with ``git archive``."""
    root = Path(__file__).resolve().parent.parent
    archive = into / "tree.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "archive", revision, "src"], cwd=root, stdout=out, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    # The compiled solver core (csrc/, built by ``uv sync``) is not in git: without it the
    # exported tree ran the pure-Python search, so a baseline's searches were not the
    # product's (its sampled hints took 3x longer in the costly runs). Use this tree's
    # build when the C sources are the same; otherwise say so.
    same = subprocess.run(["git", "diff", "--quiet", revision, "--", "csrc"], cwd=root).returncode
    built = list((root / "src").rglob("*.so"))
    if same == 0:
        for so in built:
            shutil.copy2(so, into / so.relative_to(root))
    else:
        print(f"# {revision}: csrc/ differs from this tree; its server runs the pure-Python "
              "search", flush=True)  # fmt: skip
    return into / "src"


@contextmanager
def pythonpath(path: str | None) -> Iterator[None]:
    """The server started inside runs the code of ``path`` (first on ``PYTHONPATH``)."""
    saved = os.environ.get("PYTHONPATH")
    if path is not None:
        os.environ["PYTHONPATH"] = path
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = saved


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--players", type=int, nargs="+", default=[16, 64, 256])
    ap.add_argument("--duration", type=float, default=25.0, help="seconds measured per run")
    ap.add_argument("--warmup", type=float, default=5.0, help="seconds not measured first")
    think_help = "mean pause between a player's moves, s (uniform 0.5x..1.5x); 0: none"
    ap.add_argument("--think", type=float, default=1.0, help=think_help)
    ap.add_argument("--game", default="spider")
    ap.add_argument("--workers", type=int, default=None, help="[1 on SQLite, 2 on PostgreSQL]")
    ap.add_argument("--postgres", action="store_true", help="start a throwaway PostgreSQL")
    ap.add_argument("--database-url", default=None, help="an existing database to use")
    ap.add_argument("--sqlite-synchronous", choices=["FULL", "NORMAL"], default=None)
    ap.add_argument("--costly", type=int, default=0, help="clients sending only costly requests")
    ap.add_argument(
        "--costly-hidden",
        action="store_true",
        help="the costly clients ask for hints and Winnable? on positions with hidden cards "
        "(Spider 4 suits: sampled searches) instead of the default mix",
    )
    ap.add_argument("--pool-target", type=int, default=None, help="PASYANS_POOL_TARGET")
    ap.add_argument(
        "--baseline",
        default=None,
        help="with --costly: a git revision whose server is measured too, alternating with "
        "this tree's (a fresh server each run), --rounds times; prints the medians",
    )
    ap.add_argument("--rounds", type=int, default=3, help="with --baseline [3]")
    ap.add_argument("--trace", default=None, help="append every move's start and latency (CSV)")
    ap.add_argument(
        "--env",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a setting for the server(s), e.g. PASYANS_POOL_WORKER=false (repeatable)",
    )
    args = ap.parse_args()

    if args.costly_hidden:  # read by the costly clients' process (spawned: a fresh import)
        os.environ["PASYANS_LOAD_COSTLY"] = "hidden"
    pg = args.postgres or (args.database_url or "").startswith("postgresql")
    workers = args.workers or (2 if pg else 1)
    extra = {"PASYANS_TRUST_PROXY": "true", "PASYANS_FORWARDED_ALLOW_IPS": "127.0.0.1"}
    if not args.costly:
        extra["PASYANS_RATE_NEW_GAME_PER_MINUTE"] = "0"
    if args.pool_target is not None:
        extra["PASYANS_POOL_TARGET"] = str(args.pool_target)
    if args.sqlite_synchronous:
        extra["PASYANS_SQLITE_SYNCHRONOUS"] = args.sqlite_synchronous
    for item in args.env:
        name, sep, value = item.partition("=")
        if not sep or not name.startswith("PASYANS_"):
            raise SystemExit(f"--env wants PASYANS_NAME=VALUE, not {item!r}")
        extra[name] = value
    backend = "PostgreSQL" if pg else f"SQLite {args.sqlite_synchronous or 'FULL'}"
    label = f"{backend}, {workers} worker{'s' if workers > 1 else ''}"
    heading = (
        f"# {label}; think {args.think} s; {args.duration:.0f} s measured after "
        f"{args.warmup:.0f} s warm-up; {args.game}; load average {_load()}"
    )

    if args.baseline is None:
        database = throwaway_postgres() if args.postgres else _given(args.database_url)
        with database as url, serve(url, workers, extra) as server:
            print(heading)
            print(HEADER)
            for n in args.players:
                measure(server, args, label, n)
        return

    if not args.costly or pg or args.database_url:
        raise SystemExit("--baseline compares --costly runs on SQLite")
    ratios: dict[str, list[float]] = {args.baseline: [], "this tree": []}
    with tempfile.TemporaryDirectory(prefix="pasyans-baseline-") as tmp:
        src = str(export(args.baseline, Path(tmp)))
        print(heading)
        for n in args.players:
            for r in range(args.rounds):
                for name, path in ((args.baseline, src), ("this tree", None)):
                    print(f"# round {r + 1}, {name}, load average {_load()}")
                    print(HEADER)
                    with pythonpath(path), serve(None, workers, extra) as server:
                        ratio = measure(server, args, f"{label}, {name}", n)
                    ratios[name].append(float(ratio or 0.0))
            for name, values in ratios.items():
                print(
                    f"# {n} players, {args.costly} costly, {name}: p99 ratios "
                    f"{', '.join(f'{v:.2f}' for v in values)}; median "
                    f"{statistics.median(values):.2f}"
                )
            for values in ratios.values():
                values.clear()


def _load() -> str:
    return " ".join(f"{v:.2f}" for v in os.getloadavg())


@contextmanager
def _given(url: str | None) -> Iterator[str | None]:
    yield url


if __name__ == "__main__":
    main()
