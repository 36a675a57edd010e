"""API errors: one JSON shape with a stable code and messages in English and Russian.

``{"code", "message", "error": {"code", "message", "message_en", "message_ru"}}``;
``message`` follows the request's ``Accept-Language``. Engine errors
(:class:`~pasyans.errors.PasyansError`) map to 422 with their class's code; an illegal
move also names the engine's precise ``reason``.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from pasyans.errors import IllegalMoveError, PasyansError

log = logging.getLogger("pasyans.server")

RU: dict[str, str] = {
    "malformed_json": "Тело запроса — не JSON.",
    "not_found": "Не найдено.",
    "method_not_allowed": "Этот метод здесь не разрешён.",
    "stale_version": "Партия уже изменилась (например, в другой вкладке): вот её текущее "
    "состояние.",
    "game_over": "Партия окончена: её нельзя менять.",
    "body_too_large": "Тело запроса слишком велико.",
    "unsupported_media_type": "Тело запроса должно быть в формате JSON.",
    "validation_error": "Запрос не прошёл проверку: не хватает поля, лишнее поле или неверный тип.",
    "unknown_game": "Такой игры нет.",
    "bad_option": "Такого параметра или значения у этой игры нет.",
    "bad_deal": "Номер раздачи — целое число от 1 до 2147483647.",
    "bad_notation": "Это не ход: пишите, например, «t3>f1», «t3>t5:4» или «stock».",
    "illegal_move": "Этот ход сейчас невозможен.",
    "nothing_to_undo": "Отменять нечего.",
    "nothing_to_redo": "Повторять нечего.",
    "no_autocollect": "Автосбор здесь недоступен.",
    "rate_limited": "Слишком много запросов: подождите немного.",
    "internal_error": "Внутренняя ошибка сервера.",
    "bad_saved_game": "Сохранённую партию не удалось восстановить.",
    "no_solvable_deal": "Для этого номера не нашлось решаемой раздачи: попробуйте другой.",
    "solvable_unavailable": "Для этой игры с такими настройками решаемых раздач нет: "
    "выберите обычную раздачу.",
}

RU_REASONS: dict[str, str] = {
    "does_not_fit": "Этот ход невозможен: карта туда не подходит.",
    "not_a_run": "Одним ходом переносится только убывающий ряд одной масти.",
    "empty_source": "Этот ход невозможен: стопка пуста.",
    "locked": "Хребет нельзя играть, пока на нём лежит копчик.",
    "not_playable": "Карты из этой стопки не берут рукой.",
    "unknown_pile": "В этой игре нет такой стопки.",
    "stock_empty_column": "Сдавать нельзя, пока есть пустой столбец: сначала положите карту "
    "в каждый столбец.",
    "stock_empty": "Колода пуста.",
    "no_redeals_left": "Колода пуста, и пересдач больше нет.",
    "no_stock": "В этой игре нет колоды.",
    "nothing_to_retarget": "Нет хода, который можно перенаправить.",
    "not_the_last_move": "Перенаправить можно только карты последнего хода.",
    "same_target": "Карты уже там.",
    "revealed": "Последний ход открыл карту: чтобы сыграть иначе, отмените его.",
}

EN: dict[str, str] = {
    "malformed_json": "The request body is not JSON.",
    "not_found": "Not found.",
    "method_not_allowed": "This method is not allowed here.",
    "stale_version": "The game has changed (in another tab, perhaps): here is its current state.",
    "game_over": "The game is over and cannot be changed.",
    "body_too_large": "The request body is too large.",
    "unsupported_media_type": "The request body must be JSON.",
    "validation_error": "The request is not valid: a missing field, an unknown field or a "
    "wrong type.",
    "rate_limited": "Too many requests: wait a little.",
    "internal_error": "Internal server error.",
}

STATUS: dict[str, int] = {
    "malformed_json": 400,
    "not_found": 404,
    "method_not_allowed": 405,
    "stale_version": 409,
    "game_over": 409,
    "body_too_large": 413,
    "unsupported_media_type": 415,
    "rate_limited": 429,
    "internal_error": 500,
}


class ApiError(Exception):
    """An error answer. ``extra`` fields go beside ``error`` in the body (the 409 state)."""

    def __init__(
        self,
        code: str,
        message: str | None = None,
        *,
        status: int | None = None,
        message_ru: str | None = None,
        extra: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(code)
        self.code = code
        self.status = status or STATUS.get(code, 422)
        self.message_en = message or EN.get(code, code.replace("_", " "))
        self.message_ru = message_ru or RU.get(code, self.message_en)
        self.extra = extra or {}
        self.headers = headers


def from_engine(e: PasyansError) -> ApiError:
    """The API error for an engine error: 422 with a stable code."""
    code = type(e).code if isinstance(e, IllegalMoveError) else e.code
    err = ApiError(code, str(e), status=422)
    if isinstance(e, IllegalMoveError):
        err.extra = {"reason": e.code}
        err.message_ru = RU_REASONS.get(e.code, RU["illegal_move"])
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
        err = ApiError(code, status=exc.status_code, headers=dict(exc.headers or {}) or None)
        return error_response(request, err)

    async def on_other(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error on %s %s", request.method, request.url.path)
        return error_response(request, ApiError("internal_error"))

    app.add_exception_handler(ApiError, on_api_error)
    app.add_exception_handler(PasyansError, on_engine_error)
    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(StarletteHTTPException, on_http)
    app.add_exception_handler(Exception, on_other)
