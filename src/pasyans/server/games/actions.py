"""Action ids: exactly once over a flaky network (``docs/interfaces.md``).

The page gives every state-changing request an id of its own making and resends it when
the answer is lost. The first answer is kept in ``game_actions`` in the action's own
transaction; a repeated id is answered with it (``Pasyans-Replayed: 1``) and applies
nothing. A refusal changes nothing and is not kept: a resent refused action is judged
afresh. The newest :data:`KEPT` answers of each game are kept.

A repeat that arrives while the first is still being applied waits on the game row's lock
(``SELECT … FOR UPDATE`` on PostgreSQL, the single writer on SQLite) and then finds the
kept answer: the lookup is made after the lock is held (:func:`pasyans.server.games.service.act`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, Table, bindparam, delete, insert, select

from pasyans.server.storage.models import GameAction

KEPT = 64
"""Answers kept per game: those of its last 64 versions."""

ACTION_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")
"""What an action id is: 8 to 64 characters of URL-safe base64's alphabet."""

REPLAYED_HEADER = "Pasyans-Replayed"


@dataclass(frozen=True)
class Answer:
    """An action's answer: its HTTP status and JSON text; ``replayed`` when it is the kept
    answer of an earlier request with the same id."""

    status: int
    body: bytes
    replayed: bool = False


_T: Table = GameAction.__table__  # type: ignore[assignment]

_FIND = select(_T.c.status, _T.c.answer).where(
    _T.c.game_id == bindparam("game_id"), _T.c.action_id == bindparam("action_id")
)
_KEEP = insert(_T)
# Each action is one version step: the answers of the game's last KEPT versions stay (all
# of them have ids when the table plays; an API client without ids keeps fewer). A range
# of the (game id, version) index, no count.
_PRUNE = delete(_T).where(
    _T.c.game_id == bindparam("game_id"), _T.c.version <= bindparam("version") - KEPT
)


def find(conn: Connection, game_id: str, action_id: str) -> Answer | None:
    """The kept answer of ``action_id`` in this game, if any."""
    row = conn.execute(_FIND, {"game_id": game_id, "action_id": action_id}).first()
    if row is None:
        return None
    return Answer(row.status, row.answer.encode(), replayed=True)


def keep(
    conn: Connection, game_id: str, action_id: str, version: int, answer: Answer, at: datetime
) -> None:
    """Keep ``answer`` under ``action_id`` and drop the game's answers older than its last
    :data:`KEPT` versions (same transaction as the action)."""
    conn.execute(
        _KEEP,
        {
            "game_id": game_id,
            "action_id": action_id,
            "version": version,
            "status": answer.status,
            "answer": answer.body.decode(),
            "created_at": at,
        },
    )
    conn.execute(_PRUNE, {"game_id": game_id, "version": version})
