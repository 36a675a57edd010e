"""A player's own data: all of it as JSON (:func:`export`), or none of it (:func:`erase`).

The export holds every game's saved record (game, options, deal, kind, difficulty, the
moves and the undone ones, counters, times), the kept statistics and the devices; it
leaves out each game's stored starting layout (``start``), which would show the cards a
game in progress still hides: a solvable deal is made again from its number, difficulty
and generator version (docs/devices.md).
"""

from __future__ import annotations

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


def export(session: Session, token_hash: str) -> dict[str, Any]:
    """Everything stored about this device's player, as JSON values."""
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
        return out
    row = session.get(Player, player)
    assert row is not None
    # ``name`` arrives with display names (issue 31, item 2); read it if the row has it.
    out["player"] = {"created_at": store.aware(row.created_at).isoformat(),
                     "name": getattr(row, "name", None)}  # fmt: skip
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
    games = session.scalars(
        select(GameRow)
        .where(GameRow.player_id == player)
        .order_by(GameRow.created_at, GameRow.id)
        .execution_options(yield_per=500)
    )
    out["games"] = [_game(g) for g in games]
    return out


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
