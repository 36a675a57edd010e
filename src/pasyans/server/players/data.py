"""A player's own data: all of it as JSON (:func:`export`), or none of it (:func:`erase`).

The export holds every game's saved record (game, options, deal, kind, difficulty, the
moves and the undone ones, counters, times), the kept statistics and the devices; it
leaves out each game's stored starting layout (``start``), which would show the cards a
game in progress still hides: a solvable deal is made again from its number, difficulty
and generator version (docs/devices.md).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from pasyans import __version__
from pasyans.server.daily import boards
from pasyans.server.players import devices
from pasyans.server.stats import records as stats
from pasyans.server.storage import store
from pasyans.server.storage.models import (
    Device,
    GameAction,
    GameRow,
    LinkCode,
    Player,
    PlayerStats,
)

FORMAT = "pasyans-export"
FORMAT_VERSION = 1

_GAME_FIELDS = (
    "id", "game", "options", "deal", "kind", "difficulty", "generator", "rules_version",
    "status", "version", "moves", "redo", "undos", "hints", "restarts", "moves_total",
    "score", "foundation_cards", "time_ms",
)  # fmt: skip
_TIMES = ("created_at", "updated_at", "first_move_at", "finished_at")


def _game(row: GameRow) -> dict[str, Any]:
    out: dict[str, Any] = {f: getattr(row, f) for f in _GAME_FIELDS}
    for f in _TIMES:
        t = getattr(row, f)
        out[f] = None if t is None else store.aware(t).isoformat()
    return out


def _head(session: Session, token_hash: str) -> tuple[dict[str, Any], int | None]:
    """The export without its games (``games`` empty), and the player (None: none yet)."""
    player = store.player_id(session, token_hash)
    out: dict[str, Any] = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "site_version": __version__,
        "exported_at": store.now().isoformat(),
        "player": None,
        "devices": [],
        "statistics": stats.kept_statistics(session, None),
        "games": [],
    }
    if player is None:
        return out, None
    row = session.get(Player, player)
    assert row is not None
    out["player"] = {"created_at": store.aware(row.created_at).isoformat(), "name": row.name}
    out["devices"] = [
        {
            "id": d.id,
            "label": d.label,
            "created_at": d.created_at.isoformat(),
            "last_seen_at": d.last_seen_at.isoformat(),
            "current": d.current,
        }
        for d in devices.listing(session, token_hash)
    ]
    out["statistics"] = stats.kept_statistics(session, player)
    return out, player


GAMES_PER_READ = 200
"""Games read (and held) at a time while the export streams."""


def _games(session: Session, player: int | None) -> Iterator[dict[str, Any]]:
    """The player's games, oldest first, read :data:`GAMES_PER_READ` at a time (a
    server-side cursor on PostgreSQL), each dropped from the session once written."""
    if player is None:
        return
    rows = session.scalars(
        select(GameRow)
        .where(GameRow.player_id == player)
        .order_by(GameRow.created_at, GameRow.id)
        .execution_options(yield_per=GAMES_PER_READ)
    )
    for g in rows:
        yield _game(g)
        session.expunge(g)


def export(session: Session, token_hash: str) -> dict[str, Any]:
    """Everything stored about this device's player, as one JSON value (built in memory:
    :func:`export_json` streams the same text)."""
    out, player = _head(session, token_hash)
    out["games"] = list(_games(session, player))
    return out


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


CHUNK = 64 * 1024
"""Characters gathered before a piece of the streamed export is handed on."""


def export_json(session: Session, token_hash: str) -> Iterator[str]:
    """:func:`export` as JSON text, in pieces of about :data:`CHUNK` characters: the same
    text as ``json.dumps(export(...), ensure_ascii=False)``, while at most
    :data:`GAMES_PER_READ` games and one piece are held at a time."""
    head, player = _head(session, token_hash)
    del head["games"]
    text = _dumps(head)
    parts = [text[:-1], ', "games": [']  # the head's "}" closes the games' list instead
    size = sum(map(len, parts))
    first = True
    for game in _games(session, player):
        piece = ("" if first else ", ") + _dumps(game)
        first = False
        parts.append(piece)
        size += len(piece)
        if size >= CHUNK:
            yield "".join(parts)
            parts, size = [], 0
    parts.append("]}")
    yield "".join(parts)


@dataclass(frozen=True)
class Erased:
    games: int
    devices: int


def erase(session: Session, token_hash: str) -> Erased:
    """Delete this device's player: games (and their kept answers), statistics, link
    code, every device and the player row. The cookie then names no player: the next
    game starts a new one. The caller commits."""
    player = store.player_id(session, token_hash)
    if player is None:
        return Erased(0, 0)
    boards.forget_player(session, player)
    ids = select(GameRow.id).where(GameRow.player_id == player).scalar_subquery()
    session.execute(delete(GameAction).where(GameAction.game_id.in_(ids)))
    games = session.execute(delete(GameRow).where(GameRow.player_id == player))
    session.execute(delete(PlayerStats).where(PlayerStats.player_id == player))
    session.execute(delete(LinkCode).where(LinkCode.player_id == player))
    gone = session.execute(delete(Device).where(Device.player_id == player))
    session.execute(delete(Player).where(Player.id == player))
    return Erased(int(getattr(games, "rowcount", 0) or 0), int(getattr(gone, "rowcount", 0) or 0))
