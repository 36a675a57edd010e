"""Linked devices: one player, several browsers (docs/devices.md).

A device is one cookie token (its SHA-256 in ``devices``). A player's device asks for a
one-time code (:func:`make_code`: 12 characters of Crockford's base-32, 60 bits, valid
:data:`CODE_SECONDS`, one live code per player, only its SHA-256 stored); another device
that enters it (:func:`redeem`) joins the player. Tries are counted by the ``link`` rate
limit (per device and per address), which is what keeps a code from being guessed: the
arithmetic is in docs/security.md.

A device that joins a player and was the last device of a player of its own brings that
player's games along (:func:`_merge`): no game is lost by linking.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session

from pasyans.server.daily import boards
from pasyans.server.errors import ApiError
from pasyans.server.stats import records as stats
from pasyans.server.storage import store
from pasyans.server.storage.models import (
    AnalysisRow,
    Device,
    GameRow,
    LinkCode,
    Player,
    PlayerStats,
)

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
"""Crockford's base 32: no I, L, O or U, so what is read aloud or copied is not misread."""
CODE_LENGTH = 12
"""32**12 = 2**60 codes (docs/security.md, "Linking devices")."""
CODE_SECONDS = 600
_LOOKALIKE = str.maketrans({"O": "0", "I": "1", "L": "1"})
_SEPARATORS = re.compile(r"[\s-]+")


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def shown(code: str) -> str:
    """The code as the page shows it, in groups of four: ``ABCD-EFGH-JKMN``."""
    return "-".join(code[i : i + 4] for i in range(0, len(code), 4))


def normalized(text: str) -> str | None:
    """The code a person typed, or None when it cannot be one: spaces and dashes
    dropped, lower case raised, O read as 0 and I or L as 1 (Crockford's rule).

    >>> normalized(" abcd-efgh jkmo ")
    'ABCDEFGHJKM0'
    >>> normalized("ABCD") is None
    True
    """
    code = _SEPARATORS.sub("", text).upper().translate(_LOOKALIKE)
    if len(code) != CODE_LENGTH or any(c not in ALPHABET for c in code):
        return None
    return code


def code_hash(code: str) -> str:
    return hashlib.sha256(f"link:{code}".encode()).hexdigest()


_BROWSERS = (("Edg/", "Edge"), ("OPR/", "Opera"), ("YaBrowser/", "Yandex"),
             ("Firefox/", "Firefox"), ("Chrome/", "Chrome"), ("Safari/", "Safari"))  # fmt: skip
_SYSTEMS = (("Android", "Android"), ("iPhone", "iPhone"), ("iPad", "iPad"),
            ("Windows", "Windows"), ("Mac OS X", "macOS"), ("CrOS", "ChromeOS"),
            ("Linux", "Linux"))  # fmt: skip


def device_label(user_agent: str | None) -> str:
    """A short name for a device, from its User-Agent: ``Chrome, Android``. Only a label
    the player reads in the list of devices (no decision rests on it), so a first match
    in two short tables is enough; empty when neither is found.

    >>> device_label("Mozilla/5.0 (Linux; Android 14) AppleWebKit Chrome/120 Mobile Safari/537")
    'Chrome, Android'
    """
    ua = user_agent or ""
    browser = next((name for mark, name in _BROWSERS if mark in ua), "")
    system = next((name for mark, name in _SYSTEMS if mark in ua), "")
    return ", ".join(p for p in (browser, system) if p)


@dataclass(frozen=True)
class Code:
    code: str
    expires_at: datetime


def make_code(session: Session, token_hash: str, label: str) -> Code:
    """A new one-time code for this device's player (made on a first visit); the
    player's earlier code, and every expired code, stop working. The caller commits."""
    player = store.ensure_player(session, token_hash, label)
    # Two devices of one player asking at once queue here (PostgreSQL), so the second
    # sees and replaces the first one's code instead of colliding with it.
    session.execute(select(Player.id).where(Player.id == player).with_for_update(key_share=True))
    t = store.now()
    session.execute(
        delete(LinkCode).where((LinkCode.player_id == player) | (LinkCode.expires_at <= t))
    )
    code = new_code()
    expires = t + timedelta(seconds=CODE_SECONDS)
    session.add(LinkCode(code_hash=code_hash(code), player_id=player, created_at=t,
                         expires_at=expires))  # fmt: skip
    session.flush()
    return Code(code, expires)


@dataclass(frozen=True)
class Linked:
    player: int
    games_moved: int
    """Games the device brought from a player of its own (0: it had none or kept them)."""


def invalid_code() -> ApiError:
    """One answer for a code never made, expired or already used: a guesser learns
    nothing from which."""
    return ApiError("link_code_invalid", status=404, text="ui.devices.error_code_invalid")


def redeem(session: Session, token_hash: str, typed: str, label: str) -> Linked:
    """Join this device to the player whose live code ``typed`` is; the code is used up.
    The caller commits (everything here is one transaction)."""
    code = normalized(typed)
    if code is None:
        raise ApiError("bad_link_code", status=422, text="ui.devices.error_code_format")
    t = store.now()
    found = session.execute(
        select(LinkCode.player_id, LinkCode.expires_at)
        .where(LinkCode.code_hash == code_hash(code))
        .with_for_update()
    ).first()
    if found is None or store.aware(found.expires_at) <= t:
        raise invalid_code()
    target: int = found.player_id
    own = store.player_id(session, token_hash)
    if own == target:
        raise ApiError("already_linked", status=409, text="ui.devices.error_same_player")
    session.execute(delete(LinkCode).where(LinkCode.code_hash == code_hash(code)))
    if own is None:
        session.add(Device(id=store.new_device_id(), token_hash=token_hash, player_id=target,
                           label=label[:64], created_at=t, last_seen_at=t))  # fmt: skip
        session.flush()
        return Linked(target, 0)
    others = session.scalar(
        select(func.count())
        .select_from(Device)
        .where(Device.player_id == own, Device.token_hash != token_hash)
    )
    session.execute(
        update(Device)
        .where(Device.token_hash == token_hash)
        .values(player_id=target, last_seen_at=t)
    )
    moved = 0 if others else _merge(session, own, target, t)
    return Linked(target, moved)


def _merge(session: Session, old: int, target: int, t: datetime) -> int:
    """Move every game of ``old`` (which has no device left) to ``target`` and delete
    ``old``. Where both have a game in progress of the same game and options, the one
    played less recently is abandoned (as a new game abandons the one before it); the
    kept figures of ``target`` are then counted again from its games."""
    playing = session.scalars(
        select(GameRow)
        .where(GameRow.player_id.in_((old, target)), GameRow.status == store.PLAYING)
        .with_for_update()
    ).all()
    by_key: dict[tuple[str, str], list[GameRow]] = {}
    for row in playing:
        by_key.setdefault((row.game, row.options_key), []).append(row)
    for rows in by_key.values():
        if len(rows) > 1:
            rows.sort(key=lambda r: store.aware(r.last_active_at))
            for row in rows[:-1]:
                row.status = "abandoned"
                row.finished_at = t
                row.updated_at = t
                row.version += 1
    session.flush()
    result = session.execute(
        update(GameRow).where(GameRow.player_id == old).values(player_id=target)
    )
    session.execute(
        update(AnalysisRow).where(AnalysisRow.player_id == old).values(player_id=target)
    )
    boards.forget_player(session, old, target)
    session.execute(delete(PlayerStats).where(PlayerStats.player_id == old))
    session.execute(delete(Player).where(Player.id == old))
    stats.rebuild(session, target)
    return int(getattr(result, "rowcount", 0) or 0)


@dataclass(frozen=True)
class DeviceInfo:
    id: str
    label: str
    created_at: datetime
    last_seen_at: datetime
    current: bool


def listing(session: Session, token_hash: str) -> list[DeviceInfo]:
    """Every device of this device's player, oldest first (empty: no player yet)."""
    player = store.player_id(session, token_hash)
    if player is None:
        return []
    rows = session.scalars(
        select(Device).where(Device.player_id == player).order_by(Device.created_at, Device.id)
    ).all()
    return [
        DeviceInfo(
            r.id,
            r.label,
            store.aware(r.created_at),
            store.aware(r.last_seen_at),
            current=r.token_hash == token_hash,
        )
        for r in rows
    ]


def unlink(session: Session, token_hash: str, device_id: str) -> None:
    """Remove one device of this device's player (this one too): its cookie names no
    player any more, so it starts afresh. The last device cannot go (that is "delete my
    data"). The caller commits."""
    player = store.player_id(session, token_hash)
    if player is None:
        raise ApiError("not_found")
    ids = set(
        session.scalars(select(Device.id).where(Device.player_id == player).with_for_update()).all()
    )
    if device_id not in ids:
        raise ApiError("not_found")
    if len(ids) == 1:
        raise ApiError("last_device", status=409, text="ui.devices.error_last_device")
    session.execute(delete(Device).where(Device.id == device_id))
