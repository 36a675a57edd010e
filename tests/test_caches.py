"""Process-wide caches are declared in one place (:mod:`pasyans.caches`): each has a
name and a bound, and :func:`pasyans.caches.clear` empties the ones that remember answers
(the autouse fixture of conftest.py calls it before every test)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import sys
from typing import Any

import pytest

import pasyans
from pasyans import caches, hints
from pasyans.engine.core import initial_state
from pasyans.rules import get_game


def _import_everything() -> None:
    for m in pkgutil.walk_packages(pasyans.__path__, "pasyans."):
        if "migrations" not in m.name:
            importlib.import_module(m.name)


def test_every_cache_has_a_name_and_a_bound() -> None:
    _import_everything()
    found = caches.registered()
    assert {
        "hints.lines",
        "hints.tallies",
        "hints.macro_plans",
        "hints.nivernais_lines",
        "hints.playout_scores",
        "server.sampled_answers",
        "stats.charts",
        "rules.specs",
        "deals.solvable",
        "messages.catalogue",
        "messages.browser_json",
        "messages.digest",
        "server.assets",
        "server.catalog",
        "server.header_seconds",
    } <= set(found)
    assert all(c.bound > 0 and c.name == name for name, c in found.items())


def _module_level_function_caches() -> dict[str, Any]:
    """Every ``functools.cache``/``lru_cache`` wrapper defined at module level in pasyans,
    by its qualified name."""
    found: dict[str, Any] = {}
    for name, module in list(sys.modules.items()):
        if not name.startswith("pasyans.") and name != "pasyans":
            continue
        for value in vars(module).values():
            if (
                callable(value)
                and hasattr(value, "cache_clear")
                and hasattr(value, "cache_info")
                and getattr(value, "__module__", "").startswith("pasyans")
            ):
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return found


def test_every_module_level_function_cache_is_registered_and_bounded() -> None:
    """A new ``@functools.cache`` left out of :mod:`pasyans.caches` fails here."""
    _import_everything()
    wrappers = _module_level_function_caches()
    assert "pasyans.messages.catalogue" in wrappers  # the walk finds them
    by_wrapper = {id(getattr(c.empty, "__self__", None)): c for c in caches.registered().values()}
    for qualname, wrapper in wrappers.items():
        c = by_wrapper.get(id(wrapper))
        assert c is not None, f"{qualname} is not registered in pasyans.caches"
        maxsize = wrapper.cache_parameters()["maxsize"]
        if maxsize is None:  # functools.cache: bounded only when it takes no argument
            assert not inspect.signature(wrapper).parameters, f"{qualname} is unbounded"
            assert c.bound == 1, qualname
        else:
            assert c.bound == maxsize, qualname


def test_a_request_language_adds_no_cache_entry() -> None:
    from pasyans import messages

    assert messages.browser_json("xx-unknown") == messages.browser_json("en")
    assert messages._browser_json.cache_info().currsize <= len(messages.LANGS)


def test_clear_empties_the_memories_and_keeps_the_pure_memos() -> None:
    spec = get_game("spine")
    state = initial_state(spec, 3)
    hints.LINES.lost(spec, state)
    assert hints.LINES.get(spec, state) == (True, None)
    caches.clear()
    assert hints.LINES.get(spec, state) == (False, None)
    assert get_game("spine") is spec  # rules.specs is a pure memo: kept


def test_a_cache_without_clear_is_refused() -> None:
    with pytest.raises(TypeError):
        caches.register("test.nothing", object(), bound=1)
    with pytest.raises(ValueError):
        caches.register("test.unbounded", {}, bound=0)
