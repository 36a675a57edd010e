"""``GET /api/messages?lang=ru|en|all``: the message catalogue (:mod:`pasyans.messages`) of
one language, or of every language, for the browser's ``t()``.

The answer is ``{"lang", "version", "messages": {code: text}}``; with ``lang=all`` (what
the page asks for, in one request) ``messages`` is ``{lang: {code: text}}``. With ``v`` equal to the
catalogue's ``version`` (the page names it in ``<meta name="pasyans-messages">``) the URL
is content-addressed and cached for a year; without it (or with an old one) the answer is
revalidated on each use (an ETag of the version).
"""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Request
from fastapi.responses import Response

from pasyans import messages
from pasyans.server.assets import IMMUTABLE

router = APIRouter(prefix="/api", tags=["catalog"])


def body(lang: str) -> bytes:
    if lang == "all":
        inner = b",".join(
            f'"{one}":'.encode() + messages.browser_json(one) for one in messages.LANGS
        )
        head = f'{{"lang":"all","version":"{messages.digest()}","messages":{{'
        return head.encode() + inner + b"}}"
    head = f'{{"lang":"{messages.language(lang)}","version":"{messages.digest()}","messages":'
    return head.encode() + messages.browser_json(lang) + b"}"


@router.get(
    "/messages",
    responses={200: {"content": {"application/json": {}}, "description": "The catalogue."}},
)
def get_messages(
    request: Request, lang: Literal["en", "ru", "all"] = "en", v: str | None = None
) -> Response:
    """Every message of the catalogue in ``lang`` (``all``: every language, keyed by
    language): ``{"lang", "version", "messages"}``."""
    version = messages.digest()
    etag = f'"{version}-{lang}"'
    cache = IMMUTABLE if v == version else "no-cache"
    headers = {"Cache-Control": cache, "ETag": etag, "Vary": "Accept-Encoding"}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(body(lang), media_type="application/json", headers=headers)
