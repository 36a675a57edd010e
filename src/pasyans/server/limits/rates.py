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
- ``new_player``: a new game from a client that has no player yet, per address
  (the cap on new players one address may create: a fresh cookie is no fresh allowance);
- ``search``: a hint or winnability check that runs the solver, per player and address
  (the address's share is capped to ``rate_search_address_per_minute``: new cookies do not
  multiply the solver time one address may use). An answer already known for the
  position, or one that needs no search (hidden cards), does not count: following the
  hints to a win, one hint per move, is never refused;
- ``hint``: every hint and winnability request, a loose flood limit.

A refusal is made as cheap as it can be, since a flood of refused requests is what a costly
client sends: each process keeps the newest counter value it has read or written for each
key (:meth:`SharedLimits.precheck`), and the ASGI middleware
(:class:`pasyans.server.security.Security`) refuses a new game or a hint whose bucket is
already full by that value alone, before the body is parsed or any database session is
opened. A shared counter only grows, so a value seen earlier is at most the current one: a
refusal it gives is always right. Every allowance is still decided by the shared counters.

The client address is the peer's, or with ``trust_proxy`` the right-most
``X-Forwarded-For`` entry that is not itself a trusted proxy, and only when the peer is one
of ``forwarded_allow_ips``. IPv6 addresses count per /64 (one subscriber's network).
"""

from __future__ import annotations

import ipaddress
import math
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy import Engine, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session, sessionmaker

from pasyans.server.deps import PlayerDep, SessionDep
from pasyans.server.errors import ApiError
from pasyans.server.settings import Settings
from pasyans.server.storage import store
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


class RateLimiter:
    """A token bucket in memory, for one process (kept for the library's own callers and
    tests of the algorithm; the server uses :class:`SharedLimits`)."""

    def __init__(self, per_minute: float, burst: int, max_keys: int = 10_000) -> None:
        self.limit = Limit("memory", per_minute, burst)
        self.max_keys = max_keys
        self._tat: dict[str, int] = {}
        self._lock = threading.Lock()

    def check(self, key: str, now: float | None = None) -> float:
        """0 when allowed (and counted), else the seconds to wait."""
        t = round((time.monotonic() if now is None else now) * 1000)
        with self._lock:
            new, wait = _gcra(self._tat.get(key, 0), t, self.limit)
            if wait == 0:
                self._tat[key] = new
                if len(self._tat) > self.max_keys:
                    self._tat.pop(next(iter(self._tat)))
            return wait / 1000


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
            ("search", s.rate_hint_per_minute, s.rate_hint_burst),
            ("hint", s.rate_hint_any_per_minute, s.rate_hint_any_burst),
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
        with lock, self.maker() as session:
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
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


# --- the client's address -----------------------------------------------------------------------

Networks = list[ipaddress.IPv4Network | ipaddress.IPv6Network]


def _networks(spec: str) -> Networks | None:
    """``forwarded_allow_ips`` as networks; None means every peer ("*")."""
    out: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
    for part in spec.split(","):
        part = part.strip()
        if part == "*":
            return None
        if part:
            try:
                out.append(ipaddress.ip_network(part, strict=False))
            except ValueError:
                continue  # a host name or a socket path: never matches an address
    return out


def _trusted(host: str, networks: Networks | None) -> bool:
    if networks is None:
        return True
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    return any(ip in n for n in networks)


def address_key(host: str) -> str:
    """The key one client address counts under: the IPv4 address, or the IPv6 /64."""
    try:
        ip = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return host[:64] or "unknown"
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def client_address(request: Request, settings: Settings) -> str:
    """The client's address key (see the module doc: proxy headers only from trusted
    proxies). Idempotent with uvicorn's own ``--proxy-headers``, which may already have
    put the forwarded address in the peer."""
    peer = request.client.host if request.client is not None else ""
    if settings.trust_proxy:
        networks = _networks(settings.forwarded_allow_ips)
        if _trusted(peer, networks):
            chain = [
                h.strip()
                for v in request.headers.getlist("x-forwarded-for")
                for h in v.split(",")
                if h.strip()
            ]
            for host in reversed(chain):
                if not _trusted(host, networks):
                    return address_key(host)
            if chain:
                return address_key(chain[0])
    return address_key(peer)


def limits_of(request: Request) -> SharedLimits:
    found: SharedLimits | None = getattr(request.app.state, "limits", None)
    if found is None:
        found = SharedLimits(
            request.app.state.settings,
            request.app.state.sessionmaker,
            request.app.state.write_lock,
        )
        request.app.state.limits = found
    return found


# --- dependencies -------------------------------------------------------------------------------


def _new_game(request: Request, player: PlayerDep, session: SessionDep) -> None:
    limits = limits_of(request)
    address = client_address(request, limits.settings)
    names = ["new_game"]
    if "new_player" in limits.address and store.player_id(session, player) is None:
        names.append("new_player")
    if session.in_transaction():
        session.rollback()
    limits.check(names, player, address)


def _hint(request: Request, player: PlayerDep) -> None:
    limits = limits_of(request)
    limits.check(["hint"], player, client_address(request, limits.settings))


NewGameLimit = Annotated[None, Depends(_new_game)]
HintLimit = Annotated[None, Depends(_hint)]
"""The flood limit on hint and winnable requests; the search itself is counted in
:mod:`pasyans.server.games.solving`, only when one runs."""
