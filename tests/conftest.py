"""Shared fixtures. ``postgres_url``: a throwaway PostgreSQL server for the whole session.

It runs ``initdb`` into a temporary directory (as user ``postgres`` when the tests run as
root), starts the server with ``pg_ctl`` on 127.0.0.1 on a free port with fsync off,
creates the database ``pasyans_test`` and stops the server however the session ends
(:func:`devtools.throwaway_postgres`). Without PostgreSQL binaries the PostgreSQL
tests are skipped locally and FAIL in CI (``CI=true``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import ExitStack

import pytest
from devtools import PostgresUnavailable, throwaway_postgres

from pasyans import caches


@pytest.fixture(autouse=True)
def empty_caches() -> None:
    """Every test starts with the process's memories empty (:func:`pasyans.caches.clear`:
    the hints' lines and tallies, the server's sampled answers, the charts), so no test
    depends on what another one asked before it."""
    caches.clear()


def _unavailable(reason: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"PostgreSQL is required in CI: {reason}")
    pytest.skip(f"PostgreSQL not available: {reason}")


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """``postgresql+psycopg://postgres@127.0.0.1:PORT/pasyans_test`` of a fresh server."""
    with ExitStack() as stack:
        try:
            url = stack.enter_context(throwaway_postgres("pasyans_test", fsync=False))
        except PostgresUnavailable as e:
            _unavailable(str(e))
            raise
        yield url
