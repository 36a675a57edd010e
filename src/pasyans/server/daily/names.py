"""Display names on the leaderboards (docs/daily.md): checked for length and characters
(:func:`check_name`), shown unless reported (:func:`shown`); a player with no name, or a
hidden one, is shown as "Player <number>" (the page words it)."""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime

from sqlalchemy import update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from pasyans.server.storage.models import NameReport, Player

MIN_LENGTH = 2
MAX_LENGTH = 20
HIDE_AFTER = 3
"""Reports by different players after which a name is hidden from everyone (a reporter
no longer sees it at once)."""

_PUNCTUATION = frozenset(" _-.'")
_LOOKS_GENERATED = re.compile(r"(?i)^(player|игрок)\W*\d+$")


def check_name(name: str) -> str | None:
    """The name as stored (NFC, trimmed), or None when it is not allowed: 2 to 20
    characters, letters (any script) and digits with single spaces, '_', '-', '.' and
    an apostrophe between them; not a name that looks like another player's "Player 123".

    >>> check_name("  Анна К. "), check_name("Bob_99")
    ('Анна К.', 'Bob_99')
    >>> [check_name(n) for n in ("x", "a" * 21, "bad\\u200bname", "two  spaces", "Player 12")]
    [None, None, None, None, None]
    """
    text = unicodedata.normalize("NFC", name).strip()
    if not MIN_LENGTH <= len(text) <= MAX_LENGTH or "  " in text:
        return None
    for ch in text:
        kind = unicodedata.category(ch)
        if not (kind.startswith("L") or kind == "Nd" or ch in _PUNCTUATION):
            return None
    if not any(unicodedata.category(ch).startswith("L") for ch in text):
        return None
    if _LOOKS_GENERATED.match(text):
        return None
    return text


def shown(name: str | None, reports: int, reported_by_viewer: bool) -> str | None:
    """The name a viewer sees, or None ("Player <number>")."""
    if name is None or reports >= HIDE_AFTER or reported_by_viewer:
        return None
    return name


def set_name(session: Session, player: int, name: str | None) -> None:
    """Set or clear a player's name; a new name starts with no reports."""
    session.execute(update(Player).where(Player.id == player).values(name=name, name_reports=0))


def report(session: Session, reporter: int, player: int, at: datetime) -> bool:
    """Record ``reporter``'s report of ``player``'s current name; False when the player
    has no name (or is the reporter). A second report of the same name counts once."""
    target = session.get(Player, player)
    if target is None or target.name is None or player == reporter:
        return False
    insert = postgresql.insert if session.get_bind().dialect.name == "postgresql" else sqlite.insert
    done = session.connection().execute(
        insert(NameReport)
        .values(reporter_id=reporter, player_id=player, name=target.name, created_at=at)
        .on_conflict_do_nothing()
        .returning(NameReport.player_id)
    )
    if done.first() is not None:
        session.execute(
            update(Player).where(Player.id == player).values(name_reports=Player.name_reports + 1)
        )
    return True
