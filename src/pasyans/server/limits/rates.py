"""Rate limits on the costly requests, per player **and** per client address, with their
counters in the database so that every worker on every machine enforces the same limit.

Each limit is a GCRA bucket (the "generic cell rate algorithm", a token bucket kept as one
number: the time at which the bucket will be full again), one row of ``rate_limits`` per
limit and player or address. A check reads the rows ``FOR UPDATE``, decides, and writes
them back only when every bucket allows the request: a refused request costs nothing.

Why not a library: ``limits`` (behind slowapi) keeps its counters in memory, Redis,
Memcached or MongoDB, none of which this site runs; the database is the store the workers
already share, and GCRA on it is a few lines.

What is limited (docs/server.md lists the settings):

- ``new_game``: every new game, per player and per address (``rate_address_factor`` times
  the player's allowance: a household or an office behind one address);
- ``new_player``: a new game from a request that brought no cookie, per address (a
  script's flood of fresh players; a browser has its cookie from ``GET /api/current``
  before its first new game, and is counted under ``new_game`` like anyone:
  docs/security.md, "Newcomers");
- ``search``: a hint or winnability check that runs the solver, per player and address
  (the address's share is capped to ``rate_search_address_per_minute``: new cookies do not
  multiply the solver time one address may use). An answer already known for the
  position, or one that needs no search (hidden cards), does not count: following the
  hints to a win, one hint per move, is never refused;
- ``hint``: every hint and winnability request, a loose flood limit;
- ``history``: every undo, redo and replay, per player and address (issue 33: one client
  alternating undo and redo while replaying a 5,000-move game took a core).
- ``link``: every link code made and every code tried, per player (the device's cookie)
  and address: what bounds guessing a code (docs/devices.md, docs/security.md).

A refusal is made as cheap as it can be, since a flood of refused requests is what a costly
client sends: each process keeps the newest counter value it has read or written for each
key (:meth:`SharedLimits.precheck`), and the ASGI middleware
(:class:`pasyans.server.security.Security`) refuses a new game or a hint whose bucket is
already full by that value alone, before the body is parsed or any database session is
opened. A shared counter only grows, so a value seen earlier is at most the current one: a
refusal it gives is always right. Every allowance is still decided by the shared counters.

Which requests are costly is declared once, in :mod:`pasyans.server.limits.costly`; the
client's address is :mod:`pasyans.server.limits.address`; the routes' dependencies are
:mod:`pasyans.server.limits.deps`.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from sqlalchemy import Engine, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session, sessionmaker

from pasyans.server.errors import ApiError, storage_error
from pasyans.server.settings import Settings
from pasyans.server.storage.checkpoint import defer_checkpoints
from pasyans.server.storage.db import WRITE, make_engine, make_sessionmaker
from pasyans.server.storage.models import RateCounter


@dataclass(frozen=True)
class Limit:
    """``per_minute`` requests a minute on average, up to ``burst`` at once."""

    name: str
    per_minute: float
    burst: int

    @property
    def interval_ms(self) -> int:
        return max(1, round(60_000 / self.per_minute))


SEEN_KEYS = 50_000
"""Counter values one process remembers for :meth:`SharedLimits.precheck` (a few MB)."""


def _gcra(tat: int, now: int, limit: Limit) -> tuple[int, int]:
    """The bucket's new theoretical arrival time and the wait in ms (0: allowed)."""
    new = max(tat, now) + limit.interval_ms
    over = new - now - limit.interval_ms * limit.burst
    return new, max(0, over)


class SharedLimits:
    """The limits of one app, counted in the database (see the module doc)."""

    def __init__(
        self,
        settings: Settings,
        maker: sessionmaker[Session],
        write_lock: threading.Lock | None,
    ) -> None:
        self.settings = settings
        self.maker = maker
        self.write_lock = write_lock
        bind = maker.kw.get("bind")
        if isinstance(bind, Engine) and bind.dialect.name == "sqlite":
            # Counters need no durability: on SQLite they commit without an fsync of their
            # own (synchronous=NORMAL in WAL mode), so a limited request costs no disk flush.
            engine = make_engine(bind.url.render_as_string(hide_password=False), pool_size=2,
                                 synchronous="NORMAL")  # fmt: skip
            defer_checkpoints(engine)  # the app's checkpoint thread does them
            self.maker = make_sessionmaker(engine)
        self.clock: Callable[[], float] = time.time
        """Seconds since the epoch (tests move it on)."""
        self.seen: dict[str, int] = {}
        """The newest counter value this process has read or written, by key (at most
        :data:`SEEN_KEYS`, the oldest dropped first)."""
        self._seen_lock = threading.Lock()
        f = settings.rate_address_factor
        s = settings
        self.player: dict[str, Limit] = {}
        self.address: dict[str, Limit] = {}
        for name, per_minute, burst in (
            ("new_game", s.rate_new_game_per_minute, s.rate_new_game_burst),
            ("search", s.rate_search_per_minute, s.rate_search_burst),
            ("hint", s.rate_hint_any_per_minute, s.rate_hint_any_burst),
            ("history", s.rate_history_per_minute, s.rate_history_burst),
            ("link", s.rate_link_per_minute, s.rate_link_burst),
        ):
            if per_minute > 0:
                self.player[name] = Limit(name, per_minute, burst)
                self.address[name] = Limit(name, per_minute * f, math.ceil(burst * f))
        search = self.address.get("search")
        if search is not None and s.rate_search_address_per_minute > 0:
            self.address["search"] = Limit(
                "search",
                min(search.per_minute, s.rate_search_address_per_minute),
                min(search.burst, s.rate_search_address_burst),
            )
        if s.rate_new_player_per_hour > 0:
            self.address["new_player"] = Limit(
                "new_player", s.rate_new_player_per_hour / 60, s.rate_new_player_burst
            )

    def charges(
        self, name: str, player: str | None, address: str | None
    ) -> list[tuple[str, Limit]]:
        out: list[tuple[str, Limit]] = []
        if player is not None and name in self.player:
            out.append((f"{name}:p:{player[:40]}", self.player[name]))
        if address is not None and name in self.address:
            out.append((f"{name}:a:{address[:64]}", self.address[name]))
        return out

    def _saw(self, values: dict[str, int]) -> None:
        with self._seen_lock:
            for key, tat in values.items():
                if tat > self.seen.get(key, 0):
                    self.seen.pop(key, None)  # newest last: the oldest go first
                    self.seen[key] = tat
            while len(self.seen) > SEEN_KEYS:
                self.seen.pop(next(iter(self.seen)))

    def precheck(self, names: Iterable[str], player: str | None, address: str | None) -> float:
        """Seconds to wait when a named bucket is already full by what this process has
        seen of it (a refusal that needs no database); 0.0 means: ask :meth:`check`."""
        charges = [c for name in names for c in self.charges(name, player, address)]
        if not charges or not self.seen:
            return 0.0
        now = round(self.clock() * 1000)
        wait = max(_gcra(self.seen.get(key, 0), now, limit)[1] for key, limit in charges)
        return wait / 1000

    def hit(self, charges: Sequence[tuple[str, Limit]], now_ms: int | None = None) -> float:
        """Count one request against every bucket when all allow it: 0.0; else the
        seconds until they would, and nothing is counted."""
        if not charges:
            return 0.0
        now = round(self.clock() * 1000) if now_ms is None else now_ms
        keys = sorted({k for k, _ in charges})
        # A refusal needs no write: the counters are read first without any lock, and a
        # bucket already full refuses at once. A counter only grows, so what is read is at
        # most the current value: a refusal read here is a refusal, while an allowance is
        # decided again below under the lock. A flood of refused requests (the costly
        # clients of benchmarks/load.py) then never queues with the players' writes.
        with self.maker() as session:
            seen = dict(
                session.execute(
                    select(RateCounter.key, RateCounter.tat_ms).where(RateCounter.key.in_(keys))
                ).all()
            )
        self._saw({k: int(v) for k, v in seen.items()})
        early = max(_gcra(int(seen.get(key, 0)), now, limit)[1] for key, limit in charges)
        if early:
            return early / 1000
        lock = self.write_lock if self.write_lock is not None else _NoLock()
        # Bounded like every other wait on the database (a long queue is a busy database:
        # 503), so that queued requests never wait past a proxy's timeout.
        if not lock.acquire(timeout=self.settings.db_busy_seconds):
            raise storage_error("database_busy")
        try:
            return self._count(charges, keys, now)
        finally:
            lock.release()

    def _count(self, charges: Sequence[tuple[str, Limit]], keys: list[str], now: int) -> float:
        """:meth:`hit`'s decision under the write lock."""
        with self.maker() as session:
            session.connection(execution_options=WRITE)
            insert = (
                postgresql.insert
                if session.get_bind().dialect.name == "postgresql"
                else sqlite.insert
            )
            session.execute(
                insert(RateCounter)
                .values([{"key": k, "tat_ms": 0} for k in keys])
                .on_conflict_do_nothing()
            )
            rows = dict(
                session.execute(
                    select(RateCounter.key, RateCounter.tat_ms)
                    .where(RateCounter.key.in_(keys))
                    .order_by(RateCounter.key)
                    .with_for_update()
                ).all()
            )
            wait = 0
            new: dict[str, int] = {}
            for key, limit in charges:
                tat, w = _gcra(int(rows.get(key, 0)), now, limit)
                new[key] = tat
                wait = max(wait, w)
            if wait:
                session.rollback()
                self._saw({k: int(v) for k, v in rows.items()})
                return wait / 1000
            for key, tat in new.items():
                session.execute(
                    update(RateCounter).where(RateCounter.key == key).values(tat_ms=tat)
                )
            session.commit()
            self._saw(new)
            return 0.0

    def check(self, names: Iterable[str], player: str | None, address: str | None) -> None:
        """Raise 429 ``rate_limited`` (with ``Retry-After``) unless every named limit
        allows one more request from this player and address."""
        charges = [c for name in names for c in self.charges(name, player, address)]
        wait = self.hit(charges)
        if wait > 0:
            raise ApiError("rate_limited", headers={"Retry-After": str(max(1, math.ceil(wait)))})


class _NoLock:
    def acquire(self, timeout: float = -1) -> bool:
        return True

    def release(self) -> None:
        return None
