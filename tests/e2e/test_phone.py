"""The table on every screen (issue 12): layout targets read from the DOM, large mode,
the touch toolbar, the home page and the page weight.

One browser context per viewport; every game and option set is loaded once in it and
measured in normal and large mode (the "Large" switch redraws without a reload). The
measurements are shared by the geometry and the large-mode tests; screenshots of every
table go to the screenshot folder (``<viewport>-<game>-<mode>.png``) and the figures to
``geometry.json`` beside them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from e2e_geometry import OPTION_SETS, VIEWPORTS, Geometry, measure
from e2e_helpers import api_play, device_context, open_table, wait_table
from e2e_positions import first_card_move
from playwright.sync_api import Browser, Page, expect

_measured: dict[str, dict[str, tuple[Geometry, Geometry]]] = {}


def _name(game: str, options: dict[str, str]) -> str:
    extra = options.get("spine") or (options.get("suits") if game == "spider" else None)
    return f"{game}-{extra}" if extra else game


def _context(browser: Browser, base_url: str, vp: str, locale: str = "en-US") -> Any:
    w, h, dpr, touch = VIEWPORTS[vp]
    return device_context(browser, base_url, (w, h), dpr, touch, locale)


def _set_large(page: Page, on: bool) -> None:
    button = page.locator("#pref-large")
    if (button.get_attribute("aria-pressed") == "true") != on:
        button.click()
    expect(button).to_have_attribute("aria-pressed", "true" if on else "false")
    expect(page.locator("section.table")).to_have_class(
        re.compile(r"\blarge\b") if on else re.compile(r"^(?!.*\blarge\b)")
    )


def measured(
    browser: Browser, base_url: str, shots: Path, vp: str
) -> dict[str, tuple[Geometry, Geometry]]:
    """Every game and option set at viewport ``vp``: (normal, large) geometry."""
    if vp in _measured:
        return _measured[vp]
    ctx = _context(browser, base_url, vp)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    out: dict[str, tuple[Geometry, Geometry]] = {}
    for game, options in OPTION_SETS:
        page.goto(f"/play/{game}?" + urlencode({**options, "deal": "5", "kind": "random"}))
        wait_table(page)
        pair = []
        for large in (False, True):
            _set_large(page, large)
            g = measure(page)
            pair.append(g)
            mode = "large" if large else "normal"
            page.screenshot(path=str(shots / f"{vp}-{_name(game, options)}-{mode}.png"))
        _set_large(page, False)
        out[_name(game, options)] = (pair[0], pair[1])
    ctx.close()
    assert not errors, errors
    _measured[vp] = out
    figures = shots / "geometry.json"
    data = json.loads(figures.read_text()) if figures.exists() else {}
    data[vp] = {
        name: {
            mode: {
                "card_w": g.card_w,
                "min_strip": g.min_strip(),
                "min_font": g.min_font(),
                "problems": g.problems(),
            }
            for mode, g in zip(("normal", "large"), pair, strict=True)
        }
        for name, pair in out.items()
    }
    figures.write_text(json.dumps(data, indent=1, sort_keys=True))
    return out


@pytest.mark.parametrize("vp", list(VIEWPORTS))
def test_layout_targets(browser: Browser, base_url: str, shots: Path, vp: str) -> None:
    """Item 2: no sideways scroll; every pile on the screen; every card that can be picked
    up shows 24x24 px (32 px tall in large mode) with its whole index at 14 px (18)."""
    problems = []
    for name, pair in measured(browser, base_url, shots, vp).items():
        for mode, g in zip(("normal", "large"), pair, strict=True):
            assert g.cards, f"{name}: no card measured"
            problems += [f"{vp} {name} {mode}: {p}" for p in g.problems()]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("vp", list(VIEWPORTS))
def test_large_mode_enlarges(browser: Browser, base_url: str, shots: Path, vp: str) -> None:
    """Item 3: large mode makes the cards 1.25x, or where the width is used up, the index
    and the visible strips."""
    short = []
    for name, (normal, large) in measured(browser, base_url, shots, vp).items():
        cards = large.card_w / normal.card_w
        font = large.min_font() / normal.min_font()
        strips = large.min_strip() / normal.min_strip()
        if not (cards >= 1.245 or (font >= 1.245 and strips >= 1.245)):
            short.append(f"{name}: cards x{cards:.2f}, index x{font:.2f}, strips x{strips:.2f}")
    assert not short, "\n".join(short)


def test_touch_toolbar_and_desktop_tooltips(browser: Browser, base_url: str) -> None:
    """Item 5: on touch, a bar at the bottom with an icon and a label per button and no
    keyboard button; on a desktop, text buttons with their keys in the tooltip."""
    ctx = _context(browser, base_url, "390x844")
    page = ctx.new_page()
    open_table(page, "spider", deal=3)
    bar = page.locator(".toolbar .actions")
    box = bar.bounding_box()
    assert box and box["y"] + box["height"] >= 844 - 1 and box["y"] > 844 * 0.8
    expect(page.locator('[data-action="keys"]')).to_have_count(0)
    for action in ("new", "undo", "redo", "hint", "giveup"):
        button = bar.locator(f'[data-action="{action}"]')
        expect(button.locator(".ico")).to_be_visible()
        expect(button.locator(".short")).to_be_visible()
        b = button.bounding_box()
        assert b and b["height"] >= 44 and b["width"] >= 40  # a thumb's target
    ctx.close()

    ctx = _context(browser, base_url, "1366x768")
    page = ctx.new_page()
    open_table(page, "spider", deal=3)
    expect(page.locator('[data-action="keys"] .lbl')).to_be_visible()
    expect(page.locator('[data-action="undo"] .lbl')).to_have_text("Undo")
    expect(page.locator('[data-action="undo"] .ico')).to_be_hidden()
    expect(page.locator('[data-action="undo"]')).to_have_attribute("title", "Undo (Z)")
    expect(page.locator('[data-action="hint"]')).to_have_attribute("title", "Hint (H)")
    ctx.close()


CUT = """() => [...document.querySelectorAll('.toolbar .actions .btn:not([hidden]) .short')]
    .filter(s => s.scrollWidth > s.clientWidth + 0.5
      || parseFloat(getComputedStyle(s).fontSize) < 9)
    .map(s => `${s.dataset.t}: ${s.scrollWidth} px in ${s.clientWidth}, `
      + getComputedStyle(s).fontSize)"""


@pytest.mark.parametrize("locale", ["en-US", "ru-RU"])
@pytest.mark.parametrize("vp", ["360x640", "844x390"])
def test_touch_labels_are_whole(browser: Browser, base_url: str, vp: str, locale: str) -> None:
    """Item 5: every short label of the touch bar is whole (never "Сдаю…"), at 9 px at
    least, even with all nine buttons (Autocollect shown) on the narrowest phone. The
    site's bar and the game's line above the table are not cut either."""
    ctx = _context(browser, base_url, vp, locale)
    page = ctx.new_page()
    open_table(page, "backbone-classic", deal=1234567)
    page.evaluate("() => { document.querySelector('[data-action=autocollect]').hidden = false; }")
    expect(page.locator(".toolbar .actions .btn:not([hidden])")).to_have_count(9)
    assert page.evaluate(CUT) == []
    # The counters, the deal box and the settings are whole (the title may shorten).
    cut = page.evaluate(
        """() => [...document.querySelectorAll('.stats > *, .deal-form, .prefs .chip, .brand')]
            .filter(e => { const r = e.getBoundingClientRect();
              return r.right > innerWidth + 0.5 || r.left < -0.5
                || e.scrollWidth > e.clientWidth + 0.5; })
            .map(e => e.textContent)"""
    )
    assert cut == []
    ctx.close()


def test_home_tiles_one_tap_and_continue(browser: Browser, base_url: str) -> None:
    """Item 6: a tile per game with a drawing, titles and a line; Play in one tap with the
    options used last; the options (and the difficulty) in a disclosure; Continue."""
    ctx = _context(browser, base_url, "390x844")
    page = ctx.new_page()
    page.goto("/")
    tiles = page.locator("li.game-card")
    expect(tiles).to_have_count(5)
    for i in range(5):
        tile = tiles.nth(i)
        expect(tile.locator("svg.mini rect").first).to_be_attached()
        expect(tile.locator("h2")).not_to_be_empty()
        expect(tile.locator("p.other")).not_to_be_empty()
        expect(tile.locator("p.about")).not_to_be_empty()
        expect(tile.locator("details.more")).not_to_have_attribute("open", "")
    spider = page.locator('li.game-card[data-game="spider"]')
    difficulty = spider.locator('select[name="difficulty"]')
    expect(difficulty).to_be_hidden()  # inside the closed disclosure
    spider.locator("summary").click()
    expect(difficulty).to_be_visible()
    expect(difficulty).to_have_value("medium")
    expect(difficulty.locator("option")).to_have_count(3)
    spider.locator('input[name="suits"][value="1"]').check()
    # The table remembers the choice: one tap on Play starts with it.
    page.goto("/")
    page.locator('li.game-card[data-game="spider"] [data-action="play"]').tap()
    gid = wait_table(page)
    assert "suits=1" in page.url
    deal, move = first_card_move("spider", {"suits": "1"})
    page.goto(f"/play/spider?suits=1&deal={deal}")
    gid = wait_table(page)
    api_play(page, [move])
    page.goto("/")
    entry = page.locator(f'.continue-list a[data-game-id="{gid}"]')
    expect(entry).to_contain_text("Spider")
    expect(entry).to_contain_text("moves: 1")
    entry.tap()
    assert wait_table(page) == gid
    ctx.close()


def test_page_weight_of_a_table(browser: Browser, base_url: str) -> None:
    """Item 7: a table's first load is small, compressed and cacheable, and loads no module
    of the other pages."""
    ctx = _context(browser, base_url, "390x844")
    page = ctx.new_page()
    cdp = ctx.new_cdp_session(page)
    cdp.send("Network.enable")
    sizes: dict[str, int] = {}
    answers: dict[str, dict[str, Any]] = {}
    cdp.on("Network.responseReceived", lambda e: answers.__setitem__(e["requestId"], e["response"]))
    cdp.on(
        "Network.loadingFinished",
        lambda e: sizes.__setitem__(e["requestId"], e["encodedDataLength"]),
    )
    open_table(page, "spider", deal=3)
    page.wait_for_load_state("networkidle")
    urls = [a["url"] for a in answers.values()]
    assert len(sizes) <= 12, urls
    assert sum(sizes.values()) <= 100 * 1024, f"{sum(sizes.values())} bytes"
    for a in answers.values():
        headers = {k.lower(): v for k, v in a["headers"].items()}
        url = a["url"]
        text = (
            a["mimeType"].startswith("text/") or "json" in a["mimeType"] or "svg" in a["mimeType"]
        )
        if text and int(headers.get("content-length", "1000")) >= 500 and a["status"] == 200:
            assert headers.get("content-encoding") == "gzip", url
        if "/static/" in url and "favicon" not in url:
            assert "immutable" in headers.get("cache-control", ""), url
            assert re.search(r"\.[0-9a-f]{10}\.(js|css|svg)$", url), url
    for other in ("stats", "charts", "history", "replay"):
        assert not page.evaluate(f"() => '{other}' in (globalThis.__pasyans.defs || {{}})"), other
    ctx.close()
