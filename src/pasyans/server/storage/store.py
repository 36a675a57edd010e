"""Data access: every query the server makes is here, on SQLAlchemy sessions.

Rows are read ``FOR UPDATE`` before a change (PostgreSQL locks the row; SQLite's write
transactions begin ``IMMEDIATE``), so two requests on one game are serialised and the
loser sees the new version.

Over 400 lines because every query on games and players stays in this one module (the
hottest ones built once, beside the rows they read); the players' devices, link codes and
data are in :mod:`pasyans.server.players`.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, Table, bindparam, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from pasyans.server.storage.models import Device, GameRow, Player

PLAYING = "playing"
IS_PLAYING = text("games.status = 'playing'")
"""``status = 'playing'`` written out, not bound: only then may SQLite and PostgreSQL use
the partial index ``ux_games_one_playing`` (its condition must match the query's)."""
FINISHED = ("won", "lost", "abandoned")


PRACTICE = "practice"
"""The kind of a practice game ("Try again from here", docs/analysis.md): it starts from a
position of an analysed game (its ``start``), never counts in the statistics (no
``first_move_at``), and is kept apart from the player's game in progress of the same
options (its ``options_key`` ends with :data:`PRACTICE_KEY`)."""
PRACTICE_KEY = "#practice"


def now() -> datetime:
    return datetime.now(UTC)


def aware(t: datetime) -> datetime:
    """SQLite gives timestamps back without a zone; they were written in UTC."""
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
"""What a game id may be: ``secrets.token_urlsafe(16)`` gives 22 of these characters; the
column holds up to 32."""


def new_game_id() -> str:
    return secrets.token_urlsafe(16)


def options_key(options: Mapping[str, str]) -> str:
    """The canonical form of a full option set: ``name=value&…`` sorted by name."""
    return "&".join(f"{k}={v}" for k, v in sorted(options.items()))


def player_id(session: Session, token_hash: str) -> int | None:
    """The player of the device whose cookie token hashes to ``token_hash``, or None."""
    return session.scalar(select(Device.player_id).where(Device.token_hash == token_hash))


SEEN_EVERY = timedelta(hours=1)
"""A device's ``last_seen_at`` is moved on at most this often (a write on a new game)."""


def new_device_id() -> str:
    return secrets.token_urlsafe(9)


def ensure_player(session: Session, token_hash: str, label: str = "") -> int:
    """The player's id, creating the player and this device on their first write; a
    known device's ``last_seen_at`` moves on (at most once per :data:`SEEN_EVERY`)."""
    found = player_id(session, token_hash)
    if found is not None:
        t = now()
        session.execute(
            update(Device)
            .where(Device.token_hash == token_hash, Device.last_seen_at < t - SEEN_EVERY)
            .values(last_seen_at=t)
        )
        return found
    try:
        with session.begin_nested():
            t = now()
            player = Player(legacy_key=secrets.token_hex(32), created_at=t)
            session.add(player)
            session.flush()
            session.add(
                Device(id=new_device_id(), token_hash=token_hash, player_id=player.id,
                       label=label[:64], created_at=t, last_seen_at=t)
            )  # fmt: skip
            session.flush()
            return player.id
    except IntegrityError:  # created at the same moment by a parallel request
        found = player_id(session, token_hash)
        assert found is not None
        return found


@dataclass(slots=True, eq=False)
class GameData:
    """A game row as plain values: what the request path reads and writes with SQLAlchemy
    Core (one SELECT, one UPDATE), without the ORM's identity map and unit of work.

    ``start``, ``moves`` and ``redo`` are read only when ``lines`` is True: a request that
    finds the game's Game in the cache never needs them (:func:`load_lines` reads them
    when it does)."""

    id: str
    player_id: int
    game: str
    options: dict[str, Any]
    options_key: str
    deal: int
    kind: str
    rules_version: int
    difficulty: str | None
    generator: int | None
    version: int
    status: str
    undos: int
    hints: int
    restarts: int
    moves_total: int
    score: int
    foundation_cards: int
    time_ms: int
    created_at: datetime
    updated_at: datetime
    last_active_at: datetime
    first_move_at: datetime | None
    finished_at: datetime | None
    daily: str | None = None
    start: dict[str, Any] | None = None
    moves: list[str] = field(default_factory=list)
    redo: list[str] = field(default_factory=list)
    lines: bool = False


AnyRow = GameRow | GameData
"""A game as the ORM row (tests, inserts, listings) or as :class:`GameData`."""

_GAMES: Table = GameRow.__table__  # type: ignore[assignment]
_DEVICES: Table = Device.__table__  # type: ignore[assignment]
_LINES = ("start", "moves", "redo")
_SCALARS = [c for c in _GAMES.c if c.name not in _LINES]
_HOT = [c for c in _SCALARS if c.name != "options"]
"""What a change reads: the options come with the cached Game (or its rebuild)."""
_WRITTEN = (
    "moves", "redo", "undos", "hints", "restarts", "moves_total", "score", "foundation_cards",
    "time_ms", "last_active_at", "first_move_at", "status", "finished_at", "version",
    "updated_at",
)  # fmt: skip
"""The columns a change of a game may write (:func:`write_game`)."""


def _find(columns: Sequence[Any]) -> Any:
    return (
        select(*columns)
        .select_from(_GAMES.join(_DEVICES, _DEVICES.c.player_id == _GAMES.c.player_id))
        .where(
            _GAMES.c.id == bindparam("game_id"), _DEVICES.c.token_hash == bindparam("token_hash")
        )
    )


_FIND = {
    (lines, for_update): (stmt.with_for_update(of=_GAMES) if for_update else stmt)
    for lines in (False, True)
    for for_update in (False, True)
    for stmt in [_find(list(_GAMES.c) if lines else _HOT)]
}
"""Built once: the hottest query of the server (every move) skips building the statement
and its cache key."""
_LOAD_LINES = select(*(_GAMES.c[n] for n in (*_LINES, "options"))).where(
    _GAMES.c.id == bindparam("game_id")
)
_WRITE = update(_GAMES).where(_GAMES.c.id == bindparam("game_id"))
_APPEND = {
    # The stored text is a JSON array written by the JSON type (json.dumps): its closing
    # bracket gives way to the new moves (the same text json.dumps makes of the whole).
    "sqlite": _WRITE.values(
        moves=text(
            "CASE WHEN json_array_length(games.moves) = 0 THEN :tail ELSE"
            " substr(rtrim(games.moves), 1, length(rtrim(games.moves)) - 1)"
            " || ', ' || substr(:tail, 2) END"
        )
    ),
    "postgresql": _WRITE.values(
        moves=text("CAST(CAST(games.moves AS JSONB) || CAST(:tail AS JSONB) AS JSON)")
    ),
}
"""Per database, the UPDATE that appends the moves of ``:tail`` (a JSON array)."""


def find_game(
    conn: Connection,
    token_hash: str,
    game_id: str,
    *,
    for_update: bool = False,
    lines: bool = True,
) -> GameData | None:
    """The game ``game_id`` if it belongs to this player; None otherwise (missing or not
    theirs: the caller answers both the same way). An id with a character outside the
    alphabet of game ids (URL-safe base64) is no game, and never reaches the database
    (PostgreSQL refuses a NUL byte in text with an error). ``lines``: read the start and
    the move lists too (else :func:`load_lines` reads them when needed)."""
    if not GAME_ID.fullmatch(game_id):
        return None
    found = conn.execute(_FIND[lines, for_update], {"game_id": game_id, "token_hash": token_hash})
    row = found.first()
    if row is None:
        return None
    return GameData(**{"options": {}, **row._mapping}, lines=lines)


def load_lines(conn: Connection, row: GameData) -> None:
    """Read the row's start and move lists (once)."""
    if row.lines:
        return
    found = conn.execute(_LOAD_LINES, {"game_id": row.id}).one()
    row.start, row.moves, row.redo = found.start, list(found.moves), list(found.redo)
    row.options = found.options
    row.lines = True


def data_of(row: GameRow) -> GameData:
    """The ORM row's values as :class:`GameData` (lists copied)."""
    values = {c.name: getattr(row, c.name) for c in _SCALARS}
    return GameData(
        **values, start=row.start, moves=list(row.moves), redo=list(row.redo), lines=True
    )


def write_game(conn: Connection, row: GameData, added: list[str] | None) -> None:
    """One UPDATE of every column a change may touch. ``added``: the moves the line gained
    at its end (appended to the stored list, which is not rewritten); None: the line was
    cut or changed, ``row.moves`` is written whole."""
    values = {"game_id": row.id, **{n: getattr(row, n) for n in _WRITTEN}}
    if added is None:
        conn.execute(_WRITE, values)
        return
    del values["moves"]
    if not added:
        conn.execute(_WRITE, values)
    elif conn.dialect.name in _APPEND:
        conn.execute(_APPEND[conn.dialect.name], {**values, "tail": json.dumps(added)})
    else:
        conn.execute(_WRITE, {**values, "moves": row.moves})


def current_game(session: Session, token_hash: str, game: str, key: str) -> GameData | None:
    """The player's unfinished game of this game id and option set (one at most)."""
    found = (
        session.connection()
        .execute(_CURRENT, {"token_hash": token_hash, "game": game, "options_key": key})
        .first()
    )
    return None if found is None else GameData(**found._mapping, lines=True)


_CURRENT = (
    select(*_GAMES.c)
    .select_from(_GAMES.join(_DEVICES, _DEVICES.c.player_id == _GAMES.c.player_id))
    .where(
        _DEVICES.c.token_hash == bindparam("token_hash"),
        _GAMES.c.game == bindparam("game"),
        _GAMES.c.options_key == bindparam("options_key"),
        IS_PLAYING,
    )
    .order_by(_GAMES.c.created_at.desc())
    .limit(1)
)


def add_game(
    session: Session,
    player: int,
    *,
    game: str,
    options: dict[str, str],
    deal: int,
    kind: str,
    rules_version: int,
    summary: Mapping[str, int],
    start: dict[str, Any] | None = None,
    difficulty: str | None = None,
    generator: int | None = None,
    daily: str | None = None,
) -> GameRow:
    """Insert a new game; the player's unfinished game of the same game id and options
    becomes ``abandoned`` (the new one is now current).

    The database holds one game in progress per player, game and option set (the unique
    index ``ux_games_one_playing``). Racing requests of one player queue on the player's
    row; should an insert still be refused (a writer that does not queue there), it is
    tried again in a savepoint, which then sees the other game and abandons it. Either
    way the newest request's game is current and no game is left unfinished behind it.
    Long because of its keyword arguments (the row's columns) and the savepoint's retry."""
    key = options_key(options) + (PRACTICE_KEY if kind == PRACTICE else "")
    # New games of one player queue here (PostgreSQL; SQLite writers are serial anyway),
    # so the next one sees the game this one makes.
    session.execute(
        select(Player.id)
        .where(Player.id == player)
        .with_for_update(key_share=True)  # FOR NO KEY UPDATE
    )
    for attempt in range(ADD_GAME_ATTEMPTS):
        try:
            with session.begin_nested():
                t = now()
                current = session.scalars(
                    select(GameRow)
                    .where(
                        GameRow.player_id == player,
                        GameRow.game == game,
                        GameRow.options_key == key,
                        GameRow.status == PLAYING,
                    )
                    .with_for_update()
                ).all()
                for old in current:  # one at most (the unique index)
                    old.status = "abandoned"
                    old.finished_at = t
                    old.updated_at = t
                    old.version += 1
                session.flush()
                row = _new_row(player, game, options, key, deal, kind, rules_version, summary,
                               start, t)  # fmt: skip
                row.difficulty = difficulty
                row.generator = generator
                row.daily = daily
                session.add(row)
                session.flush()
                return row
        except IntegrityError:
            if attempt == ADD_GAME_ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")


ADD_GAME_ATTEMPTS = 5


def _new_row(
    player: int,
    game: str,
    options: dict[str, str],
    key: str,
    deal: int,
    kind: str,
    rules_version: int,
    summary: Mapping[str, int],
    start: dict[str, Any] | None,
    t: datetime,
) -> GameRow:
    return GameRow(
        id=new_game_id(),
        player_id=player,
        game=game,
        options=dict(options),
        options_key=key,
        deal=deal,
        kind=kind,
        rules_version=rules_version,
        start=start,
        moves=[],
        redo=[],
        version=1,
        status=PLAYING,
        undos=0,
        hints=0,
        restarts=0,
        moves_total=0,
        score=summary.get("score", 0),
        foundation_cards=summary.get("foundation_cards", 0),
        time_ms=0,
        created_at=t,
        updated_at=t,
        last_active_at=t,
        first_move_at=None,
        finished_at=None,
    )


def count_activity(row: AnyRow, at: datetime, gap_seconds: float) -> None:
    """Add the time since the last sign of activity when it is short enough to mean the
    player was at the table; a longer gap adds nothing."""
    if row.status != PLAYING:
        return
    gap = (at - aware(row.last_active_at)).total_seconds()
    if 0 <= gap <= gap_seconds:
        row.time_ms += int(gap * 1000)
    row.last_active_at = at


def list_games(session: Session, token_hash: str, *, limit: int, offset: int) -> Sequence[GameRow]:
    stmt = (
        select(GameRow)
        .join(Device, Device.player_id == GameRow.player_id)
        .where(Device.token_hash == token_hash)
        .order_by(GameRow.created_at.desc(), GameRow.id)
        .limit(limit)
        .offset(offset)
    )
    return session.scalars(stmt).all()


def saved_record(row: AnyRow) -> dict[str, Any]:
    """The saved-game record of the row, redo moves included (for ``deals.load_game``); a
    practice game is a random deal's record with its stored start."""
    return {
        "game": row.game,
        "options": dict(row.options),
        "deal": row.deal,
        "kind": "random" if row.kind == PRACTICE else row.kind,
        "rules_version": row.rules_version,
        "moves": list(row.moves) + list(row.redo),
        "start": row.start,
        "difficulty": row.difficulty,
        "generator": row.generator,
    }
