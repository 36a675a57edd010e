"""Every player-facing string, in every language, keyed by a stable code.

A code is ``<section>.<key>``: ``error.<code>`` (the API's error answers),
``refusal.<code>`` (why a move or the stock is refused), ``hint.<code>`` and
``verdict.<code>`` (what a hint or the solver says), ``ui.<key>`` (the browser's own
words). ``text(code, lang, **params)`` fills ``{name}`` placeholders; a list of forms
(plurals) is one string split by ``|``.

The data is one TOML file per language beside this module (``en.toml``, ``ru.toml``),
read once with :mod:`importlib.resources`. Why files and not Python dicts: a translator
copies one file and translates its right-hand sides, without reading code; the same
data is served to the browser as JSON (``GET /api/messages``); and TOML keeps comments
and needs no quoting of plain keys. ``tests/test_messages.py`` checks that every
language has the same codes and the same placeholders, and that every code is used.

This module is at the bottom of the layers: it imports nothing from :mod:`pasyans`.
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from pasyans import caches

LANGS = ("en", "ru")
"""The languages, the first being the fallback of an unknown one."""

SECTIONS = ("error", "refusal", "hint", "verdict", "ui")

PLACEHOLDER = re.compile(r"\{(\w+)\}")


@cache
def catalogue() -> dict[str, dict[str, str]]:
    """``{lang: {code: text}}`` for every language."""
    out: dict[str, dict[str, str]] = {}
    for lang in LANGS:
        raw = resources.files(__package__).joinpath(f"{lang}.toml").read_text("utf-8")
        table: dict[str, Any] = tomllib.loads(raw)
        flat: dict[str, str] = {}
        for section, entries in table.items():
            if section not in SECTIONS or not isinstance(entries, dict):
                raise ValueError(f"{lang}.toml: unknown section {section!r}")
            for key, value in entries.items():
                if not isinstance(value, str):
                    raise ValueError(f"{lang}.toml: {section}.{key} is not a string")
                flat[f"{section}.{key}"] = value
        out[lang] = flat
    return out


caches.register("messages.catalogue", catalogue, bound=1, memory=False)


def language(lang: str | None) -> str:
    """``lang`` when the catalogue has it, else the fallback (English)."""
    return lang if lang in LANGS else LANGS[0]


def has(code: str) -> bool:
    return code in catalogue()[LANGS[0]]


def text(code: str, lang: str | None = "en", **params: object) -> str:
    """The text of ``code`` in ``lang`` with its ``{name}`` placeholders filled from
    ``params``. An unknown code raises KeyError, and so does a missing parameter."""
    template = catalogue()[language(lang)][code]
    return PLACEHOLDER.sub(lambda m: str(params[m.group(1)]), template)


def both(code: str, **params: object) -> tuple[str, str]:
    """``(English, Russian)`` of ``code``: the pair the API's answers carry."""
    return text(code, "en", **params), text(code, "ru", **params)


def placeholders(template: str) -> frozenset[str]:
    return frozenset(PLACEHOLDER.findall(template))


def browser_json(lang: str | None) -> bytes:
    """What ``GET /api/messages?lang=`` answers: every code of ``lang`` as a JSON object
    (remembered per known language, so any ``lang`` a request sends adds no entry)."""
    return _browser_json(language(lang))


@lru_cache(maxsize=len(LANGS))
def _browser_json(lang: str) -> bytes:
    return json.dumps(
        catalogue()[lang], ensure_ascii=False, separators=(",", ":"), sort_keys=True
    ).encode()


caches.register("messages.browser_json", _browser_json, bound=len(LANGS), memory=False)


@cache
def digest() -> str:
    """A hash of the whole catalogue: the ``v`` of its cacheable URL."""
    h = hashlib.sha256()
    for lang in LANGS:
        h.update(browser_json(lang))
    return h.hexdigest()[:12]


caches.register("messages.digest", digest, bound=1, memory=False)
