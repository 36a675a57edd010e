"""``/api/devices`` and ``/api/me``: link another device to this player with a one-time
code, list and unlink devices, download or delete the player's data (docs/devices.md)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Annotated, Any

import segno
from fastapi import APIRouter, Path, Request, Response
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, Field, StrictBool
from sqlalchemy.orm import Session

from pasyans.server.daily import boards
from pasyans.server.deps import ContextDep
from pasyans.server.errors import ApiError
from pasyans.server.games import service
from pasyans.server.games.service import Context
from pasyans.server.limits.deps import LinkLimit
from pasyans.server.players import data, devices
from pasyans.server.schemas import ErrorOut, StrictIn

router = APIRouter(prefix="/api", tags=["devices"])

E_BODY: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorOut, "description": "The body is not JSON"},
    413: {"model": ErrorOut, "description": "The body is too large"},
    415: {"model": ErrorOut, "description": "The body is not application/json"},
    422: {"model": ErrorOut, "description": "Invalid request; nothing changes"},
}
E_LIMIT: dict[int | str, dict[str, Any]] = {
    **E_BODY,
    429: {"model": ErrorOut, "description": "Too many link codes made or tried; Retry-After"},
}


class DeviceOut(BaseModel):
    id: str = Field(description="The device's public id (what unlink names).")
    label: str = Field(description="Browser and system, from its User-Agent; may be empty.")
    created_at: datetime
    last_seen_at: datetime = Field(description="Moved on at most hourly.")
    current: bool = Field(description="The device that asks.")


class DevicesOut(BaseModel):
    devices: list[DeviceOut] = Field(description="Oldest first; empty: no player yet.")


class CodeIn(StrictIn):
    pass


class CodeOut(BaseModel):
    code: str = Field(description="12 characters, shown in groups of four: ABCD-EFGH-JKMN.")
    expires_at: datetime
    seconds: int = Field(description="How long the code is valid (600).")
    url: str = Field(description="The link page with the code in its fragment (what the QR says).")
    qr: str = Field(description="The URL as a QR code: an SVG data URI (for an <img>).")


class LinkIn(StrictIn):
    code: str = Field(max_length=40, description="The code; spaces, dashes and case do not matter.")


class LinkOut(BaseModel):
    games_moved: int = Field(
        description="Games this device brought from a player of its own into the joined one."
    )
    devices: list[DeviceOut]


class ConfirmIn(StrictIn):
    confirm: StrictBool = Field(description="Must be true.")


class ErasedOut(BaseModel):
    games: int = Field(description="Games deleted.")
    devices: int = Field(description="Devices unlinked (this one included).")


def _listing(ctx: Context) -> list[DeviceOut]:
    return [DeviceOut(**vars(d)) for d in devices.listing(ctx.session, ctx.token_hash)]


def _label(request: Request) -> str:
    return devices.device_label(request.headers.get("user-agent"))


@router.get("/devices", response_model=DevicesOut)
def list_devices(ctx: ContextDep) -> DevicesOut:
    """Every device of this player, this one marked ``current``."""
    return DevicesOut(devices=_listing(ctx))


@router.post("/devices/code", responses=E_LIMIT, response_model=CodeOut)
def make_code(_body: CodeIn, request: Request, ctx: ContextDep, _limit: LinkLimit) -> CodeOut:
    """A one-time code, valid 10 minutes, that joins another device to this player; the
    player's earlier code stops working. Body: ``{}``."""
    with service.writing(ctx):
        ctx.session.connection(execution_options={"pasyans_write": True})
        made = devices.make_code(ctx.session, ctx.token_hash, _label(request))
        ctx.session.commit()
    url = f"{str(request.base_url).rstrip('/')}/devices#code={devices.shown(made.code)}"
    qr = segno.make(url, error="m").svg_data_uri(scale=4, border=2)
    return CodeOut(code=devices.shown(made.code), expires_at=made.expires_at,
                   seconds=devices.CODE_SECONDS, url=url, qr=qr)  # fmt: skip


E_LINK: dict[int | str, dict[str, Any]] = {
    **E_LIMIT,
    404: {"model": ErrorOut, "description": "No such code: never made, expired or used"},
    409: {"model": ErrorOut, "description": "This device already belongs to that player"},
}


@router.post("/devices/link", responses=E_LINK, response_model=LinkOut)
def link(body: LinkIn, request: Request, ctx: ContextDep, _limit: LinkLimit) -> LinkOut:
    """Join this device to the player whose code this is; the code is used up. This
    device's own games, if it was the only device of a player, move along."""
    with service.writing(ctx):
        ctx.session.connection(execution_options={"pasyans_write": True})
        try:
            linked = devices.redeem(ctx.session, ctx.token_hash, body.code, _label(request))
        except ApiError:
            ctx.session.rollback()
            raise
        ctx.session.commit()
    boards.forget_tops(ctx.request)
    return LinkOut(games_moved=linked.games_moved, devices=_listing(ctx))


DeviceId = Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{1,16}$")]

E_UNLINK: dict[int | str, dict[str, Any]] = {
    **E_BODY,
    404: {"model": ErrorOut, "description": "No such device of this player"},
    409: {"model": ErrorOut, "description": "The player's last device (delete the data instead)"},
}


@router.post("/devices/{device_id}/unlink", responses=E_UNLINK, response_model=DevicesOut)
def unlink(device_id: DeviceId, _body: CodeIn, ctx: ContextDep) -> DevicesOut:
    """Remove a device from this player (this one too: it then starts afresh). Body: ``{}``."""
    with service.writing(ctx):
        ctx.session.connection(execution_options={"pasyans_write": True})
        try:
            devices.unlink(ctx.session, ctx.token_hash, device_id)
        except ApiError:
            ctx.session.rollback()
            raise
        ctx.session.commit()
    return DevicesOut(devices=_listing(ctx))


@router.get("/me/export")
def export(ctx: ContextDep) -> Response:
    """Everything stored about this player as one JSON file (a download): games with
    their moves, statistics, devices. Starting layouts are left out (they would show
    hidden cards)."""
    return StreamingResponse(
        _streamed(ctx.maker, ctx.token_hash),
        media_type="application/json",
        headers={"Content-Disposition": 'attachment; filename="pasyans-data.json"'},
    )


def _streamed(maker: Callable[[], Session], token_hash: str) -> Iterator[bytes]:
    """The export's pieces, read in a session of their own (the request's closes when the
    route returns, before the body is sent): memory bounded whatever the number of games."""
    with maker() as session:
        for piece in data.export_json(session, token_hash):
            yield piece.encode()


@router.post("/me/delete", responses=E_BODY, response_model=ErasedOut)
def erase(body: ConfirmIn, ctx: ContextDep) -> ErasedOut:
    """Delete this player: games, statistics, link code and every device. The body must be
    ``{"confirm": true}``; the cookie then starts a new, empty player."""
    if not body.confirm:
        raise ApiError("confirmation_required", text="ui.devices.error_confirm_delete")
    with service.writing(ctx):
        ctx.session.connection(execution_options={"pasyans_write": True})
        gone = data.erase(ctx.session, ctx.token_hash)
        ctx.session.commit()
    boards.forget_tops(ctx.request)
    return ErasedOut(games=gone.games, devices=gone.devices)
