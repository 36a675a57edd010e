"""Process-wide caches are declared in one place (:mod:`pasyans.caches`): each has a
name and a bound, and :func:`pasyans.caches.clear` empties the ones that remember answers
(the autouse fixture of conftest.py calls it before every test)."""

from __future__ import annotations

import importlib
import pkgutil

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
    } <= set(found)
    assert all(c.bound > 0 and c.name == name for name, c in found.items())


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
