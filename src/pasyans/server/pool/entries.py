"""The solvable-deal pool (docs/interfaces.md): solvable layouts made ahead of time by
``pasyans worker`` and kept in the database, so that every web worker on every machine
shares them and no request ever runs the generator.

- :func:`take` claims a free entry for a game, option set and difficulty (one winner when
  requests race);
- :func:`lookup` finds the entry of a requested deal number; on a miss the caller queues
  a job with :func:`request` and answers ``202 deal_preparing``;
- :class:`PoolWorker` (run by ``pasyans worker``) makes the requested numbers first, each
  in a child process killed after ``job_seconds``, then keeps ``target`` free entries for
  every game, option set and difficulty.

Over 400 lines because the pool's rows, the bounded generation in a child process and
the worker that fills the pool share the same keys and queries; a split into entries and
worker is the next step.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import multiprocessing
import os
import secrets
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Literal, TypeVar

from sqlalchemy import Select, delete, false, func, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session, sessionmaker

from pasyans import deals
from pasyans.deals import SolvableDeal
from pasyans.engine.core import MAX_DEAL
from pasyans.errors import PasyansError
from pasyans.position import State
from pasyans.rules import get_game
from pasyans.rules.registry import GAMES, resolve_options
from pasyans.server.storage import store
from pasyans.server.storage.models import DealJob, Health, PoolEntry, RateCounter, Verdict

log = logging.getLogger("pasyans.worker")

Difficulty = Literal["easy", "medium", "hard"]
DIFFICULTIES: tuple[Difficulty, ...] = ("easy", "medium", "hard")
DEFAULT_DIFFICULTY: Difficulty = "medium"


# --- the generator, behind the interface of docs/interfaces.md ------------------------------


def generator_version() -> int:
    """The generator's version (:data:`pasyans.deals.GENERATOR_VERSION`)."""
    return deals.GENERATOR_VERSION


def make_solvable(
    game_id: str,
    options: Mapping[str, str],
    deal: int,
    difficulty: str,
    generator: int | None = None,
) -> SolvableDeal:
    """:func:`pasyans.deals.make_solvable`, as the pool stores it; ``generator``: the
    version to make it with (None: the current one; an older one for an old link)."""
    made = deals.make_solvable(game_id, dict(options), deal, difficulty, _version(generator))
    return SolvableDeal(made.state, made.difficulty, float(made.measure), int(made.generator))


def _version(generator: int | None) -> int:
    """``generator``, or the current version for None."""
    return generator_version() if generator is None else generator


def make_older(
    game_id: str, options: Mapping[str, str], deal: int, difficulty: str, generator: int | None
) -> SolvableDeal:
    """:func:`make_solvable` by ``generator`` (None or the current version: the current
    one, called with the four arguments only, as tests stand it in)."""
    if generator is None or generator == generator_version():
        return make_solvable(game_id, options, deal, difficulty)
    return make_solvable(game_id, options, deal, difficulty, generator)


def all_keys() -> Iterator[tuple[str, dict[str, str], str]]:
    """Every (game, full option set, difficulty) that offers solvable deals."""
    for game_id in GAMES:
        spec = get_game(game_id)
        names = [o.name for o in spec.options]
        for values in itertools.product(*(o.values for o in spec.options)):
            options = resolve_options(game_id, dict(zip(names, values, strict=True)))
            if "solvable" not in deals.kinds_for(game_id, options):
                continue
            for difficulty in DIFFICULTIES:
                yield game_id, options, difficulty


# --- what requests do -------------------------------------------------------------------------


def _insert(session: Session) -> Any:
    """A dialect's INSERT (with ON CONFLICT support) for the session's database."""
    name = session.get_bind().dialect.name
    return postgresql.insert if name == "postgresql" else sqlite.insert


def take(session: Session, game: str, options_key: str, difficulty: str) -> PoolEntry | None:
    """Claim a free entry in the caller's transaction (oldest first), or None when there
    is none. Racing requests never get the same entry: the claim is a conditional UPDATE
    (PostgreSQL also skips rows another transaction is claiming)."""
    where = (
        PoolEntry.game == game,
        PoolEntry.options_key == options_key,
        PoolEntry.difficulty == difficulty,
        PoolEntry.generator == generator_version(),
        PoolEntry.taken_at.is_(None),
        PoolEntry.daily == false(),
    )
    for _ in range(5):
        found = session.scalar(
            select(PoolEntry.id)
            .where(*where)
            .order_by(PoolEntry.id)
            .limit(1)
            .with_for_update(skip_locked=True)
        )
        if found is None:
            return None
        claimed = session.execute(
            update(PoolEntry)
            .where(PoolEntry.id == found, PoolEntry.taken_at.is_(None))
            .values(taken_at=store.now())
        )
        if getattr(claimed, "rowcount", 0) == 1:
            return session.get(PoolEntry, found)
    return None


def reuse(session: Session, game: str, options_key: str, difficulty: str) -> PoolEntry | None:
    """An entry already taken, chosen at random, for when no free one is left: a deal
    number may well be played by several players (they are shared by link anyway)."""
    where = (
        PoolEntry.game == game,
        PoolEntry.options_key == options_key,
        PoolEntry.difficulty == difficulty,
        PoolEntry.generator == generator_version(),
        PoolEntry.daily == false(),
    )
    count = session.scalar(select(func.count()).select_from(PoolEntry).where(*where)) or 0
    if not count:
        return None
    return session.scalar(
        select(PoolEntry).where(*where).order_by(PoolEntry.id).offset(secrets.randbelow(count))
    )


def lookup(
    session: Session,
    game: str,
    options_key: str,
    difficulty: str,
    deal: int,
    generator: int | None = None,
) -> PoolEntry | None:
    """The entry for a requested deal number (free or taken) made by ``generator`` (None:
    the current version; a link names the version it was shared with), or None."""
    return session.scalar(
        select(PoolEntry).where(
            PoolEntry.game == game,
            PoolEntry.options_key == options_key,
            PoolEntry.difficulty == difficulty,
            PoolEntry.deal == deal,
            PoolEntry.generator == _version(generator),
        )
    )


def waiting(
    session: Session,
    game: str,
    options_key: str,
    difficulty: str,
    deal: int | None,
    generator: int | None = None,
) -> bool:
    """Whether a request for ``deal`` (None: any deal of the key) is a poll: its job is
    queued or running, so the answer will again be ``202`` until it finishes (the key
    has no entry to give while its only job for any deal is unfinished); ``generator`` as
    in :func:`lookup`."""
    where = [
        DealJob.game == game,
        DealJob.options_key == options_key,
        DealJob.difficulty == difficulty,
        DealJob.generator == _version(generator),
        DealJob.finished_at.is_(None),
    ]
    if deal is not None:
        where.append(DealJob.deal == deal)
    else:
        where.append(DealJob.requested_by.startswith(POOL_REQUEST, autoescape=True))
    return session.scalar(select(DealJob.id).where(*where).limit(1)) is not None


JobState = Literal["queued", "pending", "failed", "busy", "too_many", "hourly"]

HOUR = timedelta(hours=1)

POOL_REQUEST = "*"
"""Marks the job an empty key's first request queued (any number will do): not the
address's own choice, so neither its pending nor its hourly numbers (one such job per key
at a time, and none once the key has an entry)."""


def request(
    session: Session,
    game: str,
    options_key: str,
    difficulty: str,
    deal: int | None,
    requested_by: str,
    *,
    max_pending: int,
    max_pending_per_address: int,
    max_per_hour_per_address: int = 0,
    generator: int | None = None,
) -> tuple[JobState, str | None]:
    """Queue the job that makes ``deal`` (in the caller's write transaction; the caller
    commits). ``queued`` (new), ``pending`` (already queued or running), ``failed`` (with
    the reason: no layout for that number), ``busy`` (the queue is full), ``too_many``
    (this address already waits for ``max_pending_per_address`` numbers) or ``hourly``
    (this address had ``max_per_hour_per_address`` numbers queued in the last hour; 0: no
    such cap). The hourly cap bounds the worker's CPU one address may use, as the
    ``search`` limit bounds the solver's: the jobs themselves are the count (a sliding
    hour, shared by every web worker through the database), and a number already queued
    or made is never counted again.

    ``deal`` None (any deal will do: the pool is empty for this key): ``pending`` when a
    job for the key is already queued, else a job for a random number (not counted as the
    address's: :data:`POOL_REQUEST`). ``generator``: the version to make ``deal`` with
    (None: the current one), as in :func:`lookup`; the limits are the same for every
    version."""
    version = _version(generator)
    chosen = deal is not None
    if deal is None:
        waiting = session.scalar(
            select(DealJob.id)
            .where(
                DealJob.game == game,
                DealJob.options_key == options_key,
                DealJob.difficulty == difficulty,
                DealJob.generator == version,
                DealJob.finished_at.is_(None),
            )
            .limit(1)
        )
        if waiting is not None:
            return "pending", None
        deal = 1 + secrets.randbelow(MAX_DEAL)
    job = session.scalar(
        select(DealJob).where(
            DealJob.game == game,
            DealJob.options_key == options_key,
            DealJob.difficulty == difficulty,
            DealJob.deal == deal,
            DealJob.generator == version,
        )
    )
    if job is not None:
        if job.finished_at is None:
            return "pending", None
        if job.error:
            return "failed", job.error
        session.delete(job)  # made, then the entry went away: make it again
        session.flush()
    pending = DealJob.finished_at.is_(None)
    total = session.scalar(select(func.count()).select_from(DealJob).where(pending)) or 0
    if total >= max_pending:
        return "busy", None
    mine = (
        session.scalar(
            select(func.count())
            .select_from(DealJob)
            .where(pending, DealJob.requested_by == requested_by)
        )
        or 0
    )
    if mine >= max_pending_per_address:
        return "too_many", None
    if chosen and max_per_hour_per_address > 0:
        recent = (
            session.scalar(
                select(func.count())
                .select_from(DealJob)
                .where(
                    DealJob.requested_by == requested_by[:64],
                    DealJob.requested_at >= store.now() - HOUR,
                )
            )
            or 0
        )
        if recent >= max_per_hour_per_address:
            return "hourly", None
    stmt = (
        _insert(session)(DealJob)
        .values(
            game=game,
            options_key=options_key,
            difficulty=difficulty,
            deal=deal,
            generator=version,
            requested_by=(requested_by if chosen else POOL_REQUEST + requested_by)[:64],
            requested_at=store.now(),
        )
        .on_conflict_do_nothing()
    )
    session.execute(stmt)
    return "queued", None


DAILY = "daily"
"""``requested_by`` of the jobs that make daily deals (:mod:`pasyans.server.pool.daily`):
their entries are marked ``daily`` and never handed out as random deals."""


def add(
    session: Session,
    game: str,
    options_key: str,
    deal: int,
    made: SolvableDeal,
    *,
    daily: bool = False,
) -> None:
    """Store a made deal (a duplicate from a racing worker is ignored); ``daily``: made as
    a daily deal, never given by :func:`take` or :func:`reuse`."""
    stmt = (
        _insert(session)(PoolEntry)
        .values(
            game=game,
            options_key=options_key,
            difficulty=made.difficulty,
            deal=deal,
            generator=made.generator,
            start=made.state.to_json(),
            measure=made.measure,
            created_at=store.now(),
            daily=daily,
        )
        .on_conflict_do_nothing()
    )
    session.execute(stmt)
    if daily:  # a random top-up made the same number first: it is the daily deal now
        session.execute(
            update(PoolEntry)
            .where(
                PoolEntry.game == game,
                PoolEntry.options_key == options_key,
                PoolEntry.difficulty == made.difficulty,
                PoolEntry.deal == deal,
                PoolEntry.generator == made.generator,
            )
            .values(daily=True)
        )


def free_counts(session: Session) -> dict[tuple[str, str, str], int]:
    rows = session.execute(
        select(PoolEntry.game, PoolEntry.options_key, PoolEntry.difficulty, func.count())
        .where(
            PoolEntry.taken_at.is_(None),
            PoolEntry.generator == generator_version(),
            PoolEntry.daily == false(),
        )
        .group_by(PoolEntry.game, PoolEntry.options_key, PoolEntry.difficulty)
    ).all()
    return {(g, k, d): int(n) for g, k, d, n in rows}


# --- bounded generation -----------------------------------------------------------------------


def _exit_with(parent: int) -> None:
    """End this process as soon as ``parent`` is gone (checked every second)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _child(
    conn: Any,
    game: str,
    options: dict[str, str],
    deal: int,
    difficulty: str,
    nice: int,
    generator: int | None = None,
) -> None:
    _exit_with(_PARENT)
    if nice > 0:
        lower_priority(nice)
    try:
        made = make_older(game, options, deal, difficulty, generator)
        conn.send(("ok", made.state.to_json(), made.difficulty, made.measure, made.generator))
    except PasyansError as e:
        conn.send(("error", e.code))
    except Exception as e:  # reported to the parent, which logs it
        conn.send(("error", f"crash:{type(e).__name__}"[:40]))
    finally:
        conn.close()


_PARENT = 0


def generate_bounded(
    game: str,
    options: Mapping[str, str],
    deal: int,
    difficulty: str,
    seconds: float,
    stop: threading.Event | None = None,
    nice: int = 0,
    generator: int | None = None,
) -> SolvableDeal | str:
    """The generator in a child process killed after ``seconds`` (or when ``stop`` is
    set, or this process dies): the deal, or why not (``no_solvable_deal``, ``timeout``,
    ``stopped`` …). With ``nice`` above 0 the child runs below everything else, at that
    niceness and ``SCHED_IDLE`` (:func:`lower_priority`); this process keeps its own.
    ``generator``: an older version to make it with (None: the current one)."""
    global _PARENT
    _PARENT = os.getpid()
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    args = (child, game, dict(options), deal, difficulty, nice, generator)
    proc = ctx.Process(target=_child, args=args)
    proc.start()
    child.close()
    deadline = time.monotonic() + seconds
    try:
        while not parent.poll(min(0.5, max(0.0, deadline - time.monotonic()))):
            if time.monotonic() >= deadline:
                return "timeout"
            if stop is not None and stop.is_set():
                return "stopped"
        message = parent.recv()
    except EOFError:
        return "crash"
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join(5)
        parent.close()
    if message[0] != "ok":
        return str(message[1])
    _, start, band, measure, version = message
    return SolvableDeal(State.from_json(start), band, measure, version)


# --- the worker -------------------------------------------------------------------------------


@dataclass
class WorkerConfig:
    target: int = 10
    """Free entries kept for every game, option set and difficulty."""
    job_seconds: float = 60.0
    """The longest one generation may take (requested numbers and top-up alike)."""
    poll_seconds: float = 1.0
    """Pause when there is nothing to do."""
    games: tuple[str, ...] = ()
    """Only these games (all when empty)."""
    nice: int = 10
    """The generator children's niceness, and ``SCHED_IDLE`` (:func:`lower_priority`); 0:
    not lowered."""


R = TypeVar("R")


def write_session(maker: sessionmaker[Session]) -> Session:
    """A session whose transaction writes (the storage layer's write path)."""
    session = maker()
    session.connection(execution_options={"pasyans_write": True})
    return session


def claim_oldest(
    maker: sessionmaker[Session], pending: Select[R], key: Any, mark: Callable[[R], None]
) -> R | None:
    """The first row of ``pending`` (a select of at most one row), ``mark``ed and
    committed, or None. Whether there is one is read first, without a write transaction:
    the workers ask every second, and on SQLite each write transaction takes the one write
    lock. Two workers never claim one row (``FOR UPDATE SKIP LOCKED``)."""
    with maker() as session:
        if session.scalar(pending.with_only_columns(key)) is None:
            return None
    with write_session(maker) as session:
        row = session.scalar(pending.with_for_update(skip_locked=True))
        if row is None:
            return None
        mark(row)
        session.commit()
        return row


def _mark_started(job: DealJob) -> None:
    job.started_at = store.now()


class PoolWorker:
    """Makes requested numbers first, then tops the pool up; also prunes what expired."""

    def __init__(
        self,
        maker: sessionmaker[Session],
        config: WorkerConfig,
        daily: Callable[[Session, tuple[str, ...]], int] | None = None,
    ) -> None:
        """``daily``: queues the daily deals not made yet (``pasyans worker`` passes
        :func:`pasyans.server.pool.daily.schedule_ahead`); None: no daily deals."""
        self.maker = maker
        self.daily = daily
        self.config = config
        self.keys = [k for k in all_keys() if not config.games or k[0] in config.games]
        self._backoff: dict[tuple[str, str, str], float] = {}
        self._failures: dict[tuple[str, str, str], int] = {}
        self._pruned = 0.0
        self._scheduled = -60.0
        self.made = 0
        self.stop = threading.Event()
        self.more: list[Callable[[], bool]] = []
        """Other background jobs of this process family, each a step that answers
        whether it did something (the analyses, :mod:`pasyans.server.pool.analyses`)."""

    def _write(self) -> Session:
        return write_session(self.maker)

    def claim_job(self) -> DealJob | None:
        """The oldest pending job (or one whose worker died), marked started.

        Whether there is one is read first, without a write transaction: the worker asks
        every second, and on SQLite each write transaction takes the one write lock."""
        stale = store.now() - timedelta(seconds=2 * self.config.job_seconds + 30)
        pending = (
            select(DealJob)
            .where(
                DealJob.finished_at.is_(None),
                (DealJob.started_at.is_(None)) | (DealJob.started_at < stale),
            )
            .order_by(DealJob.requested_at, DealJob.id)
            .limit(1)
        )
        return claim_oldest(self.maker, pending, DealJob.id, _mark_started)

    def run_job(self, job: DealJob) -> None:
        options = _options_of(job.game, job.options_key)
        seconds = self.config.job_seconds
        made = generate_bounded(
            job.game,
            options,
            job.deal,
            job.difficulty,
            seconds,
            self.stop,
            self.config.nice,
            None if job.generator == generator_version() else job.generator,
        )
        if made == "stopped":
            return  # left for the next worker (it will find the job's start is stale)
        with self._write() as session:
            if isinstance(made, SolvableDeal):
                add(session, job.game, job.options_key, job.deal, made,
                    daily=job.requested_by == DAILY)  # fmt: skip
                self.made += 1
            session.execute(
                update(DealJob)
                .where(DealJob.id == job.id)
                .values(
                    finished_at=store.now(),
                    error=None if isinstance(made, SolvableDeal) else made[:40],
                )
            )
            session.commit()
        log.info("deal job %s %s #%s: %s", job.game, job.options_key, job.deal,
                 "made" if isinstance(made, SolvableDeal) else made)  # fmt: skip

    def neediest(self) -> tuple[str, dict[str, str], str] | None:
        """The key with the fewest free entries below the target (not backing off)."""
        with self.maker() as session:
            counts = free_counts(session)
        t = time.monotonic()
        best: tuple[int, tuple[str, dict[str, str], str]] | None = None
        for game, options, difficulty in self.keys:
            k = (game, store.options_key(options), difficulty)
            if self._backoff.get(k, 0.0) > t:
                continue
            n = counts.get(k, 0)
            if n < self.config.target and (best is None or n < best[0]):
                best = (n, (game, options, difficulty))
        return None if best is None else best[1]

    def top_up(self, game: str, options: dict[str, str], difficulty: str) -> None:
        k = (game, store.options_key(options), difficulty)
        deal = 1 + secrets.randbelow(MAX_DEAL)
        made = generate_bounded(
            game, options, deal, difficulty, self.config.job_seconds, self.stop, self.config.nice
        )
        if made == "stopped":
            return
        if not isinstance(made, SolvableDeal):
            fails = self._failures.get(k, 0) + 1
            self._failures[k] = fails
            if fails >= 3:  # this key rarely gives a deal in time: let the others go first
                self._backoff[k] = time.monotonic() + min(3600.0, 60.0 * 2 ** (fails - 3))
            log.info("pool %s %s %s #%s: %s", game, k[1], difficulty, deal, made)
            return
        self._failures.pop(k, None)
        with self._write() as session:
            add(session, game, k[1], deal, made)
            session.commit()
        self.made += 1

    def prune(self) -> None:
        """Once a minute: rate counters that are back to full, finished jobs older than a
        day, verdicts older than 30 days."""
        t = time.monotonic()
        if t - self._pruned < 60:
            return
        self._pruned = t
        now = store.now()
        with self._write() as session:
            session.execute(delete(RateCounter).where(RateCounter.tat_ms < int(time.time() * 1000)))
            session.execute(delete(DealJob).where(DealJob.finished_at < now - timedelta(days=1)))
            session.execute(delete(Verdict).where(Verdict.created_at < now - timedelta(days=30)))
            session.commit()

    def schedule_daily(self) -> None:
        """Once a minute: queue the daily deals of today and tomorrow (UTC) that are not
        made yet, so they come before any random top-up (:mod:`pasyans.server.pool.daily`)."""
        t = time.monotonic()
        if self.daily is None or t - self._scheduled < 60:
            return
        self._scheduled = t
        with self._write() as session:
            queued = self.daily(session, self.config.games)
            session.commit()
        if queued:
            log.info("daily deals queued: %s", queued)

    def step(self) -> bool:
        """One unit of work; False when there was nothing to do."""
        self.schedule_daily()
        job = self.claim_job()
        if job is not None:
            self.run_job(job)
            return True
        if any(more() for more in self.more):
            return True
        self.prune()
        key = self.neediest()
        if key is None:
            return False
        self.top_up(*key)
        return True

    def heartbeat(self) -> None:
        """Note in the database that this worker is refilling the pool (``/healthz``
        reports a pool whose last note is older than :func:`stalled_after`)."""
        t = store.now()
        with self.maker() as session:
            session.connection(execution_options={"pasyans_write": True})
            dialect = session.get_bind().dialect.name
            insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
            stmt = insert(Health).values(id=HEARTBEAT_ID, checked_at=t)
            session.execute(
                stmt.on_conflict_do_update(index_elements=[Health.id], set_={"checked_at": t})
            )
            session.commit()

    def run(self, stop: threading.Event) -> None:
        self.stop = stop
        beat = 0.0
        while not stop.is_set():
            try:
                if time.monotonic() - beat >= HEARTBEAT_SECONDS:
                    self.heartbeat()
                    beat = time.monotonic()
                busy = self.step()
            except Exception:  # the database went away, say: log, wait, go on
                log.exception("pool worker step failed")
                busy = False
            if not busy:
                stop.wait(self.config.poll_seconds)


HEARTBEAT_ID = 2
"""The ``health`` row the deal worker writes (``/healthz`` writes row 1)."""
HEARTBEAT_SECONDS = 10.0


def stalled_after(job_seconds: float) -> float:
    """Seconds without a heartbeat after which the pool counts as not refilled: a step
    may run one job (``job_seconds``) between two heartbeats."""
    return max(60.0, 2 * job_seconds + 3 * HEARTBEAT_SECONDS)


def pool_state(session: Session, job_seconds: float) -> str:
    """``ok`` (a deal worker is refilling the pool), ``stalled`` (one was, and has not
    for :func:`stalled_after` seconds) or ``none`` (no deal worker ever ran here)."""
    found = session.get(Health, HEARTBEAT_ID)
    if found is None:
        return "none"
    age = (store.now() - store.aware(found.checked_at)).total_seconds()
    return "stalled" if age > stalled_after(job_seconds) else "ok"


def _options_of(game: str, options_key: str) -> dict[str, str]:
    pairs = [p.split("=", 1) for p in options_key.split("&") if p]
    return resolve_options(game, {k: v for k, v in pairs})


def lower_priority(nice: int, idle: bool = True) -> None:
    """Run below the web workers: at niceness ``nice`` (absolute: calling twice lowers no
    further), and with ``idle`` under Linux's ``SCHED_IDLE`` policy, which runs only on a
    core that nothing else wants and gives way at once to any other process that wakes up
    (a web worker answering a move). The generator's children, niced, still took a share
    of a busy core (benchmarks/load.py --costly, docs/performance.md); nothing waits for
    them, so they run idle.

    Only for a process that never holds a database lock: one preempted while holding
    SQLite's write lock (as the worker's own process was, in ``SCHED_IDLE``) makes every
    web worker's write wait for it, in SQLite's busy handler."""
    if nice > 0 and hasattr(os, "setpriority"):
        with contextlib.suppress(OSError):
            current = os.getpriority(os.PRIO_PROCESS, 0)
            os.setpriority(os.PRIO_PROCESS, 0, max(current, nice))
    if idle and hasattr(os, "SCHED_IDLE"):
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
