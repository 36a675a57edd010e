"""Linked devices in a real browser: the first device plays a game and shows a code (and
its QR code) on the devices page, reached from the statistics page; a second browser
context opens the QR code's link, confirms, and then sees the same history. Screenshots of
the devices page at 1366x768 and 390x844 go to the shots directory."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from e2e_helpers import device_context
from playwright.sync_api import Browser, Page, expect


def counted_game(page: Page) -> str:
    """A game with one move, given up: one row of the history (through the page's cookie)."""
    r = page.request.post(
        "/api/games", data={"game": "spider", "deal": 7, "options": {"suits": "1"}}
    )
    assert r.status == 201, r.text()
    g = r.json()
    m = g["view"]["moves"][0]["text"]
    r = page.request.post(f"/api/games/{g['id']}/moves", data={"move": m, "version": g["version"]})
    assert r.ok, r.text()
    r = page.request.post(f"/api/games/{g['id']}/giveup", data={"version": r.json()["version"]})
    assert r.ok, r.text()
    return str(g["id"])


def history_rows(page: Page) -> list[str]:
    page.goto("/history")
    rows = page.locator("tr[data-id]")
    expect(rows.first).to_be_visible()
    return [str(rows.nth(i).get_attribute("data-id")) for i in range(rows.count())]


def test_a_second_browser_links_and_sees_the_same_history(
    page: Page, browser: Browser, base_url: str, shots: Path, console_errors: list[str]
) -> None:
    gid = counted_game(page)
    mine = history_rows(page)
    assert gid in mine

    page.goto("/stats")
    page.locator('a[data-link="devices"]').click()
    expect(page.locator("h1")).to_have_text("Your devices")
    page.locator('[data-action="code"]').click()
    code_el = page.locator(".code-value")
    expect(code_el).to_have_text(re.compile(r"^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$"))
    code = code_el.inner_text()
    qr = page.locator("img.code-qr")
    expect(qr).to_be_visible()
    assert page.evaluate("(img) => img.complete && img.naturalWidth > 0", qr.element_handle())
    expect(page.locator(".code-left")).to_contain_text("Valid for 9:5")
    expect(page.locator('[data-action="code"]')).to_have_text("New code")

    for w, h in ((1366, 768), (390, 844)):
        page.set_viewport_size({"width": w, "height": h})
        page.screenshot(path=str(shots / f"devices-{w}x{h}.png"), full_page=True)
        # Nothing sticks out sideways: the page fits the width.
        assert page.evaluate("document.documentElement.scrollWidth") <= w

    other = device_context(browser, base_url, (390, 844), scale=2, touch=True)
    errors: list[str] = []
    other.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    other.on("weberror", lambda e: errors.append(str(e.error)))
    try:
        second = other.new_page()
        assert second.request.get("/api/history").json()["items"] == []
        url: Any = page.evaluate("fetch('/api/devices').then(r => r.json())")
        assert len(url["devices"]) == 1
        # The QR code's link: the code in the fragment fills the form.
        second.goto(f"/devices#code={code}")
        expect(second.locator("#link-code-input")).to_have_value(code)
        second.locator('[data-action="link"]').click()
        second.locator('dialog[data-dialog="confirm"] [data-action="confirm"]').click()
        expect(second.locator("li.device")).to_have_count(2)
        expect(second.locator('li.device[data-current="true"]')).to_contain_text("this device")
        second.screenshot(path=str(shots / "devices-linked-390x844.png"), full_page=True)
        assert history_rows(second) == mine
    finally:
        other.close()
    assert not errors, errors
    page.goto("/devices")
    expect(page.locator("li.device")).to_have_count(2)
