"""API errors: one JSON shape with a stable code and messages in English and Russian.

``{"code", "message", "error": {"code", "message", "message_en", "message_ru"}}``;
``message`` follows the request's ``Accept-Language``. The texts are the catalogue's
``error.<code>`` (:mod:`pasyans.messages`); an English detail may replace the English
one. Engine errors (:class:`~pasyans.errors.PasyansError`) map to 422 with their class's
code; an illegal move also names the engine's precise ``reason`` (Russian text: the
catalogue's ``refusal.<reason>``).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy import exc as sa_exc
from starlette.exceptions import HTTPException as StarletteHTTPException

from pasyans import messages
from pasyans.errors import IllegalMoveError, PasyansError
from pasyans.rules import GAMES
from pasyans.server.storage.db import health
from pasyans.server.storage.groupsync import is_io_error

log = logging.getLogger("pasyans.server")

STATUS: dict[str, int] = {
    "malformed_json": 400,
    "not_found": 404,
    "method_not_allowed": 405,
    "stale_version": 409,
    "game_over": 409,
    "deal_retired": 410,
    "body_too_large": 413,
    "bad_request": 400,
    "unsupported_media_type": 415,
    "rate_limited": 429,
    "request_timeout": 408,
    "head_too_large": 431,
    "internal_error": 500,
    "database_busy": 503,
    "database_read_only": 503,
    "database_full": 503,
    "database_unavailable": 503,
}

RETRY_AFTER_SECONDS = 5
"""``Retry-After`` of a 503 for storage trouble."""

# PostgreSQL SQLSTATEs (https://www.postgresql.org/docs/current/errcodes-appendix.html).
_PG_CODES = {
    "55P03": "database_busy",  # lock_not_available (lock_timeout)
    "57014": "database_busy",  # query_canceled (statement_timeout)
    "40P01": "database_busy",  # deadlock_detected
    "40001": "database_busy",  # serialization_failure
    "53100": "database_full",  # disk_full
    "53200": "database_full",  # out_of_memory
    "53300": "database_unavailable",  # too_many_connections
    "25006": "database_read_only",  # read_only_sql_transaction
    "57P01": "database_unavailable",  # admin_shutdown
    "57P02": "database_unavailable",  # crash_shutdown
    "57P03": "database_unavailable",  # cannot_connect_now
    "58030": "database_unavailable",  # io_error
}


_SQLITE_CODES = (
    ("SQLITE_BUSY", "database_busy"),
    ("SQLITE_LOCKED", "database_busy"),
    ("SQLITE_READONLY", "database_read_only"),
    ("SQLITE_FULL", "database_full"),
    ("SQLITE_IOERR", "database_unavailable"),
    ("SQLITE_CANTOPEN", "database_unavailable"),
)


def storage_code(exc: BaseException) -> str | None:
    """The 503 code for a database error that means storage trouble (a lock or timeout,
    a read-only or full disk, a stopped or unreachable server), or None for any other
    error (a bug, or a constraint the caller handles). The chain of errors is searched: a
    failed savepoint release, say, hides the full disk that rolled the transaction back."""
    codes: list[str] = []
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen and len(seen) < 10:
        seen.add(id(current))
        code = _storage_code(current)
        if code is not None:
            codes.append(code)
        current = current.__cause__ or current.__context__
    specific = [c for c in codes if c != "database_unavailable"]
    return specific[0] if specific else (codes[0] if codes else None)


def _storage_code(exc: BaseException) -> str | None:
    if isinstance(exc, sa_exc.TimeoutError):  # no pooled connection free in time
        return "database_busy"
    if isinstance(exc, sa_exc.IntegrityError):
        return None
    if not isinstance(exc, sa_exc.DBAPIError):
        # A driver's own error, met in the chain.
        wrapped = sa_exc.DBAPIError(None, None, exc, connection_invalidated=False)
        if not type(exc).__module__.startswith(("sqlite3", "psycopg")):
            return None
        exc = wrapped
    orig = exc.orig
    sqlstate = getattr(orig, "sqlstate", None) or getattr(orig, "pgcode", None)
    if isinstance(sqlstate, str) and sqlstate in _PG_CODES:
        return _PG_CODES[sqlstate]
    name = getattr(orig, "sqlite_errorname", None)  # SQLITE_BUSY, SQLITE_READONLY_…
    if isinstance(name, str):
        for prefix, code in _SQLITE_CODES:
            if name.startswith(prefix):
                return code
    text = str(orig).lower()
    for words, code in (
        (("locked", "busy"), "database_busy"),
        (("readonly", "read-only", "read only"), "database_read_only"),
        (("disk is full", "no space"), "database_full"),
    ):
        if any(w in text for w in words):
            return code
    if exc.connection_invalidated or isinstance(
        exc, (sa_exc.OperationalError, sa_exc.InterfaceError)
    ):
        return "database_unavailable"
    return None


def _note_failure(request: Request, exc: Exception) -> None:
    """A failed write or fsync met by a request (SQLite's own fsync in a commit, with group
    commit off) stops the process's writes until the database is checked
    (:class:`pasyans.server.storage.groupsync.Health`)."""
    orig = getattr(exc, "orig", None)
    engine = getattr(request.app.state, "engine", None)
    found = health(engine) if engine is not None else None
    if found is not None and orig is not None and is_io_error(orig):
        found.fail(orig)


def allowed_methods(request: Request) -> str:
    """Every method some route takes at the request's path (Starlette's 405 names only the
    first route matched: ``POST`` for ``/api/games``, whose ``GET`` is another route)."""
    from starlette.routing import Match

    methods: set[str] = set()
    for method in ("GET", "POST", "PUT", "PATCH", "DELETE"):
        scope = {**request.scope, "method": method}
        if any(r.matches(scope)[0] == Match.FULL for r in request.app.router.routes):
            methods.add(method)
    if "GET" in methods:
        methods.add("HEAD")
    return ", ".join(sorted(methods))


def storage_error(code: str) -> ApiError:
    return ApiError(code, headers={"Retry-After": str(RETRY_AFTER_SECONDS)})


class ApiError(Exception):
    """An error answer. ``extra`` fields go beside ``error`` in the body (the 409 state)."""

    def __init__(
        self,
        code: str,
        message: str | None = None,
        *,
        status: int | None = None,
        text: str | None = None,
        params: dict[str, object] | None = None,
        extra: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        """``message``: an English detail in place of the catalogue's English text;
        ``text``: the catalogue code of the texts (default ``error.<code>``), filled with
        ``params``."""
        super().__init__(code)
        self.code = code
        self.status = status or STATUS.get(code, 422)
        key = text or f"error.{code}"
        if messages.has(key):
            en, ru = messages.both(key, **(params or {}))
        else:  # a code the catalogue does not name (an unusual HTTP status)
            en = ru = message or code.replace("_", " ")
        self.message_en = message or en
        self.message_ru = ru
        self.extra = extra or {}
        self.headers = headers


def from_engine(e: PasyansError) -> ApiError:
    """The API error for an engine error: 422 with a stable code."""
    code = type(e).code if isinstance(e, IllegalMoveError) else e.code
    err = ApiError(code, str(e), status=STATUS.get(code, 422))
    if isinstance(e, IllegalMoveError):
        err.extra = {"reason": e.code}
        reason = f"refusal.{e.code}"
        err.message_ru = messages.text(
            reason if messages.has(reason) else "error.illegal_move", "ru"
        )
    return err


def wants_russian(request: Request) -> bool:
    """Whether the request prefers Russian to English (``Accept-Language``, q-values)."""
    best: tuple[float, str] = (-1.0, "en")
    for part in request.headers.get("accept-language", "")[:200].split(","):
        lang, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        primary = lang.strip().lower()[:2]
        if primary in ("ru", "en") and q > best[0]:
            best = (q, primary)
    return best[1] == "ru"


def error_body(request: Request, err: ApiError) -> dict[str, Any]:
    inner: dict[str, Any] = {
        "code": err.code,
        "message": err.message_ru if wants_russian(request) else err.message_en,
        "message_en": err.message_en,
        "message_ru": err.message_ru,
    }
    reason = err.extra.get("reason")
    if reason is not None:
        inner["reason"] = reason
    if "details" in err.extra:
        inner["details"] = err.extra["details"]
    # Issue 3's flat ``{"code", "message"}`` at the top, the full record under ``error``.
    body: dict[str, Any] = {"code": inner["code"], "message": inner["message"], "error": inner}
    body.update({k: v for k, v in err.extra.items() if k not in ("reason", "details")})
    return body


def error_response(request: Request, err: ApiError) -> JSONResponse:
    return JSONResponse(error_body(request, err), status_code=err.status, headers=err.headers)


_BOUNDS = ("greater_than_equal", "less_than_equal")


def _domain_error(errors: Sequence[Any]) -> ApiError | None:
    """The engine's own code for what the schema's enums and bounds now refuse first: an
    unknown game id, an option or value a game does not have, a deal number out of range.
    Wrong types and shapes stay ``validation_error``."""
    for e in errors:
        kind = e.get("type")
        loc = tuple(e.get("loc", ()))
        given = e.get("input")
        if kind == "union_tag_invalid" and loc[:1] == ("body",):
            game = given.get("game") if isinstance(given, dict) else None
            if isinstance(game, str) and len(game) <= 40:
                return ApiError("unknown_game", f"unknown game {game!r}; games: {', '.join(GAMES)}")
        if kind == "literal_error" and loc == ("query", "game") and len(str(given)) <= 40:
            return ApiError("unknown_game", f"unknown game {given!r}; games: {', '.join(GAMES)}")
        if len(loc) == 4 and loc[0] == "body" and loc[2] == "options":
            game, name = str(loc[1]), str(loc[3])
            if kind == "extra_forbidden":
                return ApiError("bad_option", f"{game} has no option {name[:40]!r}")
            # A value of the wrong type (true, 2.0) is a validation error, as before.
            if kind == "literal_error" and type(given) in (str, int):
                return ApiError("bad_option", f"option {name}={str(given)[:40]!r} is not allowed")
        if loc == ("body", "action"):
            return ApiError("bad_action_id")
        if len(loc) == 3 and loc[0] == "body" and loc[2] == "deal" and kind in _BOUNDS:
            return ApiError("bad_deal")  # the catalogue's texts, both languages
    return None


def install(app: FastAPI) -> None:
    """Turn every error into the JSON shape: ours, the engine's, FastAPI's and the rest."""

    async def on_api_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, ApiError)
        return error_response(request, exc)

    async def on_engine_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, PasyansError)
        return error_response(request, from_engine(exc))

    async def on_validation(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        errors = exc.errors()
        if any(e.get("type") == "json_invalid" for e in errors):
            return error_response(request, ApiError("malformed_json"))
        content_type = request.headers.get("content-type", "")
        if request.method in ("POST", "PUT", "PATCH") and "json" not in content_type:
            return error_response(request, ApiError("unsupported_media_type"))
        mapped = _domain_error(errors)
        if mapped is not None:
            return error_response(request, mapped)
        details = [
            {"loc": [str(x) for x in e.get("loc", ())], "msg": str(e.get("msg", ""))[:200]}
            for e in errors[:20]
        ]
        return error_response(request, ApiError("validation_error", extra={"details": details}))

    async def on_http(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        code = {404: "not_found", 405: "method_not_allowed", 413: "body_too_large"}.get(
            exc.status_code, "http_error"
        )
        headers = dict(exc.headers or {})
        if exc.status_code == 405:
            headers["Allow"] = allowed_methods(request)
        err = ApiError(code, status=exc.status_code, headers=headers or None)
        return error_response(request, err)

    async def on_database(request: Request, exc: Exception) -> JSONResponse:
        code = storage_code(exc)
        _note_failure(request, exc)
        if code is not None:
            log.warning(
                "%s on %s %s: %s", code, request.method, request.url.path, exc.__cause__ or exc
            )
            return error_response(request, storage_error(code))
        return await on_other(request, exc)

    async def on_other(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error on %s %s", request.method, request.url.path)
        return error_response(request, ApiError("internal_error"))

    app.add_exception_handler(ApiError, on_api_error)
    app.add_exception_handler(PasyansError, on_engine_error)
    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(StarletteHTTPException, on_http)
    app.add_exception_handler(sa_exc.DBAPIError, on_database)
    app.add_exception_handler(sa_exc.TimeoutError, on_database)
    app.add_exception_handler(Exception, on_other)
