"""Daily deals in the pool: the number is a pure function of the day, the worker makes
today's and tomorrow's before any random top-up, and a daily entry is never handed out as
a random deal. On SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest
from sqlalchemy import select

from pasyans import deals
from pasyans.deals import SolvableDeal
from pasyans.engine import MAX_DEAL, initial_state
from pasyans.errors import OptionError
from pasyans.position import State
from pasyans.rules import get_game, resolve_options
from pasyans.server.pool import daily
from pasyans.server.pool import entries as pool
from pasyans.server.storage import store
from pasyans.server.storage.models import DealJob, PoolEntry
from pasyans.solvable.generate import GenerationError

KEY = ""  # backbone has no options


def _stand_in(
    game: str, options: object, deal: int, band: str, generator: int | None = None
) -> SolvableDeal:
    """The random layout of the number, as if the generator (``generator``, None: the
    current version) had made it (tests only)."""
    version = pool.generator_version() if generator is None else generator
    return SolvableDeal(initial_state(get_game(game), deal), band, 0.5, version)


def test_daily_number_is_pure_and_in_range() -> None:
    day = date(2026, 12, 3)
    n = deals.daily_number(day, "backbone", KEY, "easy")
    assert n == deals.daily_number(day, "backbone", KEY, "easy")
    numbers = {
        deals.daily_number(day + timedelta(days=i), g, KEY, d, a)
        for i in range(20)
        for g in ("backbone", "nivernais")
        for d in deals.DIFFICULTIES
        for a in range(deals.DAILY_ATTEMPTS)
    }
    assert len(numbers) == 20 * 2 * 3 * 3  # a different number for each
    assert all(1 <= x <= MAX_DEAL for x in numbers)
    with pytest.raises(OptionError):
        deals.daily_number(day, "backbone", KEY, "extreme")


def test_worker_makes_today_and_tomorrow_before_top_ups(
    make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(pool_inline=False)
    monkeypatch.setattr(pool, "make_solvable", _stand_in)
    config = pool.WorkerConfig(target=1, games=("backbone",))
    worker = pool.PoolWorker(app.state.sessionmaker, config, daily.schedule_ahead)
    for _ in range(6):  # 3 difficulties x (today, tomorrow)
        assert worker.step() is True
    today, tomorrow = daily.ahead()
    with app.state.sessionmaker() as s:
        made = s.scalars(select(PoolEntry)).all()
        assert len(made) == 6 and all(e.daily for e in made)
        want = {
            deals.daily_number(d, "backbone", KEY, band)
            for d in (today, tomorrow)
            for band in deals.DIFFICULTIES
        }
        assert {e.deal for e in made} == want
        jobs = s.scalars(select(DealJob)).all()
        assert {j.requested_by for j in jobs} == {pool.DAILY}
        # A daily entry is never a random deal: nothing to take, nothing to reuse.
        for band in deals.DIFFICULTIES:
            assert pool.take(s, "backbone", KEY, band) is None
            assert pool.reuse(s, "backbone", KEY, band) is None
            found = daily.resolve(s, today, "backbone", KEY, band)
            assert found.state == "ready" and found.entry is not None
    # Then the top-ups; scheduling again queues nothing new.
    assert worker.step() is True
    with app.state.sessionmaker() as s:
        assert daily.schedule_ahead(s, ("backbone",)) == 0
        free = s.scalars(select(PoolEntry).where(PoolEntry.daily.is_(False))).all()
        assert len(free) == 1
        assert pool.take(s, "backbone", KEY, free[0].difficulty) is not None


def test_a_number_with_no_layout_moves_on_to_the_next(
    make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(pool_inline=False)
    today = daily.today()
    first = deals.daily_number(today, "backbone", KEY, "hard")

    def picky(
        game: str, options: object, deal: int, band: str, generator: int | None = None
    ) -> SolvableDeal:
        if deal == first:
            raise GenerationError("none")
        return _stand_in(game, options, deal, band, generator)

    monkeypatch.setattr(pool, "make_solvable", picky)
    worker = pool.PoolWorker(app.state.sessionmaker, pool.WorkerConfig(target=0))
    with app.state.sessionmaker() as s:
        assert daily.queue(s, today, "backbone", KEY, "hard").state == "queued"
        s.commit()
    assert worker.step() is True  # the first number fails
    with app.state.sessionmaker() as s:
        again = daily.queue(s, today, "backbone", KEY, "hard")
        s.commit()
    second = deals.daily_number(today, "backbone", KEY, "hard", 1)
    assert again.state == "queued" and again.deal == second
    assert worker.step() is True
    with app.state.sessionmaker() as s:
        found = daily.resolve(s, today, "backbone", KEY, "hard")
        assert found.state == "ready" and found.deal == second


def test_a_random_entry_of_the_same_number_becomes_daily(make_app: Any) -> None:
    app = make_app(pool_inline=False)
    today = daily.today()
    n = deals.daily_number(today, "backbone", KEY, "easy")
    with app.state.sessionmaker() as s:
        version = deals.daily_generator(today)
        pool.add(s, "backbone", KEY, n, _stand_in("backbone", {}, n, "easy", version))
        s.commit()
        assert daily.queue(s, today, "backbone", KEY, "easy").state == "ready"
        s.commit()
        assert pool.take(s, "backbone", KEY, "easy") is None


def test_the_day_must_be_recent() -> None:
    t = daily.today()
    assert daily.check_day(t) == t
    assert daily.check_day(t - timedelta(days=29)) == t - timedelta(days=29)
    for bad in (t + timedelta(days=1), t - timedelta(days=30)):
        with pytest.raises(ValueError):
            daily.check_day(bad)
    assert store.options_key({}) == KEY


def test_a_daily_deal_keeps_the_generator_version_of_its_day(make_app: Any) -> None:
    """A generator release never changes a published daily deal: the days before version
    5's release (2026-12-04 UTC) are made by version 4, that day by version 5, the days
    from version 6's (2026-12-05) by version 6, through the worker and the real generator
    (docs/daily.md)."""
    assert deals.daily_generator(date(2026, 12, 3)) == 4
    assert deals.daily_generator(date(2026, 12, 4)) == 5
    assert deals.daily_generator(date(2026, 12, 5)) == 6 == deals.GENERATOR_VERSION
    with pytest.raises(OptionError):
        deals.daily_generator("2026-12-04")  # type: ignore[arg-type]
    app = make_app(pool_inline=False)
    key = store.options_key(resolve_options("spine", {}))
    days = {date(2026, 12, 3): 4, date(2026, 12, 4): 5}
    with app.state.sessionmaker() as s:
        for day in days:
            assert daily.queue(s, day, "spine", key, "hard").state == "queued"
        s.commit()
        assert sorted(j.generator for j in s.scalars(select(DealJob))) == [4, 5]
    worker = pool.PoolWorker(app.state.sessionmaker, pool.WorkerConfig(target=0))
    assert worker.step() is True and worker.step() is True
    with app.state.sessionmaker() as s:
        for day, version in days.items():
            found = daily.resolve(s, day, "spine", key, "hard")
            assert found.state == "ready" and found.entry is not None
            assert found.generator == found.entry.generator == version
            start = State.from_json(found.entry.start)
            assert found.deal is not None
            assert start == deals.make_solvable("spine", {}, found.deal, "hard", version).state
            other = 9 - version  # the other version makes another layout of this number
            assert start != deals.make_solvable("spine", {}, found.deal, "hard", other).state
