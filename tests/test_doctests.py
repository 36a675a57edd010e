"""Run the doctests of every module in the ``pasyans`` package (``uv run pytest`` runs them).

Done here rather than with ``--doctest-modules`` so that the many ``conftest.py`` files of
the test tree are not collected as modules. Alembic's ``env.py`` only imports inside
Alembic and is skipped.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import pasyans

SKIP = ("pasyans.server.storage.migrations",)
MODULES = sorted(
    m.name
    for m in pkgutil.walk_packages(pasyans.__path__, "pasyans.")
    if not m.name.startswith(SKIP)
)


def test_every_module_is_listed() -> None:
    assert {"pasyans.cards", "pasyans.engine.core", "pasyans.rules.registry"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=True)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"
