"""Daily deals in the pool (docs/daily.md): every UTC day, every game and option set has a
daily deal at each difficulty, whose number is :func:`pasyans.deals.daily_number` of the
day. The deal worker queues today's and tomorrow's through the requested-number path
(:func:`pasyans.server.pool.entries.request`, ``requested_by="daily"``) before any random
top-up, so a day's deals are ready before the day starts; their entries are marked
``daily`` and never handed out as random deals.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from pasyans import deals
from pasyans.server.pool import entries
from pasyans.server.storage import store
from pasyans.server.storage.models import DealJob, PoolEntry

DAYS_BACK = 30
"""The days a player may still play (today and the 29 before it; past days for practice)."""


def today() -> date:
    """The current UTC day."""
    return store.now().date()


def ahead() -> tuple[date, date]:
    """The days the worker keeps ready: today and tomorrow (UTC)."""
    t = today()
    return t, t + timedelta(days=1)


def check_day(day: date) -> date:
    """``day`` if it is today or one of the :data:`DAYS_BACK` days before it (UTC)."""
    t = today()
    if not t - timedelta(days=DAYS_BACK - 1) <= day <= t:
        raise ValueError(f"a daily deal's day is one of the last {DAYS_BACK} days (UTC)")
    return day


@dataclass(frozen=True)
class Resolved:
    """Where a daily deal stands: its number (None when every attempt failed), its pool
    entry once made, and ``state``: ``ready``, ``pending`` (its job is queued or running),
    ``missing`` (nothing queued yet) or ``failed``; ``generator``: the version that makes
    the day's deals (:func:`pasyans.deals.daily_generator`)."""

    deal: int | None
    entry: PoolEntry | None
    state: str
    generator: int


def resolve(session: Session, day: date, game: str, options_key: str, difficulty: str) -> Resolved:
    """The daily deal of a day and key: the first of :func:`pasyans.deals.daily_number`'s
    attempts whose job did not fail (a layout the generator could not make moves on to
    the next number, the same for everyone). Made by the day's generator version
    (:func:`pasyans.deals.daily_generator`): a release never changes a published deal."""
    version = deals.daily_generator(day)
    for attempt in range(deals.DAILY_ATTEMPTS):
        number = deals.daily_number(day, game, options_key, difficulty, attempt)
        entry = entries.lookup(session, game, options_key, difficulty, number, version)
        if entry is not None:
            return Resolved(number, entry, "ready", version)
        job = session.scalar(
            select(DealJob).where(
                DealJob.game == game,
                DealJob.options_key == options_key,
                DealJob.difficulty == difficulty,
                DealJob.deal == number,
                DealJob.generator == version,
            )
        )
        if job is None or (job.finished_at is not None and not job.error):
            return Resolved(number, None, "missing", version)
        if job.finished_at is None:
            return Resolved(number, None, "pending", version)
    return Resolved(None, None, "failed", version)


def queue(session: Session, day: date, game: str, options_key: str, difficulty: str) -> Resolved:
    """:func:`resolve`, and the job queued when the deal is missing (state ``queued``; the
    caller commits)."""
    found = resolve(session, day, game, options_key, difficulty)
    if found.state == "missing" and found.deal is not None:
        entries.request(
            session, game, options_key, difficulty, found.deal, entries.DAILY,
            max_pending=MAX_DAILY_JOBS, max_pending_per_address=MAX_DAILY_JOBS,
            generator=found.generator,
        )  # fmt: skip
        return Resolved(found.deal, None, "queued", found.generator)
    if found.entry is not None and not found.entry.daily:
        found.entry.daily = True  # made first as a random top-up or a requested number
    return found


MAX_DAILY_JOBS = 10_000
"""The queue caps of the daily jobs (they are bounded by the keys: two days of every
game, option set and difficulty)."""


def schedule(session: Session, days: tuple[date, ...], games: tuple[str, ...] = ()) -> int:
    """Queue the daily deals of ``days`` not made or queued yet, for every game (or only
    ``games``), option set and difficulty; the number queued."""
    queued = 0
    for game, options, difficulty in entries.all_keys():
        if games and game not in games:
            continue
        key = store.options_key(options)
        for day in days:
            queued += queue(session, day, game, key, difficulty).state == "queued"
    return queued


def schedule_ahead(session: Session, games: tuple[str, ...] = ()) -> int:
    """:func:`schedule` for today and tomorrow (what ``pasyans worker`` runs once a
    minute)."""
    return schedule(session, ahead(), games)
