"""axe-core in a real browser: no serious or critical violation on the home, rules, table
(every game, plain and four-colour + large, with the help overlay open) and statistics pages.

axe-core comes from npm at test time (``npm install axe-core@4`` into ``tests/e2e/.npm``,
its ``axe.min.js`` copied to ``tests/e2e/vendor/``; both are git-ignored). The page's CSP
allows scripts from its own origin only, so the test serves the file itself: a Playwright
route answers ``/__axe__/axe.min.js`` on the app's origin (the app never serves it), and
``add_script_tag(url=...)`` loads it. Without npm the tests are skipped locally and fail in
CI (CI=true).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from e2e_helpers import GAMES, open_table
from playwright.sync_api import Page, expect

HERE = Path(__file__).parent
VENDOR = HERE / "vendor" / "axe.min.js"
AXE_URL = "/__axe__/axe.min.js"


def _unavailable(why: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"axe-core is needed in CI: {why}")
    pytest.skip(why)


@pytest.fixture(scope="session")
def axe_file() -> Path:
    if VENDOR.exists():
        return VENDOR
    npm = shutil.which("npm")
    if not npm:
        _unavailable("npm is not installed")
    prefix = HERE / ".npm"
    try:
        subprocess.run(
            [str(npm), "install", "--prefix", str(prefix), "axe-core@4", "--no-audit", "--no-fund"],
            check=True,
            capture_output=True,
            timeout=300,
        )
    except (subprocess.SubprocessError, OSError) as e:
        _unavailable(f"npm install axe-core@4 failed: {e}")
    src = prefix / "node_modules" / "axe-core" / "axe.min.js"
    VENDOR.parent.mkdir(exist_ok=True)
    shutil.copyfile(src, VENDOR)
    return VENDOR


def run_axe(page: Page, axe_file: Path) -> list[dict[str, Any]]:
    """axe's serious and critical violations on the page as it is now."""
    body = axe_file.read_bytes()
    page.route(
        f"**{AXE_URL}",
        lambda route: route.fulfill(body=body, content_type="text/javascript"),
    )
    if not page.evaluate("() => !!window.axe"):
        page.add_script_tag(url=AXE_URL)
    result: dict[str, Any] = page.evaluate(
        """async () => await axe.run(document, {
            runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa',
                                            'wcag22aa', 'best-practice']},
            resultTypes: ['violations'],
        })"""
    )
    bad = [v for v in result["violations"] if v["impact"] in ("serious", "critical")]
    return bad


def report(bad: list[dict[str, Any]]) -> str:
    out = []
    for v in bad:
        nodes = [n["target"] for n in v["nodes"][:5]]
        out.append(f"{v['id']} ({v['impact']}): {v['help']} — {json.dumps(nodes)}")
    return "\n".join(out)


def clean(page: Page, axe_file: Path) -> None:
    bad = run_axe(page, axe_file)
    assert not bad, report(bad)


def test_home(page: Page, axe_file: Path) -> None:
    page.goto("/")
    expect(page.locator(".game-card").first).to_be_visible()
    clean(page, axe_file)


@pytest.mark.parametrize("game", GAMES)
def test_rules(page: Page, axe_file: Path, game: str) -> None:
    page.goto(f"/rules/{game}")
    expect(page.locator("h1")).to_be_visible()
    expect(page.locator("main")).not_to_contain_text("Loading")
    clean(page, axe_file)


@pytest.mark.parametrize("game", GAMES)
def test_table(page: Page, axe_file: Path, game: str) -> None:
    open_table(page, game, deal=5)
    page.keyboard.press("Escape")  # a stuck dialog may have opened
    clean(page, axe_file)


@pytest.mark.parametrize("game", ["spider", "backbone"])
def test_table_four_colour_large_with_help_open(page: Page, axe_file: Path, game: str) -> None:
    open_table(page, game, deal=5)
    page.keyboard.press("Escape")
    page.locator("#pref-four").click()
    page.locator("#pref-large").click()
    expect(page.locator("body")).to_have_class("at-table four-colour large")
    clean(page, axe_file)
    page.keyboard.press("Shift+?")
    expect(page.locator("dialog[data-dialog=help]")).to_be_visible()
    clean(page, axe_file)


def test_table_in_russian_with_a_card_picked_up(page: Page, axe_file: Path) -> None:
    open_table(page, "spider", deal=5)
    page.locator("#pref-lang").click()
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    page.locator(".card.playable").first.focus()
    page.keyboard.press("Enter")
    clean(page, axe_file)


def test_statistics_and_history(page: Page, axe_file: Path) -> None:
    # A finished game first, so the pages have figures, charts and a row to show.
    open_table(page, "spider", deal=9)
    page.locator('button[data-action="giveup"]').click()
    page.locator("dialog[data-dialog=giveup] button[data-answer=yes]").click()
    expect(page.locator('button[data-action="giveup"]')).to_be_disabled()
    page.goto("/stats")
    expect(page.locator("main h1")).to_be_visible()
    expect(page.locator("main")).not_to_contain_text("Loading")
    clean(page, axe_file)
    page.goto("/history")
    expect(page.locator("main h1")).to_be_visible()
    expect(page.locator("main")).not_to_contain_text("Loading")
    clean(page, axe_file)


def test_devices_page(page: Page, axe_file: Path) -> None:
    """The devices page with a code and its QR code shown, and a device in the list."""
    page.goto("/devices")
    page.locator('[data-action="code"]').click()
    expect(page.locator("img.code-qr")).to_be_visible()
    expect(page.locator("li.device")).to_have_count(1)
    clean(page, axe_file)
