"""Starting a daily deal (``POST /api/daily/games``, docs/daily.md).

Today's deal is a ranked attempt, once per player, deal and difficulty: the game records
its day (``games.daily``). Playing it again once it is over, or playing a past day's deal,
is practice: an ordinary game of the same layout, on no leaderboard. The deal comes from
the pool, made ahead of time by the deal worker; one not made yet is queued, and the
answer is ``202 deal_preparing`` as for any requested number.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import date
from typing import Any

from sqlalchemy import select

from pasyans import deals
from pasyans.engine import Game
from pasyans.errors import OptionError, PasyansError
from pasyans.position import State
from pasyans.rules import resolve_options
from pasyans.server.errors import ApiError, from_engine
from pasyans.server.games import service
from pasyans.server.games.service import Context
from pasyans.server.pool import daily as pool_daily
from pasyans.server.pool import entries as pool
from pasyans.server.storage import store
from pasyans.server.storage.models import Device, GameRow


def check_day(day: date | None) -> date:
    """``day`` (None: today), or ``422 bad_day`` when it is not one of the last 30 days."""
    if day is None:
        return pool_daily.today()
    try:
        return pool_daily.check_day(day)
    except ValueError as e:
        raise ApiError("bad_day", text="ui.daily.error_bad_day", status=422) from e


def key_of(game_id: str, options: Mapping[str, object]) -> tuple[dict[str, str], str]:
    """The option values and their key, or an error when the game offers no solvable
    deals with them."""
    values = resolve_options(game_id, options)
    if "solvable" not in deals.kinds_for(game_id, values):
        raise OptionError(
            "Daily deals are solvable deals: not offered here.", "solvable_unavailable"
        )
    return values, store.options_key(values)


def _ranked(ctx: Context, day: date, game_id: str, key: str, band: str) -> GameRow | None:
    """The player's ranked game of this daily deal, if they started it."""
    return ctx.session.scalar(
        select(GameRow)
        .join(Device, Device.player_id == GameRow.player_id)
        .where(
            Device.token_hash == ctx.token_hash,
            GameRow.daily == day.isoformat(),
            GameRow.game == game_id,
            GameRow.options_key == key,
            GameRow.difficulty == band,
        )
        .limit(1)
    )


def start(
    ctx: Context,
    game_id: str,
    options: Mapping[str, object],
    difficulty: str,
    day: date | None,
    charge: Callable[[], None],
) -> tuple[dict[str, Any], bool]:
    """The daily game (a new one, or the ranked one still in progress) and whether it is
    ranked."""
    values, key = key_of(game_id, options)
    band = deals.check_difficulty(difficulty)
    the_day = check_day(day)
    ranked = the_day == pool_daily.today()
    mine = _ranked(ctx, the_day, game_id, key, band)
    if mine is not None:
        if mine.status == store.PLAYING:
            found = service.owned(ctx, mine.id)
            return service.read(ctx, found), True
        ranked = False  # one ranked attempt: what follows is practice
    found_deal = pool_daily.resolve(ctx.session, the_day, game_id, key, band)
    if found_deal.state == "failed" or found_deal.deal is None:
        raise ApiError("no_solvable_deal", status=422)
    number = found_deal.deal
    if found_deal.state != "ready":
        if found_deal.state == "pending":
            raise _preparing(number, band)
        ctx.end_read()
        charge()
        if not ctx.settings.pool_inline:
            with service.writing(ctx):
                ctx.session.connection(execution_options={"pasyans_write": True})
                pool_daily.queue(ctx.session, the_day, game_id, key, band)
                ctx.session.commit()
            raise _preparing(number, band)
        _make_inline(ctx, game_id, values, key, number, band, found_deal.generator)
    ctx.end_read()
    charge()

    def entry() -> Game | None:
        found = pool.lookup(ctx.session, game_id, key, band, number, found_deal.generator)
        if found is None:
            return None
        return Game(
            game_id,
            found.deal,
            values,
            start=State.from_json(found.start),
            kind="solvable",
            difficulty=found.difficulty,
            generator=found.generator,
        )

    daily = the_day.isoformat() if ranked else None
    try:
        return service.store_new(ctx, None, entry, daily=daily), ranked
    except service.Missing:  # the entry went away in between (it is made again)
        raise _preparing(number, band) from None


def _preparing(deal: int, band: str) -> ApiError:
    return ApiError(
        "deal_preparing",
        status=202,
        headers={"Retry-After": "2"},
        extra={"deal": deal, "difficulty": band},
    )


def _make_inline(
    ctx: Context,
    game_id: str,
    values: dict[str, str],
    key: str,
    number: int,
    band: str,
    generator: int,
) -> None:
    """``pool_inline`` (tests, development): make the daily deal here, by the day's
    generator version."""
    try:
        made = pool.make_older(game_id, values, number, band, generator)
    except PasyansError as e:
        raise from_engine(e) from e
    with service.writing(ctx):
        ctx.session.connection(execution_options={"pasyans_write": True})
        pool.add(ctx.session, game_id, key, number, made, daily=True)
        ctx.session.commit()
