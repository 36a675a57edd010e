"""Browser-test fixtures: Debian's Chromium through Playwright, and the real app served by
uvicorn on 127.0.0.1 (a free port, a temporary SQLite database) for the whole session.

Without /usr/bin/chromium the browser tests are skipped locally and FAIL in CI (CI=true).
Every test fails on a console error or an uncaught page error (none is allowed: a first
visit's ``/api/current`` answers 200 with null). Screenshots go to
``PASYANS_SCREENSHOT_DIR`` (default ``build/screenshots``) for review.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from e2e_helpers import NO_AUTO_MOVES
from e2e_server import serve_app

CHROMIUM = Path("/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[2]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).is_relative_to(here):
            item.add_marker(pytest.mark.browser)
            if not CHROMIUM.exists() and os.environ.get("CI") != "true":
                item.add_marker(pytest.mark.skip(reason="no /usr/bin/chromium"))


@pytest.fixture(scope="session", autouse=True)
def _chromium_present() -> None:
    if not CHROMIUM.exists() and os.environ.get("CI") == "true":
        pytest.fail("CI=true but /usr/bin/chromium is missing")
    # The machine may be shared and busy: give the page more time than the default 5 s.
    from playwright.sync_api import expect

    expect.set_options(timeout=15_000)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {
        **browser_type_launch_args,
        "executable_path": str(CHROMIUM),
        "args": [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_context_args, "locale": "en-US", "viewport": {"width": 1280, "height": 800}}


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real app for the whole session, limits off."""
    with serve_app(tmp_path_factory.mktemp("e2e-data")) as url:
        yield url


@pytest.fixture(scope="session")
def base_url(live_server: str) -> str:
    return live_server


@pytest.fixture(scope="session")
def shots() -> Path:
    d = Path(os.environ.get("PASYANS_SCREENSHOT_DIR", ROOT / "build" / "screenshots"))
    d.mkdir(parents=True, exist_ok=True)
    return d


@pytest.fixture(autouse=True)
def auto_moves_off(request: pytest.FixtureRequest) -> None:
    if "page" not in request.fixturenames or request.node.get_closest_marker("auto_moves"):
        return
    request.getfixturevalue("page").context.add_init_script(NO_AUTO_MOVES)


@pytest.fixture(autouse=True)
def console_errors(request: pytest.FixtureRequest) -> Iterator[list[str]]:
    """Collects console errors and page errors of every page; the test fails on any."""
    errors: list[str] = []
    if "page" not in request.fixturenames:
        yield errors
        return
    page = request.getfixturevalue("page")

    def on_console(msg: Any) -> None:
        if msg.type != "error":
            return
        url = (msg.location or {}).get("url", "")
        errors.append(f"console: {msg.text} ({url})")

    page.context.on("console", on_console)
    page.context.on("weberror", lambda e: errors.append(f"page error: {e.error}"))
    yield errors
    assert not errors, "\n".join(errors)
